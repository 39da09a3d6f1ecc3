// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/fuzz/fuzz2005.c - the 2005-API fuzzing driver; see fuzz2005.h.
 */
#include "fuzz2005.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

unsigned long f5_supply_next(struct f5_supply *s)
{
	s->calls++;
	s->last_kind = s->bad;
	s->bad = F5_GOOD;
	switch (s->last_kind) {
	case F5_MISALIGNED:
		return s->last = s->base + (unsigned long)s->given * s->chunk + 32;
	case F5_OVERLAPPING:
		return s->last = s->base;	/* chunk 0, already given */
	case F5_WRAPPING:
		return s->last = ULONG_MAX - 31;
	case F5_GOOD:
		break;
	}
	if (s->given == s->limit)
		return s->last = 0;
	return s->last = s->base + (unsigned long)s->given++ * s->chunk;
}

/* ------------------------------------------------------------ the 2005 lists */

static int lists_has(const struct f5_run *r, int i)
{
	return m5_has(&r->m, i);
}

static unsigned long lists_take(struct f5_run *r, int i)
{
	return m5_take(&r->m, i);
}

static unsigned long lists_largest(const struct f5_run *r)
{
	return m5_largest(&r->m);
}

static void lists_release(struct f5_run *r, unsigned long a, int i)
{
	m5_release(&r->m, a, i);
}

const struct f5_model f5_lists_model = {
	.lists = 1,
	.has = lists_has,
	.take = lists_take,
	.largest = lists_largest,
	.add = lists_release,
	.release = lists_release,
};

/* Memory becomes free pool memory: a chunk or a donation of order @i. */
static void model_add(struct f5_run *r, unsigned long a, int i)
{
	shadow_add(&r->sh, a, 32UL << i);
	r->model->add(r, a, i);
}

static void model_free(struct f5_run *r, unsigned long a, int i)
{
	shadow_release(&r->sh, a, 32UL << i);
	r->model->release(r, a, i);
}

/* ------------------------------------------------------------ checking */

static void read_state(const struct f5_run *r, struct f5_state *st)
{
	memset(st, 0, sizeof(*st));
	r->eng->state(r, st);
}

static void check_pool(const struct f5_run *r)
{
	struct f5_state st;
	unsigned long largest = r->model->largest(r);

	FUZZ_CHECK(r->eng->check(r->pool) == 0, "checker failed");
	fuzz_expect_quiet("gen_pool_check");
	read_state(r, &st);
	FUZZ_CHECK(st.obtained_bytes == (unsigned long)r->sup.given * r->chunk,
		   "obtained %lu", st.obtained_bytes);
	FUZZ_CHECK(st.donated_bytes == r->donated, "donated %lu, model %lu",
		   st.donated_bytes, r->donated);
	FUZZ_CHECK(st.free_bytes == r->sh.known - r->sh.live, "free %lu, shadow %lu",
		   st.free_bytes, r->sh.known - r->sh.live);
	if (r->model->lists)
		FUZZ_CHECK(st.free_bytes == m5_free_bytes(&r->m), "free %lu, model %lu",
			   st.free_bytes, m5_free_bytes(&r->m));
	FUZZ_CHECK(st.largest_free == largest, "largest %lu, model %lu",
		   st.largest_free, largest);
	if (r->eng->check_more)
		r->eng->check_more(r, &st);
}

/* A refused call: the state and the callback count are bit-for-bit the same. */
struct snapshot {
	struct f5_state st;
	int calls;
};

static void take(const struct f5_run *r, struct snapshot *s)
{
	memset(s, 0, sizeof(*s));
	read_state(r, &s->st);
	s->calls = r->sup.calls;
}

static void check_unchanged(const struct f5_run *r, const struct snapshot *before)
{
	struct snapshot now;

	take(r, &now);
	FUZZ_CHECK(!memcmp(&now, before, sizeof(now)), "a refused call changed the pool");
}

/* ------------------------------------------------------------ operations */

