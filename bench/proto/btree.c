// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/proto/btree.c - the B+tree of free runs (btree.h).
 *
 * Scans inside a node compare every slot at once, unused ones included,
 * with SSE2 (the baseline of x86-64) and keep a bit mask: a loop that
 * stops at the first hit is a chain of unpredictable branches, and gcc
 * does not vectorize a fixed-length loop of 14 or 15 slots by itself.  A change repairs the maxima upwards and stops
 * at the first level where its child's entry does not move.
 */
#include <stdlib.h>
#include <string.h>

#include "btree.h"

#define NONE_KEY UINT32_MAX

static int grow(void **arr, uint32_t *cap, size_t elem)
{
	void *n;

	/* Aligned, so that every node sits on its own cache lines. */
	if (posix_memalign(&n, 64, 2 * (size_t)*cap * elem))
		return -1;
	memcpy(n, *arr, (size_t)*cap * elem);
	free(*arr);
	*arr = n;
	*cap *= 2;
	return 0;
}

static uint32_t leaf_new(struct proto_btree *t)
{
	uint32_t x = t->freeleaf, i;

	if (x) {
		t->freeleaf = t->leaf[x].next;
	} else {
		if (t->nleaf == t->capleaf &&
		    grow((void **)&t->leaf, &t->capleaf, sizeof(*t->leaf)))
			return 0;
		x = t->nleaf++;
	}
	memset(&t->leaf[x], 0, sizeof(t->leaf[x]));
	for (i = 0; i < PROTO_BT_LEAF; i++)
		t->leaf[x].key[i] = NONE_KEY;
	return x;
}

static uint32_t inner_new(struct proto_btree *t)
{
	uint32_t x = t->freein, i;

	if (x) {
		t->freein = t->in[x].parent;
	} else {
		if (t->nin == t->capin && grow((void **)&t->in, &t->capin, sizeof(*t->in)))
			return 0;
		x = t->nin++;
	}
	memset(&t->in[x], 0, sizeof(t->in[x]));
	for (i = 0; i < PROTO_BT_INNER; i++)
		t->in[x].key[i] = NONE_KEY;
	return x;
}

int proto_btree_init(struct proto_btree *t)
{
	memset(t, 0, sizeof(*t));
	t->capleaf = t->capin = 16;
	if (posix_memalign((void **)&t->leaf, 64, t->capleaf * sizeof(*t->leaf)) ||
	    posix_memalign((void **)&t->in, 64, t->capin * sizeof(*t->in))) {
		free(t->leaf);
		return -1;
	}
	t->nleaf = t->nin = 1;		/* index 0 is "none" */
	t->root = leaf_new(t);
	return 0;
}

void proto_btree_fini(struct proto_btree *t)
{
	free(t->leaf);
	free(t->in);
	t->leaf = NULL;
	t->in = NULL;
}

#ifdef __SSE2__
#include <emmintrin.h>

/*
 * Sixteen slots from @a compared at once, as a 16-bit mask of the first
 * @n: lanes past @n read the node's next field and are dropped.  Lengths
 * stay below 2^31 and compare signed; starts are offset by 2^31 first,
 * as UINT32_MAX marks an unused slot.
 */
static inline __m128i load4(const uint32_t *a, unsigned int q)
{
	return _mm_loadu_si128((const __m128i *)(const void *)(a + 4 * q));
}

static inline uint32_t mask16(__m128i m0, __m128i m1, __m128i m2, __m128i m3, unsigned int n)
{
	uint32_t m = (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(m0)) |
		     (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(m1)) << 4 |
		     (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(m2)) << 8 |
		     (uint32_t)_mm_movemask_ps(_mm_castsi128_ps(m3)) << 12;

	return m & ((UINT32_C(1) << n) - 1);
}

/* The first slot of @a[0..n) holding at least @v, or n. */
static inline unsigned int first_ge(const uint32_t *a, unsigned int n, uint32_t v)
{
	__m128i x = _mm_set1_epi32((int)v);
	uint32_t m = mask16(_mm_cmpgt_epi32(x, load4(a, 0)), _mm_cmpgt_epi32(x, load4(a, 1)),
			    _mm_cmpgt_epi32(x, load4(a, 2)), _mm_cmpgt_epi32(x, load4(a, 3)), n);

	m ^= (UINT32_C(1) << n) - 1;	/* not below @v */
	return m ? (unsigned int)__builtin_ctz(m) : n;
}

/* How many slots of @a[0..n) hold less than @v (+ @le: at most @v): the
 * starts ascend, so those slots are a prefix, and its length is the first
 * clear bit of the mask (no popcount, a libgcc call without -mpopcnt). */
