// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/fuzz/fuzz_modern.c - today's bitmap engine against a granule-by-
 * granule reference.
 *
 * Input: one header byte (min_alloc_order 0..6), then operations: chunks
 * added with or without a physical address and with owners, at granule-
 * aligned or unaligned starts, some touching older chunks; allocations with
 * every algorithm (and one of the caller's own) through every entry point
 * (owner, DMA, the pool's default); frees, whole or of a block's head;
 * queries; deliberate misuse.  The chunks are plain
 * numbers: the engine never touches the memory it manages.
 *
 * The reference states each algorithm as a property of the bitmap (the
 * lowest free run such that ...), not as a search loop.  After every step
 * each chunk's bitmap, avail, owner and physical address equal the
 * reference's, the checker passes, and gen_pool_avail/size/stats agree;
 * every block honours its algorithm's promise (absolute alignment, order
 * alignment, exact offset).  A refused call must report exactly the
 * documented code; since the reference did not move, the same comparison
 * proves that the pool did not either.
 */
#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "modern/genalloc.h"

#define MAX_CHUNKS	12
#define MAX_GRANULES	700
#define MAX_LIVE	512
#define ADDR_BASE	0x10000000UL
#define SLOT		0x10000UL
#define NO_PHYS		((phys_addr_t)-1)

enum algo { FIRST, ALIGN, ORDER_ALIGN, BEST, FIXED, LAST, NR_ALGOS };

struct ref_chunk {
	unsigned long start, size, nbits;
	long avail;
	phys_addr_t phys;
	void *owner;
	unsigned char used[MAX_GRANULES + 1];
};

struct block {
	unsigned long addr;
	size_t size;
	int chunk;
};

struct run {
	struct fuzz_in in;
	struct gen_pool *pool;
	int order;
	unsigned long g;
	int n;				/* chunks[0] is the oldest */
	struct ref_chunk chunks[MAX_CHUNKS];
	char owners[MAX_CHUNKS];	/* their addresses are the owners */
	struct block live[MAX_LIVE];
	int nr_live;
	enum algo def_algo;		/* the pool's default */
	unsigned long def_param;
	struct genpool_data_align def_align;
	struct genpool_data_fixed def_fixed;
};

/* ------------------------------------------------------------ reference */

static int run_free(const struct ref_chunk *c, unsigned long i, unsigned long nr)
{
	if (i > c->nbits || nr > c->nbits - i)
		return 0;
	for (unsigned long j = 0; j < nr; j++)
		if (c->used[i + j])
			return 0;
	return 1;
}

static unsigned long hole_at(const struct ref_chunk *c, unsigned long i)
{
	unsigned long j = i;

	while (j < c->nbits && !c->used[j])
		j++;
	return j - i;
}

static unsigned long pow2_at_least(unsigned long n)
{
	unsigned long p = 1;

	while (p < n)
		p <<= 1;
	return p;
}

/* The granule where @a puts @nr granules in @c, or c->nbits if nowhere. */
static unsigned long ref_place(const struct run *r, const struct ref_chunk *c, enum algo a,
			       unsigned long nr, unsigned long param)
{
	unsigned long i, mask = 0, off = 0, best = c->nbits, best_len = ULONG_MAX, len;

	switch (a) {
	case FIXED:
		i = param >> r->order;
		return run_free(c, i, nr) ? i : c->nbits;
	case BEST:	/* the smallest hole that holds nr, lowest on ties */
		for (i = 0; i < c->nbits; i++) {
			if (c->used[i] || (i && !c->used[i - 1]))
				continue;
			len = hole_at(c, i);
			if (len >= nr && len < best_len) {
				best = i;
				best_len = len;
			}
		}
		return best;
	case ALIGN:	/* the kernel's absolute alignment: (i + off) & mask == 0 */
		mask = ((param + r->g - 1) >> r->order) - 1;
		off = (c->start & (param - 1)) >> r->order;
		break;
	case ORDER_ALIGN:
		mask = pow2_at_least(nr) - 1;
		break;
	case LAST:	/* the caller's own algorithm: the highest free run */
		for (i = c->nbits; i >= nr; i--)
			if (run_free(c, i - nr, nr))
				return i - nr;
		return c->nbits;
	default:
		break;
	}
	for (i = 0; i + nr <= c->nbits; i++)
		if (!((i + off) & mask) && run_free(c, i, nr))
			return i;
	return c->nbits;
}

/* Newest chunk first; a chunk whose avail is below the (unrounded) size is
 * skipped, as the kernel does.  Returns the address, or 0. */
static unsigned long ref_alloc(struct run *r, size_t size, enum algo a, unsigned long param,
			       int *chunk)
{
	unsigned long nr = (size + r->g - 1) >> r->order, i;

	for (int k = r->n - 1; k >= 0; k--) {
		struct ref_chunk *c = &r->chunks[k];

		if ((long)size > c->avail)
			continue;
		i = ref_place(r, c, a, nr, param);
		if (i >= c->nbits)
			continue;
		memset(c->used + i, 1, nr);
		c->avail -= (long)(nr << r->order);
		*chunk = k;
		return c->start + (i << r->order);
	}
	return 0;
}

static void ref_free(struct run *r, const struct block *b)
{
	struct ref_chunk *c = &r->chunks[b->chunk];
	unsigned long nr = (b->size + r->g - 1) >> r->order, i = (b->addr - c->start) >> r->order;

	for (unsigned long j = 0; j < nr; j++)
		FUZZ_CHECK(c->used[i + j], "reference: freeing a free granule");
	memset(c->used + i, 0, nr);
	c->avail += (long)(nr << r->order);
}

/* The chunk holding @addr, or -1. */
static int ref_chunk_of(const struct run *r, unsigned long addr)
{
	for (int k = 0; k < r->n; k++)
		if (addr >= r->chunks[k].start && addr - r->chunks[k].start < r->chunks[k].size)
			return k;
	return -1;
}

static int ref_overlaps(const struct run *r, unsigned long start, unsigned long size)
{
	for (int k = 0; k < r->n; k++)
		if (start < r->chunks[k].start + r->chunks[k].size &&
		    r->chunks[k].start < start + size)
			return 1;
	return 0;
}

/* ------------------------------------------------------------ checking */

static void check_pool(const struct run *r)
{
	const struct gen_pool_chunk *chunk = atomic_load(&r->pool->chunks);
	struct gen_pool_stats st;
	size_t avail = 0, size = 0, extents = 0, largest = 0, len;
	const unsigned long bpl = 8 * sizeof(long);

	FUZZ_CHECK(gen_pool_check(r->pool) == 0, "checker failed");
	fuzz_expect_quiet("gen_pool_check");
	for (int k = r->n - 1; k >= 0; k--, chunk = chunk->next_chunk) {
		const struct ref_chunk *c = &r->chunks[k];

		FUZZ_CHECK(chunk, "chunk %d missing", k);
		FUZZ_CHECK(chunk->start_addr == c->start && chunk->end_addr == c->start + c->size - 1 &&
			   chunk->nbits == c->nbits, "chunk %d: bounds", k);
		FUZZ_CHECK(atomic_load(&chunk->avail) == c->avail, "chunk %d: avail %ld, reference %ld",
			   k, atomic_load(&chunk->avail), c->avail);
		FUZZ_CHECK(chunk->owner == c->owner && chunk->phys_addr == c->phys, "chunk %d: owner/phys", k);
		for (unsigned long i = 0; i < c->nbits; i++) {
			int bit = (int)(chunk->bits[i / bpl] >> (i % bpl) & 1);

			FUZZ_CHECK(bit == c->used[i], "chunk %d granule %lu: bit %d, reference %d",
				   k, i, bit, c->used[i]);
			if (!c->used[i] && (!i || c->used[i - 1])) {
				len = hole_at(c, i) << r->order;
				extents++;
				if (len > largest)
					largest = len;
			}
		}
		avail += (size_t)c->avail;
		size += c->size;
	}
	FUZZ_CHECK(!chunk, "more chunks than the reference");
	FUZZ_CHECK(gen_pool_avail(r->pool) == avail, "gen_pool_avail");
	FUZZ_CHECK(gen_pool_size(r->pool) == size, "gen_pool_size");
	gen_pool_stats(r->pool, &st);
	FUZZ_CHECK(st.avail == avail && st.size == size && st.nr_chunks == (size_t)r->n &&
		   st.nr_free_extents == extents && st.largest_free == largest,
		   "stats: avail %zu size %zu chunks %zu extents %zu largest %zu",
		   st.avail, st.size, st.nr_chunks, st.nr_free_extents, st.largest_free);
}

/* The algorithm's own promise, stated without the reference. */
static void check_promise(const struct run *r, unsigned long a, int k, enum algo algo,
			  unsigned long param, size_t size)
{
	const struct ref_chunk *c = &r->chunks[k];
	unsigned long rel = a - c->start, nr = (size + r->g - 1) >> r->order;

	FUZZ_CHECK(rel % r->g == 0 && rel + (nr << r->order) <= c->size, "block off its chunk");
	if (algo == ALIGN && c->start % r->g == 0)
		FUZZ_CHECK(a % param == 0, "%#lx not aligned to %lu", a, param);
	if (algo == ORDER_ALIGN)
		FUZZ_CHECK((rel >> r->order) % pow2_at_least(nr) == 0, "%#lx not order-aligned", a);
	if (algo == FIXED)
		FUZZ_CHECK(rel == param, "fixed %#lx at offset %lu", a, rel);
}

/* ------------------------------------------------------------ operations */

static void op_add(struct run *r)
{
	unsigned v = fuzz_u8(&r->in), k;
	unsigned long start, size;
	struct ref_chunk *c;
	int rc;

	if (r->n == MAX_CHUNKS)
		return;
	if (v % 4 == 0 && r->n) {	/* touching the end of an older chunk */
		c = &r->chunks[fuzz_below(&r->in, (unsigned long)r->n)];
		start = c->start + c->size;
	} else {
		start = ADDR_BASE + fuzz_below(&r->in, 16) * SLOT + fuzz_below(&r->in, 64) * r->g * 4;
	}
	if (v % 8 == 1 && r->g > 1)
		start += 1 + fuzz_below(&r->in, r->g - 1);	/* off the granule grid */
	size = (1 + fuzz_below(&r->in, MAX_GRANULES)) << r->order;
	if (v % 8 >= 5)
		size += fuzz_below(&r->in, r->g);		/* a sub-granule tail */
	k = (unsigned)r->n;
	if (ref_overlaps(r, start, size)) {
		rc = gen_pool_add(r->pool, start, size, -1);
		FUZZ_CHECK(rc == -EINVAL, "overlapping add: %d", rc);
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EOVERLAP, "overlapping add");
		return;
	}
	c = &r->chunks[r->n++];
	memset(c, 0, sizeof(*c));
	c->start = start;
	c->size = size;
	c->nbits = size >> r->order;
	c->avail = (long)size;
	c->phys = NO_PHYS;
	switch (v / 8 % 3) {
	case 0:
		rc = gen_pool_add(r->pool, start, size, -1);
		break;
	case 1:
		c->phys = 0x80000000ULL + k * 0x100000ULL;
		rc = gen_pool_add_virt(r->pool, start, c->phys, size, -1);
		break;
	default:
		c->owner = &r->owners[k];
		rc = gen_pool_add_owner(r->pool, start, NO_PHYS, size, -1, c->owner);
		break;
	}
	FUZZ_CHECK(rc == 0, "add: %d", rc);
	fuzz_expect_quiet("add");
}

