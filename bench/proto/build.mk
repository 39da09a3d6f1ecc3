# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# bench/proto/build.mk - genalloc-proto, candidate search structures for the
# modern engine measured against it and tlsf8 (bench/proto/main.c).  Built
# by "make" so that gcc and clang keep it -Werror clean; run by "make proto"
# only, never by "make check" or "make bench".
BENCH_PROTO := $(B)/bench/genalloc-proto
BENCH_PROTO_OBJS := $(patsubst %.c,$(B)/%.o,$(wildcard bench/proto/*.c)) \
	$(B)/bench/speed_report.o $(B)/bench/speed_options.o $(B)/bench/speed_timing.o \
	$(B)/bench/speed_workloads.o $(BENCH_CORE_OBJS)
PROGRAMS += $(BENCH_PROTO)

$(BENCH_PROTO): $(BENCH_PROTO_OBJS) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(BENCH_PROTO_OBJS) $(LIB_A) -lm $(ALL_LDFLAGS)

-include $(patsubst %.c,$(B)/%.d,$(wildcard bench/proto/*.c))

# PROTO_ARGS="..." runs one timing (genalloc-speed's options) instead of
# the verification and the memory table.
PROTO_ARGS ?=
.PHONY: proto help-proto
proto:
	@$(MAKE) --no-print-directory VARIANT=release $(BENCH_RELEASE)/genalloc-proto
	@sh bench/machine.sh '$(CC)'
ifeq ($(PROTO_ARGS),)
	$(BENCH_RELEASE)/genalloc-proto --verify
	$(BENCH_RELEASE)/genalloc-proto --memory
else
	$(BENCH_RELEASE)/genalloc-proto $(PROTO_ARGS)
endif

help: help-proto
help-proto:
	@echo '  proto           prototypes of a free-run search structure (bench/proto/): each'
	@echo '                  checked against the kernel'"'"'s answers, and their bookkeeping;'
	@echo '                  PROTO_ARGS="..." times them instead (genalloc-speed'"'"'s options)'
