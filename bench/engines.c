// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/engines.c - the list of engines, buddy first (the reference every
 * ratio is taken against), then the compat bitmap, then the modern ones.
 */
#include <stdio.h>
#include <string.h>

#include "engine.h"

static size_t append(const struct bench_engine **out, size_t max, size_t n,
		     const struct bench_engine *table, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++, n++)
		if (n < max)
			out[n] = &table[i];
	return n;
}

size_t bench_engine_list(const struct bench_engine **out, size_t max)
{
	size_t n = 0;

	n = append(out, max, n, bench_engines_legacy, bench_nr_engines_legacy);
	n = append(out, max, n, bench_engines_compat, bench_nr_engines_compat);
	return append(out, max, n, bench_engines_modern, bench_nr_engines_modern);
}

const char *bench_engine_label(const struct bench_engine *e)
{
	static const struct { const char *prefix, *what; } kinds[] = {
		{ "ffo", "bitmap order-aligned" }, { "ff", "bitmap first fit" },
		{ "bf", "bitmap best fit" }, { "if", "bitmap instant fit" },
	};
	static _Thread_local char buf[4][48];
	static _Thread_local unsigned int next;
	size_t k, n;

	if (!strcmp(e->name, "buddy"))
		return "buddy 2005";
	if (!strcmp(e->name, "compat"))
		return "2005 API on bitmap";
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		n = strlen(kinds[k].prefix);
		if (!strncmp(e->name, kinds[k].prefix, n) && e->name[n] >= '0' && e->name[n] <= '9') {
			char *b = buf[next++ % 4];

			snprintf(b, sizeof(buf[0]), "%s, %s B", kinds[k].what, e->name + n);
			return b;
		}
	}
	return e->name;
}

const char *bench_engine_family(const struct bench_engine *e)
{
	if (!strcmp(e->name, "buddy") || !strcmp(e->name, "compat"))
		return e->name;
	if (!strncmp(e->name, "ffo", 3))
		return "order-aligned";
	if (!strncmp(e->name, "ff", 2))
		return "first fit";
	if (!strncmp(e->name, "bf", 2))
		return "best fit";
	if (!strncmp(e->name, "if", 2))
		return "instant fit";
	return e->family;
}

const struct bench_engine *bench_engine_find(const char *name)
{
	const struct bench_engine *l[BENCH_MAX_ENGINES];
	size_t i, n = bench_engine_list(l, BENCH_MAX_ENGINES);

	for (i = 0; i < n && i < BENCH_MAX_ENGINES; i++)
		if (!strcmp(l[i]->name, name))
			return l[i];
	return NULL;
}
