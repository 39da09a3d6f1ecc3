/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/proto/treap.h - a binary search tree of free runs with random
 * priorities (a treap), the stand-in for Linux vmalloc's augmented
 * red-black tree: ordered by a run's start (or by its length, then its
 * start), each node augmented with the longest run in its subtree, so that
 * the lowest-address run of at least n granules is one descent.  A treap
 * keeps the same shape in expectation (depth about 1.4 log2 n against
 * the red-black tree's at most 2 log2 n) with a fraction of the code;
 * nodes live in one array and link by 32-bit index, 32 bytes each.
 * A prototype for measurement, not part of the library.
 */
#ifndef GENALLOC_BENCH_PROTO_TREAP_H
#define GENALLOC_BENCH_PROTO_TREAP_H

#include <stddef.h>
#include <stdint.h>

struct proto_tnode {
	uint32_t key;		/* the run's first granule */
	uint32_t len;		/* its granules */
	uint32_t max;		/* the longest len in the subtree (address order only) */
	uint32_t l, r, p;	/* children and parent; 0: none */
	uint32_t prio;		/* heap order: a parent's is at least its children's */
	uint32_t link;		/* the same run's node in the other tree, if any */
};

/*
 * @n[0] is the empty tree: len, max and prio 0, so that a child of 0 reads
 * as "nothing here" without a test.  @by_size: ordered by (len, key) and
 * not augmented; otherwise by key, augmented with max.
 */
struct proto_treap {
	struct proto_tnode *n;
	uint32_t root, used, cap, free_list;
	uint64_t rng;
	int by_size;
};

/* An empty tree; 0, or -1 if out of memory. */
int proto_treap_init(struct proto_treap *t, int by_size, uint64_t seed);
void proto_treap_fini(struct proto_treap *t);
/* A new node for the run (@key, @len), whose key must not be in the tree;
 * its index, or 0 if out of memory. */
uint32_t proto_treap_insert(struct proto_treap *t, uint32_t key, uint32_t len);
/* Remove node @x. */
void proto_treap_erase(struct proto_treap *t, uint32_t x);
/* Node @x's len (or its key, within its neighbours) changed in place:
 * repair the augmentation above it. */
void proto_treap_changed(struct proto_treap *t, uint32_t x);
/* Address order: the lowest-key node whose len is at least @nr, or 0. */
uint32_t proto_treap_first_fit(const struct proto_treap *t, uint32_t nr);
/* Size order: the first node by (len, key) whose len is at least @nr, or 0. */
uint32_t proto_treap_size_ceil(const struct proto_treap *t, uint32_t nr);
/* Address order: the nodes just below and above @key (not in the tree). */
void proto_treap_around(const struct proto_treap *t, uint32_t key, uint32_t *pred,
			uint32_t *succ);
/* In-order walk: the first node, and the one after @x; 0 at the end. */
uint32_t proto_treap_first(const struct proto_treap *t);
uint32_t proto_treap_next(const struct proto_treap *t, uint32_t x);
/* Bytes of bookkeeping: the node array as allocated. */
size_t proto_treap_bytes(const struct proto_treap *t);
/* Order, heap, parent links and augmentation of every node; 0 if sound. */
int proto_treap_check(const struct proto_treap *t);

#endif /* GENALLOC_BENCH_PROTO_TREAP_H */
