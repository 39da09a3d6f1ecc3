// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/test_random.c - randomized runs through compat on both
 * backends: an ownership map of every 32-byte granule is the reference
 * model (a block must lie in memory the pool was given, be naturally
 * aligned and touch no live granule), and the pool's checker and byte
 * counts must agree with the model after every step.  Then the same with
 * threads, blocks stamped with their owner and verified before freeing.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "compat_fixture.h"

#define R_SHIFT 12
#define R_CHUNK (1UL << R_SHIFT)
#define R_CHUNKS 24		/* given by the callback */
#define R_DONATED 8		/* chunk-sized frames fed by donation */
#define R_GRANULES ((R_CHUNKS + R_DONATED) * R_CHUNK / 32)

struct model {
	unsigned long base;		/* region: callback chunks, then donations */
	_Atomic int next_chunk;
	unsigned short owner[R_GRANULES];	/* 0 free, else block id */
	unsigned char known[R_GRANULES];
	unsigned long addr[4096];
	int size[4096];
	int nr_live;
	unsigned long live_bytes, known_bytes;
};

static unsigned long model_cb(struct gen_pool *pool)
{
	struct model *m = (struct model *)pool->private;
	int k = atomic_fetch_add(&m->next_chunk, 1);

	return k < R_CHUNKS ? m->base + (unsigned long)k * R_CHUNK : 0;
}

static unsigned long rounded(int size)
{
	unsigned long s = 32;

	while (s < (unsigned long)size)
		s <<= 1;
	return s;
}

static void model_note_chunks(struct model *m)
{
	int given = atomic_load(&m->next_chunk);

	if (given > R_CHUNKS)
		given = R_CHUNKS;
	for (unsigned long g = 0; g < (unsigned long)given * R_CHUNK / 32; g++)
		if (!m->known[g]) {
			m->known[g] = 1;
			m->known_bytes += 32;
		}
}

static void model_take(struct model *m, unsigned long a, int size, unsigned short id)
{
	unsigned long s = rounded(size), g = (a - m->base) / 32;

	model_note_chunks(m);
	ck_assert_uint_ge(a, m->base);
	ck_assert_uint_le(a + s, m->base + (unsigned long)R_GRANULES * 32);
	ck_assert_uint_eq(a & (s - 1), 0);
	for (unsigned long k = g; k < g + s / 32; k++) {
		ck_assert_msg(m->owner[k] == 0, "block %#lx overlaps a live block", a);
		ck_assert_msg(m->known[k], "block %#lx outside given memory", a);
		m->owner[k] = id;
	}
	m->addr[m->nr_live] = a;
	m->size[m->nr_live++] = size;
	m->live_bytes += s;
}

static void model_release(struct model *m, int idx)
{
	unsigned long s = rounded(m->size[idx]), g = (m->addr[idx] - m->base) / 32;

	memset(&m->owner[g], 0, s / 32 * sizeof(m->owner[0]));
	m->live_bytes -= s;
	m->addr[idx] = m->addr[--m->nr_live];
	m->size[idx] = m->size[m->nr_live];
}

/* Donate a random aligned piece of the donation frames, if it is new. */
static void model_donate(struct model *m, struct gen_pool *pool, unsigned long long *rng)
{
	int order = (int)test_rng_below(rng, 8);
	unsigned long s = 32UL << order, off = R_CHUNKS * R_CHUNK;
	unsigned long a = m->base + off + (test_rng_below(rng, R_DONATED * R_CHUNK / s) * s);
	unsigned long g = (a - m->base) / 32;

	for (unsigned long k = g; k < g + s / 32; k++)
		if (m->known[k])
			return;
	gen_pool_free(pool, a, (int)s);
	memset(&m->known[g], 1, s / 32);
	m->known_bytes += s;
}


static void model_agrees(struct model *m, struct gen_pool *pool)
{
	struct compat_gen_pool_stats st;

	model_note_chunks(m);
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	compat_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.obtained_bytes + st.donated_bytes, m->known_bytes);
	ck_assert_uint_eq(st.free_bytes, m->known_bytes - m->live_bytes);
	ck_assert_uint_le(st.largest_free, st.free_bytes);
}


/* A free of a block the model says is free must be a reported double free
 * that changes nothing. */
static void model_misuse(struct model *m, struct gen_pool *pool, unsigned long long *rng)
{
	unsigned long g = test_rng_below(rng, R_GRANULES), a = m->base + g * 32;

	if (!m->known[g] || m->owner[g])
		return;
	gen_pool_free(pool, a, 32);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EDOUBLEFREE);
}

