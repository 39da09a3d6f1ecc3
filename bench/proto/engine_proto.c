// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/proto/engine_proto.c - the candidate search structures as bench
 * engines, so that genalloc-proto times them with genalloc-speed's own
 * loop, rounds and harness beside ff8 and tlsf8.
 *
 * Each pool is one range of 8-byte granules with the kernel's bitmap (set
 * on every claim, cleared on every release, as the engine must) and one
 * structure of its free runs that answers the search:
 *   tff8, tbf8, tffo8  the augmented treap (treap.h), Linux vmalloc's
 *                      shape; best fit adds a second treap ordered by
 *                      (length, start), whose first entry of length >= n
 *                      is the kernel's answer
 *   bff8, bffo8        the B+tree (btree.h)
 *   lff8, lffo8        the same B+tree with lazy maxima: a shortened run
 *                      repairs nothing above its leaf until a search
 *                      meets the stale bound
 *   sff8, sbf8         no tree of addresses: runs in TLSF's size classes,
 *                      each class a heap (segfit.h), with hashes of run
 *                      ends for a release's neighbours
 *   snff8, snbf8       the same without the bitmap, the hashes alone
 *                      telling a release's neighbours: what an exact
 *                      search costs when nothing else is kept (no double
 *                      free is caught, no walk or lock-free mode served)
 * and tlsfbm8, not exact: tlsf8 with the bitmap's stores added, the floor.
 * Every answer is the kernel's: the lowest start of a run that holds the
 * request (first fit), the lowest start among the shortest such runs
 * (best fit), the lowest start aligned to the request's size rounded up
 * to a power of two, counted from the chunk's start (order-aligned).
 * One mutex per pool, like tlsf8's and the indexed engine's lock.
 */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../engine.h"
#include "bits.h"
#include "btree.h"
#include "../tlsf.h"
#include "proto.h"
#include "segfit.h"
#include "treap.h"

enum proto_algo { ALGO_FIRST, ALGO_BEST, ALGO_ORDER };
enum proto_struct { STRUCT_TREAP, STRUCT_BTREE, STRUCT_BTREE_LAZY, STRUCT_SEG, STRUCT_SEG_NOMAP };

struct proto_pool {
	pthread_mutex_t lock;
	uint64_t *map;
	uint32_t size;			/* granules */
	struct proto_treap at;		/* by address, augmented */
	struct proto_treap bs;		/* by (length, start): best fit only */
	struct proto_btree bt;
	struct proto_seg seg;
};

#define GRANULE_ORDER 3

static int uses_sizes(const struct bench_engine *e)
{
	return e->arg == STRUCT_TREAP && e->arg2 == ALGO_BEST;
}

/* ---------------------------------------------------------------- treap */

/* A run of the address tree, and its twin in the size tree if any. */
static void treap_add(struct proto_pool *pp, int sizes, uint32_t key, uint32_t len)
{
	uint32_t x = proto_treap_insert(&pp->at, key, len);

	if (!x)
		abort();
	if (sizes) {
		uint32_t s = proto_treap_insert(&pp->bs, key, len);

		if (!s)
			abort();
		pp->at.n[x].link = s;
		pp->bs.n[s].link = x;
	}
}

/* Run @x's start or length changed to (@key, @len), in its place. */
static void treap_reset(struct proto_pool *pp, int sizes, uint32_t x, uint32_t key,
			uint32_t len)
{
	struct proto_tnode *n = pp->at.n;

	if (sizes) {
		/* Its place in size order moves: out and back in. */
		uint32_t s;

		proto_treap_erase(&pp->bs, n[x].link);
		s = proto_treap_insert(&pp->bs, key, len);
		if (!s)
			abort();
		n[x].link = s;
		pp->bs.n[s].link = x;
	}
	n[x].key = key;
	n[x].len = len;
	proto_treap_changed(&pp->at, x);
}

static void treap_drop(struct proto_pool *pp, int sizes, uint32_t x)
{
	if (sizes)
		proto_treap_erase(&pp->bs, pp->at.n[x].link);
	proto_treap_erase(&pp->at, x);
}

