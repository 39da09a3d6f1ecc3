// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_pool.c - the pool's life cycle and the kernel behaviours
 * callers rely on: newest chunk first, granule rounding, sub-granule tails,
 * the unrounded per-chunk skip, the per-chunk restart at bit 0, owners,
 * physical addresses, ranges, iteration and the statistics.
 *
 * Addresses are plain numbers: the engine never touches managed memory.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "modern/genalloc.h"
#include "modern/chunkdir_internal.h"
#include "modern/bitmap_internal.h"
#include "modern/index_internal.h"

static struct gen_pool *new_pool(int order)
{
	struct gen_pool *pool = gen_pool_create(order, -1);

	ck_assert_ptr_nonnull(pool);
	return pool;
}

static void drop(struct gen_pool *pool)
{
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}

START_TEST(create_defaults)
{
	struct gen_pool *pool = new_pool(5);

	ck_assert_int_eq(pool->min_alloc_order, 5);
	ck_assert_ptr_eq(pool->algo, gen_pool_first_fit);
	ck_assert_ptr_null(pool->data);
	ck_assert_ptr_null(pool->name);
	ck_assert_uint_eq(gen_pool_size(pool), 0);
	ck_assert_uint_eq(gen_pool_avail(pool), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), 0);
	drop(pool);
}
END_TEST

START_TEST(create_extreme_orders)
{
	struct gen_pool *pool = new_pool((int)(sizeof(long) * 8 - 1));

	ck_assert_int_eq(gen_pool_add(pool, 1UL << (sizeof(long) * 8 - 1), 1UL << 62, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), 0);	/* the chunk is all tail */
	ck_assert_uint_eq(gen_pool_avail(pool), 1UL << 62);
	drop(pool);
	pool = new_pool(0);
	ck_assert_int_eq(gen_pool_add(pool, 0x1000, 3, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), 0x1000);
	ck_assert_uint_eq(gen_pool_alloc(pool, 2), 0x1001);
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), 0);
	gen_pool_free(pool, 0x1000, 3);
	drop(pool);
}
END_TEST

START_TEST(size_zero_returns_zero)
{
	struct gen_pool *pool = new_pool(3);

	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 256, -1), 0);
	capture_errors();
	ck_assert_uint_eq(gen_pool_alloc(pool, 0), 0);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_uint_eq(gen_pool_avail(pool), 256);
	drop(pool);
}
END_TEST

START_TEST(sizes_round_up_to_granules)
{
	struct gen_pool *pool = new_pool(4);

	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 1024, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), 0x10000);
	ck_assert_uint_eq(gen_pool_avail(pool), 1024 - 16);
	ck_assert_uint_eq(gen_pool_alloc(pool, 17), 0x10010);
	ck_assert_uint_eq(gen_pool_avail(pool), 1024 - 48);
	ck_assert_uint_eq(gen_pool_alloc(pool, 16), 0x10030);
	ck_assert_uint_eq(gen_pool_avail(pool), 1024 - 64);
	gen_pool_free(pool, 0x10010, 17);
	ck_assert_uint_eq(gen_pool_avail(pool), 1024 - 32);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0x10010);
	gen_pool_free(pool, 0x10000, 1);
	gen_pool_free(pool, 0x10010, 32);
	gen_pool_free(pool, 0x10030, 16);
	ck_assert_uint_eq(gen_pool_avail(pool), 1024);
	drop(pool);
}
END_TEST

START_TEST(tail_counted_never_handed_out)
{
	struct gen_pool *pool = new_pool(4);

	/* 6 granules and a 4-byte tail. */
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 100, -1), 0);
	ck_assert_uint_eq(gen_pool_size(pool), 100);
	ck_assert_uint_eq(gen_pool_avail(pool), 100);
	ck_assert_uint_eq(gen_pool_alloc(pool, 96), 0x10000);
	ck_assert_uint_eq(gen_pool_avail(pool), 4);
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 4), 0);
	gen_pool_free(pool, 0x10000, 96);
	ck_assert_uint_eq(gen_pool_alloc(pool, 97), 0);
	ck_assert_uint_eq(gen_pool_avail(pool), 100);
	drop(pool);
}
END_TEST

