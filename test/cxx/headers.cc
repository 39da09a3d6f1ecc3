// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/cxx/headers.cc - the public headers from C++: they compile with
 * warnings as errors, link against the C library and give the C engine's
 * answers.  One source, built once per API (CXX_API_MODERN, _LEGACY,
 * _COMPAT): the three define struct gen_pool differently, so no single
 * translation unit may include two of them.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(CXX_API_MODERN)
#include "modern/genalloc.h"
#include "device/device.h"
#define API "modern"
#elif defined(CXX_API_LEGACY)
#include "legacy/genalloc.h"
#define API "legacy (2005)"
#elif defined(CXX_API_COMPAT)
#include "compat/genalloc.h"
#define API "compat (2005 on either engine)"
#else
#error "build with one of -DCXX_API_MODERN, -DCXX_API_LEGACY, -DCXX_API_COMPAT"
#endif

static int failures;

/* Each side evaluated once: some are calls that change the pool. */
static void expect_eq(const char *what, unsigned long got, unsigned long want)
{
	if (got == want)
		return;
	std::fprintf(stderr, "FAIL %s: got %#lx, want %#lx\n", what, got, want);
	failures++;
}

#define EXPECT_EQ(got, want) expect_eq(#got, (unsigned long)(got), (unsigned long)(want))

#if defined(CXX_API_MODERN)
static void count_chunk(struct gen_pool *, struct gen_pool_chunk *chunk, void *data)
{
	*static_cast<unsigned long *>(data) += chunk->end_addr - chunk->start_addr + 1;
}

static void run(void)
{
	struct gen_pool *pool = gen_pool_create(4, -1);	// 16-byte granules
	struct genpool_data_align align = { 256 };
	unsigned long a, b, c, bytes = 0;

	EXPECT_EQ(pool != NULL, 1);
	EXPECT_EQ(gen_pool_add_virt(pool, 0x100000, 0x80000000, 64 * 1024, -1), 0);
	a = gen_pool_alloc(pool, 100);			// 7 granules at the start
	b = gen_pool_alloc(pool, 16);
	c = gen_pool_alloc_algo(pool, 16, gen_pool_first_fit_align, &align);
	EXPECT_EQ(a, 0x100000);
	EXPECT_EQ(b, 0x100070);
	EXPECT_EQ(c, 0x100100);
	EXPECT_EQ(gen_pool_virt_to_phys(pool, b), 0x80000070);
	EXPECT_EQ(gen_pool_avail(pool), 64 * 1024 - 112 - 16 - 16);
	gen_pool_for_each_chunk(pool, count_chunk, &bytes);
	EXPECT_EQ(bytes, 64 * 1024);
	gen_pool_free(pool, a, 100);
	gen_pool_free(pool, b, 16);
	gen_pool_free(pool, c, 16);
	EXPECT_EQ(gen_pool_avail(pool), 64 * 1024);
	EXPECT_EQ(gen_pool_check(pool), 0);
	gen_pool_destroy(pool);
}
#else
/* Chunks for the 2005 pool, each aligned to its size; the test frees them. */
static void *chunks[4];
static unsigned int nr_chunks;

static unsigned long get_chunk(struct gen_pool *pool)
{
	size_t size = 1UL << pool->max_chunk_shift;

	// The callback's data, named private_ in C++.
	EXPECT_EQ(pool->private_, 42);
	if (nr_chunks == sizeof(chunks) / sizeof(chunks[0]))
		return 0;
	chunks[nr_chunks] = std::aligned_alloc(size, size);
	return reinterpret_cast<unsigned long>(chunks[nr_chunks++]);
}

static void run(void)
{
	struct gen_pool *pool = alloc_gen_pool(0, 16, get_chunk, 42);	// 64 KiB chunks
	unsigned long a, b;

	EXPECT_EQ(pool != NULL, 1);
	a = gen_pool_alloc(pool, 100);			// a 128-byte block
	b = gen_pool_alloc(pool, 100);			// its buddy
	EXPECT_EQ(a, reinterpret_cast<unsigned long>(chunks[0]));
	EXPECT_EQ(b, a + 128);
	EXPECT_EQ(nr_chunks, 1);
	gen_pool_free(pool, a, 100);
	gen_pool_free(pool, b, 100);
	a = gen_pool_alloc(pool, 64 * 1024);		// merged back to the whole chunk
	EXPECT_EQ(a, reinterpret_cast<unsigned long>(chunks[0]));
	gen_pool_free(pool, a, 64 * 1024);
	gen_pool_destroy(pool);
	while (nr_chunks)
		std::free(chunks[--nr_chunks]);
}
#endif

int main(int argc, char **argv)
{
	// make check runs every program with --check; nothing else is accepted.
	if (argc > 2 || (argc == 2 && std::strcmp(argv[1], "--check"))) {
		std::fprintf(stderr, "usage: %s [--check]\n", argv[0]);
		return 2;
	}
	run();
	if (failures)
		return 1;
	std::printf("C++ headers, %s API: ok\n", API);
	return 0;
}
