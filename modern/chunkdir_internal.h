/* SPDX-License-Identifier: GPL-2.0 */
/*
 * modern/chunkdir_internal.h - the pool's directory of chunks for indexed
 * mode (not installed); modern/chunkdir.c states the design.
 *
 * Every function here runs under the pool's lock.
 */
#ifndef GENALLOC_MODERN_CHUNKDIR_INTERNAL_H
#define GENALLOC_MODERN_CHUNKDIR_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "genalloc.h"

/* "No chunk", from modern_dir_prev_fit(). */
#define MODERN_DIR_NONE (~(size_t)0)

struct modern_chunk_dir;

/** modern_dir_create() - an empty directory, or NULL when out of memory */
struct modern_chunk_dir *modern_dir_create(void);

/** modern_dir_destroy() - free a directory (NULL is a no-op) */
void modern_dir_destroy(struct modern_chunk_dir *dir);

/** modern_dir_bytes() - the directory's bookkeeping in bytes */
size_t modern_dir_bytes(const struct modern_chunk_dir *dir);

/**
 * modern_dir_add() - append the newest chunk (it gets the highest slot)
 *
 * Return: 0, or -1 when out of memory (the directory is unchanged).
 */
int modern_dir_add(struct modern_chunk_dir *dir, struct gen_pool_chunk *chunk);

/** modern_dir_count() - number of chunks */
size_t modern_dir_count(const struct modern_chunk_dir *dir);

/** modern_dir_chunk() - the chunk in @slot (0 is the oldest) */
struct gen_pool_chunk *modern_dir_chunk(const struct modern_chunk_dir *dir, size_t slot);

/**
 * modern_dir_refresh() - the chunk in @slot changed: re-read its longest
 * free run from its index
 */
void modern_dir_refresh(struct modern_chunk_dir *dir, size_t slot);

/**
 * modern_dir_prev_fit() - the newest chunk at or below @slot that has a
 * free run of at least @nr granules (or no index, so it might)
 *
 * Return: its slot, or MODERN_DIR_NONE.
 */
size_t modern_dir_prev_fit(const struct modern_chunk_dir *dir, size_t slot,
			   unsigned long nr);

/**
 * modern_dir_lookup() - the chunk holding @addr, by binary search
 * @slot: receives its slot
 *
 * Return: the chunk, or NULL.
 */
struct gen_pool_chunk *modern_dir_lookup(const struct modern_chunk_dir *dir,
					 unsigned long addr, size_t *slot);

/**
 * modern_dir_verify() - do the tree and the address order match the chunks?
 *
 * Return: true if consistent (O(chunks)).
 */
bool modern_dir_verify(const struct modern_chunk_dir *dir);

#endif /* GENALLOC_MODERN_CHUNKDIR_INTERNAL_H */
