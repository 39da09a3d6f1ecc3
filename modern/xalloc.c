// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/xalloc.c - gen_pool_xalloc(): a block placed under address
 * constraints (alignment with a phase, a window it must not cross, the
 * lowest and the highest address), at a defined place.
 *
 * WHERE THE BLOCK GOES
 *   The chunks in gen_pool_alloc()'s order, newest first; in the first
 *   chunk that has room, the lowest granule boundary p whose block
 *   [addr, addr + rounded size) is free and meets every constraint.  In a
 *   chunk the constraints become, in granules (struct xframe): a lowest
 *   start lo (minaddr), a highest end limit (maxaddr and the chunk's end),
 *   a start grid p = t mod (mask + 1) (align and phase, on the absolute
 *   address), and the window test of nocross, also on the absolute address.
 *
 * WHY ONE RETRY PER RUN IS ENOUGH
 *   The starts the grid allows form an arithmetic progression of
 *   addresses whose step and the nocross window are both powers of two: so
 *   the first start in every window lies at the same distance from the
 *   window's beginning (or, for a step beyond the window, every start at
 *   the same distance within its own).  A start whose block crosses its
 *   window is therefore followed by the first start of the next window,
 *   and if that one crosses too, every later one does: the chunk has no
 *   room.  next_start() gives the lowest valid start at or after a bit in
 *   O(1), and a free run holds a block exactly when its first valid start
 *   leaves room before the run's end.
 *
 * COST
 *   Indexed mode: the run through lo, then the rest of lo's block, then
 *   only the blocks of 256 granules in which a run of nr granules starts,
 *   found by the run index's tree (modern_index_next_block_ge()), each run
 *   tried once - what an aligned first fit visits.  Lock-free mode: the
 *   bitmap from lo, a word at a time as the kernel's algorithms read it,
 *   claimed with compare-and-swap; no lock and no memory, so a signal
 *   handler may call it.  No memory of its own in either mode.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>

#include "bitmap_internal.h"
#include "chunkdir_internal.h"
#include "chunklist_internal.h"
#include "import_internal.h"
#include "index_state_internal.h"
#include "lock_internal.h"
#include "pool_internal.h"
#include "reentry_internal.h"

#define NONE MODERN_INDEX_NONE

/**
 * struct xframe - one request's constraints in one chunk's granules
 * @lo:      lowest start bit
 * @limit:   a block must end at or below this bit
 * @mask:    the start grid: p & @mask == @t (@mask 0: every bit)
 * @t:       the grid's residue
 * @nr:      granules wanted
 * @cs:      the chunk's first address
 * @order:   the pool's min_alloc_order
 * @nocross: the window in bytes, or 0
 * @bytes:   the rounded size in bytes
 */
struct xframe {
	unsigned long lo, limit, mask, t, nr, cs;
	int order;
	unsigned long nocross, bytes;
};

static bool xalloc_refused(struct gen_pool *pool, size_t size,
			   const struct gen_pool_constraints *c)
{
	/* Each refusal names the member at fault, with its value where the
	 * line can carry it, and how to mend it. */
	struct genalloc_error e = { .severity = GENALLOC_WARN, .code = GENALLOC_EINVAL,
				    .func = "gen_pool_xalloc", .pool = pool, .size = size };
	unsigned long rounded, g = modern_pool_granule(pool);

	if (!c)
		return false;
	if (c->align & (c->align - 1)) {
		e.msg = "align is neither 0 nor a power of two";
		e.arg = "align";
		e.arg_value = (long)c->align;
		e.fix = "pass a struct gen_pool_constraints whose align is 0 or a power of two";
	} else if (c->nocross & (c->nocross - 1)) {
		e.msg = "nocross is neither 0 nor a power of two";
		e.arg = "nocross";
		e.arg_value = (long)c->nocross;
		e.fix = "pass a struct gen_pool_constraints whose nocross is 0 or a power of two";
	} else if (c->align ? c->phase >= c->align : c->phase != 0) {
		e.msg = c->align ? "phase is not below align" : "phase is not 0 with align 0";
		e.arg = "phase";
		e.arg_value = (long)c->phase;
		e.fix = "pass a phase below align (the remainder addr % align), or 0 when align is 0";
	} else if (c->maxaddr && c->minaddr >= c->maxaddr) {
		/* The address shown is minaddr. */
		e.msg = "minaddr is not below maxaddr";
		e.addr = c->minaddr;
		e.fix = "pass a maxaddr above minaddr, or maxaddr 0 for no upper limit";
	} else if (c->nocross && size) {
		/* Sizes that round past the address space are too large too. */
		rounded = (size - 1) | (g - 1);
		if (rounded >= c->nocross) {
			e.msg = "the size rounded up to whole granules is larger than nocross";
			e.fix = "pass a nocross of 0 or at least the rounded size, or allocate less";
		}
	}
	if (!e.msg)
		return false;
	if (e.arg)
		e.size = 0;	/* the line shows the member instead */
	genalloc_report_error(&e);
	return true;
}

