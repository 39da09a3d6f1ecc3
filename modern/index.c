// SPDX-License-Identifier: GPL-2.0
/*
 * modern/index.c - a summary tree over a chunk's bitmap that finds the
 * kernel's answers without scanning the bitmap.
 *
 * WHAT IS INDEXED
 *   The bitmap is cut into leaves of 512 bits.  Every node of the tree
 *   (leaves included) keeps three numbers about the bits it covers, counting
 *   bits past the end of the chunk as used:
 *     left     - free bits at its low edge,
 *     right    - free bits at its high edge,
 *     longest  - its longest run of free bits.
 *   A node is "full" (all free) when left equals its span.  Inner nodes have
 *   eight children.  This is the kernel percpu allocator's per-block hint
 *   (first free, longest run, runs at both edges) stacked into a tree.
 *
 * HOW A SEARCH RUNS
 *   First fit of nr bits from bit lo walks the nodes left to right, keeping
 *   "carry": the free bits that end at the current node's low edge.  A node
 *   wholly at or after lo is settled from its summary alone: the run starts
 *   before it if carry + left >= nr; it lies inside if longest >= nr (then
 *   the search descends and must succeed there); otherwise carry becomes
 *   right (or carry + span when the node is full) and the node is skipped.
 *   Only the path to lo and one descent are visited: O(8 log8 n) summaries
 *   plus one leaf, whose eight words are scanned with shift-and tests.
 *   The answer is the lowest start of nr free bits, exactly what the
 *   kernel's find_next_zero_area() loop returns.  Aligned variants ask for
 *   the first run, try its aligned start, and on a used bit restart the
 *   search after it, as the kernel's loop does, but each step is O(log n)
 *   instead of a scan.  Best fit asks the size classes (sizeclass.c), which
 *   use this tree to find where runs end.
 *
 * HOW IT IS KEPT EXACT
 *   Every change of the bitmap is a claim or a release of a whole range.
 *   Leaves and nodes the range covers entirely become all used or all free
 *   (one word tells which).  A leaf it touches in part changes only around
 *   the run that holds the range: a release merges runs, which can only
 *   lengthen them, so the new numbers are maxima of old ones and the merged
 *   run; a claim splits one run, and only if that was the leaf's longest is
 *   the leaf rescanned.  A parent with one changed child is corrected the
 *   same way from that child and its neighbours, any other parent is
 *   recomputed from its eight children, and the walk up stops at the first
 *   level where nothing changed.  O(n / 512 + log8 n) per change.
 *   modern_index_verify() recomputes every summary from the bitmap and
 *   compares.  Updates need the bitmap to hold still, which is why the pool
 *   serializes allocation and free in indexed mode (gen_pool_set_lockless()).
 *
 * COST
 *   A leaf packs its three 10-bit numbers into 32 bits; an inner node holds
 *   three 32-bit numbers.  For a chunk of N granules: 4 * ceil(N / 512)
 *   bytes of leaves plus about 12 * N / 3584 bytes of inner nodes, i.e.
 *   about 1/11 of the bitmap's N / 8 bytes (0.0112 bytes per granule).
 */
#include "index_internal.h"

#include <stdatomic.h>
#include <stdlib.h>

#include "bitmap_internal.h"
#include "sizeclass_internal.h"

#define BPL MODERN_BITS_PER_LONG
#define LEAF_SHIFT 9
#define LEAF_BITS (1UL << LEAF_SHIFT)
#define LEAF_WORDS (LEAF_BITS / BPL)
#define FAN_SHIFT 3
#define FAN (1UL << FAN_SHIFT)
#define MAX_LEVELS 12
#define FIELD_BITS 10
#define FIELD_MASK ((1U << FIELD_BITS) - 1)

/* An inner node; leaves are packed into one uint32_t. */
struct node {
	uint32_t left, right, longest;
};

/* A summary unpacked, from either kind of node. */
struct sum {
	uint64_t left, right, longest;
};