static size_t request_size(struct run *r)
{
	unsigned v = fuzz_u8(&r->in);

	if (v % 4 == 0)
		return 1 + fuzz_below(&r->in, 64 * r->g);
	if (v % 16 == 1)
		return 1 + fuzz_below(&r->in, MAX_GRANULES * r->g);
	return 1 + fuzz_below(&r->in, 4 * r->g);
}

/* The algorithm and data of one request. */
struct choice {
	enum algo algo;
	unsigned long param;
	genpool_algo_t fn;
	void *data;
	struct genpool_data_align al;
	struct genpool_data_fixed fx;
};

/* A caller's own algorithm, not one the engine knows: the highest run of
 * @nr clear bits, read plainly from the bitmap (single-threaded here). */
static unsigned long last_fit(unsigned long *map, unsigned long size, unsigned long start,
			      unsigned int nr, void *data, struct gen_pool *pool,
			      unsigned long start_addr)
{
	const unsigned long bpl = 8 * sizeof(long);
	unsigned long i, j;

	(void)data;
	(void)pool;
	(void)start_addr;
	for (i = size; i >= start + nr && i >= nr; i--) {
		for (j = i - nr; j < i && !(map[j / bpl] >> (j % bpl) & 1); j++)
			;
		if (j == i)
			return i - nr;
	}
	return size;
}

