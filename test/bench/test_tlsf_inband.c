// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/bench/test_tlsf_inband.c - the in-band TLSF yardstick
 * (bench/tlsf_inband.c): placement worked by hand, TLSF's good fit,
 * refusals, a randomized run checked after every step against a map of
 * what is live, and the engine the bench times (tlsfi8).
 *
 * The hand-worked pool is 4096 bytes: one free block of 4080 (the closing
 * header takes 16), which lists at first level 5 (2048-4095), second level
 * (4080 >> 7) & 15 = 15, a list whose floor is 31 << 7 = 3968; a request
 * rounded up to a list bound must fit that floor, so the largest request
 * is 3968 - 16 = 3952.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "bench/engine.h"
#include "bench/workload.h"
#include "bench/tlsf_inband.h"

#define HAND 4096

static _Alignas(16) char hand[HAND];

START_TEST(placement_by_hand)
{
	struct itlsf *t = itlsf_create(hand, HAND);
	char *a, *b, *c, *d;

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(itlsf_check(t), 0);
	ck_assert_uint_eq(itlsf_free_bytes(t), 4080);
	ck_assert_uint_eq(itlsf_largest_free(t), 3952);

	/* 100 -> 104 + 16 = 120 bytes, split off the front of the one block. */
	a = itlsf_alloc(t, 100);
	ck_assert_ptr_eq(a, hand + 16);
	/* 1 -> the 32-byte minimum, next in line. */
	b = itlsf_alloc(t, 1);
	ck_assert_ptr_eq(b, hand + 120 + 16);
	/* 200 -> 216, exactly the floor of its list at first level 1. */
	c = itlsf_alloc(t, 200);
	ck_assert_ptr_eq(c, hand + 152 + 16);
	ck_assert_uint_eq(itlsf_free_bytes(t), 4080 - 120 - 32 - 216);
	ck_assert_int_eq(itlsf_check(t), 0);

	/* Between two used blocks, b's block stays alone on the 32-byte list
	 * and the next small request takes it back. */
	ck_assert_int_eq(itlsf_free(t, b), 0);
	ck_assert_int_eq(itlsf_check(t), 0);
	d = itlsf_alloc(t, 8);
	ck_assert_ptr_eq(d, b);

	/* Frees merge with free neighbours on both sides at once. */
	ck_assert_int_eq(itlsf_free(t, a), 0);
	ck_assert_int_eq(itlsf_free(t, d), 0);
	ck_assert_int_eq(itlsf_check(t), 0);
	ck_assert_uint_eq(itlsf_free_bytes(t), 4080 - 216);
	ck_assert_int_eq(itlsf_free(t, c), 0);
	ck_assert_int_eq(itlsf_check(t), 0);
	ck_assert_uint_eq(itlsf_free_bytes(t), 4080);
	ck_assert_uint_eq(itlsf_largest_free(t), 3952);
	ck_assert_ptr_eq(itlsf_alloc(t, 3952), hand + 16);
	itlsf_destroy(t);
}
END_TEST

/*
 * Good fit: a request is rounded up to the next list bound, so a free block
 * that would hold it but lies on a lower list is not used.  A 2104-byte
 * block lists at (5, 0), sizes 2048-2175; 2040 bytes need 2056, rounded up
 * past 2175 to list (5, 1): refused, though 2104 >= 2056.  2032 need 2048,
 * the list's floor: granted from that block.
 */
START_TEST(good_fit_rounds_up)
{
	struct itlsf *t = itlsf_create(hand, HAND);
	char *x, *guard;

	x = itlsf_alloc(t, 2088);	/* 2088 + 16 = 2104 */
	guard = itlsf_alloc(t, 1);
	ck_assert_ptr_eq(x, hand + 16);
	ck_assert_ptr_eq(guard, hand + 2104 + 16);
	/* The rest, 4080 - 2104 - 32 = 1944, lists below 2048. */
	ck_assert_int_eq(itlsf_free(t, x), 0);
	ck_assert_int_eq(itlsf_check(t), 0);
	ck_assert_uint_eq(itlsf_largest_free(t), 2048 - 16);
	ck_assert_ptr_null(itlsf_alloc(t, 2040));
	ck_assert_ptr_eq(itlsf_alloc(t, 2032), hand + 16);
	ck_assert_int_eq(itlsf_check(t), 0);
	itlsf_destroy(t);
}
END_TEST