/* @c (not NULL) in @chunk's granules; false when no granule boundary of the
 * chunk can start the block. */
static bool frame_of(const struct gen_pool *pool, const struct gen_pool_chunk *chunk,
		     const struct gen_pool_constraints *c, unsigned long nr, struct xframe *f)
{
	int order = pool->min_alloc_order;
	unsigned long g = 1UL << order, cs = chunk->start_addr, d;

	*f = (struct xframe){ .limit = chunk->nbits, .nr = nr, .cs = cs, .order = order,
			      .nocross = c->nocross, .bytes = nr << order };
	if (c->minaddr > cs) {
		d = c->minaddr - cs;
		f->lo = (d >> order) + ((d & (g - 1)) != 0);
	}
	if (c->maxaddr) {
		if (c->maxaddr <= cs)
			return false;
		d = (c->maxaddr - cs) >> order;
		f->limit = d < f->limit ? d : f->limit;
	}
	if (f->limit < nr || f->lo > f->limit - nr)
		return false;
	if (c->align > g) {
		/* (cs + p * g) % align == phase: p * g == phase - cs (mod align). */
		d = (c->phase - cs) & (c->align - 1);
		if (d & (g - 1))
			return false;
		f->mask = (c->align >> order) - 1;
		f->t = d >> order;
	} else if (c->align && (cs & (c->align - 1)) != c->phase) {
		/* Every boundary of the chunk has the chunk's own remainder. */
		return false;
	}
	return true;
}

/* Does the block at bit @p cross a window boundary?  @p + nr <= limit. */
static bool crosses(const struct xframe *f, unsigned long p)
{
	unsigned long a = f->cs + (p << f->order);

	return f->nocross && ((a ^ (a + f->bytes - 1)) & ~(f->nocross - 1));
}

/* The first grid start at or after @p whose block ends by the limit. */
static unsigned long grid_start(const struct xframe *f, unsigned long p)
{
	unsigned long a = p + ((f->t - p) & f->mask);

	return a < p || a > f->limit - f->nr ? NONE : a;
}

/*
 * The lowest start at or after bit @p that meets every constraint but the
 * block's being free, or NONE; NONE also when no start from there on can
 * (WHY ONE RETRY PER RUN IS ENOUGH above), so the caller stops.
 */
static unsigned long next_start(const struct xframe *f, unsigned long p)
{
	unsigned long a = grid_start(f, p), w, d;

	if (a == NONE || !crosses(f, a))
		return a;
	w = ((f->cs + (a << f->order)) | (f->nocross - 1)) + 1;
	if (!w)
		return NONE;	/* the last window of the address space */
	d = w - f->cs;
	a = grid_start(f, (d >> f->order) + ((d & ((1UL << f->order) - 1)) != 0));
	return a == NONE || crosses(f, a) ? NONE : a;
}

/* The block in the free run [@s, @e), or NONE; *@stop when no later run
 * can hold one either. */
static unsigned long try_run(const struct xframe *f, unsigned long s, unsigned long e, bool *stop)
{
	unsigned long a;

	s = s > f->lo ? s : f->lo;
	e = e < f->limit ? e : f->limit;
	if (s >= e || e - s < f->nr)
		return NONE;
	a = next_start(f, s);
	if (a == NONE) {
		*stop = true;
		return NONE;
	}
	return a <= e - f->nr ? a : NONE;
}

