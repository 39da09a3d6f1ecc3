// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_random.c - a naive, bit-by-bit reference of the pool and
 * of every algorithm, and a randomized differential test against it
 * (allocations with mixed algorithms, frees, chunks added on the way), with
 * the checker, the bitmaps and the statistics compared after every step.
 * Every other allocation asks for its chunk's owner: the pool answers those
 * on its general path, the others on each algorithm's own (modern/pool.c),
 * and both must match the reference.
 *
 * The reference states each algorithm as a property ("the lowest run such
 * that ...") rather than as the kernel's search loop, so that the two can
 * only agree if the engine's searches are right.
 */
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "modern/genalloc.h"

#define MAX_CHUNKS 12
#define MAX_GRANULES 320
#define MAX_LIVE 256

enum algo { FIRST, ALIGN, ORDER_ALIGN, BEST, FIXED, NALGOS };

struct ref_chunk {
	unsigned long start, size, nbits;
	long avail;
	unsigned char used[MAX_GRANULES];
};

struct ref_pool {
	int order;
	int n;				/* chunks[0] is the oldest */
	struct ref_chunk chunks[MAX_CHUNKS];
};

static bool run_free(const struct ref_chunk *c, unsigned long i, unsigned long nr)
{
	unsigned long j;

	if (i + nr > c->nbits)
		return false;
	for (j = 0; j < nr; j++)
		if (c->used[i + j])
			return false;
	return true;
}

static unsigned long pow2_at_least(unsigned long n)
{
	unsigned long p = 1;

	while (p < n)
		p *= 2;
	return p;
}

/* Length of the free hole starting exactly at @i (0 if @i is used). */
static unsigned long hole_at(const struct ref_chunk *c, unsigned long i)
{
	unsigned long j = i;

	while (j < c->nbits && !c->used[j])
		j++;
	return j - i;
}

/* The granule where @a puts @nr granules in @c, or c->nbits. */
static unsigned long ref_place(const struct ref_pool *p, const struct ref_chunk *c,
			       enum algo a, unsigned long nr, unsigned long param)
{
	unsigned long i, best = c->nbits, best_len = ~0UL, mask = 0, off = 0, len;

	switch (a) {
	case FIXED:
		i = param >> p->order;
		return i < c->nbits && run_free(c, i, nr) ? i : c->nbits;
	case BEST:
		/* smallest hole that holds nr, lowest on ties */
		for (i = 0; i < c->nbits; i++) {
			if (c->used[i] || (i > 0 && !c->used[i - 1]))
				continue;
			len = hole_at(c, i);
			if (len >= nr && len < best_len) {
				best = i;
				best_len = len;
			}
		}
		return best;
	case ALIGN:
		/* param = alignment in bytes; the offset makes it absolute for
		 * granule-aligned chunk starts */
		mask = ((param + (1UL << p->order) - 1) >> p->order) - 1;
		off = (c->start & (param - 1)) >> p->order;
		break;
	case ORDER_ALIGN:
		mask = pow2_at_least(nr) - 1;
		break;
	default:
		break;
	}
	for (i = 0; i + nr <= c->nbits; i++)
		if (((i + off) & mask) == 0 && run_free(c, i, nr))
			return i;
	return c->nbits;
}

static unsigned long ref_alloc(struct ref_pool *p, size_t size, enum algo a,
			       unsigned long param)
{
	unsigned long g = 1UL << p->order, nr = (size + g - 1) >> p->order, i, j;
	int k;

	for (k = p->n - 1; k >= 0; k--) {
		struct ref_chunk *c = &p->chunks[k];

		if ((long)size > c->avail)
			continue;
		i = ref_place(p, c, a, nr, param);
		if (i >= c->nbits)
			continue;
		for (j = 0; j < nr; j++)
			c->used[i + j] = 1;
		c->avail -= (long)(nr * g);
		return c->start + i * g;
	}
	return 0;
}

static void ref_free(struct ref_pool *p, unsigned long addr, size_t size)
{
	unsigned long g = 1UL << p->order, nr = (size + g - 1) >> p->order, i, j;
	int k;

	for (k = 0; k < p->n; k++) {
		struct ref_chunk *c = &p->chunks[k];

		if (addr < c->start || addr >= c->start + c->size)
			continue;
		i = (addr - c->start) >> p->order;
		for (j = 0; j < nr; j++) {
			ck_assert(c->used[i + j]);
			c->used[i + j] = 0;
		}
		c->avail += (long)(nr * g);
		return;
	}
	ck_abort_msg("reference: free of %#lx outside every chunk", addr);
}

static bool overlaps(const struct ref_pool *p, unsigned long start, unsigned long size)
{
	int k;

	for (k = 0; k < p->n; k++)
		if (start < p->chunks[k].start + p->chunks[k].size &&
		    p->chunks[k].start < start + size)
			return true;
	return false;
}

/* Each chunk's owner, as the differential gives it. */
static void *owner_of(unsigned long start)
{
	return (void *)(start ^ 0x5a5a0);
}

/* The owner of the reference chunk holding @addr. */
static void *ref_owner(const struct ref_pool *p, unsigned long addr)
{
	int k;

	for (k = 0; k < p->n; k++)
		if (addr >= p->chunks[k].start && addr < p->chunks[k].start + p->chunks[k].size)
			return owner_of(p->chunks[k].start);
	ck_abort_msg("%#lx is in no chunk", addr);
	return NULL;
}

/* Add the same random chunk to both; chunk starts are sometimes not
 * granule-aligned, sizes sometimes have a tail. */
static void add_chunk(struct gen_pool *pool, struct ref_pool *p, unsigned long long *rng)
{
	unsigned long g = 1UL << p->order, start, size;
	struct ref_chunk *c;

	if (p->n == MAX_CHUNKS)
		return;
	do {
		start = 0x100000 + test_rng_below(rng, 64) * 0x10000 +
			test_rng_below(rng, 16) * g * 8;
		if (test_rng_below(rng, 4) == 0)
			start += test_rng_below(rng, g);
		size = (8 + test_rng_below(rng, MAX_GRANULES - 8)) * g;
		if (test_rng_below(rng, 3) == 0)
			size += test_rng_below(rng, g);
	} while (overlaps(p, start, size));
	ck_assert_int_eq(gen_pool_add_owner(pool, start, (phys_addr_t)-1, size, -1,
					    owner_of(start)), 0);
	c = &p->chunks[p->n++];
	memset(c, 0, sizeof(*c));
	c->start = start;
	c->size = size;
	c->nbits = size >> p->order;
	c->avail = (long)size;
}

/* Bitmaps, avail and statistics of the engine equal the reference's. */
static void compare(struct gen_pool *pool, const struct ref_pool *p)
{
	struct gen_pool_chunk *chunk = atomic_load(&pool->chunks);
	struct gen_pool_stats st;
	size_t extents = 0, largest = 0, avail = 0, len;
	unsigned long i;
	int k;

	ck_assert_int_eq(gen_pool_check(pool), 0);
	for (k = p->n - 1; k >= 0; k--, chunk = chunk->next_chunk) {
		const struct ref_chunk *c = &p->chunks[k];

		ck_assert_ptr_nonnull(chunk);
		ck_assert_uint_eq(chunk->start_addr, c->start);
		ck_assert_int_eq(atomic_load(&chunk->avail), c->avail);
		avail += (size_t)c->avail;
		for (i = 0; i < c->nbits; i++) {
			if (((chunk->bits[i / (8 * sizeof(long))] >> (i % (8 * sizeof(long)))) & 1) !=
			    c->used[i])
				ck_abort_msg("chunk %#lx granule %lu differs", c->start, i);
			if (!c->used[i] && (i == 0 || c->used[i - 1])) {
				len = hole_at(c, i) << p->order;
				extents++;
				if (len > largest)
					largest = len;
			}
		}
	}
	ck_assert_ptr_null(chunk);
	gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.avail, avail);
	ck_assert_uint_eq(st.nr_free_extents, extents);
	ck_assert_uint_eq(st.largest_free, largest);
	ck_assert_uint_eq(gen_pool_avail(pool), avail);
}

