/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/dump/dumper.h - one function per engine, each in a file of its own
 * (the 2005 and the modern headers cannot meet in one file): build a pool,
 * churn it from @seed, write its JSON dump to @json and its walk to @walk,
 * one line per run: "CHUNK-START OFFSET SIZE USED" (USED true or false),
 * as test/dump/run.sh makes jq print the JSON's runs, then a last line
 * "stats SIZE LARGEST": the pool's size and its statistics' largest_free,
 * which the dump's totals must repeat.
 *
 * Return: 0, or 1 on any failure.
 */
#ifndef GENALLOC_TEST_DUMP_DUMPER_H
#define GENALLOC_TEST_DUMP_DUMPER_H

#include <stdbool.h>
#include <stdio.h>

int dumper_modern(bool records, unsigned int seed, FILE *json, FILE *walk);
int dumper_legacy(unsigned int seed, FILE *json, FILE *walk);
int dumper_compat(bool bitmap, unsigned int seed, FILE *json, FILE *walk);

#endif /* GENALLOC_TEST_DUMP_DUMPER_H */
