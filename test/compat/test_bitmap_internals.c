// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/test_bitmap_internals.c - white-box tests of the bitmap
 * backend: its checker must catch each kind of corruption of compat's
 * records or of the engine under them, and its allocations must be
 * answered by the engine's index.  The backend is driven through its ops table with
 * a stand-in compat pool (no callback, so the stand-in is never read).
 *
 * This file sees the modern engine's struct gen_pool, so it must not (and
 * does not) include compat/genalloc.h.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "compat/bitmap_pool_internal.h"

#define WB_SHIFT 12
#define WB_FRAME (1UL << WB_SHIFT)

static int stand_in_pool;
static pthread_mutex_t wb_lock = PTHREAD_MUTEX_INITIALIZER;
static struct compat_bitmap_pool *volatile kept;	/* reachable until the test exits */

/* Frame A wholly donated, frame B half donated, a 256-byte block live in B. */
struct wb {
	struct compat_bitmap_pool *bp;
	unsigned long a, b, block;
};

static struct wb wb_setup(void)
{
	struct wb w;

	w.bp = compat_bitmap_ops.create(&stand_in_pool, &wb_lock, 0, WB_SHIFT, 0);
	ck_assert_ptr_nonnull(w.bp);
	kept = w.bp;
	w.a = (unsigned long)test_region(WB_FRAME, WB_FRAME);
	w.b = (unsigned long)test_region(WB_FRAME, WB_FRAME);
	compat_bitmap_ops.free(w.bp, w.a, (int)WB_FRAME);
	compat_bitmap_ops.free(w.bp, w.b, (int)WB_FRAME / 2);
	w.block = compat_bitmap_ops.alloc(w.bp, 256);
	ck_assert_uint_eq(w.block, w.b);
	ck_assert_int_eq(compat_bitmap_ops.check(w.bp), 0);
	return w;
}

/* Write the start byte of @addr as a corruption would. */
static void wb_set_start(struct wb *w, unsigned long addr, int v)
{
	struct legacy_frame *f = legacy_frames_lookup(w->bp->frames, addr);

	ck_assert_ptr_nonnull(f);
	compat_bm_set_start(f, compat_bm_granule_of(f, addr), v);
}

static void bump_avail(struct gen_pool *pool, struct gen_pool_chunk *chunk, void *data)
{
	(void)pool;
	(void)data;
	atomic_fetch_add(&chunk->avail, 32);
}

/* Each loop index breaks one thing; the checker must say so. */
START_TEST(checker_catches_each_corruption)
{
	struct wb w = wb_setup();
	unsigned long extra;

	capture_errors();
	switch (_i) {
	case 0:
		w.bp->obtained_bytes += 32;
		break;
	case 1:
		w.bp->donated_bytes += 32;
		break;
	case 2:
		w.bp->frames->count++;
		break;
	case 3:
		legacy_frames_lookup(w.bp->frames, w.a)->donated_bytes += 32;
		break;
	case 4:		/* the engine holds a block compat has no record of */
		wb_set_start(&w, w.block, 0);
		break;
	case 5:		/* a block starting inside another */
		wb_set_start(&w, w.block + 32, 1);
		break;
	case 6:		/* a 64-byte block on an odd granule */
		wb_set_start(&w, w.block, 0);
		wb_set_start(&w, w.block + 32, 2);
		break;
	case 7:		/* a block in the undonated half of B */
		wb_set_start(&w, w.b + WB_FRAME - 32, 1);
		break;
	case 8:		/* an engine chunk that is no frame (held whole, as every
			 * chunk joins, so allocation cannot reach it) */
		extra = (unsigned long)test_region(WB_FRAME, WB_FRAME);
		ck_assert_int_eq(gen_pool_add_used(w.bp->engine, extra, WB_FRAME, -1), 0);
		ck_assert_uint_eq(compat_bitmap_ops.alloc(w.bp, 32), w.block + 256);
		break;
	case 9:		/* the engine's own counters */
		gen_pool_for_each_chunk(w.bp->engine, bump_avail, NULL);
		break;
	}
	ck_assert_int_eq(compat_bitmap_ops.check(w.bp), -1);
	ck_assert_error(GENALLOC_BUG, GENALLOC_ECORRUPT);
}
END_TEST

