// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_dma.c - the DMA helpers: bus addresses, the pool's or a
 * given algorithm, absolute alignment, and zeroing exactly the requested
 * bytes (the only calls that write to managed memory).
 */
#include <stdint.h>
#include <string.h>

#include "../support.h"
#include "modern/genalloc.h"

#define PHYS 0xc0000000ULL

static struct gen_pool *dma_pool(unsigned char **mem, size_t size)
{
	struct gen_pool *pool = gen_pool_create(4, -1);

	*mem = test_region(4096, size);
	memset(*mem, 0xaa, size);
	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(gen_pool_add_virt(pool, (unsigned long)*mem, PHYS, size, -1), 0);
	return pool;
}

START_TEST(dma_alloc_returns_bus_address)
{
	unsigned char *mem;
	struct gen_pool *pool = dma_pool(&mem, 4096);
	dma_addr_t dma = 0;
	unsigned char *p, *q;

	p = gen_pool_dma_alloc(pool, 100, &dma);
	ck_assert_ptr_eq(p, mem);
	ck_assert_uint_eq(dma, PHYS);
	q = gen_pool_dma_alloc(pool, 10, NULL);
	ck_assert_ptr_eq(q, mem + 112);
	ck_assert_uint_eq(q[0], 0xaa);	/* not zeroed */
	p = gen_pool_dma_alloc_algo(pool, 16, &dma, gen_pool_best_fit, NULL);
	ck_assert_ptr_eq(p, mem + 128);
	ck_assert_uint_eq(dma, PHYS + 128);
	ck_assert_ptr_null(gen_pool_dma_alloc(pool, 8192, &dma));
	ck_assert_uint_eq(dma, PHYS + 128);	/* untouched on failure */
	gen_pool_free(pool, (unsigned long)mem, 100);
	gen_pool_free(pool, (unsigned long)q, 10);
	gen_pool_free(pool, (unsigned long)p, 16);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(dma_alloc_align_is_absolute)
{
	unsigned char *mem;
	struct gen_pool *pool = gen_pool_create(4, -1);
	dma_addr_t dma;
	unsigned char *p;

	mem = test_region(4096, 4096);
	ck_assert_int_eq(gen_pool_add_virt(pool, (unsigned long)mem + 0x30, PHYS + 0x30,
					   0x400, -1), 0);
	p = gen_pool_dma_alloc_align(pool, 0x20, &dma, 0x100);
	ck_assert_ptr_eq(p, mem + 0x100);
	ck_assert_uint_eq(dma, PHYS + 0x100);
	p = gen_pool_dma_zalloc_align(pool, 0x20, &dma, 0x100);
	ck_assert_ptr_eq(p, mem + 0x200);
	ck_assert_uint_eq(dma, PHYS + 0x200);
	gen_pool_free(pool, (unsigned long)mem + 0x100, 0x20);
	gen_pool_free(pool, (unsigned long)mem + 0x200, 0x20);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(dma_zalloc_zeroes_exactly_size)
{
	unsigned char *mem;
	struct gen_pool *pool = dma_pool(&mem, 4096);
	dma_addr_t dma;
	unsigned char *p;
	size_t i;

	p = gen_pool_dma_zalloc(pool, 10, &dma);
	ck_assert_ptr_eq(p, mem);
	ck_assert_uint_eq(dma, PHYS);
	for (i = 0; i < 16; i++)
		ck_assert_uint_eq(p[i], i < 10 ? 0 : 0xaa);
	p = gen_pool_dma_zalloc_algo(pool, 33, &dma, gen_pool_first_fit_order_align, NULL);
	ck_assert_ptr_eq(p, mem + 64);	/* 3 granules aligned to 4 */
	ck_assert_uint_eq(dma, PHYS + 64);
	for (i = 0; i < 48; i++)
		ck_assert_uint_eq(p[i], i < 33 ? 0 : 0xaa);
	ck_assert_uint_eq(mem[16], 0xaa);
	ck_assert_ptr_null(gen_pool_dma_zalloc(pool, 0, &dma));
	ck_assert_ptr_null(gen_pool_dma_zalloc(pool, 8192, NULL));
	gen_pool_free(pool, (unsigned long)mem, 10);
	gen_pool_free(pool, (unsigned long)mem + 64, 33);
	gen_pool_destroy(pool);
}
END_TEST

START_TEST(dma_without_phys_gives_minus_one)
{
	unsigned char *mem = test_region(64, 256);
	struct gen_pool *pool = gen_pool_create(3, -1);
	dma_addr_t dma = 0;

	ck_assert_int_eq(gen_pool_add(pool, (unsigned long)mem, 256, -1), 0);
	ck_assert_ptr_eq(gen_pool_dma_alloc(pool, 8, &dma), mem);
	ck_assert_uint_eq(dma, (dma_addr_t)-1);
	gen_pool_free(pool, (unsigned long)mem, 8);
	gen_pool_destroy(pool);
}
END_TEST

/*
 * gen_pool_dma_alloc() and gen_pool_dma_zalloc() allocate with the pool's
 * algorithm and its data (gen_pool_set_algo()), as gen_pool_alloc() does;
 * with a hole of two granules at 0 and one of one granule at 0x30, best
 * fit takes 0x30 where first fit would take 0.  gen_pool_dma_zalloc_align()
 * zeroes its @size bytes like the other zalloc calls.
 */
START_TEST(dma_helpers_use_the_pools_algorithm)
{
	unsigned char *mem;
	struct gen_pool *pool = dma_pool(&mem, 4096);
	struct genpool_data_fixed at = { .offset = 0x200 };
	dma_addr_t dma = 0;
	unsigned char *p;
	size_t i;

	ck_assert_ptr_eq(gen_pool_dma_alloc(pool, 0x20, NULL), mem);
	ck_assert_ptr_eq(gen_pool_dma_alloc(pool, 0x10, NULL), mem + 0x20);
	ck_assert_ptr_eq(gen_pool_dma_alloc(pool, 0x10, NULL), mem + 0x30);
	ck_assert_ptr_eq(gen_pool_dma_alloc(pool, 0x10, NULL), mem + 0x40);
	gen_pool_free(pool, (unsigned long)mem, 0x20);
	gen_pool_free(pool, (unsigned long)mem + 0x30, 0x10);
	gen_pool_set_algo(pool, gen_pool_best_fit, NULL);
	ck_assert_ptr_eq(gen_pool_dma_alloc(pool, 0x10, &dma), mem + 0x30);
	ck_assert_uint_eq(dma, PHYS + 0x30);
	gen_pool_free(pool, (unsigned long)mem + 0x30, 0x10);
	p = gen_pool_dma_zalloc(pool, 0x0c, &dma);
	ck_assert_ptr_eq(p, mem + 0x30);
	ck_assert_uint_eq(dma, PHYS + 0x30);
	for (i = 0; i < 0x10; i++)
		ck_assert_uint_eq(p[i], i < 0x0c ? 0 : 0xaa);
	/* and the pool's data: a fixed offset */
	gen_pool_set_algo(pool, gen_pool_fixed_alloc, &at);
	ck_assert_ptr_eq(gen_pool_dma_alloc(pool, 0x10, &dma), mem + 0x200);
	ck_assert_uint_eq(dma, PHYS + 0x200);
	ck_assert_ptr_null(gen_pool_dma_zalloc(pool, 0x10, NULL));	/* taken */
	gen_pool_free(pool, (unsigned long)mem + 0x200, 0x10);
	p = gen_pool_dma_zalloc(pool, 0x10, NULL);
	ck_assert_ptr_eq(p, mem + 0x200);
	for (i = 0; i < 0x10; i++)
		ck_assert_uint_eq(p[i], 0);
	/* the aligned zalloc zeroes exactly its size too */
	p = gen_pool_dma_zalloc_align(pool, 0x18, &dma, 0x100);
	ck_assert_ptr_eq(p, mem);	/* the two-granule hole, on the 0x100 grid */
	ck_assert_uint_eq(dma, PHYS);
	for (i = 0; i < 0x20; i++)
		ck_assert_uint_eq(p[i], i < 0x18 ? 0 : 0xaa);
	gen_pool_free(pool, (unsigned long)mem, 0x18);
	gen_pool_free(pool, (unsigned long)mem + 0x200, 0x10);
	gen_pool_free(pool, (unsigned long)mem + 0x30, 0x0c);
	gen_pool_free(pool, (unsigned long)mem + 0x20, 0x10);
	gen_pool_free(pool, (unsigned long)mem + 0x40, 0x10);
	ck_assert_uint_eq(gen_pool_avail(pool), 4096);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

Suite *modern_dma_suite(void)
{
	Suite *s = suite_create("modern_dma");
	TCase *tc = tcase_create("dma");

	tcase_add_test(tc, dma_alloc_returns_bus_address);
	tcase_add_test(tc, dma_alloc_align_is_absolute);
	tcase_add_test(tc, dma_zalloc_zeroes_exactly_size);
	tcase_add_test(tc, dma_without_phys_gives_minus_one);
	tcase_add_test(tc, dma_helpers_use_the_pools_algorithm);
	suite_add_tcase(s, tc);
	return s;
}
