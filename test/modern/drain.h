/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/modern/drain.h - end a test pool the way its owner must: free what is
 * still live, check, destroy (destroy with live blocks is a BUG).
 */
#ifndef GENALLOC_TEST_MODERN_DRAIN_H
#define GENALLOC_TEST_MODERN_DRAIN_H

#include "modern/genalloc.h"

/**
 * drain_and_destroy() - free every live granule run by run, then destroy
 * @pool: the pool; the checker must pass once it is empty
 *
 * The bitmap does not know allocation boundaries, so each maximal run of set
 * bits is freed as one range (the kernel allows that).
 */
void drain_and_destroy(struct gen_pool *pool);

#endif /* GENALLOC_TEST_MODERN_DRAIN_H */
