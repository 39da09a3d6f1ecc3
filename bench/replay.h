/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/replay.h - one workload through one engine under one regime.
 */
#ifndef GENALLOC_BENCH_REPLAY_H
#define GENALLOC_BENCH_REPLAY_H

#include "engine.h"
#include "metrics.h"
#include "workload.h"

/**
 * bench_replay() - replay @w through a fresh pool of @e and measure it
 * @e:        the engine
 * @cfg:      the conditions (chunk size, regime, capacity)
 * @w:        the workload
 * @samples:  about how many snapshots to take (at least one, at the end)
 * @m:        filled with the results (release with bench_metrics_release())
 *
 * Requests larger than @cfg->chunk_size are skipped for every engine alike
 * (counted in @m->skipped); a size of 0 is replayed as 1.  Frees of blocks
 * whose allocation failed are skipped.  Every block still live at the end
 * is freed before the pool is destroyed.  Only the alloc and free calls
 * are timed.
 *
 * Return: 0, or -1 if the pool could not be created.
 */
int bench_replay(const struct bench_engine *e, const struct bench_pool_config *cfg,
		 const struct bench_workload *w, size_t samples,
		 struct bench_metrics *m);

/** bench_workload_peak_live() - the most bytes live at once in @w */
size_t bench_workload_peak_live(const struct bench_workload *w);

/** bench_now() - a monotonic clock in seconds */
double bench_now(void);

#endif /* GENALLOC_BENCH_REPLAY_H */