/**
 * struct modern_index - the summary tree of one bitmap
 * @nbits:   bits in the bitmap
 * @nwords:  words in the bitmap
 * @pad:     the bits of the last word past the chunk, which read as used
 * @nlevels: levels, leaves included; level @nlevels - 1 has one node
 * @count:   nodes per level
 * @leaf:    level 0, packed
 * @inner:   levels 1 .. @nlevels - 1 (@inner[0] unused)
 * @sc:      runs by size class, built the first time best fit runs
 */
struct modern_index {
	unsigned long nbits;
	unsigned long nwords;
	unsigned long pad;
	unsigned int nlevels;
	unsigned long count[MAX_LEVELS];
	uint32_t *leaf;
	struct node *inner[MAX_LEVELS];
	struct modern_sizeclass *sc;
};

static unsigned int span_shift(unsigned int level)
{
	return LEAF_SHIFT + FAN_SHIFT * level;
}

static uint64_t span(unsigned int level)
{
	return (uint64_t)1 << span_shift(level);
}

static unsigned long ceil_div(unsigned long a, unsigned long b)
{
	return a / b + (a % b != 0);
}

/* ------------------------------------------------------------ words */

/* Word @wi with every bit past the chunk reading as used. */
static unsigned long used_word(const struct modern_index *ix, const unsigned long *map,
			       unsigned long wi)
{
	unsigned long w;

	if (wi >= ix->nwords - 1)
		return wi >= ix->nwords ? ~0UL : ix->pad | atomic_load_explicit(
			(const _Atomic unsigned long *)&map[wi], memory_order_relaxed);
	w = atomic_load_explicit((const _Atomic unsigned long *)&map[wi],
				 memory_order_relaxed);
	return w;
}

static unsigned int ctz_or_bpl(unsigned long w)
{
	return w ? (unsigned int)__builtin_ctzl(w) : (unsigned int)BPL;
}

static unsigned int clz_or_bpl(unsigned long w)
{
	return w ? (unsigned int)__builtin_clzl(w) : (unsigned int)BPL;
}

/* Longest run of clear bits in @w: find the largest power of two by
 * doubling shift-and, then refine the remainder bit by bit. */
static unsigned int word_longest(unsigned long w)
{
	unsigned long x[8], cur, t;
	unsigned int j = 0, n;
	int i;

	x[0] = ~w;
	if (!x[0])
		return 0;
	while ((1UL << (j + 1)) <= BPL) {
		t = x[j] & (x[j] >> (1U << j));
		if (!t)
			break;
		x[++j] = t;
	}
	n = 1U << j;
	cur = x[j];
	for (i = (int)j - 1; i >= 0; i--) {
		t = n < BPL ? cur & (x[i] >> n) : 0;
		if (t) {
			cur = t;
			n += 1U << i;
		}
	}
	return n;
}

/* Bits p of free-mask @f such that p .. p + @nr - 1 are all free (@nr <= BPL). */
static unsigned long run_starts(unsigned long f, unsigned long nr)
{
	unsigned long k = 1, s;

	while (k < nr && f) {
		s = k < nr - k ? k : nr - k;
		f &= f >> s;
		k += s;
	}
	return f;
}

/* ------------------------------------------------------------ summaries */

static struct sum leaf_sum(const struct modern_index *ix, unsigned long i)
{
	uint32_t v = ix->leaf[i];
	struct sum s = { v & FIELD_MASK, (v >> FIELD_BITS) & FIELD_MASK,
			 (v >> (2 * FIELD_BITS)) & FIELD_MASK };

	return s;
}

static struct sum inner_sum(const struct modern_index *ix, unsigned int level,
			    unsigned long i)
{
	const struct node *n = &ix->inner[level][i];
	struct sum s = { n->left, n->right, n->longest };

	return s;
}

static struct sum get_sum(const struct modern_index *ix, unsigned int level, unsigned long i)
{
	return level ? inner_sum(ix, level, i) : leaf_sum(ix, i);
}

static void put_sum(struct modern_index *ix, unsigned int level, unsigned long i,
		    struct sum s)
{
	struct node *n;

	if (level == 0) {
		ix->leaf[i] = (uint32_t)(s.left | s.right << FIELD_BITS |
					 s.longest << (2 * FIELD_BITS));
		return;
	}
	n = &ix->inner[level][i];
	n->left = (uint32_t)s.left;
	n->right = (uint32_t)s.right;
	n->longest = (uint32_t)s.longest;
}

