/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/proto/btree.h - a B+tree of free runs ordered by start, each
 * child's entry in its parent augmented with the longest run below it:
 * lowest-address first fit is one descent of a few cache lines a level
 * (a leaf is two lines, 14 runs; an inner node three, 15 children), where
 * the binary tree (treap.h) takes a line a level.  Leaves are linked in
 * address order, so a release finds both neighbours of its range from the
 * one leaf its descent ends in (or the leaf beside it).  Nodes under-full
 * after removals are left so (an empty one goes): the workloads here keep
 * the tree's depth at what the splits made it.  A prototype for
 * measurement, not part of the library.
 */
#ifndef GENALLOC_BENCH_PROTO_BTREE_H
#define GENALLOC_BENCH_PROTO_BTREE_H

#include <stddef.h>
#include <stdint.h>

#define PROTO_BT_LEAF 14
#define PROTO_BT_INNER 15

/*
 * Two cache lines: lengths, starts, then the header; slots past @nr hold
 * len 0 and key UINT32_MAX.  The node is scanned 16 slots at a time (four
 * vector compares) and the two slots past each array's end are masked
 * off: they read the next field, never past the node.
 */
struct proto_bt_leaf {
	uint32_t len[PROTO_BT_LEAF];
	uint32_t key[PROTO_BT_LEAF];
	uint32_t nr, parent, prev, next;
} __attribute__((aligned(64)));

/* Three lines: max[i] is the longest run under child i, key[i] the lowest
 * start under it (for the first child of the leftmost nodes, any lower
 * number); the one slot past each array reads the next field. */
struct proto_bt_inner {
	uint32_t max[PROTO_BT_INNER];
	uint32_t key[PROTO_BT_INNER];
	uint32_t kid[PROTO_BT_INNER];
	uint32_t nr, parent;
} __attribute__((aligned(64)));

/*
 * Index 0 of either array is "none".  @height 0: the root is a leaf.
 * @lazy: a parent's max[i] is only an upper bound of child i's longest
 * run.  A claim or removal that shortens a run then writes its leaf and
 * nothing above; a first fit that follows a bound too high finds no run
 * at the bottom, corrects the path it came down and searches again.
 * Answers stay exact (a bound never hides a run long enough); the cost
 * of the repair moves from every claim to the searches that meet it.
 */
struct proto_btree {
	struct proto_bt_leaf *leaf;
	struct proto_bt_inner *in;
	uint32_t nleaf, capleaf, freeleaf;
	uint32_t nin, capin, freein;
	uint32_t root, height;
	int lazy;
};

/* A place in the tree: a leaf and a slot. */
struct proto_bt_pos {
	uint32_t leaf, slot;
};

int proto_btree_init(struct proto_btree *t);
void proto_btree_fini(struct proto_btree *t);
/* The lowest-start run of at least @nr granules: 1 with its place, or 0.
 * Not const: with @lazy it corrects the bounds it finds too high. */
int proto_btree_first_fit(struct proto_btree *t, uint32_t nr, struct proto_bt_pos *at);
/* The runs just below and above @key (which starts none): .leaf 0 if none.
 * @ins: where a run starting at @key would go. */
void proto_btree_around(struct proto_btree *t, uint32_t key, struct proto_bt_pos *pred,
			struct proto_bt_pos *succ, struct proto_bt_pos *ins);
/* Set the run at @at to (@key, @len), @len > 0, within its neighbours. */
void proto_btree_set(struct proto_btree *t, struct proto_bt_pos at, uint32_t key, uint32_t len);
/* Remove the run at @at. */
void proto_btree_remove(struct proto_btree *t, struct proto_bt_pos at);
/* Insert (@key, @len) at @ins (from proto_btree_around()); 0, or -1 if out
 * of memory. */
int proto_btree_insert(struct proto_btree *t, struct proto_bt_pos ins, uint32_t key,
		       uint32_t len);
/* In order: the first run, the one after @at; .leaf 0 past the end. */
struct proto_bt_pos proto_btree_first(const struct proto_btree *t);
struct proto_bt_pos proto_btree_next(const struct proto_btree *t, struct proto_bt_pos at);
size_t proto_btree_bytes(const struct proto_btree *t);
/* Routing keys, maxima and parent links; 0 if sound. */
int proto_btree_check(const struct proto_btree *t);

#endif /* GENALLOC_BENCH_PROTO_BTREE_H */
