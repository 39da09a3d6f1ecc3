# bench/build.mk - buddy against bitmap: "make compare" and "make bench".
#
# Programs, built by "make" under $(B)/bench/:
#   genalloc-compare       fragmentation and footprint, engines side by side
#   genalloc-speed         alloc+free cost against pool size, occupancy, threads
#   libgenalloc-trace.so   LD_PRELOAD tracer that records malloc traces
#
# An engine adapter is compiled in only once its engine defines what the
# adapter calls, so the bench builds at every step while legacy/, modern/
# and compat/ are being written (BENCH_ENGINE_FLAGS, also used by the test).

bench_lp := (
bench_defines = $(shell grep -lsE '^[A-Za-z_][A-Za-z0-9_ ]*[ *]$(2)[$(bench_lp)]|^$(2)[$(bench_lp)]' $(1)/*.c)
bench_has_all = $(if $(strip $(foreach f,$(2),$(if $(call bench_defines,$(1),$(f)),,no))),,yes)

BENCH_HAVE_LEGACY := $(call bench_has_all,legacy,legacy_alloc_gen_pool legacy_gen_pool_alloc \
	legacy_gen_pool_free legacy_gen_pool_destroy legacy_gen_pool_stats \
	legacy_gen_pool_set_linear_search)
BENCH_HAVE_COMPAT := $(call bench_has_all,compat,compat_gen_pool_create_backend \
	compat_gen_pool_alloc compat_gen_pool_free compat_gen_pool_destroy compat_gen_pool_stats)
BENCH_HAVE_MODERN := $(call bench_has_all,modern,modern_gen_pool_create modern_gen_pool_add \
	modern_gen_pool_alloc modern_gen_pool_free modern_gen_pool_set_algo \
	modern_gen_pool_destroy modern_gen_pool_stats modern_gen_pool_first_fit \
	modern_gen_pool_best_fit modern_gen_pool_first_fit_order_align)
BENCH_ENGINE_FLAGS := $(if $(BENCH_HAVE_LEGACY),-DBENCH_HAVE_LEGACY) \
	$(if $(BENCH_HAVE_COMPAT),-DBENCH_HAVE_COMPAT) $(if $(BENCH_HAVE_MODERN),-DBENCH_HAVE_MODERN)

# Everything but the programs' main files and the tracer: the test links
# these too (test/bench/build.mk).
BENCH_CORE := chunks engines engine_legacy engine_compat engine_modern generators \
	trace metrics replay options
BENCH_CORE_OBJS := $(BENCH_CORE:%=$(B)/bench/%.o)
BENCH_COMPARE_OBJS := $(B)/bench/compare.o $(B)/bench/report_table.o \
	$(B)/bench/report_files.o $(BENCH_CORE_OBJS)
BENCH_SPEED_OBJS := $(B)/bench/speed.o $(BENCH_CORE_OBJS)

BENCH_COMPARE := $(B)/bench/genalloc-compare
BENCH_SPEED := $(B)/bench/genalloc-speed
BENCH_TRACER := $(B)/bench/libgenalloc-trace.so
PROGRAMS += $(BENCH_COMPARE) $(BENCH_SPEED) $(BENCH_TRACER)

$(B)/bench/%.o: ALL_CPPFLAGS += $(BENCH_ENGINE_FLAGS)

$(BENCH_COMPARE): $(BENCH_COMPARE_OBJS) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(BENCH_COMPARE_OBJS) $(LIB_A) -lm $(ALL_LDFLAGS)

$(BENCH_SPEED): $(BENCH_SPEED_OBJS) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(BENCH_SPEED_OBJS) $(LIB_A) -lm $(ALL_LDFLAGS)

# The tracer is preloaded into other programs: it links nothing of ours.
$(BENCH_TRACER): bench/tracer.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -shared -fPIC -o $@ $< -ldl $(ALL_LDFLAGS)

-include $(BENCH_COMPARE_OBJS:.o=.d) $(B)/bench/speed.d $(B)/bench/libgenalloc-trace.d

# "make compare" and "make bench" always measure the release build.
BENCH_RELEASE := build/release$(if $(filter cc,$(CCNAME)),,-$(CCNAME))/bench
COMPARE_ARGS ?=
BENCH_ARGS ?=

.PHONY: compare bench bench-programs help-bench
bench-programs: $(BENCH_COMPARE) $(BENCH_SPEED) $(BENCH_TRACER)

compare: deps-gnuplot
	@$(MAKE) --no-print-directory VARIANT=release bench-programs
	$(BENCH_RELEASE)/genalloc-compare $(COMPARE_ARGS)

bench:
	@$(MAKE) --no-print-directory VARIANT=release bench-programs
	$(BENCH_RELEASE)/genalloc-speed $(if $(BENCH_FULL),--full) $(BENCH_ARGS)

help: help-bench
help-bench:
	@echo 'Bench (bench/):'
	@echo '  compare         every workload through every engine, both regimes: table on'
	@echo '                  stdout, CSV + plots + index.html in build/compare/ (installs gnuplot)'
	@echo '                  COMPARE_ARGS="..." passes options (see genalloc-compare --help)'
	@echo '  bench           alloc+free speed against pool size (1M..1G), occupancy, threads;'
	@echo '                  BENCH_FULL=1 for the long version, BENCH_ARGS="..." for options'
	@echo '  $(BENCH_TRACER)  LD_PRELOAD malloc tracer (bench/README.md)'
