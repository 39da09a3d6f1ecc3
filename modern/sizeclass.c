// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/sizeclass.c - free runs by size, for gen_pool_best_fit().
 *
 * WHAT IS INDEXED
 *   Best fit wants the smallest maximal free run of at least nr granules,
 *   the lowest on ties; the run index (index.c) only knows the longest.
 *   This index sorts runs into size classes - one per length below 64, then
 *   four per power of two - and keeps for each class:
 *     head    - its first runs in (length, address) order, as many as
 *               COST allows: the class's best fit and the next ones;
 *     horizon - where the head stops being exact: every run of the class
 *               that sorts before the horizon is in the head;
 *     count   - how many runs the class holds;
 *     maxlen  - a bound on its longest run, so a query whose nr lies above
 *               every run of nr's own class skips that class unscanned;
 *     row     - one bit per block of 16384 granules, "a run of this class
 *               may start here" (a superset), with a summary bit per row
 *               word: read only to refill a head.
 *   A bitmap of the classes that hold runs finds the next one in one step.
 *
 * HOW IT IS KEPT EXACT
 *   Every claim or release destroys at most two runs and creates at most
 *   two (the pieces left of a claim, or the merged run of a release), all
 *   found in O(log n) through the index.  A new run counts, sets its row
 *   bit, and joins the head if it sorts before the horizon; a full head
 *   then gives up its last run, and the horizon moves down to it.  A
 *   destroyed run uncounts and leaves the head if it was there; the
 *   horizon stays, so the head is still every run before it.  Row bits
 *   stay behind: the next refill that scans that block for that class
 *   finds nothing and clears the bit, so each stale bit is paid for once.
 *
 * HOW A QUERY RUNS
 *   From nr's class upwards, the first class that holds runs: the first
 *   head run of at least nr granules is the answer - every run of a higher
 *   class is longer.  Only when the head has none while the class has runs
 *   past the horizon are the class's marked blocks scanned in address
 *   order for the runs past the horizon, which refills the head, moves the
 *   horizon up and gives the best run holding nr.  A one-length class
 *   sorts by address, so its scan starts at the horizon's block and stops
 *   once the head is full: successive refills sweep the chunk once.
 *   Each answer is the kernel's: the smallest maximal run holding nr, the
 *   first on ties.
 *
 * COST
 *   For a chunk of N granules, for each class up to length N (at most 167
 *   of them): a row of one bit per 16384 granules, with a summary when the
 *   row is longer than SUM_AFTER words, 18 bytes of count, bound, head
 *   size and horizon, and the head at 8 bytes a run: up to 8 runs for each
 *   one-length class, and for each wider class as many (at least 4) as
 *   keep the run index and the size classes together within the
 *   bookkeeping budget; on small chunks that floor passes it.  What that
 *   comes to, chunk size by chunk size: docs/bookkeeping.md.  Allocated
 *   the first time best fit runs on the chunk.
 */
#include "sizeclass_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap_internal.h"
#include "genalloc.h"
#include "blockscan_internal.h"
#include "index_state_internal.h"
#include "treesearch_internal.h"
#include "meta_internal.h"

#define BPL MODERN_BITS_PER_LONG
#define SC_BLOCK_SHIFT 14
#define SC_BLOCK_BITS (1UL << SC_BLOCK_SHIFT)
#define EXACT 63		/* lengths 1 .. 63 have a class each */
#define SUB_SHIFT 2		/* then 4 classes per power of two */
#define NCLASS (EXACT + (32 - 6) * (1 << SUB_SHIFT))
#define CLASS_WORDS ((NCLASS + BPL - 1) / BPL)
#define ROOM_MIN 4		/* runs in a class's head, at the least */
#define EXACT_ROOM_MAX 8	/* ... and at the most in a one-length class's */
/* Rows of more words than this keep a summary; shorter ones are read whole
 * (on 2^21 granules, two words: their summaries would cost the heads one
 * run a class). */
#define SUM_AFTER 8

/* One free run; chunks have at most 2^32 - 1 granules. */
struct sc_run {
	uint32_t start;
	uint32_t len;
};

/* A horizon past every run: the head holds the whole class. */
static const struct sc_run everything = { UINT32_MAX, UINT32_MAX };