/* A chunk whose bitmap is big enough (8 MiB) for the bookkeeping to be
 * advised onto huge pages: it must still start all free and place as any
 * other chunk does. */
START_TEST(big_chunk_places_from_both_ends)
{
	const unsigned long base = 0x100000000UL, size = 64UL << 20;
	struct gen_pool *pool = new_pool(0);

	ck_assert_int_eq(gen_pool_add(pool, base, size, -1), 0);
	ck_assert_uint_eq(gen_pool_avail(pool), size);
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), base);
	ck_assert_uint_eq(gen_pool_alloc(pool, size - 2), base + 1);
	ck_assert_uint_eq(gen_pool_alloc(pool, 1), base + size - 1);
	ck_assert_uint_eq(gen_pool_avail(pool), 0);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, base + 1, size - 2);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 3, gen_pool_best_fit, NULL), base + 1);
	gen_pool_free(pool, base, 1);
	gen_pool_free(pool, base + 1, 3);
	gen_pool_free(pool, base + size - 1, 1);
	ck_assert_uint_eq(gen_pool_avail(pool), size);
	drop(pool);
}
END_TEST

START_TEST(newest_chunk_first)
{
	struct gen_pool *pool = new_pool(3);

	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 64, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x20000, 64, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x30000, 16, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 8), 0x30000);
	ck_assert_uint_eq(gen_pool_alloc(pool, 16), 0x20000);	/* 0x30008 too small */
	ck_assert_uint_eq(gen_pool_alloc(pool, 8), 0x30008);
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), 0x10000);
	ck_assert_uint_eq(gen_pool_alloc(pool, 48), 0x20010);
	ck_assert_uint_eq(gen_pool_alloc(pool, 8), 0);
	ck_assert_uint_eq(gen_pool_avail(pool), 0);
	gen_pool_free(pool, 0x30000, 16);
	gen_pool_free(pool, 0x20000, 64);
	gen_pool_free(pool, 0x10000, 64);
	drop(pool);
}
END_TEST

/*
 * A pool of one chunk keeps no directory leaf for it (chunkdir.c): the leaf
 * must be right once a second chunk makes the directory choose.  The lone
 * chunk's longest run changes while it is alone, then the newer chunk fills
 * up, and a request only the older one holds must still find it.
 */
START_TEST(lone_chunk_joins_the_directory)
{
	struct gen_pool *pool = new_pool(3);

	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 64, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 24), 0x10000);
	ck_assert_uint_eq(gen_pool_alloc(pool, 8), 0x10018);
	gen_pool_free(pool, 0x10000, 24);	/* free: 24 bytes, 8 used, 32 free */
	ck_assert_int_eq(gen_pool_add(pool, 0x20000, 16, -1), 0);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 16), 0x20000);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0x10020);
	ck_assert_uint_eq(gen_pool_alloc(pool, 24), 0x10000);
	ck_assert_uint_eq(gen_pool_alloc(pool, 8), 0);
	gen_pool_free(pool, 0x20000, 16);
	gen_pool_free(pool, 0x10000, 24);
	gen_pool_free(pool, 0x10018, 8);
	gen_pool_free(pool, 0x10020, 32);
	drop(pool);
}
END_TEST

static int algo_calls;

static unsigned long counting_first_fit(unsigned long *map, unsigned long size,
					unsigned long start, unsigned int nr, void *data,
					struct gen_pool *pool, unsigned long start_addr)
{
	algo_calls++;
	return gen_pool_first_fit(map, size, start, nr, data, pool, start_addr);
}

START_TEST(chunk_skip_uses_unrounded_size)
{
	struct gen_pool *pool = new_pool(4);

	/* 2 granules + 8-byte tail: avail 40. */
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 40, -1), 0);
	algo_calls = 0;
	/* 33 <= 40: the algorithm runs (and fails: 3 granules needed). */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 33, counting_first_fit, NULL), 0);
	ck_assert_int_eq(algo_calls, 1);
	/* 41 > 40: skipped without asking the algorithm. */
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 41, counting_first_fit, NULL), 0);
	ck_assert_int_eq(algo_calls, 1);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 32, counting_first_fit, NULL), 0x10000);
	ck_assert_int_eq(algo_calls, 2);
	gen_pool_free(pool, 0x10000, 32);
	drop(pool);
}
END_TEST

