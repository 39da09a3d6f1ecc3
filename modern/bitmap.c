// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * modern/bitmap.c - word-level bitmap search and the lock-free claim/release
 * used by the pool (see bitmap_internal.h).
 *
 * The maps are plain "unsigned long" arrays because genpool_algo_t hands them
 * to user algorithms with that type.  The engine itself only touches them
 * through the _Atomic view below, which has the same size and is lock-free,
 * so mixing the two views is a representation no-op and keeps
 * ThreadSanitizer informed of every access.  The _excl functions run under
 * the pool's lock in indexed mode, where no access can race, and may use
 * plain loads and stores (and memset) for speed.
 */
#include "bitmap_internal.h"

#include <stdatomic.h>
#include <string.h>

#include "compiler_internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

_Static_assert(sizeof(_Atomic unsigned long) == sizeof(unsigned long),
	       "an atomic word must overlay a bitmap word");
_Static_assert(ATOMIC_LONG_LOCK_FREE == 2,
	       "bitmap words must be lock-free to stay async-signal-safe");

#define BPL MODERN_BITS_PER_LONG

static inline unsigned long load_word(const unsigned long *map, unsigned long i)
{
	return atomic_load_explicit((const _Atomic unsigned long *)&map[i],
				    memory_order_relaxed);
}

static inline _Atomic unsigned long *word(unsigned long *map, unsigned long i)
{
	return (_Atomic unsigned long *)&map[i];
}

/* Bits at and above @start within its word. */
static inline unsigned long first_word_mask(unsigned long start)
{
	return ~0UL << (start % BPL);
}

/* Bits below @end within the word holding bit @end - 1. */
static inline unsigned long last_word_mask(unsigned long end)
{
	return ~0UL >> ((BPL - end % BPL) % BPL);
}

/* One search for both polarities: @invert flips the words so that the
 * wanted bits read as ones. */
static unsigned long find_next(const unsigned long *map, unsigned long size,
			       unsigned long start, unsigned long invert)
{
	unsigned long i, w, bit;

	if (start >= size)
		return size;
	i = start / BPL;
	w = (load_word(map, i) ^ invert) & first_word_mask(start);
	while (!w) {
		i++;
		if (i >= modern_bits_to_longs(size))
			return size;
		w = load_word(map, i) ^ invert;
	}
	bit = i * BPL + (unsigned long)__builtin_ctzl(w);
	return bit < size ? bit : size;
}

unsigned long modern_find_next_bit(const unsigned long *map, unsigned long size,
				   unsigned long start)
{
	return find_next(map, size, start, 0);
}

unsigned long modern_find_next_zero_bit(const unsigned long *map, unsigned long size,
					unsigned long start)
{
	return find_next(map, size, start, ~0UL);
}

unsigned long modern_bitmap_find_next_zero_area_off(const unsigned long *map,
						    unsigned long size,
						    unsigned long start,
						    unsigned long nr,
						    unsigned long align_mask,
						    unsigned long align_offset)
{
	unsigned long index, end, i;

	for (;;) {
		index = modern_find_next_zero_bit(map, size, start);
		index = ((index + align_offset + align_mask) & ~align_mask) - align_offset;
		end = index + nr;
		if (end > size)
			return end;
		i = modern_find_next_bit(map, end, index);
		if (i >= end)
			return index;
		start = i + 1;
	}
}

unsigned long modern_bitmap_find_next_zero_area(const unsigned long *map,
						unsigned long size,
						unsigned long start,
						unsigned long nr,
						unsigned long align_mask)
{
	return modern_bitmap_find_next_zero_area_off(map, size, start, nr, align_mask, 0);
}

/*
 * Walk [@start, @start + @nr) one word at a time, handing @fn each word and
 * the mask of its bits in the range.  Stops when @fn fails and returns the
 * number of bits from that word on.
 */
typedef int (*word_op)(_Atomic unsigned long *w, unsigned long mask);

