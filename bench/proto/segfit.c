// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/proto/segfit.c - free runs in size classes, each class a heap,
 * searched for the kernel's exact first-fit and best-fit answers
 * (segfit.h says how).  A prototype for measurement, not part of the
 * library: out of memory aborts.
 */
#include <stdlib.h>
#include <string.h>

#include "segfit.h"

#define C PROTO_SEG_CLASSES
#define SL PROTO_SEG_SL
#define EMPTY (~(uint64_t)0)

/* ---------------------------------------------------------------- classes */

static inline uint32_t seg_class(uint32_t len)
{
	unsigned int fl;

	if (len < (1u << SL))
		return len;
	fl = 31 - (unsigned int)__builtin_clz(len);
	return (1u << SL) + ((fl - SL) << SL) + ((len >> (fl - SL)) & ((1u << SL) - 1));
}

/* The shortest run of class @c. */
static inline uint32_t seg_class_low(uint32_t c)
{
	if (c < (1u << SL))
		return c;
	c -= 1u << SL;
	return ((1u << SL) + (c & ((1u << SL) - 1))) << (c >> SL);
}

/* ---------------------------------------------------------------- hashes */

/*
 * Entries are never deleted one by one: a look-up checks the run an entry
 * names against its key (the run's start or end moves on as it is claimed
 * or merged, or the run is gone), and a table that fills is rebuilt from
 * the live runs.  A claim then costs one insertion, not a deletion and an
 * insertion.
 */
static int hash_init(struct proto_seg_hash *h, unsigned int bits, int end)
{
	uint32_t i;

	h->slot = malloc(sizeof(*h->slot) << bits);
	if (!h->slot)
		return -1;
	/* A loop, not memset(): valgrind counts glibc's "rep stosb" a byte
	 * at a time (bits.h). */
	for (i = 0; i < UINT32_C(1) << bits; i++)
		h->slot[i] = EMPTY;
	h->mask = (UINT32_C(1) << bits) - 1;
	h->shift = 64 - bits;
	h->used = 0;
	h->end = end;
	return 0;
}

static inline uint32_t hash_home(const struct proto_seg_hash *h, uint32_t key)
{
	return (uint32_t)(((uint64_t)key * UINT64_C(0x9e3779b97f4a7c15)) >> h->shift);
}

static inline uint32_t hash_key(const struct proto_seg_hash *h, const struct proto_seg_run *x)
{
	return h->end ? x->start + x->len : x->start;
}

/* The live run whose start (or end) is @key, or 0. */
static inline uint32_t hash_find(const struct proto_seg *s, const struct proto_seg_hash *h,
				 uint32_t key)
{
	uint32_t i;

	for (i = hash_home(h, key); h->slot[i] != EMPTY; i = (i + 1) & h->mask) {
		uint32_t r = (uint32_t)h->slot[i];

		if ((uint32_t)(h->slot[i] >> 32) == key && s->run[r].len &&
		    hash_key(h, &s->run[r]) == key)
			return r;
	}
	return 0;
}

static inline void hash_put(struct proto_seg_hash *h, uint32_t key, uint32_t run)
{
	uint32_t i;

	for (i = hash_home(h, key); h->slot[i] != EMPTY; i = (i + 1) & h->mask)
		;
	h->slot[i] = (uint64_t)key << 32 | run;
	h->used++;
}

/* Room for four times the live runs, holding only theirs. */
static void hash_rebuild(const struct proto_seg *s, struct proto_seg_hash *h)
{
	unsigned int bits = 6;
	uint32_t r;

	while ((UINT64_C(1) << bits) < 4 * (uint64_t)(s->live + 1))
		bits++;
	free(h->slot);
	if (hash_init(h, bits, h->end))
		abort();
	for (r = 1; r < s->nrun; r++)
		if (s->run[r].len)
			hash_put(h, hash_key(h, &s->run[r]), r);
}

/* Run @run's start (or end) is now @key: set in s->run before the call. */
static inline void hash_insert(const struct proto_seg *s, struct proto_seg_hash *h,
			       uint32_t key, uint32_t run)
{
	if ((h->used + 1) * 2 > h->mask + 1)
		hash_rebuild(s, h);
	hash_put(h, key, run);
}

/* ---------------------------------------------------------------- heaps */