static int request_size(struct f5_run *r)
{
	unsigned v = fuzz_u16(&r->in);

	if (v % 16 == 0)	/* sometimes above the chunk size */
		return (int)(r->chunk + 1 + v % 64);
	if (v % 4 == 1)
		return (int)(v % 300);
	return (int)(v % (r->chunk + 1));
}

/* What a chunk request should have done, per the model. */
static void model_grow(struct f5_run *r)
{
	FUZZ_CHECK(r->sup.calls == 1, "get_new_chunk called %d times", r->sup.calls);
	switch (r->sup.last_kind) {
	case F5_MISALIGNED:
		fuzz_expect_report(GENALLOC_BUG, GENALLOC_EMISALIGNED, "misaligned chunk");
		return;
	case F5_OVERLAPPING:
		fuzz_expect_report(GENALLOC_BUG, GENALLOC_EOVERLAP, "overlapping chunk");
		return;
	case F5_WRAPPING:
		fuzz_expect_report(GENALLOC_BUG, GENALLOC_ERANGE, "wrapping chunk");
		return;
	case F5_GOOD:
		break;
	}
	if (r->sup.last)
		model_add(r, r->sup.last, r->shift - M5_ATOM_SHIFT);
}

static void op_alloc(struct f5_run *r)
{
	int size = request_size(r), i;
	unsigned long a, want;

	if (r->nr_live == F5_MAX_LIVE)
		return;
	r->sup.calls = 0;
	a = r->eng->alloc(r->pool, size);
	if ((unsigned long)size > r->chunk) {
		FUZZ_CHECK(!a && !r->sup.calls, "oversize request %d: %#lx", size, a);
		fuzz_expect_quiet("oversize alloc");
		return;
	}
	i = m5_order((unsigned long)size);
	if (!r->model->has(r, i))
		model_grow(r);
	else
		FUZZ_CHECK(!r->sup.calls, "callback called with a free block at hand");
	fuzz_expect_quiet("alloc");
	want = r->model->take(r, i);
	FUZZ_CHECK(a == want, "alloc(%d): %#lx, model %#lx", size, a, want);
	if (!a)
		return;
	shadow_claim(&r->sh, a, 32UL << i);
	r->live[r->nr_live++] = (struct m5_block){ a, size };
}

static void op_free(struct f5_run *r)
{
	int k, size;
	struct m5_block b;

	if (!r->nr_live)
		return;
	k = (int)fuzz_below(&r->in, (unsigned long)r->nr_live);
	b = r->live[k];
	size = m5_same_rounding(b.size, fuzz_u8(&r->in));
	r->eng->free(r->pool, b.addr, size);
	fuzz_expect_quiet("free");
	model_free(r, b.addr, m5_order((unsigned long)b.size));
	r->live[k] = r->live[--r->nr_live];
}

/* Free an aligned range of the donation area: a donation if all of it is
 * unknown, an overlap if its first atom is unknown but not the rest. */
static void op_donate(struct f5_run *r)
{
	int i = (int)fuzz_below(&r->in, (unsigned long)r->m.nr_orders);
	unsigned long s = 32UL << i, span = F5_DONATION_CHUNKS * r->chunk;
	unsigned long a = r->donation_area + fuzz_below(&r->in, span / s) * s;
	struct snapshot before;

	if (!shadow_all(&r->sh, a, 32, SH_UNKNOWN))
		return;
	take(r, &before);
	r->eng->free(r->pool, a, (int)s);
	if (shadow_any(&r->sh, a, s, SH_FREE) || shadow_any(&r->sh, a, s, SH_LIVE)) {
		fuzz_expect_report(GENALLOC_BUG, GENALLOC_EOVERLAP, "overlapping donation");
		check_unchanged(r, &before);
		return;
	}
	fuzz_expect_quiet("donation");
	r->donated += s;
	model_add(r, a, i);
}