static unsigned long for_each_word(unsigned long *map, unsigned long start,
				   unsigned long nr, word_op fn)
{
	unsigned long i = start / BPL;
	unsigned long in_word = BPL - start % BPL;
	unsigned long mask = first_word_mask(start);

	while (nr) {
		if (nr < in_word) {
			mask &= last_word_mask(start + nr);
			in_word = nr;
		}
		if (fn(word(map, i), mask))
			return nr;
		nr -= in_word;
		start += in_word;
		in_word = BPL;
		mask = ~0UL;
		i++;
	}
	return 0;
}

static int set_all(_Atomic unsigned long *w, unsigned long mask)
{
	atomic_fetch_or_explicit(w, mask, memory_order_acq_rel);
	return 0;
}

static int clear_all(_Atomic unsigned long *w, unsigned long mask)
{
	atomic_fetch_and_explicit(w, ~mask, memory_order_acq_rel);
	return 0;
}

/* Claim: all of @mask must be clear. */
static int set_if_clear(_Atomic unsigned long *w, unsigned long mask)
{
	unsigned long val = atomic_load_explicit(w, memory_order_relaxed);

	do {
		if (val & mask)
			return -1;
	} while (!atomic_compare_exchange_weak_explicit(w, &val, val | mask,
							memory_order_acq_rel,
							memory_order_relaxed));
	return 0;
}

/* Release: all of @mask must be set. */
static int clear_if_set(_Atomic unsigned long *w, unsigned long mask)
{
	unsigned long val = atomic_load_explicit(w, memory_order_relaxed);

	do {
		if ((val & mask) != mask)
			return -1;
	} while (!atomic_compare_exchange_weak_explicit(w, &val, val & ~mask,
							memory_order_acq_rel,
							memory_order_relaxed));
	return 0;
}

void modern_bitmap_set(unsigned long *map, unsigned long start, unsigned long nr)
{
	for_each_word(map, start, nr, set_all);
}

void modern_bitmap_clear(unsigned long *map, unsigned long start, unsigned long nr)
{
	for_each_word(map, start, nr, clear_all);
}

/* One word's bits @mask set by the only writer: no RMW needed. */
static void set_word_excl(unsigned long *map, unsigned long i, unsigned long mask)
{
	atomic_store_explicit(word(map, i), load_word(map, i) | mask, memory_order_relaxed);
}

/*
 * The _excl calls first ask whether [@start, @start + @nr) (0 < @nr) lies in
 * one word, as every block of up to a word's granules that does not
 * straddle two does: that case then runs without saved registers, and
 * longer ranges go to functions of their own, kept out of line so that
 * their register needs stay there.
 */
static inline bool in_one_word(unsigned long start, unsigned long nr)
{
	return nr <= BPL - start % BPL;
}

/* The mask of a range in_one_word() accepted. */
static inline unsigned long one_word_mask(unsigned long start, unsigned long nr)
{
	return (~0UL >> (BPL - nr)) << (start % BPL);
}

MODERN_NOINLINE
static void set_words_excl(unsigned long *map, unsigned long start, unsigned long nr)
{
	unsigned long i = start / BPL, end = start + nr, last = (end - 1) / BPL;

	set_word_excl(map, i, first_word_mask(start));
	/* The words between belong to the range whole, and no one else reads
	 * or writes the map meanwhile: memset's speed (128 words for a 64 KiB
	 * block at 8-byte granules). */
	if (last > i + 1)
		memset(&map[i + 1], 0xff, (last - i - 1) * sizeof(*map));
	set_word_excl(map, last, last_word_mask(end));
}

void modern_bitmap_set_excl(unsigned long *map, unsigned long start, unsigned long nr)
{
	if (!nr)
		return;
	if (in_one_word(start, nr))
		set_word_excl(map, start / BPL, one_word_mask(start, nr));
	else
		set_words_excl(map, start, nr);
}

bool modern_bitmap_all_set(const unsigned long *map, unsigned long start, unsigned long nr)
{
	unsigned long i = start / BPL, end = start + nr, last = (end - 1) / BPL, clear;

	if (i == last)
		return !(~load_word(map, i) & first_word_mask(start) & last_word_mask(end));
	clear = ~load_word(map, i) & first_word_mask(start);
	clear |= ~load_word(map, last) & last_word_mask(end);
	/* Four words a step: a 64 KiB block at 8-byte granules is 128 words,
	 * and the loop's own instructions outnumbered the loads. */
	for (i++; i + 4 <= last; i += 4)
		clear |= ~(load_word(map, i) & load_word(map, i + 1) &
			   load_word(map, i + 2) & load_word(map, i + 3));
	for (; i < last; i++)
		clear |= ~load_word(map, i);
	return !clear;
}