static genpool_algo_t algo_fn(enum algo a)
{
	static const genpool_algo_t fns[NR_ALGOS] = {
		[FIRST] = gen_pool_first_fit, [ALIGN] = gen_pool_first_fit_align,
		[ORDER_ALIGN] = gen_pool_first_fit_order_align, [BEST] = gen_pool_best_fit,
		[FIXED] = gen_pool_fixed_alloc, [LAST] = last_fit,
	};
	return fns[a];
}

static void choose(struct run *r, struct choice *ch)
{
	memset(ch, 0, sizeof(*ch));
	ch->algo = (enum algo)(fuzz_u8(&r->in) % NR_ALGOS);
	ch->fn = algo_fn(ch->algo);
	if (ch->algo == ALIGN) {
		ch->param = 1UL << (fuzz_u8(&r->in) % (unsigned)(r->order + 6));
		ch->al.align = (int)ch->param;
		ch->data = &ch->al;
	} else if (ch->algo == FIXED) {
		ch->param = fuzz_below(&r->in, MAX_GRANULES) << r->order;
		ch->fx.offset = ch->param;
		ch->data = &ch->fx;
	}
}

static void op_alloc(struct run *r)
{
	struct choice ch;
	size_t size = request_size(r);
	unsigned how = fuzz_u8(&r->in) % 5;
	unsigned long a, want;
	void *owner = &owner;
	dma_addr_t dma = 1;
	int k = -1;

	if (r->nr_live == MAX_LIVE)
		return;
	choose(r, &ch);
	if (how == 4) {		/* the pool's default algorithm */
		ch.algo = r->def_algo;
		ch.param = r->def_param;
	}
	want = ref_alloc(r, size, ch.algo, ch.param, &k);
	switch (how) {
	case 0:
		a = gen_pool_alloc_algo(r->pool, size, ch.fn, ch.data);
		break;
	case 1:
		a = gen_pool_alloc_algo_owner(r->pool, size, ch.fn, ch.data, &owner);
		FUZZ_CHECK(owner == (a ? r->chunks[k].owner : NULL), "owner");
		break;
	case 2:
		a = (unsigned long)gen_pool_dma_alloc_algo(r->pool, size, &dma, ch.fn, ch.data);
		if (a)
			FUZZ_CHECK(dma == (r->chunks[k].phys == NO_PHYS ? NO_PHYS :
					   r->chunks[k].phys + (a - r->chunks[k].start)), "dma address");
		break;
	case 3:
		a = gen_pool_alloc_owner(r->pool, size, &owner);
		break;
	default:
		a = gen_pool_alloc(r->pool, size);
		break;
	}
	if (how == 3) {		/* gen_pool_alloc_owner uses the default too: redo */
		if (want)
			ref_free(r, &(struct block){ want, size, k });
		want = ref_alloc(r, size, r->def_algo, r->def_param, &k);
		ch.algo = r->def_algo;
		ch.param = r->def_param;
		FUZZ_CHECK(owner == (a ? r->chunks[k].owner : NULL), "owner");
	}
	fuzz_expect_quiet("alloc");
	FUZZ_CHECK(a == want, "alloc(%zu, algo %d, param %lu): %#lx, reference %#lx",
		   size, (int)ch.algo, ch.param, a, want);
	if (!a)
		return;
	check_promise(r, a, k, ch.algo, ch.param, size);
	r->live[r->nr_live++] = (struct block){ a, size, k };
}

