// SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
/*
 * test/oom.c - see oom.h.
 */
#include "oom.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The real functions, which the linker's --wrap names __real_*. */
void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
int __real_posix_memalign(void **p, size_t align, size_t size);
void *__real_aligned_alloc(size_t align, size_t size);
char *__real_strdup(const char *s);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);

void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
int __wrap_posix_memalign(void **p, size_t align, size_t size);
void *__wrap_aligned_alloc(size_t align, size_t size);
char *__wrap_strdup(const char *s);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);

/* Each test runs in its own process: no other thread allocates while a
 * test has the countdown armed. */
static bool armed;
static long left, failed;

void oom_fail_after(long n)
{
	armed = true;
	left = n;
	failed = 0;
}

void oom_off(void)
{
	armed = false;
}

long oom_failed(void)
{
	return failed;
}

/* Whether this allocation is to fail. */
static bool refuse(void)
{
	if (!armed)
		return false;
	if (left > 0) {
		left--;
		return false;
	}
	failed++;
	errno = ENOMEM;
	return true;
}

void *__wrap_malloc(size_t size)
{
	return refuse() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return refuse() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return refuse() ? NULL : __real_realloc(p, size);
}

int __wrap_posix_memalign(void **p, size_t align, size_t size)
{
	return refuse() ? ENOMEM : __real_posix_memalign(p, align, size);
}

void *__wrap_aligned_alloc(size_t align, size_t size)
{
	return refuse() ? NULL : __real_aligned_alloc(align, size);
}

char *__wrap_strdup(const char *s)
{
	return refuse() ? NULL : __real_strdup(s);
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	return refuse() ? MAP_FAILED : __real_mmap(addr, len, prot, flags, fd, off);
}