/* Take [@off, @off + @nr) out of run @x. */
static void treap_claim(struct proto_pool *pp, int sizes, uint32_t x, uint32_t off, uint32_t nr)
{
	uint32_t start = pp->at.n[x].key, end = start + pp->at.n[x].len;

	if (off == start && off + nr == end)
		treap_drop(pp, sizes, x);
	else if (off == start)
		treap_reset(pp, sizes, x, off + nr, end - off - nr);
	else {
		treap_reset(pp, sizes, x, start, off - start);
		if (off + nr < end)
			treap_add(pp, sizes, off + nr, end - off - nr);
	}
}

/* The lowest start aligned to @mask + 1 at which @nr granules fit, in the
 * subtree of @x: in order, skipping subtrees whose longest run is short. */
static uint32_t treap_order_fit(const struct proto_tnode *n, uint32_t x, uint32_t nr,
				uint32_t mask, uint32_t *off)
{
	while (x && n[x].max >= nr) {
		uint32_t y = treap_order_fit(n, n[x].l, nr, mask, off), a;

		if (y)
			return y;
		a = (n[x].key + mask) & ~mask;
		if (n[x].len >= nr && a + nr <= n[x].key + n[x].len) {
			*off = a;
			return x;
		}
		x = n[x].r;
	}
	return 0;
}

static long treap_alloc(struct proto_pool *pp, int algo, uint32_t nr)
{
	uint32_t x, off;

	switch (algo) {
	case ALGO_FIRST:
		x = proto_treap_first_fit(&pp->at, nr);
		if (!x)
			return -1;
		off = pp->at.n[x].key;
		break;
	case ALGO_BEST:
		x = proto_treap_size_ceil(&pp->bs, nr);
		if (!x)
			return -1;
		x = pp->bs.n[x].link;
		off = pp->at.n[x].key;
		break;
	default: {
		uint32_t mask = nr > 1 ? (UINT32_C(2) << (31 - __builtin_clz(nr - 1))) - 1 : 0;

		x = treap_order_fit(pp->at.n, pp->at.root, nr, mask, &off);
		if (!x)
			return -1;
	}
	}
	treap_claim(pp, algo == ALGO_BEST, x, off, nr);
	return off;
}

static void treap_release(struct proto_pool *pp, int sizes, uint32_t off, uint32_t nr,
			  int left, int right)
{
	uint32_t p, s;
	struct proto_tnode *n;

	if (!left && !right) {
		treap_add(pp, sizes, off, nr);
		return;
	}
	proto_treap_around(&pp->at, off, &p, &s);
	n = pp->at.n;
	if (left && right) {
		uint32_t len = n[p].len + nr + n[s].len;

		treap_drop(pp, sizes, s);
		treap_reset(pp, sizes, p, pp->at.n[p].key, len);
	} else if (left) {
		treap_reset(pp, sizes, p, n[p].key, n[p].len + nr);
	} else {
		treap_reset(pp, sizes, s, off, n[s].len + nr);
	}
}

/* ---------------------------------------------------------------- B+tree */

static void btree_claim(struct proto_pool *pp, struct proto_bt_pos at, uint32_t off, uint32_t nr)
{
	const struct proto_bt_leaf *l = &pp->bt.leaf[at.leaf];
	uint32_t start = l->key[at.slot], end = start + l->len[at.slot];

	if (off == start && off + nr == end) {
		proto_btree_remove(&pp->bt, at);
	} else if (off == start) {
		proto_btree_set(&pp->bt, at, off + nr, end - off - nr);
	} else {
		/* The rest goes right after: separators are exact, so even past
		 * the leaf's last slot it lies below the next leaf's first run. */
		struct proto_bt_pos ins = { at.leaf, at.slot + 1 };

		proto_btree_set(&pp->bt, at, start, off - start);
		if (off + nr < end && proto_btree_insert(&pp->bt, ins, off + nr, end - off - nr))
			abort();
	}
}

/* Order-aligned: the leaves in order, from the first run long enough,
 * skipping the subtrees whose longest run is short. */