static inline void heap_put(struct proto_seg *s, struct proto_seg_heap *hp, uint32_t i,
			    struct proto_seg_ent x)
{
	hp->e[i] = x;
	s->run[x.run].pos = i;
}

static void sift_up(struct proto_seg *s, struct proto_seg_heap *hp, uint32_t i)
{
	struct proto_seg_ent x = hp->e[i];

	while (i) {
		uint32_t p = (i - 1) / 2;

		if (hp->e[p].key <= x.key)
			break;
		heap_put(s, hp, i, hp->e[p]);
		i = p;
	}
	heap_put(s, hp, i, x);
}

static void sift_down(struct proto_seg *s, struct proto_seg_heap *hp, uint32_t i)
{
	struct proto_seg_ent x = hp->e[i];

	for (;;) {
		uint32_t c = 2 * i + 1;

		if (c >= hp->nr)
			break;
		if (c + 1 < hp->nr && hp->e[c + 1].key < hp->e[c].key)
			c++;
		if (hp->e[c].key >= x.key)
			break;
		heap_put(s, hp, i, hp->e[c]);
		i = c;
	}
	heap_put(s, hp, i, x);
}

/* The class tree's leaf @c (first fit), or its non-empty bit (best fit). */
static void class_changed(struct proto_seg *s, uint32_t c)
{
	const struct proto_seg_heap *hp = &s->heap[c];
	uint64_t v;
	uint32_t i = c + C;

	if (s->best) {
		if (hp->nr)
			s->nonempty[c / 64] |= UINT64_C(1) << (c % 64);
		else
			s->nonempty[c / 64] &= ~(UINT64_C(1) << (c % 64));
		return;
	}
	v = hp->nr ? hp->e[0].key << 32 | hp->e[0].run : EMPTY;
	if (s->low[i] == v)
		return;
	s->low[i] = v;
	for (i /= 2; i; i /= 2) {
		uint64_t m = s->low[2 * i] < s->low[2 * i + 1] ? s->low[2 * i] : s->low[2 * i + 1];

		if (s->low[i] == m)
			break;
		s->low[i] = m;
	}
}

static void heap_insert(struct proto_seg *s, uint32_t c, struct proto_seg_ent x)
{
	struct proto_seg_heap *hp = &s->heap[c];

	if (hp->nr == hp->cap) {
		uint32_t cap = hp->cap ? 2 * hp->cap : 8;
		struct proto_seg_ent *e = realloc(hp->e, cap * sizeof(*e));

		if (!e)
			abort();
		hp->e = e;
		hp->cap = cap;
	}
	hp->e[hp->nr] = x;
	sift_up(s, hp, hp->nr++);
	if (s->best ? hp->nr == 1 : !s->run[x.run].pos)
		class_changed(s, c);
}

static void heap_remove(struct proto_seg *s, uint32_t c, uint32_t i)
{
	struct proto_seg_heap *hp = &s->heap[c];

	if (i < --hp->nr) {
		uint64_t key = hp->e[i].key;

		heap_put(s, hp, i, hp->e[hp->nr]);
		if (hp->e[i].key < key)
			sift_up(s, hp, i);
		else
			sift_down(s, hp, i);
	}
	/* Below the root, the root stays: the last entry, moved up, is
	 * greater than it. */
	if (s->best ? !hp->nr : !i)
		class_changed(s, c);
}

/* ---------------------------------------------------------------- runs */

static inline uint64_t run_key(const struct proto_seg *s, const struct proto_seg_run *x)
{
	uint64_t end = x->start + x->len;

	return s->best ? (uint64_t)x->len << 32 | end : end;
}

static uint32_t run_new(struct proto_seg *s)
{
	uint32_t r = s->free_run;

	if (r) {
		s->free_run = s->run[r].pos;
		return r;
	}
	if (s->nrun == s->caprun) {
		uint32_t cap = 2 * s->caprun;
		struct proto_seg_run *run = realloc(s->run, cap * sizeof(*run));

		if (!run)
			abort();
		s->run = run;
		s->caprun = cap;
	}
	return s->nrun++;
}

static void run_drop(struct proto_seg *s, uint32_t r)
{
	heap_remove(s, s->run[r].cls, s->run[r].pos);
	s->run[r].len = 0;
	s->run[r].pos = s->free_run;
	s->free_run = r;
	s->live--;
}

/* Run @r's start or length changed: its entry follows, within its class or
 * into another. */
