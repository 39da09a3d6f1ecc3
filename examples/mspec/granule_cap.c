// SPDX-License-Identifier: GPL-2.0-only
/*
 * examples/mspec/granule_cap.c - see granule_cap.h.
 */
#include "granule_cap.h"
#include "uncached.h"

void granule_cap_reset(struct granule_cap *cap)
{
	atomic_store(&cap->reserved, 0);
	atomic_store(&cap->landed, 0);
}

/* A compare-and-swap loop rather than add-then-undo: a failed attempt must
 * never look like a granule in flight to another thread. */
int granule_cap_reserve(struct granule_cap *cap)
{
	unsigned int n = atomic_load(&cap->reserved);

	do {
		if (n >= MAX_UNCACHED_GRANULES)
			return -1;
	} while (!atomic_compare_exchange_weak(&cap->reserved, &n, n + 1));
	return 0;
}

void granule_cap_cancel(struct granule_cap *cap)
{
	atomic_fetch_sub(&cap->reserved, 1);
}

void granule_cap_landed(struct granule_cap *cap)
{
	atomic_fetch_add(&cap->landed, 1);
}

unsigned int granule_cap_epoch(struct granule_cap *cap)
{
	return atomic_load(&cap->landed);
}

int granule_cap_retry(struct granule_cap *cap, unsigned int epoch)
{
	unsigned int landed = atomic_load(&cap->landed);

	return landed != epoch || atomic_load(&cap->reserved) != landed;
}
