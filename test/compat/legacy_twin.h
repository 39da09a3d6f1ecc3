/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * test/compat/legacy_twin.h - a pool straight on legacy/, for comparing the
 * buddy backend with the engine it wraps.  Opaque, because legacy's struct
 * gen_pool and compat's cannot meet in one translation unit.
 */
#ifndef GENALLOC_TEST_COMPAT_LEGACY_TWIN_H
#define GENALLOC_TEST_COMPAT_LEGACY_TWIN_H

/* A legacy pool whose callback hands out @chunks[0..@cap) in order. */
void *twin_create(int shift, const unsigned long *chunks, int cap);
unsigned long twin_alloc(void *twin, int size);
void twin_free(void *twin, unsigned long addr, int size);
void twin_destroy(void *twin);
/* The twin's metadata_bytes, from legacy_gen_pool_stats(). */
unsigned long twin_metadata_bytes(void *twin);

#endif /* GENALLOC_TEST_COMPAT_LEGACY_TWIN_H */