static inline unsigned int count_below(const uint32_t *a, unsigned int n, uint32_t v, int le)
{
	const __m128i bias = _mm_set1_epi32(INT32_MIN);
	__m128i x = _mm_xor_si128(_mm_set1_epi32((int)(le ? v + 1 : v)), bias);
	uint32_t m;

	/* v + 1 cannot wrap: no start is UINT32_MAX. */
	m = mask16(_mm_cmpgt_epi32(x, _mm_xor_si128(load4(a, 0), bias)),
		   _mm_cmpgt_epi32(x, _mm_xor_si128(load4(a, 1), bias)),
		   _mm_cmpgt_epi32(x, _mm_xor_si128(load4(a, 2), bias)),
		   _mm_cmpgt_epi32(x, _mm_xor_si128(load4(a, 3), bias)), n);
	return (unsigned int)__builtin_ctz(~m);
}

static inline __m128i max4(__m128i a, __m128i b)
{
	__m128i g = _mm_cmpgt_epi32(a, b);

	return _mm_or_si128(_mm_and_si128(g, a), _mm_andnot_si128(g, b));
}

static inline uint32_t max_of(const uint32_t *a, unsigned int n)
{
	/* The last four lanes keep only those below @n. */
	static const int32_t keep[8] = { -1, -1, -1, -1, 0, 0, 0, 0 };
	__m128i tail = _mm_loadu_si128((const __m128i *)(const void *)(keep + 4 - (n - 12)));
	__m128i m = max4(max4(load4(a, 0), load4(a, 1)),
			 max4(load4(a, 2), _mm_and_si128(load4(a, 3), tail)));

	m = max4(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(1, 0, 3, 2)));
	m = max4(m, _mm_shuffle_epi32(m, _MM_SHUFFLE(2, 3, 0, 1)));
	return (uint32_t)_mm_cvtsi128_si32(m);
}

static inline unsigned int slot_of(const struct proto_bt_inner *p, uint32_t child)
{
	__m128i x = _mm_set1_epi32((int)child);
	const uint32_t *a = p->kid;

	return (unsigned int)__builtin_ctz(mask16(_mm_cmpeq_epi32(x, load4(a, 0)),
						  _mm_cmpeq_epi32(x, load4(a, 1)),
						  _mm_cmpeq_epi32(x, load4(a, 2)),
						  _mm_cmpeq_epi32(x, load4(a, 3)),
						  PROTO_BT_INNER));
}
#else
static inline unsigned int first_ge(const uint32_t *a, unsigned int n, uint32_t v)
{
	unsigned int i;

	for (i = 0; i < n && a[i] < v; i++)
		;
	return i;
}

static inline unsigned int count_below(const uint32_t *a, unsigned int n, uint32_t v, int le)
{
	unsigned int c = 0, i;

	for (i = 0; i < n; i++)
		c += le ? a[i] <= v : a[i] < v;
	return c;
}

static inline uint32_t max_of(const uint32_t *a, unsigned int n)
{
	uint32_t m = 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		m = a[i] > m ? a[i] : m;
	return m;
}

static inline unsigned int slot_of(const struct proto_bt_inner *p, uint32_t child)
{
	unsigned int i;

	for (i = 0; p->kid[i] != child; i++)
		;
	return i;
}
#endif

/* Child @c of inner node @p now has @m as its longest run: up the tree
 * until an entry does not change. */
static void propagate(struct proto_btree *t, uint32_t p, uint32_t c, uint32_t m)
{
	while (p) {
		struct proto_bt_inner *in = &t->in[p];
		unsigned int s = slot_of(in, c);

		if (in->max[s] == m)
			return;
		in->max[s] = m;
		m = max_of(in->max, PROTO_BT_INNER);
		c = p;
		p = in->parent;
	}
}

static void fix_leaf(struct proto_btree *t, uint32_t x)
{
	propagate(t, t->leaf[x].parent, x, max_of(t->leaf[x].len, PROTO_BT_LEAF));
}

static void fix_inner(struct proto_btree *t, uint32_t x)
{
	propagate(t, t->in[x].parent, x, max_of(t->in[x].max, PROTO_BT_INNER));
}

/*
 * Node @c (under inner node @p) now starts at @key: its separator, the
 * key of the first ancestor it is not the leftmost child of, follows.
 * Separators are kept exact, not mere lower bounds: a claim moves a run's
 * start up within the run, and a stale separator could then fall below
 * the last start of the subtree on its left, where a descent by address
 * would no longer find it.
 */
