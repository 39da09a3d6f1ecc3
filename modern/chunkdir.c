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
 * max-tree over each chunk's modern_algo_grid_bound() for it: its
 * longest run, or less where the chunk's last aligned search that found
 * nothing rules the longer requests out.  A request of that family climbs
 * this tree instead, and meets only chunks that may hold it.  The bound
 * is a pure function of the chunk's index, re-read wherever the pool
 * re-reads the longest run and after every chunk a request tried in vain
 * (its memo may have changed), so it is exact, and never above the first
 * tree's value: it skips a subset of what the first tree keeps.
 *
 * A pool of one chunk, the usual kind, is served the same way: the
 * directory's one-slot path is as short as a path that skipped it.
 *
 * Both trees are 8-ary max trees of 32-bit values on the arithmetic of
 * maxtree_internal.h, the index's and the hints' own: a request climbs from its
 * slot to the first node left of its path that holds it, and down that
 * node's rightmost fits, one mask of eight children a level.
 *
 * Cost: three words per chunk plus the two trees (4 bytes a slot each,
 * 1/7 of that again above).
 */
#include "chunkdir_internal.h"

#include <stdlib.h>
#include <string.h>

#include "algo_internal.h"
#include "index_internal.h"

struct modern_chunk_dir *modern_dir_create(void)
{
	return calloc(1, sizeof(struct modern_chunk_dir));
}

void modern_dir_destroy(struct modern_chunk_dir *dir)
{
	if (!dir)
		return;
	free(dir->chunk);
	free(dir->tree.level[0]);	/* and the aimed tree, after it */
	free(dir->by_addr);
	free(dir);
}

/* Lay a tree of @cap slots out from @mem (NULL: only count); the entries
 * it takes. */
static size_t tree_layout(struct modern_dir_tree *t, size_t cap, uint32_t *mem)
{
	size_t n = 0;
	unsigned int l;

	t->count[0] = (uint32_t)cap;
	t->nlevels = modern_mt_levels(t->count, 1);
	for (l = 0; l < t->nlevels; l++) {
		t->level[l] = mem ? mem + n : NULL;
		n += modern_mt_padded(t->count[l]);
	}
	return n;
}

size_t modern_dir_bytes(const struct modern_chunk_dir *dir)
{
	struct modern_dir_tree t;
	size_t trees = dir->cap ? 2 * tree_layout(&t, dir->cap, NULL) * sizeof(uint32_t) : 0;

	return sizeof(*dir) + dir->cap * (sizeof(*dir->chunk) + sizeof(*dir->by_addr)) + trees;
}

/* The aimed tree's value of @chunk: 0 (never a fit) while unaimed. */
static uint32_t aim_value(const struct modern_chunk_dir *dir, const struct gen_pool_chunk *chunk)
{
	if (!dir->aim.on)
		return 0;
	return modern_dir_clamp(modern_algo_grid_bound(chunk, dir->aim.key, dir->aim.order));
}

/* The largest of a node's eight children. */
static uint32_t node_max(const uint32_t *c)
{
	uint32_t m = 0;

	for (unsigned int k = 0; k < MODERN_MT_FAN; k++)
		m = c[k] > m ? c[k] : m;
	return m;
}

/* Every node of @t from the slots' values. */
static void fill_tree(struct modern_dir_tree *t)
{
	for (unsigned int l = 1; l < t->nlevels; l++)
		for (size_t i = 0; i < t->count[l]; i++)
			t->level[l][i] = node_max(&t->level[l - 1][i * MODERN_MT_FAN]);
}

/*
 * Store @v as @slot's value in @t and fix the ancestors that change.  A
 * node changes only if the child that changed was, or now is, its
 * maximum, and only a child that fell from being the maximum makes it
 * read all eight.
 */
static void set_leaf(struct modern_dir_tree *t, size_t slot, uint32_t v)
{
	uint32_t old = t->level[0][slot], p;
	size_t i = slot;

	t->level[0][slot] = v;
	for (unsigned int l = 1; l < t->nlevels && v != old; l++) {
		i /= MODERN_MT_FAN;
		p = t->level[l][i];
		if (v < p && old < p)
			break;
		if (v < p)
			v = node_max(&t->level[l - 1][i * MODERN_MT_FAN]);
		old = p;
		t->level[l][i] = v;
	}
}

