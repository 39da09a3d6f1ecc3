// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/test_oom.c - the 2005 API out of memory for its own
 * bookkeeping, on both backends (tcase_add_loop_test: _i = 0 buddy,
 * 1 bitmap), failed at every allocation the library makes in turn
 * (test/oom.h).
 *
 * What compat/genalloc.h promises: creation returns NULL; the prefill stops
 * where memory ran out and the pool is returned; gen_pool_alloc() returns 0
 * and never loses a chunk - get_new_chunk is not called, or (bitmap) the
 * chunk it gave is kept aside, visited by for_each_region, and is the next
 * growth's chunk; a donation that cannot be recorded is refused with WARN
 * EINVAL.  After each failure the pool is unchanged and correct; once memory
 * returns it places exactly as a twin that never ran short, and allocation
 * and free of memory it knows allocate nothing.  Nothing is asserted while
 * the countdown is armed (test/oom.h).
 *
 * Chunks are 4 KiB (max_chunk_shift 12), handed out consecutively, so an
 * address is its offset from the provider's first chunk on either pool.
 */
#include <stdlib.h>

#include "../oom.h"
#include "../support.h"
#include "compat_fixture.h"

#define SHIFT	12
#define CHUNK	(1UL << SHIFT)
/* More frames than either backend's first frame table holds. */
#define NR	20
#define MAX_REGIONS 64

/* What a refused call must leave as it was. */
struct cstate {
	struct compat_gen_pool_stats st;
	int calls;
	int nr;
	unsigned long region[MAX_REGIONS][3];	/* addr, size, from_callback */
};

static void collect_region(struct gen_pool *pool, unsigned long addr, unsigned long size,
			   int from_callback, void *data)
{
	struct cstate *s = data;

	(void)pool;
	if (s->nr < MAX_REGIONS) {
		s->region[s->nr][0] = addr;
		s->region[s->nr][1] = size;
		s->region[s->nr][2] = (unsigned long)from_callback;
	}
	s->nr++;
}

static int by_addr(const void *a, const void *b)
{
	const unsigned long *x = a, *y = b;

	return x[0] < y[0] ? -1 : x[0] > y[0];
}

static void cstate_read(struct cstate *s, struct gen_pool *pool, struct fx_provider *p)
{
	memset(s, 0, sizeof(*s));
	compat_gen_pool_stats(pool, &s->st);
	s->calls = atomic_load(&p->calls);
	compat_gen_pool_for_each_region(pool, collect_region, s);
	ck_assert_int_le(s->nr, MAX_REGIONS);
	qsort(s->region, (size_t)s->nr, sizeof(s->region[0]), by_addr);
}

/* Everything but the bookkeeping's size, which a refused call may leave
 * larger (a table grown for a record that then could not be made). */
static void assert_same_holdings(const struct cstate *a, const struct cstate *b)
{
	ck_assert_uint_eq(a->st.obtained_bytes, b->st.obtained_bytes);
	ck_assert_uint_eq(a->st.donated_bytes, b->st.donated_bytes);
	ck_assert_uint_eq(a->st.free_bytes, b->st.free_bytes);
	ck_assert_uint_eq(a->st.largest_free, b->st.largest_free);
}

static void assert_unchanged(struct gen_pool *pool, struct fx_provider *p,
			     const struct cstate *before)
{
	struct cstate now;

	cstate_read(&now, pool, p);
	assert_same_holdings(&now, before);
	ck_assert_uint_ge(now.st.metadata_bytes, before->st.metadata_bytes);
	ck_assert_int_eq(now.calls, before->calls);
	ck_assert_int_eq(now.nr, before->nr);
	ck_assert_int_eq(memcmp(now.region, before->region, sizeof(now.region)), 0);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
}

static void rewind_provider(struct fx_provider *p)
{
	atomic_store(&p->calls, 0);
	atomic_store(&p->given, 0);
}

static struct gen_pool *create(int i, struct fx_provider *p, int nr_chunks)
{
	return gen_pool_create_backend(fx_backend(i), nr_chunks, SHIFT, fx_get_new_chunk,
				       (unsigned long)p);
}

/* Free chunk-sized blocks @addr[0..n) and destroy the pool. */
static void release_chunks(struct gen_pool *pool, const unsigned long *addr, int n)
{
	for (int k = 0; k < n; k++)
		gen_pool_free(pool, addr[k], (int)CHUNK);
	ck_assert_uint_eq(fx_live_bytes(pool), 0);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}

