// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * compat/bitmap_inspect.c - the bitmap backend's checker, statistics and
 * region walk.
 *
 * The checker's strongest test is a bit-for-bit comparison: from compat's
 * own records alone (live block starts, donated granules) it predicts every
 * bit of the engine's bitmaps, and any difference is corruption on one side
 * or the other.
 */
#include <limits.h>

#include "bitmap_internal.h"

#define BITS_PER_WORD (8 * sizeof(unsigned long))

/* The engine writes its bitmap words atomically; read them the same way. */
static int chunk_bit(const struct gen_pool_chunk *chunk, unsigned long g)
{
	unsigned long w = __atomic_load_n(&chunk->bits[g / BITS_PER_WORD], __ATOMIC_RELAXED);

	return (w >> (g % BITS_PER_WORD)) & 1;
}

static int start_order(const struct compat_frame *f, unsigned long g)
{
	return atomic_load_explicit(&f->starts[g], memory_order_acquire) - 1;
}

struct bm_check {
	struct compat_bitmap_pool *bp;
	unsigned long live_bytes;
	unsigned long donated_bytes;
	unsigned long chunks;
	const char *msg;
};

/* A live block of @order at granule @g: aligned, inside the frame, known. */
static const char *check_block(const struct compat_bitmap_pool *bp, const struct compat_frame *f,
			       unsigned long g, int order)
{
	unsigned long blk = 1UL << order, n = compat_frame_granules(&bp->frames);

	if (order > bp->shift - COMPAT_GRANULE_SHIFT || (g & (blk - 1)) || g + blk > n)
		return "live block misaligned or past its frame";
	for (unsigned long i = g; i < g + blk; i++)
		if (!compat_frame_is_known(f, i))
			return "live block outside known memory";
	return NULL;
}

static void check_chunk(struct gen_pool *engine, struct gen_pool_chunk *chunk, void *data)
{
	struct bm_check *c = data;
	struct compat_bitmap_pool *bp = c->bp;
	struct compat_frame *f = compat_frames_lookup(&bp->frames, chunk->start_addr);
	unsigned long n = compat_frame_granules(&bp->frames), live_end = 0, known = 0;

	(void)engine;
	c->chunks++;
	if (!f || f->base != chunk->start_addr ||
	    chunk->end_addr - chunk->start_addr + 1 != compat_bm_frame_size(bp)) {
		c->msg = "engine chunk is not a frame";
		return;
	}
	for (unsigned long g = 0; g < n && !c->msg; g++) {
		int order = start_order(f, g);

		if (order >= 0 && g < live_end)
			c->msg = "live blocks overlap";
		else if (order >= 0 && !(c->msg = check_block(bp, f, g, order))) {
			live_end = g + (1UL << order);
			c->live_bytes += compat_bm_order_bytes(order);
		}
		known += compat_frame_is_known(f, g);
		/* Used: a live block, or held (not donated) memory. */
		if (!c->msg && chunk_bit(chunk, g) != (g < live_end || !compat_frame_is_known(f, g)))
			c->msg = "engine bitmap disagrees with compat's records";
	}
	if (!c->msg && !f->from_callback) {
		if (known << COMPAT_GRANULE_SHIFT != f->donated_bytes)
			c->msg = "frame's donated bytes disagree with its map";
		c->donated_bytes += f->donated_bytes;
	}
}

int compat_bitmap_check(void *engine)
{
	struct compat_bitmap_pool *bp = engine;
	struct bm_check c = { .bp = bp };

	if (!compat_bm_lock(bp, "gen_pool_check"))
		return -1;
	if (gen_pool_check(bp->engine)) {
		compat_bm_unlock(bp);
		return -1;
	}
	gen_pool_for_each_chunk(bp->engine, check_chunk, &c);
	if (!c.msg && c.chunks != bp->frames.count)
		c.msg = "frame table and engine chunks differ";
	else if (!c.msg && c.donated_bytes != bp->donated_bytes)
		c.msg = "donated bytes disagree with the frames";
	else if (!c.msg && gen_pool_avail(bp->engine) + c.live_bytes !=
				   bp->obtained_bytes + bp->donated_bytes)
		c.msg = "free bytes are not known bytes less live blocks";
	compat_bm_unlock(bp);
	if (!c.msg)
		return 0;
	genalloc_report(GENALLOC_BUG, GENALLOC_ECORRUPT, "gen_pool_check", bp->cpool, 0, 0, c.msg);
	return -1;
}

/* The largest naturally aligned power of two inside free run [a, b), in
 * granules (a run is never empty, and one granule is always aligned). */
static unsigned long largest_aligned(unsigned long a, unsigned long b, int max_order)
{
	for (int k = max_order; k > 0; k--) {
		unsigned long blk = 1UL << k, s = (a + blk - 1) & ~(blk - 1);

		if (s + blk <= b)
			return blk;
	}
	return 1;
}

struct bm_largest {
	int max_order;
	unsigned long granules;
	unsigned long free_bytes;
};