static void op_free(struct run *r)
{
	int k;
	struct block b;
	void *owner = NULL;

	if (!r->nr_live)
		return;
	k = (int)fuzz_below(&r->in, (unsigned long)r->nr_live);
	b = r->live[k];
	if (fuzz_u8(&r->in) & 1) {
		gen_pool_free_owner(r->pool, b.addr, b.size, &owner);
		FUZZ_CHECK(owner == r->chunks[b.chunk].owner, "free_owner: owner");
	} else {
		gen_pool_free(r->pool, b.addr, b.size);
	}
	fuzz_expect_quiet("free");
	ref_free(r, &b);
	r->live[k] = r->live[--r->nr_live];
}

/* The kernel lets a caller give back the head of a block and keep the
 * rest; the bitmap only knows granules, so this must just work. */
static void op_free_head(struct run *r)
{
	struct block *b, head;
	unsigned long nr, k;

	if (!r->nr_live)
		return;
	b = &r->live[fuzz_below(&r->in, (unsigned long)r->nr_live)];
	nr = (b->size + r->g - 1) >> r->order;
	if (nr < 2)
		return;
	k = 1 + fuzz_below(&r->in, nr - 1);
	head = (struct block){ b->addr, k << r->order, b->chunk };
	gen_pool_free(r->pool, head.addr, head.size);
	fuzz_expect_quiet("free of a block's head");
	ref_free(r, &head);
	b->addr += k << r->order;
	b->size = (nr - k) << r->order;
}