/**
 * struct modern_sizeclass - see the file comment
 * @consumer:  how the index feeds it change records (first)
 * @nbits:     granules in the chunk
 * @nblocks:   blocks of SC_BLOCK_BITS granules
 * @row_words: words per class row
 * @sum_words: words per row summary (0: rows of SUM_AFTER words or fewer
 *             have none)
 * @nclass:    classes the chunk can hold runs of: those of lengths up to
 *             @nbits, which alone have counts, heads and rows
 * @room:      runs the head of a class of more than one length can hold
 * @exact_room: runs the head of a one-length class can hold
 * @nonempty:  bit c set iff class c holds a run
 * @count:     runs per class (@nclass of them, as the four below)
 * @maxlen:    no run of the class is longer
 * @nhead:     runs in each class's head
 * @horizon:   each class's horizon
 * @heads:     the heads, sorted by (length, start): @exact_room runs
 *             for each one-length class, then @room for each of the others
 * @sums:      @nclass summaries: bit w set iff word w of the row is not 0,
 *             so a refill skips empty stretches of a big chunk's rows
 * @rows:      @nclass rows of @row_words words
 *
 * Everything sized by @nclass follows the header in one allocation: rows,
 * summaries, horizons, heads, then the counts, bounds and head sizes.
 * Arrays of all NCLASS classes would cost a chunk of 2^21 granules, whose
 * runs fit in 124 classes, 774 bytes: a run a class of its heads' room.
 */
struct modern_sizeclass {
	struct modern_index_consumer consumer;
	unsigned long nbits;
	unsigned long nblocks;
	unsigned long row_words;
	unsigned long sum_words;
	unsigned int nclass;
	unsigned int room;
	unsigned int exact_room;
	unsigned long nonempty[CLASS_WORDS];
	uint32_t *count;
	uint32_t *maxlen;
	uint16_t *nhead;
	struct sc_run *horizon;
	struct sc_run *heads;
	unsigned long *sums;
	unsigned long rows[];
};

/* Lengths are below 2^32 (MODERN_INDEX_MAX_BITS), so k <= 31 below. */
static unsigned int size_class(unsigned long len)
{
	unsigned int k;

	if (len <= EXACT)
		return (unsigned int)len - 1;
	k = (unsigned int)(BPL - 1) - (unsigned int)__builtin_clzl(len);
	return EXACT + (k - 6) * (1U << SUB_SHIFT) +
	       (unsigned int)((len >> (k - SUB_SHIFT)) & ((1UL << SUB_SHIFT) - 1));
}

static unsigned long *row(struct modern_sizeclass *sc, unsigned int c)
{
	return &sc->rows[(size_t)c * sc->row_words];
}

static unsigned long *sum(struct modern_sizeclass *sc, unsigned int c)
{
	return &sc->sums[(size_t)c * sc->sum_words];
}

/* ------------------------------------------------------------ heads */

static bool run_before(struct sc_run a, struct sc_run b)
{
	return a.len < b.len || (a.len == b.len && a.start < b.start);
}

static unsigned int head_room(const struct modern_sizeclass *sc, unsigned int c)
{
	return c < EXACT ? sc->exact_room : sc->room;
}

static struct sc_run *head(struct modern_sizeclass *sc, unsigned int c)
{
	if (c < EXACT)
		return &sc->heads[(size_t)c * sc->exact_room];
	return &sc->heads[EXACT * sc->exact_room + (size_t)(c - EXACT) * sc->room];
}