static void refresh_key(struct proto_btree *t, uint32_t p, uint32_t c, uint32_t key)
{
	while (p) {
		struct proto_bt_inner *in = &t->in[p];
		unsigned int s = slot_of(in, c);

		in->key[s] = key;
		if (s)
			return;
		c = p;
		p = in->parent;
	}
}

int proto_btree_first_fit(struct proto_btree *t, uint32_t nr, struct proto_bt_pos *at)
{
	uint32_t x, h;
	unsigned int i;

again:
	x = t->root;
	for (h = t->height; h; h--) {
		i = first_ge(t->in[x].max, PROTO_BT_INNER, nr);
		if (i == PROTO_BT_INNER) {
			/* At the root, no run is long enough; below it, the
			 * parent's bound was too high (lazy): correct it. */
			if (x == t->root)
				return 0;
			fix_inner(t, x);
			goto again;
		}
		x = t->in[x].kid[i];
	}
	i = first_ge(t->leaf[x].len, PROTO_BT_LEAF, nr);
	if (i == PROTO_BT_LEAF) {
		if (!t->height)
			return 0;
		fix_leaf(t, x);
		goto again;
	}
	at->leaf = x;
	at->slot = i;
	return 1;
}

void proto_btree_around(struct proto_btree *t, uint32_t key, struct proto_bt_pos *pred,
			struct proto_bt_pos *succ, struct proto_bt_pos *ins)
{
	uint32_t x = t->root, h;
	const struct proto_bt_leaf *l;
	unsigned int c;

	for (h = t->height; h; h--) {
		c = count_below(t->in[x].key, PROTO_BT_INNER, key, 1);
		x = t->in[x].kid[c ? c - 1 : 0];
	}
	l = &t->leaf[x];
	c = count_below(l->key, PROTO_BT_LEAF, key, 0);
	ins->leaf = x;
	ins->slot = c;
	if (c)
		*pred = (struct proto_bt_pos){ x, c - 1 };
	else if (l->prev)
		*pred = (struct proto_bt_pos){ l->prev, t->leaf[l->prev].nr - 1 };
	else
		*pred = (struct proto_bt_pos){ 0, 0 };
	if (c < l->nr)
		*succ = (struct proto_bt_pos){ x, c };
	else if (l->next)
		*succ = (struct proto_bt_pos){ l->next, 0 };
	else
		*succ = (struct proto_bt_pos){ 0, 0 };
}

void proto_btree_set(struct proto_btree *t, struct proto_bt_pos at, uint32_t key, uint32_t len)
{
	struct proto_bt_leaf *l = &t->leaf[at.leaf];
	uint32_t old = l->len[at.slot];

	l->len[at.slot] = len;
	if (!at.slot && key != l->key[0])
		refresh_key(t, l->parent, at.leaf, key);
	l->key[at.slot] = key;
	/* A run that shrank below another of its leaf moves no maximum, and
	 * the parent's line need not be read; else the repair climbs until
	 * an entry does not move. */
	if (len < old && (t->lazy || max_of(l->len, PROTO_BT_LEAF) >= old))
		return;
	if (len != old)
		fix_leaf(t, at.leaf);
}

/* Take child @c out of inner node @p; an inner node left empty goes too,
 * and a root left with one child hands the root to it. */
static void remove_child(struct proto_btree *t, uint32_t p, uint32_t c)
{
	struct proto_bt_inner *in = &t->in[p];
	unsigned int s = slot_of(in, c), n = in->nr - 1;

	memmove(&in->key[s], &in->key[s + 1], (n - s) * sizeof(in->key[0]));
	memmove(&in->max[s], &in->max[s + 1], (n - s) * sizeof(in->max[0]));
	memmove(&in->kid[s], &in->kid[s + 1], (n - s) * sizeof(in->kid[0]));
	in->key[n] = NONE_KEY;
	in->max[n] = 0;
	in->kid[n] = 0;
	in->nr = n;
	if (p == t->root && n == 1) {
		uint32_t k = in->kid[0];

		t->root = k;
		if (--t->height)
			t->in[k].parent = 0;
		else
			t->leaf[k].parent = 0;
		in->parent = t->freein;
		t->freein = p;
	} else if (!n) {
		uint32_t up = in->parent;

		in->parent = t->freein;
		t->freein = p;
		remove_child(t, up, p);
	} else {
		if (!s)
			refresh_key(t, in->parent, p, in->key[0]);
		fix_inner(t, p);
	}
}