struct live {
	unsigned long addr;
	size_t size;
};

static void differential(int order, unsigned long long seed, int steps)
{
	static struct ref_pool ref;
	static struct live live[MAX_LIVE];
	struct gen_pool *pool = gen_pool_create(order, -1);
	unsigned long long rng = seed;
	unsigned long g = 1UL << order, got, want, param = 0;
	struct genpool_data_align al;
	struct genpool_data_fixed fx;
	void *data = NULL, *owner;
	genpool_algo_t fn = NULL;
	int nlive = 0, step, k;
	size_t size;
	enum algo a;

	ck_assert_ptr_nonnull(pool);
	memset(&ref, 0, sizeof(ref));
	ref.order = order;
	add_chunk(pool, &ref, &rng);
	for (step = 0; step < steps; step++) {
		unsigned long long dice = test_rng_below(&rng, 100);

		if (dice < 2) {
			add_chunk(pool, &ref, &rng);
		} else if (dice < 55 && nlive < MAX_LIVE) {
			a = (enum algo)test_rng_below(&rng, NALGOS);
			size = test_rng_below(&rng, 4) ? 1 + test_rng_below(&rng, 24 * g)
							 : 1 + test_rng_below(&rng, 4 * g);
			switch (a) {
			case FIRST: fn = gen_pool_first_fit; data = NULL; break;
			case ORDER_ALIGN: fn = gen_pool_first_fit_order_align; data = NULL; break;
			case BEST: fn = gen_pool_best_fit; data = NULL; break;
			case ALIGN:
				param = 1UL << test_rng_below(&rng, (unsigned long long)order + 5);
				al.align = (int)param;
				fn = gen_pool_first_fit_align;
				data = &al;
				break;
			default:
				param = test_rng_below(&rng, MAX_GRANULES) << order;
				fx.offset = param;
				fn = gen_pool_fixed_alloc;
				data = &fx;
				break;
			}
			want = ref_alloc(&ref, size, a, param);
			/* Every other call asks for the owner, which takes the
			 * pool's general path; the rest each algorithm's own. */
			if (step & 1) {
				owner = &ref;
				got = gen_pool_alloc_algo_owner(pool, size, fn, data, &owner);
				ck_assert_ptr_eq(owner, got ? ref_owner(&ref, got) : NULL);
			} else {
				got = gen_pool_alloc_algo(pool, size, fn, data);
			}
			ck_assert_msg(got == want,
				      "seed %llu step %d: algo %d size %zu param %lu: got %#lx want %#lx",
				      seed, step, (int)a, size, param, got, want);
			if (got) {
				live[nlive].addr = got;
				live[nlive++].size = size;
			}
		} else if (nlive) {
			k = (int)test_rng_below(&rng, (unsigned long long)nlive);
			gen_pool_free(pool, live[k].addr, live[k].size);
			ref_free(&ref, live[k].addr, live[k].size);
			live[k] = live[--nlive];
		}
		compare(pool, &ref);
	}
	while (nlive--) {
		gen_pool_free(pool, live[nlive].addr, live[nlive].size);
		ref_free(&ref, live[nlive].addr, live[nlive].size);
	}
	compare(pool, &ref);
	ck_assert_uint_eq(gen_pool_avail(pool), gen_pool_size(pool));
	gen_pool_destroy(pool);
}

