// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/* build-aux/check-probe.c - links only where Check and its libraries are. */
#include <check.h>

int main(void)
{
	return srunner_create(suite_create("probe")) == NULL;
}