static void largest_in_chunk(struct gen_pool *engine, struct gen_pool_chunk *chunk, void *data)
{
	struct bm_largest *l = data;
	long avail = atomic_load_explicit(&chunk->avail, memory_order_relaxed);
	unsigned long g = 0, end;

	(void)engine;
	/* Under the engine's lock avail is exact; the test is for safety. */
	if (avail > 0)
		l->free_bytes += (unsigned long)avail;
	while (g < chunk->nbits) {
		if (chunk_bit(chunk, g)) {
			g++;
			continue;
		}
		for (end = g; end < chunk->nbits && !chunk_bit(chunk, end); end++)
			;
		if (largest_aligned(g, end, l->max_order) > l->granules)
			l->granules = largest_aligned(g, end, l->max_order);
		g = end;
	}
}

void compat_bitmap_stats(void *engine, struct compat_gen_pool_stats *st)
{
	struct compat_bitmap_pool *bp = engine;
	struct bm_largest l = { .max_order = bp->shift - COMPAT_GRANULE_SHIFT };
	struct gen_pool_stats ms;

	if (!compat_bm_lock(bp, "gen_pool_stats")) {
		*st = (struct compat_gen_pool_stats){ 0 };
		return;
	}
	gen_pool_stats(bp->engine, &ms);
	/*
	 * Allocations and frees hold the engine's lock, not ours, and under it
	 * the engine writes its bitmaps with plain stores: the walk takes that
	 * lock too, so that it reads no bit mid-write and the free bytes and
	 * the largest block come from one state of the pool.
	 */
	if (modern_lock_acquire(&bp->engine->lock)) {
		gen_pool_for_each_chunk(bp->engine, largest_in_chunk, &l);
		modern_lock_release(&bp->engine->lock);
	}
	st->obtained_bytes = bp->obtained_bytes;
	st->donated_bytes = bp->donated_bytes;
	st->free_bytes = l.free_bytes;
	st->largest_free = l.granules << COMPAT_GRANULE_SHIFT;
	st->metadata_bytes = sizeof(*bp) + ms.metadata_bytes +
			     compat_frames_metadata(&bp->frames);
	for (struct compat_frame *f = bp->pending; f; f = f->next_pending)
		st->metadata_bytes += sizeof(*f) + compat_frame_granules(&bp->frames);
	compat_bm_unlock(bp);
}

struct bm_visit {
	struct compat_bitmap_pool *bp;
	compat_region_fn fn;
	void *data;
};

/* The donated frame right above (@dir 1) or below (@dir -1) @f, if any. */
static struct compat_frame *donated_neighbour(struct compat_bitmap_pool *bp,
					      const struct compat_frame *f, int dir)
{
	unsigned long size = compat_bm_frame_size(bp);
	struct compat_frame *n;

	if (dir < 0 ? f->base == 0 : f->base > ULONG_MAX - size)
		return NULL;
	n = compat_frames_lookup(&bp->frames, dir < 0 ? f->base - size : f->base + size);
	return n && !n->from_callback ? n : NULL;
}

/* Bytes of donated memory from granule @g of @f on, across frame edges. */
static unsigned long donated_run(struct compat_bitmap_pool *bp, struct compat_frame *f,
				 unsigned long g)
{
	unsigned long n = compat_frame_granules(&bp->frames), bytes = 0, end;

	for (; f; f = donated_neighbour(bp, f, 1), g = 0) {
		for (end = g; end < n && compat_frame_is_known(f, end); end++)
			;
		bytes += (end - g) << COMPAT_GRANULE_SHIFT;
		if (end < n)
			break;
	}
	return bytes;
}

/* Does donated granule @g of @f start a run (rather than continue one)? */
static int starts_run(struct compat_bitmap_pool *bp, struct compat_frame *f, unsigned long g)
{
	struct compat_frame *below;

	if (g)
		return !compat_frame_is_known(f, g - 1);
	below = donated_neighbour(bp, f, -1);
	return !below || !compat_frame_is_known(below, compat_frame_granules(&bp->frames) - 1);
}

/* A callback frame is one region; donated memory one per maximal run, as
 * the buddy backend reports it (runs may cross frame edges). */
static void visit_frame(struct compat_frame *f, void *data)
{
	struct bm_visit *v = data;
	unsigned long n = compat_frame_granules(&v->bp->frames);

	if (f->from_callback) {
		v->fn(v->bp->cpool, f->base, compat_bm_frame_size(v->bp), 1, v->data);
		return;
	}
	for (unsigned long g = 0; g < n; g++)
		if (compat_frame_is_known(f, g) && starts_run(v->bp, f, g))
			v->fn(v->bp->cpool, f->base + (g << COMPAT_GRANULE_SHIFT),
			      donated_run(v->bp, f, g), 0, v->data);
}

void compat_bitmap_for_each_region(void *engine, compat_region_fn fn, void *data)
{
	struct compat_bitmap_pool *bp = engine;
	struct bm_visit v = { bp, fn, data };

	if (!compat_bm_lock(bp, "gen_pool_for_each_region"))
		return;
	compat_frames_for_each(&bp->frames, visit_frame, &v);
	/* A chunk kept aside is the program's to release like any other. */
	for (struct compat_frame *f = bp->pending; f; f = f->next_pending)
		fn(bp->cpool, f->base, compat_bm_frame_size(bp), 1, data);
	compat_bm_unlock(bp);
}