START_TEST(create_fails_cleanly_at_every_allocation)
{
	struct fx_provider *p = fx_provider_adjacent(SHIFT, 1);
	struct gen_pool *pool;
	long n, failed;

	for (n = 0;; n++) {
		OOM_RUN(n, failed, pool = create(_i, p, 0));
		if (pool)
			break;
		ck_assert_int_gt(failed, 0);
		ck_assert_int_lt(n, 64);
	}
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(failed, 0);
	ck_assert_int_eq(atomic_load(&p->calls), 0);
	ck_assert_int_eq(compat_gen_pool_backend(pool), fx_backend(_i));
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	EXPECT_EQ(gen_pool_alloc(pool, 32), p->chunk[0]);
	gen_pool_free(pool, p->chunk[0], 32);
	gen_pool_destroy(pool);
}
END_TEST

/*
 * alloc_gen_pool(3, ...) with n allocations allowed: NULL while the pool
 * cannot be made (the callback never called), then a pool holding the k
 * chunks it could record.  The bitmap backend may also hold chunk k aside.
 * Either way its chunk-sized blocks come back last chunk first, and the
 * next growth gives chunk k with get_new_chunk called k + 1 times in all.
 */
START_TEST(prefill_stops_where_memory_runs_out)
{
	struct fx_provider *p = fx_provider_adjacent(SHIFT, 4);
	unsigned long got[4];
	struct cstate s;
	struct gen_pool *pool;
	long n, failed, made = -1;
	int k, calls;

	for (n = 0;; n++) {
		rewind_provider(p);
		OOM_RUN(n, failed, pool = create(_i, p, 3));
		if (!pool) {
			ck_assert_int_gt(failed, 0);
			ck_assert_int_eq(atomic_load(&p->calls), 0);
			ck_assert_int_eq(made, -1);
			continue;
		}
		if (made < 0)
			made = n;
		cstate_read(&s, pool, p);
		ck_assert_int_eq(compat_gen_pool_check(pool), 0);
		k = (int)(s.st.obtained_bytes / CHUNK);
		calls = s.calls;
		ck_assert_uint_eq(s.st.free_bytes, k * CHUNK);
		/* Every chunk asked for is in the pool, or held aside (bitmap). */
		ck_assert_int_eq(s.nr, calls);
		if (calls > k) {
			ck_assert_int_eq(_i, 1);
			ck_assert_int_eq(calls, k + 1);
		}
		ck_assert_int_eq(k < 3, failed > 0);
		for (int j = 0; j < calls; j++)
			EXPECT_EQ(s.region[j][0], p->chunk[j]);
		for (int j = 0; j <= k; j++) {
			got[j] = gen_pool_alloc(pool, (int)CHUNK);
			EXPECT_EQ(got[j], p->chunk[j < k ? k - 1 - j : k]);
		}
		ck_assert_int_eq(atomic_load(&p->calls), k + 1);
		release_chunks(pool, got, k + 1);
		if (k == 3)
			break;
		ck_assert_int_lt(n, made + 64);
	}
	ck_assert_int_eq(failed, 0);
}
END_TEST

/*
 * NR chunk-sized allocations, each a growth, each retried with one more
 * allocation allowed until it succeeds; a twin fed the same way without
 * failures answers each alike.  A failure returns 0 with the pool's
 * holdings unchanged; on the bitmap backend the chunk may be held aside,
 * and is then the next growth's.  No chunk is ever asked for twice.
 */