static void run_rekey(struct proto_seg *s, uint32_t r)
{
	struct proto_seg_run *x = &s->run[r];
	uint32_t c = seg_class(x->len);
	struct proto_seg_ent e = { run_key(s, x), r, x->len };

	if (c == x->cls) {
		struct proto_seg_heap *hp = &s->heap[c];
		uint32_t was = x->pos;
		uint64_t old = hp->e[was].key;

		hp->e[was] = e;
		if (e.key < old)
			sift_up(s, hp, was);
		else if (e.key > old)
			sift_down(s, hp, was);
		/* Same class, so the same emptiness: only first fit's tree of
		 * the classes' lowest runs can have changed, through the root. */
		if (!s->best && (!was || !x->pos))
			class_changed(s, c);
		return;
	}
	heap_remove(s, x->cls, x->pos);
	x->cls = c;
	heap_insert(s, c, e);
}

int proto_seg_add(struct proto_seg *s, uint32_t start, uint32_t len)
{
	uint32_t r = run_new(s);
	struct proto_seg_run *x = &s->run[r];

	x->start = start;
	x->len = len;
	x->cls = seg_class(len);
	s->live++;
	hash_insert(s, &s->by_start, start, r);
	hash_insert(s, &s->by_end, start + len, r);
	heap_insert(s, x->cls, (struct proto_seg_ent){ run_key(s, x), r, len });
	return 0;
}

/* Take @nr granules from the start of run @r. */
static uint32_t seg_claim(struct proto_seg *s, uint32_t r, uint32_t nr)
{
	struct proto_seg_run *x = &s->run[r];
	uint32_t start = x->start;

	if (x->len == nr) {
		run_drop(s, r);
		return start;
	}
	x->start += nr;
	x->len -= nr;
	hash_insert(s, &s->by_start, start + nr, r);
	run_rekey(s, r);
	return start;
}

/* ---------------------------------------------------------------- search */

/* The lowest run of classes @c and up: (end << 32 | run), or EMPTY. */
static inline uint64_t low_from(const struct proto_seg *s, uint32_t c)
{
	uint32_t i = c + C;
	uint64_t m = s->low[i];

	for (; i > 1; i /= 2)
		if (!(i & 1) && s->low[i + 1] < m)
			m = s->low[i + 1];
	return m;
}

/*
 * In class @c's heap, the entry of least key below @bound whose run holds
 * @nr granules: its run, or 0.  A heap's children have greater keys, so a
 * walk stops at an entry at or above the bound, or one that fits.
 */
static uint32_t class_walk(const struct proto_seg_heap *hp, uint32_t nr, uint64_t bound)
{
	uint32_t stack[80], sp = 0, found = 0;

	if (hp->nr)
		stack[sp++] = 0;
	while (sp) {
		uint32_t i = stack[--sp], k = 2 * i + 1;
		const struct proto_seg_ent *x = &hp->e[i];

		if (x->key >= bound)
			continue;
		if (x->len >= nr) {
			bound = x->key;
			found = x->run;
			continue;
		}
		if (k + 1 < hp->nr)
			stack[sp++] = k + 1;
		if (k < hp->nr)
			stack[sp++] = k;
	}
	return found;
}

static int next_class(const uint64_t *ne, uint32_t c)
{
	uint32_t w = c / 64;
	uint64_t m = ne[w] & (EMPTY << (c % 64));

	while (!m) {
		if (++w == C / 64)
			return -1;
		m = ne[w];
	}
	return (int)(w * 64 + (uint32_t)__builtin_ctzll(m));
}

long proto_seg_alloc(struct proto_seg *s, uint32_t nr)
{
	uint32_t c = seg_class(nr), r = 0;
	int whole = seg_class_low(c) == nr;	/* every run of class c holds nr */

	if (s->best) {
		int d;

		if (!whole)
			r = class_walk(&s->heap[c], nr, EMPTY);
		if (!r) {
			d = next_class(s->nonempty, whole ? c : c + 1);
			if (d < 0)
				return -1;
			r = s->heap[d].e[0].run;
		}
	} else {
		uint64_t low = low_from(s, whole ? c : c + 1);

		if (!whole)
			r = class_walk(&s->heap[c], nr, low == EMPTY ? EMPTY : low >> 32);
		if (!r) {
			if (low == EMPTY)
				return -1;
			r = (uint32_t)low;
		}
	}
	return seg_claim(s, r, nr);
}

