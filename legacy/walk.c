// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * legacy/walk.c - the walk over a buddy pool's blocks in address order
 * (legacy_gen_pool_for_each_block()) and the layout dump built on it
 * (legacy_gen_pool_dump()), both under the pool's lock.
 *
 * The control map already says where every block starts and how large it
 * is; the walk only puts the frames, which the frame table keeps by hash,
 * in address order.  A "chunk" here is a maximal stretch of pool memory
 * inside one frame: a chunk from the callback is a whole frame, donated
 * memory may make several.  Neighbouring free blocks are told as one free
 * run.  Cost: O(frames log frames + atoms) and one array of frame
 * pointers.
 */
#include <errno.h>
#include <stdlib.h>

#include "../common/dump_internal.h"
#include "internal.h"

/* The atom after the stretch of pool memory starting at atom @x. */
static unsigned long stretch_end(const struct gen_pool *pool, const struct legacy_frame *f,
				 unsigned long x)
{
	unsigned long atoms = legacy_atoms_per_frame(pool);

	while (x < atoms && f->ctrl[x] != LEGACY_CTRL_UNKNOWN)
		x++;
	return x;
}

/* The blocks of atoms [@x, @end) of @f, free neighbours merged. */
static int walk_stretch(struct gen_pool *pool, const struct legacy_frame *f, unsigned long x,
			unsigned long end, legacy_gen_pool_block_fn fn, void *data)
{
	unsigned long chunk = f->base + (x << ALLOC_MIN_SHIFT);
	unsigned long size = (end - x) << ALLOC_MIN_SHIFT;
	unsigned long run, n;
	int used, rc;

	while (x < end) {
		used = (f->ctrl[x] & LEGACY_CTRL_LIVE) != 0;
		run = x;
		do {
			/* A block's first atom carries its order (check.c
			 * verifies it); an interior byte here would be a
			 * broken map: step one atom rather than loop. */
			n = legacy_ctrl_is_start(f->ctrl[x]) ? 1UL << legacy_ctrl_order(f->ctrl[x])
							     : 1;
			x += n;
		} while (!used && x < end && (f->ctrl[x] & LEGACY_CTRL_FREE));
		rc = fn(pool, chunk, size, f->base + (run << ALLOC_MIN_SHIFT),
			(x - run) << ALLOC_MIN_SHIFT, used, data);
		if (rc)
			return rc;
	}
	return 0;
}

static int walk_locked(struct gen_pool *pool, legacy_gen_pool_block_fn fn, void *data)
{
	unsigned long atoms = legacy_atoms_per_frame(pool), x, end;
	struct legacy_frame **v;
	size_t n;
	int rc;

	v = legacy_frames_sorted(pool->frames, &n, &rc);
	for (size_t k = 0; k < n && !rc; k++)
		for (x = 0; x < atoms && !rc; x = end) {
			if (v[k]->ctrl[x] == LEGACY_CTRL_UNKNOWN) {
				end = x + 1;
				continue;
			}
			end = stretch_end(pool, v[k], x);
			rc = walk_stretch(pool, v[k], x, end, fn, data);
		}
	free(v);
	return rc;
}

/* The walk as the call named @caller makes it: that is the call a refusal names. */
static int for_each_block_as(struct gen_pool *pool, legacy_gen_pool_block_fn fn, void *data,
			     const char *caller)
{
	int rc;

	if (!legacy_lock(pool)) {
		legacy_refuse_reentry(pool, caller, 0, 0);
		return -EDEADLK;
	}
	rc = walk_locked(pool, fn, data);
	legacy_unlock(pool);
	return rc;
}

int legacy_gen_pool_for_each_block(struct gen_pool *pool, legacy_gen_pool_block_fn fn,
				   void *data)
{
	if (!pool || !fn) {
		legacy_refuse_null("gen_pool_for_each_block", pool ? legacy_report_pool(pool) : NULL,
				   "NULL function");
		return -EINVAL;
	}
	return for_each_block_as(pool, fn, data, "gen_pool_for_each_block");
}

/* Each live block into @data, a struct legacy_live. */
static int count_live(struct gen_pool *pool, unsigned long chunk, unsigned long chunk_size,
		      unsigned long addr, unsigned long size, int used, void *data)
{
	(void)pool;
	(void)chunk;
	(void)chunk_size;
	if (used)
		legacy_live_add(data, addr, size);
	return 0;
}

void legacy_find_live(struct gen_pool *pool, struct legacy_live *live)
{
	*live = (struct legacy_live){ 0 };
	walk_locked(pool, count_live, live);
}

static int dump_block(struct gen_pool *pool, unsigned long chunk, unsigned long chunk_size,
		      unsigned long addr, unsigned long size, int used, void *data)
{
	(void)pool;
	genalloc_dump_block(data, chunk, chunk_size, addr, size, used);
	return 0;
}

int legacy_gen_pool_dump(struct gen_pool *pool, FILE *f, int format)
{
	struct genalloc_dump d;

	if (!genalloc_dump_begin(&d, pool ? legacy_report_pool(pool) : NULL, f, format, "legacy",
				 1UL << ALLOC_MIN_SHIFT, true, true))
		return -EINVAL;
	return genalloc_dump_end(&d, for_each_block_as(pool, dump_block, &d, "gen_pool_dump"));
}
