// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/replay.c - replay a workload through an engine, measuring as it
 * goes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "replay.h"

double bench_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The peak of @w's live bytes, requests above @limit left out; *@at: the
 * event after which it is reached. */
static size_t peak_of(const struct bench_workload *w, size_t limit, size_t *at)
{
	size_t i, live = 0, peak = 0;

	*at = 0;
	for (i = 0; i < w->nr; i++) {
		if (w->ev[i].size > limit)
			continue;
		if (w->ev[i].op == BENCH_ALLOC)
			live += w->ev[i].size;
		else
			live -= w->ev[i].size;
		if (live > peak) {
			peak = live;
			*at = i + 1;
		}
	}
	return peak;
}

size_t bench_workload_peak_live_upto(const struct bench_workload *w, size_t limit)
{
	size_t at;

	return peak_of(w, limit, &at);
}

size_t bench_workload_peak_live(const struct bench_workload *w)
{
	return bench_workload_peak_live_upto(w, SIZE_MAX);
}

static void sample(struct bench_pool *p, struct bench_metrics *m, size_t t)
{
	struct bench_stats st;

	p->engine->stats(p, &st);
	bench_metrics_sample(m, t, &st);
}

/* Note that event @i failed, for the timed replays (bench_replay_time()). */
static void mark_failed(struct bench_metrics *m, size_t i, size_t nr)
{
	if (!m->fail_map)
		m->fail_map = calloc(nr, 1);
	if (m->fail_map)
		m->fail_map[i] = 1;
}

/* One event; the caller times it. */
static void step(struct bench_pool *p, const struct bench_event *ev,
		 unsigned long *addr, struct bench_metrics *m)
{
	const struct bench_engine *e = p->engine;
	size_t size = ev->size ? ev->size : 1;

	if (ev->op == BENCH_FREE) {
		if (addr[ev->id]) {
			e->free(p, addr[ev->id], size);
			bench_metrics_free(m, size, e->granted(p, size));
			addr[ev->id] = 0;
		}
		return;
	}
	if (size > p->cfg.chunk_size) {
		m->skipped++;
		m->skipped_bytes += size;
		return;
	}
	addr[ev->id] = e->alloc(p, size);
	if (addr[ev->id]) {
		size_t granted = e->granted(p, size);

		bench_metrics_alloc(m, size, granted);
		bench_metrics_reach(m, addr[ev->id] - p->chunks.base + granted);
	} else
		bench_metrics_fail(m, size);
}

static void free_all(struct bench_pool *p, const struct bench_workload *w,
		     unsigned long *addr)
{
	size_t i;

	/* Walk back so each id is freed with the size of its last allocation. */
	for (i = w->nr; i-- > 0;) {
		const struct bench_event *ev = &w->ev[i];

		if (ev->op == BENCH_ALLOC && addr[ev->id]) {
			p->engine->free(p, addr[ev->id], ev->size ? ev->size : 1);
			addr[ev->id] = 0;
		}
	}
}

/* A fresh pool and an empty address table for @w; -1 if either fails. */
static int start(const struct bench_engine *e, const struct bench_pool_config *cfg,
		 const struct bench_workload *w, struct bench_pool **p, unsigned long **addr)
{
	*p = e->create(e, cfg);
	if (!*p)
		return -1;
	*addr = calloc(w->nr_ids ? w->nr_ids : 1, sizeof(**addr));
	if (!*addr) {
		e->destroy(*p);
		return -1;
	}
	return 0;
}

/* Every block still live freed, then the pool destroyed. */
static void finish(struct bench_pool *p, const struct bench_workload *w, unsigned long *addr)
{
	free_all(p, w, addr);
	free(addr);
	p->engine->destroy(p);
}

int bench_replay(const struct bench_engine *e, const struct bench_pool_config *cfg,
		 const struct bench_workload *w, size_t samples,
		 struct bench_metrics *m)
{
	struct bench_pool *p;
	unsigned long *addr;
	size_t every = samples && w->nr > samples ? w->nr / samples : 1;
	size_t i = 0;

	bench_metrics_init(m, cfg->regime == BENCH_FIXED ? cfg->capacity : 0);
	if (start(e, cfg, w, &p, &addr))
		return -1;
	sample(p, m, 0);
	while (i < w->nr) {
		size_t end = i + every < w->nr ? i + every : w->nr;
		double t0 = bench_now();

		for (; i < end; i++) {
			size_t failed = m->failed;

			step(p, &w->ev[i], addr, m);
			if (m->failed != failed)
				mark_failed(m, i, w->nr);
		}
		m->seconds += bench_now() - t0;
		sample(p, m, i);
	}
	m->timed_ops = m->allocs + m->frees + m->failed;
	finish(p, w, addr);
	return 0;
}