/* The free of @a with @size must be refused with @code, changing nothing. */
static void refused_free(struct f5_run *r, unsigned long a, int size,
			 enum genalloc_severity sev, enum genalloc_errcode code, const char *what)
{
	struct snapshot before;

	take(r, &before);
	r->eng->free(r->pool, a, size);
	fuzz_expect_report(sev, code, what);
	check_unchanged(r, &before);
}

static void misuse_live(struct f5_run *r, unsigned sub)
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

/* A free block of the 2005 lists, or a free atom of the shadow when the
 * model keeps no lists. */
static void misuse_free_memory(struct f5_run *r, unsigned sub)
{
	int i = 0;
	unsigned long a, k;

	if (!r->model->lists) {
		k = fuzz_below(&r->in, r->sh.size / 32);
		a = r->sh.base + 32 * k;
		if (shadow_all(&r->sh, a, 32, SH_FREE))
			refused_free(r, a, 32, GENALLOC_BUG, GENALLOC_EDOUBLEFREE, "double free");
		return;
	}
	a = m5_pick_free(&r->m, fuzz_u16(&r->in), &i);
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

static void misuse_destroy(struct f5_run *r)
{
	struct snapshot before;

	take(r, &before);
	r->eng->destroy(r->pool);
	fuzz_expect_report(GENALLOC_BUG, GENALLOC_EBUSY, "destroy with live blocks");
	check_unchanged(r, &before);
}

static void misuse_arguments(struct f5_run *r, unsigned sub)
{
	struct snapshot before;
	unsigned long a = r->nr_live ? r->live[0].addr : r->sup.base;

	take(r, &before);
	switch (sub) {
	case 0:
		FUZZ_CHECK(!r->eng->alloc(NULL, 32), "alloc on NULL");
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "alloc on NULL");
		r->eng->free(NULL, a, 32);
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "free on NULL");
		break;
	case 1:
		FUZZ_CHECK(!r->eng->alloc(r->pool, -1 - (int)fuzz_u16(&r->in)), "negative alloc");
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "negative alloc");
		FUZZ_CHECK(!r->eng->alloc(r->pool, INT_MIN), "INT_MIN alloc");
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "INT_MIN alloc");
		r->eng->free(r->pool, a, -32);
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "negative free");
		break;
	case 2:
		r->eng->free(r->pool, 0, (int)fuzz_below(&r->in, 1UL + r->chunk));
		fuzz_expect_report(GENALLOC_WARN, GENALLOC_EINVAL, "free of 0");
		break;
	case 3:
		r->eng->free(r->pool, ULONG_MAX - 31, 33 + (int)fuzz_below(&r->in, r->chunk - 32));
		fuzz_expect_report(GENALLOC_BUG, GENALLOC_ERANGE, "wrapping free");
		break;
	default:	/* INT_MAX and anything above the chunk: quietly nothing */
		FUZZ_CHECK(!r->eng->alloc(r->pool, INT_MAX), "INT_MAX alloc");
		r->eng->free(r->pool, a, INT_MAX);
		r->eng->free(r->pool, a, (int)r->chunk + 1);
		fuzz_expect_quiet("oversize");
		break;
	}
	check_unchanged(r, &before);
}

static void misuse_donation(struct f5_run *r)
{
	int i = 1 + (int)fuzz_below(&r->in, (unsigned long)r->m.nr_orders - 1);
	unsigned long s = 32UL << i, span = F5_DONATION_CHUNKS * r->chunk;
	unsigned long a = r->donation_area + fuzz_below(&r->in, span / s) * s;

	a += 32 * (1 + fuzz_below(&r->in, (s >> 5) - 1));	/* atom-aligned, not size-aligned */
	if (!shadow_all(&r->sh, a, 32, SH_UNKNOWN))
		return;
	refused_free(r, a, (int)s, GENALLOC_BUG, GENALLOC_EMISALIGNED, "misaligned donation");
}

