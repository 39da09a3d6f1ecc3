/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * common/api.h - what marks a symbol as part of the library's ABI.
 *
 * The library is built with -fvisibility=hidden, so only declarations that
 * carry GENALLOC_API are exported from libgenalloc.so.  Every exported name
 * carries a prefix (genalloc_, legacy_, modern_, compat_); the public headers
 * map the kernel's names onto those symbols, which is what lets the 2005 and
 * the modern API, whose names collide, live in one process.
 */
#ifndef GENALLOC_COMMON_API_H
#define GENALLOC_COMMON_API_H

#if defined(__GNUC__) || defined(__clang__)
#define GENALLOC_API __attribute__((visibility("default")))
#else
#define GENALLOC_API
#endif


/*
 * Every public header gives the version; version.h uses GENALLOC_API, so
 * it comes after the definition (and finds this header's guard set).
 */
#include "version.h"

#endif /* GENALLOC_COMMON_API_H */