static void op_set_algo(struct run *r)
{
	struct choice ch;

	choose(r, &ch);
	r->def_algo = ch.algo;
	r->def_param = ch.param;
	r->def_align = ch.al;
	r->def_fixed = ch.fx;
	gen_pool_set_algo(r->pool, ch.fn, ch.algo == ALIGN ? (void *)&r->def_align :
			  ch.algo == FIXED ? (void *)&r->def_fixed : NULL);
	fuzz_expect_quiet("set_algo");
}

/* JSON nests properly: every { and [ closed, in order, nothing left. */
static int json_balanced(const char *s)
{
	char stack[8];
	int depth = 0;
	bool in_string = false;

	for (; *s; s++) {
		if (*s == '"') {
			in_string = !in_string;
		} else if (in_string) {
			continue;
		} else if (*s == '{' || *s == '[') {
			if (depth == (int)sizeof(stack))
				return 0;
			stack[depth++] = *s;
		} else if (*s == '}' || *s == ']') {
			if (!depth || stack[--depth] != (*s == '}' ? '{' : '['))
				return 0;
		}
	}
	return depth == 0 && !in_string;
}

/*
 * The dump (text or JSON, by the number of live blocks so that no input
 * byte is spent on it) is whole, and its total of used bytes is the
 * reference's.
 */
static void check_dump(const struct run *r)
{
	int format = r->nr_live % 2 ? GENALLOC_DUMP_JSON : GENALLOC_DUMP_TEXT;
	const char *key = format == GENALLOC_DUMP_JSON ? "\"totals\":" : "\ntotal: ";
	unsigned long used = 0;
	char *buf = NULL, *t;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	for (int k = 0; k < r->n; k++)
		for (unsigned long i = 0; i < r->chunks[k].nbits; i++)
			used += r->chunks[k].used[i] * r->g;
	FUZZ_CHECK(f && gen_pool_dump(r->pool, f, format) == 0, "dump");
	FUZZ_CHECK(fclose(f) == 0 && buf, "dump: stream");
	t = strstr(buf, key);
	FUZZ_CHECK(t, "dump: no totals");
	t = strstr(t, format == GENALLOC_DUMP_JSON ? "\"used\":" : "used ");
	FUZZ_CHECK(t && strtoul(strpbrk(t, "0123456789"), NULL, 10) == used, "dump: used total");
	FUZZ_CHECK(format == GENALLOC_DUMP_TEXT || json_balanced(buf), "dump: JSON nesting");
	free(buf);
	fuzz_expect_quiet("dump");
}

