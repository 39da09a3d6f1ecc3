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
 * The default handler prints one line on stderr (genalloc_format_error():
 * the severity and error code, the function, what went wrong, the pool, the
 * address and the size, and what to do) and then calls abort() for a BUG
 * and returns for a WARN.  A program may install its own handler.  Whenever a
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

/* How many live blocks a busy destroy's report lists (struct genalloc_error). */
#define GENALLOC_LIVE_SHOWN 4

/**
 * struct genalloc_error - one reported error
 * @severity: GENALLOC_WARN or GENALLOC_BUG
 * @code:     what went wrong
 * @func:     the public function the caller called, by its kernel name
 * @pool:     the pool involved, the one the caller holds (may be NULL)
 * @addr:     the address involved (0 if none)
 * @size:     the size involved (0 if none)
 * @msg:      a short human-readable explanation
 * @arg:      NULL, or the name of the argument the report is about when
 *            @addr and @size cannot carry it as given: "max_chunk_shift",
 *            "nr_chunks", or "size" for a negative size (@size is then 0)
 * @arg_value: that argument's value, as the caller gave it
 *
 * The members below were added after the ones above, at the end, so a
 * handler written for the shorter struct still works unchanged; a report
 * built by the library always sets @fix, and the others are 0 or NULL
 * unless the error has such a detail.  A program that builds a struct
 * genalloc_error itself should zero it first (an initializer does); one
 * compiled against the shorter struct that passes a struct of its own
 * making (not one the library passed it) to genalloc_default_error_handler()
 * or genalloc_format_error() must be rebuilt.
 *
 * @fix:        one clause saying what to do about it; NULL (in a struct a
 *              caller built) means genalloc_errcode_fix(@code)
 * @arg_text:   with @arg, the value as text when it is one (the value of
 *              GENALLOC_BACKEND); @arg_value is then 0
 * @chunk_addr: the chunk the error is about besides @addr: for
 *              GENALLOC_EOVERLAP from gen_pool_add*(), the first chunk the
 *              new range overlaps (0 if none)
 * @chunk_size: that chunk's size in bytes
 * @nr_live:    for GENALLOC_EBUSY, how many blocks are live (with a modern
 *              pool without block records: runs of used granules, each
 *              one block or more); @size is then their bytes and @addr
 *              the first one's address
 * @live:       the addresses of the first min(@nr_live, GENALLOC_LIVE_SHOWN)
 *              of them, in address order
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
	/* added; see above */
	const char *fix;
	const char *arg_text;
	unsigned long chunk_addr;
	size_t chunk_size;
	size_t nr_live;
	unsigned long live[GENALLOC_LIVE_SHOWN];
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
 * Prints genalloc_format_error()'s line and a newline on stderr, in one
 * write; aborts the process when @err->severity is GENALLOC_BUG.
 */
GENALLOC_API void genalloc_default_error_handler(const struct genalloc_error *err);

/**
 * genalloc_format_error() - the line the default handler prints, in a buffer
 * @err:  the error
 * @buf:  receives the line, NUL-terminated, without a newline (cut short
 *        if it does not fit); may be NULL when @size is 0
 * @size: bytes of @buf
 *
 * For a handler of one's own that logs elsewhere.  The line is:
 *
 *   genalloc: SEV CODE: FUNC: MSG (pool POOL, addr ADDR, SIZE[, DETAIL]); FIX
 *
 * SEV is BUG or WARN; CODE is genalloc_errcode_name(); MSG is @err->msg
 * (genalloc_strerror() if NULL); POOL is the pool's pointer as "%p" prints
 * it, or NULL; ADDR is hexadecimal; SIZE is "size N", or "ARG VALUE" when
 * @err->arg is set (VALUE in double quotes when it is @err->arg_text);
 * DETAIL is "chunk 0xSTART size N" when @err->chunk_size is not 0, and
 * "N live: 0xA 0xB ..." (at most GENALLOC_LIVE_SHOWN addresses, then
 * "...") when @err->nr_live is not 0; FIX is @err->fix, or
 * genalloc_errcode_fix() if NULL.  For example (one line):
 *
 *   genalloc: BUG EDOUBLEFREE: gen_pool_free: block is already free
 *   (pool 0x55d0c3a2b2a0, addr 0x7f3a10002000, size 100); free each block once
 *
 * Return: the length of the whole line (as snprintf(): a return >= @size
 * means it was cut short).
 */
GENALLOC_API int genalloc_format_error(const struct genalloc_error *err, char *buf, size_t size);

/**
 * genalloc_strerror() - the name of an error code
 * @code: the code
 *
 * Return: a static string such as "double free"; "unknown error" otherwise.
 */
GENALLOC_API const char *genalloc_strerror(enum genalloc_errcode code);

/**
 * genalloc_errcode_name() - an error code as its enumerator is spelt
 * @code: the code
 *
 * Return: a static string, "EDOUBLEFREE" for GENALLOC_EDOUBLEFREE and so
 * on; "EUNKNOWN" for a value that is no code.
 */
GENALLOC_API const char *genalloc_errcode_name(enum genalloc_errcode code);

/**
 * genalloc_errcode_fix() - what to do about an error of a code, in general
 * @code: the code
 *
 * Reports carry a @fix of their own, often more precise; this is the one
 * a report without one gets.
 *
 * Return: a static string, one clause without a final full stop.
 */
GENALLOC_API const char *genalloc_errcode_fix(enum genalloc_errcode code);

/**
 * genalloc_report_error() - report an error built in full
 * @err: the error; a NULL @err->fix becomes genalloc_errcode_fix(@err->code)
 *
 * As genalloc_report(), for a report with details the short forms cannot
 * carry (a fix of its own, a chunk, live blocks, a value as text).
 * Returns if the handler does.
 */
GENALLOC_API void genalloc_report_error(const struct genalloc_error *err);

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
