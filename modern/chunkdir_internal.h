/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/chunkdir_internal.h - the pool's directory of chunks for indexed
 * mode (not installed); modern/chunkdir.c states the design.
 *
 * Every function here runs under the pool's lock.
 */
#ifndef GENALLOC_MODERN_CHUNKDIR_INTERNAL_H
#define GENALLOC_MODERN_CHUNKDIR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

#include "algo_internal.h"
#include "genalloc.h"
#include "index_internal.h"
#include "index_state_internal.h"
#include "maxtree_internal.h"

/* "No chunk", from modern_dir_prev_fit(). */
#define MODERN_DIR_NONE (~(size_t)0)

/* Levels of a directory tree: 2^33 slots at eight children a node. */
#define MODERN_DIR_LEVELS 12

/**
 * struct modern_dir_tree - an 8-ary max tree over the slots (maxtree_internal.h)
 * @level:   @level[0] one value a slot, @level[l] the maxima of level
 *           l - 1's nodes of eight; each padded with zeros to whole nodes
 * @count:   entries of each level before its padding
 * @nlevels: levels, the slots' included; the last is one node
 *
 * A value is a request length in granules, at most UINT32_MAX (the
 * longest request there can be), which also stands for "unknown".
 */
struct modern_dir_tree {
	uint32_t *level[MODERN_DIR_LEVELS];
	uint32_t count[MODERN_DIR_LEVELS];
	unsigned int nlevels;
};

struct modern_chunk_dir_entry {
	unsigned long start;
	unsigned long end;
	size_t slot;
};

/**
 * struct modern_dir_aim - the grid the second tree speaks for
 * @on:    false while the directory is aimed at none
 * @key:   the grid's key (modern_algo_grid(): an alignment in bytes, or 0
 *         for order-aligned requests)
 * @order: the pool's min_alloc_order
 */
struct modern_dir_aim {
	bool on;
	unsigned long key;
	int order;
};

/**
 * struct modern_chunk_dir - see modern/chunkdir.c
 * @n:       chunks
 * @cap:     slots allocated (a power of two, or 0)
 * @chunk:   chunk per slot
 * @tree:    each chunk's longest free run
 * @atree:   each chunk's modern_algo_grid_bound() for @aim (all 0
 *           while unaimed)
 * @by_addr: @n entries sorted by start address
 * @aim:     the family of @atree
 * @unaimed: aligned requests of other families since @aim was set
 *
 * Visible here only so that the per-call accessors below inline into the
 * pool's alloc and free paths; only chunkdir.c writes it.
 */
struct modern_chunk_dir {
	size_t n, cap;
	struct gen_pool_chunk **chunk;
	struct modern_dir_tree tree;
	struct modern_dir_tree atree;
	struct modern_chunk_dir_entry *by_addr;
	struct modern_dir_aim aim;
	size_t unaimed;
};

/** modern_dir_create() - an empty directory, or NULL when out of memory */
struct modern_chunk_dir *modern_dir_create(void);

/** modern_dir_destroy() - free a directory (NULL is a no-op) */
void modern_dir_destroy(struct modern_chunk_dir *dir);

/** modern_dir_bytes() - the directory's bookkeeping in bytes */
size_t modern_dir_bytes(const struct modern_chunk_dir *dir);

/**
 * modern_dir_add() - append the newest chunk (it gets the highest slot)
 *
 * Return: 0, or -1 when out of memory (the directory is unchanged).
 */
int modern_dir_add(struct modern_chunk_dir *dir, struct gen_pool_chunk *chunk);

/**
 * modern_dir_remove() - take the chunk in @slot out; the newer chunks move
 * down a slot (their order kept), and the trees are rebuilt, O(chunks)
 */
void modern_dir_remove(struct modern_chunk_dir *dir, size_t slot);

/** modern_dir_count() - number of chunks */
static inline size_t modern_dir_count(const struct modern_chunk_dir *dir)
{
	return dir->n;
}

/** modern_dir_chunk() - the chunk in @slot (0 is the oldest) */
static inline struct gen_pool_chunk *modern_dir_chunk(const struct modern_chunk_dir *dir,
						      size_t slot)
{
	return dir->chunk[slot];
}

/* A length as a tree holds it: the longest request is UINT32_MAX granules. */
static inline uint32_t modern_dir_clamp(unsigned long v)
{
	return v < UINT32_MAX ? (uint32_t)v : UINT32_MAX;
}

/** modern_dir_value() - a chunk's tree value: its longest free run, or
 * "unknown" (the maximum) without an index */
static inline uint32_t modern_dir_value(const struct gen_pool_chunk *chunk)
{
	return chunk->index ? modern_dir_clamp(modern_index_longest(chunk->index)) : UINT32_MAX;
}

/** modern_dir_leaf() - @slot's value in @tree */
static inline uint32_t modern_dir_leaf(const struct modern_dir_tree *tree, size_t slot)
{
	return tree->level[0][slot];
}

/** modern_dir_set_leaf() - store @v as @slot's value and fix its ancestors */
void modern_dir_set_leaf(struct modern_chunk_dir *dir, size_t slot, uint32_t v);

/** modern_dir_set_aim_leaf() - modern_dir_refresh_aim()'s work, out of line */
void modern_dir_set_aim_leaf(struct modern_chunk_dir *dir, size_t slot);

/**
 * modern_dir_refresh_aim() - re-read the aimed bound of the chunk in @slot,
 * whose index may have remembered a miss (nothing while unaimed: that test
 * is inline, since the pool asks after every allocation and free)
 */
static inline void modern_dir_refresh_aim(struct modern_chunk_dir *dir, size_t slot)
{
	if (dir->aim.on)
		modern_dir_set_aim_leaf(dir, slot);
}

