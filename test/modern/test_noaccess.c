// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_noaccess.c - the engine never touches managed memory:
 * pools over a PROT_NONE mapping and over addresses that are not mapped at
 * all go through every call except the zeroing ones without a fault.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "../support.h"
#include "modern/genalloc.h"

static void noop_chunk(struct gen_pool *pool, struct gen_pool_chunk *chunk, void *data)
{
	(void)pool;
	(*(unsigned long *)data) += chunk->end_addr - chunk->start_addr + 1;
}

/* Every non-zeroing call, on a pool whose memory cannot be touched. */
static void drive(unsigned long base, size_t len)
{
	struct gen_pool *pool = gen_pool_create(6, -1);
	struct genpool_data_align al = { .align = 4096 };
	struct genpool_data_fixed fx = { .offset = 0x1000 };
	struct gen_pool_stats st;
	dma_addr_t dma;
	void *owner;
	unsigned long a, b, c, d, e, f, sum = 0;
	void *p, *q, *r;

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add_owner(pool, base, 0x1000000, len / 2, -1, &sum), 0);
	ck_assert_int_eq(gen_pool_add_virt(pool, base + len / 2, 0x2000000, len / 2, -1), 0);
	a = gen_pool_alloc(pool, 100);
	b = gen_pool_alloc_owner(pool, 64, &owner);
	c = gen_pool_alloc_algo(pool, 200, gen_pool_best_fit, NULL);
	d = gen_pool_alloc_algo_owner(pool, 64, gen_pool_fixed_alloc, &fx, &owner);
	e = gen_pool_alloc_algo(pool, 64, gen_pool_first_fit_order_align, NULL);
	ck_assert(a && b && c && d && e);
	ck_assert_uint_eq(d, base + len / 2 + 0x1000);
	p = gen_pool_dma_alloc(pool, 64, &dma);
	q = gen_pool_dma_alloc_algo(pool, 64, &dma, gen_pool_first_fit, NULL);
	r = gen_pool_dma_alloc_align(pool, 64, &dma, 4096);
	ck_assert(p && q && r);
	f = gen_pool_alloc_algo(pool, 64, gen_pool_first_fit_align, &al);
	ck_assert_uint_eq(f % 4096, 0);
	ck_assert(gen_pool_has_addr(pool, a, 100));
	ck_assert(addr_in_gen_pool(pool, base, len / 2));
	ck_assert_uint_ne(gen_pool_virt_to_phys(pool, a), (phys_addr_t)-1);
	ck_assert_uint_lt(gen_pool_avail(pool), gen_pool_size(pool));
	gen_pool_for_each_chunk(pool, noop_chunk, &sum);
	ck_assert_uint_eq(sum, len);
	gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.size, len);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_set_algo(pool, gen_pool_best_fit, NULL);
	gen_pool_free(pool, a, 100);
	gen_pool_free_owner(pool, b, 64, &owner);
	gen_pool_free(pool, c, 200);
	gen_pool_free(pool, d, 64);
	gen_pool_free(pool, e, 64);
	gen_pool_free(pool, (unsigned long)p, 64);
	gen_pool_free(pool, (unsigned long)q, 64);
	gen_pool_free(pool, (unsigned long)r, 64);
	gen_pool_free(pool, f, 64);
	ck_assert_uint_eq(gen_pool_alloc(pool, len / 2), base + len / 2);
	capture_errors();
	gen_pool_destroy(pool);	/* the whole newest chunk is still live */
	ck_assert_error(GENALLOC_BUG, GENALLOC_EBUSY);
	gen_pool_free(pool, base + len / 2, len / 2);
	ck_assert_uint_eq(gen_pool_avail(pool), len);
	gen_pool_destroy(pool);
	ck_assert_int_eq(errors_seen(), 0);
}

START_TEST(prot_none_mapping)
{
	size_t len = 1 << 20;
	void *m = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(m, MAP_FAILED);
	drive((unsigned long)m, len);
	munmap(m, len);
}
END_TEST

START_TEST(unmapped_addresses)
{
	size_t len = 1 << 20;
	void *m = mmap(NULL, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(m, MAP_FAILED);
	ck_assert_int_eq(munmap(m, len), 0);	/* now nothing is mapped there */
	drive((unsigned long)m, len);
}
END_TEST

Suite *modern_noaccess_suite(void)
{
	Suite *s = suite_create("modern_noaccess");
	TCase *tc = tcase_create("noaccess");

	tcase_add_test(tc, prot_none_mapping);
	tcase_add_test(tc, unmapped_addresses);
	suite_add_tcase(s, tc);
	return s;
}
