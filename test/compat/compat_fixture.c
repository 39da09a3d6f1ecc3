// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/compat_fixture.c - see compat_fixture.h.
 */
#include <string.h>

#include "../support.h"
#include "compat_fixture.h"

enum compat_backend fx_backend(int i)
{
	return i ? COMPAT_BACKEND_BITMAP : COMPAT_BACKEND_BUDDY;
}

static struct fx_provider *provider_new(int shift, int cap)
{
	struct fx_provider *p = test_region(64, sizeof(*p));

	ck_assert_int_le(cap, FX_MAX_CHUNKS);
	memset(p, 0, sizeof(*p));
	p->shift = shift;
	p->cap = cap;
	return p;
}

struct fx_provider *fx_provider_new(int shift, int cap)
{
	struct fx_provider *p = provider_new(shift, cap);

	for (int k = 0; k < cap; k++)
		p->chunk[k] = (unsigned long)test_region(1UL << shift, 1UL << shift);
	return p;
}

struct fx_provider *fx_provider_adjacent(int shift, int cap)
{
	struct fx_provider *p = provider_new(shift, cap);
	unsigned long size = 1UL << shift;
	unsigned long base = (unsigned long)test_region(size, size * (unsigned long)(cap ? cap : 1));

	for (int k = 0; k < cap; k++)
		p->chunk[k] = base + size * (unsigned long)k;
	return p;
}

unsigned long fx_get_new_chunk(struct gen_pool *pool)
{
	struct fx_provider *p = (struct fx_provider *)pool->private;
	int k;

	atomic_fetch_add(&p->calls, 1);
	atomic_store(&p->pool, pool);
	if (p->bad)
		return p->bad;
	k = atomic_fetch_add(&p->given, 1);
	if (k >= p->cap) {
		atomic_fetch_sub(&p->given, 1);
		return 0;
	}
	return p->chunk[k];
}

/* Pools a test leaves with live blocks stay reachable until its process
 * exits (each test runs in its own), so leak checkers stay quiet. */
static struct gen_pool *volatile kept[16];
static int nr_kept;

struct gen_pool *fx_pool(int i, struct fx_provider *p, int nr_chunks)
{
	struct gen_pool *pool = gen_pool_create_backend(fx_backend(i), nr_chunks, p->shift,
							fx_get_new_chunk, (unsigned long)p);

	ck_assert_ptr_nonnull(pool);
	ck_assert_int_eq(compat_gen_pool_backend(pool), fx_backend(i));
	if (nr_kept < 16)
		kept[nr_kept++] = pool;
	return pool;
}

unsigned long fx_live_bytes(struct gen_pool *pool)
{
	struct compat_gen_pool_stats st;

	compat_gen_pool_stats(pool, &st);
	return st.obtained_bytes + st.donated_bytes - st.free_bytes;
}

unsigned long fx_free_bytes(struct gen_pool *pool)
{
	struct compat_gen_pool_stats st;

	compat_gen_pool_stats(pool, &st);
	return st.free_bytes;
}
