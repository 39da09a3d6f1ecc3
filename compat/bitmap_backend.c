// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * compat/bitmap_backend.c - the bitmap backend: the 2005 contract on the
 * modern engine (modern/genalloc.h).
 *
 * How each 2005 promise is kept:
 *  - power-of-two sizes from 32 bytes, natural alignment: the engine's
 *    granule is 32 bytes, every request is rounded up to a power of two
 *    before it reaches the engine, and the algorithm is
 *    gen_pool_first_fit_order_align.  That algorithm aligns relative to the
 *    chunk start, and every chunk here is a "frame": 2^max_chunk_shift bytes
 *    aligned to that size, so relative alignment is natural alignment.
 *  - growth: when the engine finds no room, get_new_chunk is called with no
 *    lock held, its chunk becomes a frame, and the request is retried.  The
 *    frame is allocated before the callback is asked; a chunk the engine
 *    then has no memory to take is kept aside for the next growth, so no
 *    chunk is ever lost.
 *  - every chunk joins the engine wholly allocated (gen_pool_add_used()),
 *    goes into the frame table, and only then is freed, in whole or in
 *    part: nothing is ever handed out of a chunk the table does not know.
 *  - donation: the first donation into a frame adds the WHOLE frame that
 *    way and frees only the donated part; the rest stays a "hold".  Each
 *    later donation frees its part of the hold.  Donations that touch are
 *    therefore one free run of one chunk and serve blocks larger than any
 *    one of them, wherever the buddy could have merged them (inside one
 *    frame: buddies never cross a chunk boundary).
 *  - speed: requests go to the engine's built-in algorithm as they are,
 *    which its per-chunk index answers in O(log n).
 *  - misuse: the engine knows which granules are used but not where blocks
 *    start, so each frame records the order of every live block at its
 *    first granule (the atom bytes of the 2005 frame table,
 *    legacy/frames_internal.h); a free must find exactly its block
 *    there, claimed with compare-and-swap so two racing frees of one block
 *    cannot both succeed.
 * Allocation and free of known memory take only the engine's own lock;
 * growth and donation take the compat pool's lock.
 */
#include <stdlib.h>

#include "../legacy/contract_internal.h"
#include "../modern/genalloc.h"
#include "backend_internal.h"
#include "bitmap_pool_internal.h"

/* 2005 rounding: the smallest power of two >= @size, at least 32. */
static int order_of(int size)
{
	int i = 0;

	while ((1L << (COMPAT_GRANULE_SHIFT + i)) < size)
		i++;
	return i;
}


/* ------------------------------------------------------------ growth */

/*
 * Make the chunk at @f->base a frame (lock held); @f is taken over.  The
 * table slot is secured before the engine hears of the chunk, so nothing can
 * fail after; the chunk joins allocated and is freed once the table has it.
 * Return: 1 if adopted; -1 if refused (in @v, @f freed) or if there was no
 * memory for the slot or the engine's record: then @f is kept aside for the
 * next growth, since the chunk is already the pool's.
 */
static int bm_adopt_chunk(struct compat_bitmap_pool *bp, struct legacy_frame *f,
			  struct legacy_verdict *v)
{
	unsigned long size = compat_bm_frame_size(bp), chunk = f->base;
	int room;

	v->what = legacy_judge_chunk(chunk, size, legacy_frames_lookup(bp->frames, chunk) != NULL);
	if (v->what) {
		legacy_frame_free(f);
		return -1;
	}
	room = !legacy_frames_reserve(bp->frames);
	if (!room || gen_pool_add_used(bp->engine, chunk, size, -1)) {
		if (room)
			legacy_frames_unreserve(bp->frames);
		f->next_pending = bp->pending;
		bp->pending = f;
		return -1;
	}
	legacy_frames_insert(bp->frames, f);
	gen_pool_free(bp->engine, chunk, size);
	bp->obtained_bytes += size;
	return 1;
}

