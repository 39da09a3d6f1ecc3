// SPDX-License-Identifier: GPL-2.0
/*
 * test/fuzz/fuzz_legacy.c - the 2005 buddy engine against the 2005 model.
 *
 * Input: three header bytes (chunk shift 7..14, chunks the callback may
 * give, prefill and linear search), then operations: allocations of any
 * size, frees with any size of the same rounding, donations, bad chunks
 * from the callback and deliberate misuse of every kind the header names.
 * After every step the engine's free lists must be the model's, head first;
 * its statistics must be the model's and the shadow's; its checker must
 * pass; every block must be free pool memory aligned to its size.  A
 * refused call must report exactly the documented code and change nothing.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "model2005.h"
#include "legacy/genalloc.h"

#define MAX_LIVE	1024
#define DONATION_CHUNKS	3

enum bad_chunk { GOOD, MISALIGNED, OVERLAPPING, WRAPPING };

struct supply {
	unsigned long base, chunk;
	int limit, given, calls;
	enum bad_chunk bad;		/* what the next call returns */
	enum bad_chunk last_kind;	/* what the last call returned */
	unsigned long last;
};

struct run {
	struct fuzz_in in;
	struct gen_pool *pool;
	struct supply sup;
	struct m5_lists m;
	struct shadow sh;
	unsigned long chunk, donated, donation_area;
	int shift;
	struct m5_block live[MAX_LIVE];
	int nr_live;
};

static unsigned long supply_chunk(struct gen_pool *pool)
{
	struct supply *s = (struct supply *)pool->private;

	s->calls++;
	s->last_kind = s->bad;
	s->bad = GOOD;
	switch (s->last_kind) {
	case MISALIGNED:
		return s->last = s->base + (unsigned long)s->given * s->chunk + 32;
	case OVERLAPPING:
		return s->last = s->base;	/* chunk 0, already given */
	case WRAPPING:
		return s->last = ULONG_MAX - 31;
	case GOOD:
		break;
	}
	if (s->given == s->limit)
		return s->last = 0;
	return s->last = s->base + (unsigned long)s->given++ * s->chunk;
}

/* ------------------------------------------------------------ checking */

static void check_lists(const struct run *r)
{
	for (int i = 0; i < r->m.nr_orders; i++) {
		const struct gen_pool_link *q = r->pool->h[i].next;
		int k = r->m.len[i];

		for (; q && k > 0; q = q->next)
			FUZZ_CHECK((unsigned long)q == r->m.stack[i][--k],
				   "order %d: list entry %p, model %#lx", i, (const void *)q,
				   r->m.stack[i][k]);
		FUZZ_CHECK(!q && !k, "order %d: list length differs from the model", i);
	}
}

static void check_pool(const struct run *r)
{
	struct legacy_gen_pool_stats st;

	FUZZ_CHECK(legacy_gen_pool_check(r->pool) == 0, "checker failed");
	fuzz_expect_quiet("gen_pool_check");
	check_lists(r);
	legacy_gen_pool_stats(r->pool, &st);
	FUZZ_CHECK(st.obtained_bytes == (unsigned long)r->sup.given * r->chunk,
		   "obtained %lu", st.obtained_bytes);
	FUZZ_CHECK(st.donated_bytes == r->donated, "donated %lu, model %lu",
		   st.donated_bytes, r->donated);
	FUZZ_CHECK(st.free_bytes == m5_free_bytes(&r->m), "free %lu, model %lu",
		   st.free_bytes, m5_free_bytes(&r->m));
	FUZZ_CHECK(st.free_bytes == r->sh.known - r->sh.live, "free %lu, shadow %lu",
		   st.free_bytes, r->sh.known - r->sh.live);
	FUZZ_CHECK(st.largest_free == m5_largest(&r->m), "largest %lu", st.largest_free);
	for (int i = 0; i < r->m.nr_orders; i++)
		FUZZ_CHECK(st.nr_free[i] == (unsigned long)r->m.len[i], "nr_free[%d]", i);
}

/* A refused call: the statistics and list heads are bit-for-bit the same. */
struct snapshot {
	struct legacy_gen_pool_stats st;
	struct gen_pool_link *heads[M5_MAX_ORDERS];
	int calls;
};

static void take(const struct run *r, struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	legacy_gen_pool_stats(r->pool, &s->st);
	for (int i = 0; i < r->m.nr_orders; i++)
		s->heads[i] = r->pool->h[i].next;
	s->calls = r->sup.calls;
}

static void check_unchanged(const struct run *r, const struct snapshot *before)
{
	struct snapshot now;

	take(r, &now);
	FUZZ_CHECK(!memcmp(&now, before, sizeof(now)), "a refused call changed the pool");
}

