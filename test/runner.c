// SPDX-License-Identifier: GPL-2.0
/*
 * test/runner.c - the one Check runner for every suite.
 *
 * Suites are found by the build: every test source that defines a function
 * "Suite *NAME_suite(void)" is listed in the generated suites.inc, so adding
 * a suite needs no edit here.  Usage: genalloc-tests [SUITE...]
 * (CK_RUN_SUITE and CK_RUN_CASE work as usual).
 */
#include <check.h>
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

static int wanted(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], name))
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	SRunner *sr = NULL;
	int failed;

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