START_TEST(largest_free_is_the_largest_aligned_block)
{
	struct wb w = wb_setup();
	struct compat_gen_pool_stats st;

	compat_bitmap_ops.stats(w.bp, &st);
	ck_assert_uint_eq(st.largest_free, WB_FRAME);
	ck_assert_uint_eq(st.free_bytes, WB_FRAME + WB_FRAME / 2 - 256);
	ck_assert_uint_eq(compat_bitmap_ops.alloc(w.bp, (int)WB_FRAME), w.a);
	compat_bitmap_ops.stats(w.bp, &st);
	/* B: 256 live at its start, then free up to its held half. */
	ck_assert_uint_eq(st.largest_free, 1024);
	compat_bitmap_ops.free(w.bp, w.a, (int)WB_FRAME);
	compat_bitmap_ops.free(w.bp, w.block, 256);
	ck_assert_int_eq(compat_bitmap_ops.destroy(w.bp), 0);
	kept = NULL;
}
END_TEST

/* ------------------------------------------------------------ speed */

/* Words of one frame's engine bitmap (a whole number: 128 granules). */
#define WB_MAP_WORDS (WB_FRAME / 32 / (8 * sizeof(unsigned long)))

/* One engine chunk whose bitmap and avail say "free" while its index still
 * says "full", and back. */
struct stale {
	unsigned long base;
	int restore;
	int found;
	unsigned long saved[WB_MAP_WORDS];
};

static void toggle_behind_index(struct gen_pool *pool, struct gen_pool_chunk *chunk, void *data)
{
	struct stale *s = data;

	(void)pool;
	if (chunk->start_addr != s->base)
		return;
	s->found++;
	if (s->restore) {
		memcpy(chunk->bits, s->saved, sizeof(s->saved));
		atomic_fetch_sub(&chunk->avail, (long)WB_FRAME);
		return;
	}
	memcpy(s->saved, chunk->bits, sizeof(s->saved));
	memset(chunk->bits, 0, sizeof(s->saved));
	atomic_fetch_add(&chunk->avail, (long)WB_FRAME);
}

/*
 * Allocation must be answered by the engine's index (and its directory of
 * chunks), not by a scan of every chunk's bitmap, which is what a wrapper
 * algorithm costs.  Timing is not asserted; instead the two are
 * made to disagree: frame A is allocated whole, then its bitmap is cleared
 * behind the index's back.  An indexed search still sees A full (and B, half
 * held, too small), so the request fails; a scan would hand A out again.
 */
START_TEST(allocation_is_answered_by_the_index)
{
	struct wb w = wb_setup();
	struct stale s = { .base = w.a };

	ck_assert_uint_eq(compat_bitmap_ops.alloc(w.bp, (int)WB_FRAME), w.a);
	gen_pool_for_each_chunk(w.bp->engine, toggle_behind_index, &s);
	ck_assert_int_eq(s.found, 1);
	ck_assert_uint_eq(compat_bitmap_ops.alloc(w.bp, (int)WB_FRAME), 0);
	s.restore = 1;
	gen_pool_for_each_chunk(w.bp->engine, toggle_behind_index, &s);
	ck_assert_int_eq(compat_bitmap_ops.check(w.bp), 0);
	compat_bitmap_ops.free(w.bp, w.a, (int)WB_FRAME);
	compat_bitmap_ops.free(w.bp, w.block, 256);
	ck_assert_int_eq(compat_bitmap_ops.destroy(w.bp), 0);
	kept = NULL;
}
END_TEST

Suite *compat_bitmap_internals_suite(void)
{
	Suite *s = suite_create("compat_bitmap_internals");
	TCase *tc = tcase_create("internals");

	tcase_add_loop_test(tc, checker_catches_each_corruption, 0, 10);
	tcase_add_test(tc, largest_free_is_the_largest_aligned_block);
	tcase_add_test(tc, allocation_is_answered_by_the_index);
	suite_add_tcase(s, tc);
	return s;
}