static int btree_order_fit(const struct proto_btree *t, uint32_t x, uint32_t h, uint32_t nr,
			   uint32_t mask, struct proto_bt_pos *at, uint32_t *off)
{
	unsigned int i;

	if (!h) {
		const struct proto_bt_leaf *l = &t->leaf[x];

		for (i = 0; i < l->nr; i++) {
			uint32_t a = (l->key[i] + mask) & ~mask;

			if (l->len[i] >= nr && a + nr <= l->key[i] + l->len[i]) {
				*at = (struct proto_bt_pos){ x, i };
				*off = a;
				return 1;
			}
		}
		return 0;
	}
	for (i = 0; i < t->in[x].nr; i++)
		if (t->in[x].max[i] >= nr &&
		    btree_order_fit(t, t->in[x].kid[i], h - 1, nr, mask, at, off))
			return 1;
	return 0;
}

static long btree_alloc(struct proto_pool *pp, int algo, uint32_t nr)
{
	struct proto_bt_pos at;
	uint32_t off;

	if (algo == ALGO_FIRST) {
		if (!proto_btree_first_fit(&pp->bt, nr, &at))
			return -1;
		off = pp->bt.leaf[at.leaf].key[at.slot];
	} else {
		uint32_t mask = nr > 1 ? (UINT32_C(2) << (31 - __builtin_clz(nr - 1))) - 1 : 0;

		if (!btree_order_fit(&pp->bt, pp->bt.root, pp->bt.height, nr, mask, &at, &off))
			return -1;
	}
	btree_claim(pp, at, off, nr);
	return off;
}

static void btree_release(struct proto_pool *pp, uint32_t off, uint32_t nr, int left, int right)
{
	struct proto_bt_pos p, s, ins;
	const struct proto_bt_leaf *lp, *ls;

	proto_btree_around(&pp->bt, off, &p, &s, &ins);
	lp = &pp->bt.leaf[p.leaf];
	ls = &pp->bt.leaf[s.leaf];
	if (left && right) {
		uint32_t len = lp->len[p.slot] + nr + ls->len[s.slot];

		/* The successor first: its removal never moves the predecessor
		 * (an earlier slot, or an earlier leaf). */
		proto_btree_remove(&pp->bt, s);
		proto_btree_set(&pp->bt, p, pp->bt.leaf[p.leaf].key[p.slot], len);
	} else if (left) {
		proto_btree_set(&pp->bt, p, lp->key[p.slot], lp->len[p.slot] + nr);
	} else if (right) {
		proto_btree_set(&pp->bt, s, off, ls->len[s.slot] + nr);
	} else if (proto_btree_insert(&pp->bt, ins, off, nr)) {
		abort();
	}
}

/* ---------------------------------------------------------------- engine */

long proto_pool_alloc_granules(struct bench_pool *p, uint32_t nr)
{
	struct proto_pool *pp = p->impl;
	long off;

	if (p->engine->arg == STRUCT_SEG_NOMAP)
		return proto_seg_alloc(&pp->seg, nr);
	if (p->engine->arg == STRUCT_SEG)
		off = proto_seg_alloc(&pp->seg, nr);
	else
		off = p->engine->arg == STRUCT_TREAP ? treap_alloc(pp, p->engine->arg2, nr)
						     : btree_alloc(pp, p->engine->arg2, nr);
	if (off >= 0)
		proto_bits_assign(pp->map, (uint64_t)off, nr, 1);
	return off;
}

void proto_pool_free_granules(struct bench_pool *p, uint32_t off, uint32_t nr)
{
	struct proto_pool *pp = p->impl;
	int left, right;

	if (p->engine->arg == STRUCT_SEG_NOMAP) {
		proto_seg_release(&pp->seg, off, nr, 1, 1);
		return;
	}
	/* The bitmap says whether a free run touches the range on each side:
	 * without a neighbour to merge, the structure needs no look-up. */
	left = off && !proto_bit(pp->map, off - 1);
	right = off + nr < pp->size && !proto_bit(pp->map, off + nr);
	proto_bits_assign(pp->map, off, nr, 0);
	if (p->engine->arg == STRUCT_SEG)
		proto_seg_release(&pp->seg, off, nr, left, right);
	else if (p->engine->arg == STRUCT_TREAP)
		treap_release(pp, uses_sizes(p->engine), off, nr, left, right);
	else
		btree_release(pp, off, nr, left, right);
}

