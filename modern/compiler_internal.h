/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/compiler_internal.h - inlining hints for the hot paths (not
 * installed).
 *
 * Each use overrules GCC's own choice on the indexed alloc/free path, where
 * the call (or the inlined cold code) costs more than the work.  Other
 * compilers get plain static functions.
 */
#ifndef GENALLOC_MODERN_COMPILER_INTERNAL_H
#define GENALLOC_MODERN_COMPILER_INTERNAL_H

#if defined(__GNUC__)
/* Always inlined: a hot helper whose call cost more than its body. */
#define MODERN_ALWAYS_INLINE inline __attribute__((always_inline))
/* Never inlined: a cold case kept out of its caller's registers. */
#define MODERN_NOINLINE __attribute__((noinline))
/* Never inlined, and laid out with the other rarely run code: a path such
 * as an import, whose code beside the hot paths moves their alignment. */
#define MODERN_COLD __attribute__((noinline, cold))
/* MODERN_NOINLINE for a static function defined in a header: each file
 * that includes it keeps its own copy, and one that does not call it is
 * not warned. */
#define MODERN_NOINLINE_SHARED __attribute__((noinline, unused))
#else
#define MODERN_ALWAYS_INLINE inline
#define MODERN_NOINLINE
#define MODERN_COLD
#define MODERN_NOINLINE_SHARED
#endif

#endif /* GENALLOC_MODERN_COMPILER_INTERNAL_H */