START_TEST(growth_fails_cleanly_at_every_allocation)
{
	struct fx_provider *p = fx_provider_adjacent(SHIFT, NR + 1);
	struct fx_provider *tp = fx_provider_adjacent(SHIFT, NR + 1);
	struct gen_pool *pool = create(_i, p, 0), *twin = create(_i, tp, 0);
	unsigned long got[NR], tgot[NR], a;
	struct cstate before, now;
	unsigned long slots = OOM_FRAME_SLOTS;
	long n, failed;
	int k, growth, held = 0;

	ck_assert_ptr_nonnull(pool);
	ck_assert_ptr_nonnull(twin);
	for (k = 0; k < NR; k++) {
		for (n = 0;; n++) {
			cstate_read(&before, pool, p);
			OOM_RUN(n, failed, a = gen_pool_alloc(pool, (int)CHUNK));
			if (a)
				break;
			ck_assert_int_gt(failed, 0);
			cstate_read(&now, pool, p);
			if (now.calls != before.calls) {
				/* Held aside: the one new region is chunk k. */
				ck_assert_int_eq(_i, 1);
				ck_assert_int_eq(now.calls, k + 1);
				ck_assert_int_eq(now.nr, before.nr + 1);
				EXPECT_EQ(now.region[k][0], p->chunk[k]);
				ck_assert_int_eq(now.region[k][2], 1);
				held++;
				assert_same_holdings(&now, &before);
				ck_assert_int_eq(compat_gen_pool_check(pool), 0);
			} else {
				assert_unchanged(pool, p, &before);
			}
			ck_assert_int_lt(n, 64);
		}
		/* buddy: a growth of the frame table is refused and the old
		 * table serves while it has room; the bitmap backend adds the
		 * chunk to its engine after the table grew, and a failure
		 * there holds the chunk aside. */
		growth = oom_frame_growth(&slots, (unsigned long)k);
		ck_assert_int_eq(failed, _i == 0 && growth == 1);
		EXPECT_EQ(a, p->chunk[k]);
		ck_assert_int_eq(atomic_load(&p->calls), k + 1);
		got[k] = a;
		tgot[k] = gen_pool_alloc(twin, (int)CHUNK);
		EXPECT_EQ(tgot[k] - tp->chunk[0], a - p->chunk[0]);
		cstate_read(&now, pool, p);
		cstate_read(&before, twin, tp);
		assert_same_holdings(&now, &before);
		ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	}
	/* The bitmap backend's engine allocates as it takes a chunk. */
	if (_i == 1)
		ck_assert_int_gt(held, 0);
	release_chunks(twin, tgot, NR);
	for (k = 0; k < NR; k++)
		gen_pool_free(pool, got[k], (int)CHUNK);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

/*
 * Random allocations and frees on a pool with all its chunks in, each made
 * with no memory to be had, against a twin with memory: the same answers,
 * and a request that succeeds allocated nothing.  (The provider is dry, so
 * a request that needs growth gets 0 on both.)
 */
START_TEST(known_memory_needs_no_allocation)
{
	struct fx_provider *p = fx_provider_adjacent(SHIFT, 4);
	struct fx_provider *tp = fx_provider_adjacent(SHIFT, 4);
	struct gen_pool *pool = create(_i, p, 4), *twin = create(_i, tp, 4);
	unsigned long long rng = 0x00f + (unsigned long long)_i;
	unsigned long addr[32] = { 0 }, a, b;
	int size[32] = { 0 }, k;
	long failed;

	ck_assert_ptr_nonnull(pool);
	ck_assert_ptr_nonnull(twin);
	for (int step = 0; step < 3000; step++) {
		k = (int)test_rng_below(&rng, 32);
		if (addr[k]) {
			OOM_RUN(0, failed, gen_pool_free(pool, addr[k], size[k]));
			ck_assert_int_eq(failed, 0);
			gen_pool_free(twin, addr[k] - p->chunk[0] + tp->chunk[0], size[k]);
			addr[k] = 0;
			continue;
		}
		size[k] = 1 + (int)test_rng_below(&rng, 1UL << test_rng_below(&rng, SHIFT + 1));
		OOM_RUN(0, failed, a = gen_pool_alloc(pool, size[k]));
		b = gen_pool_alloc(twin, size[k]);
		EXPECT_EQ(a ? a - p->chunk[0] : 0, b ? b - tp->chunk[0] : 0);
		if (a)
			ck_assert_int_eq(failed, 0);
		addr[k] = a;
		if (step % 256 == 0)
			ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	}
	for (k = 0; k < 32; k++)
		if (addr[k]) {
			gen_pool_free(pool, addr[k], size[k]);
			gen_pool_free(twin, addr[k] - p->chunk[0] + tp->chunk[0], size[k]);
		}
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	ck_assert_uint_eq(fx_live_bytes(pool), 0);
	gen_pool_destroy(pool);
	gen_pool_destroy(twin);
}
END_TEST

/* Donates @size bytes at @addr with n = 0, 1, ... allocations allowed until
 * it goes in: each refusal is WARN EINVAL with the pool as it was.  Returns
 * the n it took. */
static long donate_under_oom(struct gen_pool *pool, struct fx_provider *p,
			     unsigned long addr, int size)
{
	struct cstate before;
	long n, failed;
	int seen;

	for (n = 0;; n++) {
		cstate_read(&before, pool, p);
		reset_errors();
		OOM_RUN(n, failed, gen_pool_free(pool, addr, size));
		seen = errors_seen();
		if (!seen)
			break;
		assert_line_is("genalloc: WARN EINVAL: gen_pool_free: no memory to record the donation (pool <pool>, addr <addr>, size 2048); donate again when malloc() has memory; the range was not taken", pool, addr, 0, 0);
		ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
		ck_assert_int_gt(failed, 0);
		assert_unchanged(pool, p, &before);
		ck_assert_int_lt(n, 64);
	}
	/* buddy: from the 17th frame on, the table may not double. */
	ck_assert_int_le(failed, 1);
	return n;
}

/*
 * A pool fed only by donation, NR frames of it: the upper half of each
 * frame first (a new frame: refused without memory), then the lower half
 * (a frame the pool has: no memory needed).  Then it holds, and hands out,
 * exactly what a twin donated the same ranges does.
 */
START_TEST(donation_without_memory_is_refused)
{
	struct fx_provider *p = fx_provider_adjacent(SHIFT, NR);
	struct fx_provider *tp = fx_provider_adjacent(SHIFT, NR);
	struct gen_pool *pool, *twin;
	struct cstate s, ts;
	unsigned long got[NR];
	int k;

	capture_errors();
	pool = gen_pool_create_backend(fx_backend(_i), 0, SHIFT, NULL, 0);
	twin = gen_pool_create_backend(fx_backend(_i), 0, SHIFT, NULL, 0);
	ck_assert_ptr_nonnull(pool);
	ck_assert_ptr_nonnull(twin);
	for (k = 0; k < NR; k++) {
		ck_assert_int_gt(donate_under_oom(pool, p, p->chunk[k] + CHUNK / 2,
						  (int)CHUNK / 2), 0);
		ck_assert_int_eq(donate_under_oom(pool, p, p->chunk[k], (int)CHUNK / 2), 0);
		gen_pool_free(twin, tp->chunk[k] + CHUNK / 2, (int)CHUNK / 2);
		gen_pool_free(twin, tp->chunk[k], (int)CHUNK / 2);
		cstate_read(&s, pool, p);
		cstate_read(&ts, twin, tp);
		assert_same_holdings(&s, &ts);
		ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	}
	ck_assert_int_eq(errors_seen(), 0);
	/* One region of donated memory, whole chunks, newest first. */
	ck_assert_int_eq(s.nr, 1);
	EXPECT_EQ(s.region[0][0], p->chunk[0]);
	EXPECT_EQ(s.region[0][1], NR * CHUNK);
	for (k = NR - 1; k >= 0; k--) {
		got[k] = gen_pool_alloc(pool, (int)CHUNK);
		EXPECT_EQ(got[k] - p->chunk[0], gen_pool_alloc(twin, (int)CHUNK) - tp->chunk[0]);
	}
	EXPECT_EQ(gen_pool_alloc(pool, 32), 0);
	release_chunks(pool, got, NR);
	for (k = 0; k < NR; k++)
		gen_pool_free(twin, tp->chunk[k], (int)CHUNK);
	gen_pool_destroy(twin);
}
END_TEST

/*
 * The bitmap backend's chunk kept aside is the program's memory: visited by
 * for_each_region like any chunk, and its record freed with the pool (the
 * leak checkers watch).  The buddy backend never keeps one.
 */
START_TEST(chunk_kept_aside_is_visited_and_released)
{
	struct fx_provider *p = fx_provider_adjacent(SHIFT, 1);
	struct gen_pool *pool = NULL;
	struct cstate s;
	unsigned long a;
	long n;

	for (n = 0;; n++) {
		rewind_provider(p);
		pool = create(_i, p, 0);
		ck_assert_ptr_nonnull(pool);
		oom_fail_after(n);
		a = gen_pool_alloc(pool, 32);
		oom_off();
		cstate_read(&s, pool, p);
		if (a || s.calls)
			break;
		gen_pool_destroy(pool);
		ck_assert_int_lt(n, 64);
	}
	if (_i == 0) {
		EXPECT_EQ(a, p->chunk[0]);
		gen_pool_free(pool, a, 32);
		gen_pool_destroy(pool);
		return;
	}
	EXPECT_EQ(a, 0);
	ck_assert_int_eq(s.calls, 1);
	ck_assert_int_eq(s.nr, 1);
	EXPECT_EQ(s.region[0][0], p->chunk[0]);
	EXPECT_EQ(s.region[0][1], CHUNK);
	ck_assert_int_eq(s.region[0][2], 1);
	ck_assert_uint_eq(s.st.obtained_bytes, 0);
	ck_assert_uint_eq(s.st.free_bytes, 0);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

Suite *compat_oom_suite(void)
{
	Suite *s = suite_create("compat_oom");
	TCase *tc = tcase_create("oom");

	tcase_add_loop_test(tc, create_fails_cleanly_at_every_allocation, 0, 2);
	tcase_add_loop_test(tc, prefill_stops_where_memory_runs_out, 0, 2);
	tcase_add_loop_test(tc, growth_fails_cleanly_at_every_allocation, 0, 2);
	tcase_add_loop_test(tc, known_memory_needs_no_allocation, 0, 2);
	tcase_add_loop_test(tc, donation_without_memory_is_refused, 0, 2);
	tcase_add_loop_test(tc, chunk_kept_aside_is_visited_and_released, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
