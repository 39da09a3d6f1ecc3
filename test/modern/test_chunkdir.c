// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_chunkdir.c - the chunk directory's trees against a
 * plain scan: for directories of 1 to 5,000 chunks (one to five levels of
 * eight), random values (0, small, UINT32_MAX) and random requests, the
 * newest chunk at or below a slot that holds a request is the one a walk
 * down the slots finds, and every node is the maximum of its eight
 * children after every change.
 */
#include <stdint.h>
#include <stdlib.h>

#include "../support.h"
#include "modern/chunkdir_internal.h"

/* The newest slot at or below @slot whose value reaches @nr, by a scan. */
static size_t scan_prev_fit(const uint32_t *v, size_t n, size_t slot, unsigned long nr)
{
	if (slot >= n)
		return MODERN_DIR_NONE;
	for (size_t s = slot + 1; s-- > 0;)
		if (v[s] >= nr)
			return s;
	return MODERN_DIR_NONE;
}

static void assert_nodes(const struct modern_dir_tree *t)
{
	ck_assert_uint_eq(t->count[t->nlevels - 1], 1);
	for (unsigned int l = 1; l < t->nlevels; l++) {
		for (size_t i = 0; i < t->count[l]; i++) {
			uint32_t m = 0;

			for (size_t k = 0; k < MODERN_MT_FAN; k++)
				if (t->level[l - 1][i * MODERN_MT_FAN + k] > m)
					m = t->level[l - 1][i * MODERN_MT_FAN + k];
			ck_assert_uint_eq(t->level[l][i], m);
		}
		/* The padding never wins a maximum nor passes a test. */
		for (size_t i = t->count[l]; i < modern_mt_padded(t->count[l]); i++)
			ck_assert_uint_eq(t->level[l][i], 0);
	}
}

static uint32_t draw_value(unsigned long long *rng)
{
	switch (test_rng_below(rng, 8)) {
	case 0:
		return 0;
	case 1:
		return UINT32_MAX;
	case 2:
		return (uint32_t)test_rng_below(rng, UINT32_MAX);
	default:
		return (uint32_t)test_rng_below(rng, 64);
	}
}

static unsigned long draw_request(unsigned long long *rng)
{
	switch (test_rng_below(rng, 6)) {
	case 0:
		return 1;
	case 1:
		return UINT32_MAX;
	case 2:
		return (unsigned long)UINT32_MAX + 1;	/* more than any chunk holds */
	default:
		return 1 + (unsigned long)test_rng_below(rng, 70);
	}
}

static const size_t sizes[] = { 1, 2, 7, 8, 9, 63, 64, 65, 511, 513, 5000 };

START_TEST(prev_fit_matches_a_scan)
{
	size_t n = sizes[_i];
	unsigned long long rng = 7 + n;
	struct modern_chunk_dir *dir = modern_dir_create();
	struct gen_pool_chunk *chunks = calloc(n, sizeof(*chunks));
	uint32_t *v = calloc(n, sizeof(*v));
	/* The scans and the node checks are O(n) each: fewer of them on the
	 * large directories, whose small cases the others already cover. */
	int steps = (n > 600 ? 600 : 4000) / (getenv("GENALLOC_UNDER_VALGRIND") ? 4 : 1);

	ck_assert_ptr_nonnull(dir);
	ck_assert_ptr_nonnull(chunks);
	ck_assert_ptr_nonnull(v);
	/* Chunks without an index: the directory takes them as "unknown". */
	for (size_t s = 0; s < n; s++) {
		chunks[s].start_addr = 0x1000 * (s + 1);
		chunks[s].end_addr = 0x1000 * (s + 1) + 0xfff;
		ck_assert_int_eq(modern_dir_add(dir, &chunks[s]), 0);
		ck_assert_uint_eq(modern_dir_leaf(&dir->tree, s), UINT32_MAX);
	}
	ck_assert_uint_eq(modern_dir_count(dir), n);
	ck_assert(modern_dir_verify(dir));
	for (size_t s = 0; s < n; s++) {
		v[s] = draw_value(&rng);
		modern_dir_set_leaf(dir, s, v[s]);
	}
	assert_nodes(&dir->tree);
	for (int step = 0; step < steps; step++) {
		size_t slot = (size_t)test_rng_below(&rng, n + 2);
		unsigned long nr = draw_request(&rng);

		ck_assert_uint_eq(modern_dir_prev_fit(dir, slot, nr), scan_prev_fit(v, n, slot, nr));
		if (step % 8 == 0) {
			size_t s = (size_t)test_rng_below(&rng, n);

			v[s] = draw_value(&rng);
			modern_dir_set_leaf(dir, s, v[s]);
			if (n <= 600 || step % 128 == 0)
				assert_nodes(&dir->tree);
		}
	}
	assert_nodes(&dir->tree);
	modern_dir_destroy(dir);
	free(chunks);
	free(v);
}
END_TEST

Suite *modern_chunkdir_suite(void)
{
	Suite *s = suite_create("modern_chunkdir");
	TCase *tc = tcase_create("trees");

	tcase_add_loop_test(tc, prev_fit_matches_a_scan, 0, sizeof(sizes) / sizeof(sizes[0]));
	suite_add_tcase(s, tc);
	return s;
}