static void op_query(struct run *r)
{
	int k;
	unsigned long a, off;
	const struct ref_chunk *c;

	if (r->nr_live) {
		const struct block *b = &r->live[fuzz_below(&r->in, (unsigned long)r->nr_live)];

		FUZZ_CHECK(gen_pool_has_addr(r->pool, b->addr, b->size), "has_addr(live block)");
	}
	if (!r->n)
		return;
	k = (int)fuzz_below(&r->in, (unsigned long)r->n);
	c = &r->chunks[k];
	off = fuzz_below(&r->in, c->size);
	a = c->start + off;
	FUZZ_CHECK(gen_pool_virt_to_phys(r->pool, a) == (c->phys == NO_PHYS ? NO_PHYS : c->phys + off),
		   "virt_to_phys");
	FUZZ_CHECK(gen_pool_has_addr(r->pool, a, c->size - off), "has_addr(to the end)");
	FUZZ_CHECK(!gen_pool_has_addr(r->pool, a, c->size - off + 1), "has_addr(past the end)");
	fuzz_expect_quiet("queries");
	check_dump(r);
}

/* ------------------------------------------------------------ misuse */

static void refused_free(struct run *r, unsigned long a, size_t size, enum genalloc_errcode code,
			 const char *what)
{
	void *owner = &owner;

	gen_pool_free_owner(r->pool, a, size, &owner);
	fuzz_expect_report(GENALLOC_BUG, code, what);
	FUZZ_CHECK(!owner, "%s: owner not cleared", what);
}

static void misuse_free(struct run *r, unsigned sub)
{
	const struct block *b = r->nr_live ? &r->live[fuzz_below(&r->in, (unsigned long)r->nr_live)] : NULL;
	const struct ref_chunk *c;
	unsigned long a, i, nr;

	switch (sub) {
	case 0:	/* foreign */
		a = ADDR_BASE - r->g * (1 + fuzz_below(&r->in, 64));
		if (fuzz_u8(&r->in) & 1 && r->n) {
			c = &r->chunks[fuzz_below(&r->in, (unsigned long)r->n)];
			a = c->start + c->size + fuzz_below(&r->in, 4 * r->g);
		}
		if (ref_chunk_of(r, a) < 0)
			refused_free(r, a, r->g, GENALLOC_EFOREIGN, "foreign free");
		return;
	case 1:	/* off the granule grid of its chunk */
		if (b && r->g > 1)
			refused_free(r, b->addr + 1 + fuzz_below(&r->in, r->g - 1), b->size,
				     GENALLOC_EMISALIGNED, "misaligned free");
		return;
	case 2:	/* a free granule */
		if (!r->n)
			return;
		c = &r->chunks[fuzz_below(&r->in, (unsigned long)r->n)];
		i = fuzz_below(&r->in, c->nbits);
		if (i < c->nbits && !c->used[i])
			refused_free(r, c->start + (i << r->order), r->g, GENALLOC_EDOUBLEFREE,
				     "double free");
		return;
	case 3:	/* one granule more than the block */
		if (!b)
			return;
		c = &r->chunks[b->chunk];
		i = (b->addr - c->start) >> r->order;
		nr = (b->size + r->g - 1) >> r->order;
		if (i + nr + 1 > c->nbits)
			refused_free(r, b->addr, (nr + 1) << r->order, GENALLOC_ERANGE, "free past the chunk");
		else if (!c->used[i + nr])
			refused_free(r, b->addr, (nr + 1) << r->order, GENALLOC_EDOUBLEFREE,
				     "free running into a free granule");
		return;
	case 4:	/* into the sub-granule tail or past the end */
		if (!b)
			return;
		c = &r->chunks[b->chunk];
		refused_free(r, b->addr, c->start + (c->nbits << r->order) - b->addr +
			     1 + fuzz_below(&r->in, 2 * r->g), GENALLOC_ERANGE, "free into the tail");
		return;
	case 5:	/* straddling two touching chunks */
		for (int k = 0; k < r->n; k++) {
			c = &r->chunks[k];
			if (c->nbits && ref_chunk_of(r, c->start + c->size) >= 0) {
				refused_free(r, c->start + ((c->nbits - 1) << r->order), 2 * r->g,
					     GENALLOC_ERANGE, "free straddling two chunks");
				return;
			}
		}
		return;
	default:	/* a size that wraps the address space */
		if (b)
			refused_free(r, b->addr, ULONG_MAX - fuzz_below(&r->in, 256),
				     GENALLOC_ERANGE, "wrapping free");
		return;
	}
}

