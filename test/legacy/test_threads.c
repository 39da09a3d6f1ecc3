// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/test_threads.c - the pool lock: threads allocating and
 * freeing at once, growing through the callback (which runs unlocked), with
 * an ownership map that catches any byte handed out twice; and the two 2005
 * defects where blocks freed while the callback ran were lost.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "chunks.h"

#define NR_THREADS	4
#define SHIFT		12
#define NR_CHUNKS	64

struct stress {
	struct gen_pool *pool;
	struct chunk_supply *cs;
	_Atomic unsigned char *owner;	/* one byte per 32-byte atom */
	atomic_int clashes;
	int rounds;
};

struct worker {
	struct stress *st;
	int id;
};

static unsigned long atom_index(const struct stress *st, unsigned long a)
{
	return (a - st->cs->base) >> ALLOC_MIN_SHIFT;
}

static void claim(struct stress *st, unsigned long a, int size, int id)
{
	unsigned long atoms = 1;

	while (atoms * 32 < (unsigned long)size)
		atoms <<= 1;
	for (unsigned long x = 0; x < atoms; x++) {
		unsigned char was = 0;

		if (!atomic_compare_exchange_strong(&st->owner[atom_index(st, a) + x],
						    &was, (unsigned char)id))
			atomic_fetch_add(&st->clashes, 1);
	}
	memset((void *)a, id, (size_t)size);
}

static void release(struct stress *st, unsigned long a, int size, int id)
{
	unsigned long atoms = 1;
	const unsigned char *p = (const unsigned char *)a;

	while (atoms * 32 < (unsigned long)size)
		atoms <<= 1;
	for (int k = 0; k < size; k++)
		if (p[k] != id) {
			atomic_fetch_add(&st->clashes, 1);
			break;
		}
	for (unsigned long x = 0; x < atoms; x++)
		atomic_store(&st->owner[atom_index(st, a) + x], 0);
	gen_pool_free(st->pool, a, size);
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct stress *st = w->st;
	unsigned long long rng = 0x1234567ULL * (unsigned long long)(w->id + 1);
	unsigned long addr[64];
	int size[64], n = 0;

	for (int r = 0; r < st->rounds; r++) {
		if (n < 64 && (n == 0 || test_rng_below(&rng, 2))) {
			int s = 1 + (int)test_rng_below(&rng, test_rng_below(&rng, 8) ? 200 : 4096);
			unsigned long a = gen_pool_alloc(st->pool, s);

			if (a) {
				claim(st, a, s, w->id);
				addr[n] = a;
				size[n++] = s;
			}
		} else {
			int k = (int)test_rng_below(&rng, (unsigned long long)n);

			release(st, addr[k], size[k], w->id);
			addr[k] = addr[--n];
			size[k] = size[n];
		}
	}
	while (n--)
		release(st, addr[n], size[n], w->id);
	return NULL;
}

static void run_stress(int rounds)
{
	struct chunk_supply cs;
	struct stress st = { .cs = &cs, .rounds = rounds };
	struct worker w[NR_THREADS];
	pthread_t t[NR_THREADS];
	struct legacy_gen_pool_stats s;

	chunk_supply_init(&cs, SHIFT, NR_CHUNKS);
	st.pool = supply_pool(&cs, 0);
	st.owner = calloc((NR_CHUNKS << SHIFT) >> ALLOC_MIN_SHIFT, 1);
	ck_assert_ptr_nonnull(st.owner);
	atomic_init(&st.clashes, 0);
	for (int i = 0; i < NR_THREADS; i++) {
		w[i] = (struct worker){ &st, i + 1 };
		ck_assert_int_eq(pthread_create(&t[i], NULL, work, &w[i]), 0);
	}
	for (int i = 0; i < NR_THREADS; i++)
		pthread_join(t[i], NULL);
	ck_assert_int_eq(atomic_load(&st.clashes), 0);
	assert_consistent(st.pool);
	legacy_gen_pool_stats(st.pool, &s);
	ck_assert_uint_eq(s.free_bytes, s.obtained_bytes);
	ck_assert_uint_gt(s.obtained_bytes, 0);
	legacy_gen_pool_destroy(st.pool);
	free((void *)st.owner);
}

