// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * compat/bitmap_inspect.c - the bitmap backend's checker, statistics,
 * region walk and block walk.
 *
 * The checker's strongest test is a granule-for-granule comparison: from
 * compat's own records alone (live block starts, donated granules) it
 * predicts whether each granule of each frame is used, and compares that
 * with the used and free runs the engine's walk reports
 * (gen_pool_for_each_run()); any difference is corruption on one side or
 * the other.  Everything here reads the engine through its public calls.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "bitmap_pool_internal.h"

static int start_order(const struct legacy_frame *f, unsigned long g)
{
	return compat_bm_start(f, g) - 1;
}

/**
 * struct bm_check - what the checker has seen so far
 * @bp:            the backend
 * @live_bytes:    bytes in live blocks
 * @donated_bytes: donated bytes the frames record
 * @chunks:        engine chunks
 * @msg:           what is wrong, or NULL
 * @live_end:      the granule after the live block the walk is in or past
 * @known:         known granules of the frame the walk is in, so far
 */
struct bm_check {
	struct compat_bitmap_pool *bp;
	unsigned long live_bytes;
	unsigned long donated_bytes;
	unsigned long chunks;
	const char *msg;
	unsigned long live_end;
	unsigned long known;
};

/* A live block of @order at granule @g: aligned, inside the frame, known. */
static const char *check_block(const struct compat_bitmap_pool *bp, const struct legacy_frame *f,
			       unsigned long g, int order)
{
	unsigned long blk = 1UL << order, n = legacy_frame_atoms(bp->frames);

	if (order > bp->shift - COMPAT_GRANULE_SHIFT || (g & (blk - 1)) || g + blk > n)
		return "live block misaligned or past its frame";
	for (unsigned long i = g; i < g + blk; i++)
		if (!compat_frame_is_known(f, i))
			return "live block outside known memory";
	return NULL;
}

/* Every engine chunk must be one frame of the table, whole. */
static void check_chunk(struct gen_pool *engine, struct gen_pool_chunk *chunk, void *data)
{
	struct bm_check *c = data;
	struct compat_bitmap_pool *bp = c->bp;
	struct legacy_frame *f = legacy_frames_lookup(bp->frames, chunk->start_addr);

	(void)engine;
	c->chunks++;
	if (!c->msg && (!f || f->base != chunk->start_addr ||
			chunk->end_addr - chunk->start_addr + 1 != compat_bm_frame_size(bp)))
		c->msg = "engine chunk is not a frame";
}

/* Granule @g of @f, which the engine says is @used. */
static void check_granule(struct bm_check *c, const struct legacy_frame *f, unsigned long g,
			  bool used)
{
	int order = start_order(f, g);

	if (order >= 0 && g < c->live_end)
		c->msg = "live blocks overlap";
	else if (order >= 0 && !(c->msg = check_block(c->bp, f, g, order))) {
		c->live_end = g + (1UL << order);
		c->live_bytes += compat_bm_order_bytes(order);
	}
	c->known += compat_frame_is_known(f, g);
	/* Used: a live block, or held (not donated) memory. */
	if (!c->msg && used != (g < c->live_end || !compat_frame_is_known(f, g)))
		c->msg = "engine bitmap disagrees with compat's records";
}

/* The engine's runs tile each frame from its first granule, in order. */
static int check_run(struct gen_pool *engine, struct gen_pool_chunk *chunk, unsigned long addr,
		     size_t size, bool used, void *data)
{
	struct bm_check *c = data;
	struct legacy_frame *f = legacy_frames_lookup(c->bp->frames, addr);
	unsigned long g = compat_bm_granule_of(f, addr), end = g + (size >> COMPAT_GRANULE_SHIFT);

	(void)engine;
	(void)chunk;
	if (!g) {
		c->live_end = 0;
		c->known = 0;
	}
	for (; g < end && !c->msg; g++)
		check_granule(c, f, g, used);
	if (!c->msg && end == legacy_frame_atoms(c->bp->frames) && !f->from_callback) {
		if (c->known << COMPAT_GRANULE_SHIFT != f->donated_bytes)
			c->msg = "frame's donated bytes disagree with its map";
		c->donated_bytes += f->donated_bytes;
	}
	return c->msg != NULL;
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
	if (!c.msg)
		gen_pool_for_each_run(bp->engine, GEN_POOL_RUNS_ALL, check_run, &c);
	if (!c.msg && c.chunks != bp->frames->count)
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
	const struct compat_bitmap_pool *bp;
	unsigned long granules;
	unsigned long free_bytes;
};

/* Frames are aligned to their size, so a block aligned within its frame
 * is naturally aligned. */
static int largest_in_run(struct gen_pool *engine, struct gen_pool_chunk *chunk,
			  unsigned long addr, size_t size, bool used, void *data)
{
	struct bm_largest *l = data;
	unsigned long a = (addr & (compat_bm_frame_size(l->bp) - 1)) >> COMPAT_GRANULE_SHIFT;
	unsigned long blk = largest_aligned(a, a + (size >> COMPAT_GRANULE_SHIFT),
					    l->bp->shift - COMPAT_GRANULE_SHIFT);

	(void)engine;
	(void)chunk;
	(void)used;
	l->free_bytes += size;
	if (blk > l->granules)
		l->granules = blk;
	return 0;
}

