// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/tlsf.c - a small two-level segregated fit allocator (TLSF-style),
 * written for the bench as the O(1) yardstick the modern engine's indexed
 * search is compared with.  Not part of the library.
 *
 * Design (after Masmano et al.'s TLSF): free blocks are kept in lists by
 * size class, first level floor(log2(size)), second level the next 4 bits
 * (16 lists per power of two; bench/tlsf_lists.h, shared with the in-band
 * TLSF); a bitmap of non-empty first levels and one
 * of non-empty lists per first level find a list whose every block fits in
 * two find-first-set instructions.  A request is rounded up to its list's
 * upper bound ("good fit"), the block found is split, the remainder goes
 * back on its list; a freed block merges with its free physical neighbours.
 *
 * Genalloc-style memory may not be touched, so nothing lives in it: every
 * block is a node in an array (offset, size in granules, physical and free
 * list links), and a hash table maps a block's offset to its node, as
 * OffsetAllocator does with the handle it returns.  Costs O(1) per call.
 */
#include "tlsf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tlsf_lists.h"

#define NIL UINT32_MAX

struct tlsf_node {
	unsigned long off, size;	/* in granules */
	uint32_t prev_phys, next_phys;	/* neighbours in address order */
	uint32_t prev_free, next_free;	/* list links while free */
	int free;
};

struct tlsf {
	int order;
	unsigned long total, used;	/* granules */
	struct tlsf_node *node;
	uint32_t cap_nodes, spare;	/* spare: stack of unused nodes */
	uint32_t *spare_next;
	struct tlsf_maps maps;
	uint32_t head[TLSF_FL_COUNT][TLSF_SL_COUNT];
	uint32_t *hash;			/* offset -> node, open addressing */
	unsigned long hash_mask;
};

static unsigned long hash_of(const struct tlsf *t, unsigned long off)
{
	return (off * 0x9e3779b97f4a7c15UL >> 20) & t->hash_mask;
}

static void hash_put(struct tlsf *t, unsigned long off, uint32_t n)
{
	unsigned long h = hash_of(t, off);

	while (t->hash[h] != NIL)
		h = (h + 1) & t->hash_mask;
	t->hash[h] = n;
}

static uint32_t hash_take(struct tlsf *t, unsigned long off)
{
	unsigned long h = hash_of(t, off), j;
	uint32_t n;

	while (t->hash[h] != NIL && t->node[t->hash[h]].off != off)
		h = (h + 1) & t->hash_mask;
	n = t->hash[h];
	if (n == NIL)
		return NIL;
	/* Backward-shift deletion keeps the probe chains intact. */
	t->hash[h] = NIL;
	for (j = (h + 1) & t->hash_mask; t->hash[j] != NIL; j = (j + 1) & t->hash_mask) {
		unsigned long k = hash_of(t, t->node[t->hash[j]].off);

		if ((j > h && (k <= h || k > j)) || (j < h && k <= h && k > j)) {
			t->hash[h] = t->hash[j];
			t->hash[j] = NIL;
			h = j;
		}
	}
	return n;
}

static void node_drop(struct tlsf *t, uint32_t n);

/* Double the node array, and the hash table with it (rehashed). */
static int grow(struct tlsf *t)
{
	uint32_t cap = t->cap_nodes * 2, i, *spare_next, *hash;
	unsigned long hsize = (t->hash_mask + 1) * 2, h, k;
	struct tlsf_node *node;

	if (cap < t->cap_nodes)
		return -1;
	node = realloc(t->node, cap * sizeof(*node));
	if (!node)
		return -1;
	t->node = node;
	spare_next = realloc(t->spare_next, cap * sizeof(*spare_next));
	if (!spare_next)
		return -1;
	t->spare_next = spare_next;
	hash = malloc(hsize * sizeof(*hash));
	if (!hash)
		return -1;
	memset(hash, 0xff, hsize * sizeof(*hash));
	for (h = 0; h <= t->hash_mask; h++) {
		if (t->hash[h] == NIL)
			continue;
		i = t->hash[h];
		k = (t->node[i].off * 0x9e3779b97f4a7c15UL >> 20) & (hsize - 1);
		while (hash[k] != NIL)
			k = (k + 1) & (hsize - 1);
		hash[k] = i;
	}
	free(t->hash);
	t->hash = hash;
	t->hash_mask = hsize - 1;
	for (i = cap; i-- > t->cap_nodes;)
		node_drop(t, i);
	t->cap_nodes = cap;
	return 0;
}

static uint32_t node_new(struct tlsf *t)
{
	uint32_t n = t->spare;

	if (n == NIL && grow(t))
		return NIL;
	n = t->spare;
	t->spare = t->spare_next[n];
	return n;
}

static void node_drop(struct tlsf *t, uint32_t n)
{
	t->spare_next[n] = t->spare;
	t->spare = n;
}

static void list_insert(struct tlsf *t, uint32_t n)
{
	struct tlsf_node *b = &t->node[n];
	unsigned int fl, sl;

	tlsf_map(b->size, &fl, &sl);
	b->free = 1;
	b->prev_free = NIL;
	b->next_free = t->head[fl][sl];
	if (b->next_free != NIL)
		t->node[b->next_free].prev_free = n;
	t->head[fl][sl] = n;
	tlsf_maps_set(&t->maps, fl, sl);
}

static void list_remove(struct tlsf *t, uint32_t n)
{
	struct tlsf_node *b = &t->node[n];
	unsigned int fl, sl;

	tlsf_map(b->size, &fl, &sl);
	if (b->prev_free != NIL)
		t->node[b->prev_free].next_free = b->next_free;
	else
		t->head[fl][sl] = b->next_free;
	if (b->next_free != NIL)
		t->node[b->next_free].prev_free = b->prev_free;
	if (t->head[fl][sl] == NIL)
		tlsf_maps_clear(&t->maps, fl, sl);
	b->free = 0;
}

struct tlsf *tlsf_create(unsigned long bytes, int order, unsigned long max_blocks)
{
	struct tlsf *t = calloc(1, sizeof(*t));
	unsigned long hsize = 16;
	uint32_t i, first;

	if (!t)
		return NULL;
	t->order = order;
	t->total = bytes >> order;
	t->cap_nodes = (uint32_t)(2 * max_blocks + 2);
	while (hsize < 2 * (unsigned long)t->cap_nodes)
		hsize <<= 1;
	t->node = calloc(t->cap_nodes, sizeof(*t->node));
	t->spare_next = calloc(t->cap_nodes, sizeof(*t->spare_next));
	t->hash = malloc(hsize * sizeof(*t->hash));
	if (!t->node || !t->spare_next || !t->hash || !t->total) {
		tlsf_destroy(t);
		return NULL;
	}
	memset(t->hash, 0xff, hsize * sizeof(*t->hash));
	t->hash_mask = hsize - 1;
	memset(t->head, 0xff, sizeof(t->head));
	t->spare = NIL;
	for (i = t->cap_nodes; i-- > 0;)
		node_drop(t, i);
	first = node_new(t);
	t->node[first] = (struct tlsf_node){ 0, t->total, NIL, NIL, NIL, NIL, 0 };
	list_insert(t, first);
	return t;
}

void tlsf_destroy(struct tlsf *t)
{
	if (!t)
		return;
	free(t->node);
	free(t->spare_next);
	free(t->hash);
	free(t);
}

/* Keep the first @size granules of free block @n (off its list), give the
 * rest back as a new free block. */
static void split(struct tlsf *t, uint32_t n, unsigned long size)
{
	struct tlsf_node *b = &t->node[n];
	uint32_t r;

	if (b->size == size)
		return;
	r = node_new(t);
	if (r == NIL)
		return;		/* out of nodes: hand out the whole block */
	b = &t->node[n];
	t->node[r] = (struct tlsf_node){ b->off + size, b->size - size, n, b->next_phys,
					 NIL, NIL, 0 };
	if (b->next_phys != NIL)
		t->node[b->next_phys].prev_phys = r;
	b->next_phys = r;
	b->size = size;
	list_insert(t, r);
}

long tlsf_alloc(struct tlsf *t, unsigned long bytes)
{
	unsigned long size = (bytes + (1UL << t->order) - 1) >> t->order;
	unsigned int fl, sl;
	uint32_t n;

	if (!size)
		size = 1;
	tlsf_map_search(size, &fl, &sl);
	if (!tlsf_maps_find(&t->maps, &fl, &sl))
		return -1;
	n = t->head[fl][sl];
	list_remove(t, n);
	split(t, n, size);
	hash_put(t, t->node[n].off, n);
	t->used += t->node[n].size;
	return (long)(t->node[n].off << t->order);
}

/* Merge free block @n with its free neighbour @m (m follows n). */
static void absorb(struct tlsf *t, uint32_t n, uint32_t m)
{
	struct tlsf_node *b = &t->node[n], *c = &t->node[m];

	b->size += c->size;
	b->next_phys = c->next_phys;
	if (c->next_phys != NIL)
		t->node[c->next_phys].prev_phys = n;
	node_drop(t, m);
}

int tlsf_free(struct tlsf *t, unsigned long offset)
{
	uint32_t n = hash_take(t, offset >> t->order), p, q;

	if (n == NIL)
		return -1;
	t->used -= t->node[n].size;
	q = t->node[n].next_phys;
	if (q != NIL && t->node[q].free) {
		list_remove(t, q);
		absorb(t, n, q);
	}
	p = t->node[n].prev_phys;
	if (p != NIL && t->node[p].free) {
		list_remove(t, p);
		absorb(t, p, n);
		n = p;
	}
	list_insert(t, n);
	return 0;
}

size_t tlsf_bytes(const struct tlsf *t)
{
	return sizeof(*t) + t->cap_nodes * (sizeof(*t->node) + sizeof(*t->spare_next)) +
	       (t->hash_mask + 1) * sizeof(*t->hash);
}

size_t tlsf_free_bytes(const struct tlsf *t)
{
	return (t->total - t->used) << t->order;
}

size_t tlsf_largest_free(const struct tlsf *t)
{
	unsigned long best = 0;
	unsigned int fl, sl;
	uint32_t n;

	if (!tlsf_maps_top(&t->maps, &fl, &sl))
		return 0;
	for (n = t->head[fl][sl]; n != NIL; n = t->node[n].next_free)
		if (t->node[n].size > best)
			best = t->node[n].size;
	return best << t->order;
}