static void op_misuse(struct f5_run *r)
{
	unsigned sub = fuzz_u8(&r->in);

	switch (sub % 8) {
	case 0: case 1:
		if (r->nr_live)
			misuse_live(r, sub / 8 % 3);
		break;
	case 2:
		misuse_free_memory(r, sub / 8 % 2);
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
		r->sup.bad = (enum f5_bad_chunk)(1 + sub / 8 % 3);
		if (r->sup.bad == F5_OVERLAPPING && !r->sup.given)
			r->sup.bad = F5_WRAPPING;
		break;
	}
}

static void step(struct f5_run *r)
{
	unsigned op = fuzz_u8(&r->in) % 16;

	if (op < 6)
		op_alloc(r);
	else if (op < 11)
		op_free(r);
	else if (op < r->eng->donate_end)
		op_donate(r);
	else if (op < r->eng->misuse_end)
		op_misuse(r);
	else
		r->eng->extra_op(r);
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

static void drain(struct f5_run *r)
{
	unsigned long sums[2] = { 0, 0 };

	r->sup.bad = F5_GOOD;
	while (r->nr_live) {
		struct m5_block b = r->live[--r->nr_live];

		r->eng->free(r->pool, b.addr, b.size);
		model_free(r, b.addr, m5_order((unsigned long)b.size));
	}
	fuzz_expect_quiet("drain");
	check_pool(r);
	FUZZ_CHECK(r->sh.live == 0, "bytes lost");
	if (r->model->lists)
		FUZZ_CHECK(m5_free_bytes(&r->m) == r->sh.known, "bytes lost from the lists");
	r->eng->for_each_region(r->pool, count_region, sums);
	FUZZ_CHECK(sums[0] == (unsigned long)r->sup.given * r->chunk && sums[1] == r->donated,
		   "regions: %lu from the callback, %lu donated", sums[0], sums[1]);
}

static void setup(struct f5_run *r)
{
	unsigned long arena, bytes;
	int prefill;

	for (int k = 0; k < 3; k++)
		r->hdr[k] = fuzz_u8(&r->in);
	r->model = &f5_lists_model;
	r->shift = 7 + r->eng->shift_of(r->hdr[0]) % 8;
	r->chunk = 1UL << r->shift;
	r->sup.chunk = r->chunk;
	r->sup.limit = 1 + (int)(r->hdr[1] % 8);
	prefill = (int)(r->hdr[2] % 3);
	if (prefill > r->sup.limit)
		prefill = r->sup.limit;
	bytes = r->chunk * (unsigned long)(r->sup.limit + F5_DONATION_CHUNKS);
	arena = (unsigned long)aligned_alloc(r->chunk, bytes);
	FUZZ_CHECK(arena, "out of memory");
	r->sup.base = arena;
	r->donation_area = arena + (unsigned long)r->sup.limit * r->chunk;
	shadow_init(&r->sh, arena, bytes);
	m5_lists_init(&r->m, r->shift, bytes);
	r->pool = r->eng->create(r, prefill);
	FUZZ_CHECK(r->pool, "pool creation failed");
	fuzz_expect_quiet("pool creation");
	FUZZ_CHECK(r->sup.calls == prefill && r->sup.given == prefill, "prefill");
	for (int k = 0; k < prefill; k++)
		model_add(r, arena + (unsigned long)k * r->chunk, r->shift - M5_ATOM_SHIFT);
	if (r->eng->configure)
		r->eng->configure(r);
}

void f5_run_input(struct f5_run *r, const struct f5_engine *eng,
		  const uint8_t *data, size_t size)
{
	r->eng = eng;
	r->in = (struct fuzz_in){ data, size };
	fuzz_capture_errors();
	setup(r);
	check_pool(r);
	while (r->in.n)
		step(r);
	drain(r);
	eng->destroy(r->pool);
	fuzz_expect_quiet("destroy");
	m5_lists_fini(&r->m);
	free((void *)r->sh.base);
	shadow_fini(&r->sh);
	fuzz_restore_errors();
}
