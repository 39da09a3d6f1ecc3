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

/**
 * bench_replay_time() - replay @w again, timing only
 * @e, @cfg, @w:  as for the bench_replay() that filled @first
 * @first:        its results: which events failed there
 * @ok_seconds:   time in the calls that succeeded (and frees)
 * @fail_seconds: time in the calls that failed, each timed alone
 *
 * Return: 0, or -1 if the pool could not be created or the replay did not
 * fail where the first one did (the times are then not comparable).
 */
int bench_replay_time(const struct bench_engine *e, const struct bench_pool_config *cfg,
		      const struct bench_workload *w, const struct bench_metrics *first,
		      double *ok_seconds, double *fail_seconds);

/** bench_workload_peak_live() - the most bytes live at once in @w */
size_t bench_workload_peak_live(const struct bench_workload *w);

/**
 * bench_replay_dump_peak() - replay @w up to its peak, dump the pool there
 * @e, @cfg, @w: as for bench_replay()
 * @f:           where the pool's JSON layout goes: @e->dump's, with one
 *               more member, "requests", a list of the live blocks, each
 *               {"addr": "0x...", "size": bytes asked for, "granted":
 *               bytes the engine gave}, so that bench/map.sh can draw
 *               what a block holds beyond its request
 *
 * The peak is the event after which the bytes asked for and not yet freed
 * are highest (requests larger than @cfg->chunk_size left out, as the
 * replay skips them).
 *
 * Return: 0, or -1 (no dump for @e, no pool, or the dump failed).
 */
int bench_replay_dump_peak(const struct bench_engine *e, const struct bench_pool_config *cfg,
			   const struct bench_workload *w, FILE *f);

/** bench_workload_peak_live_upto() - the same, counting requests <= @limit only */
size_t bench_workload_peak_live_upto(const struct bench_workload *w, size_t limit);

/** bench_now() - a monotonic clock in seconds */
double bench_now(void);

#endif /* GENALLOC_BENCH_REPLAY_H */
