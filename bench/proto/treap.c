// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/proto/treap.c - the augmented treap of free runs (treap.h).
 *
 * Every change repairs "max" from the changed node up and stops at the
 * first ancestor whose max does not move: most claims shorten a run that
 * is not its subtree's longest, and then the repair is one node.
 */
#include <stdlib.h>
#include <string.h>

#include "treap.h"

static inline uint32_t max3(uint32_t a, uint32_t b, uint32_t c)
{
	uint32_t m = a > b ? a : b;

	return m > c ? m : c;
}

/* @a before @b in the tree's order. */
static inline int before(const struct proto_treap *t, const struct proto_tnode *a,
			 const struct proto_tnode *b)
{
	if (t->by_size && a->len != b->len)
		return a->len < b->len;
	return a->key < b->key;
}

static inline void pull(struct proto_treap *t, uint32_t x)
{
	struct proto_tnode *n = t->n;

	if (!t->by_size)
		n[x].max = max3(n[x].len, n[n[x].l].max, n[n[x].r].max);
}

int proto_treap_init(struct proto_treap *t, int by_size, uint64_t seed)
{
	memset(t, 0, sizeof(*t));
	t->by_size = by_size;
	t->rng = seed | 1;
	t->cap = 64;
	t->used = 1;
	t->n = calloc(t->cap, sizeof(*t->n));
	return t->n ? 0 : -1;
}

void proto_treap_fini(struct proto_treap *t)
{
	free(t->n);
	t->n = NULL;
}

static uint32_t node_new(struct proto_treap *t)
{
	uint32_t x = t->free_list;

	if (x) {
		t->free_list = t->n[x].l;
		return x;
	}
	if (t->used == t->cap) {
		/* Indices, not pointers, so the array may move. */
		struct proto_tnode *n = realloc(t->n, 2 * (size_t)t->cap * sizeof(*n));

		if (!n)
			return 0;
		t->n = n;
		t->cap *= 2;
	}
	return t->used++;
}

/* Lift @x above its parent, keeping the order; both nodes' max redone. */
static void rotate_up(struct proto_treap *t, uint32_t x)
{
	struct proto_tnode *n = t->n;
	uint32_t y = n[x].p, z = n[y].p, b;

	if (n[y].l == x) {
		b = n[x].r;
		n[y].l = b;
		n[x].r = y;
	} else {
		b = n[x].l;
		n[y].r = b;
		n[x].l = y;
	}
	if (b)
		n[b].p = y;
	n[y].p = x;
	n[x].p = z;
	if (!z)
		t->root = x;
	else if (n[z].l == y)
		n[z].l = x;
	else
		n[z].r = x;
	pull(t, y);
	pull(t, x);
}

uint32_t proto_treap_insert(struct proto_treap *t, uint32_t key, uint32_t len)
{
	uint32_t x = node_new(t), y = 0, c;
	struct proto_tnode *n = t->n;

	if (!x)
		return 0;
	t->rng ^= t->rng << 13;
	t->rng ^= t->rng >> 7;
	t->rng ^= t->rng << 17;
	n[x] = (struct proto_tnode){ .key = key, .len = len, .max = t->by_size ? 0 : len,
				     .prio = (uint32_t)(t->rng >> 32) | 1 };
	for (c = t->root; c; c = before(t, &n[x], &n[c]) ? n[c].l : n[c].r) {
		y = c;
		/* The new run lands below: every node passed gains it. */
		if (!t->by_size && n[c].max < len)
			n[c].max = len;
	}
	n[x].p = y;
	if (!y)
		t->root = x;
	else if (before(t, &n[x], &n[y]))
		n[y].l = x;
	else
		n[y].r = x;
	while (n[x].p && n[n[x].p].prio < n[x].prio)
		rotate_up(t, x);
	return x;
}

void proto_treap_changed(struct proto_treap *t, uint32_t x)
{
	struct proto_tnode *n = t->n;

	if (t->by_size)
		return;
	for (; x; x = n[x].p) {
		uint32_t m = max3(n[x].len, n[n[x].l].max, n[n[x].r].max);

		if (m == n[x].max)
			break;
		n[x].max = m;
	}
}

void proto_treap_erase(struct proto_treap *t, uint32_t x)
{
	struct proto_tnode *n = t->n;
	uint32_t y;

	/* Down to a leaf, the child of higher priority lifted each step. */
	while (n[x].l || n[x].r) {
		uint32_t l = n[x].l, r = n[x].r;

		rotate_up(t, !l ? r : !r ? l : n[l].prio > n[r].prio ? l : r);
	}
	y = n[x].p;
	if (!y)
		t->root = 0;
	else if (n[y].l == x)
		n[y].l = 0;
	else
		n[y].r = 0;
	n[x].l = t->free_list;
	t->free_list = x;
	proto_treap_changed(t, y);
}

uint32_t proto_treap_first_fit(const struct proto_treap *t, uint32_t nr)
{
	const struct proto_tnode *n = t->n;
	uint32_t x = t->root;

	if (n[x].max < nr)
		return 0;
	/* The subtree on the left holds lower addresses: go there whenever
	 * it holds a run long enough.  (The loop ends at a leaf only if the
	 * maxima lie: then no answer, which --verify reports.) */
	while (x) {
		if (n[n[x].l].max >= nr)
			x = n[x].l;
		else if (n[x].len >= nr)
			return x;
		else
			x = n[x].r;
	}
	return 0;
}

uint32_t proto_treap_size_ceil(const struct proto_treap *t, uint32_t nr)
{
	const struct proto_tnode *n = t->n;
	uint32_t x = t->root, best = 0;

	while (x) {
		if (n[x].len >= nr) {
			best = x;
			x = n[x].l;
		} else {
			x = n[x].r;
		}
	}
	return best;
}

void proto_treap_around(const struct proto_treap *t, uint32_t key, uint32_t *pred,
			uint32_t *succ)
{
	const struct proto_tnode *n = t->n;
	uint32_t x = t->root;

	*pred = *succ = 0;
	while (x) {
		if (n[x].key < key) {
			*pred = x;
			x = n[x].r;
		} else {
			*succ = x;
			x = n[x].l;
		}
	}
}

uint32_t proto_treap_first(const struct proto_treap *t)
{
	uint32_t x = t->root;

	while (x && t->n[x].l)
		x = t->n[x].l;
	return x;
}

uint32_t proto_treap_next(const struct proto_treap *t, uint32_t x)
{
	const struct proto_tnode *n = t->n;

	if (n[x].r) {
		for (x = n[x].r; n[x].l; x = n[x].l)
			;
		return x;
	}
	while (n[x].p && n[n[x].p].r == x)
		x = n[x].p;
	return n[x].p;
}

size_t proto_treap_bytes(const struct proto_treap *t)
{
	return (size_t)t->cap * sizeof(*t->n);
}

static int check_node(const struct proto_treap *t, uint32_t x, uint32_t parent)
{
	const struct proto_tnode *n = t->n;

	if (!x)
		return 0;
	if (n[x].p != parent || (parent && n[parent].prio < n[x].prio))
		return -1;
	if (n[x].l && !before(t, &n[n[x].l], &n[x]))
		return -1;
	if (n[x].r && !before(t, &n[x], &n[n[x].r]))
		return -1;
	if (!t->by_size && n[x].max != max3(n[x].len, n[n[x].l].max, n[n[x].r].max))
		return -1;
	return check_node(t, n[x].l, x) || check_node(t, n[x].r, x) ? -1 : 0;
}

int proto_treap_check(const struct proto_treap *t)
{
	return check_node(t, t->root, 0);
}