START_TEST(random_ops_match_the_ownership_model)
{
	struct model *m = test_region(64, sizeof(*m));
	unsigned long long rng = 0x9e3779b97f4a7c15ULL + (unsigned long long)_i;
	struct gen_pool *pool;
	int steps = getenv("GENALLOC_STRESS") && !strcmp(getenv("GENALLOC_STRESS"), "long") ?
		    20000 : 1500;
	unsigned short id = 0;

	memset(m, 0, sizeof(*m));
	m->base = (unsigned long)test_region(R_CHUNK, (R_CHUNKS + R_DONATED) * R_CHUNK);
	pool = gen_pool_create_backend(fx_backend(_i), 2, R_SHIFT, model_cb, (unsigned long)m);
	capture_errors();
	for (int step = 0; step < steps; step++) {
		unsigned long long op = test_rng_below(&rng, 100);

		if (op < 50 && m->nr_live < 4096) {
			int size = (int)test_rng_below(&rng, 1UL << test_rng_below(&rng, R_SHIFT + 2));
			unsigned long a = gen_pool_alloc(pool, size);

			if (size > (int)R_CHUNK)
				ck_assert_uint_eq(a, 0);
			else if (a)
				model_take(m, a, size, (unsigned short)(++id ? id : ++id));
		} else if (op < 92 && m->nr_live) {
			int idx = (int)test_rng_below(&rng, (unsigned long long)m->nr_live);

			gen_pool_free(pool, m->addr[idx], m->size[idx]);
			model_release(m, idx);
		} else if (op < 97) {
			model_donate(m, pool, &rng);
		} else {
			model_misuse(m, pool, &rng);
		}
		ck_assert_int_eq(errors_seen(), 0);
		model_agrees(m, pool);
	}
	while (m->nr_live) {
		gen_pool_free(pool, m->addr[0], m->size[0]);
		model_release(m, 0);
	}
	model_agrees(m, pool);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
}
END_TEST

/* ------------------------------------------------------------ threads */

#define T_THREADS 4

struct thread_arg {
	struct gen_pool *pool;
	struct model *m;
	int tid;
	int ops;
};

static atomic_int workers_done;

/* A thread's result, counted so that the main thread knows when all are. */
static void *done(void *rc)
{
	atomic_fetch_add(&workers_done, 1);
	return rc;
}

static void *worker(void *p)
{
	struct thread_arg *t = p;
	unsigned long addr[64];
	int size[64], n = 0;
	unsigned long long rng = 0x51ed2701ULL * (unsigned long long)(t->tid + 1);

	for (int k = 0; k < t->ops; k++) {
		if (n < 64 && (n == 0 || test_rng_below(&rng, 2))) {
			int s = (int)test_rng_below(&rng, 1UL << test_rng_below(&rng, R_SHIFT));
			unsigned long a = gen_pool_alloc(t->pool, s);

			if (!a)
				continue;
			/* Stamp the block; a block handed out twice is overwritten. */
			for (unsigned long w = 0; w < rounded(s) / sizeof(long); w++)
				((unsigned long *)a)[w] = a ^ (unsigned long)t->tid;
			addr[n] = a;
			size[n++] = s;
		} else {
			int i = (int)test_rng_below(&rng, (unsigned long long)n);

			for (unsigned long w = 0; w < rounded(size[i]) / sizeof(long); w++)
				if (((unsigned long *)addr[i])[w] != (addr[i] ^ (unsigned long)t->tid))
					return done((void *)1);
			gen_pool_free(t->pool, addr[i], size[i]);
			addr[i] = addr[--n];
			size[i] = size[n];
		}
	}
	while (n--)
		gen_pool_free(t->pool, addr[n], size[n]);
	return done(NULL);
}

/* One thread donates page-sized pieces while the others allocate. */
static void *donor(void *p)
{
	struct thread_arg *t = p;

	for (unsigned long off = 0; off < R_DONATED * R_CHUNK; off += 512)
		gen_pool_free(t->pool, t->m->base + R_CHUNKS * R_CHUNK + off, 512);
	return done(NULL);
}

START_TEST(threads_never_share_a_block)
{
	struct model *m = test_region(64, sizeof(*m));
	struct thread_arg arg[T_THREADS + 1];
	pthread_t th[T_THREADS + 1];
	struct compat_gen_pool_stats st;
	struct gen_pool *pool;
	int ops = getenv("GENALLOC_STRESS") && !strcmp(getenv("GENALLOC_STRESS"), "long") ?
		  20000 : 2000;

	memset(m, 0, sizeof(*m));
	atomic_store(&workers_done, 0);
	m->base = (unsigned long)test_region(R_CHUNK, (R_CHUNKS + R_DONATED) * R_CHUNK);
	pool = gen_pool_create_backend(fx_backend(_i), 0, R_SHIFT, model_cb, (unsigned long)m);
	for (int k = 0; k <= T_THREADS; k++) {
		arg[k] = (struct thread_arg){ pool, m, k, ops };
		ck_assert_int_eq(pthread_create(&th[k], NULL, k == T_THREADS ? donor : worker,
						&arg[k]), 0);
	}
	/* Statistics may be read meanwhile: each a snapshot of one state. */
	while (atomic_load(&workers_done) < T_THREADS + 1) {
		compat_gen_pool_stats(pool, &st);
		ck_assert_uint_le(st.largest_free, st.free_bytes);
	}
	for (int k = 0; k <= T_THREADS; k++) {
		void *rc;

		pthread_join(th[k], &rc);
		ck_assert_ptr_null(rc);
	}
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	compat_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.donated_bytes, R_DONATED * R_CHUNK);
	ck_assert_uint_eq(st.free_bytes, st.obtained_bytes + st.donated_bytes);
	gen_pool_destroy(pool);
}
END_TEST

Suite *compat_random_suite(void)
{
	Suite *s = suite_create("compat_random");
	TCase *tc = tcase_create("random");

	tcase_add_loop_test(tc, random_ops_match_the_ownership_model, 0, 2);
	tcase_add_loop_test(tc, threads_never_share_a_block, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