/* The lowest block at or after bit @p, from the bare bitmap (lock-free
 * mode, and chunks without an index). */
static unsigned long scan_chunk(const unsigned long *map, const struct xframe *f, unsigned long p)
{
	unsigned long q;

	for (;;) {
		p = next_start(f, p);
		if (p == NONE)
			return NONE;
		q = modern_find_next_bit(map, p + f->nr, p);
		if (q >= p + f->nr)
			return p;
		p = modern_find_next_zero_bit(map, f->limit, q + 1);
		if (p >= f->limit)
			return NONE;
	}
}

/*
 * The block in a run that starts in block @b at or after bit @from (runs
 * through @from that began before it are the caller's).  *@run_end
 * receives the end of the block's run.
 */
static unsigned long walk_block(const struct modern_index *ix, const unsigned long *map,
				const struct xframe *f, unsigned long b, unsigned long from,
				unsigned long *run_end, bool *stop)
{
	unsigned long end = (b + 1) << BLOCK_SHIFT, p = from, e, r;

	for (;;) {
		p = free_in_block(ix, map, p);
		if (p >= end)
			return NONE;
		if (p > f->limit - f->nr) {
			*stop = true;
			return NONE;
		}
		e = used_in_block(ix, map, p);
		if (e >= end)
			e = next_used(ix, map, end);
		r = try_run(f, p, e, stop);
		if (r != NONE) {
			*run_end = e;
			return r;
		}
		if (*stop || e >= end)
			return NONE;
		p = e;
	}
}

/* The lowest block through the run index (see COST above). */
static unsigned long index_search(const struct modern_index *ix, const unsigned long *map,
				  const struct xframe *f, unsigned long *run_end)
{
	unsigned long from = f->lo, b, first, r;
	bool stop = false;

	/* The run through lo, which may have begun in an earlier block. */
	if (!bit_used(map, from)) {
		*run_end = next_used(ix, map, from);
		r = try_run(f, from, *run_end, &stop);
		if (r != NONE || stop)
			return r;
		from = *run_end;
	}
	if (from >= ix->nbits)
		return NONE;
	b = from >> BLOCK_SHIFT;
	r = walk_block(ix, map, f, b, from, run_end, &stop);
	/* Then only the blocks where a run long enough starts. */
	while (r == NONE && !stop) {
		b = modern_index_next_block_ge(ix, b, f->nr);
		if (b == NONE)
			break;
		first = b << BLOCK_SHIFT;
		if (first > f->limit - f->nr)
			break;
		from = first && !bit_used(map, first - 1) ? used_in_block(ix, map, first) : first;
		r = walk_block(ix, map, f, b, from, run_end, &stop);
	}
	return r;
}

/* No constraint: every boundary of the chunk, up to its end. */
static const struct gen_pool_constraints none;

/* Indexed mode, under the pool's lock: the newest chunk with room. */
static unsigned long xalloc_indexed(struct gen_pool *pool, size_t size, unsigned long nr,
				    const struct gen_pool_constraints *c)
{
	struct gen_pool_chunk *chunk;
	unsigned long bit = NONE, run_end = NONE;
	struct xframe f;
	size_t slot;

	if (!modern_lock_acquire(&pool->lock)) {
		modern_refuse_reentry(pool, "gen_pool_xalloc", 0, size);
		return 0;
	}
	slot = modern_dir_count(pool->dir);
	while (slot-- > 0) {
		slot = modern_dir_prev_fit(pool->dir, slot, nr);
		if (slot == MODERN_DIR_NONE)
			break;
		chunk = modern_dir_chunk(pool->dir, slot);
		if (!frame_of(pool, chunk, c, nr, &f))
			continue;
		run_end = NONE;
		bit = chunk->index ? index_search(chunk->index, chunk->bits, &f, &run_end)
				   : scan_chunk(chunk->bits, &f, f.lo);
		if (bit != NONE)
			break;
	}
	if (bit == NONE) {
		modern_lock_release(&pool->lock);
		return 0;
	}
	modern_bitmap_set_excl(chunk->bits, bit, nr);
	if (chunk->index && run_end != NONE)
		modern_index_claim_within(chunk->index, chunk->bits, bit, nr, run_end);
	else if (chunk->index)
		modern_index_update(chunk->index, chunk->bits, bit, nr);
	modern_dir_refresh_chunk(pool->dir, slot, chunk);
	bit = modern_pool_hand_out(pool, chunk, bit, nr, NULL, true);
	modern_lock_release(&pool->lock);
	return bit;
}

