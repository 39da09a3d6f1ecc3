// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/importfrom.c - gen_pool_import_from(): a pool stacked on another,
 * whose import and release callbacks are the source pool's own
 * gen_pool_alloc() and gen_pool_free().  It sits above the pool's
 * requests and imports, on their public calls and gen_pool_set_import()'s
 * checks (modern_import_set()).
 */
#include <errno.h>

#include "chunklist_internal.h"
#include "genalloc.h"
#include "import_internal.h"

static int import_from_source(struct gen_pool *pool, size_t size, unsigned long *addr,
			      size_t *len, void *data)
{
	(void)pool;
	*addr = modern_gen_pool_alloc(data, size);
	*len = size;
	return *addr ? 0 : -ENOMEM;
}

static void release_to_source(struct gen_pool *pool, unsigned long addr, size_t len, void *data)
{
	(void)pool;
	modern_gen_pool_free(data, addr, len);
}

/**
 * gen_pool_import_from() - stack a pool on another
 * @pool:    the pool that imports
 * @source:  the pool it imports from
 * @quantum: 0 or a multiple of @pool's granule
 *
 * Return: as gen_pool_set_import().
 */
int modern_gen_pool_import_from(struct gen_pool *pool, struct gen_pool *source, size_t quantum)
{
	if (!modern_pool_ok(pool, "gen_pool_import_from", 0, 0))
		return -EINVAL;
	if (!source || source == pool) {
		genalloc_report_error(&(const struct genalloc_error){ .severity = GENALLOC_WARN,
			.code = GENALLOC_EINVAL, .func = "gen_pool_import_from", .pool = pool,
			.msg = source ? "a pool cannot import from itself" : "NULL source",
			.fix = "pass another pool, created by gen_pool_create(), as the source" });
		return -EINVAL;
	}
	return modern_import_set(pool, import_from_source, release_to_source, quantum, source,
				 "gen_pool_import_from");
}
