// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * common/error.c - the process-wide error hook (see common/error.h).
 *
 * The only global mutable state in the library: the handler pointer, which the
 * API implies.  It is an atomic so that a handler can be swapped while other
 * threads (or a signal handler using the lock-free engine) report errors.
 */
#include "error.h"

#include <stdarg.h>
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

const char *genalloc_errcode_name(enum genalloc_errcode code)
{
	switch (code) {
	case GENALLOC_EINVAL:		return "EINVAL";
	case GENALLOC_EDOUBLEFREE:	return "EDOUBLEFREE";
	case GENALLOC_EFOREIGN:		return "EFOREIGN";
	case GENALLOC_EMISALIGNED:	return "EMISALIGNED";
	case GENALLOC_ESIZE:		return "ESIZE";
	case GENALLOC_ERANGE:		return "ERANGE";
	case GENALLOC_EBUSY:		return "EBUSY";
	case GENALLOC_EOVERLAP:		return "EOVERLAP";
	case GENALLOC_ECORRUPT:		return "ECORRUPT";
	case GENALLOC_EREENTRY:		return "EREENTRY";
	}
	return "EUNKNOWN";
}

/* What to do, when the place that found the error has nothing sharper. */
const char *genalloc_errcode_fix(enum genalloc_errcode code)
{
	switch (code) {
	case GENALLOC_EINVAL:
		return "pass what the function's comment in its header allows";
	case GENALLOC_EDOUBLEFREE:
		return "free each block once, with the address and size its allocation had";
	case GENALLOC_EFOREIGN:
		return "free only an address the pool's allocation returned, with its size";
	case GENALLOC_EMISALIGNED:
		return "free the exact address the allocation returned";
	case GENALLOC_ESIZE:
		return "free with the size the block was allocated with";
	case GENALLOC_ERANGE:
		return "free the address and size the allocation had, which lie in one chunk";
	case GENALLOC_EBUSY:
		return "release what is still in use first, then call again";
	case GENALLOC_EOVERLAP:
		return "give the pool only memory it does not have yet";
	case GENALLOC_ECORRUPT:
		return "something wrote into the pool's records: look for a stray write "
		       "(AddressSanitizer or valgrind find most)";
	case GENALLOC_EREENTRY:
		return "use a lock-free pool (gen_pool_set_lockless(), the default through "
		       "<linux/genalloc.h>), or block the signal around the pool's calls";
	}
	return "see common/error.h";
}

/* snprintf() into what is left of @buf after @len bytes, keeping the total. */
static int put(char *buf, size_t size, int len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int put(char *buf, size_t size, int len, const char *fmt, ...)
{
	size_t at = (size_t)len < size ? (size_t)len : size;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(size ? buf + at : NULL, size - at, fmt, ap);
	va_end(ap);
	return n < 0 ? len : len + n;
}

int genalloc_format_error(const struct genalloc_error *err, char *buf, size_t size)
{
	const char *msg = err->msg ? err->msg : genalloc_strerror(err->code);
	const char *fix = err->fix ? err->fix : genalloc_errcode_fix(err->code);
	int len = 0;

	if (size)
		buf[0] = '\0';
	len = put(buf, size, len, "genalloc: %s %s: %s: %s (pool ",
		  err->severity == GENALLOC_BUG ? "BUG" : "WARN",
		  genalloc_errcode_name(err->code), err->func, msg);
	if (err->pool)
		len = put(buf, size, len, "%p", err->pool);
	else
		len = put(buf, size, len, "NULL");
	len = put(buf, size, len, ", addr %#lx, ", err->addr);
	if (err->arg && err->arg_text)
		len = put(buf, size, len, "%s \"%s\"", err->arg, err->arg_text);
	else if (err->arg)
		len = put(buf, size, len, "%s %ld", err->arg, err->arg_value);
	else
		len = put(buf, size, len, "size %zu", err->size);
	if (err->chunk_size)
		len = put(buf, size, len, ", chunk %#lx size %zu", err->chunk_addr,
			  err->chunk_size);
	if (err->nr_live) {
		size_t shown = err->nr_live < GENALLOC_LIVE_SHOWN ? err->nr_live
								 : GENALLOC_LIVE_SHOWN;

		len = put(buf, size, len, ", %zu live:", err->nr_live);
		for (size_t i = 0; i < shown; i++)
			len = put(buf, size, len, " %#lx", err->live[i]);
		if (err->nr_live > shown)
			len = put(buf, size, len, " ...");
	}
	return put(buf, size, len, "); %s", fix);
}

void genalloc_default_error_handler(const struct genalloc_error *err)
{
	char line[1024];
	int len = genalloc_format_error(err, line, sizeof(line) - 1);

	/* One line, written at once, so that concurrent reports do not interleave. */
	if (len > (int)sizeof(line) - 2)
		len = sizeof(line) - 2;
	line[len] = '\n';
	line[len + 1] = '\0';
	fputs(line, stderr);
	if (err->severity == GENALLOC_BUG)
		abort();
}

/* Every report, whichever function made it, reaches the handler here. */
static void deliver(const struct genalloc_error *err)
{
	genalloc_error_fn fn = atomic_load(&genalloc_handler);

	(fn ? fn : genalloc_default_error_handler)(err);
}

void genalloc_report_error(const struct genalloc_error *err)
{
	struct genalloc_error e = *err;

	if (!e.fix)
		e.fix = genalloc_errcode_fix(e.code);
	deliver(&e);
}

void genalloc_report(enum genalloc_severity severity,
		     enum genalloc_errcode code, const char *func,
		     const void *pool, unsigned long addr, size_t size,
		     const char *msg)
{
	deliver(&(const struct genalloc_error){ .severity = severity, .code = code,
		.func = func, .pool = pool, .addr = addr, .size = size, .msg = msg,
		.fix = genalloc_errcode_fix(code) });
}

void genalloc_report_arg(enum genalloc_severity severity,
			 enum genalloc_errcode code, const char *func,
			 const void *pool, unsigned long addr,
			 const char *arg, long arg_value, const char *msg)
{
	deliver(&(const struct genalloc_error){ .severity = severity, .code = code,
		.func = func, .pool = pool, .addr = addr, .msg = msg, .arg = arg,
		.arg_value = arg_value, .fix = genalloc_errcode_fix(code) });
}
