// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_misuse.c - every bad input: with a returning handler the
 * call returns its failure value and the pool is bit-for-bit unchanged;
 * with the default handler every BUG kills the process.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "modern/genalloc.h"
#include "modern/chunkdir_internal.h"
#include "drain.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif
#ifndef UNDER_SANITIZER
#define UNDER_SANITIZER 0
#endif

/*
 * The one report of a NULL pool: WARN EINVAL naming @fn, with the caller's
 * own address and size (0 where the call takes none).
 */
#define ASSERT_NULL_POOL(fn, addr, size)                                      \
	assert_report_is(REPORT(GENALLOC_WARN, GENALLOC_EINVAL, (fn), NULL,   \
				(addr), (size), "NULL pool"))

/* Two chunks: 0x10000 (16 granules of 16 bytes + 8-byte tail), 0x20000 (8). */
static struct gen_pool *fixture(void)
{
	struct gen_pool *pool = gen_pool_create(4, -1);

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x108, -1), 0);
	ck_assert_int_eq(gen_pool_add_virt(pool, 0x20000, 0x9000, 0x80, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 0x20), 0x20000);
	ck_assert_uint_eq(gen_pool_alloc(pool, 0x60), 0x20020);
	ck_assert_uint_eq(gen_pool_alloc(pool, 0x30), 0x10000);
	return pool;
}

struct snapshot {
	long avail[4];
	unsigned long bits[4];
	int n;
};

static void take(struct gen_pool *pool, struct snapshot *s)
{
	struct gen_pool_chunk *c;

	memset(s, 0, sizeof(*s));
	for (c = atomic_load(&pool->chunks); c && s->n < 4; c = c->next_chunk, s->n++) {
		s->avail[s->n] = atomic_load(&c->avail);
		s->bits[s->n] = c->bits[0];
	}
}

static void assert_unchanged(struct gen_pool *pool, const struct snapshot *before)
{
	struct snapshot now;

	take(pool, &now);
	ck_assert_mem_eq(&now, before, sizeof(now));
	ck_assert_int_eq(gen_pool_check(pool), 0);
}

START_TEST(create_bad_order)
{
	capture_errors();
	ck_assert_ptr_null(gen_pool_create(-1, -1));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(gen_pool_create((int)(sizeof(long) * CHAR_BIT), -1));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(gen_pool_create(99, 0));
	ck_assert_str_eq(last_error()->func, "gen_pool_create");
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
}
END_TEST

START_TEST(add_bad_ranges)
{
	struct gen_pool *pool = fixture();
	struct snapshot s;
	int owner;

	take(pool, &s);
	capture_errors();
	ck_assert_int_eq(gen_pool_add(NULL, 0x30000, 0x100, -1), -EINVAL);
	ASSERT_NULL_POOL("gen_pool_add", 0x30000, 0x100);
	ck_assert_int_eq(gen_pool_add_virt(NULL, 0x30000, 0, 0x100, -1), -EINVAL);
	ASSERT_NULL_POOL("gen_pool_add_virt", 0x30000, 0x100);
	ck_assert_int_eq(gen_pool_add_owner(NULL, 0x30000, 0, 0x100, -1, &owner), -EINVAL);
	ASSERT_NULL_POOL("gen_pool_add_owner", 0x30000, 0x100);
	ck_assert_int_eq(gen_pool_add(pool, 0x30000, 0, -1), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_add(pool, 0, 0x100, -1), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_add(pool, ULONG_MAX - 0xff, 0x101, -1), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_ERANGE);
	ck_assert_int_eq(gen_pool_add(pool, 0x1000, (size_t)LONG_MAX + 1, -1), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_ERANGE);
	/* overlaps: inside, straddling either end, containing */
	ck_assert_int_eq(gen_pool_add(pool, 0x10010, 0x10, -1), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EOVERLAP);
	ck_assert_int_eq(gen_pool_add(pool, 0xff00, 0x101, -1), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EOVERLAP);
	ck_assert_int_eq(gen_pool_add(pool, 0x20070, 0x100, -1), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EOVERLAP);
	/* from the last byte of a chunk: one byte is enough */
	ck_assert_int_eq(gen_pool_add(pool, 0x2007f, 0x10, -1), -EINVAL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EOVERLAP);
	ck_assert_int_eq(gen_pool_add_virt(pool, 0x1000, 0, 0x40000, -1), -EINVAL);
	ck_assert_str_eq(last_error()->func, "gen_pool_add_virt");
	ck_assert_error(GENALLOC_WARN, GENALLOC_EOVERLAP);
	assert_unchanged(pool, &s);
	ck_assert_uint_eq(gen_pool_size(pool), 0x188);
	/* touching is not overlapping */
	ck_assert_int_eq(gen_pool_add(pool, 0x20080, 0x10, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0xfff0, 0x10, -1), 0);
	ck_assert_int_eq(errors_seen(), 0);
	drain_and_destroy(pool);
}
END_TEST

