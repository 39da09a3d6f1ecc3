// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/test_scenarios.c - the 2005 contract, one scenario per test,
 * each run on both backends (tcase_add_loop_test: _i = 0 buddy, 1 bitmap).
 */
#include <signal.h>
#include <sys/mman.h>
#include <stdlib.h>
#include <unistd.h>

#include "../support.h"
#include "compat_fixture.h"

#define SHIFT 12
#define CHUNK (1UL << SHIFT)

/* ------------------------------------------------------------ rounding */

START_TEST(sizes_round_up_to_powers_of_two_from_32)
{
	static const int size[] = { 0, 1, 31, 32, 33, 63, 64, 65, 100, 128, 129, 1000, 2048 };
	static const unsigned long rounded[] = { 32, 32, 32, 32, 64, 64, 64, 128, 128, 128,
						 256, 1024, 2048 };
	struct fx_provider *p = fx_provider_new(SHIFT, 8);
	struct gen_pool *pool = fx_pool(_i, p, 0);

	for (unsigned k = 0; k < sizeof(size) / sizeof(size[0]); k++) {
		unsigned long before = fx_live_bytes(pool);
		unsigned long a = gen_pool_alloc(pool, size[k]);

		ck_assert_uint_ne(a, 0);
		ck_assert_uint_eq(fx_live_bytes(pool) - before, rounded[k]);
		ck_assert_uint_eq(a & (rounded[k] - 1), 0);
		gen_pool_free(pool, a, size[k]);
		ck_assert_uint_eq(fx_live_bytes(pool), before);
		ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	}
	gen_pool_destroy(pool);
}
END_TEST

/* A fresh chunk is carved from its bottom up on both backends. */
START_TEST(fresh_chunk_is_carved_from_the_bottom)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 1);
	struct gen_pool *pool = fx_pool(_i, p, 1);
	unsigned long c = p->chunk[0];

	ck_assert_uint_eq(gen_pool_alloc(pool, 32), c);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), c + 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), c + 64);
	ck_assert_uint_eq(gen_pool_alloc(pool, 128), c + 128);
	ck_assert_uint_eq(gen_pool_alloc(pool, 2048), c + 2048);
	gen_pool_free(pool, c + 32, 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), c + 32);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
}
END_TEST

START_TEST(blocks_are_naturally_aligned)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 16);
	struct gen_pool *pool = fx_pool(_i, p, 0);
	unsigned long long rng = 0x1234 + _i;

	for (int k = 0; k < 200; k++) {
		int size = (int)test_rng_below(&rng, CHUNK + 1);
		unsigned long s = 32, a = gen_pool_alloc(pool, size);

		while (s < (unsigned long)size)
			s <<= 1;
		if (!a)
			break;
		ck_assert_uint_eq(a & (s - 1), 0);
	}
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
}
END_TEST

/* ------------------------------------------------------------ growth */

START_TEST(growth_calls_the_callback_with_the_compat_pool)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 4);
	struct gen_pool *pool = fx_pool(_i, p, 0);
	unsigned long a;

	ck_assert_int_eq(atomic_load(&p->calls), 0);
	a = gen_pool_alloc(pool, 32);
	ck_assert_uint_eq(a, p->chunk[0]);
	ck_assert_int_eq(atomic_load(&p->calls), 1);
	ck_assert_ptr_eq(atomic_load(&p->pool), pool);
	/* The rest of the chunk serves without another call. */
	for (unsigned long k = 1; k < CHUNK / 32; k++)
		ck_assert_uint_ne(gen_pool_alloc(pool, 32), 0);
	ck_assert_int_eq(atomic_load(&p->calls), 1);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), p->chunk[1]);
	ck_assert_int_eq(atomic_load(&p->calls), 2);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
}
END_TEST