START_TEST(refusals)
{
	struct itlsf *t;
	char *a;
	size_t before;

	ck_assert_ptr_null(itlsf_create(NULL, HAND));
	ck_assert_ptr_null(itlsf_create(hand + 4, HAND - 8));
	ck_assert_ptr_null(itlsf_create(hand, 2 * ITLSF_MIN_BLOCK - 8));
	ck_assert_uint_eq(itlsf_block_bytes(0), ITLSF_MIN_BLOCK);
	ck_assert_uint_eq(itlsf_block_bytes(17), 40);
	ck_assert_uint_eq(itlsf_block_bytes(SIZE_MAX - 3), 0);

	t = itlsf_create(hand, HAND);
	ck_assert_ptr_null(itlsf_alloc(t, HAND));
	ck_assert_ptr_null(itlsf_alloc(t, SIZE_MAX));
	a = itlsf_alloc(t, 0);	/* counts as 1 */
	ck_assert_ptr_eq(a, hand + 16);
	before = itlsf_free_bytes(t);
	ck_assert_int_eq(itlsf_free(t, hand), -1);		/* the header */
	ck_assert_int_eq(itlsf_free(t, a + 4), -1);		/* misaligned */
	ck_assert_int_eq(itlsf_free(t, hand + HAND), -1);	/* past the end */
	ck_assert_int_eq(itlsf_free(t, a + 32), -1);		/* a free block's */
	ck_assert_uint_eq(itlsf_free_bytes(t), before);
	ck_assert_int_eq(itlsf_check(t), 0);
	ck_assert_int_eq(itlsf_free(t, a), 0);
	ck_assert_int_eq(itlsf_free(t, a), -1);			/* twice */
	ck_assert_int_eq(itlsf_check(t), 0);
	itlsf_destroy(t);
	itlsf_destroy(NULL);
}
END_TEST

/* The checker is what the randomized run trusts: it must see damage. */
START_TEST(check_sees_damage)
{
	struct itlsf *t = itlsf_create(hand, HAND);
	char *a = itlsf_alloc(t, 64), *b = itlsf_alloc(t, 64), *link = a - 16;
	size_t saved;

	ck_assert_int_eq(itlsf_check(t), 0);
	memcpy(&saved, b - 8, sizeof(saved));	/* b's size and flags */
	memset(b - 8, 0, 8);
	ck_assert_int_eq(itlsf_check(t), 1);	/* a size below the minimum */
	memcpy(b - 8, &saved, sizeof(saved));
	memset(b - 16, 0, 8);			/* b's link to a's block */
	ck_assert_int_eq(itlsf_check(t), 2);
	memcpy(b - 16, &link, sizeof(link));
	ck_assert_int_eq(itlsf_check(t), 0);
	itlsf_destroy(t);
}
END_TEST

/*
 * Random allocs (log-uniform 1 B-16 KiB) and frees of random live blocks on
 * 256 KiB: every step checked by itlsf_check(), every live block's bytes
 * owned by it alone (a map of 8-byte granules), and an alloc granted
 * exactly when itlsf_largest_free() says it fits.
 */
#define RND_POOL (256 * 1024)
#define RND_STEPS 4000
#define RND_LIVE 512