void compat_bitmap_stats(void *engine, struct compat_gen_pool_stats *st)
{
	struct compat_bitmap_pool *bp = engine;
	struct bm_largest l = { .bp = bp };
	struct gen_pool_stats ms;

	if (!compat_bm_lock(bp, "gen_pool_stats")) {
		*st = (struct compat_gen_pool_stats){ 0 };
		return;
	}
	gen_pool_stats(bp->engine, &ms);
	/* Allocations and frees hold the engine's lock, not ours: the walk
	 * holds it too, so the free bytes and the largest block come from one
	 * state of the pool. */
	gen_pool_for_each_run(bp->engine, GEN_POOL_RUNS_FREE, largest_in_run, &l);
	st->obtained_bytes = bp->obtained_bytes;
	st->donated_bytes = bp->donated_bytes;
	st->free_bytes = l.free_bytes;
	st->largest_free = l.granules << COMPAT_GRANULE_SHIFT;
	st->metadata_bytes = sizeof(*bp) + ms.metadata_bytes + bp->frames->bytes;
	for (struct legacy_frame *f = bp->pending; f; f = f->next_pending)
		st->metadata_bytes += legacy_frame_bytes(bp->frames, f);
	compat_bm_unlock(bp);
}

struct bm_visit {
	struct compat_bitmap_pool *bp;
	compat_region_fn fn;
	void *data;
};

/* The donated frame right above (@dir 1) or below (@dir -1) @f, if any. */
static struct legacy_frame *donated_neighbour(struct compat_bitmap_pool *bp,
					      const struct legacy_frame *f, int dir)
{
	unsigned long size = compat_bm_frame_size(bp);
	struct legacy_frame *n;

	if (dir < 0 ? f->base == 0 : f->base > ULONG_MAX - size)
		return NULL;
	n = legacy_frames_lookup(bp->frames, dir < 0 ? f->base - size : f->base + size);
	return n && !n->from_callback ? n : NULL;
}

/* Bytes of donated memory from granule @g of @f on, across frame edges. */
static unsigned long donated_run(struct compat_bitmap_pool *bp, struct legacy_frame *f,
				 unsigned long g)
{
	unsigned long n = legacy_frame_atoms(bp->frames), bytes = 0, end;

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
static int starts_run(struct compat_bitmap_pool *bp, struct legacy_frame *f, unsigned long g)
{
	struct legacy_frame *below;

	if (g)
		return !compat_frame_is_known(f, g - 1);
	below = donated_neighbour(bp, f, -1);
	return !below || !compat_frame_is_known(below, legacy_frame_atoms(bp->frames) - 1);
}

/* A callback frame is one region; donated memory one per maximal run, as
 * the buddy backend reports it (runs may cross frame edges). */
static void visit_frame(struct legacy_frame *f, struct bm_visit *v)
{
	unsigned long n = legacy_frame_atoms(v->bp->frames);

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
	struct legacy_frame *f;

	if (!compat_bm_lock(bp, "gen_pool_for_each_region"))
		return;
	for (unsigned long i = 0; (f = legacy_frames_next(bp->frames, &i));)
		visit_frame(f, &v);
	/* A chunk kept aside is the program's to release like any other. */
	for (f = bp->pending; f; f = f->next_pending)
		fn(bp->cpool, f->base, compat_bm_frame_size(bp), 1, data);
	compat_bm_unlock(bp);
}

/*
 * The blocks of granules [@g, @end) of @f, all known: compat's own start
 * records say where each live block is and how large; every other known
 * granule is free (compat_bitmap_check() holds the engine to that).
 */
static int walk_stretch(struct compat_bitmap_pool *bp, struct legacy_frame *f, unsigned long g,
			unsigned long end, compat_block_fn fn, void *data)
{
	unsigned long chunk = f->base + (g << COMPAT_GRANULE_SHIFT);
	unsigned long size = (end - g) << COMPAT_GRANULE_SHIFT, n;
	int used, rc;

	for (; g < end; g += n) {
		used = compat_bm_start(f, g) != 0;
		if (used)
			n = 1UL << start_order(f, g);
		else
			for (n = 1; g + n < end && !compat_bm_start(f, g + n); n++)
				;
		rc = fn(bp->cpool, chunk, size, f->base + (g << COMPAT_GRANULE_SHIFT),
			n << COMPAT_GRANULE_SHIFT, used, data);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Frames in address order, each cut into its stretches of known memory,
 * as the buddy backend's walk does (a chunk kept aside for want of memory
 * is not yet the pool's and is not visited).
 */
int compat_bitmap_for_each_block(void *engine, compat_block_fn fn, void *data,
				 const char *caller)
{
	struct compat_bitmap_pool *bp = engine;
	unsigned long atoms = legacy_frame_atoms(bp->frames), g, end;
	struct legacy_frame **v;
	size_t n;
	int rc;

	if (!compat_bm_lock(bp, caller))
		return -EDEADLK;
	v = legacy_frames_sorted(bp->frames, &n, &rc);
	for (size_t k = 0; k < n && !rc; k++)
		for (g = 0; g < atoms && !rc; g = end) {
			for (end = g; end < atoms && compat_frame_is_known(v[k], end); end++)
				;
			if (end == g)
				end = g + 1;
			else
				rc = walk_stretch(bp, v[k], g, end, fn, data);
		}
	compat_bm_unlock(bp);
	free(v);
	return rc;
}