START_TEST(threads_never_share_a_block)
{
	const char *mode = getenv("GENALLOC_STRESS");

	run_stress(mode && !strcmp(mode, "long") ? 200000 : 20000);
}
END_TEST

/* -------------------------------------- frees while the callback runs */

static struct gen_pool *cb_pool;
static struct chunk_supply cb_cs;
static unsigned long cb_free_addr;
static int cb_free_size;

/* Plays "another thread": frees a block while the allocator waits for us. */
static unsigned long chunk_after_a_free(struct gen_pool *pool)
{
	if (cb_free_addr)
		gen_pool_free(pool, cb_free_addr, cb_free_size);
	cb_free_addr = 0;
	return supply_chunk(pool);
}

static void cb_setup(void)
{
	chunk_supply_init(&cb_cs, SHIFT, 4);
	cb_pool = legacy_alloc_gen_pool(0, SHIFT, chunk_after_a_free, (unsigned long)&cb_cs);
	ck_assert_ptr_nonnull(cb_pool);
}

START_TEST(chunk_freed_during_callback_is_kept)
{
	unsigned long c0 = chunk_at(&cb_cs, 0), c1 = chunk_at(&cb_cs, 1);

	ck_assert_uint_eq(gen_pool_alloc(cb_pool, 4096), c0);
	cb_free_addr = c0;
	cb_free_size = 4096;
	/* 2005 set h[max] to the new chunk, dropping c0 freed meanwhile. */
	ck_assert_uint_eq(gen_pool_alloc(cb_pool, 4096), c1);
	ck_assert_uint_eq(gen_pool_alloc(cb_pool, 4096), c0);
	ck_assert_int_eq(atomic_load(&cb_cs.calls), 2);
	assert_consistent(cb_pool);
}
END_TEST

START_TEST(half_freed_during_callback_is_kept)
{
	unsigned long c0 = chunk_at(&cb_cs, 0), c1 = chunk_at(&cb_cs, 1);
	struct legacy_gen_pool_stats st;

	ck_assert_uint_eq(gen_pool_alloc(cb_pool, 2048), c0);
	ck_assert_uint_eq(gen_pool_alloc(cb_pool, 2048), c0 + 2048);
	cb_free_addr = c0;
	cb_free_size = 2048;
	/* 2005's split assigned h[2048] = c1 + 2048, dropping c0. */
	ck_assert_uint_eq(gen_pool_alloc(cb_pool, 1024), c1);
	legacy_gen_pool_stats(cb_pool, &st);
	ck_assert_uint_eq(st.nr_free[6], 2);
	ck_assert_uint_eq(gen_pool_alloc(cb_pool, 2048), c1 + 2048);
	ck_assert_uint_eq(gen_pool_alloc(cb_pool, 2048), c0);
	assert_consistent(cb_pool);
}
END_TEST

static unsigned long no_chunk_after_a_free(struct gen_pool *pool)
{
	gen_pool_free(pool, cb_free_addr, cb_free_size);
	return 0;
}

START_TEST(callback_failure_uses_a_block_freed_meanwhile)
{
	unsigned long c0 = chunk_at(&cb_cs, 0);

	ck_assert_uint_eq(gen_pool_alloc(cb_pool, 4096), c0);
	cb_pool->get_new_chunk = no_chunk_after_a_free;
	cb_free_addr = c0;
	cb_free_size = 4096;
	ck_assert_uint_eq(gen_pool_alloc(cb_pool, 64), c0);
	assert_consistent(cb_pool);
}
END_TEST

Suite *legacy_threads_suite(void)
{
	Suite *s = suite_create("legacy_threads");
	TCase *tc = tcase_create("stress");
	TCase *cb = tcase_create("callback_window");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, threads_never_share_a_block);
	suite_add_tcase(s, tc);
	tcase_add_checked_fixture(cb, cb_setup, NULL);
	tcase_add_test(cb, chunk_freed_during_callback_is_kept);
	tcase_add_test(cb, half_freed_during_callback_is_kept);
	tcase_add_test(cb, callback_failure_uses_a_block_freed_meanwhile);
	suite_add_tcase(s, cb);
	return s;
}
