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
 *  - donation: the first donation into a frame adds the WHOLE frame to the
 *    engine and at once allocates all of it as a "hold"; each donation then
 *    frees its part of the hold.  Donations that touch are therefore one
 *    free run of one chunk and serve blocks larger than any one of them,
 *    wherever the buddy could have merged them (inside one frame: buddies
 *    never cross a chunk boundary).  Until the hold is in place the frame is
 *    not in the frame table, and allocation skips chunks the table does not
 *    know, so no allocation can slip into the gap.
 *  - speed: that skip is a chunk filter (modern_pool_alloc_filtered()), not
 *    a wrapper algorithm.  The engine recognises its built-in algorithms by
 *    address and answers them from its per-chunk index in O(log n); it
 *    would have to scan every chunk's bitmap for a wrapper.
 *  - misuse: the engine knows which granules are used but not where blocks
 *    start, so each frame records the order of every live block at its
 *    first granule (frames_internal.h); a free must find exactly its block
 *    there, claimed with compare-and-swap so two racing frees of one block
 *    cannot both succeed.
 * Allocation and free of known memory take only the engine's own lock;
 * growth and donation take the compat pool's lock.
 */
#include <limits.h>
#include <stdlib.h>

#include "../modern/genalloc.h"
#include "../modern/pool_internal.h"
#include "backend_internal.h"
#include "bitmap_internal.h"


/* An error found under the lock, reported once it is dropped (a handler
 * that returns may call back into the pool). */
struct bm_verdict {
	enum genalloc_severity severity;
	enum genalloc_errcode code;
	const char *msg;
};

static void bm_set(struct bm_verdict *v, enum genalloc_severity sev,
		   enum genalloc_errcode code, const char *msg)
{
	v->severity = sev;
	v->code = code;
	v->msg = msg;
}

static void bm_report(const struct compat_bitmap_pool *bp, const struct bm_verdict *v, const char *func,
		      unsigned long addr, unsigned long size)
{
	if (v->code)
		genalloc_report(v->severity, v->code, func, bp->cpool, addr, size, v->msg);
}



/* 2005 rounding: the smallest power of two >= @size, at least 32. */
static int order_of(int size)
{
	int i = 0;

	while ((1L << (COMPAT_GRANULE_SHIFT + i)) < size)
		i++;
	return i;
}


/* ------------------------------------------------------------ chunk filters */

/* Allocation: only frames the table knows (see the top comment). */
static bool bm_known_frame(const struct gen_pool_chunk *chunk, void *data)
{
	struct compat_bitmap_pool *bp = data;

	return compat_frames_lookup(&bp->frames, chunk->start_addr) != NULL;
}

/* The hold: only the chunk just added. */
static bool bm_new_chunk(const struct gen_pool_chunk *chunk, void *data)
{
	const unsigned long *target = data;

	return chunk->start_addr == *target;
}

/* ------------------------------------------------------------ growth */

/*
 * Make the chunk at @f->base a frame (lock held); @f is taken over.  The
 * table slot is secured before the engine hears of the chunk, so nothing can
 * fail after.  Return: 1 if adopted; -1 if refused (in @v, @f freed) or if
 * there was no memory for the slot or the engine's record: then @f is kept
 * aside for the next growth, since the chunk is already the pool's.
 */
static int bm_adopt_chunk(struct compat_bitmap_pool *bp, struct compat_frame *f,
			  struct bm_verdict *v)
{
	unsigned long size = compat_bm_frame_size(bp), chunk = f->base;