/*
 * The frame of the next chunk: one kept aside, or a new one whose chunk
 * get_new_chunk then gives (no lock held, as 2005).  The frame is allocated
 * before the callback is asked, so that a chunk is never obtained and then
 * lost for want of its record.  Return: the frame, or NULL with *@rc 0
 * (the callback had nothing) or -1 (no memory: the callback was not asked).
 */
static struct legacy_frame *bm_next_chunk(struct compat_bitmap_pool *bp, int *rc,
					  const char *func)
{
	struct legacy_frame *f;

	*rc = -1;
	if (!compat_bm_lock(bp, func))
		return NULL;
	f = bp->pending;
	if (f)
		bp->pending = f->next_pending;
	else	/* under the lock: its colour reads the table */
		f = legacy_frame_new(bp->frames, 0, 1, 0);
	compat_bm_unlock(bp);
	if (f && f->base)
		return f;
	*rc = -1;
	if (!f)
		return NULL;
	f->base = compat_call_get_new_chunk(bp->cpool, bp);
	if (f->base)
		return f;
	legacy_frame_free(f);
	*rc = 0;
	return NULL;
}

/* Grow by one chunk.  Return: 1 if the pool grew, 0 if the callback had
 * nothing, -1 if there was no memory or its chunk was refused (reported). */
static int bm_grow(struct compat_bitmap_pool *bp, const char *func)
{
	struct legacy_verdict v = { LEGACY_FINE };
	struct legacy_frame *f;
	unsigned long chunk;
	int rc;

	f = bm_next_chunk(bp, &rc, func);
	if (!f)
		return rc;
	chunk = f->base;
	/* bm_next_chunk() took it: this thread cannot be holding it now. */
	(void)compat_bm_lock(bp, func);
	rc = bm_adopt_chunk(bp, f, &v);
	compat_bm_unlock(bp);
	legacy_report(&v, func, bp->cpool, chunk, compat_bm_frame_size(bp));
	return rc;
}

/* ------------------------------------------------------------ alloc */

/*
 * Retry after every chunk the callback gives (another thread may take it
 * first).  When it gives nothing, try once more anyway: the callback, or
 * another thread meanwhile, may have freed or donated memory, which the
 * buddy backend would use too.
 */
static unsigned long bm_alloc(void *engine, int size)
{
	struct compat_bitmap_pool *bp = engine;
	int order = order_of(size), grew = 1;
	unsigned long addr;
	struct legacy_frame *f;

	for (;;) {
		addr = gen_pool_alloc_algo(bp->engine, compat_bm_order_bytes(order),
					   gen_pool_first_fit_order_align, NULL);
		if (addr)
			break;
		/* Refused for re-entry (reported): growth would allocate. */
		if (!bp->has_callback || grew < 1 || gen_pool_held_by_caller(bp->engine))
			return 0;
		grew = bm_grow(bp, "gen_pool_alloc");
		if (grew < 0)
			return 0;
	}
	f = legacy_frames_lookup(bp->frames, addr);
	compat_bm_set_start(f, compat_bm_granule_of(f, addr), order + 1);
	return addr;
}

/* ------------------------------------------------------------ free */

/* Is @addr inside a live block (one starting at or before it)? */
static int bm_inside_live(const struct compat_bitmap_pool *bp, const struct legacy_frame *f,
			  unsigned long addr)
{
	for (int k = 0; k <= bp->shift - COMPAT_GRANULE_SHIFT; k++) {
		unsigned long cand = addr & ~(compat_bm_order_bytes(k) - 1);
		int v = compat_bm_start(f, compat_bm_granule_of(f, cand));

		if (v && v - 1 >= k)
			return 1;
	}
	return 0;
}

