// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * common/contract2005.c - the 2005 creation rules shared by legacy/ and
 * compat/ (see common/internal.h).
 */
#include "internal.h"

#include <unistd.h>

int genalloc_page_shift(void)
{
	long page = sysconf(_SC_PAGESIZE);
	int shift = 0;

	if (page <= 0)
		page = 4096;
	while ((1L << shift) < page)
		shift++;
	return shift;
}

const char *genalloc_2005_bad_create_args(int nr_chunks, int max_chunk_shift,
					  int has_callback)
{
	if (max_chunk_shift > genalloc_page_shift() + GENALLOC_2005_MAX_SHIFT_OVER_PAGE)
		return "max_chunk_shift above page shift + 10";
	if (max_chunk_shift < 0 ||
	    (max_chunk_shift && max_chunk_shift < GENALLOC_2005_MIN_SHIFT))
		return "max_chunk_shift below ALLOC_MIN_SHIFT";
	if (nr_chunks < 0)
		return "negative nr_chunks";
	if (nr_chunks > 0 && !has_callback)
		return "nr_chunks without get_new_chunk";
	return NULL;
}
