// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/install/consumer.c - a program that knows the library only as an
 * installed package: it includes the installed header, links the installed
 * library, and checks that both are the same release and that a pool works.
 */
#include <stdio.h>
#include <string.h>

#include "modern/genalloc.h"

int main(void)
{
	static char arena[4096];
	struct gen_pool *pool;
	unsigned long a, b;
	int ok;

	if (strcmp(genalloc_version(), GENALLOC_VERSION_STRING)) {
		fprintf(stderr, "header %s, library %s\n", GENALLOC_VERSION_STRING, genalloc_version());
		return 1;
	}
	pool = gen_pool_create(4, -1);
	if (!pool || gen_pool_add(pool, (unsigned long)arena, sizeof(arena), -1))
		return 1;
	a = gen_pool_alloc(pool, 100);
	b = gen_pool_alloc(pool, 100);
	/* First fit at 16-byte granules: 100 bytes take 7 granules. */
	ok = a == (unsigned long)arena && b == a + 112;
	gen_pool_free(pool, a, 100);
	gen_pool_free(pool, b, 100);
	ok = ok && gen_pool_avail(pool) == sizeof(arena);
	gen_pool_destroy(pool);
	printf("genalloc %s: %s\n", genalloc_version(), ok ? "ok" : "WRONG");
	return !ok;
}
