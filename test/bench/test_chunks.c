// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/bench/test_chunks.c - what genalloc-speed's --chunks and its harness
 * rest on: the cut of a pool into equal chunks, the modern adapter adding
 * them one by one, the count parser, and the no-op engine.
 *
 * The cut worked by hand for the MANY CHUNKS section (64M, 1000 chunks,
 * 8-byte granule): 67108864 / 1000 = 67108.864 -> 67104 bytes (a multiple
 * of 8); rounded up to a page 69632 (17 pages), plus a page of gap: stride
 * 73728.
 */
#include <stdint.h>
#include <string.h>

#include "../support.h"
#include "bench/chunks.h"
#include "bench/engine.h"
#include "bench/options.h"

START_TEST(layout_by_hand)
{
	struct bench_chunk_layout l;

	ck_assert_int_eq(bench_chunk_layout(&l, (size_t)64 << 20, 1000, 8), 0);
	ck_assert_uint_eq(l.nr, 1000);
	ck_assert_uint_eq(l.size, 67104);
	ck_assert_uint_eq(l.stride, 73728);

	/* A chunk of exactly one page still gets its gap. */
	ck_assert_int_eq(bench_chunk_layout(&l, 16384, 4, 8), 0);
	ck_assert_uint_eq(l.size, 4096);
	ck_assert_uint_eq(l.stride, 8192);

	/* 1000 / 3 = 333 -> 320 at a 32-byte granule; one page and a gap. */
	ck_assert_int_eq(bench_chunk_layout(&l, 1000, 3, 32), 0);
	ck_assert_uint_eq(l.size, 320);
	ck_assert_uint_eq(l.stride, 8192);

	/* One chunk is the whole capacity, rounded down to the granule. */
	ck_assert_int_eq(bench_chunk_layout(&l, 100, 1, 8), 0);
	ck_assert_uint_eq(l.nr, 1);
	ck_assert_uint_eq(l.size, 96);
}
END_TEST

START_TEST(layout_rejects)
{
	struct bench_chunk_layout l = { 7, 7, 7 };

	ck_assert_int_eq(bench_chunk_layout(&l, 4096, 0, 8), -1);
	ck_assert_int_eq(bench_chunk_layout(&l, 4096, 2, 0), -1);
	ck_assert_int_eq(bench_chunk_layout(&l, 4096, 2, 24), -1);
	/* 100 / 20 = 5 bytes: less than one granule. */
	ck_assert_int_eq(bench_chunk_layout(&l, 100, 20, 8), -1);
	ck_assert_int_eq(bench_chunk_layout(&l, 100, 200, 1), -1);
	/* The page round-up of a huge chunk would wrap. */
	ck_assert_int_eq(bench_chunk_layout(&l, SIZE_MAX, 1, 8), -1);
	/* So would nr * stride. */
	ck_assert_int_eq(bench_chunk_layout(&l, SIZE_MAX, SIZE_MAX / 4096, 8), -1);
	/* Refusals leave the result alone. */
	ck_assert_uint_eq(l.nr, 7);
	ck_assert_uint_eq(l.size, 7);
	ck_assert_uint_eq(l.stride, 7);
}
END_TEST

static const struct bench_engine *lockless(const char *name)
{
	size_t i;

	for (i = 0; i < bench_nr_engines_modern_lockless; i++)
		if (!strcmp(bench_engines_modern_lockless[i].name, name))
			return &bench_engines_modern_lockless[i];
	ck_abort_msg("no engine %s", name);
	return NULL;
}

/*
 * Four chunks of one page each: a request never spans two, and the pool
 * walks its newest chunk (the highest, added last) first, on the indexed
 * and the kernel path alike.
 */
static void four_chunks(const struct bench_engine *e, int fake)
{
	const struct bench_pool_config cfg = {
		.regime = BENCH_FIXED, .chunk_size = 16384, .capacity = 16384, .fake = fake,
		.nr_chunks = 4,
	};
	struct bench_pool *p = e->create(e, &cfg);
	struct bench_stats st;
	unsigned long a[4], base;
	int i;

	ck_assert_ptr_nonnull(p);
	base = p->chunks.base;
	ck_assert_uint_eq(p->layout.nr, 4);
	ck_assert_uint_eq(p->layout.stride, 8192);
	if (!fake) {
		ck_assert_uint_ge(base, (uintptr_t)p->chunks.map);
		ck_assert_uint_le(base + 3 * 8192 + 4096,
				  (uintptr_t)p->chunks.map + p->chunks.map_len);
	}
	e->stats(p, &st);
	ck_assert_uint_eq(st.obtained, 16384);
	ck_assert_uint_eq(st.free_bytes, 16384);
	ck_assert_uint_eq(e->alloc(p, 4097), 0);
	for (i = 0; i < 4; i++) {
		a[i] = e->alloc(p, 4096);
		ck_assert_uint_eq(a[i], base + (unsigned long)(3 - i) * 8192);
	}
	ck_assert_uint_eq(e->alloc(p, 8), 0);
	e->free(p, a[1], 4096);
	ck_assert_uint_eq(e->alloc(p, 8), a[1]);
	e->free(p, a[1], 8);
	for (i = 0; i < 4; i++)
		if (i != 1)
			e->free(p, a[i], 4096);
	e->destroy(p);
}

