// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/engines.c - the list of engines, buddy first (the reference every
 * ratio is taken against), then the compat bitmap, then the modern ones.
 */
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

const struct bench_engine *bench_engine_find(const char *name)
{
	const struct bench_engine *l[BENCH_MAX_ENGINES];
	size_t i, n = bench_engine_list(l, BENCH_MAX_ENGINES);

	for (i = 0; i < n && i < BENCH_MAX_ENGINES; i++)
		if (!strcmp(l[i]->name, name))
			return l[i];
	return NULL;
}
