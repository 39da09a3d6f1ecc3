// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/bench/tracee/main.c - a program whose heap requests are known, for
 * test/bench/tracer_cli.sh to record with libgenalloc-trace.so: malloc 100,
 * malloc 5000, calloc 10 x 8, realloc of the first to 300, then every block
 * freed.  No stdio, which would allocate a buffer of its own.
 */
#include <stdlib.h>
#include <string.h>

/* Each block escapes here, so that no compiler elides a malloc/free pair. */
static void *volatile sink;

int main(void)
{
	char *p = malloc(100), *q = malloc(5000), *c = calloc(10, 8), *r;

	if (!p || !q || !c)
		return 1;
	memset(p, 1, 100);
	memset(q, 2, 5000);
	sink = c;
	sink = q;
	r = realloc(p, 300);
	if (!r)
		return 1;
	sink = r;
	free(q);
	free(r);
	free(c);
	return 0;
}
