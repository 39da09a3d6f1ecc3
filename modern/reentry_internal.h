/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/reentry_internal.h - the report of a call its own thread cannot
 * make (modern/reentry.c; not installed).
 */
#ifndef GENALLOC_MODERN_REENTRY_INTERNAL_H
#define GENALLOC_MODERN_REENTRY_INTERNAL_H

#include <stddef.h>

#include "genalloc.h"

/**
 * modern_refuse_reentry() - report a call refused because its own thread
 * holds the pool's lock (WARN EREENTRY, naming the cause and the fix)
 * @pool: the pool
 * @func: the public function's kernel name
 * @addr: the address involved, or 0
 * @size: the size involved, or 0
 */
void modern_refuse_reentry(struct gen_pool *pool, const char *func, unsigned long addr,
			   size_t size);

#endif /* GENALLOC_MODERN_REENTRY_INTERNAL_H */
