# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# bench/build.mk - buddy against bitmap: "make compare" and "make bench".
#
# Programs, built by "make" under $(B)/bench/:
#   genalloc-compare       fragmentation and footprint, engines side by side
#   genalloc-speed         alloc+free cost against pool size, occupancy, threads
#   genalloc-order-cost    alloc and free cost split by request order
#   libgenalloc-trace.so   LD_PRELOAD tracer that records malloc traces

# Everything but the programs' main files and the tracer: the test links
# these too (test/bench/build.mk).
BENCH_CORE := chunks engines engine_2005 engine_legacy engine_compat engine_modern engine_tlsf \
	engine_noop engine_linux \
	tlsf tlsf_inband generators \
	trace metrics replay options
BENCH_CORE_OBJS := $(BENCH_CORE:%=$(B)/bench/%.o)
BENCH_COMPARE_OBJS := $(B)/bench/compare.o $(B)/bench/report_table.o \
	$(B)/bench/report_verdict.o $(B)/bench/report_files.o $(BENCH_CORE_OBJS)
BENCH_SPEED_OBJS := $(B)/bench/speed.o $(B)/bench/speed_report.o \
	$(B)/bench/speed_options.o $(B)/bench/speed_timing.o $(B)/bench/speed_workloads.o \
	$(BENCH_CORE_OBJS)

BENCH_COMPARE := $(B)/bench/genalloc-compare
BENCH_SPEED := $(B)/bench/genalloc-speed
BENCH_ORDER := $(B)/bench/genalloc-order-cost
BENCH_TRACER := $(B)/bench/libgenalloc-trace.so
PROGRAMS += $(BENCH_COMPARE) $(BENCH_SPEED) $(BENCH_ORDER) $(BENCH_TRACER)
# make check runs "genalloc-speed --check": every engine in tiny runs, and the
# points it must skip rather than crash on (a request larger than the pool,
# more threads than live blocks), in every variant (sanitizers, valgrind).
CHECK_PROGRAMS += $(BENCH_SPEED)

$(BENCH_COMPARE): $(BENCH_COMPARE_OBJS) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(BENCH_COMPARE_OBJS) $(LIB_A) -lm $(ALL_LDFLAGS)

$(BENCH_SPEED): $(BENCH_SPEED_OBJS) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(BENCH_SPEED_OBJS) $(LIB_A) -lm $(ALL_LDFLAGS)

BENCH_ORDER_OBJS := $(B)/bench/order_cost.o $(BENCH_CORE_OBJS)
$(BENCH_ORDER): $(BENCH_ORDER_OBJS) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(BENCH_ORDER_OBJS) $(LIB_A) -lm $(ALL_LDFLAGS)

# The tracer is preloaded into other programs: it links nothing of ours.
$(BENCH_TRACER): bench/tracer.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -shared -fPIC -o $@ $< -ldl $(ALL_LDFLAGS)

-include $(BENCH_COMPARE_OBJS:.o=.d) $(BENCH_SPEED_OBJS:.o=.d) $(B)/bench/order_cost.d \
	$(B)/bench/libgenalloc-trace.d

# "make compare" and "make bench" always measure the release build.
BENCH_RELEASE := build/release$(if $(filter cc,$(CCNAME)),,-$(CCNAME))/bench
COMPARE_ARGS ?=
BENCH_ARGS ?=
# The engines of the fixed-request-size workloads: index and linear search
# of each algorithm, instant fit, the two TLSF yardsticks, the 2005 buddy and compat.
BENCH_FIXED_ENGINES := ff8,kff8,bf8,kbf8,if8,ffo8,kffo8,ffa8,kffa8,tlsfi8,tlsf8,buddy,compat

.PHONY: compare bench bench-instr bench-programs help-bench
bench-programs: $(BENCH_COMPARE) $(BENCH_SPEED) $(BENCH_ORDER) $(BENCH_TRACER)

# TRACE=a.trace[.gz],b.trace replays those traces instead of the built-in
# workloads (add "generators,traces" to the list to keep them too).
TRACE ?=
# A variable given on the command line that no rule reads is most likely a
# typo (TRACES=, COMPARE_ARG=): say so rather than run the default set.
COMPARE_VARS := TRACE COMPARE_ARGS BENCH_ARGS BENCH_FULL INSTR_ARGS CC CFLAGS CPPFLAGS \
	LDFLAGS VARIANT SUITE CK_TIMEOUT TEST_WRAPPER PREFIX DESTDIR LIBDIR INCLUDEDIR \
	PKGCONFIGDIR CXX FUZZ_SECONDS SOAK_SECONDS