/*
 * A run of events none of which failed in the first replay, timed as one
 * stretch; the failing ones alone, so their cost is not spread over the
 * successes (a refusal in a full bitmap searches it all).
 */
int bench_replay_time(const struct bench_engine *e, const struct bench_pool_config *cfg,
		      const struct bench_workload *w, const struct bench_metrics *first,
		      double *ok_seconds, double *fail_seconds)
{
	const unsigned char *fails = first->fail_map;
	struct bench_pool *p;
	struct bench_metrics m;
	unsigned long *addr;
	size_t i = 0;

	*ok_seconds = *fail_seconds = 0;
	if (start(e, cfg, w, &p, &addr))
		return -1;
	bench_metrics_init(&m, first->capacity);
	while (i < w->nr) {
		size_t end = i;
		double t0;

		if (fails && fails[i]) {
			t0 = bench_now();
			step(p, &w->ev[i++], addr, &m);
			*fail_seconds += bench_now() - t0;
			continue;
		}
		while (end < w->nr && !(fails && fails[end]))
			end++;
		t0 = bench_now();
		for (; i < end; i++)
			step(p, &w->ev[i], addr, &m);
		*ok_seconds += bench_now() - t0;
	}
	finish(p, w, addr);
	bench_metrics_release(&m);
	/* The same placement gives the same refusals; anything else is not comparable. */
	return m.failed == first->failed && m.allocs == first->allocs ? 0 : -1;
}

/*
 * free_all() takes each id's size from its last allocation in the whole
 * workload, which after a replay cut short may be a later one: the sizes
 * of the blocks live at the cut are kept as the replay goes instead.
 */
/*
 * @e's dump of @p with the live blocks' requests added as a last member:
 * the dump is one JSON object, so its closing brace gives way to them.
 */
static int dump_with_requests(const struct bench_engine *e, struct bench_pool *p,
			      const unsigned long *addr, const size_t *size, size_t nr, FILE *f)
{
	char *buf = NULL;
	size_t len = 0;
	const char *sep = "";
	FILE *m = open_memstream(&buf, &len);
	int rc;

	if (!m)
		return -1;
	rc = e->dump(p, m);
	if (fclose(m))
		rc = -1;
	while (!rc && len && buf[len - 1] != '}')
		len--;
	if (rc || !len) {
		free(buf);
		return -1;
	}
	fwrite(buf, 1, len - 1, f);
	free(buf);
	fputs(",\"requests\":[", f);
	for (size_t i = 0; i < nr; i++) {
		if (!addr[i])
			continue;
		fprintf(f, "%s\n{\"addr\":\"0x%lx\",\"size\":%zu,\"granted\":%zu}", sep, addr[i],
			size[i], e->granted(p, size[i]));
		sep = ",";
	}
	fputs("]}\n", f);
	return ferror(f) ? -1 : 0;
}

int bench_replay_dump_peak(const struct bench_engine *e, const struct bench_pool_config *cfg,
			   const struct bench_workload *w, FILE *f)
{
	struct bench_pool_config with_blocks = *cfg;
	struct bench_metrics m;
	struct bench_pool *p;
	unsigned long *addr;
	size_t i, end, *size;
	int rc;

	with_blocks.blocks = 1;
	if (!e->dump || start(e, &with_blocks, w, &p, &addr))
		return -1;
	size = calloc(w->nr_ids ? w->nr_ids : 1, sizeof(*size));
	(void)peak_of(w, cfg->chunk_size, &end);
	bench_metrics_init(&m, 0);
	for (i = 0; size && i < end; i++) {
		step(p, &w->ev[i], addr, &m);
		if (w->ev[i].op == BENCH_ALLOC)
			size[w->ev[i].id] = w->ev[i].size ? w->ev[i].size : 1;
	}
	rc = size && !dump_with_requests(e, p, addr, size, w->nr_ids, f) ? 0 : -1;
	for (i = 0; size && i < w->nr_ids; i++)
		if (addr[i])
			e->free(p, addr[i], size[i]);
	bench_metrics_release(&m);
	free(size);
	free(addr);
	e->destroy(p);
	return rc;
}
