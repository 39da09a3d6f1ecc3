/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * common/version.h - which release of the library a program was built
 * against.  Every public header includes it.
 *
 * This file is the one place the version lives: the Makefile reads the
 * three numbers from it for the shared library's file name, its soname
 * (libgenalloc.so.MAJOR), the pkg-config file and the CMake package.
 * MAJOR changes when the ABI does; MINOR with new API; PATCH with fixes.
 */
#ifndef GENALLOC_COMMON_VERSION_H
#define GENALLOC_COMMON_VERSION_H

#include "api.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GENALLOC_VERSION_MAJOR 0
#define GENALLOC_VERSION_MINOR 2
#define GENALLOC_VERSION_PATCH 0
#define GENALLOC_VERSION_STRING "0.2.0"

/* One number that orders releases: (MAJOR << 16) | (MINOR << 8) | PATCH. */
#define GENALLOC_VERSION \
	((GENALLOC_VERSION_MAJOR << 16) | (GENALLOC_VERSION_MINOR << 8) | GENALLOC_VERSION_PATCH)

/**
 * genalloc_version() - the version of the library the program runs with
 *
 * Return: GENALLOC_VERSION_STRING as the library was built, which differs
 * from the header's when a program runs against another build of the shared
 * library than it was compiled with.
 */
GENALLOC_API const char *genalloc_version(void);

#ifdef __cplusplus
}
#endif

#endif /* GENALLOC_COMMON_VERSION_H */