/*
 * The 2016 fix: the search in each chunk restarts at bit 0.  The newest chunk
 * is fragmented (enough avail, no run of two), so its search fails at a high
 * bit; the older chunk's free space at its very start must still be found.
 */
START_TEST(search_restarts_at_bit_zero_per_chunk)
{
	struct gen_pool *pool = new_pool(4);
	unsigned long i, a;

	ck_assert_int_eq(gen_pool_add(pool, 0x20000, 256, -1), 0);
	ck_assert_uint_eq(gen_pool_alloc(pool, 16), 0x20000);
	gen_pool_free(pool, 0x20000, 16);
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 256, -1), 0);
	for (i = 0; i < 16; i++)
		ck_assert_uint_eq(gen_pool_alloc(pool, 16), 0x10000 + i * 16);
	for (i = 0; i < 16; i += 2)
		gen_pool_free(pool, 0x10000 + i * 16, 16);
	ck_assert_uint_eq(gen_pool_avail(pool), 128 + 256);
	a = gen_pool_alloc(pool, 32);
	ck_assert_uint_eq(a, 0x20000);
	gen_pool_free(pool, a, 32);
	for (i = 1; i < 16; i += 2)
		gen_pool_free(pool, 0x10000 + i * 16, 16);
	drop(pool);
}
END_TEST

START_TEST(owner_reported)
{
	struct gen_pool *pool = new_pool(3);
	int a, b;
	void *owner = &owner;
	unsigned long x, y;

	ck_assert_int_eq(gen_pool_add_owner(pool, 0x10000, 0x1000, 64, -1, &a), 0);
	ck_assert_int_eq(gen_pool_add_owner(pool, 0x20000, 0x2000, 64, -1, &b), 0);
	x = gen_pool_alloc_owner(pool, 64, &owner);
	ck_assert_uint_eq(x, 0x20000);
	ck_assert_ptr_eq(owner, &b);
	y = gen_pool_alloc_algo_owner(pool, 8, gen_pool_first_fit, NULL, &owner);
	ck_assert_uint_eq(y, 0x10000);
	ck_assert_ptr_eq(owner, &a);
	ck_assert_uint_eq(gen_pool_alloc_owner(pool, 64, &owner), 0);
	ck_assert_ptr_null(owner);
	owner = &owner;
	gen_pool_free_owner(pool, x, 64, &owner);
	ck_assert_ptr_eq(owner, &b);
	gen_pool_free_owner(pool, y, 8, &owner);
	ck_assert_ptr_eq(owner, &a);
	owner = &owner;
	/* Size 0 frees nothing but, as the kernel, still names the owner. */
	gen_pool_free_owner(pool, y, 0, &owner);
	ck_assert_ptr_eq(owner, &a);
	ck_assert_uint_eq(gen_pool_alloc_owner(pool, 8, NULL), 0x20000);
	gen_pool_free_owner(pool, 0x20000, 8, NULL);
	drop(pool);
}
END_TEST

START_TEST(virt_to_phys)
{
	struct gen_pool *pool = new_pool(3);

	ck_assert_int_eq(gen_pool_add_virt(pool, 0x10000, 0x80000000ULL, 0x100, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x20000, 0x100, -1), 0);
	ck_assert_uint_eq(gen_pool_virt_to_phys(pool, 0x10000), 0x80000000ULL);
	ck_assert_uint_eq(gen_pool_virt_to_phys(pool, 0x10013), 0x80000013ULL);
	ck_assert_uint_eq(gen_pool_virt_to_phys(pool, 0x100ff), 0x800000ffULL);
	ck_assert_uint_eq(gen_pool_virt_to_phys(pool, 0x10100), (phys_addr_t)-1);
	ck_assert_uint_eq(gen_pool_virt_to_phys(pool, 0xffff), (phys_addr_t)-1);
	ck_assert_uint_eq(gen_pool_virt_to_phys(pool, 0x20010), (phys_addr_t)-1);
	drop(pool);
}
END_TEST