/* Chunks added in random order and places: each add is refused exactly
 * when a linear look at the chunks taken so far finds an overlap. */
START_TEST(add_refuses_exactly_the_overlapping_ranges)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	unsigned long start[400], end[400], a, e;
	unsigned long long rng = 12345;
	size_t n = 0, i, tries;
	bool overlap;

	ck_assert_ptr_nonnull(pool);
	capture_errors();
	for (tries = 0; tries < 4000 && n < 400; tries++) {
		a = 0x100000 + test_rng_below(&rng, 0x4000) * 16;
		e = a + (test_rng_below(&rng, 64) + 1) * 16 - 1;
		for (overlap = false, i = 0; i < n && !overlap; i++)
			overlap = a <= end[i] && start[i] <= e;
		if (overlap) {
			ck_assert_int_eq(gen_pool_add(pool, a, e - a + 1, -1), -EINVAL);
			ck_assert_error(GENALLOC_WARN, GENALLOC_EOVERLAP);
			continue;
		}
		ck_assert_int_eq(gen_pool_add(pool, a, e - a + 1, -1), 0);
		start[n] = a;
		end[n++] = e;
	}
	/* Both outcomes came up many times. */
	ck_assert_uint_gt(n, 100);
	ck_assert_uint_gt(tries - n, 100);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(add_without_memory_for_bookkeeping)
{
	struct gen_pool *pool;

	/* A 2^60-byte bitmap: sanitizers and valgrind treat such a request as
	 * an error of its own, so only plain builds run this. */
	if (UNDER_SANITIZER || getenv("GENALLOC_UNDER_VALGRIND") || sizeof(long) < 8)
		return;
	pool = gen_pool_create(0, -1);
	capture_errors();
	ck_assert_int_eq(gen_pool_add(pool, 0x1000, (size_t)LONG_MAX, -1), -ENOMEM);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_uint_eq(gen_pool_size(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(alloc_null_pool)
{
	void *owner = &owner;

	capture_errors();
	ck_assert_uint_eq(gen_pool_alloc(NULL, 16), 0);
	ASSERT_NULL_POOL("gen_pool_alloc", 0, 16);
	ck_assert_uint_eq(gen_pool_alloc_owner(NULL, 32, &owner), 0);
	ck_assert_ptr_null(owner);
	ASSERT_NULL_POOL("gen_pool_alloc_owner", 0, 32);
	ck_assert_uint_eq(gen_pool_alloc_algo(NULL, 48, gen_pool_best_fit, NULL), 0);
	ASSERT_NULL_POOL("gen_pool_alloc_algo", 0, 48);
	owner = &owner;
	ck_assert_uint_eq(gen_pool_alloc_algo_owner(NULL, 64, gen_pool_best_fit, NULL, &owner), 0);
	ck_assert_ptr_null(owner);
	ASSERT_NULL_POOL("gen_pool_alloc_algo_owner", 0, 64);
}
END_TEST

START_TEST(alloc_bad_algorithm_data_warns_once)
{
	struct gen_pool *pool = fixture();
	struct genpool_data_align bad_align[] = { { 0 }, { 3 }, { -8 }, { 48 } };
	struct genpool_data_fixed half = { .offset = 0x38 };
	struct snapshot s;
	size_t i;

	take(pool, &s);
	capture_errors();
	for (i = 0; i < sizeof(bad_align) / sizeof(bad_align[0]); i++) {
		ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_first_fit_align,
						      &bad_align[i]), 0);
		ck_assert_int_eq(errors_seen(), 1);
		ck_assert_str_eq(last_error()->func, "gen_pool_first_fit_align");
		ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	}
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_first_fit_align, NULL), 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_fixed_alloc, &half), 0);
	ck_assert_int_eq(errors_seen(), 1);
	ck_assert_str_eq(last_error()->func, "gen_pool_fixed_alloc");
	ck_assert_uint_eq(last_error()->addr, 0x38);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_fixed_alloc, NULL), 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	/* the pool's default algorithm is validated the same way */
	gen_pool_set_algo(pool, gen_pool_fixed_alloc, &half);
	ck_assert_uint_eq(gen_pool_alloc(pool, 16), 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(gen_pool_dma_alloc_align(pool, 16, NULL, 24));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	/* called directly, the algorithms refuse too */
	ck_assert_uint_eq(gen_pool_first_fit_align(atomic_load(&pool->chunks)->bits, 8, 0, 1,
						   &bad_align[1], pool, 0x20000), 8);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_uint_eq(gen_pool_fixed_alloc(atomic_load(&pool->chunks)->bits, 8, 0, 1,
					       &half, pool, 0x20000), 8);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	assert_unchanged(pool, &s);
	drain_and_destroy(pool);
}
END_TEST

