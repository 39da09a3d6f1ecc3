// SPDX-License-Identifier: GPL-2.0-only
/*
 * examples/muram/muram.c - the CPM/QE MURAM allocator on genalloc, in user
 * space.
 *
 * The pool holds offsets, not addresses, at a granule of one byte.  Every
 * offset enters the pool GENPOOL_OFFSET higher, because genalloc answers 0
 * for "no room" and MURAM offset 0 is a real place.  genalloc's free needs
 * the block's size, and MURAM users free by offset alone, so each block's
 * offset and size are kept in a list.
 *
 * One mutex guards the pool and the list together, as the kernel's spinlock
 * does: the pool has a lock of its own, but the list does not, and a block
 * must be in both or in neither when another thread looks.  A mutex, not a
 * spinlock, because user-space threads can be preempted while holding it;
 * so, unlike the kernel's, these calls are not for signal handlers.
 * cpm_muram_init() and cpm_muram_exit() take no lock: they begin and end
 * the allocator's life, when nothing else may run.
 */
#include "muram.h"

#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* A multiple of every alignment cpm_muram_alloc() accepts (see there). */
#define GENPOOL_OFFSET (4096 * 8)

/* The stand-in for a MURAM's contents at power-on: not zeros, so that a
 * block that was not cleared would show it. */
#define MURAM_POWER_ON_JUNK 0x5a

/**
 * struct muram_block - an allocated block, for cpm_muram_free()
 * @next:  the next older block
 * @start: its offset
 * @size:  its size as asked, what genalloc's free needs
 */
struct muram_block {
	struct muram_block *next;
	int32_t start;
	unsigned long size;
};

static pthread_mutex_t muram_lock = PTHREAD_MUTEX_INITIALIZER;
static struct gen_pool *muram_pool;
static struct muram_block *muram_blocks;
static unsigned char *muram_vbase;
static phys_addr_t muram_pbase;

int cpm_muram_init(const struct muram_data_node *np)
{
	unsigned long end = 0;
	size_t i;
	int ret;

	if (muram_pool)
		return 0;
	if (!np || !np->nr_reg)
		return -ENODEV;
	for (i = 0; i < np->nr_reg; i++) {
		const struct muram_reg *r = &np->reg[i];

		if (r->start > INT32_MAX || r->size > INT32_MAX - r->start)
			return -EINVAL;
		if (r->start + r->size > end)
			end = r->start + r->size;
	}
	muram_pool = gen_pool_create(0, NUMA_NO_NODE);
	if (!muram_pool)
		return -ENOMEM;
	for (i = 0; i < np->nr_reg; i++) {
		ret = gen_pool_add(muram_pool, np->reg[i].start + GENPOOL_OFFSET,
				   np->reg[i].size, NUMA_NO_NODE);
		if (ret)
			goto fail;
	}
	muram_vbase = malloc(end);
	if (!muram_vbase) {
		ret = -ENOMEM;
		goto fail;
	}
	memset(muram_vbase, MURAM_POWER_ON_JUNK, end);
	muram_pbase = np->base;
	return 0;
fail:
	gen_pool_destroy(muram_pool);
	muram_pool = NULL;
	return ret;
}

int cpm_muram_exit(void)
{
	int left = 0;

	while (muram_blocks) {
		struct muram_block *b = muram_blocks;

		muram_blocks = b->next;
		gen_pool_free(muram_pool, (unsigned long)b->start + GENPOOL_OFFSET, b->size);
		free(b);
		left++;
	}
	gen_pool_destroy(muram_pool);
	muram_pool = NULL;
	free(muram_vbase);
	muram_vbase = NULL;
	muram_pbase = 0;
	return left;
}

/* Under muram_lock: the block @algo finds, zeroed and recorded. */
static int32_t alloc_locked(unsigned long size, genpool_algo_t algo, void *data)
{
	struct muram_block *b;
	unsigned long addr;

	/* Without this check the pool would report a NULL pool. */
	if (!muram_pool)
		return -ENOMEM;
	b = malloc(sizeof(*b));
	if (!b)
		return -ENOMEM;
	addr = gen_pool_alloc_algo(muram_pool, size, algo, data);
	if (!addr) {
		free(b);
		return -ENOMEM;
	}
	b->start = (int32_t)(addr - GENPOOL_OFFSET);
	b->size = size;
	/* The kernel's blocks start zeroed, and MURAM users count on it. */
	memset(cpm_muram_addr((unsigned long)b->start), 0, size);
	b->next = muram_blocks;
	muram_blocks = b;
	return b->start;
}

