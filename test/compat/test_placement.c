// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/compat/test_placement.c - where the bitmap backend puts blocks,
 * checked address for address against a reference model written from the
 * documented rule alone: frames are searched newest first (a callback chunk
 * becomes a frame when it arrives, a donated frame when its first donation
 * arrives), and in a frame the block goes to the lowest offset that is a
 * multiple of its rounded size and whose granules are all free; the
 * undonated parts of a donated frame are never free.  Growth happens only
 * when no frame has room.  And the buddy backend, against the 2005 engine
 * it wraps, driven directly.
 */
#include <stdlib.h>
#include <string.h>

#include "../support.h"
#include "compat_fixture.h"
#include "legacy_twin.h"

#define P_SHIFT 12
#define P_FRAME (1UL << P_SHIFT)
#define P_GRANULES (P_FRAME / 32)
#define P_DONATION_FRAMES 4
#define P_MAX_FRAMES (FX_MAX_CHUNKS + P_DONATION_FRAMES)

struct placement_model {
	struct fx_provider *p;
	int given;				/* chunks the model has taken */
	int nr;					/* frames, oldest first */
	unsigned long base[P_MAX_FRAMES];
	unsigned char used[P_MAX_FRAMES][P_GRANULES];	/* live or held */
};

static int pm_frame_of(struct placement_model *m, unsigned long addr)
{
	for (int f = 0; f < m->nr; f++)
		if (addr - m->base[f] < P_FRAME)
			return f;
	return -1;
}

static int pm_add_frame(struct placement_model *m, unsigned long base, int held)
{
	m->base[m->nr] = base;
	memset(m->used[m->nr], held, P_GRANULES);
	return m->nr++;
}

static void pm_mark(struct placement_model *m, unsigned long addr, unsigned long s, int used)
{
	int f = pm_frame_of(m, addr);

	memset(&m->used[f][(addr - m->base[f]) / 32], used, s / 32);
}

static unsigned long pm_fit(struct placement_model *m, unsigned long s)
{
	unsigned long n = s / 32;

	for (int f = m->nr - 1; f >= 0; f--)
		for (unsigned long g = 0; g + n <= P_GRANULES; g += n)
			if (!memchr(&m->used[f][g], 1, n))
				return m->base[f] + g * 32;
	return 0;
}

static unsigned long pm_alloc(struct placement_model *m, unsigned long s)
{
	unsigned long a = pm_fit(m, s);

	while (!a && m->given < m->p->cap) {
		pm_add_frame(m, m->p->chunk[m->given++], 0);
		a = pm_fit(m, s);
	}
	if (a)
		pm_mark(m, a, s, 1);
	return a;
}

static void pm_donate(struct placement_model *m, unsigned long addr, unsigned long s)
{
	if (pm_frame_of(m, addr) < 0)
		pm_add_frame(m, addr & ~(P_FRAME - 1), 1);
	pm_mark(m, addr, s, 0);
}

START_TEST(bitmap_placement_matches_the_model)
{
	struct placement_model *m = test_region(64, sizeof(*m));
	unsigned long don = (unsigned long)test_region(P_FRAME, P_DONATION_FRAMES * P_FRAME);
	unsigned char donated[P_DONATION_FRAMES * P_GRANULES] = { 0 };
	unsigned long long rng = 0xfeedULL + (unsigned long long)_i;
	unsigned long live[512];
	int live_size[512], n = 0;
	struct gen_pool *pool;

	memset(m, 0, sizeof(*m));
	m->p = fx_provider_new(P_SHIFT, 12);
	pool = gen_pool_create_backend(COMPAT_BACKEND_BITMAP, 0, P_SHIFT, fx_get_new_chunk,
				       (unsigned long)m->p);
	for (int step = 0; step < 3000; step++) {
		unsigned long long op = test_rng_below(&rng, 100);

		if (op < 55 && n < 512) {
			int size = (int)test_rng_below(&rng, 1UL << test_rng_below(&rng, P_SHIFT + 1));
			unsigned long s = 32, a;

			while (s < (unsigned long)size)
				s <<= 1;
			a = gen_pool_alloc(pool, size);
			ck_assert_uint_eq(a, pm_alloc(m, s));
			ck_assert_int_eq(atomic_load(&m->p->given), m->given);
			if (a) {
				live[n] = a;
				live_size[n++] = size;
			}
		} else if (op < 95 && n) {
			int k = (int)test_rng_below(&rng, (unsigned long long)n);
			unsigned long s = 32;

			while (s < (unsigned long)live_size[k])
				s <<= 1;
			gen_pool_free(pool, live[k], live_size[k]);
			pm_mark(m, live[k], s, 0);
			live[k] = live[--n];
			live_size[k] = live_size[n];
		} else {
			unsigned long s = 32UL << test_rng_below(&rng, 5);
			unsigned long off = test_rng_below(&rng, P_DONATION_FRAMES * P_FRAME / s) * s;

			if (memchr(&donated[off / 32], 1, s / 32))
				continue;
			memset(&donated[off / 32], 1, s / 32);
			gen_pool_free(pool, don + off, (int)s);
			pm_donate(m, don + off, s);
		}
	}
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	while (n--)
		gen_pool_free(pool, live[n], live_size[n]);
	gen_pool_destroy(pool);
}
END_TEST

/* ------------------------------------------------------------ buddy */

/* An address as (chunk or donation frame index, offset): comparable across
 * two pools fed with equally shaped memory at different places. */