START_TEST(alloc_overflowing_sizes_refused_quietly)
{
	struct gen_pool *pool = fixture();
	struct snapshot s;

	take(pool, &s);
	capture_errors();
	ck_assert_uint_eq(gen_pool_alloc(pool, ULONG_MAX), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, ULONG_MAX - 14), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, (size_t)UINT_MAX * 16 + 1), 0);
	ck_assert_int_eq(errors_seen(), 0);
	assert_unchanged(pool, &s);
	drain_and_destroy(pool);
}
END_TEST

static void free_must_fail(struct gen_pool *pool, unsigned long addr, size_t size,
			   enum genalloc_errcode code)
{
	struct snapshot s;
	void *owner = &owner;

	take(pool, &s);
	reset_errors();
	gen_pool_free_owner(pool, addr, size, &owner);
	ck_assert_msg(errors_seen() == 1, "free(%#lx, %zu): %d reports", addr, size, errors_seen());
	ck_assert_int_eq(last_error()->code, code);
	ck_assert_int_eq(last_error()->severity, GENALLOC_BUG);
	ck_assert_uint_eq(last_error()->addr, addr);
	ck_assert_ptr_null(owner);
	assert_unchanged(pool, &s);
	reset_errors();
}

/* A pool of one chunk finds a free's chunk without the directory's search:
 * addresses on either side of it are still foreign. */
