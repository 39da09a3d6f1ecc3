// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/runner.c - the one Check runner for every suite.
 *
 * Suites are found by the build: every test source that defines a function
 * "Suite *NAME_suite(void)" is listed in the generated suites.inc, so adding
 * a suite needs no edit here.  Usage: genalloc-tests [SUITE...], a suite
 * named as it prints (legacy_buddy) or as its function (legacy_buddy_suite);
 * CK_RUN_SUITE and CK_RUN_CASE work as usual.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

struct suite_entry {
	const char *name;
	Suite *(*make)(void);
};

static const struct suite_entry all_suites[] = {
#define SUITE(name) { #name, name },
#include "suites.inc"
#undef SUITE
};

/* @arg names @name with or without the "_suite" of its function's name
 * (the runner prints it without, as suite_create() was given it). */
static int names(const char *arg, const char *name)
{
	size_t n = strlen(arg);

	return !strcmp(arg, name) || (!strncmp(arg, name, n) && !strcmp(name + n, "_suite"));
}

static int known(const char *arg)
{
	for (size_t i = 0; i < sizeof(all_suites) / sizeof(all_suites[0]); i++)
		if (names(arg, all_suites[i].name))
			return 1;
	return 0;
}

static int wanted(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (names(argv[i], name))
			return 1;
	return 0;
}

/* An unknown name would otherwise run nothing and fail without a word. */
static int all_known(int argc, char **argv)
{
	int ok = 1;

	for (int i = 1; i < argc; i++) {
		if (known(argv[i]))
			continue;
		fprintf(stderr, "genalloc-tests: no suite named '%s'; the suites are:\n", argv[i]);
		for (size_t j = 0; j < sizeof(all_suites) / sizeof(all_suites[0]); j++)
			fprintf(stderr, "  %.*s\n", (int)(strlen(all_suites[j].name) - strlen("_suite")),
				all_suites[j].name);
		ok = 0;
	}
	return ok;
}

int main(int argc, char **argv)
{
	SRunner *sr = NULL;
	int failed;

	if (!all_known(argc, argv))
		return EXIT_FAILURE;
	for (size_t i = 0; i < sizeof(all_suites) / sizeof(all_suites[0]); i++) {
		if (!wanted(all_suites[i].name, argc, argv))
			continue;
		if (!sr)
			sr = srunner_create(all_suites[i].make());
		else
			srunner_add_suite(sr, all_suites[i].make());
	}
	if (!sr)
		return EXIT_FAILURE;
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
