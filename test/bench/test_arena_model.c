// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/bench/test_arena_model.c - the arena regime's figures on the
 * committed traces, against reference models written here from the
 * allocators' published rules, sharing no code with the bench's replay or
 * with the engines.
 *
 *   buddy 2005   blocks of 32 << k bytes up to the 4 MiB chunk, one LIFO free
 *                list per size; a request takes the head of the smallest
 *                non-empty list that fits, splitting it (lower half kept,
 *                upper half pushed on the next smaller list); a free merges
 *                with its buddy (address XOR size) while that is free; a new
 *                chunk comes after the last one.
 *   first fit    the lowest-addressed free extent that holds the request
 *                rounded up to 8 bytes.
 *   best fit     the smallest such extent, the lowest-addressed of equals.
 *
 * Both report measure #4, (high water - peak live) / peak live, and must
 * agree with genalloc-compare's arena figures exactly: the models place
 * every block where the engines do.  GENALLOC_ARENA_MODEL_SHOW=1 prints
 * the pairs.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "bench/engine.h"
#include "bench/metrics.h"
#include "bench/replay.h"
#include "bench/workload.h"

#define CHUNK ((size_t)4 << 20)
#define ATOM 32
#define ORDERS 18		/* 32 B .. 4 MiB */
#define NONE SIZE_MAX

/* ------------------------------------------------------------ buddy model */

struct buddy {
	size_t head[ORDERS];
	size_t *next, *prev;	/* per atom: list links of a free block there */
	signed char *free_order; /* per atom: order of the free block there, or -1 */
	size_t atoms, chunks;
};

static void buddy_grow(struct buddy *b)
{
	size_t n = (b->chunks + 1) * (CHUNK / ATOM), i;

	b->next = realloc(b->next, n * sizeof(*b->next));
	b->prev = realloc(b->prev, n * sizeof(*b->prev));
	b->free_order = realloc(b->free_order, n);
	ck_assert(b->next && b->prev && b->free_order);
	for (i = b->atoms; i < n; i++)
		b->free_order[i] = -1;
	b->atoms = n;
}

static void buddy_push(struct buddy *b, int k, size_t addr)
{
	size_t a = addr / ATOM;

	b->next[a] = b->head[k];
	b->prev[a] = NONE;
	if (b->head[k] != NONE)
		b->prev[b->head[k] / ATOM] = addr;
	b->head[k] = addr;
	b->free_order[a] = (signed char)k;
}

static void buddy_unlink(struct buddy *b, int k, size_t addr)
{
	size_t a = addr / ATOM;

	if (b->prev[a] == NONE)
		b->head[k] = b->next[a];
	else
		b->next[b->prev[a] / ATOM] = b->next[a];
	if (b->next[a] != NONE)
		b->prev[b->next[a] / ATOM] = b->prev[a];
	b->free_order[a] = -1;
}

static int order_for(size_t size)
{
	int k = 0;

	while (((size_t)ATOM << k) < size)
		k++;
	return k;
}

static size_t buddy_alloc(struct buddy *b, int k)
{
	int j = k;
	size_t addr;

	while (j < ORDERS && b->head[j] == NONE)
		j++;
	if (j == ORDERS) {
		buddy_grow(b);
		buddy_push(b, ORDERS - 1, b->chunks++ * CHUNK);
		j = ORDERS - 1;
	}
	addr = b->head[j];
	buddy_unlink(b, j, addr);
	while (j > k) {
		j--;
		buddy_push(b, j, addr + ((size_t)ATOM << j));
	}
	return addr;
}

static void buddy_free(struct buddy *b, size_t addr, int k)
{
	while (k < ORDERS - 1) {
		size_t mate = addr ^ ((size_t)ATOM << k);

		if (mate / ATOM >= b->atoms || b->free_order[mate / ATOM] != k)
			break;
		buddy_unlink(b, k, mate);
		addr = addr < mate ? addr : mate;
		k++;
	}
	buddy_push(b, k, addr);
}

/* ------------------------------------------------------- extent models */

struct extents {
	size_t *start, *len;	/* free extents below @top, by address */
	size_t nr, cap, top;	/* everything from @top up is free */
};

static size_t fit_alloc(struct extents *x, size_t n, int best)
{
	size_t i, pick = NONE, addr;

	/* An extent ending at the top runs on into the tail: it is the largest. */
	for (i = 0; i < x->nr && x->start[i] + x->len[i] < x->top; i++) {
		if (x->len[i] < n)
			continue;
		if (!best) {
			pick = i;
			break;
		}
		if (pick == NONE || x->len[i] < x->len[pick])
			pick = i;
		if (x->len[i] == n)
			break;
	}
	if (pick == NONE) {
		/* The tail; a free extent ending at the top grows into it. */
		if (x->nr && x->start[x->nr - 1] + x->len[x->nr - 1] == x->top) {
			addr = x->start[--x->nr];
			x->top = addr + n;
			return addr;
		}
		addr = x->top;
		x->top += n;
		return addr;
	}
	addr = x->start[pick];
	x->start[pick] += n;
	x->len[pick] -= n;
	if (!x->len[pick]) {
		memmove(&x->start[pick], &x->start[pick + 1], (x->nr - pick - 1) * sizeof(size_t));
		memmove(&x->len[pick], &x->len[pick + 1], (x->nr - pick - 1) * sizeof(size_t));
		x->nr--;
	}
	return addr;
}

