// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * legacy/check.c - looking at a buddy pool from outside: the consistency
 * checker, the statistics and the walk over the regions the pool knows.
 *
 * The checker trusts nothing it reads from the managed memory: a list entry
 * is dereferenced only after the control map has said it is the start of a
 * free block, and list walks are bounded by what the map counted, so a
 * corrupted pool is reported rather than crashed on.
 */
#include <limits.h>

#include "internal.h"

/* What the map walk counts, to compare with the lists and the counters. */
struct census {
	unsigned long nr_free[32];
	unsigned long free_bytes;
	unsigned long callback_bytes;
	unsigned long donated_bytes;
};

/* Check one control byte at atom @x of frame @f; *@end is the first atom
 * after the block being walked.  Returns NULL or what is wrong. */
static const char *check_atom(const struct gen_pool *pool, struct legacy_frame *f,
			      unsigned long x, unsigned long *end, struct census *c)
{
	unsigned char b = f->ctrl[x];
	unsigned long n, atoms = legacy_atoms_per_frame(pool);
	int order = legacy_ctrl_order(b);

	if (x < *end)
		return b == LEGACY_CTRL_INTERIOR ? NULL : "blocks overlap";
	if (b == LEGACY_CTRL_UNKNOWN)
		return f->from_callback ? "hole in a chunk from the callback" : NULL;
	if (!legacy_ctrl_is_start(b) || (b & ~(LEGACY_CTRL_FREE | LEGACY_CTRL_LIVE |
					      LEGACY_CTRL_ORDER)) ||
	    (b & LEGACY_CTRL_FREE && b & LEGACY_CTRL_LIVE))
		return b == LEGACY_CTRL_INTERIOR ? "interior atom outside any block"
						 : "invalid control byte";
	n = 1UL << order;
	if (order >= pool->nr_orders || x & (n - 1) || x + n > atoms)
		return "block misaligned or larger than the chunk";
	*end = x + n;
	if (f->from_callback)
		c->callback_bytes += n << ALLOC_MIN_SHIFT;
	else
		c->donated_bytes += n << ALLOC_MIN_SHIFT;
	if (b & LEGACY_CTRL_FREE) {
		c->nr_free[order]++;
		c->free_bytes += n << ALLOC_MIN_SHIFT;
		if (order < pool->nr_orders - 1 && f->ctrl[x ^ n] == b)
			return "free buddies left unmerged";
	}
	return NULL;
}

static const char *check_map(const struct gen_pool *pool, struct census *c,
			     unsigned long *where)
{
	unsigned long i = 0, atoms = legacy_atoms_per_frame(pool);
	struct legacy_frame *f;

	while ((f = legacy_map_next(pool, &i))) {
		unsigned long end = 0;

		for (unsigned long x = 0; x < atoms; x++) {
			const char *bad = check_atom(pool, f, x, &end, c);

			if (bad) {
				*where = f->base + (x << ALLOC_MIN_SHIFT);
				return bad;
			}
		}
	}
	return NULL;
}

static const char *check_list(const struct gen_pool *pool, int order,
			      const struct census *c, unsigned long *where)
{
	const struct gen_pool_link *prev = &pool->h[order];
	unsigned long n = 0;

	for (const struct gen_pool_link *q = prev->next; q; prev = q, q = q->next) {
		unsigned long a = (unsigned long)q;
		struct legacy_frame *f = legacy_map_find(pool, a);

		*where = a;
		if (n++ == c->nr_free[order])
			return "free list longer than the map's free blocks";
		if (!f || a & ((1UL << ALLOC_MIN_SHIFT) - 1) ||
		    *legacy_ctrl(f, a) != (LEGACY_CTRL_FREE | order))
			return "free list entry is not a free block of its order";
		if (q->prev != prev)
			return "free list back link broken";
	}
	return n == c->nr_free[order] ? NULL : "free block missing from its list";
}

static const char *check_counters(const struct gen_pool *pool, const struct census *c)
{
	if (c->free_bytes != pool->free_bytes)
		return "free byte count wrong";
	if (c->callback_bytes != pool->obtained_bytes)
		return "obtained byte count wrong";
	if (c->donated_bytes != pool->donated_bytes)
		return "donated byte count wrong";
	for (int i = 0; i < pool->nr_orders; i++)
		if (c->nr_free[i] != pool->nr_free[i])
			return "free block count wrong";
	return NULL;
}