/* ------------------------------------------------------------ operations */

static int request_size(struct run *r)
{
	unsigned v = fuzz_u16(&r->in);

	if (v % 16 == 0)	/* sometimes above the chunk size */
		return (int)(r->chunk + 1 + v % 64);
	if (v % 4 == 1)
		return (int)(v % 300);
	return (int)(v % (r->chunk + 1));
}

/* What a chunk request should have done, per the model. */
static void model_grow(struct run *r)
{
	FUZZ_CHECK(r->sup.calls == 1, "get_new_chunk called %d times", r->sup.calls);
	switch (r->sup.last_kind) {
	case MISALIGNED:
		fuzz_expect_report(GENALLOC_BUG, GENALLOC_EMISALIGNED, "misaligned chunk");
		return;
	case OVERLAPPING:
		fuzz_expect_report(GENALLOC_BUG, GENALLOC_EOVERLAP, "overlapping chunk");
		return;
	case WRAPPING:
		fuzz_expect_report(GENALLOC_BUG, GENALLOC_ERANGE, "wrapping chunk");
		return;
	case GOOD:
		break;
	}
	if (r->sup.last) {
		shadow_add(&r->sh, r->sup.last, r->chunk);
		m5_release(&r->m, r->sup.last, r->m.nr_orders - 1);
	}
}

static void op_alloc(struct run *r)
{
	int size = request_size(r), i;
	unsigned long a, want = 0;

	if (r->nr_live == MAX_LIVE)
		return;
	r->sup.calls = 0;
	a = gen_pool_alloc(r->pool, size);
	if ((unsigned long)size > r->chunk) {
		FUZZ_CHECK(!a && !r->sup.calls, "oversize request %d: %#lx", size, a);
		fuzz_expect_quiet("oversize alloc");
		return;
	}
	i = m5_order((unsigned long)size);
	if (!m5_has(&r->m, i))
		model_grow(r);
	else
		FUZZ_CHECK(!r->sup.calls, "callback called with a free block at hand");
	fuzz_expect_quiet("alloc");
	want = m5_take(&r->m, i);
	FUZZ_CHECK(a == want, "alloc(%d): %#lx, model %#lx", size, a, want);
	if (!a)
		return;
	shadow_claim(&r->sh, a, 32UL << i);
	r->live[r->nr_live++] = (struct m5_block){ a, size };
}

static void op_free(struct run *r)
{
	int k, size;
	struct m5_block b;

	if (!r->nr_live)
		return;
	k = (int)fuzz_below(&r->in, (unsigned long)r->nr_live);
	b = r->live[k];
	size = m5_same_rounding(b.size, fuzz_u8(&r->in));
	gen_pool_free(r->pool, b.addr, size);
	fuzz_expect_quiet("free");
	shadow_release(&r->sh, b.addr, 32UL << m5_order((unsigned long)b.size));
	m5_release(&r->m, b.addr, m5_order((unsigned long)b.size));
	r->live[k] = r->live[--r->nr_live];
}

/* Free an aligned range of the donation area: a donation if all of it is
 * unknown, an overlap if its first atom is unknown but not the rest. */
static void op_donate(struct run *r)
{
	int i = (int)fuzz_below(&r->in, (unsigned long)r->m.nr_orders);
	unsigned long s = 32UL << i, span = DONATION_CHUNKS * r->chunk;
	unsigned long a = r->donation_area + fuzz_below(&r->in, span / s) * s;
	struct snapshot before;

	if (!shadow_all(&r->sh, a, 32, SH_UNKNOWN))
		return;
	take(r, &before);
	gen_pool_free(r->pool, a, (int)s);
	if (shadow_any(&r->sh, a, s, SH_FREE) || shadow_any(&r->sh, a, s, SH_LIVE)) {
		fuzz_expect_report(GENALLOC_BUG, GENALLOC_EOVERLAP, "overlapping donation");
		check_unchanged(r, &before);
		return;
	}
	fuzz_expect_quiet("donation");
	shadow_add(&r->sh, a, s);
	r->donated += s;
	m5_release(&r->m, a, i);
}

/* The free of @a with @size must be refused with @code, changing nothing. */
static void refused_free(struct run *r, unsigned long a, int size,
			 enum genalloc_severity sev, enum genalloc_errcode code, const char *what)
{
	struct snapshot before;

	take(r, &before);
	gen_pool_free(r->pool, a, size);
	fuzz_expect_report(sev, code, what);
	check_unchanged(r, &before);
}

