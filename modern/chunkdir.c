// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/chunkdir.c - which chunk can hold a request, without walking the
 * chunk list.
 *
 * The kernel tries chunks newest first and asks each one's bitmap.  In
 * indexed mode the pool also keeps this directory, under its lock:
 *   - the chunks by age (slot 0 the oldest, so list order is descending
 *     slot), with a max-tree over each chunk's longest free run (the root of
 *     its index; "unknown", i.e. the maximum, for a chunk without an index):
 *     the newest chunk at or below a slot whose longest run reaches nr is
 *     found in O(log chunks), so a request skips every chunk that cannot
 *     hold it without touching it;
 *   - the chunks sorted by address, so a free finds its chunk by binary
 *     search instead of the kernel's list walk.
 * For first fit and best fit the first candidate always succeeds (a run of
 * nr free granules means the kernel's avail test passes too); aligned and
 * fixed requests try candidates in list order, as the kernel would.
 *
 * Aligned requests have a second tree.  A chunk whose runs are long enough
 * may still hold no window on the request's grid, and on a pool of many
 * chunks most candidates are such, each visited only to hear "no" from its
 * index's miss memo.  So the directory can be aimed at one aligned family (order-
 * aligned fit, or first_fit_align at one alignment), and then keeps a
 * max-tree over each chunk's modern_algo_aligned_bound() for it: its
 * longest run, or less where the chunk's last aligned search that found
 * nothing rules the longer requests out.  A request of that family climbs
 * this tree instead, and meets only chunks that may hold it.  The bound
 * is a pure function of the chunk's index, re-read wherever the pool
 * re-reads the longest run and after every chunk a request tried in vain
 * (its memo may have changed), so it is exact, and never above the first
 * tree's value: it skips a subset of what the first tree keeps.
 *
 * A pool of one chunk, the usual kind, is served the same way: skipping
 * the directory for it saved a few percent of a pair's instructions and
 * nothing measurable by the clock (bench/FINDINGS.md).
 *
 * Cost: three words per chunk plus the two trees (four words per slot).
 */
#include "chunkdir_internal.h"

#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"
#include "index_internal.h"

static unsigned long max_ul(unsigned long a, unsigned long b)
{
	return a > b ? a : b;
}

struct modern_chunk_dir *modern_dir_create(void)
{
	return calloc(1, sizeof(struct modern_chunk_dir));
}

void modern_dir_destroy(struct modern_chunk_dir *dir)
{
	if (!dir)
		return;
	free(dir->chunk);
	free(dir->tree);	/* and the aimed tree, its second half */
	free(dir->by_addr);
	free(dir);
}

size_t modern_dir_bytes(const struct modern_chunk_dir *dir)
{
	return sizeof(*dir) + dir->cap * (sizeof(*dir->chunk) + 4 * sizeof(*dir->tree) +
					  sizeof(*dir->by_addr));
}

/* The aimed tree's value of @chunk: 0 (never a fit) while unaimed. */
static unsigned long aim_value(const struct modern_chunk_dir *dir,
			       const struct gen_pool_chunk *chunk)
{
	if (dir->aim.kind == MODERN_ALGO_USER)
		return 0;
	return modern_algo_aligned_bound(chunk, dir->aim.kind, dir->aim.align, dir->aim.order);
}

/* Fill max-tree @tree of @cap slots from its leaves. */
static void fill_tree(unsigned long *tree, size_t cap)
{
	size_t i;

	for (i = cap - 1; i > 0; i--)
		tree[i] = max_ul(tree[2 * i], tree[2 * i + 1]);
}

/* Store @v as @slot's leaf of @tree and fix its ancestors. */
static void set_leaf(unsigned long *tree, size_t cap, size_t slot, unsigned long v)
{
	size_t node = cap + slot;

	tree[node] = v;
	for (node /= 2; node; node /= 2)
		tree[node] = max_ul(tree[2 * node], tree[2 * node + 1]);
}