START_TEST(prefill_obtains_nr_chunks_up_front)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 4);
	struct gen_pool *pool = fx_pool(_i, p, 3);
	struct compat_gen_pool_stats st;

	ck_assert_int_eq(atomic_load(&p->calls), 3);
	compat_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.obtained_bytes, 3 * CHUNK);
	ck_assert_uint_eq(st.free_bytes, 3 * CHUNK);
	ck_assert_uint_eq(st.largest_free, CHUNK);
	for (int k = 0; k < 3; k++)
		ck_assert_uint_ne(gen_pool_alloc(pool, (int)CHUNK), 0);
	ck_assert_int_eq(atomic_load(&p->calls), 3);
	ck_assert_uint_eq(gen_pool_alloc(pool, (int)CHUNK), p->chunk[3]);
	ck_assert_int_eq(atomic_load(&p->calls), 4);
}
END_TEST

START_TEST(prefill_stops_at_the_first_zero)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 2);
	struct gen_pool *pool = fx_pool(_i, p, 5);

	ck_assert_int_eq(atomic_load(&p->calls), 3);
	ck_assert_uint_eq(fx_free_bytes(pool), 2 * CHUNK);
}
END_TEST

START_TEST(exhaustion_returns_zero)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 1);
	struct gen_pool *pool = fx_pool(_i, p, 0);

	ck_assert_uint_eq(gen_pool_alloc(pool, (int)CHUNK / 2), p->chunk[0]);
	ck_assert_uint_eq(gen_pool_alloc(pool, (int)CHUNK / 2), p->chunk[0] + CHUNK / 2);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	ck_assert_int_eq(atomic_load(&p->calls), 2);
	gen_pool_free(pool, p->chunk[0], (int)CHUNK / 2);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), p->chunk[0]);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
}
END_TEST

/* ------------------------------------------------------------ oversize */

START_TEST(oversize_fails_quietly_without_the_callback)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 2);
	struct gen_pool *pool = fx_pool(_i, p, 1);
	unsigned long a = gen_pool_alloc(pool, 64);

	capture_errors();
	ck_assert_uint_eq(gen_pool_alloc(pool, (int)CHUNK + 1), 0);
	ck_assert_int_eq(atomic_load(&p->calls), 1);
	gen_pool_free(pool, a, (int)CHUNK + 1);	/* 2005: silently ignored */
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_uint_eq(fx_live_bytes(pool), 64);
	gen_pool_free(pool, a, 64);
	ck_assert_uint_eq(fx_live_bytes(pool), 0);
}
END_TEST

/* ------------------------------------------------------------ donation */

/* Four adjacent donated 1 KiB pieces serve one 4 KiB block, as buddies. */
START_TEST(adjacent_donations_serve_a_larger_block)
{
	struct gen_pool *pool = gen_pool_create_backend(fx_backend(_i), 0, 14, NULL, 0);
	unsigned long r = (unsigned long)test_region(1UL << 14, 1UL << 14);
	struct compat_gen_pool_stats st;

	for (int k = 3; k >= 0; k--)
		gen_pool_free(pool, r + 1024UL * (unsigned long)k, 1024);
	compat_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.donated_bytes, 4096);
	ck_assert_uint_eq(st.free_bytes, 4096);
	ck_assert_uint_eq(st.largest_free, 4096);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 4096), r);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	gen_pool_free(pool, r, 4096);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

/* Pieces that are not buddies cannot form an aligned block. */
START_TEST(unaligned_neighbours_do_not_merge)
{
	struct gen_pool *pool = gen_pool_create_backend(fx_backend(_i), 0, 14, NULL, 0);
	unsigned long r = (unsigned long)test_region(1UL << 14, 1UL << 14), a, b;

	gen_pool_free(pool, r + 1024, 1024);
	gen_pool_free(pool, r + 2048, 1024);
	ck_assert_uint_eq(gen_pool_alloc(pool, 2048), 0);
	a = gen_pool_alloc(pool, 1024);
	b = gen_pool_alloc(pool, 1024);
	ck_assert(a == r + 1024 || a == r + 2048);
	ck_assert_uint_eq(a ^ b, (r + 1024) ^ (r + 2048));
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	gen_pool_free(pool, a, 1024);
	gen_pool_free(pool, b, 1024);
	gen_pool_destroy(pool);
}
END_TEST