/* Free @addr in known memory: it must be a live block of @order. */
static void bm_free_known(struct compat_bitmap_pool *bp, struct legacy_frame *f, unsigned long addr,
			  int order, int size)
{
	struct legacy_verdict v = { LEGACY_FINE };

	if (!(addr & (compat_bm_order_bytes(0) - 1))) {
		int seen = compat_bm_take_start(f, compat_bm_granule_of(f, addr), order + 1);

		if (seen == order + 1) {
			gen_pool_free(bp->engine, addr, compat_bm_order_bytes(order));
			return;
		}
		if (seen)
			v.what = LEGACY_FREE_WRONG_SIZE;
	}
	if (!v.what && (addr & (compat_bm_order_bytes(order) - 1)))
		v.what = LEGACY_FREE_MISALIGNED;
	else if (!v.what && bm_inside_live(bp, f, addr))
		v.what = LEGACY_FREE_INSIDE_LIVE;
	else if (!v.what)
		v.what = LEGACY_FREE_ALREADY_FREE;
	legacy_report(&v, "gen_pool_free", bp->cpool, addr, (unsigned long)size);
}

/* Donated memory becomes free: mark it known first, so that once the engine
 * can hand it out its free is recognised. */
static void bm_release_donation(struct compat_bitmap_pool *bp, struct legacy_frame *f,
				unsigned long addr, unsigned long s)
{
	compat_frame_mark_known(f, compat_bm_granule_of(f, addr), s >> COMPAT_GRANULE_SHIFT);
	f->donated_bytes += s;
	bp->donated_bytes += s;
	gen_pool_free(bp->engine, addr, s);
}

/* The first donation into a frame: add the frame held whole, record it,
 * then free the donated part (lock held). */
static void bm_donate_new_frame(struct compat_bitmap_pool *bp, unsigned long addr,
				unsigned long s, struct legacy_verdict *v)
{
	unsigned long base = addr & ~(compat_bm_frame_size(bp) - 1);
	struct legacy_frame *f;

	if (legacy_frames_reserve(bp->frames)) {
		v->what = LEGACY_DONATION_NO_MEMORY;
		return;
	}
	f = legacy_frame_new(bp->frames, base, 0, 1);
	if (!f || gen_pool_add_used(bp->engine, base, compat_bm_frame_size(bp), -1)) {
		legacy_frames_unreserve(bp->frames);
		legacy_frame_free(f);
		v->what = LEGACY_DONATION_NO_MEMORY;
		return;
	}
	legacy_frames_insert(bp->frames, f);
	bm_release_donation(bp, f, addr, s);
}

/*
 * Free @addr outside known memory: a donation, unless it overlaps known
 * memory.  Return: 1 if the address became known meanwhile (the caller
 * retries as a free), else 0.
 */
static int bm_donate(struct compat_bitmap_pool *bp, unsigned long addr, int order, int size)
{
	unsigned long s = compat_bm_order_bytes(order);
	struct legacy_verdict v = { LEGACY_FINE };
	struct legacy_frame *f;
	int known = 0;

	if (!compat_bm_lock(bp, "gen_pool_free"))
		return 0;
	f = legacy_frames_lookup(bp->frames, addr);
	if (f && compat_frame_is_known(f, compat_bm_granule_of(f, addr)))
		known = 1;
	else if (f && compat_frame_any_known(f, compat_bm_granule_of(f, addr), s >> COMPAT_GRANULE_SHIFT))
		v.what = LEGACY_DONATION_OVERLAPS;
	else if (f)
		bm_release_donation(bp, f, addr, s);
	else
		bm_donate_new_frame(bp, addr, s, &v);
	compat_bm_unlock(bp);
	legacy_report(&v, "gen_pool_free", bp->cpool, addr, (unsigned long)size);
	return known;
}

static void bm_free(void *engine, unsigned long addr, int size)
{
	struct compat_bitmap_pool *bp = engine;
	int order = order_of(size);
	unsigned long s = compat_bm_order_bytes(order);
	struct legacy_verdict v = { LEGACY_FINE };
	struct legacy_frame *f;

	if (legacy_range_wraps(addr, s))
		v.what = LEGACY_FREE_WRAPS;
	while (!v.what) {
		f = legacy_frames_lookup(bp->frames, addr);
		if (f && compat_frame_is_known(f, compat_bm_granule_of(f, addr))) {
			bm_free_known(bp, f, addr, order, size);
			return;
		}
		if (addr & (s - 1))
			v.what = LEGACY_FREE_MISALIGNED;
		else if (!bm_donate(bp, addr, order, size))
			return;
	}
	legacy_report(&v, "gen_pool_free", bp->cpool, addr, (unsigned long)size);
}