static void misuse_live(struct run *r, unsigned sub)
{
	struct m5_block b = r->live[fuzz_below(&r->in, (unsigned long)r->nr_live)];
	int i = m5_order((unsigned long)b.size), j;
	unsigned long s = 32UL << i, k;

	switch (sub) {
	case 0:	/* another rounded size, within the chunk size */
		j = (int)fuzz_below(&r->in, (unsigned long)r->m.nr_orders);
		if (j == i)
			return;
		refused_free(r, b.addr, 32 << j, GENALLOC_BUG, GENALLOC_ESIZE, "wrong size");
		return;
	case 1:	/* an interior atom */
		if (!i)
			return;
		k = 1 + fuzz_below(&r->in, (s >> 5) - 1);
		refused_free(r, b.addr + 32 * k, (int)fuzz_below(&r->in, 33), GENALLOC_BUG,
			     GENALLOC_EFOREIGN, "interior of a live block");
		return;
	default:	/* off the atom grid */
		refused_free(r, b.addr + 1 + fuzz_below(&r->in, 31), b.size, GENALLOC_BUG,
			     GENALLOC_EMISALIGNED, "misaligned address");
		return;
	}
}

static void misuse_free_block(struct run *r, unsigned sub)
{
	int i;
	unsigned long a = m5_pick_free(&r->m, fuzz_u16(&r->in), &i), k;

	if (!a)
		return;
	if (sub == 0 || !i) {
		refused_free(r, a, 32 << i, GENALLOC_BUG, GENALLOC_EDOUBLEFREE, "double free");
		return;
	}
	k = 1 + fuzz_below(&r->in, (1UL << i) - 1);
	refused_free(r, a + 32 * k, 32, GENALLOC_BUG, GENALLOC_EDOUBLEFREE,
		     "free inside a free block");
}

static void misuse_destroy(struct run *r)
{
	struct snapshot before;

	take(r, &before);
	gen_pool_destroy(r->pool);
	fuzz_expect_report(GENALLOC_BUG, GENALLOC_EBUSY, "destroy with live blocks");
	check_unchanged(r, &before);
}

static void misuse_arguments(struct run *r, unsigned sub)
{
	struct snapshot before;
	unsigned long a = r->nr_live ? r->live[0].addr : r->sup.base;

	take(r, &before);
	switch (sub) {
	case 0:
		FUZZ_CHECK(!gen_pool_alloc(NULL, 32), "alloc on NULL");
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "alloc on NULL");
		gen_pool_free(NULL, a, 32);
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "free on NULL");
		break;
	case 1:
		FUZZ_CHECK(!gen_pool_alloc(r->pool, -1 - (int)fuzz_u16(&r->in)), "negative alloc");
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "negative alloc");
		FUZZ_CHECK(!gen_pool_alloc(r->pool, INT_MIN), "INT_MIN alloc");
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "INT_MIN alloc");
		gen_pool_free(r->pool, a, -32);
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "negative free");
		break;
	case 2:
		gen_pool_free(r->pool, 0, (int)fuzz_below(&r->in, 1UL + r->chunk));
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "free of 0");
		break;
	case 3:
		gen_pool_free(r->pool, ULONG_MAX - 31, 33 + (int)fuzz_below(&r->in, r->chunk - 32));
		fuzz_expect_report(GENALLOC_BUG, GENALLOC_ERANGE, "wrapping free");
		break;
	default:	/* INT_MAX and anything above the chunk: quietly nothing */
		FUZZ_CHECK(!gen_pool_alloc(r->pool, INT_MAX), "INT_MAX alloc");
		gen_pool_free(r->pool, a, INT_MAX);
		gen_pool_free(r->pool, a, (int)r->chunk + 1);
		fuzz_expect_quiet("oversize");
		break;
	}
	check_unchanged(r, &before);
}

static void misuse_donation(struct run *r)
{
	int i = 1 + (int)fuzz_below(&r->in, (unsigned long)r->m.nr_orders - 1);
	unsigned long s = 32UL << i, span = DONATION_CHUNKS * r->chunk;
	unsigned long a = r->donation_area + fuzz_below(&r->in, span / s) * s;

	a += 32 * (1 + fuzz_below(&r->in, (s >> 5) - 1));	/* atom-aligned, not size-aligned */
	if (!shadow_all(&r->sh, a, 32, SH_UNKNOWN))
		return;
	refused_free(r, a, (int)s, GENALLOC_BUG, GENALLOC_EMISALIGNED, "misaligned donation");
}