/* Donations, as ia64 did page by page, next to chunks from the callback. */
START_TEST(donations_and_chunks_live_together)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 2);
	struct gen_pool *pool = fx_pool(_i, p, 0);
	unsigned long r = (unsigned long)test_region(CHUNK, 2 * CHUNK);
	struct compat_gen_pool_stats st;

	for (unsigned long k = 0; k < 2 * CHUNK; k += 512)
		gen_pool_free(pool, r + k, 512);
	compat_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.donated_bytes, 2 * CHUNK);
	ck_assert_uint_eq(st.obtained_bytes, 0);
	/* Whole donated chunks are used before the callback is asked. */
	for (int k = 0; k < 2; k++) {
		unsigned long a = gen_pool_alloc(pool, (int)CHUNK);

		ck_assert(a == r || a == r + CHUNK);
	}
	ck_assert_int_eq(atomic_load(&p->calls), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, (int)CHUNK), p->chunk[0]);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
}
END_TEST

struct region_seen {
	unsigned long callback_bytes, donated_bytes;
	int calls;
};

static void count_region(struct gen_pool *pool, unsigned long addr, unsigned long size,
			 int from_callback, void *data)
{
	struct region_seen *s = data;

	(void)pool;
	ck_assert_uint_ne(addr, 0);
	if (from_callback)
		s->callback_bytes += size;
	else
		s->donated_bytes += size;
	s->calls++;
}

START_TEST(regions_list_chunks_and_donations)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 2);
	struct gen_pool *pool = fx_pool(_i, p, 2);
	unsigned long r = (unsigned long)test_region(CHUNK, CHUNK);
	struct region_seen seen = { 0 };

	gen_pool_free(pool, r, 256);
	gen_pool_free(pool, r + 256, 256);
	gen_pool_free(pool, r + 2048, 32);
	compat_gen_pool_for_each_region(pool, count_region, &seen);
	ck_assert_uint_eq(seen.callback_bytes, 2 * CHUNK);
	ck_assert_uint_eq(seen.donated_bytes, 544);
	ck_assert_int_eq(seen.calls, 4);
	gen_pool_destroy(pool);
}
END_TEST

/* 2005 called get_new_chunk unlocked so it could feed the pool itself: a
 * callback that donates instead of returning a chunk still satisfies the
 * request, on both backends. */
static unsigned long donating_cb(struct gen_pool *pool)
{
	struct fx_provider *p = (struct fx_provider *)pool->private;

	atomic_fetch_add(&p->calls, 1);
	if (atomic_fetch_add(&p->given, 1) < p->cap)
		gen_pool_free(pool, p->chunk[atomic_load(&p->given) - 1], (int)CHUNK);
	return 0;
}

START_TEST(callback_may_donate_instead_of_returning)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 1);
	struct gen_pool *pool = gen_pool_create_backend(fx_backend(_i), 0, SHIFT, donating_cb,
							(unsigned long)p);
	unsigned long a = gen_pool_alloc(pool, 64);

	ck_assert_int_eq(atomic_load(&p->calls), 1);
	ck_assert_uint_eq(a, p->chunk[0]);
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), p->chunk[0] + 64);
	ck_assert_uint_eq(gen_pool_alloc(pool, (int)CHUNK), 0);
	ck_assert_int_eq(atomic_load(&p->calls), 2);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	gen_pool_free(pool, a, 64);
	gen_pool_free(pool, a + 64, 64);
	gen_pool_destroy(pool);
}
END_TEST

/* A callback that donates less than a chunk and returns 0: 2005 then looked
 * only at the chunk list and returned 0, the donation staying free for the
 * next request; the buddy backend does the same, the bitmap backend serves
 * the request from the donation at once. */
static unsigned long small_donating_cb(struct gen_pool *pool)
{
	struct fx_provider *p = (struct fx_provider *)pool->private;

	if (atomic_fetch_add(&p->calls, 1) == 0)
		gen_pool_free(pool, p->chunk[0] + CHUNK / 2, (int)(CHUNK / 4));
	return 0;
}