static struct bench_pool *proto_create(const struct bench_engine *e,
				       const struct bench_pool_config *cfg)
{
	struct bench_pool *p;
	struct proto_pool *pp;
	size_t granules = cfg->capacity >> GRANULE_ORDER;

	if (cfg->regime != BENCH_FIXED || !granules || granules >= UINT32_MAX)
		return NULL;
	p = calloc(1, sizeof(*p));
	pp = calloc(1, sizeof(*pp));
	if (!p || !pp)
		goto fail;
	p->engine = e;
	p->cfg = *cfg;
	p->impl = pp;
	if (bench_chunks_init(&p->chunks, cfg->chunk_size, cfg->capacity, cfg->fake))
		goto fail;
	p->chunks.obtained = cfg->capacity;
	pp->size = (uint32_t)granules;
	pp->map = calloc((granules + 63) / 64, sizeof(*pp->map));
	if (!pp->map || pthread_mutex_init(&pp->lock, NULL))
		goto fail_chunks;
	/* Granules past the pool's end, in the map's last word, are in use. */
	if (granules & 63)
		pp->map[granules / 64] = ~proto_mask(0, granules & 63);
	if (e->arg == STRUCT_TREAP) {
		if (proto_treap_init(&pp->at, 0, 0x9e3779b97f4a7c15ull) ||
		    proto_treap_init(&pp->bs, 1, 0xd1b54a32d192ed03ull))
			goto fail_chunks;
		treap_add(pp, uses_sizes(e), 0, pp->size);
	} else if (e->arg == STRUCT_SEG || e->arg == STRUCT_SEG_NOMAP) {
		if (proto_seg_init(&pp->seg, e->arg2 == ALGO_BEST) ||
		    proto_seg_add(&pp->seg, 0, pp->size))
			goto fail_chunks;
	} else {
		struct proto_bt_pos q, s, ins;

		if (proto_btree_init(&pp->bt))
			goto fail_chunks;
		pp->bt.lazy = e->arg == STRUCT_BTREE_LAZY;
		proto_btree_around(&pp->bt, 0, &q, &s, &ins);
		if (proto_btree_insert(&pp->bt, ins, 0, pp->size))
			goto fail_chunks;
	}
	return p;
fail_chunks:
	bench_chunks_release(&p->chunks);
fail:
	if (pp) {
		proto_treap_fini(&pp->at);
		proto_treap_fini(&pp->bs);
		proto_btree_fini(&pp->bt);
		proto_seg_fini(&pp->seg);
		free(pp->map);
	}
	free(pp);
	free(p);
	return NULL;
}

static unsigned long proto_alloc(struct bench_pool *p, size_t size)
{
	struct proto_pool *pp = p->impl;
	uint32_t nr = size ? (uint32_t)((size + (1u << GRANULE_ORDER) - 1) >> GRANULE_ORDER) : 1;
	long off;

	if (size > ((size_t)pp->size << GRANULE_ORDER))
		return 0;
	pthread_mutex_lock(&pp->lock);
	off = proto_pool_alloc_granules(p, nr);
	pthread_mutex_unlock(&pp->lock);
	return off < 0 ? 0 : p->chunks.base + ((unsigned long)off << GRANULE_ORDER);
}

static void proto_free(struct bench_pool *p, unsigned long addr, size_t size)
{
	struct proto_pool *pp = p->impl;
	uint32_t nr = size ? (uint32_t)((size + (1u << GRANULE_ORDER) - 1) >> GRANULE_ORDER) : 1;

	pthread_mutex_lock(&pp->lock);
	proto_pool_free_granules(p, (uint32_t)((addr - p->chunks.base) >> GRANULE_ORDER), nr);
	pthread_mutex_unlock(&pp->lock);
}

static size_t proto_granted(const struct bench_pool *p, size_t size)
{
	size_t g = (size_t)1 << GRANULE_ORDER;

	(void)p;
	return size ? (size + g - 1) & ~(g - 1) : g;
}

/* Nodes on a free list of @next links from @x. */
static size_t free_nodes(uint32_t x, const void *base, size_t stride, size_t link_off)
{
	size_t n = 0;

	for (; x; n++)
		memcpy(&x, (const char *)base + x * stride + link_off, sizeof(x));
	return n;
}

