# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/bench/build.mk - the bench's Check suite links the bench's own
# metric, replay, workload and engine-adapter sources, so what it checks is
# what genalloc-compare prints.  They are compiled a second time under
# $(B)/test/bench/core/ rather than shared with bench/build.mk: objects in
# TEST_OBJS inherit the test-only prerequisites (Check must be installed),
# which "make compare" must not need.  Appending to TEST_OBJS is enough
# because the runner's link rule lists $(TEST_OBJS).
BENCH_TEST_OBJS := $(BENCH_CORE:%=$(B)/test/bench/core/%.o)

$(B)/test/bench/core/%.o: bench/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

TEST_OBJS += $(BENCH_TEST_OBJS)

# genalloc-compare run as a user would (test/bench/compare_cli.sh) and the
# tracer recording a known program (test/bench/tracer_cli.sh), in the plain
# variants only: a preloaded tracer does not mix with the sanitizers'
# runtimes, and the rest adds nothing under them.
TRACEE := $(B)/test/bench/tracee
$(TRACEE): test/bench/tracee/main.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -o $@ $< $(ALL_LDFLAGS)

ifneq ($(filter release checked debug,$(VARIANT)),)
.PHONY: check-compare-cli
check-compare-cli: $(BENCH_COMPARE) $(BENCH_TRACER) $(TRACEE)
	sh test/bench/compare_cli.sh $(BENCH_COMPARE)
	sh test/bench/tracer_cli.sh $(BENCH_TRACER) $(TRACEE) $(BENCH_COMPARE)
CHECK_TARGETS += check-compare-cli
endif

# bench/map.sh on hand-made dumps, the dumper's and genalloc-compare's peak
# dumps (test/bench/map_cli.sh),
# in README's make check only: a shell script, the same under any build.
ifeq ($(B),build/checked)
.PHONY: check-map
check-map: $(B)/test/dump/dumper $(BENCH_COMPARE) | deps-gnuplot deps-jq deps-xmllint
	@sh test/bench/map_cli.sh $(B)/test/dump/dumper $(BENCH_COMPARE)
CHECK_TARGETS += check-map
endif