START_TEST(callback_donating_less_than_a_chunk)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 1);
	struct gen_pool *pool = gen_pool_create_backend(fx_backend(_i), 0, SHIFT,
							small_donating_cb, (unsigned long)p);
	unsigned long donated = p->chunk[0] + CHUNK / 2, a, b;

	a = gen_pool_alloc(pool, 64);
	ck_assert_int_eq(atomic_load(&p->calls), 1);
	if (fx_backend(_i) == COMPAT_BACKEND_BUDDY) {
		ck_assert_uint_eq(a, 0);
		a = gen_pool_alloc(pool, 64);
		ck_assert_int_eq(atomic_load(&p->calls), 1);
	}
	ck_assert_uint_eq(a, donated);
	b = gen_pool_alloc(pool, 64);
	ck_assert_uint_eq(b, donated + 64);
	ck_assert_int_eq(atomic_load(&p->calls), 1);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	gen_pool_free(pool, a, 64);
	gen_pool_free(pool, b, 64);
	gen_pool_destroy(pool);
}
END_TEST

/* 2005 called get_new_chunk during the prefill with the pool complete, so a
 * callback could donate then too: the donation is in the pool when
 * creation returns, and the prefill stops at the callback's 0. */
START_TEST(callback_may_donate_during_prefill)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 1);
	struct gen_pool *pool = gen_pool_create_backend(fx_backend(_i), 2, SHIFT, donating_cb,
							(unsigned long)p);
	struct compat_gen_pool_stats st;

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(atomic_load(&p->calls), 1);
	compat_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.donated_bytes, CHUNK);
	ck_assert_uint_eq(st.obtained_bytes, 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), p->chunk[0]);
	ck_assert_int_eq(atomic_load(&p->calls), 1);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	gen_pool_free(pool, p->chunk[0], 64);
	gen_pool_destroy(pool);
}
END_TEST

/* The bitmap backend never reads or writes the memory it manages: run it on
 * memory no one may touch. */