ifneq ($(filter compare,$(MAKECMDGOALS)),)
$(foreach v,$(filter-out $(COMPARE_VARS),$(foreach v,$(.VARIABLES),\
	$(if $(filter command line,$(origin $(v))),$(v)))),\
	$(warning make compare: $(v) is not a variable make compare reads (TRACE=, COMPARE_ARGS=)))
endif

# Both write machine.txt beside their results (bench/machine.sh): the
# machine, compiler, date and load the figures come from; stdout opens
# with the same lines.
compare: deps-gnuplot deps-jq
	@$(MAKE) --no-print-directory VARIANT=release bench-programs
	@mkdir -p build/compare && sh bench/machine.sh '$(CC)' | tee build/compare/machine.txt
	$(BENCH_RELEASE)/genalloc-compare $(if $(TRACE),-w '$(TRACE)') $(COMPARE_ARGS)

bench: deps-gnuplot
	@$(MAKE) --no-print-directory VARIANT=release bench-programs
	@mkdir -p build/bench && sh bench/machine.sh '$(CC)' | tee build/bench/machine.txt
	$(BENCH_RELEASE)/genalloc-speed $(if $(BENCH_FULL),--full) --csv build/bench/speed.csv $(BENCH_ARGS)
	@cd build/bench && gnuplot $(CURDIR)/bench/scaling.gp && \
		echo "Scaling plot: build/bench/scaling.svg (from build/bench/speed.csv)"
	@echo; echo "FIXED REQUEST SIZES: the same on every pool (64 MiB pool, 64 B; 1 MiB, 64 MiB, 1 GiB pools, log-uniform 16 B..64 KiB)"
	$(BENCH_RELEASE)/genalloc-speed $(if $(BENCH_FULL),--full) --pools 64M --sizes 64..64 \
		-e $(BENCH_FIXED_ENGINES) --many-chunks none --linear none --fixed-offsets none --csv build/bench/fixed-64.csv
	$(BENCH_RELEASE)/genalloc-speed $(if $(BENCH_FULL),--full) --pools 1M,64M,1G --sizes 16..65536 \
		-e $(BENCH_FIXED_ENGINES) --many-chunks none --linear none --fixed-offsets none --csv build/bench/fixed-loguniform.csv

# Instructions, simulated cache misses and branch mispredictions a pair,
# under valgrind: the same on every run, where the times of "make bench"
# move with the machine.
INSTR_ARGS ?=
bench-instr: deps-valgrind
	@$(MAKE) --no-print-directory VARIANT=release bench-programs
	bash bench/instr.sh --bin $(BENCH_RELEASE)/genalloc-speed $(INSTR_ARGS)

help: help-bench
help-bench:
	@echo 'Bench (bench/):'
	@echo '  compare         every workload through every engine, three regimes: verdict and'
	@echo '                  tables on stdout, CSV + plots + index.html in build/compare/'
	@echo '                  (installs gnuplot); TRACE=a.trace[.gz],b.trace replays your'
	@echo '                  traces instead of the built-ins; COMPARE_ARGS="..." passes'
	@echo '                  options (see genalloc-compare --help)'
	@echo '  bench           alloc+free speed against pool size (1M..1G), occupancy, threads,'
	@echo '                  64M as 1000 chunks, gen_pool_fixed_alloc at random offsets,'
	@echo '                  fixed 64 B and 16 B-64 KiB requests, each with the harness'
	@echo '                  (loop) cost;'
	@echo '                  BENCH_FULL=1 for the long version, BENCH_ARGS="..." for options'
	@echo '  bench-instr     instructions and simulated cache misses per alloc+free pair'
	@echo '                  under valgrind (repeatable, unlike times; about 2 minutes);'
	@echo '                  INSTR_ARGS="..." for options (bash bench/instr.sh --help)'
	@echo '  $(BENCH_TRACER)  LD_PRELOAD malloc tracer (bench/README.md)'

# The prototypes of the engine's next search structure (not run by make bench).
include bench/proto/build.mk
