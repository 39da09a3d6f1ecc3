/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * common/error.h - the one error hook shared by every genalloc engine.
 *
 * The kernel reacts to misuse of genalloc in two ways: BUG() for misuse that
 * would corrupt the pool (double free, freeing memory the pool does not own,
 * destroying a pool with live allocations) and WARN() for requests that are
 * merely wrong (a fixed offset that is not a whole granule).  User space has
 * no oops handler, so every engine in this library reports both kinds through
 * a single hook instead.
 *
 * The default handler prints one line on stderr naming the function, the
 * pool, the address and the size, and then calls abort() for a BUG and
 * returns for a WARN.  A program may install its own handler.  Whenever a
 * handler returns, the call that detected the error returns its documented
 * failure value (0, NULL, a negative errno, or nothing) without having changed
 * the pool: the checks run before anything is written.
 *
 * The handler is process-wide; it is read and replaced atomically, so it may
 * be swapped while other threads use pools.
 */
#ifndef GENALLOC_COMMON_ERROR_H
#define GENALLOC_COMMON_ERROR_H

#include <stddef.h>

#include "api.h"
#include "version.h"

#ifdef __cplusplus
extern "C" {
#endif

/** enum genalloc_severity - how bad a reported error is */
enum genalloc_severity {
	GENALLOC_WARN = 1,	/* bad request refused; the pool is intact */
	GENALLOC_BUG = 2,	/* misuse that would have corrupted the pool */
};

/** enum genalloc_errcode - what went wrong */
enum genalloc_errcode {
	GENALLOC_EINVAL = 1,	/* bad argument: NULL pool, size, shift, alignment */
	GENALLOC_EDOUBLEFREE,	/* freeing a block that is already free */
	GENALLOC_EFOREIGN,	/* address not in any chunk / not a live block */
	GENALLOC_EMISALIGNED,	/* address not aligned as its size requires */
	GENALLOC_ESIZE,		/* free size differs from the allocated size */
	GENALLOC_ERANGE,	/* range runs past its chunk or wraps the address space */
	GENALLOC_EBUSY,		/* destroy with live allocations */
	GENALLOC_EOVERLAP,	/* new memory overlaps memory the pool already has */
	GENALLOC_ECORRUPT,	/* a consistency check found broken state */
	GENALLOC_EREENTRY,	/* pool entered again by a thread already inside it */
};

/**
 * struct genalloc_error - one reported error
 * @severity: GENALLOC_WARN or GENALLOC_BUG
 * @code:     what went wrong
 * @func:     the public function the caller called, by its kernel name
 * @pool:     the pool involved (may be NULL)
 * @addr:     the address involved (0 if none)
 * @size:     the size involved (0 if none)
 * @msg:      a short human-readable explanation
 * @arg:      NULL, or the name of the argument the report is about when
 *            @addr and @size cannot carry it as given: "max_chunk_shift",
 *            "nr_chunks", or "size" for a negative size (@size is then 0)
 * @arg_value: that argument's value, as the caller gave it
 */
struct genalloc_error {
	enum genalloc_severity severity;
	enum genalloc_errcode code;
	const char *func;
	const void *pool;
	unsigned long addr;
	size_t size;
	const char *msg;
	const char *arg;
	long arg_value;
};

/** typedef genalloc_error_fn - an error handler; may return or not */
typedef void (*genalloc_error_fn)(const struct genalloc_error *err);

/**
 * genalloc_set_error_handler() - install the process-wide error handler
 * @fn: the new handler, or NULL to restore the default
 *
 * Return: the handler that was installed before (never NULL).
 */
GENALLOC_API genalloc_error_fn genalloc_set_error_handler(genalloc_error_fn fn);

/**
 * genalloc_default_error_handler() - the handler installed at start-up
 * @err: the error
 *
 * Prints "genalloc: BUG|WARN: <func>: <msg> (pool 0x..., addr 0x..., size N)"
 * on stderr, with "<arg> <arg_value>" in place of "size N" when @err->arg
 * is set; aborts the process when @err->severity is GENALLOC_BUG.
 */
GENALLOC_API void genalloc_default_error_handler(const struct genalloc_error *err);

/**
 * genalloc_strerror() - the name of an error code
 * @code: the code
 *
 * Return: a static string such as "double free"; "unknown error" otherwise.
 */
GENALLOC_API const char *genalloc_strerror(enum genalloc_errcode code);

/**
 * genalloc_report() - report an error through the installed handler
 * @severity: GENALLOC_WARN or GENALLOC_BUG
 * @code:     what went wrong
 * @func:     the public function's kernel name
 * @pool:     the pool, or NULL
 * @addr:     the address involved, or 0
 * @size:     the size involved, or 0
 * @msg:      a short explanation (a static string)
 *
 * Used by the engines; exported so that adapters built on top of them (and
 * callers' own wrappers) report the same way.  Returns if the handler does.
 */
GENALLOC_API void genalloc_report(enum genalloc_severity severity,
				  enum genalloc_errcode code, const char *func,
				  const void *pool, unsigned long addr,
				  size_t size, const char *msg);

/**
 * genalloc_report_arg() - report an error about an argument by name
 * @severity:  GENALLOC_WARN or GENALLOC_BUG
 * @code:      what went wrong
 * @func:      the public function's kernel name
 * @pool:      the pool, or NULL
 * @addr:      the address involved, or 0
 * @arg:       the argument's name as the function's manual spells it (a
 *             static string)
 * @arg_value: its value as given
 * @msg:       a short explanation (a static string)
 *
 * As genalloc_report(), for a value that is not an address or a size, or
 * a size that is negative: the report's size is 0 and @arg names the value.
 */
GENALLOC_API void genalloc_report_arg(enum genalloc_severity severity,
				      enum genalloc_errcode code, const char *func,
				      const void *pool, unsigned long addr,
				      const char *arg, long arg_value, const char *msg);

#ifdef __cplusplus
}
#endif

#endif /* GENALLOC_COMMON_ERROR_H */