static int steps_per_run(void)
{
	const char *s = getenv("GENALLOC_STRESS");

	if (s && !strcmp(s, "long"))
		return 6000;
	return getenv("GENALLOC_UNDER_VALGRIND") ? 300 : 2500;
}

START_TEST(differential_order_0)
{
	differential(0, 0x1111, steps_per_run());
}
END_TEST

START_TEST(differential_order_3)
{
	differential(3, 0x2222 + (unsigned long long)_i, steps_per_run());
}
END_TEST

START_TEST(differential_order_5)
{
	differential(5, 0x3333, steps_per_run());
}
END_TEST

/* The reference itself must agree with hand-computed answers. */
START_TEST(reference_sanity)
{
	static struct ref_pool p;
	struct ref_chunk *c = &p.chunks[0];

	memset(&p, 0, sizeof(p));
	p.order = 3;
	p.n = 1;
	c->start = 0x1008;
	c->size = 64 * 8;
	c->nbits = 64;
	c->avail = 64 * 8;
	c->used[0] = c->used[7] = 1;
	ck_assert_uint_eq(ref_place(&p, c, FIRST, 6, 0), 1);
	ck_assert_uint_eq(ref_place(&p, c, FIRST, 7, 0), 8);
	ck_assert_uint_eq(ref_place(&p, c, ALIGN, 1, 64), 15);	/* 0x1080 */
	ck_assert_uint_eq(ref_place(&p, c, ORDER_ALIGN, 3, 0), 4);
	ck_assert_uint_eq(ref_place(&p, c, ORDER_ALIGN, 5, 0), 8);
	ck_assert_uint_eq(ref_place(&p, c, BEST, 2, 0), 1);	/* hole 1..6 beats 8..63 */
	ck_assert_uint_eq(ref_place(&p, c, BEST, 7, 0), 8);
	ck_assert_uint_eq(ref_place(&p, c, FIXED, 1, 7 * 8), 64);
	ck_assert_uint_eq(ref_place(&p, c, FIXED, 3, 5 * 8), 64);
	ck_assert_uint_eq(ref_place(&p, c, FIXED, 2, 8 * 8), 8);
}
END_TEST

Suite *modern_random_suite(void)
{
	Suite *s = suite_create("modern_random");
	TCase *tc = tcase_create("differential");

	tcase_add_test(tc, reference_sanity);
	tcase_add_test(tc, differential_order_0);
	tcase_add_loop_test(tc, differential_order_3, 0, 3);
	tcase_add_test(tc, differential_order_5);
	suite_add_tcase(s, tc);
	return s;
}
