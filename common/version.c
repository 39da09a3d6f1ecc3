// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * common/version.c - the version the library was built as (version.h).
 */
#include "version.h"

const char *genalloc_version(void)
{
	return GENALLOC_VERSION_STRING;
}