static void misuse_null(struct run *r)
{
	struct gen_pool_stats st;
	dma_addr_t dma = 5;

	FUZZ_CHECK(!gen_pool_alloc(NULL, r->g), "alloc(NULL)");
	fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "alloc(NULL)");
	gen_pool_free(NULL, ADDR_BASE, r->g);
	fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "free(NULL)");
	FUZZ_CHECK(gen_pool_add(NULL, ADDR_BASE, r->g, -1) == -EINVAL, "add(NULL)");
	fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "add(NULL)");
	FUZZ_CHECK(!gen_pool_avail(NULL), "avail(NULL)");
	fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "avail(NULL)");
	FUZZ_CHECK(!gen_pool_size(NULL), "size(NULL)");
	fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "size(NULL)");
	FUZZ_CHECK(!gen_pool_has_addr(NULL, ADDR_BASE, 1), "has_addr(NULL)");
	fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "has_addr(NULL)");
	FUZZ_CHECK(gen_pool_virt_to_phys(NULL, ADDR_BASE) == NO_PHYS, "virt_to_phys(NULL)");
	fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "virt_to_phys(NULL)");
	FUZZ_CHECK(gen_pool_check(NULL) == -1, "check(NULL)");
	fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "check(NULL)");
	gen_pool_stats(NULL, &st);
	fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "stats(NULL)");
	FUZZ_CHECK(!gen_pool_dma_alloc(NULL, r->g, &dma) && dma == 5, "dma_alloc(NULL)");
	gen_pool_destroy(NULL);
	fuzz_expect_quiet("dma_alloc(NULL), destroy(NULL)");
}

static void misuse_algo_data(struct run *r, unsigned sub)
{
	static const int bad_align[] = { 0, 3, -8, 48, INT_MIN, 6 };
	struct genpool_data_align al;
	struct genpool_data_fixed fx;
	unsigned long a;

	/* Refused once per call, even when no chunk would be searched. */
	if (sub == 0) {
		al.align = bad_align[fuzz_u8(&r->in) % 6];
		a = gen_pool_alloc_algo(r->pool, r->g, gen_pool_first_fit_align, &al);
		FUZZ_CHECK(!a, "bad alignment %d gave %#lx", al.align, a);
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "bad alignment");
	} else if (r->g > 1) {
		fx.offset = (fuzz_below(&r->in, MAX_GRANULES) << r->order) + 1 +
			    fuzz_below(&r->in, r->g - 1);
		a = gen_pool_alloc_algo(r->pool, r->g, gen_pool_fixed_alloc, &fx);
		FUZZ_CHECK(!a, "fixed offset %lu gave %#lx", fx.offset, a);
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "fixed offset off the grid");
	}
}

static void misuse_add(struct run *r, unsigned sub)
{
	unsigned long start = ADDR_BASE + fuzz_below(&r->in, 16) * SLOT;
	const struct ref_chunk *c;
	int rc;

	switch (sub) {
	case 0:
		rc = gen_pool_add(r->pool, start, 0, -1);
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "add of size 0");
		break;
	case 1:
		rc = gen_pool_add(r->pool, 0, r->g * (1 + fuzz_below(&r->in, 64)), -1);
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "add at address 0");
		break;
	case 2:
		rc = gen_pool_add(r->pool, ULONG_MAX - fuzz_below(&r->in, 4096), 4097, -1);
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_ERANGE, "add wrapping");
		break;
	case 3:
		rc = gen_pool_add(r->pool, start, (size_t)LONG_MAX + 1 + fuzz_below(&r->in, 64), -1);
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_ERANGE, "add above LONG_MAX bytes");
		break;
	default:
		if (!r->n)
			return;
		c = &r->chunks[fuzz_below(&r->in, (unsigned long)r->n)];
		rc = gen_pool_add_owner(r->pool, c->start + fuzz_below(&r->in, c->size), 0,
					1 + fuzz_below(&r->in, 4096), -1, NULL);
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EOVERLAP, "add overlapping");
		break;
	}
	FUZZ_CHECK(rc == -EINVAL, "bad add returned %d", rc);
}