START_TEST(free_outside_the_only_chunk_is_foreign)
{
	struct gen_pool *pool = gen_pool_create(4, -1);

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x100, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 0x20), 0x10000);
	capture_errors();
	free_must_fail(pool, 0xfff0, 16, GENALLOC_EFOREIGN);
	free_must_fail(pool, 0x10100, 16, GENALLOC_EFOREIGN);	/* one past the end */
	gen_pool_free(pool, 0x10000, 0x20);
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(free_misuse_leaves_pool_unchanged)
{
	struct gen_pool *pool = fixture();
	void *owner = &owner;

	capture_errors();
	gen_pool_free(NULL, 0x20000, 0x20);
	ASSERT_NULL_POOL("gen_pool_free", 0x20000, 0x20);
	gen_pool_free_owner(NULL, 0x20020, 0x60, &owner);
	ck_assert_ptr_null(owner);
	ASSERT_NULL_POOL("gen_pool_free_owner", 0x20020, 0x60);
	ck_assert_uint_eq(gen_pool_free_addr(NULL, 0x10000), 0);
	ASSERT_NULL_POOL("gen_pool_free_addr", 0x10000, 0);
	free_must_fail(pool, 0x30000, 16, GENALLOC_EFOREIGN);
	free_must_fail(pool, 0xfff0, 16, GENALLOC_EFOREIGN);
	free_must_fail(pool, 0x20080, 16, GENALLOC_EFOREIGN);	/* one past the end */
	free_must_fail(pool, 0x20008, 16, GENALLOC_EMISALIGNED);
	free_must_fail(pool, 0x2001f, 1, GENALLOC_EMISALIGNED);
	free_must_fail(pool, 0x2007f, 1, GENALLOC_EMISALIGNED);	/* its last byte */
	free_must_fail(pool, 0x20020, 0x61, GENALLOC_ERANGE);	/* one byte past */
	free_must_fail(pool, 0x20000, ULONG_MAX, GENALLOC_ERANGE);	/* wraps */
	free_must_fail(pool, 0x10100, 8, GENALLOC_ERANGE);	/* the sub-granule tail */
	free_must_fail(pool, 0x100f0, 0x18, GENALLOC_ERANGE);	/* last granule + tail */
	free_must_fail(pool, 0x10030, 16, GENALLOC_EDOUBLEFREE);	/* never allocated */
	free_must_fail(pool, 0x10000, 0x40, GENALLOC_EDOUBLEFREE);	/* live, then a free granule */
	free_must_fail(pool, 0x100f0, 16, GENALLOC_EDOUBLEFREE);
	gen_pool_free(pool, 0x20020, 0x60);
	ck_assert_int_eq(errors_seen(), 0);
	free_must_fail(pool, 0x20020, 0x60, GENALLOC_EDOUBLEFREE);	/* twice */
	free_must_fail(pool, 0x20010, 0x20, GENALLOC_EDOUBLEFREE);	/* overlaps the freed */
	free_must_fail(pool, 0x30000, 0, GENALLOC_EFOREIGN);	/* size 0 too: the kernel BUG()s */
	gen_pool_free(pool, 0x20000, 0x20);
	gen_pool_free(pool, 0x10000, 0x30);
	ck_assert_uint_eq(gen_pool_avail(pool), gen_pool_size(pool));
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_destroy(pool);
}
END_TEST

/*
 * Size 0 frees nothing, as in the kernel, where nbits is 0 but the chunk is
 * still looked up: its owner is reported, and an address in no chunk is
 * still a BUG.  In both modes (_i = 1: lock-free).
 */
START_TEST(free_of_size_zero_still_needs_a_chunk)
{
	struct gen_pool *pool = fixture();
	struct snapshot s;
	void *owner = &owner;
	int tag;

	ck_assert_int_eq(gen_pool_add_owner(pool, 0x40000, 0x5000, 0x100, -1, &tag), 0);
	if (_i)
		gen_pool_set_lockless(pool, true);
	capture_errors();
	take(pool, &s);
	gen_pool_free_owner(pool, 0x40000, 0, &owner);		/* a free granule */
	ck_assert_ptr_eq(owner, &tag);
	owner = &owner;
	gen_pool_free_owner(pool, 0x400ff, 0, &owner);		/* the last byte, unaligned */
	ck_assert_ptr_eq(owner, &tag);
	gen_pool_free_owner(pool, 0x20000, 0, &owner);		/* live, no owner */
	ck_assert_ptr_null(owner);
	gen_pool_free(pool, 0x10100, 0);			/* the sub-granule tail */
	ck_assert_int_eq(errors_seen(), 0);
	assert_unchanged(pool, &s);
	free_must_fail(pool, 0x40100, 0, GENALLOC_EFOREIGN);	/* one past the end */
	free_must_fail(pool, 0x3ffff, 0, GENALLOC_EFOREIGN);	/* one before */
	gen_pool_free(pool, 0x20000, 0x20);
	gen_pool_free(pool, 0x20020, 0x60);
	gen_pool_free(pool, 0x10000, 0x30);
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(partial_free_is_what_a_bitmap_allows)
{
	struct gen_pool *pool = fixture();

	/* Documented limit: a wrong size inside live granules is accepted. */
	capture_errors();
	gen_pool_free(pool, 0x20020, 0x20);
	gen_pool_free(pool, 0x20040, 0x40);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	drain_and_destroy(pool);
}
END_TEST

START_TEST(destroy_with_live_blocks_is_refused)
{
	struct gen_pool *pool = fixture();
	struct snapshot s;

	take(pool, &s);
	capture_errors();
	gen_pool_destroy(pool);
	/* The live runs in address order, whichever chunk is newer. */
	ck_assert_uint_eq(last_error()->addr, 0x10000);
	ck_assert_uint_eq(last_error()->size, 0x30 + 0x80);
	ck_assert_uint_eq(last_error()->nr_live, 2);
	ck_assert_uint_eq(last_error()->live[1], 0x20000);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EBUSY);
	assert_unchanged(pool, &s);
	gen_pool_free(pool, 0x20000, 0x20);
	gen_pool_free(pool, 0x20020, 0x60);
	gen_pool_destroy(pool);
	ck_assert_uint_eq(last_error()->addr, 0x10000);	/* the older chunk too */
	ck_assert_uint_eq(last_error()->nr_live, 1);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EBUSY);
	gen_pool_free(pool, 0x10000, 0x30);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