int legacy_gen_pool_check(struct gen_pool *pool)
{
	struct census c = { { 0 }, 0, 0, 0 };
	unsigned long where = 0;
	const char *bad;

	if (!pool) {
		legacy_refuse_null("gen_pool_check", NULL, NULL);
		return -1;
	}
	if (!legacy_lock(pool)) {
		legacy_refuse_reentry(pool, "gen_pool_check", 0, 0);
		return -1;
	}
	bad = check_map(pool, &c, &where);
	for (int i = 0; !bad && i < pool->nr_orders; i++)
		bad = check_list(pool, i, &c, &where);
	if (!bad) {
		bad = check_counters(pool, &c);
		where = 0;
	}
	legacy_unlock(pool);

	if (!bad)
		return 0;
	genalloc_report(GENALLOC_BUG, GENALLOC_ECORRUPT, "gen_pool_check",
			legacy_report_pool(pool), where, 0, bad);
	return -1;
}

void legacy_gen_pool_stats(struct gen_pool *pool, struct legacy_gen_pool_stats *st)
{
	if (!pool || !st) {
		legacy_refuse_null("gen_pool_stats", pool ? legacy_report_pool(pool) : NULL,
				   "NULL stats");
		return;
	}
	if (!legacy_lock(pool)) {
		legacy_refuse_reentry(pool, "gen_pool_stats", 0, 0);
		*st = (struct legacy_gen_pool_stats){ 0 };
		return;
	}
	*st = (struct legacy_gen_pool_stats){
		.obtained_bytes = pool->obtained_bytes,
		.donated_bytes = pool->donated_bytes,
		.free_bytes = pool->free_bytes,
		.metadata_bytes = pool->metadata_bytes + pool->frames->bytes,
	};
	for (int i = 0; i < pool->nr_orders; i++) {
		st->nr_free[i] = pool->nr_free[i];
		if (pool->nr_free[i])
			st->largest_free = 32UL << i;
	}
	legacy_unlock(pool);
}

/* ------------------------------------------------------------- regions */

/* The donation frame next to @f (@dir -1 below, +1 above), or NULL. */
static struct legacy_frame *donation_neighbour(const struct gen_pool *pool,
					       const struct legacy_frame *f, int dir)
{
	unsigned long size = legacy_chunk_size(pool);
	struct legacy_frame *n;

	if (dir < 0 ? f->base == 0 : f->base > ULONG_MAX - size)
		return NULL;
	n = legacy_map_find(pool, dir < 0 ? f->base - size : f->base + size);
	return n && !n->from_callback ? n : NULL;
}

/* Length in bytes of the known run starting at atom @x of @f, followed
 * into the donation frames above when it reaches the end of @f. */
static unsigned long run_length(const struct gen_pool *pool, struct legacy_frame *f,
				unsigned long x)
{
	unsigned long atoms = legacy_atoms_per_frame(pool), len = 0;

	while (f) {
		unsigned long y = x;

		while (y < atoms && f->ctrl[y] != LEGACY_CTRL_UNKNOWN)
			y++;
		len += (y - x) << ALLOC_MIN_SHIFT;
		if (y < atoms)
			break;
		f = donation_neighbour(pool, f, 1);
		x = 0;
	}
	return len;
}

/* Does a run that starts at the bottom of @f continue one from below? */
static int continues_below(const struct gen_pool *pool, const struct legacy_frame *f)
{
	struct legacy_frame *below = donation_neighbour(pool, f, -1);

	return below && below->ctrl[legacy_atoms_per_frame(pool) - 1] != LEGACY_CTRL_UNKNOWN;
}

static void visit_donations(struct gen_pool *pool, struct legacy_frame *f,
			    void (*fn)(struct gen_pool *, unsigned long, unsigned long,
				       int, void *),
			    void *data)
{
	unsigned long atoms = legacy_atoms_per_frame(pool);

	for (unsigned long x = 0; x < atoms; x++) {
		int starts = f->ctrl[x] != LEGACY_CTRL_UNKNOWN &&
			     (x ? f->ctrl[x - 1] == LEGACY_CTRL_UNKNOWN : !continues_below(pool, f));

		if (starts)
			fn(pool, f->base + (x << ALLOC_MIN_SHIFT), run_length(pool, f, x), 0, data);
	}
}

void legacy_gen_pool_for_each_region(struct gen_pool *pool,
	void (*fn)(struct gen_pool *pool, unsigned long addr, unsigned long size,
		   int from_callback, void *data),
	void *data)
{
	unsigned long i = 0;
	struct legacy_frame *f;

	if (!pool || !fn) {
		legacy_refuse_null("gen_pool_for_each_region",
				   pool ? legacy_report_pool(pool) : NULL, "NULL function");
		return;
	}
	if (!legacy_lock(pool)) {
		legacy_refuse_reentry(pool, "gen_pool_for_each_region", 0, 0);
		return;
	}
	while ((f = legacy_map_next(pool, &i))) {
		if (f->from_callback)
			fn(pool, f->base, legacy_chunk_size(pool), 1, data);
		else
			visit_donations(pool, f, fn, data);
	}
	legacy_unlock(pool);
}