START_TEST(bitmap_backend_never_touches_managed_memory)
{
	size_t len = 4 * CHUNK;
	char *mem = mmap(NULL, 2 * len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned long base, a[8];
	struct gen_pool *pool = gen_pool_create_backend(COMPAT_BACKEND_BITMAP, 0, SHIFT, NULL, 0);

	ck_assert_ptr_ne(mem, MAP_FAILED);
	base = ((unsigned long)mem + CHUNK - 1) & ~(CHUNK - 1);
	for (unsigned long off = 0; off < len; off += 256)
		gen_pool_free(pool, base + off, 256);
	for (int k = 0; k < 8; k++) {
		a[k] = gen_pool_alloc(pool, 32 << k);
		ck_assert_uint_ne(a[k], 0);
	}
	for (int k = 0; k < 8; k++)
		gen_pool_free(pool, a[k], 32 << k);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
	munmap(mem, 2 * len);
}
END_TEST

/* Donations that touch across a chunk boundary are one region, as legacy
 * reports them; a donation elsewhere is another. */
START_TEST(regions_merge_donations_across_chunks)
{
	struct gen_pool *pool = gen_pool_create_backend(fx_backend(_i), 0, SHIFT, NULL, 0);
	unsigned long r = (unsigned long)test_region(CHUNK, 4 * CHUNK);
	struct region_seen seen = { 0 };

	gen_pool_free(pool, r + CHUNK - 256, 256);
	gen_pool_free(pool, r + CHUNK, 256);
	gen_pool_free(pool, r + 2 * CHUNK, 1024);
	gen_pool_free(pool, r + 3 * CHUNK + 512, 512);
	compat_gen_pool_for_each_region(pool, count_region, &seen);
	ck_assert_uint_eq(seen.donated_bytes, 256 + 256 + 1024 + 512);
	ck_assert_uint_eq(seen.callback_bytes, 0);
	ck_assert_int_eq(seen.calls, 3);
	gen_pool_destroy(pool);
}
END_TEST

/* ------------------------------------------------------------ bad input */

START_TEST(bad_arguments_are_refused_with_warn)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 1);
	struct gen_pool *pool = fx_pool(_i, p, 0);
	enum compat_backend b = fx_backend(_i);
	struct compat_gen_pool_stats st;

	capture_errors();
	ck_assert_uint_eq(gen_pool_alloc(NULL, 32), 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_uint_eq(gen_pool_alloc(pool, -1), 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	gen_pool_free(NULL, 0x1000, 32);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	gen_pool_free(pool, 0x1000, -5);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	gen_pool_free(pool, 0, 32);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(gen_pool_create_backend(b, 0, 3, NULL, 0));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(gen_pool_create_backend(b, 0, -1, NULL, 0));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(gen_pool_create_backend(b, 0, 40, NULL, 0));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(gen_pool_create_backend(b, -1, SHIFT, fx_get_new_chunk, 0));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(gen_pool_create_backend(b, 1, SHIFT, NULL, 0));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(gen_pool_create_backend((enum compat_backend)7, 0, SHIFT, NULL, 0));
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(compat_gen_pool_check(NULL), -1);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	compat_gen_pool_stats(NULL, &st);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	compat_gen_pool_for_each_region(pool, NULL, NULL);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(compat_gen_pool_backend(NULL), COMPAT_BACKEND_DEFAULT);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	gen_pool_destroy(NULL);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_int_eq(atomic_load(&p->calls), 0);
	gen_pool_destroy(pool);
}
END_TEST

/* Shift 0 means the page shift; the page shift + 10 is the largest. */
START_TEST(max_chunk_shift_limits)
{
	int page_shift = 0;
	struct gen_pool *pool;

	while ((1L << page_shift) < sysconf(_SC_PAGESIZE))
		page_shift++;
	pool = gen_pool_create_backend(fx_backend(_i), 0, 0, NULL, 0);
	ck_assert_int_eq(pool->max_chunk_shift, page_shift);
	gen_pool_destroy(pool);
	pool = gen_pool_create_backend(fx_backend(_i), 0, page_shift + 10, NULL, 0);
	ck_assert_ptr_nonnull(pool);
	gen_pool_destroy(pool);
	pool = gen_pool_create_backend(fx_backend(_i), 0, ALLOC_MIN_SHIFT, NULL, 0);
	ck_assert_ptr_nonnull(pool);
	ck_assert_uint_eq(gen_pool_alloc(pool, 33), 0);
	gen_pool_destroy(pool);
}
END_TEST

/* Each BUG leaves the pool exactly as it was when the hook returns. */
START_TEST(misused_frees_are_bugs_and_change_nothing)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 2);
	struct gen_pool *pool = fx_pool(_i, p, 1);
	unsigned long a = gen_pool_alloc(pool, 256), b = gen_pool_alloc(pool, 32);
	unsigned long r = (unsigned long)test_region(CHUNK, CHUNK);
	unsigned long live = fx_live_bytes(pool), free_before = fx_free_bytes(pool);

	capture_errors();
	gen_pool_free(pool, a, 64);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ESIZE);
	gen_pool_free(pool, a + 64, 64);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EFOREIGN);
	gen_pool_free(pool, a + 96, 64);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	gen_pool_free(pool, p->chunk[0] + CHUNK - 64, 32);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EDOUBLEFREE);
	gen_pool_free(pool, r + 32, 64);	/* misaligned donation */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	gen_pool_free(pool, ~0UL - 31, 64);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ERANGE);
	ck_assert_uint_eq(fx_live_bytes(pool), live);
	ck_assert_uint_eq(fx_free_bytes(pool), free_before);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);

	gen_pool_free(pool, b, 32);
	gen_pool_free(pool, b, 32);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EDOUBLEFREE);
	gen_pool_free(pool, r + 256, 256);	/* a donation, then one overlapping it */
	gen_pool_free(pool, r, 1024);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EOVERLAP);
	ck_assert_uint_eq(fx_free_bytes(pool), free_before + 32 + 256);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

/* Any live block keeps the pool, down to one of 32 bytes (a check with
 * slack in its live-byte count refused 128 bytes, and not 32). */
