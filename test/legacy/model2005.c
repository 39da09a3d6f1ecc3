// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/legacy/model2005.c - see model2005.h.
 */
#include "model2005.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * A broken model promise aborts: the fuzzers save the input as a crash, the
 * replay fails make check, and Check reports the test as killed by SIGABRT.
 */
#define M5_CHECK(cond, ...)                                                  \
	do {                                                                 \
		if (!(cond)) {                                               \
			fprintf(stderr, "%s:%d: model: ", __FILE__, __LINE__); \
			fprintf(stderr, __VA_ARGS__);                        \
			fputc('\n', stderr);                                 \
			abort();                                             \
		}                                                            \
	} while (0)

#define ATOM (1UL << M5_ATOM_SHIFT)

void m5_lists_init(struct m5_lists *m, int shift, unsigned long bytes)
{
	memset(m, 0, sizeof(*m));
	m->nr_orders = shift - M5_ATOM_SHIFT + 1;
	M5_CHECK(m->nr_orders > 0 && m->nr_orders <= M5_MAX_ORDERS, "bad shift %d", shift);
	for (int i = 0; i < m->nr_orders; i++) {
		m->cap[i] = (int)(bytes / (ATOM << i)) + 1;
		m->stack[i] = malloc((size_t)m->cap[i] * sizeof(unsigned long));
		M5_CHECK(m->stack[i], "out of memory");
	}
}

void m5_lists_fini(struct m5_lists *m)
{
	for (int i = 0; i < m->nr_orders; i++)
		free(m->stack[i]);
}

int m5_order(unsigned long size)
{
	int i = 0;

	while (size > (ATOM << i))
		i++;
	return i;
}

int m5_has(const struct m5_lists *m, int i)
{
	for (; i < m->nr_orders; i++)
		if (m->len[i])
			return 1;
	return 0;
}

static void push(struct m5_lists *m, int i, unsigned long a)
{
	M5_CHECK(m->len[i] < m->cap[i], "model: list %d overflows", i);
	m->stack[i][m->len[i]++] = a;
}

/* Remove @a from list @i wherever it is; 1 if it was there. */
static int unlink_block(struct m5_lists *m, int i, unsigned long a)
{
	for (int k = m->len[i] - 1; k >= 0; k--) {
		if (m->stack[i][k] != a)
			continue;
		memmove(&m->stack[i][k], &m->stack[i][k + 1],
			(size_t)(m->len[i] - k - 1) * sizeof(a));
		m->len[i]--;
		return 1;
	}
	return 0;
}

unsigned long m5_take(struct m5_lists *m, int i)
{
	unsigned long a;
	int j = i;

	while (j < m->nr_orders && !m->len[j])
		j++;
	if (j == m->nr_orders)
		return 0;
	a = m->stack[j][--m->len[j]];
	/* The lower half is kept, each upper half goes to its list. */
	while (j > i) {
		j--;
		push(m, j, a + (ATOM << j));
	}
	return a;
}

void m5_release(struct m5_lists *m, unsigned long a, int i)
{
	while (i < m->nr_orders - 1 && unlink_block(m, i, a ^ (ATOM << i))) {
		a &= ~(ATOM << i);
		i++;
	}
	push(m, i, a);
}

int m5_free_block_at(const struct m5_lists *m, unsigned long a)
{
	for (int i = 0; i < m->nr_orders; i++)
		for (int k = 0; k < m->len[i]; k++)
			if (m->stack[i][k] == a)
				return i;
	return -1;
}

unsigned long m5_pick_free(const struct m5_lists *m, unsigned long k, int *order)
{
	unsigned long total = 0;

	for (int i = 0; i < m->nr_orders; i++)
		total += (unsigned long)m->len[i];
	if (!total)
		return 0;
	k %= total;
	for (int i = 0; i < m->nr_orders; i++) {
		if (k < (unsigned long)m->len[i]) {
			*order = i;
			return m->stack[i][k];
		}
		k -= (unsigned long)m->len[i];
	}
	return 0;
}

unsigned long m5_free_bytes(const struct m5_lists *m)
{
	unsigned long b = 0;

	for (int i = 0; i < m->nr_orders; i++)
		b += (unsigned long)m->len[i] * (ATOM << i);
	return b;
}

unsigned long m5_largest(const struct m5_lists *m)
{
	for (int i = m->nr_orders - 1; i >= 0; i--)
		if (m->len[i])
			return ATOM << i;
	return 0;
}

int m5_same_rounding(int size, unsigned k)
{
	int r = (int)ATOM << m5_order((unsigned long)size);

	if (r == (int)ATOM)
		return (int)(k % (ATOM + 1));	/* 0 .. 32 all round to 32 */
	return r / 2 + 1 + (int)(k % (unsigned)(r / 2));
}

void shadow_init(struct shadow *s, unsigned long base, unsigned long size)
{
	s->base = base;
	s->size = size;
	s->known = s->live = 0;
	s->st = calloc(size / ATOM, 1);
	M5_CHECK(s->st, "out of memory");
}

void shadow_fini(struct shadow *s)
{
	free(s->st);
}

/* Atom range of [a, a + len) if it lies in the arena; 0 otherwise. */
static int atoms(const struct shadow *s, unsigned long a, unsigned long len,
		 unsigned long *first, unsigned long *n)
{
	if (a < s->base || a - s->base > s->size || len > s->size - (a - s->base) ||
	    (a | len) & (ATOM - 1))
		return 0;
	*first = (a - s->base) / ATOM;
	*n = len / ATOM;
	return 1;
}

int shadow_all(const struct shadow *s, unsigned long a, unsigned long len, int state)
{
	unsigned long f, n;

	if (!atoms(s, a, len, &f, &n))
		return 0;
	for (unsigned long x = 0; x < n; x++)
		if (s->st[f + x] != state)
			return 0;
	return 1;
}

int shadow_any(const struct shadow *s, unsigned long a, unsigned long len, int state)
{
	unsigned long f, n;

	if (!atoms(s, a, len, &f, &n))
		return 0;
	for (unsigned long x = 0; x < n; x++)
		if (s->st[f + x] == state)
			return 1;
	return 0;
}

static void set_all(struct shadow *s, unsigned long a, unsigned long len, int state)
{
	unsigned long f, n;

	M5_CHECK(atoms(s, a, len, &f, &n), "block %#lx+%lu outside the arena", a, len);
	memset(s->st + f, state, n);
}

void shadow_add(struct shadow *s, unsigned long a, unsigned long len)
{
	M5_CHECK(shadow_all(s, a, len, SH_UNKNOWN), "memory %#lx+%lu added twice", a, len);
	set_all(s, a, len, SH_FREE);
	s->known += len;
}

void shadow_claim(struct shadow *s, unsigned long a, unsigned long len)
{
	M5_CHECK(a % len == 0, "block %#lx not aligned to its size %lu", a, len);
	M5_CHECK(shadow_all(s, a, len, SH_FREE),
		   "block %#lx+%lu is not free pool memory (outside the pool or overlapping a live block)",
		   a, len);
	set_all(s, a, len, SH_LIVE);
	s->live += len;
}

void shadow_release(struct shadow *s, unsigned long a, unsigned long len)
{
	M5_CHECK(shadow_all(s, a, len, SH_LIVE), "freeing %#lx+%lu, not live", a, len);
	set_all(s, a, len, SH_FREE);
	s->live -= len;
}