/* Double the slots; the tree is rebuilt from the chunks' indexes. */
static int grow(struct modern_chunk_dir *dir)
{
	size_t cap = dir->cap ? 2 * dir->cap : 8, i;
	struct gen_pool_chunk **chunk;
	struct modern_chunk_dir_entry *by_addr;
	unsigned long *tree;

	chunk = realloc(dir->chunk, cap * sizeof(*chunk));
	if (!chunk)
		return -1;
	dir->chunk = chunk;
	by_addr = realloc(dir->by_addr, cap * sizeof(*by_addr));
	if (!by_addr)
		return -1;
	dir->by_addr = by_addr;
	tree = calloc(4 * cap, sizeof(*tree));
	if (!tree)
		return -1;
	/* One block for both trees: the aimed one is its second half. */
	for (i = 0; i < dir->n; i++) {
		tree[cap + i] = modern_dir_value(chunk[i]);
		tree[3 * cap + i] = aim_value(dir, chunk[i]);
	}
	fill_tree(tree, cap);
	fill_tree(tree + 2 * cap, cap);
	free(dir->tree);
	dir->tree = tree;
	dir->atree = tree + 2 * cap;
	dir->cap = cap;
	return 0;
}

int modern_dir_add(struct modern_chunk_dir *dir, struct gen_pool_chunk *chunk)
{
	size_t pos;

	if (dir->n == dir->cap && grow(dir))
		return -1;
	pos = modern_dir_upper_bound(dir, chunk->start_addr);
	memmove(&dir->by_addr[pos + 1], &dir->by_addr[pos],
		(dir->n - pos) * sizeof(*dir->by_addr));
	dir->by_addr[pos] = (struct modern_chunk_dir_entry){ chunk->start_addr, chunk->end_addr, dir->n };
	dir->chunk[dir->n] = chunk;
	dir->n++;
	modern_dir_refresh(dir, dir->n - 1);
	return 0;
}

void modern_dir_set_leaf(struct modern_chunk_dir *dir, size_t slot, unsigned long v)
{
	set_leaf(dir->tree, dir->cap, slot, v);
}

void modern_dir_set_aim_leaf(struct modern_chunk_dir *dir, size_t slot)
{
	unsigned long v = aim_value(dir, dir->chunk[slot]);

	if (dir->atree[dir->cap + slot] != v)
		set_leaf(dir->atree, dir->cap, slot, v);
}

bool modern_dir_reaim(struct modern_chunk_dir *dir, enum modern_algo_kind kind,
		      unsigned long align, int order)
{
	size_t i;

	if (dir->aim.kind != MODERN_ALGO_USER && ++dir->unaimed < dir->n)
		return false;
	dir->aim = (struct modern_dir_aim){ kind, kind == MODERN_ALGO_ALIGN ? align : 0, order };
	dir->unaimed = 0;
	for (i = 0; i < dir->n; i++)
		dir->atree[dir->cap + i] = aim_value(dir, dir->chunk[i]);
	fill_tree(dir->atree, dir->cap);
	return true;
}

size_t modern_dir_prev_fit_climb(const struct modern_chunk_dir *dir, const unsigned long *tree,
				 size_t slot, unsigned long nr)
{
	size_t node = dir->cap + slot;

	/* Climb until a left sibling holds a fit, then take its rightmost. */
	for (; node > 1; node /= 2) {
		if ((node & 1) && tree[node - 1] >= nr) {
			node--;
			while (node < dir->cap)
				node = tree[2 * node + 1] >= nr ? 2 * node + 1 : 2 * node;
			return node - dir->cap;
		}
	}
	return MODERN_DIR_NONE;
}

bool modern_dir_verify(const struct modern_chunk_dir *dir)
{
	size_t i;

	for (i = 0; i < dir->n; i++) {
		if (dir->tree[dir->cap + i] != modern_dir_value(dir->chunk[i]) ||
		    dir->atree[dir->cap + i] != aim_value(dir, dir->chunk[i]))
			return false;
		if (i && dir->by_addr[i - 1].end >= dir->by_addr[i].start)
			return false;
		if (dir->chunk[dir->by_addr[i].slot]->start_addr != dir->by_addr[i].start)
			return false;
	}
	for (i = 1; i < dir->cap; i++)
		if (dir->tree[i] != max_ul(dir->tree[2 * i], dir->tree[2 * i + 1]) ||
		    dir->atree[i] != max_ul(dir->atree[2 * i], dir->atree[2 * i + 1]))
			return false;
	return true;
}