START_TEST(destroy_with_live_blocks_keeps_the_pool)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 1);
	struct gen_pool *pool = fx_pool(_i, p, 0);
	unsigned long a = gen_pool_alloc(pool, 100);

	capture_errors();
	gen_pool_destroy(pool);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EBUSY);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), a + 128);
	gen_pool_free(pool, a, 100);
	gen_pool_destroy(pool);			/* only the 32-byte block is live */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EBUSY);
	gen_pool_free(pool, a + 128, 32);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

START_TEST(bad_chunks_from_the_callback_are_not_used)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 2);
	struct gen_pool *pool = fx_pool(_i, p, 1);

	capture_errors();
	p->bad = p->chunk[1] + 64;
	ck_assert_uint_eq(gen_pool_alloc(pool, (int)CHUNK), p->chunk[0]);
	ck_assert_uint_eq(gen_pool_alloc(pool, (int)CHUNK), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EMISALIGNED);
	p->bad = p->chunk[0];
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EOVERLAP);
	p->bad = ~0UL - 31;
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ERANGE);
	p->bad = 0;
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), p->chunk[1]);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
}
END_TEST

/* The edges of the misuse checks, on both backends: an address in the
 * middle of a live block (the enclosing block is found only at its own
 * order), inside a live chunk-sized block, a wrong size for a 32-byte
 * block, and a donation that meets known memory only in its last granule.
 * misused_frees_are_bugs_and_change_nothing reaches none of these edges:
 * a bitmap search that stopped an order short, skipped a 32-byte block's
 * size or a donation's last granule, and a buddy overlap check one atom
 * short all passed it. */
START_TEST(misuse_at_the_edges_is_still_caught)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 2);
	struct gen_pool *pool = fx_pool(_i, p, 1);
	unsigned long a = gen_pool_alloc(pool, 256), b = gen_pool_alloc(pool, 32);
	unsigned long c = gen_pool_alloc(pool, (int)CHUNK);
	unsigned long r = (unsigned long)test_region(CHUNK, CHUNK);
	unsigned long live, free_before;

	ck_assert_uint_eq(a, p->chunk[0]);
	ck_assert_uint_eq(b, p->chunk[0] + 256);
	ck_assert_uint_eq(c, p->chunk[1]);
	gen_pool_free(pool, r + 224, 32);	/* the last granule of [r, r + 256) */
	live = fx_live_bytes(pool);
	free_before = fx_free_bytes(pool);
	capture_errors();
	gen_pool_free(pool, a + 128, 32);	/* the middle of a live 256 */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EFOREIGN);
	gen_pool_free(pool, c + CHUNK / 2, 32);	/* the middle of a live chunk */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EFOREIGN);
	gen_pool_free(pool, b, 64);		/* a 32-byte block freed as 64 */
	ck_assert_error(GENALLOC_BUG, GENALLOC_ESIZE);
	gen_pool_free(pool, r, 256);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EOVERLAP);
	ck_assert_uint_eq(fx_live_bytes(pool), live);
	ck_assert_uint_eq(fx_free_bytes(pool), free_before);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	ck_assert_int_eq(errors_seen(), 0);
	gen_pool_free(pool, a, 256);
	gen_pool_free(pool, b, 32);
	gen_pool_free(pool, c, (int)CHUNK);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

/* The header's promise about reports: the function is the 2005 name of the
 * call (alloc_gen_pool for the prefill, whatever name created the pool) and
 * the pool is the compat pool - except, on the buddy backend, for errors the
 * engine finds itself (bad chunks, misused frees), which name the engine's
 * pool.  Only codes were checked before: a prefill report named
 * gen_pool_alloc, an EBUSY or address-0 report naming the engine's pool,
 * a free's WARN named gen_pool_alloc all passed. */