/*
 * Append a piece of @len bits with summary @p to the running summary @acc
 * (which covers @acc_len bits so far).
 */
static void sum_append(struct sum *acc, uint64_t acc_len, struct sum p, uint64_t len)
{
	uint64_t mid = acc->right + p.left;

	if (acc->left == acc_len)
		acc->left = acc_len + p.left;
	if (mid > acc->longest)
		acc->longest = mid;
	if (p.longest > acc->longest)
		acc->longest = p.longest;
	acc->right = p.left == len ? acc->right + len : p.right;
}

static struct sum word_sum(unsigned long w)
{
	struct sum s = { ctz_or_bpl(w), clz_or_bpl(w), 0 };

	s.longest = w ? word_longest(w) : BPL;
	return s;
}

static struct sum compute_leaf(const struct modern_index *ix, const unsigned long *map,
			       unsigned long i)
{
	struct sum acc = { 0, 0, 0 }, ws;
	unsigned long wi, w, k;

	for (k = 0; k < LEAF_WORDS; k++) {
		wi = i * LEAF_WORDS + k;
		w = used_word(ix, map, wi);
		if (w == ~0UL)
			ws = (struct sum){ 0, 0, 0 };
		else if (!w)
			ws = (struct sum){ BPL, BPL, BPL };
		else if (acc.longest >= BPL - 2 ||
			 !run_starts(~w, (unsigned long)acc.longest + 1)) {
			/* No run inside can beat the best; edges still count. */
			ws.left = ctz_or_bpl(w);
			ws.right = clz_or_bpl(w);
			ws.longest = ws.left > ws.right ? ws.left : ws.right;
		} else {
			ws = word_sum(w);
		}
		sum_append(&acc, (uint64_t)k * BPL, ws, BPL);
	}
	return acc;
}

/*
 * A node from its children, in one pass: carry is the run of free bits that
 * ends at the current child's low edge, prefix whether every child so far
 * was all free.  Missing children (past the end of the level) read as used.
 */
#define COMBINE_CHILD(c)                                                      \
	do {                                                                  \
		uint64_t cand_ = carry + (c).left;                            \
		bool full_ = (c).left == cspan;                               \
		best = cand_ > best ? cand_ : best;                           \
		best = (c).longest > best ? (c).longest : best;               \
		left += prefix ? (c).left : 0;                                \
		prefix = prefix && full_;                                     \
		carry = full_ ? carry + cspan : (c).right;                    \
	} while (0)

static struct sum compute_inner(const struct modern_index *ix, unsigned int level,
				unsigned long i)
{
	uint64_t cspan = span(level - 1), carry = 0, best = 0, left = 0;
	unsigned long first = i * FAN, n = ix->count[level - 1] - first, k;
	bool prefix = true;
	struct sum c, acc;

	if (n > FAN)
		n = FAN;
	if (level == 1) {
		for (k = 0; k < n; k++) {
			c = leaf_sum(ix, first + k);
			COMBINE_CHILD(c);
		}
	} else {
		const struct node *nd = &ix->inner[level - 1][first];

		for (k = 0; k < n; k++)
			COMBINE_CHILD(nd[k]);
	}
	acc.left = left;
	acc.right = n == FAN ? carry : 0;
	acc.longest = carry > best ? carry : best;
	return acc;
}

static struct sum compute(const struct modern_index *ix, const unsigned long *map,
			  unsigned int level, unsigned long i)
{
	return level ? compute_inner(ix, level, i) : compute_leaf(ix, map, i);
}

/* ------------------------------------------------------------ life cycle */

static unsigned int plan_levels(unsigned long nbits, unsigned long *count)
{
	unsigned int levels = 1;

	count[0] = ceil_div(nbits, LEAF_BITS);
	while (count[levels - 1] > 1) {
		count[levels] = ceil_div(count[levels - 1], FAN);
		levels++;
	}
	return levels;
}