	if (chunk > ULONG_MAX - (size - 1))
		bm_set(v, GENALLOC_BUG, GENALLOC_ERANGE,
		       "new chunk wraps past the end of the address space");
	else if (chunk & (size - 1))
		bm_set(v, GENALLOC_BUG, GENALLOC_EMISALIGNED,
		       "new chunk not aligned to the chunk size");
	else if (compat_frames_lookup(&bp->frames, chunk))
		bm_set(v, GENALLOC_BUG, GENALLOC_EOVERLAP, "new chunk overlaps memory the pool has");
	if (v->code) {
		compat_frame_delete(f);
		return -1;
	}
	if (compat_frames_reserve(&bp->frames) || gen_pool_add(bp->engine, chunk, size, -1)) {
		f->next_pending = bp->pending;
		bp->pending = f;
		return -1;
	}
	compat_frames_insert(&bp->frames, f);
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
static struct compat_frame *bm_next_chunk(struct compat_bitmap_pool *bp, int *rc,
					  const char *func)
{
	struct compat_frame *f;

	*rc = -1;
	if (!compat_bm_lock(bp, func))
		return NULL;
	f = bp->pending;
	if (f)
		bp->pending = f->next_pending;
	compat_bm_unlock(bp);
	if (f)
		return f;
	f = compat_frame_new(&bp->frames, 0, 1);
	*rc = -1;
	if (!f)
		return NULL;
	f->base = compat_call_get_new_chunk(bp->cpool, bp);
	if (f->base)
		return f;
	compat_frame_delete(f);
	*rc = 0;
	return NULL;
}

/* Grow by one chunk.  Return: 1 if the pool grew, 0 if the callback had
 * nothing, -1 if there was no memory or its chunk was refused (reported). */
static int bm_grow(struct compat_bitmap_pool *bp, const char *func)
{
	struct bm_verdict v = { 0 };
	struct compat_frame *f;
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
	bm_report(bp, &v, func, chunk, compat_bm_frame_size(bp));
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
	struct compat_frame *f;

	for (;;) {
		addr = modern_pool_alloc_filtered(bp->engine, compat_bm_order_bytes(order),
						  gen_pool_first_fit_order_align, NULL,
						  bm_known_frame, bp);
		if (addr)
			break;
		/* Refused for re-entry (reported): growth would allocate. */
		if (!bp->has_callback || grew < 1 || modern_lock_mine(&bp->engine->lock.word))
			return 0;
		grew = bm_grow(bp, "gen_pool_alloc");
		if (grew < 0)
			return 0;
	}
	f = compat_frames_lookup(&bp->frames, addr);
	atomic_store_explicit(&f->starts[compat_bm_granule_of(f, addr)],
			      (unsigned char)(order + 1), memory_order_release);
	return addr;
}

/* ------------------------------------------------------------ free */

/* Is @addr inside a live block (one starting at or before it)? */
static int bm_inside_live(const struct compat_bitmap_pool *bp, const struct compat_frame *f,
			  unsigned long addr)
{
	for (int k = 0; k <= bp->shift - COMPAT_GRANULE_SHIFT; k++) {
		unsigned long cand = addr & ~(compat_bm_order_bytes(k) - 1);
		unsigned char v = atomic_load_explicit(&f->starts[compat_bm_granule_of(f, cand)],
						       memory_order_acquire);

		if (v && v - 1 >= k)
			return 1;
	}
	return 0;
}

/* Free @addr in known memory: it must be a live block of @order. */
static void bm_free_known(struct compat_bitmap_pool *bp, struct compat_frame *f, unsigned long addr,
			  int order, int size)
{
	struct bm_verdict v = { 0 };

	if (!(addr & (compat_bm_order_bytes(0) - 1))) {
		_Atomic unsigned char *st = &f->starts[compat_bm_granule_of(f, addr)];
		unsigned char cur = atomic_load_explicit(st, memory_order_acquire);

		while (cur == order + 1) {
			if (atomic_compare_exchange_weak_explicit(st, &cur, 0, memory_order_acq_rel,
								  memory_order_acquire)) {
				gen_pool_free(bp->engine, addr, compat_bm_order_bytes(order));
				return;
			}
		}
		if (cur)
			bm_set(&v, GENALLOC_BUG, GENALLOC_ESIZE,
			       "size differs from the allocated size");
	}
	if (!v.code && (addr & (compat_bm_order_bytes(order) - 1)))
		bm_set(&v, GENALLOC_BUG, GENALLOC_EMISALIGNED,
		       "address not aligned to the rounded size");
	else if (!v.code && bm_inside_live(bp, f, addr))
		bm_set(&v, GENALLOC_BUG, GENALLOC_EFOREIGN,
		       "address inside a live block, not its start");
	else if (!v.code)
		bm_set(&v, GENALLOC_BUG, GENALLOC_EDOUBLEFREE, "block is already free");
	bm_report(bp, &v, "gen_pool_free", addr, (unsigned long)size);
}

/* Donated memory becomes free: mark it known first, so that once the engine
 * can hand it out its free is recognised. */
static void bm_release_donation(struct compat_bitmap_pool *bp, struct compat_frame *f,
				unsigned long addr, unsigned long s)
{
	compat_frame_mark_known(f, compat_bm_granule_of(f, addr), s >> COMPAT_GRANULE_SHIFT);
	f->donated_bytes += s;
	bp->donated_bytes += s;
	gen_pool_free(bp->engine, addr, s);
}

/* The first donation into a frame: add the frame held whole (lock held). */
static void bm_donate_new_frame(struct compat_bitmap_pool *bp, unsigned long addr,
				unsigned long s, struct bm_verdict *v)
{
	unsigned long base = addr & ~(compat_bm_frame_size(bp) - 1);
	struct compat_frame *f = NULL;

	if (compat_frames_reserve(&bp->frames) ||
	    !(f = compat_frame_new(&bp->frames, base, 0)) ||
	    gen_pool_add(bp->engine, base, compat_bm_frame_size(bp), -1))
		bm_set(v, GENALLOC_WARN, GENALLOC_EINVAL, "no memory to record the donation");
	/* Nobody else can allocate here yet (bm_known_frame skips it). */
	else if (modern_pool_alloc_filtered(bp->engine, compat_bm_frame_size(bp),
					    gen_pool_first_fit, NULL, bm_new_chunk, &base) != base)
		bm_set(v, GENALLOC_BUG, GENALLOC_ECORRUPT, "engine refused to hold a new chunk");
	if (v->code) {
		compat_frame_delete(f);
		return;
	}
	bm_release_donation(bp, f, addr, s);
	compat_frames_insert(&bp->frames, f);
}

/*
 * Free @addr outside known memory: a donation, unless it overlaps known
 * memory.  Return: 1 if the address became known meanwhile (the caller
 * retries as a free), else 0.
 */
static int bm_donate(struct compat_bitmap_pool *bp, unsigned long addr, int order, int size)
{
	unsigned long s = compat_bm_order_bytes(order);
	struct bm_verdict v = { 0 };
	struct compat_frame *f;
	int known = 0;

	if (!compat_bm_lock(bp, "gen_pool_free"))
		return 0;
	f = compat_frames_lookup(&bp->frames, addr);
	if (f && compat_frame_is_known(f, compat_bm_granule_of(f, addr)))
		known = 1;
	else if (f && compat_frame_any_known(f, compat_bm_granule_of(f, addr), s >> COMPAT_GRANULE_SHIFT))
		bm_set(&v, GENALLOC_BUG, GENALLOC_EOVERLAP,
		       "donated range overlaps memory the pool has");
	else if (f)
		bm_release_donation(bp, f, addr, s);
	else
		bm_donate_new_frame(bp, addr, s, &v);
	compat_bm_unlock(bp);
	bm_report(bp, &v, "gen_pool_free", addr, (unsigned long)size);
	return known;
}

static void bm_free(void *engine, unsigned long addr, int size)
{
	struct compat_bitmap_pool *bp = engine;
	int order = order_of(size);
	unsigned long s = compat_bm_order_bytes(order);
	struct bm_verdict v = { 0 };
	struct compat_frame *f;

	if (addr > ULONG_MAX - (s - 1))
		bm_set(&v, GENALLOC_BUG, GENALLOC_ERANGE,
		       "range wraps past the end of the address space");
	while (!v.code) {
		f = compat_frames_lookup(&bp->frames, addr);
		if (f && compat_frame_is_known(f, compat_bm_granule_of(f, addr))) {
			bm_free_known(bp, f, addr, order, size);
			return;
		}
		if (addr & (s - 1))
			bm_set(&v, GENALLOC_BUG, GENALLOC_EMISALIGNED,
			       "address not aligned to the rounded size");
		else if (!bm_donate(bp, addr, order, size))
			return;
	}
	bm_report(bp, &v, "gen_pool_free", addr, (unsigned long)size);
}

/* ------------------------------------------------------------ inspection */

/* Free the undonated rest of a donated frame (destroy only). */
static void bm_release_hold(struct compat_frame *f, void *data)
{
	struct compat_bitmap_pool *bp = data;
	unsigned long n = compat_frame_granules(&bp->frames), g = 0, end;

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

static int bm_destroy(void *engine)
{
	struct compat_bitmap_pool *bp = engine;
	unsigned long known = bp->obtained_bytes + bp->donated_bytes;
	unsigned long avail = gen_pool_avail(bp->engine);

	if (avail != known) {
		genalloc_report(GENALLOC_BUG, GENALLOC_EBUSY, "gen_pool_destroy", bp->cpool, 0,
				known - avail, "destroying a pool with live blocks");
		return -1;
	}
	compat_frames_for_each(&bp->frames, bm_release_hold, bp);
	gen_pool_destroy(bp->engine);
	compat_frames_destroy(&bp->frames);
	while (bp->pending) {
		struct compat_frame *f = bp->pending;

		bp->pending = f->next_pending;
		compat_frame_delete(f);
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
	if (!bp->engine || compat_frames_init(&bp->frames, shift)) {
		gen_pool_destroy(bp->engine);
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
};