static void op_misuse(struct run *r)
{
	unsigned sub = fuzz_u8(&r->in);

	switch (sub % 8) {
	case 0: case 1:
		if (r->nr_live)
			misuse_live(r, sub / 8 % 3);
		break;
	case 2:
		misuse_free_block(r, sub / 8 % 2);
		break;
	case 3:
		if (r->nr_live)
			misuse_destroy(r);
		break;
	case 4: case 5:
		misuse_arguments(r, sub / 8 % 5);
		break;
	case 6:
		misuse_donation(r);
		break;
	default:
		r->sup.bad = (enum bad_chunk)(1 + sub / 8 % 3);
		if (r->sup.bad == OVERLAPPING && !r->sup.given)
			r->sup.bad = WRAPPING;
		break;
	}
}

static void step(struct run *r)
{
	unsigned op = fuzz_u8(&r->in) % 16;

	if (op < 6)
		op_alloc(r);
	else if (op < 11)
		op_free(r);
	else if (op < 12)
		op_donate(r);
	else if (op < 15)
		op_misuse(r);
	else
		legacy_gen_pool_set_linear_search(r->pool, (int)(fuzz_u8(&r->in) & 1));
	fuzz_expect_quiet("step");
	check_pool(r);
}

/* ------------------------------------------------------------ one input */

static void count_region(struct gen_pool *pool, unsigned long addr, unsigned long size,
			 int from_callback, void *data)
{
	unsigned long *sums = data;

	(void)pool;
	(void)addr;
	sums[!from_callback] += size;
}

static void drain(struct run *r)
{
	unsigned long sums[2] = { 0, 0 };

	r->sup.bad = GOOD;
	while (r->nr_live) {
		struct m5_block b = r->live[--r->nr_live];
		int i = m5_order((unsigned long)b.size);

		gen_pool_free(r->pool, b.addr, b.size);
		shadow_release(&r->sh, b.addr, 32UL << i);
		m5_release(&r->m, b.addr, i);
	}
	fuzz_expect_quiet("drain");
	check_pool(r);
	FUZZ_CHECK(r->sh.live == 0 && m5_free_bytes(&r->m) == r->sh.known, "bytes lost");
	legacy_gen_pool_for_each_region(r->pool, count_region, sums);
	FUZZ_CHECK(sums[0] == (unsigned long)r->sup.given * r->chunk && sums[1] == r->donated,
		   "regions: %lu from the callback, %lu donated", sums[0], sums[1]);
}

static void setup(struct run *r)
{
	unsigned b1, b2;
	int prefill;
	unsigned long arena;

	r->shift = 7 + (int)(fuzz_u8(&r->in) % 8);
	b1 = fuzz_u8(&r->in);
	b2 = fuzz_u8(&r->in);
	r->chunk = 1UL << r->shift;
	r->sup.chunk = r->chunk;
	r->sup.limit = 1 + (int)(b1 % 8);
	prefill = (int)(b2 % 3);
	if (prefill > r->sup.limit)
		prefill = r->sup.limit;
	arena = (unsigned long)aligned_alloc(r->chunk, r->chunk * (unsigned long)
					     (r->sup.limit + DONATION_CHUNKS));
	FUZZ_CHECK(arena, "out of memory");
	r->sup.base = arena;
	r->donation_area = arena + (unsigned long)r->sup.limit * r->chunk;
	shadow_init(&r->sh, arena, r->chunk * (unsigned long)(r->sup.limit + DONATION_CHUNKS));
	m5_lists_init(&r->m, r->shift, r->sh.size);
	r->pool = legacy_alloc_gen_pool(prefill, r->shift, supply_chunk, (unsigned long)&r->sup);
	FUZZ_CHECK(r->pool, "alloc_gen_pool failed");
	fuzz_expect_quiet("alloc_gen_pool");
	FUZZ_CHECK(r->sup.calls == prefill && r->sup.given == prefill, "prefill");
	for (int k = 0; k < prefill; k++) {
		shadow_add(&r->sh, arena + (unsigned long)k * r->chunk, r->chunk);
		m5_release(&r->m, arena + (unsigned long)k * r->chunk, r->m.nr_orders - 1);
	}
	legacy_gen_pool_set_linear_search(r->pool, (int)(b2 >> 2 & 1));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct run r;

	memset(&r, 0, sizeof(r));
	r.in = (struct fuzz_in){ data, size };
	fuzz_capture_errors();
	setup(&r);
	check_pool(&r);
	while (r.in.n)
		step(&r);
	drain(&r);
	gen_pool_destroy(r.pool);
	fuzz_expect_quiet("destroy");
	m5_lists_fini(&r.m);
	free((void *)r.sh.base);
	shadow_fini(&r.sh);
	fuzz_restore_errors();
	return 0;
}
