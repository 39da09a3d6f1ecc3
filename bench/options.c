// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * bench/options.c - parsing sizes for the bench programs' options.
 */
#include <errno.h>
#include <stdlib.h>

#include "options.h"

int bench_parse_size(const char *s, size_t *out)
{
	char *end;
	unsigned long long v;
	int shift = 0;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (end == s || errno)
		return -1;
	switch (*end) {
	case 'k': case 'K':
		shift = 10;
		end++;
		break;
	case 'm': case 'M':
		shift = 20;
		end++;
		break;
	case 'g': case 'G':
		shift = 30;
		end++;
		break;
	default:
		break;
	}
	if (*end == 'i' || *end == 'B')
		end++;
	if (*end == 'B')
		end++;
	if (*end || (shift && v > (~0ULL >> shift)))
		return -1;
	*out = (size_t)(v << shift);
	return 0;
}

int bench_parse_count(const char *s, size_t lo, size_t hi, size_t *out)
{
	size_t v = 0;
	const char *c;

	if (!*s)
		return -1;
	for (c = s; *c; c++) {
		size_t d = (size_t)(*c - '0');

		if (*c < '0' || *c > '9')
			return -1;
		/* Stop before v * 10 + d could wrap or pass @hi. */
		if (d > hi || v > (hi - d) / 10)
			return -1;
		v = v * 10 + d;
	}
	if (v < lo)
		return -1;
	*out = v;
	return 0;
}

size_t bench_floor_pow2(size_t n)
{
	size_t p = 1;

	while (p <= n / 2)
		p <<= 1;
	return p;
}

int bench_is_pow2(size_t n)
{
	return n && !(n & (n - 1));
}