static void count_chunk(struct gen_pool *pool, struct gen_pool_chunk *chunk, void *data)
{
	(void)pool;
	(void)chunk;
	(*(int *)data)++;
}

START_TEST(queries_on_null_pool)
{
	struct gen_pool_stats st;
	struct gen_pool *pool = fixture();
	int n = 0;

	capture_errors();
	ck_assert_uint_eq(gen_pool_virt_to_phys(NULL, 0x20000), (phys_addr_t)-1);
	ASSERT_NULL_POOL("gen_pool_virt_to_phys", 0x20000, 0);
	ck_assert(!gen_pool_has_addr(NULL, 0x20000, 1));
	ASSERT_NULL_POOL("gen_pool_has_addr", 0x20000, 1);
	ck_assert(!addr_in_gen_pool(NULL, 0x20000, 1));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_uint_eq(gen_pool_avail(NULL), 0);
	ASSERT_NULL_POOL("gen_pool_avail", 0, 0);
	ck_assert_uint_eq(gen_pool_size(NULL), 0);
	ASSERT_NULL_POOL("gen_pool_size", 0, 0);
	gen_pool_for_each_chunk(NULL, count_chunk, &n);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	gen_pool_for_each_chunk(pool, NULL, &n);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(n, 0);
	gen_pool_set_algo(NULL, gen_pool_best_fit, NULL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_check(NULL), -1);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	memset(&st, 0xff, sizeof(st));
	gen_pool_stats(NULL, &st);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_uint_eq(st.size, 0);
	ck_assert_uint_eq(st.hist[63], 0);
	gen_pool_stats(pool, NULL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	gen_pool_destroy(NULL);
	ck_assert_int_eq(errors_seen(), 0);
	drain_and_destroy(pool);
}
END_TEST

START_TEST(dma_on_null_pool_is_quiet)
{
	dma_addr_t dma = 7;

	capture_errors();
	ck_assert_ptr_null(gen_pool_dma_alloc(NULL, 16, &dma));
	ck_assert_ptr_null(gen_pool_dma_alloc_algo(NULL, 16, &dma, gen_pool_best_fit, NULL));
	ck_assert_ptr_null(gen_pool_dma_alloc_align(NULL, 16, &dma, 64));
	ck_assert_ptr_null(gen_pool_dma_zalloc(NULL, 16, &dma));
	ck_assert_ptr_null(gen_pool_dma_zalloc_algo(NULL, 16, &dma, gen_pool_best_fit, NULL));
	ck_assert_ptr_null(gen_pool_dma_zalloc_align(NULL, 16, &dma, 64));
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_uint_eq(dma, 7);
}
END_TEST

static void corrupt_and_check(struct gen_pool *pool, const char *what)
{
	reset_errors();
	ck_assert_msg(gen_pool_check(pool) == -1, "%s not detected", what);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ECORRUPT);
}