size_t proto_pool_search_bytes(const struct bench_pool *p, int live)
{
	const struct proto_pool *pp = p->impl;
	const struct proto_btree *bt = &pp->bt;
	const struct proto_treap *at = &pp->at, *bs = &pp->bs;

	if (p->engine->arg >= STRUCT_SEG)
		return proto_seg_bytes(&pp->seg, live);
	if (p->engine->arg != STRUCT_TREAP) {
		if (!live)
			return proto_btree_bytes(bt);
		return (bt->nleaf - 1 - free_nodes(bt->freeleaf, bt->leaf, sizeof(*bt->leaf),
						   offsetof(struct proto_bt_leaf, next))) *
			       sizeof(*bt->leaf) +
		       (bt->nin - 1 - free_nodes(bt->freein, bt->in, sizeof(*bt->in),
						 offsetof(struct proto_bt_inner, parent))) *
			       sizeof(*bt->in);
	}
	if (!live)
		return proto_treap_bytes(at) + (uses_sizes(p->engine) ? proto_treap_bytes(bs) : 0);
	return (at->used - 1 - free_nodes(at->free_list, at->n, sizeof(*at->n),
					  offsetof(struct proto_tnode, l))) * sizeof(*at->n) *
	       (uses_sizes(p->engine) ? 2 : 1);
}

static void proto_stats(struct bench_pool *p, struct bench_stats *st)
{
	struct proto_pool *pp = p->impl;
	size_t free_g = 0, largest = 0, run = 0;
	uint32_t i;

	/* From the bitmap, so that the search structure cannot vouch for itself. */
	for (i = 0; i < pp->size; i++) {
		if (proto_bit(pp->map, i)) {
			run = 0;
			continue;
		}
		free_g++;
		run++;
		largest = run > largest ? run : largest;
	}
	st->obtained = p->chunks.obtained;
	st->free_bytes = free_g << GRANULE_ORDER;
	st->largest_free = largest << GRANULE_ORDER;
	st->metadata = (pp->size + 63) / 64 * sizeof(uint64_t) + proto_pool_search_bytes(p, 0);
}

static void proto_destroy(struct bench_pool *p)
{
	struct proto_pool *pp = p->impl;

	pthread_mutex_destroy(&pp->lock);
	proto_treap_fini(&pp->at);
	proto_treap_fini(&pp->bs);
	proto_btree_fini(&pp->bt);
	proto_seg_fini(&pp->seg);
	free(pp->map);
	free(pp);
	bench_chunks_release(&p->chunks);
	free(p);
}

size_t proto_pool_runs(const struct bench_pool *p)
{
	const struct proto_pool *pp = p->impl;
	size_t n = 0;

	if (p->engine->arg >= STRUCT_SEG)
		return pp->seg.live;
	if (p->engine->arg == STRUCT_TREAP) {
		uint32_t x;

		for (x = proto_treap_first(&pp->at); x; x = proto_treap_next(&pp->at, x))
			n++;
	} else {
		struct proto_bt_pos at;

		for (at = proto_btree_first(&pp->bt); at.leaf; at = proto_btree_next(&pp->bt, at))
			n++;
	}
	return n;
}