void proto_btree_remove(struct proto_btree *t, struct proto_bt_pos at)
{
	struct proto_bt_leaf *l = &t->leaf[at.leaf];
	unsigned int s = at.slot, n = l->nr - 1;
	uint32_t old = l->len[s];

	memmove(&l->key[s], &l->key[s + 1], (n - s) * sizeof(l->key[0]));
	memmove(&l->len[s], &l->len[s + 1], (n - s) * sizeof(l->len[0]));
	l->key[n] = NONE_KEY;
	l->len[n] = 0;
	l->nr = n;
	if (n || !t->height) {	/* a root leaf may be empty */
		if (!s && n)
			refresh_key(t, l->parent, at.leaf, l->key[0]);
		if (!t->lazy && max_of(l->len, PROTO_BT_LEAF) < old)
			fix_leaf(t, at.leaf);
		return;
	}
	if (l->prev)
		t->leaf[l->prev].next = l->next;
	if (l->next)
		t->leaf[l->next].prev = l->prev;
	l->next = t->freeleaf;
	t->freeleaf = at.leaf;
	remove_child(t, l->parent, at.leaf);
}

/* Put child @n (routing key @key, longest run @max) right after child @c
 * of @c's parent @p, splitting full inner nodes on the way up; @leaves:
 * @p's children are leaves. */
static int insert_child(struct proto_btree *t, uint32_t p, uint32_t c, uint32_t n,
			uint32_t key, uint32_t max, int leaves)
{
	struct proto_bt_inner *in;
	unsigned int s, i, h = PROTO_BT_INNER / 2 + 1;
	uint32_t q;

	if (!p) {
		/* @c was the root: a new root above both. */
		uint32_t r = inner_new(t);

		if (!r)
			return -1;
		in = &t->in[r];
		in->nr = 2;
		in->key[0] = 0;
		in->kid[0] = c;
		in->max[0] = leaves ? max_of(t->leaf[c].len, PROTO_BT_LEAF)
				    : max_of(t->in[c].max, PROTO_BT_INNER);
		in->key[1] = key;
		in->kid[1] = n;
		in->max[1] = max;
		if (leaves)
			t->leaf[c].parent = t->leaf[n].parent = r;
		else
			t->in[c].parent = t->in[n].parent = r;
		t->root = r;
		t->height++;
		return 0;
	}
	in = &t->in[p];
	if (in->nr == PROTO_BT_INNER) {
		/* Split: the upper PROTO_BT_INNER - h children go to @q, and @n
		 * goes beside @c, in whichever half @c is now. */
		unsigned int sc = slot_of(in, c);
		uint32_t other;

		q = inner_new(t);
		if (!q)
			return -1;
		in = &t->in[p];
		for (i = h; i < PROTO_BT_INNER; i++) {
			struct proto_bt_inner *qn = &t->in[q];

			qn->key[i - h] = in->key[i];
			qn->max[i - h] = in->max[i];
			qn->kid[i - h] = in->kid[i];
			if (leaves)
				t->leaf[in->kid[i]].parent = q;
			else
				t->in[in->kid[i]].parent = q;
			in->key[i] = NONE_KEY;
			in->max[i] = 0;
			in->kid[i] = 0;
		}
		t->in[q].nr = PROTO_BT_INNER - h;
		in->nr = h;
		if (insert_child(t, in->parent, p, q, t->in[q].key[0],
				 max_of(t->in[q].max, PROTO_BT_INNER), 0))
			return -1;
		other = sc < h ? q : p;
		p = sc < h ? p : q;
		fix_inner(t, other);
		in = &t->in[p];
	}
	s = slot_of(in, c) + 1;
	memmove(&in->key[s + 1], &in->key[s], (in->nr - s) * sizeof(in->key[0]));
	memmove(&in->max[s + 1], &in->max[s], (in->nr - s) * sizeof(in->max[0]));
	memmove(&in->kid[s + 1], &in->kid[s], (in->nr - s) * sizeof(in->kid[0]));
	in->key[s] = key;
	in->max[s] = max;
	in->kid[s] = n;
	in->nr++;
	if (leaves)
		t->leaf[n].parent = p;
	else
		t->in[n].parent = p;
	fix_inner(t, p);
	return 0;
}

static void leaf_put(struct proto_bt_leaf *l, unsigned int s, uint32_t key, uint32_t len)
{
	memmove(&l->key[s + 1], &l->key[s], (l->nr - s) * sizeof(l->key[0]));
	memmove(&l->len[s + 1], &l->len[s], (l->nr - s) * sizeof(l->len[0]));
	l->key[s] = key;
	l->len[s] = len;
	l->nr++;
}

