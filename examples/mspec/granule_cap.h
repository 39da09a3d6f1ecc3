/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * examples/mspec/granule_cap.h - the global cap on granules converted to
 * uncached (MAX_UNCACHED_GRANULES), and the bookkeeping that lets an
 * allocation tell "out of memory" from "memory on its way".
 *
 * A granule counts against the cap from the moment it is reserved, but a
 * pool can hand it out only once it has been added, a little later.  In
 * that window every pool may look empty to another thread although memory
 * is coming; the 2005 and 2006 code then failed the fault.  The allocators
 * here repeat their walk over the nodes while a granule is in flight or if
 * one landed during the walk (in a pool the walk had already passed).
 */
#ifndef MSPEC_GRANULE_CAP_H
#define MSPEC_GRANULE_CAP_H

#include <stdatomic.h>

/**
 * struct granule_cap - granules reserved and landed
 * @reserved: granules counted against the cap (never above it)
 * @landed:   granules that reached their pool
 */
struct granule_cap {
	atomic_uint reserved;
	atomic_uint landed;
};

/* Forget everything (a fresh boot). */
void granule_cap_reset(struct granule_cap *cap);

/* Take one granule under the cap in one atomic step.  Return: 0 or -1. */
int granule_cap_reserve(struct granule_cap *cap);

/* A reserved granule could not be had after all. */
void granule_cap_cancel(struct granule_cap *cap);

/* A reserved granule is now in its pool. */
void granule_cap_landed(struct granule_cap *cap);

/* A mark to take before a walk over the nodes. */
unsigned int granule_cap_epoch(struct granule_cap *cap);

/* Whether a walk that began at @epoch and found nothing should be repeated. */
int granule_cap_retry(struct granule_cap *cap, unsigned int epoch);

#endif /* MSPEC_GRANULE_CAP_H */
