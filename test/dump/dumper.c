// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/dump/dumper.c - a pool of any engine after random allocations and
 * frees, told twice: its JSON dump and its walk, one line per run, for
 * test/dump/run.sh to compare through jq.
 *
 * Usage: dumper ENGINE SEED JSON-FILE WALK-FILE, ENGINE one of modern,
 * records (modern with block records), legacy, compat-buddy, compat-bitmap
 */
#include <stdlib.h>
#include <string.h>

#include "dumper.h"

int main(int argc, char **argv)
{
	unsigned int seed;
	FILE *json, *walk;
	int rc;

	if (argc != 5) {
		fprintf(stderr, "usage: dumper modern|records|legacy|compat-buddy|compat-bitmap "
			"SEED JSON-FILE WALK-FILE\n");
		return 2;
	}
	seed = (unsigned int)strtoul(argv[2], NULL, 10);
	json = fopen(argv[3], "w");
	walk = fopen(argv[4], "w");
	if (!json || !walk)
		return 1;
	if (!strcmp(argv[1], "modern") || !strcmp(argv[1], "records"))
		rc = dumper_modern(!strcmp(argv[1], "records"), seed, json, walk);
	else if (!strcmp(argv[1], "legacy"))
		rc = dumper_legacy(seed, json, walk);
	else if (!strcmp(argv[1], "compat-buddy") || !strcmp(argv[1], "compat-bitmap"))
		rc = dumper_compat(!strcmp(argv[1], "compat-bitmap"), seed, json, walk);
	else
		rc = 2;
	return rc || fclose(json) || fclose(walk);
}