START_TEST(random_against_owners)
{
	char *mem = aligned_alloc(16, RND_POOL);
	uint16_t *owner = calloc(RND_POOL / 8, sizeof(*owner));
	struct { char *p; size_t n; } live[RND_LIVE];
	size_t nlive = 0, step, k, refused = 0, bad = 0;
	uint64_t rng = 42;
	struct itlsf *t;

	ck_assert_ptr_nonnull(mem);
	ck_assert_ptr_nonnull(owner);
	t = itlsf_create(mem, RND_POOL);
	for (step = 0; step < RND_STEPS; step++) {
		if (nlive == RND_LIVE || (nlive && bench_rng_below(&rng, 100) < 45)) {
			size_t i = bench_rng_below(&rng, nlive);
			size_t g0 = (size_t)(live[i].p - mem) / 8, g1 = g0 + (live[i].n + 7) / 8;

			for (k = g0; k < g1; k++) {
				bad += owner[k] != (uint16_t)(i + 1);
				owner[k] = 0;
			}
			ck_assert_int_eq(itlsf_free(t, live[i].p), 0);
			live[i] = live[--nlive];
			/* The block moved to slot i: its granules change owner. */
			if (i < nlive) {
				g0 = (size_t)(live[i].p - mem) / 8;
				g1 = g0 + (live[i].n + 7) / 8;
				for (k = g0; k < g1; k++)
					owner[k] = (uint16_t)(i + 1);
			}
		} else {
			size_t n = bench_draw_log_uniform(&rng, 1, 16384);
			int fits = n <= itlsf_largest_free(t);
			char *p = itlsf_alloc(t, n);
			size_t g0, g1;

			ck_assert_int_eq(p != NULL, fits);
			if (!p) {
				refused++;
				continue;
			}
			ck_assert(p >= mem + 16 && p + n <= mem + RND_POOL);
			ck_assert_uint_eq((uintptr_t)p % 8, 0);
			g0 = (size_t)(p - mem) / 8;
			g1 = g0 + (n + 7) / 8;
			for (k = g0; k < g1; k++) {
				bad += owner[k] != 0;
				owner[k] = (uint16_t)(nlive + 1);
			}
			live[nlive].p = p;
			live[nlive++].n = n;
		}
		/* One assertion a step: Check's are dear, under valgrind most. */
		ck_assert_uint_eq(bad, 0);
		ck_assert_int_eq(itlsf_check(t), 0);
	}
	/* The run must have met a full pool, or it tested no refusal. */
	ck_assert_uint_gt(refused, 0);
	while (nlive)
		ck_assert_int_eq(itlsf_free(t, live[--nlive].p), 0);
	ck_assert_int_eq(itlsf_check(t), 0);
	ck_assert_uint_eq(itlsf_free_bytes(t), RND_POOL - 16);
	itlsf_destroy(t);
	free(owner);
	free(mem);
}
END_TEST

/* tlsfi8 as genalloc-speed sees it: real memory even when fake is asked
 * for, addresses inside the pool, the payload counted as granted. */
START_TEST(engine_tlsfi8)
{
	const struct bench_engine *e = NULL;
	struct bench_pool_config cfg = { .regime = BENCH_FIXED, .chunk_size = 1 << 20,
					 .capacity = 1 << 20, .fake = 1 };
	struct bench_pool *p;
	struct bench_stats st;
	unsigned long a;
	size_t i;

	for (i = 0; i < bench_nr_engines_tlsf; i++)
		if (!strcmp(bench_engines_tlsf[i].name, "tlsfi8"))
			e = &bench_engines_tlsf[i];
	ck_assert_ptr_nonnull(e);
	p = e->create(e, &cfg);
	ck_assert_ptr_nonnull(p);
	a = e->alloc(p, 100);
	ck_assert_uint_eq(a, p->chunks.base + 16);
	memset((void *)a, 0xa5, 100);
	ck_assert_uint_eq(e->granted(p, 100), 104);
	e->stats(p, &st);
	ck_assert_uint_eq(st.obtained, 1 << 20);
	ck_assert_uint_eq(st.free_bytes, (1 << 20) - 16 - 120);
	e->free(p, a, 100);
	e->stats(p, &st);
	ck_assert_uint_eq(st.free_bytes, (1 << 20) - 16);
	e->destroy(p);
}
END_TEST

Suite *bench_tlsf_inband_suite(void)
{
	Suite *s = suite_create("bench_tlsf_inband");
	TCase *tc = tcase_create("tlsf_inband");

	tcase_add_test(tc, placement_by_hand);
	tcase_add_test(tc, good_fit_rounds_up);
	tcase_add_test(tc, refusals);
	tcase_add_test(tc, check_sees_damage);
	tcase_add_test(tc, random_against_owners);
	tcase_add_test(tc, engine_tlsfi8);
	suite_add_tcase(s, tc);
	return s;
}