/* Lock-free mode: the chunk list, the bitmap and compare-and-swap. */
static unsigned long xalloc_lockless(struct gen_pool *pool, unsigned long nr,
				     const struct gen_pool_constraints *c)
{
	struct gen_pool_chunk *chunk;
	unsigned long p, remain;
	struct xframe f;

	for (chunk = modern_first_chunk(pool); chunk; chunk = chunk->next_chunk) {
		if (!frame_of(pool, chunk, c, nr, &f))
			continue;
		for (p = f.lo;; ) {
			p = scan_chunk(chunk->bits, &f, p);
			if (p == NONE)
				break;
			remain = modern_bitmap_set_ll(chunk->bits, p, nr);
			if (!remain)
				return modern_pool_hand_out(pool, chunk, p, nr, NULL, false);
			/* Another thread took part of it: look again from here. */
			modern_bitmap_clear_ll(chunk->bits, p, nr - remain);
		}
	}
	return 0;
}

static unsigned long xalloc_search(struct gen_pool *pool, size_t size,
				   const struct gen_pool_constraints *c)
{
	int order = pool->min_alloc_order;
	unsigned long last, nr;

	/* gen_pool_alloc()'s rounding, and its quiet refusals. */
	last = (size - 1) >> order;
	if (last == ULONG_MAX >> order || last >= UINT_MAX)
		return 0;
	nr = last + 1;
	if (!c)
		c = &none;
	return pool->lockless ? xalloc_lockless(pool, nr, c) : xalloc_indexed(pool, size, nr, c);
}

/*
 * No room: a pool that imports asks for a span long enough to hold the
 * block under @c wherever it lies (modern/import.c), adds it and searches
 * again, as alloc_imported() in pool.c does.  The span needs room to reach the phase, and to start a
 * window; minaddr and maxaddr depend on where it lies, which only the
 * import knows.  A span one rounded size longer than the block holds it
 * without crossing: at most one window boundary falls within it (else a
 * whole window does), and one side of it keeps the block's granules
 * whole; so a nocross of 4 GiB asks for no more than a small one.
 */
static MODERN_NOINLINE unsigned long xalloc_imported(struct gen_pool *pool, size_t size,
						     const struct gen_pool_constraints *c)
{
	unsigned long g = modern_pool_granule(pool), addr = 0;
	struct modern_import_grant span;
	size_t slack = 0, rsize;
	bool added, kept;

	if (c && c->align > g)
		slack = modern_import_add_sat(slack, c->align - g);
	if (c && c->nocross) {
		rsize = ((size - 1) | (g - 1)) + 1;
		slack = modern_import_add_sat(slack, c->nocross - g < rsize ? c->nocross - g : rsize);
	}
	if (!size || (c && slack == 0 && (c->align > g || c->nocross > g)))
		return 0;
	do {
		if (!modern_import_get(pool, size, slack, &span))
			return 0;
		added = !modern_gen_pool_add(pool, span.addr, span.len, -1);
		if (added)
			addr = xalloc_search(pool, size, c);
		kept = modern_import_done(pool, &span, added);
	} while (!addr && kept);	/* other threads took it first */
	return addr;
}

/**
 * gen_pool_xalloc() - allocate under address constraints
 * @pool: the pool
 * @size: bytes
 * @c:    the constraints, or NULL
 *
 * Return: the address, or 0 (see genalloc.h).
 */
unsigned long modern_gen_pool_xalloc(struct gen_pool *pool, size_t size,
				     const struct gen_pool_constraints *c)
{
	unsigned long addr;

	if (!modern_pool_ok(pool, "gen_pool_xalloc", 0, size) ||
	    xalloc_refused(pool, size, c))
		return 0;
	addr = xalloc_search(pool, size, c);
	if (!addr && pool->import)
		addr = xalloc_imported(pool, size, c);
	return addr;
}