/* How many of the @n sorted runs of @h sort before @r. */
static unsigned int head_rank(const struct sc_run *h, unsigned int n, struct sc_run r)
{
	unsigned int lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (run_before(h[mid], r))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Put @r, which sorts before the horizon, into class @c's head; if the
 * head is full, the last of its runs and @r stays out and becomes the
 * horizon. */
static void head_add(struct modern_sizeclass *sc, unsigned int c, struct sc_run r)
{
	struct sc_run *h = head(sc, c);
	unsigned int n = sc->nhead[c], i;

	if (n == head_room(sc, c)) {
		if (!run_before(r, h[n - 1])) {
			sc->horizon[c] = r;
			return;
		}
		sc->horizon[c] = h[--n];
	}
	i = head_rank(h, n, r);
	memmove(&h[i + 1], &h[i], (n - i) * sizeof(*h));
	h[i] = r;
	sc->nhead[c] = (uint16_t)(n + 1);
}

static void head_remove(struct modern_sizeclass *sc, unsigned int c, struct sc_run r)
{
	struct sc_run *h = head(sc, c);
	unsigned int n = sc->nhead[c], i = head_rank(h, n, r);

	if (i < n && h[i].start == r.start) {
		memmove(&h[i], &h[i + 1], (n - i - 1) * sizeof(*h));
		sc->nhead[c] = (uint16_t)(n - 1);
	}
}

/* ------------------------------------------------------------ runs */

static void mark(struct modern_sizeclass *sc, unsigned int c, unsigned long b)
{
	unsigned long wi = b / BPL, *w = &row(sc, c)[wi];

	*w |= 1UL << (b % BPL);
	if (sc->sum_words)
		sum(sc, c)[wi / BPL] |= 1UL << (wi % BPL);
}

static void unmark(struct modern_sizeclass *sc, unsigned int c, unsigned long b)
{
	unsigned long wi = b / BPL, *w = &row(sc, c)[wi];

	*w &= ~(1UL << (b % BPL));
	if (!*w && sc->sum_words)
		sum(sc, c)[wi / BPL] &= ~(1UL << (wi % BPL));
}

/* The free run [@start, @start + @len) appeared. */
static void run_added(struct modern_sizeclass *sc, unsigned long start, unsigned long len)
{
	unsigned int c = size_class(len);
	struct sc_run r = { (uint32_t)start, (uint32_t)len };

	if (run_before(r, sc->horizon[c]))
		head_add(sc, c, r);
	if (!sc->count[c]++)
		sc->nonempty[c / BPL] |= 1UL << (c % BPL);
	if (len > sc->maxlen[c])
		sc->maxlen[c] = (uint32_t)len;
	mark(sc, c, start >> SC_BLOCK_SHIFT);
}

/* The free run [@start, @start + @len) is gone (merged or claimed). */
static void run_removed(struct modern_sizeclass *sc, unsigned long start, unsigned long len)
{
	unsigned int c = size_class(len);
	struct sc_run r = { (uint32_t)start, (uint32_t)len };

	head_remove(sc, c, r);
	if (!--sc->count[c])
		sc->nonempty[c / BPL] &= ~(1UL << (c % BPL));
}

/*
 * The classes a chunk of @nbits granules can hold runs of: no run is longer
 * than the chunk, so the classes above its length need no row, no head and
 * no count (on 2^21 granules, 43 of the 167).
 */
static unsigned int classes_for(unsigned long nbits)
{
	return size_class(nbits) + 1;
}

/* Head slots for a room of @room runs in each wider class and @exact in
 * each one-length class, over the classes the chunk has. */
static unsigned long head_slots(unsigned long nbits, unsigned int room, unsigned int exact)
{
	unsigned int n = classes_for(nbits), e = n < EXACT ? n : EXACT;

	return (unsigned long)e * exact + (unsigned long)(n - e) * room;
}

static unsigned long row_words_for(unsigned long nbits)
{
	return modern_bits_to_longs((nbits + SC_BLOCK_BITS - 1) >> SC_BLOCK_SHIFT);
}

static unsigned long sum_words_for(unsigned long row_words)
{
	return row_words > SUM_AFTER ? modern_bits_to_longs(row_words) : 0;
}

/* Rows, summaries, horizons, counts, bounds and head sizes: what the
 * chunk's classes cost besides their heads, in bytes. */
static size_t class_bytes(unsigned long nbits)
{
	unsigned long row_words = row_words_for(nbits);

	return classes_for(nbits) * ((row_words + sum_words_for(row_words)) * sizeof(unsigned long) +
				     sizeof(struct sc_run) + 2 * sizeof(uint32_t) + sizeof(uint16_t));
}

/*
 * Room in a wide class's head: as much as keeps the run index and the size
 * classes within the budget (nbits / 64 bytes), and at least ROOM_MIN.  A refill reads
 * every block the class has marked, and a query longer than every run in
 * the head needs one, so the room is worth more than anything else the
 * budget could buy: a fixed ceiling makes best fit slower the bigger the
 * chunk, as a class's runs grow in number with it.
 */
static unsigned int wide_room(unsigned long nbits)
{
	size_t fixed = modern_index_bytes(nbits) + sizeof(struct modern_sizeclass) +
		       class_bytes(nbits), budget = nbits / 64;
	unsigned long slots = budget > fixed ? (budget - fixed) / sizeof(struct sc_run) : 0;
	unsigned long exact = head_slots(nbits, 0, 1), wide = head_slots(nbits, 1, 0), k;

	/* Every class the same room, unless that passes what a one-length
	 * class can use: then the wider ones share what those leave. */
	k = slots / (exact + wide);
	if (k > EXACT_ROOM_MAX && wide)
		k = (slots - exact * EXACT_ROOM_MAX) / wide;
	return k < ROOM_MIN ? ROOM_MIN : k > UINT16_MAX ? UINT16_MAX : (unsigned int)k;
}

/* A one-length class refills from its horizon on: a few runs suffice, up
 * to the wider classes' @room. */
static unsigned int exact_room(unsigned int room)
{
	return room < EXACT_ROOM_MAX ? room : EXACT_ROOM_MAX;
}

size_t modern_sc_bytes(unsigned long nbits)
{
	unsigned int room = wide_room(nbits);

	return sizeof(struct modern_sizeclass) + class_bytes(nbits) +
	       head_slots(nbits, room, exact_room(room)) * sizeof(struct sc_run);
}

/* Every maximal run of the map, in address order, into @sc. */
static void add_all(struct modern_sizeclass *sc, const unsigned long *map)
{
	unsigned long from, to;

	from = modern_find_next_zero_bit(map, sc->nbits, 0);
	while (from < sc->nbits) {
		to = modern_find_next_bit(map, sc->nbits, from);
		run_added(sc, from, to - from);
		from = modern_find_next_zero_bit(map, sc->nbits, to);
	}
}

static const struct modern_index_consumer_ops sc_ops;

struct modern_sizeclass *modern_sc_create(const unsigned long *map, unsigned long nbits)
{
	struct modern_sizeclass *sc = modern_meta_zalloc(modern_sc_bytes(nbits));
	unsigned int c;

	if (!sc)
		return NULL;
	sc->consumer.ops = &sc_ops;
	sc->nbits = nbits;
	sc->nblocks = (nbits + SC_BLOCK_BITS - 1) >> SC_BLOCK_SHIFT;
	sc->row_words = row_words_for(nbits);
	sc->sum_words = sum_words_for(sc->row_words);
	sc->nclass = classes_for(nbits);
	sc->room = wide_room(nbits);
	sc->exact_room = exact_room(sc->room);
	sc->sums = &sc->rows[sc->nclass * sc->row_words];
	/* Each array needs no more alignment than the one before it. */
	sc->horizon = (struct sc_run *)(void *)&sc->sums[sc->nclass * sc->sum_words];
	sc->heads = &sc->horizon[sc->nclass];
	sc->count = (uint32_t *)(void *)&sc->heads[head_slots(nbits, sc->room, sc->exact_room)];
	sc->maxlen = &sc->count[sc->nclass];
	sc->nhead = (uint16_t *)(void *)&sc->maxlen[sc->nclass];
	for (c = 0; c < sc->nclass; c++)
		sc->horizon[c] = everything;
	add_all(sc, map);
	return sc;
}

void modern_sc_destroy(struct modern_sizeclass *sc)
{
	if (sc)
		modern_meta_free(sc, modern_sc_bytes(sc->nbits));
}

/* The size classes as the index's consumer: change records in, and the
 * index's verify, footprint and destroy. */
static struct modern_sizeclass *sc_of(const struct modern_index_consumer *c)
{
	/* Size classes are heap memory, never a constant: the slot holds
	 * them const only because other consumers are. */
	return (struct modern_sizeclass *)(uintptr_t)c;
}

/* Bits [start, start + nr) were claimed out of the free run [s, e), or
 * released and merged into it (the index measured the run for its own
 * update). */
static void sc_change(const struct modern_index_consumer *c, struct modern_index *ix,
		      const unsigned long *map, const struct modern_index_change *chg)
{
	struct modern_sizeclass *sc = sc_of(c);
	const unsigned long s = chg->run_start, e = chg->run_end, start = chg->start, nr = chg->nr;

	(void)ix;
	(void)map;

	/* Gone first, then new: a head never holds a dead run when a new one
	 * is placed against it. */
	if (chg->claim) {
		run_removed(sc, s, e - s);
		if (s < start)
			run_added(sc, s, start - s);
		if (start + nr < e)
			run_added(sc, start + nr, e - (start + nr));
		return;
	}
	if (s < start)
		run_removed(sc, s, start - s);
	if (start + nr < e)
		run_removed(sc, start + nr, e - (start + nr));
	run_added(sc, s, e - s);
}

static bool sc_verify(const struct modern_index_consumer *c, const struct modern_index *ix,
		      const unsigned long *map)
{
	(void)ix;
	return modern_sc_verify(sc_of(c), map);
}

static size_t sc_bytes(const struct modern_index_consumer *c, const struct modern_index *ix)
{
	(void)ix;
	return modern_sc_bytes(sc_of(c)->nbits);
}

/* Rebuilt from the map by the next best-fit search, not now: a rebuild
 * follows a failure, and best fit may never run again on the chunk. */
static bool sc_rebuild(const struct modern_index_consumer *c, struct modern_index *ix,
		       const unsigned long *map)
{
	(void)c;
	(void)ix;
	(void)map;
	return false;
}

static void sc_destroy(const struct modern_index_consumer *c)
{
	modern_sc_destroy(sc_of(c));
}

static const struct modern_index_consumer_ops sc_ops = {
	.change = sc_change,
	.verify = sc_verify,
	.bytes = sc_bytes,
	.rebuild = sc_rebuild,
	.destroy = sc_destroy,
};

/* ------------------------------------------------------------ refill */

/* The runs of at least @nr bits that start in block @b from @p (a used bit,
 * or one whose run is shorter than @nr), in order, each to @visit; the
 * block's value must be at least @nr.  Returns where the last run ended,
 * or @p. */
static unsigned long visit_block(const struct modern_index *ix, const unsigned long *map,
				 unsigned long b, unsigned long p, unsigned long nr,
				 unsigned long limit, modern_sc_visit_fn visit, void *arg)
{
	unsigned long r, q;

	while ((r = block_find(ix, map, b, p, nr, &q)) < limit) {
		if (q == MODERN_INDEX_NONE)
			q = next_used(ix, map, r);
		visit(arg, r, q);
		p = q;
		if (q >> BLOCK_SHIFT != b)
			break;	/* the run went past the block */
	}
	return p;
}

/*
 * Only the blocks whose leaves hold @nr are read, eight leaves at a time
 * from one load: a refill asks for every run of at least its class's
 * shortest length in a stretch of 64 blocks, and climbing the tree again
 * for each run, or walking the bitmap word by word, would read far more.
 * The leaves alone are exact (the dirty block's included); only saturated
 * ones need their parent (sat_filter(), treesearch_internal.h).
 */
void modern_sc_visit_runs(const struct modern_index *ix, const unsigned long *map,
			     unsigned long lo, unsigned long limit, unsigned long nr,
			     modern_sc_visit_fn visit, void *arg)
{
	unsigned long p = lo, b, bend, g;
	unsigned int mask;

	limit = min_ul(limit, ix->nbits);
	if (lo >= limit || nr == 0)
		return;
	/* A run through @lo that started below it is not one of the stretch's. */
	if (p > 0 && !bit_used(map, p - 1))
		p = next_used(ix, map, p);
	bend = ceil_div(limit, BLOCK_BITS);
	for (b = p >> BLOCK_SHIFT, g = b & ~(FAN - 1); g < bend && p < limit; g += FAN) {
		mask = leaf_mask(ix, g, nr) & (~0U << (b > g ? b - g : 0));
		if (bend - g < FAN)
			mask &= (1U << (bend - g)) - 1;
		for (; mask && p < limit; mask &= mask - 1) {
			b = g + (unsigned long)__builtin_ctz(mask);
			if (b < p >> BLOCK_SHIFT)
				continue;	/* a visited run covered it */
			p = visit_block(ix, map, b, p > b << BLOCK_SHIFT ? p : b << BLOCK_SHIFT,
					nr, limit, visit, arg);
		}
	}
}


/**
 * struct refill - a scan of one class's marked blocks
 * @sc:     whose head it refills
 * @c:      the class
 * @nr:     the request
 * @from:   the old horizon: runs before it are in the head already
 * @best:   the best run seen holding @nr (len 0: none yet)
 * @maxlen: the longest run of the class seen
 * @any:    the block being scanned starts a run of the class
 */
struct refill {
	struct modern_sizeclass *sc;
	unsigned int c;
	unsigned long nr;
	struct sc_run from;
	struct sc_run best;
	unsigned long maxlen;
	bool any;
};

static void refill_take(struct refill *rf, unsigned long p, unsigned long len)
{
	struct sc_run r = { (uint32_t)p, (uint32_t)len };

	if (len > rf->maxlen)
		rf->maxlen = len;
	if (run_before(r, rf->from))
		return;
	if (len >= rf->nr && (!rf->best.len || run_before(r, rf->best)))
		rf->best = r;
	if (run_before(r, rf->sc->horizon[rf->c]))
		head_add(rf->sc, rf->c, r);
}

/* The shortest length of class @c (the inverse of size_class()). */
static unsigned long class_min(unsigned int c)
{
	unsigned int k;

	if (c < EXACT)
		return c + 1;
	k = (c - EXACT) / (1U << SUB_SHIFT) + 6;
	return (1UL << k) + (unsigned long)((c - EXACT) % (1U << SUB_SHIFT)) * (1UL << (k - SUB_SHIFT));
}

/* One run of the refill's scan: into the refill if it is of the class. */
static void refill_visit(void *arg, unsigned long start, unsigned long end)
{
	struct refill *rf = arg;

	if (size_class(end - start) == rf->c) {
		rf->any = true;
		refill_take(rf, start, end - start);
	}
}

/*
 * Every run of class @rf->c that starts in block @b, into @rf.  Runs that
 * start before the block are not its; the last may end past it.  The
 * index leads to each run at least as long as the class's shortest, over
 * the shorter ones and over used stretches, reading only the leaves of the
 * block's 64 index blocks, rather than climbing the index's tree again
 * for each run or walking the bitmap word by word.
 *
 * Return: whether the block starts any run of the class.
 */
static bool scan_sc_block(const struct modern_index *ix, const unsigned long *map,
		       unsigned long nbits, unsigned long b, struct refill *rf)
{
	unsigned long first = b << SC_BLOCK_SHIFT, end = first + SC_BLOCK_BITS;

	rf->any = false;
	modern_sc_visit_runs(ix, map, first, end < nbits ? end : nbits, class_min(rf->c),
				refill_visit, rf);
	return rf->any;
}

/* The first block at or after @b marked in class @c's row, or ~0UL. */
static unsigned long next_marked(struct modern_sizeclass *sc, unsigned int c, unsigned long b)
{
	unsigned long wi = b / BPL, si, w, m;

	if (b >= sc->nblocks)
		return ~0UL;
	w = row(sc, c)[wi] & (~0UL << (b % BPL));
	if (w)
		return wi * BPL + (unsigned long)__builtin_ctzl(w);
	if (!sc->sum_words) {
		while (++wi < sc->row_words)
			if ((w = row(sc, c)[wi]))
				return wi * BPL + (unsigned long)__builtin_ctzl(w);
		return ~0UL;
	}
	/* The rest through the summary: only words with a mark are read. */
	for (si = (wi + 1) / BPL, wi++; si < sc->sum_words; si++, wi = si * BPL) {
		m = sum(sc, c)[si] & (wi % BPL ? ~0UL << (wi % BPL) : ~0UL);
		if (m) {
			wi = si * BPL + (unsigned long)__builtin_ctzl(m);
			return wi * BPL + (unsigned long)__builtin_ctzl(row(sc, c)[wi]);
		}
	}
	return ~0UL;
}

/*
 * Scan class @c's marked blocks for its runs past the horizon, clearing
 * stale marks, refilling the head and moving the horizon up.  A wider
 * class sorts by length first, so every marked block is read; a
 * one-length class sorts by address, so the scan starts at the horizon's
 * block and stops once the head is full.
 *
 * Return: the best run past the old horizon that holds @nr, or one of
 * length 0.
 */
static struct sc_run refill(struct modern_sizeclass *sc, const struct modern_index *ix,
			    const unsigned long *map, unsigned int c, unsigned long nr)
{
	struct refill rf = { .sc = sc, .c = c, .nr = nr, .from = sc->horizon[c] };
	struct sc_run next = { 0, c + 1 };
	unsigned long b = c < EXACT ? rf.from.start >> SC_BLOCK_SHIFT : 0;

	sc->horizon[c] = everything;
	for (b = next_marked(sc, c, b); b != ~0UL; b = next_marked(sc, c, b + 1)) {
		if (!scan_sc_block(ix, map, sc->nbits, b, &rf)) {
			unmark(sc, c, b);	/* its runs are gone: a stale mark */
		} else if (c < EXACT && sc->nhead[c] == sc->exact_room) {
			/* The rest start in later blocks, if any. */
			next.start = (uint32_t)((b + 1) << SC_BLOCK_SHIFT);
			if (b + 1 < sc->nblocks && run_before(next, sc->horizon[c]))
				sc->horizon[c] = next;
			break;
		}
	}
	if (b == ~0UL && c >= EXACT)
		sc->maxlen[c] = (uint32_t)rf.maxlen;
	return rf.best;
}

/* ------------------------------------------------------------ queries */

/* The first class at or after @c that holds a run, or NCLASS. */
static unsigned int next_class(const struct modern_sizeclass *sc, unsigned int c)
{
	unsigned long wi = c / BPL, w;

	if (c >= NCLASS)
		return NCLASS;
	w = sc->nonempty[wi] & (~0UL << (c % BPL));
	while (!w) {
		if (++wi == CLASS_WORDS)
			return NCLASS;
		w = sc->nonempty[wi];
	}
	return (unsigned int)(wi * BPL) + (unsigned int)__builtin_ctzl(w);
}

/* @r's first bit, and its end in *@run_end. */
static unsigned long run_answer(struct sc_run r, unsigned long *run_end)
{
	*run_end = (unsigned long)r.start + r.len;
	return r.start;
}

unsigned long modern_sc_best_fit(struct modern_sizeclass *sc, const struct modern_index *ix,
				 const unsigned long *map, unsigned long nr,
				 unsigned long *run_end)
{
	struct sc_run want = { 0, (uint32_t)nr }, r;
	unsigned int c, i;

	for (c = next_class(sc, size_class(nr)); c < NCLASS; c = next_class(sc, c + 1)) {
		if (nr > sc->maxlen[c])
			continue;	/* only nr's own class can be all too short */
		/* The first head run that holds nr: in a higher class the
		 * first of all, in nr's own the first as long as nr. */
		i = head_rank(head(sc, c), sc->nhead[c], want);
		if (i < sc->nhead[c])
			return run_answer(head(sc, c)[i], run_end);
		if (sc->nhead[c] == sc->count[c])
			continue;	/* the head is the whole class */
		r = refill(sc, ix, map, c, nr);
		if (r.len)
			return run_answer(r, run_end);
	}
	return MODERN_INDEX_NONE;
}

/*
 * Instant fit's question (instantfit.c): a run of at least @len from the
 * first class whose runs are all that long and whose head holds one, in
 * O(classes) bit steps and no scan.  A class that holds runs only past its
 * horizon is passed over: refilling it would be a search.
 */
bool modern_sc_any_at_least(struct modern_sizeclass *sc, unsigned long len,
			    unsigned long *start, unsigned long *run_end)
{
	unsigned int c = size_class(len);

	/* Only classes whose shortest run is at least @len. */
	if (class_min(c) < len)
		c++;
	for (c = next_class(sc, c); c < NCLASS; c = next_class(sc, c + 1)) {
		if (sc->nhead[c]) {
			*start = run_answer(head(sc, c)[0], run_end);
			return true;
		}
	}
	return false;
}

struct modern_sizeclass *modern_sc_get(struct modern_index *ix, const unsigned long *map)
{
	const struct modern_index_consumer *c = modern_index_consumer(ix, MODERN_INDEX_CLASSES);
	struct modern_sizeclass *sc;

	if (c)
		return sc_of(c);
	sc = modern_sc_create(map, ix->nbits);
	if (sc)
		modern_index_attach(ix, MODERN_INDEX_CLASSES, &sc->consumer);
	return sc;
}

/* ------------------------------------------------------------ checking */

/* Is @r a maximal free run of @map? */
static bool is_run(const unsigned long *map, unsigned long nbits, struct sc_run r)
{
	unsigned long end = (unsigned long)r.start + r.len;

	if (!r.len || end > nbits)
		return false;
	if (r.start && !(map[(r.start - 1) / BPL] >> ((r.start - 1) % BPL) & 1))
		return false;
	if (end < nbits && !(map[end / BPL] >> (end % BPL) & 1))
		return false;
	return modern_find_next_bit(map, end, r.start) == end;
}

/* Are class @c's head, count and bound of @sc right, and its row a
 * superset of @fresh's (built from the map)? */
static bool class_ok(struct modern_sizeclass *sc, struct modern_sizeclass *fresh,
		     const unsigned long *map, unsigned int c)
{
	const struct sc_run *h = head(sc, c);
	unsigned long i;
	bool ok = sc->count[c] == fresh->count[c] && sc->maxlen[c] >= fresh->maxlen[c] &&
		  sc->nhead[c] <= head_room(sc, c) && sc->nhead[c] <= sc->count[c] &&
		  !(sc->nonempty[c / BPL] >> (c % BPL) & 1) == !sc->count[c];

	for (i = 0; ok && i < sc->nhead[c]; i++)
		ok = is_run(map, sc->nbits, h[i]) && size_class(h[i].len) == c &&
		     (i == 0 || run_before(h[i - 1], h[i])) && run_before(h[i], sc->horizon[c]);
	for (i = 0; ok && i < sc->row_words; i++)
		ok = !(row(fresh, c)[i] & ~row(sc, c)[i]) &&
		     (!sc->sum_words || !row(sc, c)[i] == !(sum(sc, c)[i / BPL] >> (i % BPL) & 1));
	return ok;
}

/* Is every run of the map that sorts before its class's horizon in the
 * head?  (With class_ok(): the head is exactly those runs.) */
static bool heads_complete(struct modern_sizeclass *sc, const unsigned long *map)
{
	unsigned long from, to;
	struct sc_run r;
	unsigned int c, i;

	from = modern_find_next_zero_bit(map, sc->nbits, 0);
	while (from < sc->nbits) {
		to = modern_find_next_bit(map, sc->nbits, from);
		r.start = (uint32_t)from;
		r.len = (uint32_t)(to - from);
		c = size_class(r.len);
		i = head_rank(head(sc, c), sc->nhead[c], r);
		if (run_before(r, sc->horizon[c]) &&
		    (i == sc->nhead[c] || head(sc, c)[i].start != r.start))
			return false;
		from = modern_find_next_zero_bit(map, sc->nbits, to);
	}
	return true;
}

bool modern_sc_verify(struct modern_sizeclass *sc, const unsigned long *map)
{
	struct modern_sizeclass *fresh = modern_sc_create(map, sc->nbits);
	unsigned int c;
	bool ok = true;

	if (!fresh)
		return true;	/* cannot tell without memory */
	for (c = 0; c < sc->nclass && ok; c++)
		ok = class_ok(sc, fresh, map, c);
	/* The classes past the chunk's length have nothing to hold. */
	for (; c < NCLASS && ok; c++)
		ok = !(sc->nonempty[c / BPL] >> (c % BPL) & 1);
	modern_sc_destroy(fresh);
	return ok && heads_complete(sc, map);
}

/* ------------------------------------------------------------ best fit */

/* Best fit without the size classes (no memory for them): the kernel's
 * own search of the bitmap, then the end of the run it found. */
static unsigned long best_fit_linear(const struct modern_index *ix, const unsigned long *map,
				     unsigned long nr, unsigned long *run_end)
{
	unsigned long p = modern_gen_pool_best_fit((unsigned long *)map, ix->nbits, 0,
						   (unsigned int)nr, NULL, NULL, 0);

	if (p >= ix->nbits)
		return MODERN_INDEX_NONE;
	*run_end = next_used(ix, map, p + nr);
	return p;
}

unsigned long modern_best_fit(struct modern_index *ix, const unsigned long *map,
			      unsigned long nr, unsigned long *run_end)
{
	const struct modern_index_consumer *c = modern_index_consumer(ix, MODERN_INDEX_CLASSES);
	struct modern_sizeclass *sc = c ? sc_of(c) : NULL;
	unsigned long r;

	if (nr > ix->nbits || modern_index_longest(ix) < nr)
		return MODERN_INDEX_NONE;
	settle_short_dirty(ix, nr);
	if (!sc) {
		sc = modern_sc_create(map, ix->nbits);
		if (sc)
			modern_index_attach(ix, MODERN_INDEX_CLASSES, &sc->consumer);
	}
	r = sc ? modern_sc_best_fit(sc, ix, map, nr, run_end) : best_fit_linear(ix, map, nr, run_end);
	settle_dirty_at(ix, r);
	return r;
}

unsigned long modern_best_fit_claim(struct modern_index *ix, const unsigned long *map,
				    unsigned long nr, unsigned long *run_end)
{
	unsigned long r = modern_best_fit(ix, map, nr, run_end);
	const struct modern_index_consumer *c = modern_index_consumer(ix, MODERN_INDEX_CLASSES);
	struct modern_sizeclass *sc;

	if (r == MODERN_INDEX_NONE || !c)
		return r;
	/* The claim of [r, r + nr) out of the run [r, *run_end), as sc_change()
	 * would hear it from the index. */
	sc = sc_of(c);
	run_removed(sc, r, *run_end - r);
	if (r + nr < *run_end)
		run_added(sc, r + nr, *run_end - (r + nr));
	return r;
}