int proto_pool_check(const struct bench_pool *p)
{
	const struct proto_pool *pp = p->impl;
	uint32_t i = 0;

	/* The structure's runs, in order, must be the bitmap's free runs. */
	if (p->engine->arg == STRUCT_SEG_NOMAP)
		return proto_seg_check(&pp->seg);
	if (p->engine->arg == STRUCT_SEG) {
		struct proto_seg_run *runs = malloc((pp->seg.live + 1) * sizeof(*runs));
		size_t k, n;
		int bad = !runs || proto_seg_check(&pp->seg);

		n = bad ? 0 : proto_seg_runs(&pp->seg, runs);
		for (k = 0; k < n && !bad; k++) {
			while (i < runs[k].start && proto_bit(pp->map, i))
				i++;
			bad = i != runs[k].start;
			for (; !bad && i < runs[k].start + runs[k].len; i++)
				bad = proto_bit(pp->map, i);
			bad = bad || (i < pp->size && !proto_bit(pp->map, i));
		}
		free(runs);
		if (bad)
			return -1;
	} else if (p->engine->arg == STRUCT_TREAP) {
		uint32_t x;

		if (proto_treap_check(&pp->at) || (uses_sizes(p->engine) && proto_treap_check(&pp->bs)))
			return -1;
		for (x = proto_treap_first(&pp->at); x; x = proto_treap_next(&pp->at, x)) {
			const struct proto_tnode *n = &pp->at.n[x];

			while (i < n->key && proto_bit(pp->map, i))
				i++;
			if (i != n->key || (uses_sizes(p->engine) &&
					    (pp->bs.n[n->link].key != n->key ||
					     pp->bs.n[n->link].len != n->len ||
					     pp->bs.n[n->link].link != x)))
				return -1;
			for (; i < n->key + n->len; i++)
				if (proto_bit(pp->map, i))
					return -1;
			if (i < pp->size && !proto_bit(pp->map, i))
				return -1;
		}
	} else {
		struct proto_bt_pos at;

		if (proto_btree_check(&pp->bt))
			return -1;
		for (at = proto_btree_first(&pp->bt); at.leaf; at = proto_btree_next(&pp->bt, at)) {
			uint32_t key = pp->bt.leaf[at.leaf].key[at.slot];
			uint32_t len = pp->bt.leaf[at.leaf].len[at.slot];

			while (i < key && proto_bit(pp->map, i))
				i++;
			if (i != key)
				return -1;
			for (; i < key + len; i++)
				if (proto_bit(pp->map, i))
					return -1;
			if (i < pp->size && !proto_bit(pp->map, i))
				return -1;
		}
	}
	while (i < pp->size && proto_bit(pp->map, i))
		i++;
	return i == pp->size ? 0 : -1;
}

/* ---------------------------------------------------------------- floor */

/*
 * tlsfbm8: tlsf8 (bench/tlsf.c) with the kernel's bitmap beside it, set
 * on every allocation and cleared on every free, the free's two neighbour
 * bits read first, under the same lock.  Not exact, and not meant to be:
 * it is what any design that keeps the bitmap pays on top of a search as
 * cheap as TLSF's, so the lowest time an exact engine can hope for.
 */
struct floor_pool {
	pthread_mutex_t lock;
	struct tlsf *t;
	uint64_t *map;
	uint32_t size;
	int touched;		/* the neighbour bits, so they are not optimized out */
};

static struct bench_pool *floor_create(const struct bench_engine *e,
				       const struct bench_pool_config *cfg)
{
	struct bench_pool *p = calloc(1, sizeof(*p));
	struct floor_pool *fp = calloc(1, sizeof(*fp));
	size_t granules = cfg->capacity >> GRANULE_ORDER;

	if (!p || !fp || cfg->regime != BENCH_FIXED || !granules || granules >= UINT32_MAX)
		goto fail;
	p->engine = e;
	p->cfg = *cfg;
	p->impl = fp;
	if (bench_chunks_init(&p->chunks, cfg->chunk_size, cfg->capacity, cfg->fake))
		goto fail;
	p->chunks.obtained = cfg->capacity;
	fp->size = (uint32_t)granules;
	fp->t = tlsf_create(cfg->capacity, GRANULE_ORDER, 1024);
	fp->map = calloc((granules + 63) / 64, sizeof(*fp->map));
	if (fp->t && fp->map && !pthread_mutex_init(&fp->lock, NULL))
		return p;
	tlsf_destroy(fp->t);
	free(fp->map);
	bench_chunks_release(&p->chunks);
fail:
	free(fp);
	free(p);
	return NULL;
}

static unsigned long floor_alloc(struct bench_pool *p, size_t size)
{
	struct floor_pool *fp = p->impl;
	uint32_t nr = size ? (uint32_t)((size + (1u << GRANULE_ORDER) - 1) >> GRANULE_ORDER) : 1;
	long off;

	pthread_mutex_lock(&fp->lock);
	off = tlsf_alloc(fp->t, size);
	if (off >= 0)
		proto_bits_assign(fp->map, (uint64_t)off >> GRANULE_ORDER, nr, 1);
	pthread_mutex_unlock(&fp->lock);
	return off < 0 ? 0 : p->chunks.base + (unsigned long)off;
}

