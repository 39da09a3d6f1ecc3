// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/modern/test_import.c - gen_pool_set_import() and
 * gen_pool_import_from(): imports and releases counted against a model of
 * the pool's chunks, stacked pools, callbacks that re-enter the pool,
 * threads that import and empty chunks at once, and every refused input.
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>

#include "../support.h"
#include "modern/genalloc.h"

/* ------------------------------------------------------------ a source */

#define SPANS 256

/*
 * A source of spans at made-up addresses, one 1 MiB slot each, that keeps
 * the model: which spans are out (imported and not released), and counts.
 */
struct source {
	unsigned long addr[SPANS];
	size_t len[SPANS];
	bool out[SPANS];
	int imports, releases, refuse_after, short_by;
	struct gen_pool *reenter;	/* call back into it from the callbacks */
	bool held_seen;
	unsigned long reentered;
};

static int source_import(struct gen_pool *pool, size_t size, unsigned long *addr, size_t *len,
			 void *data)
{
	struct source *s = data;
	int k;

	if (s->reenter) {
		s->held_seen = gen_pool_held_by_caller(pool);
		s->reentered = gen_pool_alloc(s->reenter, 8);
	}
	if (s->refuse_after >= 0 && s->imports >= s->refuse_after)
		return -ENOMEM;
	for (k = 0; k < SPANS && s->out[k]; k++)
		;
	ck_assert_int_lt(k, SPANS);
	ck_assert_uint_le(size, 1UL << 20);
	s->imports++;
	s->out[k] = true;
	s->addr[k] = 0x40000000UL + ((unsigned long)k << 20);
	s->len[k] = size - s->short_by;
	*addr = s->addr[k];
	*len = s->len[k];
	return 0;
}

static void source_release(struct gen_pool *pool, unsigned long addr, size_t len, void *data)
{
	struct source *s = data;
	int k = (int)((addr - 0x40000000UL) >> 20);

	(void)pool;
	ck_assert_int_ge(k, 0);
	ck_assert_int_lt(k, SPANS);
	ck_assert_msg(s->out[k] && s->addr[k] == addr && s->len[k] == len,
		      "release of a span not out: %lx + %zu", addr, len);
	if (s->reenter)
		gen_pool_free(s->reenter, addr, 8);
	s->out[k] = false;
	s->releases++;
}

static void source_init(struct source *s)
{
	memset(s, 0, sizeof(*s));
	s->refuse_after = -1;
}

struct chunk_count {
	const struct source *s;
	int imported, other;
};

static void count_chunk(struct gen_pool *pool, struct gen_pool_chunk *chunk, void *data)
{
	struct chunk_count *cc = data;
	int k = (int)((chunk->start_addr - 0x40000000UL) >> 20);

	(void)pool;
	if (chunk->start_addr < 0x40000000UL || k >= SPANS) {
		cc->other++;
		return;
	}
	ck_assert_msg(cc->s->out[k] && cc->s->addr[k] == chunk->start_addr,
		      "chunk %lx is no span out", chunk->start_addr);
	/* An imported chunk that is wholly free has been released. */
	ck_assert_msg((size_t)atomic_load(&chunk->avail) < cc->s->len[k],
		      "imported chunk %lx is wholly free", chunk->start_addr);
	cc->imported++;
}

/* The pool's chunks are its own ones and exactly the spans out. */
static void assert_model(struct gen_pool *pool, const struct source *s, int own)
{
	struct chunk_count cc = { s, 0, 0 };
	int out = 0, k;

	for (k = 0; k < SPANS; k++)
		out += s->out[k];
	gen_pool_for_each_chunk(pool, count_chunk, &cc);
	ck_assert_int_eq(cc.other, own);
	ck_assert_int_eq(cc.imported, out);
	ck_assert_int_eq(s->imports - s->releases, out);
	ck_assert_int_eq(gen_pool_check(pool), 0);
}

/* ------------------------------------------------------------ tests */