int proto_btree_insert(struct proto_btree *t, struct proto_bt_pos ins, uint32_t key,
		       uint32_t len)
{
	uint32_t x = ins.leaf, y;
	unsigned int s = ins.slot, h = PROTO_BT_LEAF / 2, i;
	struct proto_bt_leaf *l = &t->leaf[x], *r;

	if (l->nr < PROTO_BT_LEAF) {
		leaf_put(l, s, key, len);
		if (!s)
			refresh_key(t, l->parent, x, key);
		fix_leaf(t, x);
		return 0;
	}
	y = leaf_new(t);
	if (!y)
		return -1;
	l = &t->leaf[x];
	r = &t->leaf[y];
	for (i = h; i < PROTO_BT_LEAF; i++) {
		r->key[i - h] = l->key[i];
		r->len[i - h] = l->len[i];
		l->key[i] = NONE_KEY;
		l->len[i] = 0;
	}
	r->nr = PROTO_BT_LEAF - h;
	l->nr = h;
	r->prev = x;
	r->next = l->next;
	if (l->next)
		t->leaf[l->next].prev = y;
	l->next = y;
	if (s <= h) {
		leaf_put(l, s, key, len);
		if (!s)
			refresh_key(t, l->parent, x, key);
	} else {
		leaf_put(r, s - h, key, len);
	}
	if (insert_child(t, l->parent, x, y, r->key[0], max_of(r->len, PROTO_BT_LEAF), 1))
		return -1;
	fix_leaf(t, x);
	fix_leaf(t, y);
	return 0;
}

struct proto_bt_pos proto_btree_first(const struct proto_btree *t)
{
	uint32_t x = t->root, h;

	for (h = t->height; h; h--)
		x = t->in[x].kid[0];
	return (struct proto_bt_pos){ t->leaf[x].nr ? x : 0, 0 };
}

struct proto_bt_pos proto_btree_next(const struct proto_btree *t, struct proto_bt_pos at)
{
	const struct proto_bt_leaf *l = &t->leaf[at.leaf];

	if (at.slot + 1 < l->nr)
		return (struct proto_bt_pos){ at.leaf, at.slot + 1 };
	return (struct proto_bt_pos){ l->next, 0 };
}

size_t proto_btree_bytes(const struct proto_btree *t)
{
	return (size_t)t->capleaf * sizeof(*t->leaf) + (size_t)t->capin * sizeof(*t->in);
}

/* Subtree @x at height @h under parent @parent: its lowest and highest
 * start and its longest run; -1 if anything is off. */
static int check_sub(const struct proto_btree *t, uint32_t x, uint32_t h, uint32_t parent,
		     uint32_t *lo, uint32_t *hi, uint32_t *max)
{
	unsigned int i;

	if (!h) {
		const struct proto_bt_leaf *l = &t->leaf[x];

		if (l->parent != parent || (!l->nr && t->height))
			return -1;
		for (i = 0; i < PROTO_BT_LEAF; i++)
			if (i < l->nr ? !l->len[i] || (i && l->key[i] <= l->key[i - 1])
				      : l->len[i] || l->key[i] != NONE_KEY)
				return -1;
		*lo = l->key[0];
		*hi = l->nr ? l->key[l->nr - 1] : 0;
		*max = max_of(l->len, PROTO_BT_LEAF);
		return 0;
	}
	const struct proto_bt_inner *in = &t->in[x];
	uint32_t prev_hi = 0, m = 0;

	if (in->parent != parent || !in->nr)
		return -1;
	for (i = 0; i < PROTO_BT_INNER; i++) {
		uint32_t clo, chi, cmax;

		if (i >= in->nr) {
			if (in->kid[i] || in->max[i] || in->key[i] != NONE_KEY)
				return -1;
			continue;
		}
		if (check_sub(t, in->kid[i], h - 1, x, &clo, &chi, &cmax))
			return -1;
		if ((t->lazy ? in->max[i] < cmax : in->max[i] != cmax) || (i ? in->key[i] != clo : in->key[i] > clo) ||
		    (i && in->key[i] <= prev_hi))
			return -1;
		if (!i)
			*lo = clo;
		prev_hi = chi;
		m = cmax > m ? cmax : m;
	}
	*hi = prev_hi;
	*max = m;
	return 0;
}

int proto_btree_check(const struct proto_btree *t)
{
	uint32_t lo, hi, max;

	return check_sub(t, t->root, t->height, 0, &lo, &hi, &max);
}
