// SPDX-License-Identifier: GPL-2.0
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
 * Cost: three words per chunk plus the tree (two words per slot).
 */
#include "chunkdir_internal.h"

#include <stdlib.h>
#include <string.h>

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
	free(dir->tree);
	free(dir->by_addr);
	free(dir);
}

size_t modern_dir_bytes(const struct modern_chunk_dir *dir)
{
	return sizeof(*dir) + dir->cap * (sizeof(*dir->chunk) + 2 * sizeof(*dir->tree) +
					  sizeof(*dir->by_addr));
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
	tree = calloc(2 * cap, sizeof(*tree));
	if (!tree)
		return -1;
	for (i = 0; i < dir->n; i++)
		tree[cap + i] = modern_dir_value(chunk[i]);
	for (i = cap - 1; i > 0; i--)
		tree[i] = max_ul(tree[2 * i], tree[2 * i + 1]);
	free(dir->tree);
	dir->tree = tree;
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
	size_t node = dir->cap + slot;

	dir->tree[node] = v;
	for (node /= 2; node; node /= 2)
		dir->tree[node] = max_ul(dir->tree[2 * node], dir->tree[2 * node + 1]);
}

size_t modern_dir_prev_fit_climb(const struct modern_chunk_dir *dir, size_t slot,
				 unsigned long nr)
{
	size_t node = dir->cap + slot;

	/* Climb until a left sibling holds a fit, then take its rightmost. */
	for (; node > 1; node /= 2) {
		if ((node & 1) && dir->tree[node - 1] >= nr) {
			node--;
			while (node < dir->cap)
				node = dir->tree[2 * node + 1] >= nr ? 2 * node + 1 : 2 * node;
			return node - dir->cap;
		}
	}
	return MODERN_DIR_NONE;
}

bool modern_dir_verify(const struct modern_chunk_dir *dir)
{
	size_t i;

	for (i = 0; i < dir->n; i++) {
		if (dir->tree[dir->cap + i] != modern_dir_value(dir->chunk[i]))
			return false;
		if (i && dir->by_addr[i - 1].end >= dir->by_addr[i].start)
			return false;
		if (dir->chunk[dir->by_addr[i].slot]->start_addr != dir->by_addr[i].start)
			return false;
	}
	for (i = 1; i < dir->cap; i++)
		if (dir->tree[i] != max_ul(dir->tree[2 * i], dir->tree[2 * i + 1]))
			return false;
	return true;
}