START_TEST(has_addr_needs_one_chunk)
{
	struct gen_pool *pool = new_pool(3);

	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x100, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x10100, 0x100, -1), 0);	/* adjacent */
	ck_assert(gen_pool_has_addr(pool, 0x10000, 0x100));
	ck_assert(gen_pool_has_addr(pool, 0x100ff, 1));
	ck_assert(!gen_pool_has_addr(pool, 0x100ff, 2));	/* spans two chunks */
	ck_assert(gen_pool_has_addr(pool, 0x10100, 0x100));
	ck_assert(!gen_pool_has_addr(pool, 0x10100, 0x101));
	ck_assert(!gen_pool_has_addr(pool, 0xffff, 1));
	ck_assert(gen_pool_has_addr(pool, 0x10080, 0));
	ck_assert(!gen_pool_has_addr(pool, 0x10200, 0));
	ck_assert(!gen_pool_has_addr(pool, 0x10080, ~0UL));	/* wraps */
	ck_assert(addr_in_gen_pool(pool, 0x10010, 0x10));
	ck_assert(!addr_in_gen_pool(pool, 0x30000, 0x10));
	drop(pool);
}
END_TEST

struct walk {
	unsigned long starts[4];
	int n;
	struct gen_pool *pool;
};

static void record_chunk(struct gen_pool *pool, struct gen_pool_chunk *chunk, void *data)
{
	struct walk *w = data;

	ck_assert_ptr_eq(pool, w->pool);
	ck_assert_int_lt(w->n, 4);
	w->starts[w->n++] = chunk->start_addr;
}

START_TEST(for_each_chunk_newest_first)
{
	struct gen_pool *pool = new_pool(3);
	struct walk w = { .pool = pool };

	gen_pool_for_each_chunk(pool, record_chunk, &w);
	ck_assert_int_eq(w.n, 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x100, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x30000, 0x80, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x20000, 0x40, -1), 0);
	gen_pool_for_each_chunk(pool, record_chunk, &w);
	ck_assert_int_eq(w.n, 3);
	ck_assert_uint_eq(w.starts[0], 0x20000);
	ck_assert_uint_eq(w.starts[1], 0x30000);
	ck_assert_uint_eq(w.starts[2], 0x10000);
	ck_assert_uint_eq(gen_pool_size(pool), 0x1c0);
	drop(pool);
}
END_TEST

START_TEST(chunk_fields)
{
	struct gen_pool *pool = new_pool(4);
	struct gen_pool_chunk *c;
	int owner;

	ck_assert_int_eq(gen_pool_add_owner(pool, 0x10000, 0x5000, 100, -1, &owner), 0);
	c = atomic_load(&pool->chunks);
	ck_assert_ptr_null(c->next_chunk);
	ck_assert_uint_eq(c->start_addr, 0x10000);
	ck_assert_uint_eq(c->end_addr, 0x10063);
	ck_assert_uint_eq(c->phys_addr, 0x5000);
	ck_assert_ptr_eq(c->owner, &owner);
	ck_assert_int_eq(atomic_load(&c->avail), 100);
	ck_assert_uint_eq(gen_pool_alloc(pool, 20), 0x10000);
	ck_assert_int_eq(atomic_load(&c->avail), 68);
	ck_assert_uint_eq(c->bits[0], 3);
	gen_pool_free(pool, 0x10000, 20);
	drop(pool);
}
END_TEST

/* The index reads a bitmap eight words at a time and means each read to be
 * one cache line: a small chunk's bookkeeping (allocated) and a big one's
 * (mapped) both start on a line.  Both big and small are given back by
 * drop(); ASan and valgrind see a wrong pairing. */
START_TEST(bitmaps_start_on_cache_lines)
{
	struct gen_pool *pool = new_pool(0);
	struct gen_pool_chunk *c;

	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 100, -1), 0);
	ck_assert_int_eq(gen_pool_add(pool, 0x100000000UL, 4UL << 20, -1), 0);
	for (c = atomic_load(&pool->chunks); c; c = c->next_chunk) {
		ck_assert_uint_eq((uintptr_t)c->bits % 64, 0);
		ck_assert_uint_eq(c->bits[0], 0);
		ck_assert_uint_eq(c->bits[modern_bits_to_longs(c->nbits) - 1], 0);
	}
	/* Newest chunk first: the big one, whole, then the small one. */
	ck_assert_uint_eq(gen_pool_alloc(pool, 4UL << 20), 0x100000000UL);
	ck_assert_uint_eq(gen_pool_alloc(pool, 100), 0x10000);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_free(pool, 0x10000, 100);
	gen_pool_free(pool, 0x100000000UL, 4UL << 20);
	drop(pool);
}
END_TEST

