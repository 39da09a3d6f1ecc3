// SPDX-License-Identifier: GPL-2.0
/*
 * bench/engines.c - the list of engines, buddy first (the reference every
 * ratio is taken against), then the compat bitmap, then the modern ones.
 */
#include <string.h>

#include "engine.h"

#define MAX_ENGINES 32

const struct bench_engine *const *bench_engine_list(size_t *n)
{
	static const struct bench_engine *list[MAX_ENGINES];
	static size_t nr;
	size_t i;

	if (!nr) {
		for (i = 0; i < bench_nr_engines_legacy && nr < MAX_ENGINES; i++)
			list[nr++] = &bench_engines_legacy[i];
		for (i = 0; i < bench_nr_engines_compat && nr < MAX_ENGINES; i++)
			list[nr++] = &bench_engines_compat[i];
		for (i = 0; i < bench_nr_engines_modern && nr < MAX_ENGINES; i++)
			list[nr++] = &bench_engines_modern[i];
	}
	*n = nr;
	return list;
}

const struct bench_engine *bench_engine_find(const char *name)
{
	size_t i, n;
	const struct bench_engine *const *l = bench_engine_list(&n);

	for (i = 0; i < n; i++)
		if (!strcmp(l[i]->name, name))
			return l[i];
	return NULL;
}
