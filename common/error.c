// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * common/error.c - the process-wide error hook (see common/error.h).
 *
 * The only global mutable state in the library: the handler pointer, which the
 * API implies.  It is an atomic so that a handler can be swapped while other
 * threads (or a signal handler using the lock-free engine) report errors.
 */
#include "error.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static _Atomic(genalloc_error_fn) genalloc_handler;

genalloc_error_fn genalloc_set_error_handler(genalloc_error_fn fn)
{
	genalloc_error_fn old = atomic_exchange(&genalloc_handler, fn);

	return old ? old : genalloc_default_error_handler;
}

const char *genalloc_strerror(enum genalloc_errcode code)
{
	switch (code) {
	case GENALLOC_EINVAL:		return "invalid argument";
	case GENALLOC_EDOUBLEFREE:	return "double free";
	case GENALLOC_EFOREIGN:		return "address not owned by the pool";
	case GENALLOC_EMISALIGNED:	return "misaligned address";
	case GENALLOC_ESIZE:		return "size does not match the block";
	case GENALLOC_ERANGE:		return "range outside its chunk";
	case GENALLOC_EBUSY:		return "pool has live allocations";
	case GENALLOC_EOVERLAP:		return "memory overlaps the pool";
	case GENALLOC_ECORRUPT:		return "inconsistent pool state";
	case GENALLOC_EREENTRY:		return "pool re-entered by its own thread";
	}
	return "unknown error";
}

void genalloc_default_error_handler(const struct genalloc_error *err)
{
	const char *sev = err->severity == GENALLOC_BUG ? "BUG" : "WARN";
	const char *msg = err->msg ? err->msg : genalloc_strerror(err->code);

	/* One line, written at once, so that concurrent reports do not interleave. */
	if (err->arg)
		fprintf(stderr, "genalloc: %s: %s: %s (pool %p, addr %#lx, %s %ld)\n", sev,
			err->func, msg, err->pool, err->addr, err->arg, err->arg_value);
	else
		fprintf(stderr, "genalloc: %s: %s: %s (pool %p, addr %#lx, size %zu)\n", sev,
			err->func, msg, err->pool, err->addr, err->size);
	if (err->severity == GENALLOC_BUG)
		abort();
}

/* Every report, whichever function made it, reaches the handler here. */
static void deliver(const struct genalloc_error *err)
{
	genalloc_error_fn fn = atomic_load(&genalloc_handler);

	(fn ? fn : genalloc_default_error_handler)(err);
}

void genalloc_report(enum genalloc_severity severity,
		     enum genalloc_errcode code, const char *func,
		     const void *pool, unsigned long addr, size_t size,
		     const char *msg)
{
	deliver(&(const struct genalloc_error){ .severity = severity, .code = code,
		.func = func, .pool = pool, .addr = addr, .size = size, .msg = msg });
}

void genalloc_report_arg(enum genalloc_severity severity,
			 enum genalloc_errcode code, const char *func,
			 const void *pool, unsigned long addr,
			 const char *arg, long arg_value, const char *msg)
{
	deliver(&(const struct genalloc_error){ .severity = severity, .code = code,
		.func = func, .pool = pool, .addr = addr, .msg = msg, .arg = arg,
		.arg_value = arg_value });
}