static void fit_free(struct extents *x, size_t addr, size_t n)
{
	size_t lo = 0, hi = x->nr, i;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (x->start[mid] < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	i = lo;	/* the first extent above @addr */
	if (i > 0 && x->start[i - 1] + x->len[i - 1] == addr) {
		x->len[i - 1] += n;
		if (i < x->nr && addr + n == x->start[i]) {
			x->len[i - 1] += x->len[i];
			memmove(&x->start[i], &x->start[i + 1], (x->nr - i - 1) * sizeof(size_t));
			memmove(&x->len[i], &x->len[i + 1], (x->nr - i - 1) * sizeof(size_t));
			x->nr--;
		}
		return;
	}
	if (i < x->nr && addr + n == x->start[i]) {
		x->start[i] = addr;
		x->len[i] += n;
		return;
	}
	if (x->nr == x->cap) {
		x->cap = x->cap ? 2 * x->cap : 1024;
		x->start = realloc(x->start, x->cap * sizeof(size_t));
		x->len = realloc(x->len, x->cap * sizeof(size_t));
		ck_assert(x->start && x->len);
	}
	memmove(&x->start[i + 1], &x->start[i], (x->nr - i) * sizeof(size_t));
	memmove(&x->len[i + 1], &x->len[i], (x->nr - i) * sizeof(size_t));
	x->start[i] = addr;
	x->len[i] = n;
	x->nr++;
}

/* ------------------------------------------------------------ the replay */

enum model { BUDDY, FIRST_FIT, BEST_FIT };

/* Measure #4 of @w under model @which, requests above a chunk skipped. */
static double model_frag4(const struct bench_workload *w, enum model which)
{
	size_t *addr = calloc(w->nr_ids ? w->nr_ids : 1, sizeof(*addr));
	char *live = calloc(w->nr_ids ? w->nr_ids : 1, 1);
	struct buddy b = { .atoms = 0 };
	struct extents x = { .nr = 0 };
	size_t i, hw = 0, now = 0, peak = 0;
	int k;

	ck_assert(addr && live);
	for (k = 0; k < ORDERS; k++)
		b.head[k] = NONE;
	for (i = 0; i < w->nr; i++) {
		const struct bench_event *e = &w->ev[i];
		size_t size = e->size ? e->size : 1;
		size_t n = which == BUDDY ? (size_t)ATOM << order_for(size) : (size + 7) & ~(size_t)7;

		if (size > CHUNK)
			continue;
		if (e->op == BENCH_FREE) {
			if (!live[e->id])
				continue;
			if (which == BUDDY)
				buddy_free(&b, addr[e->id], order_for(size));
			else
				fit_free(&x, addr[e->id], n);
			live[e->id] = 0;
			now -= size;
			continue;
		}
		addr[e->id] = which == BUDDY ? buddy_alloc(&b, order_for(size))
					     : fit_alloc(&x, n, which == BEST_FIT);
		live[e->id] = 1;
		now += size;
		if (now > peak)
			peak = now;
		if (addr[e->id] + n > hw)
			hw = addr[e->id] + n;
	}
	free(addr);
	free(live);
	free(b.next);
	free(b.prev);
	free(b.free_order);
	free(x.start);
	free(x.len);
	return peak ? ((double)hw - (double)peak) / (double)peak : 0.0;
}

static const char *const traces[] = {
	"bench/traces/cc1.trace.gz", "bench/traces/perl.trace.gz", "bench/traces/sqlite.trace.gz",
};
static const char *const engines[] = { "buddy", "ff8", "bf8" };

START_TEST(arena_matches_reference_models)
{
	struct bench_workload w;
	char err[512];
	int k;

	ck_assert_msg(!bench_workload_read(&w, traces[_i], err, sizeof(err)), "%s", err);
	/* Under valgrind, the first 40000 events (frees of the rest are dropped
	 * by both sides alike: their blocks are never live). */
	if (getenv("GENALLOC_UNDER_VALGRIND") && w.nr > 40000)
		w.nr = 40000;
	for (k = 0; k < 3; k++) {
		const struct bench_engine *e = bench_engine_find(engines[k]);
		size_t peak = bench_workload_peak_live_upto(&w, CHUNK);
		struct bench_pool_config cfg = {
			.regime = BENCH_ARENA, .chunk_size = CHUNK, .fake = 1,
			.capacity = (4 * peak / CHUNK + 4) * CHUNK,
		};
		struct bench_metrics m;
		double want = model_frag4(&w, (enum model)k);

		ck_assert_ptr_nonnull(e);
		ck_assert_int_eq(bench_replay(e, &cfg, &w, 10, &m), 0);
		ck_assert_uint_eq(m.failed, 0);
		if (getenv("GENALLOC_ARENA_MODEL_SHOW"))
			fprintf(stderr, "%s on %s: bench %.4f, model %.4f\n", engines[k],
				traces[_i], bench_frag4(&m), want);
		ck_assert_msg(fabs(bench_frag4(&m) - want) < 1e-9,
			      "%s on %s: bench %.4f, model %.4f", engines[k], traces[_i],
			      bench_frag4(&m), want);
		bench_metrics_release(&m);
	}
	bench_workload_release(&w);
}
END_TEST

Suite *bench_arena_model_suite(void)
{
	Suite *s = suite_create("bench_arena_model");
	TCase *tc = tcase_create("traces");

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, arena_matches_reference_models, 0,
			    (int)(sizeof(traces) / sizeof(traces[0])));
	suite_add_tcase(s, tc);
	return s;
}