/* Double the slots; the trees are rebuilt from the chunks' indexes. */
static int grow(struct modern_chunk_dir *dir)
{
	size_t cap = dir->cap ? 2 * dir->cap : MODERN_MT_FAN, i, n;
	struct modern_dir_tree tree, atree;
	struct gen_pool_chunk **chunk;
	struct modern_chunk_dir_entry *by_addr;
	uint32_t *mem;

	if (cap > UINT32_MAX)
		return -1;
	chunk = realloc(dir->chunk, cap * sizeof(*chunk));
	if (!chunk)
		return -1;
	dir->chunk = chunk;
	by_addr = realloc(dir->by_addr, cap * sizeof(*by_addr));
	if (!by_addr)
		return -1;
	dir->by_addr = by_addr;
	/* One block for both trees: the aimed one follows. */
	n = tree_layout(&tree, cap, NULL);
	mem = calloc(2 * n, sizeof(*mem));
	if (!mem)
		return -1;
	tree_layout(&tree, cap, mem);
	tree_layout(&atree, cap, mem + n);
	for (i = 0; i < dir->n; i++) {
		tree.level[0][i] = modern_dir_value(chunk[i]);
		atree.level[0][i] = aim_value(dir, chunk[i]);
	}
	fill_tree(&tree);
	fill_tree(&atree);
	free(dir->tree.level[0]);
	dir->tree = tree;
	dir->atree = atree;
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

void modern_dir_remove(struct modern_chunk_dir *dir, size_t slot)
{
	size_t i, pos = 0;

	memmove(&dir->chunk[slot], &dir->chunk[slot + 1],
		(dir->n - slot - 1) * sizeof(*dir->chunk));
	for (i = 0; i < dir->n; i++) {
		if (dir->by_addr[i].slot == slot)
			continue;
		dir->by_addr[pos] = dir->by_addr[i];
		if (dir->by_addr[pos].slot > slot)
			dir->by_addr[pos].slot--;
		pos++;
	}
	dir->n--;
	for (i = 0; i < dir->cap; i++) {
		dir->tree.level[0][i] = i < dir->n ? modern_dir_value(dir->chunk[i]) : 0;
		dir->atree.level[0][i] = i < dir->n ? aim_value(dir, dir->chunk[i]) : 0;
	}
	fill_tree(&dir->tree);
	fill_tree(&dir->atree);
}

void modern_dir_set_leaf(struct modern_chunk_dir *dir, size_t slot, uint32_t v)
{
	set_leaf(&dir->tree, slot, v);
}

void modern_dir_set_aim_leaf(struct modern_chunk_dir *dir, size_t slot)
{
	uint32_t v = aim_value(dir, dir->chunk[slot]);

	if (modern_dir_leaf(&dir->atree, slot) != v)
		set_leaf(&dir->atree, slot, v);
}

bool modern_dir_reaim(struct modern_chunk_dir *dir, unsigned long key, int order)
{
	size_t i;

	if (dir->aim.on && ++dir->unaimed < dir->n)
		return false;
	dir->aim = (struct modern_dir_aim){ true, key, order };
	dir->unaimed = 0;
	for (i = 0; i < dir->n; i++)
		dir->atree.level[0][i] = aim_value(dir, dir->chunk[i]);
	fill_tree(&dir->atree);
	return true;
}

/* The rightmost of the eight children at @first on level @l of @t that
 * holds @nr, among those @mask allows (0: none). */
static unsigned int fits(const struct modern_dir_tree *t, unsigned int l, size_t first,
			 unsigned long nr, unsigned int mask)
{
	return modern_mt_ge_mask32(&t->level[l][first], nr, true) & mask;
}

static size_t rightmost(size_t first, unsigned int m)
{
	return first + (unsigned int)(31 - __builtin_clz(m));
}

size_t modern_dir_prev_fit_climb(const struct modern_dir_tree *t, size_t slot, unsigned long nr)
{
	size_t pos = slot, c;
	unsigned int l, m = 0;

	/* Climb until a node left of the path holds a fit... */
	for (l = 0; l < t->nlevels; l++, pos /= MODERN_MT_FAN) {
		m = fits(t, l, pos & ~(MODERN_MT_FAN - 1), nr, (1U << (pos % MODERN_MT_FAN)) - 1);
		if (m)
			break;
	}
	if (l == t->nlevels)
		return MODERN_DIR_NONE;
	/* ...then take the rightmost fit down to the slots. */
	c = rightmost(pos & ~(MODERN_MT_FAN - 1), m);
	while (l-- > 0)
		c = rightmost(c * MODERN_MT_FAN,
			      fits(t, l, c * MODERN_MT_FAN, nr, MODERN_MT_ALL));
	return c;
}

static bool tree_ok(const struct modern_dir_tree *t)
{
	for (unsigned int l = 1; l < t->nlevels; l++)
		for (size_t i = 0; i < t->count[l]; i++)
			if (t->level[l][i] != node_max(&t->level[l - 1][i * MODERN_MT_FAN]))
				return false;
	return true;
}

bool modern_dir_verify(const struct modern_chunk_dir *dir)
{
	size_t i;

	for (i = 0; i < dir->n; i++) {
		if (modern_dir_leaf(&dir->tree, i) != modern_dir_value(dir->chunk[i]) ||
		    modern_dir_leaf(&dir->atree, i) != aim_value(dir, dir->chunk[i]))
			return false;
		if (i && dir->by_addr[i - 1].end >= dir->by_addr[i].start)
			return false;
		if (dir->chunk[dir->by_addr[i].slot]->start_addr != dir->by_addr[i].start)
			return false;
	}
	return !dir->cap || (tree_ok(&dir->tree) && tree_ok(&dir->atree));
}