/**
 * modern_dir_refresh_chunk() - modern_dir_refresh() for a caller that holds
 * @chunk, the chunk in @slot, already (the pool's alloc and free)
 *
 * Most allocations and frees leave a chunk's longest run as it was, so the
 * comparison is inline and only a change pays for the climb.  An aimed
 * directory re-reads the chunk's aimed bound too.
 */
static inline void modern_dir_refresh_chunk(struct modern_chunk_dir *dir, size_t slot,
					    const struct gen_pool_chunk *chunk)
{
	uint32_t v = modern_dir_value(chunk);

	if (modern_dir_leaf(&dir->tree, slot) != v)
		modern_dir_set_leaf(dir, slot, v);
	modern_dir_refresh_aim(dir, slot);
}

/**
 * modern_dir_refresh() - the chunk in @slot changed: re-read its longest
 * free run from its index
 */
static inline void modern_dir_refresh(struct modern_chunk_dir *dir, size_t slot)
{
	modern_dir_refresh_chunk(dir, slot, dir->chunk[slot]);
}

/** modern_dir_prev_fit_climb() - modern_dir_prev_fit() (or _aimed() with
 * @dir->atree) in @tree once @slot itself has been found too short */
size_t modern_dir_prev_fit_climb(const struct modern_dir_tree *tree, size_t slot,
				 unsigned long nr);

/* modern_dir_prev_fit() in @tree (@dir->tree or @dir->atree). */
static inline size_t modern_dir_prev_fit_in(const struct modern_chunk_dir *dir,
					    const struct modern_dir_tree *tree, size_t slot,
					    unsigned long nr)
{
	if (slot >= dir->n)
		return MODERN_DIR_NONE;
	if (modern_dir_leaf(tree, slot) >= nr)
		return slot;
	return modern_dir_prev_fit_climb(tree, slot, nr);
}

/**
 * modern_dir_prev_fit() - the newest chunk at or below @slot that has a
 * free run of at least @nr granules (or no index, so it might)
 *
 * The chunk in @slot itself usually fits: that test is inline.
 *
 * Return: its slot, or MODERN_DIR_NONE.
 */
static inline size_t modern_dir_prev_fit(const struct modern_chunk_dir *dir, size_t slot,
					 unsigned long nr)
{
	return modern_dir_prev_fit_in(dir, &dir->tree, slot, nr);
}

/**
 * modern_dir_prev_fit_aimed() - modern_dir_prev_fit() for a request of the
 * family the directory is aimed at (modern_dir_aim_at() said so): it also
 * skips the chunks whose last aligned search rules this request out
 */
static inline size_t modern_dir_prev_fit_aimed(const struct modern_chunk_dir *dir, size_t slot,
					       unsigned long nr)
{
	return modern_dir_prev_fit_in(dir, &dir->atree, slot, nr);
}

/** modern_dir_reaim() - modern_dir_aim_at() for a grid other than the
 * one aimed at (or none), on a directory of two chunks or more */
bool modern_dir_reaim(struct modern_chunk_dir *dir, unsigned long key, int order);

/**
 * modern_dir_aim_at() - may an aligned request on this grid walk the aimed
 * tree?  Aims the directory at it first where that pays.
 * @dir:   the directory
 * @key:   the grid's key (the row's GRID of the request's data)
 * @order: the pool's min_alloc_order
 *
 * Aiming rebuilds the tree, O(chunks): it happens for the first aligned
 * request once the pool has two chunks, then only after as many requests
 * on other grids as there are chunks, so that mixed grids cost O(1) a
 * request on average.
 *
 * Return: true if the tree speaks for this grid.
 */
static inline bool modern_dir_aim_at(struct modern_chunk_dir *dir, unsigned long key, int order)
{
	if (dir->aim.on && dir->aim.key == key)
		return true;
	return dir->n >= 2 && modern_dir_reaim(dir, key, order);
}

/** modern_dir_upper_bound() - the first by_addr entry whose start is above @addr */
static inline size_t modern_dir_upper_bound(const struct modern_chunk_dir *dir,
					    unsigned long addr)
{
	size_t lo = 0, hi = dir->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (dir->by_addr[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/**
 * modern_dir_overlaps() - does [@start, @end] (inclusive) meet a chunk?
 *
 * By binary search: gen_pool_add() asks for every chunk it adds, and a
 * walk of the chunks made a pool of N chunks cost O(N^2) to build.
 */
static inline bool modern_dir_overlaps(const struct modern_chunk_dir *dir, unsigned long start,
				       unsigned long end)
{
	size_t pos = modern_dir_upper_bound(dir, start);

	/* The last chunk starting at or below @start, and the first above. */
	if (pos > 0 && dir->by_addr[pos - 1].end >= start)
		return true;
	return pos < dir->n && dir->by_addr[pos].start <= end;
}

/**
 * modern_dir_lookup() - the chunk holding @addr, by binary search
 * @slot: receives its slot
 *
 * Return: the chunk, or NULL.
 */
static inline struct gen_pool_chunk *modern_dir_lookup(const struct modern_chunk_dir *dir,
						       unsigned long addr, size_t *slot)
{
	size_t pos;

	pos = modern_dir_upper_bound(dir, addr);
	if (pos == 0 || addr > dir->by_addr[pos - 1].end)
		return NULL;
	*slot = dir->by_addr[pos - 1].slot;
	return dir->chunk[*slot];
}

/**
 * modern_dir_verify() - do the tree and the address order match the chunks?
 *
 * Return: true if consistent (O(chunks)).
 */
bool modern_dir_verify(const struct modern_chunk_dir *dir);

#endif /* GENALLOC_MODERN_CHUNKDIR_INTERNAL_H */
