/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/metrics.h - what a comparison measures, and how.
 *
 * The accumulator is fed each request's outcome and, now and then, a
 * snapshot of the pool; it knows nothing of engines, so the hand-worked
 * test (test/bench/test_metrics.c) checks the same arithmetic the tables
 * print.  Definitions (all bytes):
 *
 * peak live       the most bytes requested and not yet freed at any moment
 * footprint       the most bytes the pool had obtained (growing regime)
 * fragmentation   (footprint - peak live) / peak live   (Johnstone & Wilson)
 * internal frag   bytes granted beyond those requested, over the live
 *                 blocks, at the moment of peak live; as a ratio of it
 * external frag   1 - largest free extent / total free, per snapshot;
 *                 0 when nothing is free; mean and max over the run
 * occupancy       fixed regime: live bytes requested when the first request
 *                 failed, over the capacity (peak live over capacity if
 *                 nothing failed)
 *
 * Arena regime (one region that never fills, Johnstone and Wilson's and the
 * TLSF papers' setting):
 *
 * high water      the highest byte ever handed out (block end - region base)
 * frag4           measure #4: (high water - peak live) / peak live
 * frag3           measure #3: (high water - live) / live, live taken when
 *                 the high-water mark was last raised
 * frag3 internal  bytes granted beyond those requested at that moment, / live
 * frag3 external  the rest: (high water - granted) / live, memory below the
 *                 mark that no block held
 */
#ifndef GENALLOC_BENCH_METRICS_H
#define GENALLOC_BENCH_METRICS_H

#include <stddef.h>

#include "engine.h"

/** struct bench_sample - one point of the time series */
struct bench_sample {
	size_t t;		/* events replayed so far */
	size_t live;		/* bytes requested and live */
	size_t obtained;	/* bytes the pool holds */
	size_t granted;		/* bytes granted to live blocks, by the engine model */
	size_t used;		/* obtained - free, by the engine's own statistics */
	double ext_frag;	/* 1 - largest free / total free */
};

/**
 * struct bench_metrics - the accumulator for one engine on one workload
 *
 * Fields are read directly by the reports; bench_metrics_*() keep them.
 */
struct bench_metrics {
	size_t capacity;	/* fixed regime's size; 0 when growing */
	size_t allocs, frees, failed, skipped;
	size_t live, peak_live;
	size_t live_granted, granted_at_peak;
	size_t peak_obtained;
	size_t high_water, live_at_hw, granted_at_hw;
	size_t metadata;	/* the most seen in a snapshot */
	int failed_once;
	size_t live_at_failure, granted_at_failure;
	double ext_sum, ext_max;
	size_t ext_samples;
	struct bench_sample *series;
	size_t nr_series, cap_series;
	double seconds;		/* time inside alloc and free calls */
	size_t timed_ops;
	size_t skipped_bytes;	/* bytes of the requests skipped */
	unsigned char *fail_map; /* per event, 1 if it failed; NULL if none did */
};

/** bench_metrics_init() - start from zero; @capacity is 0 when growing */
void bench_metrics_init(struct bench_metrics *m, size_t capacity);

/** bench_metrics_alloc() - a request of @req bytes got @granted */
void bench_metrics_alloc(struct bench_metrics *m, size_t req, size_t granted);

/**
 * bench_metrics_reach() - a block was handed out that ends @top bytes above
 * the region's base (arena regime): raises the high-water mark if it is
 * higher, noting live and granted bytes at that moment.  Call it after
 * bench_metrics_alloc() for the same block.
 */
void bench_metrics_reach(struct bench_metrics *m, size_t top);

/** bench_metrics_fail() - a request of @req bytes failed */
void bench_metrics_fail(struct bench_metrics *m, size_t req);

/** bench_metrics_free() - a block of @req bytes (@granted really) came back */
void bench_metrics_free(struct bench_metrics *m, size_t req, size_t granted);

/**
 * bench_metrics_sample() - record a snapshot of the pool
 * @m:  the accumulator
 * @t:  events replayed so far
 * @st: the pool's statistics
 */
void bench_metrics_sample(struct bench_metrics *m, size_t t,
			  const struct bench_stats *st);

/** bench_ext_frag() - 1 - largest free / total free, 0 if nothing is free */
double bench_ext_frag(const struct bench_stats *st);

/** bench_fragmentation() - (footprint - peak live) / peak live; 0 if no live */
double bench_fragmentation(const struct bench_metrics *m);

/** bench_internal_frag() - granted beyond requested at peak, / peak live */
double bench_internal_frag(const struct bench_metrics *m);

/** bench_frag4() - arena: (high water - peak live) / peak live; 0 if no live */
double bench_frag4(const struct bench_metrics *m);

/** bench_frag3() - arena: (high water - live then) / live then */
double bench_frag3(const struct bench_metrics *m);

/** bench_frag3_internal() - arena: (granted - live) / live, at the mark */
double bench_frag3_internal(const struct bench_metrics *m);

/** bench_frag3_external() - arena: (high water - granted) / live, at the mark */
double bench_frag3_external(const struct bench_metrics *m);

/** bench_occupancy() - fixed regime: live at first failure / capacity */
double bench_occupancy(const struct bench_metrics *m);

/** bench_ext_frag_mean() - mean external fragmentation over the snapshots */
double bench_ext_frag_mean(const struct bench_metrics *m);

/** bench_ns_per_op() - nanoseconds per timed alloc or free */
double bench_ns_per_op(const struct bench_metrics *m);

/** bench_metrics_release() - free the time series */
void bench_metrics_release(struct bench_metrics *m);

#endif /* GENALLOC_BENCH_METRICS_H */
