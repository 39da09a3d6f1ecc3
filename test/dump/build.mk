# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/dump/build.mk - the layout dump's JSON read back by jq and compared
# with the walk (test/dump/run.sh), in every variant.
DUMPER := $(B)/test/dump/dumper
DUMPER_SRCS := $(addprefix test/dump/,dumper.c dump_modern.c dump_legacy.c dump_compat.c)
$(DUMPER): $(DUMPER_SRCS) test/dump/dumper.h test/dump/dump_2005.h $(LIB_A)
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -o $@ $(DUMPER_SRCS) $(LIB_A) $(ALL_LDFLAGS)

.PHONY: check-dump
check-dump: $(DUMPER) | deps-jq
	@sh test/dump/run.sh $(DUMPER)
CHECK_TARGETS += check-dump