void proto_seg_release(struct proto_seg *s, uint32_t off, uint32_t nr, int left, int right)
{
	uint32_t l = left ? hash_find(s, &s->by_end, off) : 0;
	uint32_t r = right ? hash_find(s, &s->by_start, off + nr) : 0;

	if (l && r) {
		uint32_t end = s->run[r].start + s->run[r].len;

		run_drop(s, r);
		s->run[l].len = end - s->run[l].start;
		hash_insert(s, &s->by_end, end, l);
		run_rekey(s, l);
	} else if (l) {
		s->run[l].len += nr;
		hash_insert(s, &s->by_end, off + nr, l);
		run_rekey(s, l);
	} else if (r) {
		s->run[r].start = off;
		s->run[r].len += nr;
		hash_insert(s, &s->by_start, off, r);
		run_rekey(s, r);
	} else {
		proto_seg_add(s, off, nr);
	}
}

/* ---------------------------------------------------------------- setup */

int proto_seg_init(struct proto_seg *s, int best)
{
	memset(s, 0, sizeof(*s));
	s->best = best;
	memset(s->low, 0xff, sizeof(s->low));
	s->caprun = 64;
	s->nrun = 1;		/* run 0 is "none" */
	s->run = calloc(s->caprun, sizeof(*s->run));
	if (!s->run || hash_init(&s->by_start, 6, 0) || hash_init(&s->by_end, 6, 1)) {
		proto_seg_fini(s);
		return -1;
	}
	return 0;
}

void proto_seg_fini(struct proto_seg *s)
{
	uint32_t c;

	for (c = 0; c < C; c++)
		free(s->heap[c].e);
	free(s->run);
	free(s->by_start.slot);
	free(s->by_end.slot);
	memset(s, 0, sizeof(*s));
}

/* ---------------------------------------------------------------- check */

static int by_start(const void *a, const void *b)
{
	const struct proto_seg_run *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

size_t proto_seg_runs(const struct proto_seg *s, struct proto_seg_run *out)
{
	size_t n = 0;
	uint32_t c, i;

	for (c = 0; c < C; c++)
		for (i = 0; i < s->heap[c].nr; i++)
			out[n++] = s->run[s->heap[c].e[i].run];
	qsort(out, n, sizeof(*out), by_start);
	return n;
}

int proto_seg_check(const struct proto_seg *s)
{
	uint32_t c, i, live = 0;

	for (c = 0; c < C; c++) {
		const struct proto_seg_heap *hp = &s->heap[c];
		uint64_t v = hp->nr ? hp->e[0].key << 32 | hp->e[0].run : EMPTY;

		for (i = 0; i < hp->nr; i++) {
			const struct proto_seg_ent *e = &hp->e[i];
			const struct proto_seg_run *x = &s->run[e->run];
			uint32_t end = x->start + x->len;

			if (x->cls != c || x->pos != i || seg_class(x->len) != c || e->len != x->len ||
			    e->key != run_key(s, x) || (i && hp->e[(i - 1) / 2].key >= e->key) ||
			    hash_find(s, &s->by_start, x->start) != e->run ||
			    hash_find(s, &s->by_end, end) != e->run)
				return -1;
			live++;
		}
		if (s->best ? !(s->nonempty[c / 64] >> (c % 64) & 1) != !hp->nr : s->low[c + C] != v)
			return -1;
	}
	if (live != s->live || s->by_start.used < live || s->by_end.used < live)
		return -1;
	if (!s->best)
		for (i = 1; i < C; i++)
			if (s->low[i] != (s->low[2 * i] < s->low[2 * i + 1] ? s->low[2 * i]
									  : s->low[2 * i + 1]))
				return -1;
	return 0;
}

size_t proto_seg_bytes(const struct proto_seg *s, int live)
{
	size_t n = live ? (size_t)s->live * (sizeof(*s->run) + sizeof(struct proto_seg_ent))
			: (size_t)s->caprun * sizeof(*s->run);
	uint32_t c;

	if (!live)
		for (c = 0; c < C; c++)
			n += (size_t)s->heap[c].cap * sizeof(struct proto_seg_ent);
	n += ((size_t)s->by_start.mask + 1 + s->by_end.mask + 1) * sizeof(uint64_t);
	return n + sizeof(s->low) + sizeof(s->nonempty);
}