static void misuse_quiet(struct run *r, unsigned sub)
{
	unsigned long a;

	if (sub == 0) {
		FUZZ_CHECK(!gen_pool_alloc(r->pool, 0), "alloc of 0");
		/* A free of 0 frees nothing, but its address must be in a chunk. */
		a = ADDR_BASE + fuzz_u16(&r->in);
		if (!gen_pool_has_addr(r->pool, a, 0)) {
			gen_pool_free(r->pool, a, 0);
			fuzz_expect_report(GENALLOC_BUG, GENALLOC_EFOREIGN, "free of 0, no chunk");
			return;
		}
		gen_pool_free(r->pool, a, 0);
	} else {
		static const size_t huge[] = { SIZE_MAX, SIZE_MAX - 1, (size_t)UINT_MAX + 1 };

		a = gen_pool_alloc(r->pool, huge[fuzz_u8(&r->in) % 3] << (sub == 2 ? r->order : 0));
		FUZZ_CHECK(!a, "huge alloc gave %#lx", a);
		a = gen_pool_alloc(r->pool, ((size_t)UINT_MAX << r->order) + 1);
		FUZZ_CHECK(!a, "UINT_MAX + 1 granules gave %#lx", a);
	}
	fuzz_expect_quiet("size 0 or huge");
}

static void op_misuse(struct run *r)
{
	unsigned sub = fuzz_u8(&r->in);

	switch (sub % 8) {
	case 0: case 1: case 2:
		misuse_free(r, sub / 8 % 7);
		break;
	case 3:
		misuse_null(r);
		break;
	case 4:
		misuse_algo_data(r, sub / 8 % 2);
		break;
	case 5:
		misuse_add(r, sub / 8 % 5);
		break;
	case 6:
		if (r->nr_live) {
			gen_pool_destroy(r->pool);
			fuzz_expect_report(GENALLOC_BUG, GENALLOC_EBUSY, "destroy with live blocks");
		}
		break;
	default:
		misuse_quiet(r, sub / 8 % 3);
		break;
	}
}

static void step(struct run *r)
{
	unsigned op = fuzz_u8(&r->in) % 16;

	if (op < 1)
		op_add(r);
	else if (op < 7)
		op_alloc(r);
	else if (op < 10)
		op_free(r);
	else if (op < 11)
		op_free_head(r);
	else if (op < 14)
		op_misuse(r);
	else if (op < 15)
		op_set_algo(r);
	else
		op_query(r);
	fuzz_expect_quiet("step");
	check_pool(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run r;

	memset(&r, 0, sizeof(r));
	r.in = (struct fuzz_in){ data, size };
	fuzz_capture_errors();
	r.order = (int)(fuzz_u8(&r.in) % 7);
	r.g = 1UL << r.order;
	r.pool = gen_pool_create(r.order, -1);
	FUZZ_CHECK(r.pool, "gen_pool_create");
	op_add(&r);
	check_pool(&r);
	while (r.in.n)
		step(&r);
	while (r.nr_live) {
		r.nr_live--;
		gen_pool_free(r.pool, r.live[r.nr_live].addr, r.live[r.nr_live].size);
		ref_free(&r, &r.live[r.nr_live]);
	}
	fuzz_expect_quiet("drain");
	check_pool(&r);
	FUZZ_CHECK(gen_pool_avail(r.pool) == gen_pool_size(r.pool), "bytes lost");
	gen_pool_destroy(r.pool);
	fuzz_expect_quiet("destroy");
	fuzz_restore_errors();
	return 0;
}