/* Give the fixture's newest chunk (128 bytes) the bounds of one at @start. */
static void move_chunk(struct gen_pool_chunk *chunk, unsigned long start)
{
	chunk->start_addr = start;
	chunk->end_addr = start + 0x7f;
}

START_TEST(checker_finds_corruption)
{
	struct gen_pool *pool = fixture();
	struct gen_pool_chunk *newest = atomic_load(&pool->chunks);
	struct gen_pool_chunk *older = newest->next_chunk;
	unsigned long saved;

	capture_errors();
	ck_assert_int_eq(gen_pool_check(pool), 0);
	atomic_fetch_add(&older->avail, 16);
	corrupt_and_check(pool, "avail");
	atomic_fetch_sub(&older->avail, 16);
	older->bits[0] |= 1UL << 16;	/* past the 16th granule */
	corrupt_and_check(pool, "tail bit");
	older->bits[0] &= ~(1UL << 16);
	older->bits[0] |= 1UL << 8;	/* allocated without accounting */
	corrupt_and_check(pool, "bitmap vs avail");
	/* Accounted for, but behind the index's back. */
	atomic_fetch_sub(&older->avail, 16);
	corrupt_and_check(pool, "index vs bitmap");
	atomic_fetch_add(&older->avail, 16);
	older->bits[0] &= ~(1UL << 8);
	pool->dir->tree.level[0][0]++;	/* a chunk's longest run, misremembered */
	corrupt_and_check(pool, "directory vs chunks");
	pool->dir->tree.level[0][0]--;
	older->nbits--;
	corrupt_and_check(pool, "granule count");
	older->nbits++;
	saved = newest->end_addr;
	newest->end_addr = newest->start_addr - 1;
	corrupt_and_check(pool, "inverted bounds");
	newest->end_addr = saved;
	saved = newest->start_addr;
	move_chunk(newest, 0);
	corrupt_and_check(pool, "chunk at address 0");
	move_chunk(newest, 0x10100);	/* overlaps the older chunk's tail */
	corrupt_and_check(pool, "overlap");
	move_chunk(newest, saved);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	/* The directory keeps its own copy of the bounds and catches the
	 * overlap above first; lock-free mode skips it, so the chunks' own
	 * comparison shows: one shared byte (the older chunk's last) is
	 * enough. */
	gen_pool_set_lockless(pool, true);
	move_chunk(newest, 0x10107);
	corrupt_and_check(pool, "overlap of one byte");
	move_chunk(newest, saved);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_set_lockless(pool, false);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	ck_assert_int_eq(errors_seen(), 0);
	drain_and_destroy(pool);
}
END_TEST

START_TEST(default_warn_returns)
{
	expect_death();
	ck_assert_uint_eq(gen_pool_alloc(NULL, 16), 0);	/* prints, does not abort */
}
END_TEST

/* ---- the default handler: every BUG kills the process ---- */

START_TEST(die_double_free)
{
	struct gen_pool *pool = fixture();

	expect_death();
	gen_pool_free(pool, 0x10030, 16);
}
END_TEST

START_TEST(die_foreign_free)
{
	struct gen_pool *pool = fixture();

	expect_death();
	gen_pool_free(pool, 0x40000, 16);
}
END_TEST

START_TEST(die_misaligned_free)
{
	struct gen_pool *pool = fixture();

	expect_death();
	gen_pool_free(pool, 0x20004, 16);
}
END_TEST

START_TEST(die_free_past_chunk)
{
	struct gen_pool *pool = fixture();

	expect_death();
	gen_pool_free(pool, 0x20020, 0x70);
}
END_TEST