START_TEST(imports_when_full_releases_when_empty)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	struct source s;
	unsigned long a, b, c;
	void *owner;

	source_init(&s);
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x100, -1), 0);
	ck_assert_int_eq(gen_pool_set_import(pool, source_import, source_release, 0x1000, &s), 0);
	a = gen_pool_alloc(pool, 0x100);
	EXPECT_EQ(a, 0x10000);
	EXPECT_EQ(s.imports, 0);
	/* No room: one quantum is imported, the newest chunk, searched first. */
	b = gen_pool_alloc(pool, 0x20);
	EXPECT_EQ(b, 0x40000000);
	EXPECT_EQ(s.imports, 1);
	EXPECT_EQ(s.len[0], 0x1000);
	c = gen_pool_alloc(pool, 0x20);
	EXPECT_EQ(c, 0x40000020);
	assert_model(pool, &s, 1);
	/* A request above the quantum is rounded up to whole quanta. */
	EXPECT_EQ(gen_pool_alloc(pool, 0x1800), 0x40100000);
	EXPECT_EQ(s.len[1], 0x2000);
	/* The free that empties an imported chunk still tells its owner
	 * (read before the chunk goes). */
	owner = &s;
	gen_pool_free_owner(pool, 0x40100000, 0x1800, &owner);
	ck_assert_ptr_null(owner);
	EXPECT_EQ(s.releases, 1);
	gen_pool_free(pool, b, 0x20);
	EXPECT_EQ(s.releases, 1);
	gen_pool_free(pool, c, 0x20);
	EXPECT_EQ(s.releases, 2);
	assert_model(pool, &s, 1);
	/* The pool's own chunk is never released. */
	gen_pool_free(pool, a, 0x100);
	assert_model(pool, &s, 1);
	/* No memory from the import: the allocation fails as before. */
	s.refuse_after = s.imports;
	EXPECT_EQ(gen_pool_alloc(pool, 0x200), 0);
	assert_model(pool, &s, 1);
	gen_pool_destroy(pool);
}
END_TEST

/* xalloc imports too, with slack for its alignment; a retry the span
 * cannot serve gives it back at once. */
START_TEST(xalloc_imports_and_an_unused_import_goes_back)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	struct gen_pool_constraints c = { .align = 0x1000, .phase = 0x10 };
	struct source s;
	unsigned long a;

	source_init(&s);
	ck_assert_int_eq(gen_pool_set_import(pool, source_import, source_release, 0, &s), 0);
	a = gen_pool_xalloc(pool, 0x30, &c);
	EXPECT_EQ(a, 0x40000010);
	ck_assert_uint_ge(s.len[0], 0x30);
	assert_model(pool, &s, 0);
	/* Below every span the source hands out: imported, unused, released. */
	c = (struct gen_pool_constraints){ .maxaddr = 0x30000000 };
	EXPECT_EQ(gen_pool_xalloc(pool, 0x30, &c), 0);
	EXPECT_EQ(s.imports, 2);
	EXPECT_EQ(s.releases, 1);
	assert_model(pool, &s, 0);
	gen_pool_free(pool, a, 0x30);
	EXPECT_EQ(s.releases, 2);
	assert_model(pool, &s, 0);
	gen_pool_destroy(pool);
}
END_TEST

/* A window as wide as the address space's top bit asks the import for the
 * block and one rounded size more, not for the window. */
START_TEST(xalloc_nocross_imports_a_small_span)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	struct gen_pool_constraints c = { .nocross = ULONG_MAX / 2 + 1 };
	struct source s;
	unsigned long a, b;

	source_init(&s);
	ck_assert_int_eq(gen_pool_set_import(pool, source_import, source_release, 0, &s), 0);
	a = gen_pool_xalloc(pool, 0x28, &c);
	EXPECT_EQ(a, 0x40000000);
	EXPECT_EQ(s.len[0], 0x60);
	/* A small window: the block's size again, the window less a granule
	 * being more. */
	c.nocross = 0x40;
	b = gen_pool_xalloc(pool, 0x40, &c);
	EXPECT_EQ(s.imports, 2);
	EXPECT_EQ(s.len[1], 0x70);
	EXPECT_EQ(b, 0x40100000);
	assert_model(pool, &s, 0);
	gen_pool_free(pool, a, 0x28);
	gen_pool_free(pool, b, 0x40);
	EXPECT_EQ(s.releases, 2);
	gen_pool_destroy(pool);
}
END_TEST