START_TEST(reports_name_the_2005_call_and_the_compat_pool)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 2);
	struct gen_pool *pool, *prefilled;
	unsigned long a, bad;

	capture_errors();
	p->bad = bad = p->chunk[1] + 64;
	prefilled = gen_pool_create_backend(fx_backend(_i), 2, SHIFT, fx_get_new_chunk,
					    (unsigned long)p);
	ck_assert_ptr_nonnull(prefilled);
	ck_assert_int_eq(errors_seen(), 1);
	ck_assert_str_eq(last_error()->func, "alloc_gen_pool");
	ck_assert_uint_eq(last_error()->addr, bad);
	reset_errors();
	gen_pool_destroy(prefilled);
	p->bad = 0;

	pool = fx_pool(_i, p, 0);
	a = gen_pool_alloc(pool, 32);
	ck_assert_uint_ne(a, 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, -1), 0);
	ck_assert_report("gen_pool_alloc", pool);
	gen_pool_free(pool, a, -1);
	ck_assert_uint_eq(last_error()->addr, a);	/* the address, as legacy/ */
	ck_assert_report("gen_pool_free", pool);
	gen_pool_free(NULL, a, 32);
	ck_assert_uint_eq(last_error()->addr, a);
	ck_assert_report("gen_pool_free", NULL);
	gen_pool_free(pool, 0, 32);
	ck_assert_report("gen_pool_free", pool);
	gen_pool_destroy(pool);
	ck_assert_report("gen_pool_destroy", pool);
	gen_pool_free(pool, a + 32, 32);	/* a double free, found by the engine */
	ck_assert_uint_eq(last_error()->addr, a + 32);
	ck_assert_report("gen_pool_free", pool);	/* the caller's pool on both */
	gen_pool_free(pool, a, 32);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

/* The region visitor is handed the pool the program created, as the
 * 2005-style signature says, on both backends (not the engine's pool). */
static void region_names_pool(struct gen_pool *pool, unsigned long addr, unsigned long size,
			      int from_callback, void *data)
{
	(void)addr;
	(void)size;
	(void)from_callback;
	ck_assert_ptr_eq(pool, data);
}

START_TEST(regions_are_visited_with_the_compat_pool)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 1);
	struct gen_pool *pool = fx_pool(_i, p, 1);
	unsigned long r = (unsigned long)test_region(CHUNK, CHUNK);

	gen_pool_free(pool, r, 256);
	compat_gen_pool_for_each_region(pool, region_names_pool, pool);
	gen_pool_destroy(pool);
}
END_TEST

/* A donated run that ends at a frame's top, right below a chunk from the
 * callback, is its own region: runs are followed only into donated frames
 * above (a walk that went on into the callback chunk reported one donated
 * run of 256 + 4096 bytes; regions_merge_donations_across_chunks has no
 * callback chunk next to a donation). */
struct region_rec {
	int n;
	unsigned long addr[4], size[4];
	int from_callback[4];
};

static void record_region(struct gen_pool *pool, unsigned long addr, unsigned long size,
			  int from_callback, void *data)
{
	struct region_rec *r = data;

	(void)pool;
	ck_assert_int_lt(r->n, 4);
	r->addr[r->n] = addr;
	r->size[r->n] = size;
	r->from_callback[r->n++] = from_callback;
}

START_TEST(donated_run_below_a_callback_chunk_stops_at_it)
{
	struct fx_provider *p = fx_provider_adjacent(SHIFT, 2);
	struct gen_pool *pool = fx_pool(_i, p, 0);
	struct region_rec rec = { 0 };
	int don;

	ck_assert_uint_eq(p->chunk[1], p->chunk[0] + CHUNK);
	gen_pool_free(pool, p->chunk[1] - 256, 256);	/* top of chunk 0's frame */
	p->bad = p->chunk[1];				/* the callback's next chunk */
	ck_assert_uint_eq(gen_pool_alloc(pool, (int)CHUNK), p->chunk[1]);
	compat_gen_pool_for_each_region(pool, record_region, &rec);
	ck_assert_int_eq(rec.n, 2);
	don = rec.from_callback[0] ? 1 : 0;
	ck_assert_int_eq(rec.from_callback[don], 0);
	ck_assert_uint_eq(rec.addr[don], p->chunk[1] - 256);
	ck_assert_uint_eq(rec.size[don], 256);
	ck_assert_int_eq(rec.from_callback[!don], 1);
	ck_assert_uint_eq(rec.addr[!don], p->chunk[1]);
	ck_assert_uint_eq(rec.size[!don], CHUNK);
	gen_pool_free(pool, p->chunk[1], (int)CHUNK);
	gen_pool_destroy(pool);
}
END_TEST