static void floor_free(struct bench_pool *p, unsigned long addr, size_t size)
{
	struct floor_pool *fp = p->impl;
	uint32_t nr = size ? (uint32_t)((size + (1u << GRANULE_ORDER) - 1) >> GRANULE_ORDER) : 1;
	uint32_t off = (uint32_t)((addr - p->chunks.base) >> GRANULE_ORDER);

	pthread_mutex_lock(&fp->lock);
	fp->touched += (off && !proto_bit(fp->map, off - 1)) +
		       (off + nr < fp->size && !proto_bit(fp->map, off + nr));
	proto_bits_assign(fp->map, off, nr, 0);
	if (tlsf_free(fp->t, addr - p->chunks.base))
		abort();
	pthread_mutex_unlock(&fp->lock);
}

static void floor_stats(struct bench_pool *p, struct bench_stats *st)
{
	struct floor_pool *fp = p->impl;

	st->obtained = p->chunks.obtained;
	st->free_bytes = tlsf_free_bytes(fp->t);
	st->largest_free = tlsf_largest_free(fp->t);
	st->metadata = tlsf_bytes(fp->t) + (fp->size + 63) / 64 * sizeof(uint64_t);
}

static void floor_destroy(struct bench_pool *p)
{
	struct floor_pool *fp = p->impl;

	pthread_mutex_destroy(&fp->lock);
	tlsf_destroy(fp->t);
	free(fp->map);
	free(fp);
	bench_chunks_release(&p->chunks);
	free(p);
}

#define PROTO_ENGINE(name, descr, st, algo) \
	{ name, "proto", descr, proto_create, proto_alloc, proto_free, proto_granted, \
	  proto_stats, proto_destroy, NULL, st, algo, NULL, NULL }

const struct bench_engine proto_engines[] = {
	PROTO_ENGINE("tff8", "augmented treap of free runs (vmalloc's shape), first fit, 8-byte granule",
		     STRUCT_TREAP, ALGO_FIRST),
	PROTO_ENGINE("tbf8", "treap by address + treap by (length, start), best fit, 8-byte granule",
		     STRUCT_TREAP, ALGO_BEST),
	PROTO_ENGINE("tffo8", "augmented treap, order-aligned first fit, 8-byte granule",
		     STRUCT_TREAP, ALGO_ORDER),
	PROTO_ENGINE("bff8", "augmented B+tree of free runs, first fit, 8-byte granule",
		     STRUCT_BTREE, ALGO_FIRST),
	PROTO_ENGINE("bffo8", "augmented B+tree, order-aligned first fit, 8-byte granule",
		     STRUCT_BTREE, ALGO_ORDER),
	PROTO_ENGINE("lff8", "B+tree whose maxima are upper bounds, corrected by the searches "
		     "that meet them, first fit, 8-byte granule", STRUCT_BTREE_LAZY, ALGO_FIRST),
	PROTO_ENGINE("sff8", "free runs in size classes, each a heap by address, with a tree "
		     "of the classes' lowest runs, first fit, 8-byte granule", STRUCT_SEG, ALGO_FIRST),
	PROTO_ENGINE("sbf8", "free runs in size classes, each a heap by (length, address), "
		     "best fit, 8-byte granule", STRUCT_SEG, ALGO_BEST),
	PROTO_ENGINE("snff8", "sff8 without the bitmap (not a whole engine: what the search "
		     "costs alone), first fit, 8-byte granule", STRUCT_SEG_NOMAP, ALGO_FIRST),
	PROTO_ENGINE("snbf8", "sbf8 without the bitmap (not a whole engine: what the search "
		     "costs alone), best fit, 8-byte granule", STRUCT_SEG_NOMAP, ALGO_BEST),
	PROTO_ENGINE("lffo8", "B+tree with upper-bound maxima, order-aligned first fit, "
		     "8-byte granule", STRUCT_BTREE_LAZY, ALGO_ORDER),
	{ "tlsfbm8", "floor", "tlsf8 plus the kernel's bitmap, set and cleared as the prototypes do "
	  "(not exact: the floor of any engine that keeps the bitmap)", floor_create, floor_alloc,
	  floor_free, proto_granted, floor_stats, floor_destroy, NULL, 0, 0, NULL, NULL },
};
const size_t proto_nr_engines = sizeof(proto_engines) / sizeof(proto_engines[0]);