/* Random allocations and frees, every algorithm, against the model. */
START_TEST(random_imports_against_the_model)
{
	static const genpool_algo_t algos[] = { NULL, gen_pool_best_fit,
						gen_pool_first_fit_order_align };
	struct gen_pool *pool = gen_pool_create(3, -1);
	unsigned long long rng = 0x1234567 + (unsigned long long)_i;
	struct { unsigned long addr; size_t size; } live[400];
	struct source s;
	int n = 0, step, k;
	size_t size;

	source_init(&s);
	ck_assert_int_eq(gen_pool_add(pool, 0x10000, 0x800, -1), 0);
	ck_assert_int_eq(gen_pool_set_import(pool, source_import, source_release, 0x2000, &s), 0);
	gen_pool_set_algo(pool, algos[_i], NULL);
	for (step = 0; step < 3000; step++) {
		if (n && (n == 400 || test_rng_below(&rng, 2))) {
			k = (int)test_rng_below(&rng, (unsigned long long)n);
			gen_pool_free(pool, live[k].addr, live[k].size);
			live[k] = live[--n];
		} else {
			size = 1 + test_rng_below(&rng, test_rng_below(&rng, 8) ? 0x100 : 0x5000);
			live[n].addr = gen_pool_alloc(pool, size);
			ck_assert_uint_ne(live[n].addr, 0);
			live[n++].size = size;
		}
		assert_model(pool, &s, 1);
	}
	while (n--)
		gen_pool_free(pool, live[n].addr, live[n].size);
	assert_model(pool, &s, 1);
	EXPECT_EQ(s.imports, s.releases);
	ck_assert_int_gt(s.imports, 10);
	gen_pool_destroy(pool);
}
END_TEST

/* A pool stacked on a pool stacked on a pool. */
START_TEST(stacked_pools)
{
	struct gen_pool *c = gen_pool_create(12, -1), *b = gen_pool_create(8, -1);
	struct gen_pool *a = gen_pool_create(4, -1);
	unsigned long x[64];
	int k;

	ck_assert_int_eq(gen_pool_add(c, 0x100000, 0x100000, -1), 0);
	ck_assert_int_eq(gen_pool_import_from(b, c, 0x4000), 0);
	ck_assert_int_eq(gen_pool_import_from(a, b, 0x1000), 0);
	for (k = 0; k < 64; k++) {
		x[k] = gen_pool_alloc(a, 0x100 + 0x10 * (unsigned long)k);
		ck_assert_uint_ne(x[k], 0);
		ck_assert(gen_pool_has_addr(c, x[k], 1));
	}
	ck_assert_uint_lt(gen_pool_avail(c), 0x100000);
	ck_assert_int_eq(gen_pool_check(a), 0);
	ck_assert_int_eq(gen_pool_check(b), 0);
	for (k = 0; k < 64; k++)
		gen_pool_free(a, x[k], 0x100 + 0x10 * (unsigned long)k);
	/* Every level gave its memory back. */
	EXPECT_EQ(gen_pool_size(a), 0);
	EXPECT_EQ(gen_pool_size(b), 0);
	EXPECT_EQ(gen_pool_avail(c), 0x100000);
	gen_pool_destroy(a);
	gen_pool_destroy(b);
	gen_pool_destroy(c);
}
END_TEST

/* A callback that calls back into its pool is refused, never deadlocks;
 * the pool counts as held by it. */
START_TEST(callbacks_reentering_the_pool_are_refused)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	struct source s;
	unsigned long a;

	source_init(&s);
	s.reenter = pool;
	ck_assert_int_eq(gen_pool_set_import(pool, source_import, source_release, 0, &s), 0);
	capture_errors();
	a = gen_pool_alloc(pool, 0x20);
	EXPECT_EQ(a, 0x40000000);
	ck_assert(s.held_seen);
	EXPECT_EQ(s.reentered, 0);
	assert_line_is("genalloc: WARN EREENTRY: gen_pool_alloc: this thread is running the pool's import or release callback (pool <pool>, addr 0, size 8); do not call the pool from its own callbacks; get and return memory from another source (gen_pool_import_from() for a pool)",
		       pool, 0, 0, 0);
	ck_assert_str_eq(last_error()->func, "gen_pool_alloc");
	ck_assert_error(GENALLOC_WARN, GENALLOC_EREENTRY);
	ck_assert(!gen_pool_held_by_caller(pool));
	/* The release callback's free is refused too. */
	gen_pool_free(pool, a, 0x20);
	EXPECT_EQ(s.releases, 1);
	assert_line_is("genalloc: WARN EREENTRY: gen_pool_free: this thread is running the pool's import or release callback (pool <pool>, addr 0x40000000, size 8); do not call the pool from its own callbacks; get and return memory from another source (gen_pool_import_from() for a pool)",
		       pool, 0, 0, 0);
	ck_assert_str_eq(last_error()->func, "gen_pool_free");
	ck_assert_error(GENALLOC_WARN, GENALLOC_EREENTRY);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

