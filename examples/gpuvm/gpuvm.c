// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * examples/gpuvm/gpuvm.c - the address space of gpuvm.h on genalloc: a
 * pool that imports whole pages from its parent and releases each one as
 * it empties, and gen_pool_xalloc()'s nocross for command buffers.
 */
#include "gpuvm.h"

int gpuvm_init(struct gpuvm *vm, struct gen_pool *pages)
{
	vm->pages = pages;
	vm->pool = gen_pool_create(GPUVM_GRANULE_ORDER, NUMA_NO_NODE);
	if (!vm->pool)
		return -1;
	/* Every import is one page: a request of up to 2 MiB, with the slack
	 * a command buffer's window asks for, rounds up to it. */
	if (gen_pool_import_from(vm->pool, pages, GPUVM_PAGE)) {
		gen_pool_destroy(vm->pool);
		vm->pool = NULL;
		return -1;
	}
	return 0;
}

void gpuvm_destroy(struct gpuvm *vm)
{
	gen_pool_destroy(vm->pool);
	vm->pool = NULL;
}

static bool size_ok(size_t size)
{
	return size >= GPUVM_MIN_BUFFER && size <= GPUVM_PAGE;
}

unsigned long gpuvm_alloc(struct gpuvm *vm, size_t size)
{
	return size_ok(size) ? gen_pool_alloc(vm->pool, size) : 0;
}

unsigned long gpuvm_alloc_cmd(struct gpuvm *vm, size_t size)
{
	const struct gen_pool_constraints c = { .nocross = GPUVM_CMD_WINDOW };

	return size_ok(size) ? gen_pool_xalloc(vm->pool, size, &c) : 0;
}

void gpuvm_free(struct gpuvm *vm, unsigned long addr, size_t size)
{
	gen_pool_free(vm->pool, addr, size);
}

size_t gpuvm_pages(const struct gpuvm *vm)
{
	return gen_pool_size(vm->pool) / GPUVM_PAGE;
}