/* ------------------------------------------------------------ inspection */

/* Free the undonated rest of a donated frame (destroy only). */
static void bm_release_hold(struct compat_bitmap_pool *bp, const struct legacy_frame *f)
{
	unsigned long n = legacy_frame_atoms(bp->frames), g = 0, end;

	if (f->from_callback)
		return;
	while (g < n) {
		if (compat_frame_is_known(f, g)) {
			g++;
			continue;
		}
		for (end = g; end < n && !compat_frame_is_known(f, end); end++)
			;
		gen_pool_free(bp->engine, f->base + (g << COMPAT_GRANULE_SHIFT),
			      (end - g) << COMPAT_GRANULE_SHIFT);
		g = end;
	}
}

/* Each live block into @data, a struct legacy_live. */
static int count_live(void *cpool, unsigned long chunk, unsigned long chunk_size,
		      unsigned long addr, unsigned long size, int used, void *data)
{
	(void)cpool;
	(void)chunk;
	(void)chunk_size;
	if (used)
		legacy_live_add(data, addr, size);
	return 0;
}

static int bm_destroy(void *engine)
{
	struct compat_bitmap_pool *bp = engine;
	unsigned long known = bp->obtained_bytes + bp->donated_bytes;
	unsigned long avail = gen_pool_avail(bp->engine);
	struct legacy_frame *f;

	if (avail != known) {
		struct legacy_live live = { 0 };

		compat_bitmap_for_each_block(bp, count_live, &live, "gen_pool_destroy");
		legacy_report_busy(bp->cpool, known - avail, &live);
		return -1;
	}
	for (unsigned long i = 0; (f = legacy_frames_next(bp->frames, &i));)
		bm_release_hold(bp, f);
	gen_pool_destroy(bp->engine);
	legacy_frames_destroy(bp->frames);
	while (bp->pending) {
		f = bp->pending;
		bp->pending = f->next_pending;
		legacy_frame_free(f);
	}
	free(bp);
	return 0;
}

static void *bm_create(void *cpool, pthread_mutex_t *lock, int nr_chunks, int shift,
		       int has_callback)
{
	struct compat_bitmap_pool *bp = calloc(1, sizeof(*bp));

	(void)lock;	/* the backend has its own, which refuses re-entry */
	if (!bp)
		return NULL;
	bp->cpool = cpool;
	atomic_init(&bp->lock, 0);
	bp->shift = shift;
	bp->has_callback = has_callback;
	bp->engine = gen_pool_create(COMPAT_GRANULE_SHIFT, -1);
	bp->frames = legacy_frames_create(shift);
	if (!bp->engine || !bp->frames) {
		gen_pool_destroy(bp->engine);
		legacy_frames_destroy(bp->frames);
		free(bp);
		return NULL;
	}
	/* Every chunk then joins the engine with memory for its order hints
	 * (a big chunk's, modern/orderhint.c): allocating from known memory
	 * needs no memory. */
	gen_pool_set_algo(bp->engine, gen_pool_first_fit_order_align, NULL);
	for (int i = 0; i < nr_chunks; i++)
		if (bm_grow(bp, "alloc_gen_pool") < 1)
			break;
	return bp;
}

const struct compat_backend_ops compat_bitmap_ops = {
	.name = "bitmap",
	.create = bm_create,
	.destroy = bm_destroy,
	.alloc = bm_alloc,
	.free = bm_free,
	.check = compat_bitmap_check,
	.stats = compat_bitmap_stats,
	.for_each_region = compat_bitmap_for_each_region,
	.for_each_block = compat_bitmap_for_each_block,
};
