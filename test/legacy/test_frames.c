// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/test_frames.c - the frame table both 2005 engines keep
 * (legacy/frames_internal.h): every frame found by any address inside it
 * however the table grew, iteration over all of them, the cost it reports,
 * and the reservations that let a caller secure room before it asks for a
 * chunk.
 */
#include "../oom.h"
#include "../support.h"
#include "legacy/frames_internal.h"

#define FT_SHIFT 12
#define FT_FRAME (1UL << FT_SHIFT)

/* Spread and clustered bases, so probes collide. */
static unsigned long ft_base(unsigned long k)
{
	return ((k * 7919UL) % 4096UL + (k & 1) * (1UL << 30)) << FT_SHIFT;
}

START_TEST(finds_every_frame_as_it_grows)
{
	struct legacy_frame_table *t = legacy_frames_create(FT_SHIFT);
	unsigned long n = 1000, seen = 0, i = 0;
	struct legacy_frame *f;

	ck_assert_ptr_nonnull(t);
	for (unsigned long k = 0; k < n; k++) {
		ck_assert_ptr_null(legacy_frames_lookup(t, ft_base(k) + 5));
		ck_assert_int_eq(legacy_frames_reserve(t), 0);
		f = legacy_frame_new(t, ft_base(k), (int)(k & 1), (int)(k & 1));
		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(f->ctrl[legacy_frame_atoms(t) - 1], 0);
		legacy_frames_insert(t, f);
		ck_assert_ptr_eq(legacy_frames_lookup(t, ft_base(k) + FT_FRAME - 1), f);
	}
	for (unsigned long k = 0; k < n; k++)
		ck_assert_uint_eq(legacy_frames_lookup(t, ft_base(k))->base, ft_base(k));
	while ((f = legacy_frames_next(t, &i)))
		seen++;
	ck_assert_uint_eq(seen, n);
	ck_assert_uint_eq(t->count, n);
	ck_assert_uint_eq(t->reserved, 0);
	ck_assert_uint_gt(t->bytes, n * FT_FRAME / 32);
	legacy_frames_destroy(t);
}
END_TEST

/* Without memory to grow, the table keeps its size while every promised
 * insert still leaves a slot empty; then reserve refuses. */
START_TEST(reservations_keep_a_slot_empty)
{
	struct legacy_frame_table *t = legacy_frames_create(FT_SHIFT);
	unsigned long k, slots = atomic_load(&t->cur)->mask + 1;
	long failed;
	int rc;

	for (k = 0; k + 1 < slots; k++) {
		OOM_RUN(0, failed, rc = legacy_frames_reserve(t));
		ck_assert_int_eq(rc, 0);
		ck_assert_int_eq(failed, (k + 1) * 2 > slots);
	}
	OOM_RUN(0, failed, rc = legacy_frames_reserve(t));
	ck_assert_int_eq(rc, -1);
	ck_assert_uint_eq(t->reserved, slots - 1);
	legacy_frames_unreserve(t);
	for (k = 0; k + 1 < slots; k++) {
		struct legacy_frame *f = legacy_frame_new(t, ft_base(k), 1, 0);

		ck_assert_ptr_nonnull(f);
		legacy_frames_insert(t, f);
	}
	ck_assert_uint_eq(t->count, slots - 1);
	ck_assert_uint_eq(atomic_load(&t->cur)->mask + 1, slots);
	for (k = 0; k + 1 < slots; k++)
		ck_assert_uint_eq(legacy_frames_lookup(t, ft_base(k))->base, ft_base(k));
	ck_assert_ptr_null(legacy_frames_lookup(t, ft_base(slots)));
	/* With memory, it grows again. */
	ck_assert_int_eq(legacy_frames_reserve(t), 0);
	ck_assert_uint_eq(atomic_load(&t->cur)->mask + 1, slots * 2);
	legacy_frames_unreserve(t);
	legacy_frames_destroy(t);
}
END_TEST

Suite *legacy_frames_suite(void)
{
	Suite *s = suite_create("legacy_frames");
	TCase *tc = tcase_create("frames");

	tcase_add_test(tc, finds_every_frame_as_it_grows);
	tcase_add_test(tc, reservations_keep_a_slot_empty);
	suite_add_tcase(s, tc);
	return s;
}