static int32_t alloc_with(unsigned long size, genpool_algo_t algo, void *data)
{
	int32_t ret;

	pthread_mutex_lock(&muram_lock);
	ret = alloc_locked(size, algo, data);
	pthread_mutex_unlock(&muram_lock);
	return ret;
}

int32_t cpm_muram_alloc(unsigned long size, unsigned long align)
{
	struct genpool_data_align data;

	/*
	 * gen_pool_first_fit_align() aligns the pool address, offset +
	 * GENPOOL_OFFSET, which is aligned as the offset is only for an
	 * alignment that divides GENPOOL_OFFSET.  Checked here too, so that
	 * a bad alignment is an error code, not a report from the pool.
	 */
	if (!align || (align & (align - 1)) || align > GENPOOL_OFFSET)
		return -EINVAL;
	data.align = (int)align;
	return alloc_with(size, gen_pool_first_fit_align, &data);
}

/**
 * struct fixed_place - data for fixed_in_own_chunk()
 * @addr: the pool address the block must start at
 * @rel:  gen_pool_fixed_alloc()'s data, filled in for each chunk
 */
struct fixed_place {
	unsigned long addr;
	struct genpool_data_fixed rel;
};

/*
 * gen_pool_fixed_alloc() confined to the chunk that holds the wanted
 * address, at that address's offset from the chunk's start.
 *
 * gen_pool_fixed_alloc() reads its offset from the start of whichever
 * chunk genalloc is trying, and genalloc tries every chunk, newest first.
 * With the offset relative to the right chunk alone, a newer chunk with the
 * same relative offset free would answer first: wanting MURAM 0x100, in
 * the range at 0, main.c's device tree would get 0x8100, in the range at
 * 0x8000.  Checking the answer and giving back a wrong one would then
 * refuse 0x100 although it is free.  So every other chunk answers "no
 * room" here, and the answer, if any, is the wanted address.  (The
 * kernel's cpm_muram_alloc_fixed() passes the wanted offset plus
 * GENPOOL_OFFSET as the offset into every chunk: see
 * cpm_muram_alloc_fixed_kernel().)
 */
static unsigned long fixed_in_own_chunk(unsigned long *map, unsigned long size,
					unsigned long start, unsigned int nr, void *data,
					struct gen_pool *pool, unsigned long start_addr)
{
	struct fixed_place *f = data;

	if (f->addr < start_addr || (f->addr - start_addr) >> pool->min_alloc_order >= size)
		return size;
	f->rel.offset = f->addr - start_addr;
	return gen_pool_fixed_alloc(map, size, start, nr, &f->rel, pool, start_addr);
}

int32_t cpm_muram_alloc_fixed(unsigned long offset, unsigned long size)
{
	struct fixed_place f;

	/* Past it no range can hold @offset, and the sum below could wrap. */
	if (offset > INT32_MAX)
		return -ENOMEM;
	f.addr = offset + GENPOOL_OFFSET;
	return alloc_with(size, fixed_in_own_chunk, &f);
}

int32_t cpm_muram_alloc_fixed_kernel(unsigned long offset, unsigned long size)
{
	/* The kernel's value: a pool address, where a chunk offset belongs. */
	struct genpool_data_fixed data = { .offset = offset + GENPOOL_OFFSET };

	return alloc_with(size, gen_pool_fixed_alloc, &data);
}

void cpm_muram_free(int32_t offset)
{
	struct muram_block **pp, *b = NULL;

	if (offset < 0)
		return;
	pthread_mutex_lock(&muram_lock);
	for (pp = &muram_blocks; *pp; pp = &(*pp)->next) {
		if ((*pp)->start == offset) {
			b = *pp;
			*pp = b->next;
			break;
		}
	}
	/*
	 * With no block at @offset the kernel still calls gen_pool_free(),
	 * with size 0: a no-op when the offset is inside a range, a BUG()
	 * when it is not (this library reports EFOREIGN).  Here an offset
	 * that no block starts at never reaches the pool.
	 */
	if (b)
		gen_pool_free(muram_pool, (unsigned long)offset + GENPOOL_OFFSET, b->size);
	pthread_mutex_unlock(&muram_lock);
	free(b);
}

void cpm_muram_free_addr(const void *addr)
{
	if (addr)
		cpm_muram_free((int32_t)cpm_muram_offset(addr));
}

void *cpm_muram_addr(unsigned long offset)
{
	return muram_vbase + offset;
}

unsigned long cpm_muram_offset(const void *addr)
{
	return (unsigned long)((const unsigned char *)addr - muram_vbase);
}

dma_addr_t cpm_muram_dma(const void *addr)
{
	return muram_pbase + cpm_muram_offset(addr);
}

size_t cpm_muram_avail(void)
{
	return muram_pool ? gen_pool_avail(muram_pool) : 0;
}