START_TEST(set_algo_and_restore)
{
	struct gen_pool *pool = new_pool(4);
	unsigned long a, b, c;

	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x100, -1), 0);
	a = gen_pool_alloc(pool, 48);	/* 0x10000 .. 0x1002f */
	b = gen_pool_alloc(pool, 16);	/* 0x10030 */
	c = gen_pool_alloc(pool, 16);	/* 0x10040 */
	gen_pool_free(pool, a, 48);
	gen_pool_free(pool, c, 16);	/* holes: 3 granules at 0, 11 at 0x40 */
	gen_pool_set_algo(pool, gen_pool_best_fit, NULL);
	ck_assert_ptr_eq(pool->algo, gen_pool_best_fit);
	ck_assert_uint_eq(gen_pool_alloc(pool, 48), 0x10000);
	gen_pool_free(pool, 0x10000, 48);
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0x10000);	/* smallest hole */
	gen_pool_free(pool, 0x10000, 32);
	gen_pool_set_algo(pool, NULL, NULL);
	ck_assert_ptr_eq(pool->algo, gen_pool_first_fit);
	ck_assert_ptr_null(pool->data);
	ck_assert_uint_eq(gen_pool_alloc(pool, 64), 0x10040);	/* first fit */
	gen_pool_free(pool, 0x10040, 64);
	gen_pool_free(pool, b, 16);
	drop(pool);
}
END_TEST

START_TEST(destroy_frees_name)
{
	struct gen_pool *pool = new_pool(3);

	pool->name = strdup("sram");
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x100, -1), 0);
	gen_pool_free(pool, gen_pool_alloc(pool, 8), 8);
	gen_pool_destroy(pool);	/* the leak checkers verify the name is freed */
	gen_pool_destroy(NULL);
}
END_TEST

START_TEST(stats_describe_free_space)
{
	struct gen_pool *pool = new_pool(4);
	struct gen_pool_stats st;

	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x100 + 8, -1), 0);	/* 16 granules + tail */
	ck_assert_int_eq(gen_pool_add(pool, 0x20000, 0x40, -1), 0);	/* 4 granules */
	ck_assert_uint_eq(gen_pool_alloc(pool, 16), 0x20000);
	ck_assert_uint_eq(gen_pool_alloc(pool, 48), 0x20010);	/* exactly the rest */
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), 0x10000);
	gen_pool_free(pool, 0x20010, 16);
	gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.nr_chunks, 2);
	ck_assert_uint_eq(st.size, 0x148);
	ck_assert_uint_eq(st.avail, 0x148 - 80);
	ck_assert_uint_eq(st.nr_free_extents, 2);
	ck_assert_uint_eq(st.largest_free, 14 * 16);
	ck_assert_uint_eq(st.hist[4], 1);	/* 16 bytes at 0x20010 */
	ck_assert_uint_eq(st.hist[7], 1);	/* 224 bytes at 0x10020 */
	ck_assert_uint_eq(st.metadata_bytes, sizeof(struct gen_pool) +
			  2 * sizeof(struct gen_pool_chunk) + 2 * sizeof(long) +
			  modern_index_bytes(16) + modern_index_bytes(4) +
			  modern_dir_bytes(pool->dir));
	gen_pool_free(pool, 0x20000, 16);
	gen_pool_free(pool, 0x20020, 32);
	gen_pool_free(pool, 0x10000, 32);
	gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.nr_free_extents, 2);
	ck_assert_uint_eq(st.largest_free, 0x100);
	ck_assert_uint_eq(st.avail, st.size);
	drop(pool);
}
END_TEST

/*
 * Size 0 is refused before any algorithm runs at every granule size.  From
 * order 33 up, (0 - 1) >> order is below UINT_MAX, so only the test for a
 * rounding that overflows catches it: without it a user algorithm would be
 * asked for 2^(64 - order) granules, and first_fit_align's missing data
 * would draw a WARN, where size 0 is a quiet 0 (genalloc.h).
 */
static int algo_calls;