/* ------------------------------------------------------------ deaths */

START_TEST(double_free_aborts_by_default)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 1);
	struct gen_pool *pool = fx_pool(_i, p, 1);
	unsigned long a = gen_pool_alloc(pool, 32);

	expect_death();
	gen_pool_free(pool, a, 32);
	gen_pool_free(pool, a, 32);
}
END_TEST

START_TEST(destroy_busy_aborts_by_default)
{
	struct fx_provider *p = fx_provider_new(SHIFT, 1);
	struct gen_pool *pool = fx_pool(_i, p, 1);

	ck_assert_uint_ne(gen_pool_alloc(pool, 32), 0);
	expect_death();
	gen_pool_destroy(pool);
}
END_TEST

Suite *compat_scenarios_suite(void)
{
	Suite *s = suite_create("compat_scenarios");
	TCase *tc = tcase_create("both_backends");

	tcase_add_loop_test(tc, sizes_round_up_to_powers_of_two_from_32, 0, 2);
	tcase_add_loop_test(tc, fresh_chunk_is_carved_from_the_bottom, 0, 2);
	tcase_add_loop_test(tc, blocks_are_naturally_aligned, 0, 2);
	tcase_add_loop_test(tc, growth_calls_the_callback_with_the_compat_pool, 0, 2);
	tcase_add_loop_test(tc, prefill_obtains_nr_chunks_up_front, 0, 2);
	tcase_add_loop_test(tc, prefill_stops_at_the_first_zero, 0, 2);
	tcase_add_loop_test(tc, exhaustion_returns_zero, 0, 2);
	tcase_add_loop_test(tc, oversize_fails_quietly_without_the_callback, 0, 2);
	tcase_add_loop_test(tc, adjacent_donations_serve_a_larger_block, 0, 2);
	tcase_add_loop_test(tc, unaligned_neighbours_do_not_merge, 0, 2);
	tcase_add_loop_test(tc, donations_and_chunks_live_together, 0, 2);
	tcase_add_loop_test(tc, regions_list_chunks_and_donations, 0, 2);
	tcase_add_loop_test(tc, regions_merge_donations_across_chunks, 0, 2);
	tcase_add_loop_test(tc, callback_may_donate_instead_of_returning, 0, 2);
	tcase_add_loop_test(tc, callback_donating_less_than_a_chunk, 0, 2);
	tcase_add_loop_test(tc, callback_may_donate_during_prefill, 0, 2);
	tcase_add_test(tc, bitmap_backend_never_touches_managed_memory);
	tcase_add_loop_test(tc, bad_arguments_are_refused_with_warn, 0, 2);
	tcase_add_loop_test(tc, max_chunk_shift_limits, 0, 2);
	tcase_add_loop_test(tc, misused_frees_are_bugs_and_change_nothing, 0, 2);
	tcase_add_loop_test(tc, destroy_with_live_blocks_keeps_the_pool, 0, 2);
	tcase_add_loop_test(tc, bad_chunks_from_the_callback_are_not_used, 0, 2);
	tcase_add_loop_test(tc, misuse_at_the_edges_is_still_caught, 0, 2);
	tcase_add_loop_test(tc, reports_name_the_2005_call_and_the_compat_pool, 0, 2);
	tcase_add_loop_test(tc, regions_are_visited_with_the_compat_pool, 0, 2);
	tcase_add_loop_test(tc, donated_run_below_a_callback_chunk_stops_at_it, 0, 2);
	tcase_add_loop_test_raise_signal(tc, double_free_aborts_by_default, SIGABRT, 0, 2);
	tcase_add_loop_test_raise_signal(tc, destroy_busy_aborts_by_default, SIGABRT, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
