// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/reentry.c - the report of a call refused because its own thread
 * is already inside the pool: every locked entry point's answer to a
 * signal handler or a callback that calls back in (the lock itself is
 * common/lock_internal.h's).
 */
#include "genalloc.h"
#include "lock_internal.h"
#include "reentry_internal.h"

/*
 * A call that found the pool's lock held by its own thread: a signal handler
 * that interrupted a call on the pool, or a callback run under the lock.
 * Waiting would wait forever, so the call is refused instead.
 */
void modern_refuse_reentry(struct gen_pool *pool, const char *func, unsigned long addr,
			   size_t size)
{
	/* A pool that imports cannot be lock-free: its callbacks get advice
	 * of their own. */
	if (atomic_load_explicit(&pool->lock.lent, memory_order_relaxed) == genalloc_lock_self()) {
		genalloc_report_error(&(const struct genalloc_error){
			.severity = GENALLOC_WARN, .code = GENALLOC_EREENTRY, .func = func,
			.pool = pool, .addr = addr, .size = size,
			.msg = "this thread is running the pool's import or release callback",
			.fix = "do not call the pool from its own callbacks; get and return "
			       "memory from another source (gen_pool_import_from() for a pool)" });
		return;
	}
	genalloc_report(GENALLOC_WARN, GENALLOC_EREENTRY, func, pool, addr, size,
			"this thread is already inside a locked call on the pool (a signal "
			"handler interrupted it, or a callback re-entered it)");
}