/* Words [@first, @i) were all ones and are now clear: put them back. */
static bool undo_clear_excl(unsigned long *map, unsigned long first, unsigned long i)
{
	memset(&map[first], 0xff, (i - first) * sizeof(*map));
	return false;
}

/*
 * Clear words [@first, @last) if all are ones; else leave every one as it
 * was.  One pass, where a test and then a memset() read the words twice
 * and paid memset's call: each step tests its words and clears them only
 * when they are ones, and the step that finds a clear bit sets back what
 * the earlier steps cleared (ones, by their test).  Plain loads and
 * stores: the caller excludes every other access.
 */
static bool clear_ones_words_excl(unsigned long *map, unsigned long first, unsigned long last)
{
	unsigned long i = first;
#if defined(__SSE2__)
	const __m128i ones = _mm_set1_epi32(-1), zero = _mm_setzero_si128();
	__m128i a, b;

	/* Eight words a step, one test: a 64 KiB block at 8-byte granules is
	 * 128 words, and at four a step the loop's own work showed. */
	for (; i + 8 <= last; i += 8) {
		a = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)&map[i]),
				  _mm_loadu_si128((const __m128i *)(const void *)&map[i + 2]));
		b = _mm_and_si128(_mm_loadu_si128((const __m128i *)(const void *)&map[i + 4]),
				  _mm_loadu_si128((const __m128i *)(const void *)&map[i + 6]));
		if (_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(a, b), ones)) != 0xffff)
			return undo_clear_excl(map, first, i);
		_mm_storeu_si128((__m128i *)(void *)&map[i], zero);
		_mm_storeu_si128((__m128i *)(void *)&map[i + 2], zero);
		_mm_storeu_si128((__m128i *)(void *)&map[i + 4], zero);
		_mm_storeu_si128((__m128i *)(void *)&map[i + 6], zero);
	}
#endif
	for (; i < last; i++) {
		if (map[i] != ~0UL)
			return undo_clear_excl(map, first, i);
		map[i] = 0;
	}
	return true;
}

MODERN_NOINLINE
static bool release_words_excl(unsigned long *map, unsigned long start, unsigned long nr)
{
	unsigned long i = start / BPL, end = start + nr, last = (end - 1) / BPL;
	unsigned long head = first_word_mask(start), tail = last_word_mask(end);

	if ((map[i] & head) != head || (map[last] & tail) != tail ||
	    !clear_ones_words_excl(map, i + 1, last))
		return false;
	map[i] &= ~head;
	map[last] &= ~tail;
	return true;
}

bool modern_bitmap_release_excl(unsigned long *map, unsigned long start, unsigned long nr)
{
	unsigned long mask, *w = &map[start / BPL];

	if (!in_one_word(start, nr))
		return release_words_excl(map, start, nr);
	mask = one_word_mask(start, nr);
	if ((*w & mask) != mask)
		return false;
	*w &= ~mask;
	return true;
}

unsigned long modern_bitmap_set_ll(unsigned long *map, unsigned long start,
				   unsigned long nr)
{
	return for_each_word(map, start, nr, set_if_clear);
}

unsigned long modern_bitmap_clear_ll(unsigned long *map, unsigned long start,
				     unsigned long nr)
{
	return for_each_word(map, start, nr, clear_if_set);
}

unsigned long modern_bitmap_weight(const unsigned long *map, unsigned long size)
{
	unsigned long i, n = 0, full = size / BPL;

	for (i = 0; i < full; i++)
		n += (unsigned long)__builtin_popcountl(load_word(map, i));
	if (size % BPL)
		n += (unsigned long)__builtin_popcountl(load_word(map, full) &
							last_word_mask(size));
	return n;
}