static unsigned long counting_fit(unsigned long *map, unsigned long size, unsigned long start,
				  unsigned int nr, void *data, struct gen_pool *pool,
				  unsigned long start_addr)
{
	algo_calls++;
	return gen_pool_first_fit(map, size, start, nr, data, pool, start_addr);
}

START_TEST(size_zero_is_refused_at_every_order)
{
	int order = (int)(sizeof(long) * 8) - 24;	/* 40 on LP64 */
	struct gen_pool *pool = new_pool(order);
	size_t size = (size_t)16 << order;		/* 16 granules */

	ck_assert_int_eq(gen_pool_add(pool, 1UL << order, size, -1), 0);
	capture_errors();
	algo_calls = 0;
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0, counting_fit, NULL), 0);
	ck_assert_int_eq(algo_calls, 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 0, gen_pool_first_fit_align, NULL), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, ULONG_MAX, counting_fit, NULL), 0);
	ck_assert_int_eq(algo_calls, 0);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 1, counting_fit, NULL), 1UL << order);
	ck_assert_int_eq(algo_calls, 1);
	ck_assert_uint_eq(gen_pool_avail(pool), size - (1UL << order));
	gen_pool_free(pool, 1UL << order, 1);
	drop(pool);
}
END_TEST

/*
 * A range may end on the last byte of the address space: only one whose end
 * wraps past it is refused (add_bad_ranges in test_misuse.c).  That chunk
 * then works as any other, its last granule included.
 */
START_TEST(chunk_may_end_at_the_top_of_the_address_space)
{
	struct gen_pool *pool = new_pool(4);
	struct genpool_data_fixed last = { .offset = 0xf0 };
	unsigned long top = ULONG_MAX - 0xff;	/* 16 granules up to ULONG_MAX */

	capture_errors();
	ck_assert_int_eq(gen_pool_add_virt(pool, top, 0x1000, 0x100, -1), 0);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_uint_eq(gen_pool_size(pool), 0x100);
	ck_assert_uint_eq(gen_pool_alloc_algo(pool, 16, gen_pool_fixed_alloc, &last),
			  ULONG_MAX - 0xf);
	ck_assert_uint_eq(gen_pool_alloc(pool, 0xf0), top);
	ck_assert_uint_eq(gen_pool_avail(pool), 0);
	ck_assert(gen_pool_has_addr(pool, ULONG_MAX - 0xf, 16));
	ck_assert(!gen_pool_has_addr(pool, ULONG_MAX - 0xf, 17));
	ck_assert_uint_eq(gen_pool_virt_to_phys(pool, ULONG_MAX), 0x10ff);
	gen_pool_free(pool, ULONG_MAX - 0xf, 16);
	gen_pool_free(pool, top, 0xf0);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_uint_eq(gen_pool_avail(pool), 0x100);
	drop(pool);
}
END_TEST

Suite *modern_pool_suite(void)
{
	Suite *s = suite_create("modern_pool");
	TCase *tc = tcase_create("pool");

	tcase_add_test(tc, create_defaults);
	tcase_add_test(tc, create_extreme_orders);
	tcase_add_test(tc, size_zero_returns_zero);
	tcase_add_test(tc, sizes_round_up_to_granules);
	tcase_add_test(tc, tail_counted_never_handed_out);
	tcase_add_test(tc, newest_chunk_first);
	tcase_add_test(tc, lone_chunk_joins_the_directory);
	tcase_add_test(tc, chunk_skip_uses_unrounded_size);
	tcase_add_test(tc, search_restarts_at_bit_zero_per_chunk);
	tcase_add_test(tc, owner_reported);
	tcase_add_test(tc, virt_to_phys);
	tcase_add_test(tc, has_addr_needs_one_chunk);
	tcase_add_test(tc, for_each_chunk_newest_first);
	tcase_add_test(tc, chunk_fields);
	tcase_add_test(tc, set_algo_and_restore);
	tcase_add_test(tc, destroy_frees_name);
	tcase_add_test(tc, stats_describe_free_space);
	tcase_add_test(tc, big_chunk_places_from_both_ends);
	tcase_add_test(tc, bitmaps_start_on_cache_lines);
	tcase_add_test(tc, size_zero_is_refused_at_every_order);
	tcase_add_test(tc, chunk_may_end_at_the_top_of_the_address_space);
	suite_add_tcase(s, tc);
	return s;
}