START_TEST(modern_pool_in_chunks)
{
	four_chunks(bench_engine_find("ff8"), 1);
	four_chunks(bench_engine_find("bf8"), 1);
	four_chunks(lockless("kff8"), 1);
	four_chunks(lockless("kbf8"), 1);
	four_chunks(bench_engine_find("ffo8"), 0);
}
END_TEST

/* nr_chunks 0 and 1 keep the one range of the whole capacity. */
START_TEST(modern_pool_one_range)
{
	const struct bench_engine *e = bench_engine_find("ff8");
	struct bench_pool_config cfg = {
		.regime = BENCH_FIXED, .chunk_size = 16384, .capacity = 16384, .fake = 1,
	};
	size_t n;

	for (n = 0; n < 2; n++) {
		struct bench_pool *p;
		unsigned long a;

		cfg.nr_chunks = n;
		p = e->create(e, &cfg);
		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(p->layout.nr, 0);
		a = e->alloc(p, 16384);
		ck_assert_uint_eq(a, p->chunks.base);
		e->free(p, a, 16384);
		e->destroy(p);
	}
	/* A cut the layout refuses fails the pool rather than shrinking it. */
	cfg.nr_chunks = 4096;
	ck_assert_ptr_null(e->create(e, &cfg));
}
END_TEST

START_TEST(parse_count)
{
	size_t v = 42;

	ck_assert_int_eq(bench_parse_count("1000", 1, 1 << 20, &v), 0);
	ck_assert_uint_eq(v, 1000);
	ck_assert_int_eq(bench_parse_count("1048576", 1, 1 << 20, &v), 0);
	ck_assert_uint_eq(v, 1 << 20);
	ck_assert_int_eq(bench_parse_count("5", 0, 5, &v), 0);
	ck_assert_uint_eq(v, 5);
	v = 42;
	ck_assert_int_eq(bench_parse_count("1048577", 1, 1 << 20, &v), -1);
	ck_assert_int_eq(bench_parse_count("9", 0, 5, &v), -1);
	ck_assert_int_eq(bench_parse_count("0", 1, 10, &v), -1);
	ck_assert_int_eq(bench_parse_count("1", 2, 10, &v), -1);
	ck_assert_int_eq(bench_parse_count("", 0, 10, &v), -1);
	ck_assert_int_eq(bench_parse_count("1K", 1, 1 << 20, &v), -1);
	ck_assert_int_eq(bench_parse_count("0x10", 1, 1 << 20, &v), -1);
	ck_assert_int_eq(bench_parse_count("-1", 0, SIZE_MAX, &v), -1);
	ck_assert_int_eq(bench_parse_count(" 5", 0, 10, &v), -1);
	ck_assert_int_eq(bench_parse_count("5 ", 0, 10, &v), -1);
	ck_assert_int_eq(bench_parse_count("99999999999999999999999", 0, SIZE_MAX, &v), -1);
	ck_assert_uint_eq(v, 42);
}
END_TEST

/* The harness hands out one live-looking address and counts like ff8. */
START_TEST(noop_engine)
{
	const struct bench_engine *e = &bench_engine_noop;
	const struct bench_pool_config cfg = {
		.regime = BENCH_FIXED, .chunk_size = 4096, .capacity = 1 << 20,
	};
	struct bench_pool *p = e->create(e, &cfg);
	struct bench_stats st;
	unsigned long a;

	ck_assert_ptr_nonnull(p);
	a = e->alloc(p, 100);
	ck_assert_uint_ne(a, 0);
	ck_assert_uint_eq(e->alloc(p, 1 << 30), a);
	e->free(p, a, 100);
	ck_assert_uint_eq(e->granted(p, 1), 8);
	ck_assert_uint_eq(e->granted(p, 100), 104);
	e->stats(p, &st);
	ck_assert_uint_eq(st.obtained, 1 << 20);
	ck_assert_ptr_null(bench_engine_find(e->name));
	e->destroy(p);
}
END_TEST

Suite *bench_chunks_suite(void)
{
	Suite *s = suite_create("bench_chunks");
	TCase *tc = tcase_create("chunks");

	tcase_add_test(tc, layout_by_hand);
	tcase_add_test(tc, layout_rejects);
	tcase_add_test(tc, modern_pool_in_chunks);
	tcase_add_test(tc, modern_pool_one_range);
	tcase_add_test(tc, parse_count);
	tcase_add_test(tc, noop_engine);
	suite_add_tcase(s, tc);
	return s;
}
