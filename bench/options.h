/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * bench/options.h - command-line helpers shared by the bench programs.
 */
#ifndef GENALLOC_BENCH_OPTIONS_H
#define GENALLOC_BENCH_OPTIONS_H

#include <stddef.h>

/**
 * bench_parse_size() - "4096", "64K", "2M", "1G" (binary units)
 * @s:   the text
 * @out: the value
 *
 * Return: 0, or -1 if @s is not such a number.
 */
int bench_parse_size(const char *s, size_t *out);

/**
 * bench_parse_count() - a plain decimal count in [@lo, @hi]
 * @s:   the text: digits only (no sign, units, spaces or hex)
 * @lo:  the smallest accepted
 * @hi:  the largest accepted
 * @out: the value
 *
 * For counts such as --chunks, where "1K" or "0x10" would be a typo rather
 * than a size.
 *
 * Return: 0, or -1 (and @out untouched) if @s is not such a number.
 */
int bench_parse_count(const char *s, size_t lo, size_t hi, size_t *out);

/** bench_floor_pow2() - the largest power of two <= @n (1 for 0) */
size_t bench_floor_pow2(size_t n);

/** bench_is_pow2() - whether @n is a power of two */
int bench_is_pow2(size_t n);

#endif /* GENALLOC_BENCH_OPTIONS_H */