/* Destroy gives back what no block holds, and keeps a pool with live blocks. */
START_TEST(destroy_with_imported_chunks)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	struct source s;
	unsigned long a;

	source_init(&s);
	ck_assert_int_eq(gen_pool_set_import(pool, source_import, source_release, 0, &s), 0);
	a = gen_pool_alloc(pool, 0x20);
	capture_errors();
	gen_pool_destroy(pool);
	assert_line_is("genalloc: BUG EBUSY: gen_pool_destroy: pool has live allocations, counted as runs of used granules (pool <pool>, addr 0x40000000, size 32, 1 live: 0x40000000); free them first (gen_pool_for_each_run() with GEN_POOL_RUNS_USED lists them), then destroy the pool",
		       pool, 0, 0, 0);
	ck_assert_error(GENALLOC_BUG, GENALLOC_EBUSY);
	assert_model(pool, &s, 0);
	gen_pool_free(pool, a, 0x20);
	EXPECT_EQ(s.releases, 1);
	gen_pool_destroy(pool);
	EXPECT_EQ(s.imports, s.releases);
}
END_TEST

static int no_import(struct gen_pool *pool, size_t size, unsigned long *addr, size_t *len,
		     void *data)
{
	(void)pool;
	(void)size;
	(void)addr;
	(void)len;
	(void)data;
	return -ENOMEM;
}

/* Every refused input: WARN EINVAL, and nothing changes. */
START_TEST(import_refuses_bad_settings)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	struct gen_pool *ll = modern_gen_pool_create_mode(4, -1, true);
	struct gen_pool *source_pool = gen_pool_create(4, -1);
	struct source s;

	source_init(&s);
	capture_errors();
	ck_assert_int_eq(gen_pool_set_import(ll, no_import, source_release, 0, NULL), -EINVAL);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_set_import: a lock-free pool cannot import (an import may sleep) (pool <pool>, addr 0, size 0); import into an indexed pool: call gen_pool_set_lockless(pool, false) first",
		       ll, 0, 0, 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_ptr_null(ll->import);
	ck_assert_int_eq(gen_pool_set_import(pool, no_import, NULL, 0, NULL), -EINVAL);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_set_import: an import needs a release (pool <pool>, addr 0, size 0); pass a release callback that takes back what the import hands over",
		       pool, 0, 0, 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_set_import(pool, no_import, source_release, 24, NULL), -EINVAL);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_set_import: quantum is not a multiple of the granule (pool <pool>, addr 0, quantum 24); pass a quantum of 0 (one granule) or a multiple of 1 << min_alloc_order bytes",
		       pool, 0, 0, 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_import_from(pool, source_pool, 24), -EINVAL);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_import_from: quantum is not a multiple of the granule (pool <pool>, addr 0, quantum 24); pass a quantum of 0 (one granule) or a multiple of 1 << min_alloc_order bytes",
		       pool, 0, 0, 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_set_import(NULL, no_import, source_release, 0, NULL), -EINVAL);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_set_import: NULL pool (pool NULL, addr 0, size 0); pass the pool gen_pool_create() returned",
		       NULL, 0, 0, 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_import_from(NULL, source_pool, 0), -EINVAL);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_import_from: NULL pool (pool NULL, addr 0, size 0); pass the pool gen_pool_create() returned",
		       NULL, 0, 0, 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_import_from(ll, source_pool, 0), -EINVAL);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_import_from: a lock-free pool cannot import (an import may sleep) (pool <pool>, addr 0, size 0); import into an indexed pool: call gen_pool_set_lockless(pool, false) first",
		       ll, 0, 0, 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_import_from(pool, pool, 0), -EINVAL);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_import_from: a pool cannot import from itself (pool <pool>, addr 0, size 0); pass another pool, created by gen_pool_create(), as the source",
		       pool, 0, 0, 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(gen_pool_import_from(pool, NULL, 0), -EINVAL);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_import_from: NULL source (pool <pool>, addr 0, size 0); pass another pool, created by gen_pool_create(), as the source",
		       pool, 0, 0, 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert_int_eq(errors_seen(), 0);
	ck_assert_ptr_null(pool->import);
	/* An importing pool stays indexed. */
	ck_assert_int_eq(gen_pool_set_import(pool, source_import, source_release, 0, &s), 0);
	gen_pool_set_lockless(pool, true);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_set_lockless: a pool that imports stays indexed (an import may sleep) (pool <pool>, addr 0, size 0); leave this pool indexed; where calls must be lock-free, use a pool that never imported",
		       pool, 0, 0, 0);
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	ck_assert(!pool->lockless);
	/* A span shorter than asked: WARN EINVAL, given back, no block. */
	s.short_by = 0x10;
	EXPECT_EQ(gen_pool_alloc(pool, 0x40), 0);
	assert_line_is("genalloc: WARN EINVAL: gen_pool_set_import: the import's span (the addr and size shown) is shorter than asked (pool <pool>, addr 0x40000000, size 48); make the import hand over at least the size it is asked for, or return non-zero for no memory",
		       pool, 0, 0, 0);
	ck_assert_str_eq(last_error()->func, "gen_pool_set_import");
	ck_assert_error(GENALLOC_WARN, GENALLOC_EINVAL);
	EXPECT_EQ(s.imports, 1);
	EXPECT_EQ(s.releases, 1);
	EXPECT_EQ(gen_pool_size(pool), 0);
	ck_assert_int_eq(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
	gen_pool_destroy(ll);
	gen_pool_destroy(source_pool);
}
END_TEST

