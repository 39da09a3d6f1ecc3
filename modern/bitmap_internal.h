/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/bitmap_internal.h - the word-level bitmap primitives the engine is
 * built on (not installed).
 *
 * Bit i of a map lives in word i / BITS_PER_LONG at position
 * i % BITS_PER_LONG, as in the kernel.  A map is shared by lock-free
 * allocators, so every word is read and written atomically: reads are relaxed
 * (an answer is only a candidate; the claim re-checks it), claims and
 * releases are compare-and-swap with acquire/release ordering so that a block
 * freed by one thread is seen freed, with its contents, by the next owner.
 *
 * The search functions return @size (or a value > @size for the area search)
 * when they find nothing.  They never read a word past the one holding bit
 * @size - 1.
 */
#ifndef GENALLOC_MODERN_BITMAP_INTERNAL_H
#define GENALLOC_MODERN_BITMAP_INTERNAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#define MODERN_BITS_PER_LONG (CHAR_BIT * sizeof(unsigned long))

/** modern_bits_to_longs() - words needed for @nbits bits */
static inline unsigned long modern_bits_to_longs(unsigned long nbits)
{
	return nbits / MODERN_BITS_PER_LONG + (nbits % MODERN_BITS_PER_LONG != 0);
}

/** modern_find_next_bit() - first set bit in [@start, @size), else @size */
unsigned long modern_find_next_bit(const unsigned long *map, unsigned long size,
				   unsigned long start);

/** modern_find_next_zero_bit() - first clear bit in [@start, @size), else @size */
unsigned long modern_find_next_zero_bit(const unsigned long *map, unsigned long size,
					unsigned long start);

/**
 * modern_bitmap_find_next_zero_area_off() - first run of @nr clear bits
 * @map:          the bitmap
 * @size:         bits in the map
 * @start:        first bit to consider
 * @nr:           run length
 * @align_mask:   the run's start plus @align_offset is a multiple of
 *                @align_mask + 1 (a power of two); 0 for no alignment
 * @align_offset: see @align_mask
 *
 * Return: the run's first bit, or a value > @size if there is none (the
 * kernel's convention: the end the run would have had).
 */
unsigned long modern_bitmap_find_next_zero_area_off(const unsigned long *map,
						    unsigned long size,
						    unsigned long start,
						    unsigned long nr,
						    unsigned long align_mask,
						    unsigned long align_offset);

/** modern_bitmap_find_next_zero_area() - the above with @align_offset 0 */
unsigned long modern_bitmap_find_next_zero_area(const unsigned long *map,
						unsigned long size,
						unsigned long start,
						unsigned long nr,
						unsigned long align_mask);

/** modern_bitmap_set() - set bits [@start, @start + @nr) unconditionally */
void modern_bitmap_set(unsigned long *map, unsigned long start, unsigned long nr);

/** modern_bitmap_clear() - clear bits [@start, @start + @nr) unconditionally */
void modern_bitmap_clear(unsigned long *map, unsigned long start, unsigned long nr);

/**
 * modern_bitmap_set_excl() - set bits [@start, @start + @nr), sole writer
 *
 * For a caller that excludes every other reader and writer of @map (the
 * pool's lock in indexed mode): no read-modify-write instructions, and the
 * words the range covers whole are filled with memset().
 */
void modern_bitmap_set_excl(unsigned long *map, unsigned long start, unsigned long nr);

/**
 * modern_bitmap_set_ll() - claim bits [@start, @start + @nr), word by word
 *
 * Each word is claimed with one compare-and-swap only if none of its bits in
 * the range is set.  Stops at the first word that has one.
 *
 * Return: 0 if all bits were set; otherwise the number of bits NOT set (the
 * set ones are the first @nr - return value, for the caller to roll back).
 */
unsigned long modern_bitmap_set_ll(unsigned long *map, unsigned long start,
				   unsigned long nr);

/**
 * modern_bitmap_clear_ll() - release bits [@start, @start + @nr), word by word
 *
 * Each word is released only if all of its bits in the range are set.
 *
 * Return: 0, or the number of bits NOT cleared (as modern_bitmap_set_ll()).
 */
unsigned long modern_bitmap_clear_ll(unsigned long *map, unsigned long start,
				     unsigned long nr);

/**
 * modern_bitmap_all_set() - are bits [@start, @start + @nr) all set? (@nr > 0)
 *
 * What a free checks before it releases a range: one pass that ORs the
 * words' clear bits together, with no branch per word.
 */
bool modern_bitmap_all_set(const unsigned long *map, unsigned long start, unsigned long nr);

/**
 * modern_bitmap_release_excl() - clear bits [@start, @start + @nr) if all
 * are set (@nr > 0), sole reader and writer
 *
 * modern_bitmap_all_set() and a clear in one call, for a caller that
 * excludes every other access to @map (the pool's lock in indexed mode):
 * plain loads and stores, the whole words by 16-byte loads and memset().
 *
 * Return: true if the range was all set and is now clear; false, with
 * @map untouched, if any bit of it was clear.
 */
bool modern_bitmap_release_excl(unsigned long *map, unsigned long start, unsigned long nr);

/** modern_bitmap_weight() - number of set bits in [0, @size) */
unsigned long modern_bitmap_weight(const unsigned long *map, unsigned long size);

#endif /* GENALLOC_MODERN_BITMAP_INTERNAL_H */