size_t modern_index_bytes(unsigned long nbits)
{
	unsigned long count[MAX_LEVELS];
	unsigned int levels, l;
	size_t bytes;

	if (nbits == 0 || nbits > MODERN_INDEX_MAX_BITS)
		return 0;
	levels = plan_levels(nbits, count);
	bytes = sizeof(struct modern_index) + count[0] * sizeof(uint32_t);
	for (l = 1; l < levels; l++)
		bytes += count[l] * sizeof(struct node);
	return bytes;
}

struct modern_index *modern_index_create(const unsigned long *map, unsigned long nbits)
{
	struct modern_index *ix;
	unsigned char *p;
	unsigned int l;

	if (nbits == 0 || nbits > MODERN_INDEX_MAX_BITS)
		return NULL;
	ix = calloc(1, modern_index_bytes(nbits));
	if (!ix)
		return NULL;
	ix->nbits = nbits;
	ix->nwords = modern_bits_to_longs(nbits);
	ix->pad = nbits % BPL ? ~0UL << (nbits % BPL) : 0;
	ix->nlevels = plan_levels(nbits, ix->count);
	/* Inner nodes first: they need the stricter alignment. */
	p = (unsigned char *)(ix + 1);
	for (l = 1; l < ix->nlevels; l++) {
		ix->inner[l] = (struct node *)(void *)p;
		p += ix->count[l] * sizeof(struct node);
	}
	ix->leaf = (uint32_t *)(void *)p;
	modern_index_rebuild(ix, map);
	return ix;
}

void modern_index_destroy(struct modern_index *ix)
{
	if (ix)
		modern_sc_destroy(ix->sc);
	free(ix);
}

size_t modern_index_footprint(const struct modern_index *ix)
{
	return modern_index_bytes(ix->nbits) + (ix->sc ? modern_sc_bytes(ix->nbits) : 0);
}

void modern_index_rebuild(struct modern_index *ix, const unsigned long *map)
{
	unsigned int l;
	unsigned long i;

	for (l = 0; l < ix->nlevels; l++)
		for (i = 0; i < ix->count[l]; i++)
			put_sum(ix, l, i, compute(ix, map, l, i));
	/* Rebuilt from the map by the next best fit. */
	modern_sc_destroy(ix->sc);
	ix->sc = NULL;
}

static bool sum_eq(struct sum a, struct sum b)
{
	return a.left == b.left && a.right == b.right && a.longest == b.longest;
}

/* The first bit of the free run that ends at @a - 1, within leaf @i. */
static unsigned long run_start(const struct modern_index *ix, const unsigned long *map,
			       unsigned long i, unsigned long a)
{
	unsigned long first = i << LEAF_SHIFT, wi, w;

	while (a > first) {
		wi = (a - 1) / BPL;
		w = used_word(ix, map, wi);
		if (a % BPL)
			w &= ~0UL >> (BPL - a % BPL);
		if (w)
			return wi * BPL + BPL - (unsigned long)__builtin_clzl(w);
		a = wi * BPL;
	}
	return first;
}

/* The first used bit at or after @b within leaf @i (its end if none). */
static unsigned long run_end(const struct modern_index *ix, const unsigned long *map,
			     unsigned long i, unsigned long b)
{
	unsigned long end = (i + 1) << LEAF_SHIFT, wi, w;

	while (b < end) {
		wi = b / BPL;
		w = used_word(ix, map, wi) & (~0UL << (b % BPL));
		if (w)
			return wi * BPL + (unsigned long)__builtin_ctzl(w);
		b = (wi + 1) * BPL;
	}
	return end;
}

/*
 * Leaf @i after bits [@a, @b) inside it were all set or all cleared: only
 * the run around them changed, so the old summary mostly still holds.  A
 * release merges [s, a), [a, b) and [b, e) into one run, which can only
 * grow the numbers; a claim splits the run [s, e), which only matters for
 * longest when that run was a longest one (then the leaf is rescanned).
 */