static unsigned long rel(const unsigned long *frames, int nr, unsigned long addr)
{
	for (int f = 0; f < nr; f++)
		if (addr - frames[f] < P_FRAME)
			return (unsigned long)f * P_FRAME + (addr - frames[f]);
	ck_abort_msg("address %#lx in no frame", addr);
	return 0;
}

/*
 * The buddy backend is the 2005 engine itself: the same operations on a
 * compat buddy pool and on a legacy pool, fed equally shaped memory, give
 * the same blocks, chunk for chunk and offset for offset.
 */
START_TEST(buddy_backend_places_as_the_2005_engine)
{
	enum { CAP = 10, DON = 4 };
	struct fx_provider *p = fx_provider_new(P_SHIFT, CAP);
	unsigned long mine[CAP + DON], theirs[CAP + DON];
	unsigned long don_a = (unsigned long)test_region(P_FRAME, DON * P_FRAME);
	unsigned long don_b = (unsigned long)test_region(P_FRAME, DON * P_FRAME);
	unsigned char donated[DON * P_GRANULES] = { 0 };
	unsigned long long rng = 0xb0ddULL + (unsigned long long)_i;
	unsigned long live_a[512], live_b[512];
	int live_size[512], n = 0;
	struct gen_pool *pool = gen_pool_create_backend(COMPAT_BACKEND_BUDDY, 0, P_SHIFT,
							fx_get_new_chunk, (unsigned long)p);
	void *twin;

	for (int k = 0; k < CAP; k++) {
		mine[k] = p->chunk[k];
		theirs[k] = (unsigned long)test_region(P_FRAME, P_FRAME);
	}
	for (int k = 0; k < DON; k++) {
		mine[CAP + k] = don_a + (unsigned long)k * P_FRAME;
		theirs[CAP + k] = don_b + (unsigned long)k * P_FRAME;
	}
	twin = twin_create(P_SHIFT, theirs, CAP);
	for (int step = 0; step < 3000; step++) {
		unsigned long long op = test_rng_below(&rng, 100);

		if (op < 55 && n < 512) {
			int size = (int)test_rng_below(&rng, 1UL << test_rng_below(&rng, P_SHIFT + 1));
			unsigned long a = gen_pool_alloc(pool, size), b = twin_alloc(twin, size);

			ck_assert_int_eq(!a, !b);
			if (!a)
				continue;
			ck_assert_uint_eq(rel(mine, CAP + DON, a), rel(theirs, CAP + DON, b));
			live_a[n] = a;
			live_b[n] = b;
			live_size[n++] = size;
		} else if (op < 95 && n) {
			int k = (int)test_rng_below(&rng, (unsigned long long)n);

			gen_pool_free(pool, live_a[k], live_size[k]);
			twin_free(twin, live_b[k], live_size[k]);
			live_a[k] = live_a[--n];
			live_b[k] = live_b[n];
			live_size[k] = live_size[n];
		} else {
			unsigned long s = 32UL << test_rng_below(&rng, 5);
			unsigned long off = test_rng_below(&rng, DON * P_FRAME / s) * s;

			if (memchr(&donated[off / 32], 1, s / 32))
				continue;
			memset(&donated[off / 32], 1, s / 32);
			gen_pool_free(pool, don_a + off, (int)s);
			twin_free(twin, don_b + off, (int)s);
		}
	}
	ck_assert_int_eq(compat_gen_pool_check(pool), 0);
	while (n--) {
		gen_pool_free(pool, live_a[n], live_size[n]);
		twin_free(twin, live_b[n], live_size[n]);
	}
	gen_pool_destroy(pool);
	twin_destroy(twin);
}
END_TEST

/* A buddy-backed pool's bookkeeping is its engine's plus compat's own pool
 * structure, byte for byte, before and after growth (the other statistics
 * tests only see metadata grow: leaving compat's structure out passed). */
START_TEST(buddy_backend_metadata_is_the_engine_s_plus_the_pool)
{
	struct fx_provider *p = fx_provider_new(P_SHIFT, 1);
	unsigned long theirs = (unsigned long)test_region(P_FRAME, P_FRAME);
	struct gen_pool *pool = gen_pool_create_backend(COMPAT_BACKEND_BUDDY, 0, P_SHIFT,
							fx_get_new_chunk, (unsigned long)p);
	void *twin = twin_create(P_SHIFT, &theirs, 1);
	struct compat_gen_pool_stats st;

	compat_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.metadata_bytes, twin_metadata_bytes(twin) + sizeof(*pool));
	ck_assert_uint_eq(gen_pool_alloc(pool, 32), p->chunk[0]);
	ck_assert_uint_eq(twin_alloc(twin, 32), theirs);
	compat_gen_pool_stats(pool, &st);
	ck_assert_uint_eq(st.metadata_bytes, twin_metadata_bytes(twin) + sizeof(*pool));
	gen_pool_free(pool, p->chunk[0], 32);
	twin_free(twin, theirs, 32);
	gen_pool_destroy(pool);
	twin_destroy(twin);
}
END_TEST

Suite *compat_placement_suite(void)
{
	Suite *s = suite_create("compat_placement");
	TCase *tc = tcase_create("placement");

	tcase_add_loop_test(tc, bitmap_placement_matches_the_model, 0, 3);
	tcase_add_loop_test(tc, buddy_backend_places_as_the_2005_engine, 0, 3);
	tcase_add_test(tc, buddy_backend_metadata_is_the_engine_s_plus_the_pool);
	suite_add_tcase(s, tc);
	return s;
}