START_TEST(die_destroy_busy)
{
	struct gen_pool *pool = fixture();

	expect_death();
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(die_check_corrupt)
{
	struct gen_pool *pool = fixture();

	atomic_fetch_add(&atomic_load(&pool->chunks)->avail, 16);
	expect_death();
	gen_pool_check(pool);
}
END_TEST

/*
 * gen_pool_destroy() looks for live granules in every chunk that is not
 * wholly free, up to its last granule: a block that is the chunk's last
 * granule (16 granules of 16 bytes, the block at 0x100f0) keeps the pool
 * alive too, and the report names that block's address, the bit number
 * scaled to bytes.  The fixture's blocks all start at bit 0, where neither
 * the end of the search nor the scaling shows.
 */
START_TEST(destroy_finds_a_live_last_granule)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	struct genpool_data_fixed last = { .offset = 0xf0 };
	struct snapshot s;

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x100, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_fixed_alloc, &last), 0x100f0);
	take(pool, &s);
	capture_errors();
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 1);
	ck_assert_uint_eq(last_error()->addr, 0x100f0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EBUSY);
	assert_unchanged(pool, &s);
	gen_pool_free(pool, 0x100f0, 16);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

/*
 * A free whose range is live in its first word but not in a later one is
 * EDOUBLEFREE with the pool unchanged in both modes (_i = 1: lock-free).
 * The lock-free release clears word by word with compare-and-swap, so it
 * must check the whole range first: released as it goes, word 0 (granules
 * 0..63, the live block) would be free before the free granule 64 is met.
 */
START_TEST(free_running_into_a_free_word_leaves_pool_unchanged)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	struct snapshot s;

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add(pool, 0x100000, 0x1000, -1), 0);	/* 4 words */
	ck_assert_uint_eq(gen_pool_alloc(pool, 0x400), 0x100000);	/* word 0 */
	if (_i)
		gen_pool_set_lockless(pool, true);
	capture_errors();
	take(pool, &s);
	ck_assert_uint_eq(s.bits[0], ~0UL);
	free_must_fail(pool, 0x100000, 0x410, GENALLOC_EDOUBLEFREE);	/* + granule 64 */
	ck_assert_uint_eq(gen_pool_avail(pool), 0x1000 - 0x400);
	gen_pool_free(pool, 0x100000, 0x400);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_uint_eq(gen_pool_avail(pool), 0x1000);
	gen_pool_destroy(pool);
}
END_TEST

Suite *modern_misuse_suite(void)
{
	Suite *s = suite_create("modern_misuse");
	TCase *tc = tcase_create("returning_handler");
	TCase *die = tcase_create("default_handler");

	tcase_add_test(tc, create_bad_order);
	tcase_add_test(tc, add_bad_ranges);
	tcase_add_test(tc, add_refuses_exactly_the_overlapping_ranges);
	tcase_add_test(tc, add_without_memory_for_bookkeeping);
	tcase_add_test(tc, alloc_null_pool);
	tcase_add_test(tc, alloc_bad_algorithm_data_warns_once);
	tcase_add_test(tc, alloc_overflowing_sizes_refused_quietly);
	tcase_add_test(tc, free_misuse_leaves_pool_unchanged);
	tcase_add_test(tc, free_outside_the_only_chunk_is_foreign);
	tcase_add_loop_test(tc, free_of_size_zero_still_needs_a_chunk, 0, 2);
	tcase_add_test(tc, partial_free_is_what_a_bitmap_allows);
	tcase_add_test(tc, destroy_with_live_blocks_is_refused);
	tcase_add_test(tc, queries_on_null_pool);
	tcase_add_test(tc, dma_on_null_pool_is_quiet);
	tcase_add_test(tc, checker_finds_corruption);
	tcase_add_test(tc, destroy_finds_a_live_last_granule);
	tcase_add_loop_test(tc, free_running_into_a_free_word_leaves_pool_unchanged, 0, 2);
	suite_add_tcase(s, tc);

	tcase_add_test(die, default_warn_returns);
	tcase_add_test_raise_signal(die, die_double_free, SIGABRT);
	tcase_add_test_raise_signal(die, die_foreign_free, SIGABRT);
	tcase_add_test_raise_signal(die, die_misaligned_free, SIGABRT);
	tcase_add_test_raise_signal(die, die_free_past_chunk, SIGABRT);
	tcase_add_test_raise_signal(die, die_destroy_busy, SIGABRT);
	tcase_add_test_raise_signal(die, die_check_corrupt, SIGABRT);
	suite_add_tcase(s, die);
	return s;
}