static struct sum leaf_changed(const struct modern_index *ix, const unsigned long *map,
			       unsigned long i, unsigned long a, unsigned long b)
{
	unsigned long first = i << LEAF_SHIFT, end = first + LEAF_BITS;
	unsigned long s = run_start(ix, map, i, a), e;
	struct sum old = leaf_sum(ix, i), n = old;

	if (used_word(ix, map, a / BPL) >> (a % BPL) & 1) {
		e = run_end(ix, map, i, b);
		if (e - s >= old.longest)
			return compute_leaf(ix, map, i);
		if (s == first)
			n.left = a - first;
		if (e == end)
			n.right = end - b;
		return n;
	}
	e = run_end(ix, map, i, b);
	if (e - s > n.longest)
		n.longest = e - s;
	if (s == first)
		n.left = e - first;
	if (e == end)
		n.right = end - s;
	return n;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* The free run through child @c (summary @cs) given the runs that end at
 * its low edge (@in_left) and start at its high edge (@in_right). */
static uint64_t run_through(struct sum cs, uint64_t cspan, uint64_t in_left,
			    uint64_t in_right)
{
	if (cs.left == cspan)
		return in_left + cspan + in_right;
	return max_u64(in_left + cs.left, cs.right + in_right);
}

/*
 * Node (@level, @i) after exactly one child, @c, went from @co to @cn.  Only
 * the runs through that child changed, and those are bounded by its
 * neighbours: a release can only lengthen them, so the old longest still
 * stands unless a run through the child beats it; a claim can only shorten
 * them, so nothing changes unless the child held the longest run (then the
 * node is recomputed).  The edges change only when every child between the
 * edge and @c is all free.
 */
static struct sum inner_changed(const struct modern_index *ix, unsigned int level,
				unsigned long i, unsigned long c, struct sum co, struct sum cn,
				bool claim)
{
	uint64_t cspan = span(level - 1), in_left = 0, in_right = 0;
	unsigned long first = i * FAN, n = ix->count[level - 1] - first, k = c - first, j;
	struct sum p = inner_sum(ix, level, i), x;

	if (n > FAN)
		n = FAN;
	if (claim && co.longest >= p.longest)
		return compute_inner(ix, level, i);
	for (j = k; j-- > 0;) {
		x = get_sum(ix, level - 1, first + j);
		in_left += x.left == cspan ? cspan : x.right;
		if (x.left != cspan)
			break;
	}
	for (j = k + 1; j < n; j++) {
		x = get_sum(ix, level - 1, first + j);
		in_right += x.left == cspan ? cspan : x.left;
		if (x.left != cspan)
			break;
	}
	if (claim) {
		if (max_u64(co.longest, run_through(co, cspan, in_left, in_right)) >= p.longest)
			return compute_inner(ix, level, i);
	} else {
		p.longest = max_u64(p.longest, max_u64(cn.longest,
					run_through(cn, cspan, in_left, in_right)));
	}
	if (p.left >= k * cspan)
		p.left = k * cspan + (cn.left == cspan ? cspan + in_right : cn.left);
	if (n == FAN && p.right >= (FAN - 1 - k) * cspan)
		p.right = (FAN - 1 - k) * cspan + (cn.left == cspan ? cspan + in_left : cn.right);
	return p;
}

/* The nodes of @level wholly inside the change: [*lo, *hi), maybe empty. */
static void covered_range(unsigned int level, unsigned long start, unsigned long nr,
			  unsigned long *lo, unsigned long *hi)
{
	unsigned int sh = span_shift(level);

	*lo = (unsigned long)(((uint64_t)start + ((uint64_t)1 << sh) - 1) >> sh);
	*hi = (unsigned long)(((uint64_t)start + nr) >> sh);
	if (*hi < *lo)
		*hi = *lo;
}

/* Nodes (@level, [@lo, @hi)) became all used (@claim) or all free. */
static void put_uniform(struct modern_index *ix, unsigned int level, unsigned long lo,
			unsigned long hi, bool claim)
{
	uint64_t n = claim ? 0 : span(level);
	struct sum s = { n, n, n };
	unsigned long i;

	for (i = lo; i < hi; i++)
		put_sum(ix, level, i, s);
}

static void update_tree(struct modern_index *ix, const unsigned long *map,
			unsigned long start, unsigned long nr, bool claim)
{
	unsigned long from = start >> LEAF_SHIFT, to = (start + nr - 1) >> LEAF_SHIFT, i;
	unsigned long from_child = 0, cov_lo, cov_hi;
	struct sum s = { 0, 0, 0 }, old = s, co = s, cn = s;
	bool changed, single = false;
	unsigned int l;

	for (l = 0; l < ix->nlevels; l++) {
		/* Covered nodes were all free before a claim (all used before
		 * a release), so they change for sure: no need to compare. */
		covered_range(l, start, nr, &cov_lo, &cov_hi);
		put_uniform(ix, l, cov_lo, cov_hi, claim);
		changed = cov_lo < cov_hi;
		for (i = from; i <= to; i++) {
			if (i == cov_lo && cov_lo < cov_hi) {
				i = cov_hi - 1;
				continue;
			}
			if (l == 0)
				s = leaf_changed(ix, map, i, i == from ? start : i << LEAF_SHIFT,
						 i == to ? start + nr : (i + 1) << LEAF_SHIFT);
			else if (single)
				s = inner_changed(ix, l, i, from_child, co, cn, claim);
			else
				s = compute_inner(ix, l, i);
			old = get_sum(ix, l, i);
			if (!sum_eq(s, old)) {
				put_sum(ix, l, i, s);
				changed = true;
			}
		}
		/* Parents only depend on their children's summaries. */
		if (!changed)
			return;
		/* One changed child lets the parent be corrected from it; a
		 * covered one was written without its old summary at hand. */
		single = from == to && !(cov_lo <= from && from < cov_hi);
		co = old;
		cn = s;
		from_child = from;
		from >>= FAN_SHIFT;
		to >>= FAN_SHIFT;
	}
}

void modern_index_update(struct modern_index *ix, const unsigned long *map,
			 unsigned long start, unsigned long nr)
{
	bool claim = used_word(ix, map, start / BPL) >> (start % BPL) & 1;

	update_tree(ix, map, start, nr, claim);
	if (ix->sc)
		modern_sc_update(ix->sc, ix, map, start, nr, claim);
}

bool modern_index_verify(const struct modern_index *ix, const unsigned long *map)
{
	struct sum want, have;
	unsigned int l;
	unsigned long i;

	for (l = 0; l < ix->nlevels; l++) {
		for (i = 0; i < ix->count[l]; i++) {
			want = compute(ix, map, l, i);
			have = get_sum(ix, l, i);
			if (!sum_eq(want, have))
				return false;
		}
	}
	return !ix->sc || modern_sc_verify(ix->sc, map);
}

unsigned long modern_index_longest(const struct modern_index *ix)
{
	return (unsigned long)get_sum(ix, ix->nlevels - 1, 0).longest;
}

/* ------------------------------------------------------------ first fit */

/*
 * Scan leaf @i's words from bit @lo (bits below it read as used) for @nr
 * free bits, continuing the run of *@carry free bits that ends at the
 * leaf's (or @lo's) low edge.
 */
static unsigned long leaf_scan(const struct modern_index *ix, const unsigned long *map,
			       unsigned long i, unsigned long lo, unsigned long nr,
			       uint64_t *carry)
{
	unsigned long wi = i * LEAF_WORDS, wend = wi + LEAF_WORDS, w, x;
	unsigned int lead;

	if (lo > wi * BPL)
		wi = lo / BPL;
	for (; wi < wend; wi++) {
		w = used_word(ix, map, wi);
		if (lo > wi * BPL)
			w |= (1UL << (lo % BPL)) - 1;
		lead = ctz_or_bpl(w);
		if (*carry + lead >= nr)
			return (unsigned long)(wi * BPL - *carry);
		if (!w) {
			*carry += BPL;
			continue;
		}
		if (nr < BPL) {
			x = run_starts(~w, nr);
			if (x)
				return wi * BPL + (unsigned long)__builtin_ctzl(x);
		}
		*carry = clz_or_bpl(w);
	}
	return MODERN_INDEX_NONE;
}

/*
 * Node (@level, @i) holds a run of @nr free bits that does not start before
 * it (the caller has checked carry + left < nr <= longest): go down to it,
 * at each level taking the first child that settles the question.
 */
static unsigned long descend(const struct modern_index *ix, const unsigned long *map,
			     unsigned int level, unsigned long i, unsigned long nr,
			     uint64_t carry)
{
	unsigned long end;
	struct sum s;

	while (level > 0) {
		level--;
		i *= FAN;
		end = i + FAN < ix->count[level] ? i + FAN : ix->count[level];
		for (; i < end; i++) {
			s = get_sum(ix, level, i);
			if (carry + s.left >= nr)
				return (unsigned long)((uint64_t)i * span(level) - carry);
			if (s.longest >= nr)
				break;
			carry = s.left == span(level) ? carry + span(level) : s.right;
		}
		if (i == end)	/* the summaries lied: cannot happen */
			return MODERN_INDEX_NONE;
	}
	return leaf_scan(ix, map, i, 0, nr, &carry);
}

unsigned long modern_index_find(const struct modern_index *ix, const unsigned long *map,
				unsigned long lo, unsigned long nr)
{
	unsigned int level = 0, top = ix->nlevels - 1;
	unsigned long i, r;
	uint64_t carry = 0;
	struct sum s;

	if (lo >= ix->nbits || nr > ix->nbits - lo)
		return MODERN_INDEX_NONE;
	if (lo == 0) {
		s = get_sum(ix, top, 0);
		if (s.left >= nr)
			return 0;
		return s.longest >= nr ? descend(ix, map, top, 0, nr, 0) : MODERN_INDEX_NONE;
	}
	/* The leaf holding @lo from @lo on, then each level's right siblings,
	 * climbing until one of them settles the question. */
	i = lo >> LEAF_SHIFT;
	r = leaf_scan(ix, map, i, lo, nr, &carry);
	if (r != MODERN_INDEX_NONE)
		return r;
	for (;;) {
		while ((i + 1) % FAN && i + 1 < ix->count[level]) {
			i++;
			s = get_sum(ix, level, i);
			if (carry + s.left >= nr)
				return (unsigned long)((uint64_t)i * span(level) - carry);
			if (s.longest >= nr)
				return level ? descend(ix, map, level, i, nr, carry)
					     : leaf_scan(ix, map, i, 0, nr, &carry);
			carry = s.left == span(level) ? carry + span(level) : s.right;
		}
		if (level == top)
			return MODERN_INDEX_NONE;
		i /= FAN;
		level++;
	}
}

/* ------------------------------------------------------------ next used bit */

static unsigned long used_in_leaf(const struct modern_index *ix, const unsigned long *map,
				  unsigned long i, unsigned long lo)
{
	unsigned long wi = lo / BPL, wend = (i + 1) * LEAF_WORDS, w;

	for (; wi < wend; wi++) {
		w = used_word(ix, map, wi);
		if (lo > wi * BPL)
			w &= ~0UL << (lo % BPL);
		if (w)
			return wi * BPL + (unsigned long)__builtin_ctzl(w);
	}
	return MODERN_INDEX_NONE;
}

static unsigned long next_used(const struct modern_index *ix, const unsigned long *map,
			       unsigned int level, unsigned long i, unsigned long lo)
{
	uint64_t first = (uint64_t)i * span(level);
	unsigned long c, cend, r;
	struct sum s;

	if (lo <= first) {
		s = get_sum(ix, level, i);
		if (s.left < span(level))
			return (unsigned long)(first + s.left);
		return MODERN_INDEX_NONE;
	}
	if (level == 0)
		return used_in_leaf(ix, map, i, lo);
	c = (unsigned long)(lo / span(level - 1));
	cend = i * FAN + FAN < ix->count[level - 1] ? i * FAN + FAN : ix->count[level - 1];
	for (; c < cend; c++) {
		r = next_used(ix, map, level - 1, c, lo);
		if (r != MODERN_INDEX_NONE)
			return r;
	}
	return MODERN_INDEX_NONE;
}

/* The first used bit at or after @lo, or nbits (as find_next_bit()). */
static unsigned long find_used(const struct modern_index *ix, const unsigned long *map,
			       unsigned long lo)
{
	unsigned long r;

	if (lo >= ix->nbits)
		return ix->nbits;
	r = next_used(ix, map, ix->nlevels - 1, 0, lo);
	return r < ix->nbits ? r : ix->nbits;
}

unsigned long modern_index_next_used(const struct modern_index *ix,
				     const unsigned long *map, unsigned long lo)
{
	return find_used(ix, map, lo);
}

/* The last used bit below @x within leaf @i's words, or NONE. */
static unsigned long used_below_in_leaf(const struct modern_index *ix,
					const unsigned long *map, unsigned long i,
					unsigned long x)
{
	unsigned long first = i << LEAF_SHIFT, wi, w;

	while (x > first) {
		wi = (x - 1) / BPL;
		w = used_word(ix, map, wi);
		if (x % BPL)
			w &= ~0UL >> (BPL - x % BPL);
		if (w)
			return wi * BPL + BPL - 1 - (unsigned long)__builtin_clzl(w);
		x = wi * BPL;
	}
	return MODERN_INDEX_NONE;
}

unsigned long modern_index_prev_used(const struct modern_index *ix,
				     const unsigned long *map, unsigned long x)
{
	unsigned int level = 0, top = ix->nlevels - 1;
	unsigned long i, r;
	struct sum s;

	if (x == 0)
		return MODERN_INDEX_NONE;
	if (x > ix->nbits)
		x = ix->nbits;
	i = (x - 1) >> LEAF_SHIFT;
	r = used_below_in_leaf(ix, map, i, x);
	if (r != MODERN_INDEX_NONE)
		return r;
	/* Left siblings at each level, climbing; a node wholly below @x
	 * ends in "right" free bits, so its last used bit is known. */
	for (;;) {
		while (i % FAN) {
			i--;
			s = get_sum(ix, level, i);
			if (s.right < span(level))
				return (unsigned long)((uint64_t)(i + 1) * span(level) - s.right - 1);
		}
		if (level == top)
			return MODERN_INDEX_NONE;
		i /= FAN;
		level++;
	}
}

/* ------------------------------------------------------------ variants */

unsigned long modern_index_find_aligned(const struct modern_index *ix,
					const unsigned long *map, unsigned long nr,
					unsigned long mask, unsigned long off)
{
	unsigned long lo = 0, p, a, end;

	for (;;) {
		/* Only aligned starts count: the runs that lie wholly between
		 * two of them are skipped without being looked at. */
		lo = ((lo + off + mask) & ~mask) - off;
		p = modern_index_find(ix, map, lo, nr);
		if (p == MODERN_INDEX_NONE)
			return p;
		a = ((p + off + mask) & ~mask) - off;
		if (a == p)
			return p;
		if (a >= ix->nbits || nr > ix->nbits - a)
			return MODERN_INDEX_NONE;
		/* The run is [p, end): an aligned window fits in it or in no
		 * run before end, since every start up to end would cover
		 * that used bit.  The kernel's loop makes the same skip one
		 * used bit at a time. */
		end = find_used(ix, map, p + nr);
		if (a + nr <= end)
			return a;
		lo = end + 1;
	}
}

/* Best fit without the size classes (no memory for them): every run that
 * can hold @nr, in address order, one O(log n) step each. */
static unsigned long best_fit_walk(const struct modern_index *ix, const unsigned long *map,
				   unsigned long nr)
{
	unsigned long best = MODERN_INDEX_NONE, best_len = ~0UL, p, end;

	p = modern_index_find(ix, map, 0, nr);
	while (p != MODERN_INDEX_NONE) {
		end = find_used(ix, map, p + nr);
		if (end - p < best_len) {
			best_len = end - p;
			best = p;
			if (best_len == nr)
				break;
		}
		p = modern_index_find(ix, map, end + 1, nr);
	}
	return best;
}

unsigned long modern_index_best_fit(struct modern_index *ix, const unsigned long *map,
				    unsigned long nr)
{
	if (nr > ix->nbits || modern_index_longest(ix) < nr)
		return MODERN_INDEX_NONE;
	if (!ix->sc)
		ix->sc = modern_sc_create(map, ix->nbits);
	if (!ix->sc)
		return best_fit_walk(ix, map, nr);
	return modern_sc_best_fit(ix->sc, ix, map, nr);
}