/* ------------------------------------------------------------ threads */

#define IMPORTERS 4
#define HELD 24

struct importer {
	struct gen_pool *pool;
	uint64_t rng;
	int rounds;
};

static unsigned int next_random(struct importer *w)
{
	w->rng ^= w->rng << 13;
	w->rng ^= w->rng >> 7;
	w->rng ^= w->rng << 17;
	return (unsigned int)(w->rng >> 32);
}

/* Random blocks of 16 B - 32 KiB, HELD at a time, all freed at the end. */
static void *import_worker(void *arg)
{
	struct importer *w = arg;
	unsigned long addr[HELD] = { 0 };
	size_t size[HELD] = { 0 };
	int i, k;

	for (i = 0; i < w->rounds; i++) {
		k = (int)(next_random(w) % HELD);
		if (addr[k]) {
			gen_pool_free(w->pool, addr[k], size[k]);
			addr[k] = 0;
			continue;
		}
		size[k] = (size_t)16 << (next_random(w) % 12);
		addr[k] = gen_pool_alloc(w->pool, size[k]);
		ck_assert_uint_ne(addr[k], 0);
	}
	for (k = 0; k < HELD; k++)
		if (addr[k])
			gen_pool_free(w->pool, addr[k], size[k]);
	return NULL;
}

/*
 * Threads that import and free at once: a free that empties an imported
 * chunk gives it back only if no other thread has used it since, and every
 * span goes back once the blocks are gone.  Two threads handed one block
 * would make one of the frees a double free, which the default hook kills.
 */
START_TEST(threads_import_and_give_back)
{
	struct gen_pool *pool = gen_pool_create(4, -1);
	struct importer w[IMPORTERS];
	pthread_t t[IMPORTERS];
	struct source s;
	int i;

	source_init(&s);
	ck_assert_int_eq(gen_pool_set_import(pool, source_import, source_release, 0x10000, &s), 0);
	for (i = 0; i < IMPORTERS; i++) {
		w[i] = (struct importer){ pool, 0x9e3779b97f4a7c15ull * (uint64_t)(i + 1), 20000 };
		ck_assert_int_eq(pthread_create(&t[i], NULL, import_worker, &w[i]), 0);
	}
	for (i = 0; i < IMPORTERS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_int_gt(s.imports, IMPORTERS);
	EXPECT_EQ(s.releases, s.imports);
	assert_model(pool, &s, 0);
	EXPECT_EQ(gen_pool_size(pool), 0);
	gen_pool_destroy(pool);
}
END_TEST

Suite *modern_import_suite(void)
{
	Suite *s = suite_create("modern_import");
	TCase *tc = tcase_create("import");

	tcase_add_test(tc, imports_when_full_releases_when_empty);
	tcase_add_test(tc, xalloc_imports_and_an_unused_import_goes_back);
	tcase_add_test(tc, xalloc_nocross_imports_a_small_span);
	tcase_add_loop_test(tc, random_imports_against_the_model, 0, 3);
	tcase_add_test(tc, stacked_pools);
	tcase_add_test(tc, callbacks_reentering_the_pool_are_refused);
	tcase_add_test(tc, destroy_with_imported_chunks);
	tcase_add_test(tc, import_refuses_bad_settings);
	tcase_add_test(tc, threads_import_and_give_back);
	suite_add_tcase(s, tc);
	return s;
}
