# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/fuzz/build.mk - libFuzzer harnesses for the three APIs, and their
# replay in make check.
#
#   make fuzz             build every harness with clang and run each for
#                         FUZZ_SECONDS (default 60) on build/fuzz/corpus-NAME/
#                         (seeded from test/fuzz/corpus/NAME/); fails on a
#                         crash, a leak, a timeout or a model mismatch
#   make fuzz-build       just build build/fuzz/fuzz-{legacy,modern,compat}
#   make fuzz-NAME        build and run one harness
#
# The harnesses and the whole library are compiled with
# -fsanitize=fuzzer-no-link,address,undefined into build/fuzz/ (their own
# object tree), and linked with -fsanitize=fuzzer.  A crash leaves its input
# in build/fuzz/artifacts-NAME/; minimise it (fuzz-NAME -minimize_crash=1
# -runs=10000 FILE) and commit it under test/fuzz/regressions/NAME/.
#
# make check runs the same harness sources as plain programs
# ($(B)/test/fuzz/replay-NAME, built with the variant's compiler and flags,
# so also under ASan, TSan and valgrind) over every committed input of
# test/fuzz/regressions/NAME/ and test/fuzz/corpus/NAME/.

FUZZ_NAMES := legacy modern compat
FUZZ_SRC := test/fuzz
# Sources every harness links; the 2005 model is legacy_model_suite's too.
FUZZ_SHARED := $(FUZZ_SRC)/fuzz_support $(FUZZ_SRC)/fuzz2005 test/legacy/model2005
FUZZ_SECONDS ?= 60
FUZZ_MAX_LEN ?= 4096
FUZZ_FLAGS ?=
FUZZ_CC ?= clang
FUZZ_OUT := build/fuzz

# ------------------------------------------------------------ replay (check)
FUZZ_REPLAY := $(FUZZ_NAMES:%=$(B)/test/fuzz/replay-%)
CHECK_PROGRAMS += $(FUZZ_REPLAY)

$(B)/test/fuzz/replay_main-%.o: $(FUZZ_SRC)/replay_main.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) -DFUZZ_NAME='"$*"' -DFUZZ_DIR='"$(CURDIR)/$(FUZZ_SRC)"' \
		$(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/test/fuzz/replay-%: $(B)/test/fuzz/fuzz_%.o $(B)/test/fuzz/replay_main-%.o \
		$(FUZZ_SHARED:%=$(B)/%.o) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(filter %.o,$^) $(LIB_A) $(ALL_LDFLAGS)

# ------------------------------------------------------------ libFuzzer
FUZZ_CFLAGS := -std=c11 $(WARN) -g -O1 -fno-omit-frame-pointer -pthread \
	-fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_CPPFLAGS := -D_GNU_SOURCE -I.
FUZZ_LIB_OBJS := $(LIB_SRCS:%.c=$(FUZZ_OUT)/obj/%.o)
FUZZ_BINS := $(FUZZ_NAMES:%=$(FUZZ_OUT)/fuzz-%)

$(FUZZ_OUT)/obj/%.o: %.c | deps-fuzzer
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link $(DEPFLAGS) -c -o $@ $<

$(FUZZ_OUT)/fuzz-%: $(FUZZ_OUT)/obj/$(FUZZ_SRC)/fuzz_%.o \
		$(FUZZ_SHARED:%=$(FUZZ_OUT)/obj/%.o) $(FUZZ_LIB_OBJS) | deps-fuzzer
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^

.PHONY: fuzz fuzz-build $(FUZZ_NAMES:%=fuzz-%) help-fuzz

fuzz-build: $(FUZZ_BINS)

# One harness at a time: -fork/-jobs would compete with the rest of the
# machine.  The committed seeds are copied (not linked) so that libFuzzer
# only ever writes under build/.
$(FUZZ_NAMES:%=fuzz-%): fuzz-%: $(FUZZ_OUT)/fuzz-%
	@mkdir -p $(FUZZ_OUT)/corpus-$* $(FUZZ_OUT)/artifacts-$*
	@cp -n $(FUZZ_SRC)/corpus/$*/* $(FUZZ_OUT)/corpus-$*/ 2>/dev/null || true
	@cp -n $(FUZZ_SRC)/regressions/$*/* $(FUZZ_OUT)/corpus-$*/ 2>/dev/null || true
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		$< -max_total_time=$(FUZZ_SECONDS) -max_len=$(FUZZ_MAX_LEN) -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_OUT)/artifacts-$*/ $(FUZZ_FLAGS) $(FUZZ_OUT)/corpus-$*

fuzz:
	@set -e; for n in $(FUZZ_NAMES); do $(MAKE) --no-print-directory fuzz-$$n; done

help: help-fuzz
help-fuzz:
	@echo '  fuzz            every libFuzzer harness (clang) for FUZZ_SECONDS each (60)'
	@echo '  fuzz-build      build/fuzz/fuzz-{legacy,modern,compat}; fuzz-NAME runs one'

-include $(FUZZ_NAMES:%=$(B)/test/fuzz/fuzz_%.d) $(FUZZ_NAMES:%=$(B)/test/fuzz/replay_main-%.d) \
	$(FUZZ_SHARED:%=$(B)/%.d) $(FUZZ_LIB_OBJS:.o=.d) \
	$(FUZZ_NAMES:%=$(FUZZ_OUT)/obj/$(FUZZ_SRC)/fuzz_%.d) \
	$(FUZZ_SHARED:%=$(FUZZ_OUT)/obj/%.d)
