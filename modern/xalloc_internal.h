/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/xalloc_internal.h - gen_pool_xalloc()'s search, for the import's
 * retry (modern/import.c) (not installed).
 */
#ifndef GENALLOC_MODERN_XALLOC_INTERNAL_H
#define GENALLOC_MODERN_XALLOC_INTERNAL_H

#include <stdbool.h>

#include "genalloc.h"

/**
 * modern_xalloc_refused() - WARN EINVAL for constraints gen_pool_xalloc()
 * refuses (genalloc.h lists them)
 * @pool: the pool, not NULL
 * @size: the request in bytes
 * @c:    the constraints, or NULL (never refused)
 *
 * Return: true after the report.
 */
bool modern_xalloc_refused(struct gen_pool *pool, size_t size,
			   const struct gen_pool_constraints *c);

/**
 * modern_xalloc_search() - gen_pool_xalloc() on valid constraints, without
 * importing
 * @pool: the pool, not NULL
 * @size: bytes
 * @c:    the constraints (already accepted), or NULL
 *
 * Return: the block's address, or 0.
 */
unsigned long modern_xalloc_search(struct gen_pool *pool, size_t size,
				   const struct gen_pool_constraints *c);

#endif /* GENALLOC_MODERN_XALLOC_INTERNAL_H */
