/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * device/err.h - error pointers, as the kernel's <linux/err.h>.
 *
 * A function that returns a pointer can return a negative errno in it: the
 * top MAX_ERRNO addresses of the address space are never valid objects, so
 * ERR_PTR(-EINVAL) can be told from a real pointer with IS_ERR().
 * devm_gen_pool_create() reports its failures this way, as in the kernel.
 *
 * Only the helpers the device model and its callers need are here; all are
 * static inline, nothing is exported.
 */
#ifndef GENALLOC_DEVICE_ERR_H
#define GENALLOC_DEVICE_ERR_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest errno an error pointer may carry (the kernel's value). */
#define MAX_ERRNO 4095

/* Whether an integer in pointer range is an encoded error. */
#define IS_ERR_VALUE(x) ((uintptr_t)(x) >= (uintptr_t)-MAX_ERRNO)

/**
 * ERR_PTR() - encode a negative errno as a pointer
 * @error: a value in [-MAX_ERRNO, -1]
 *
 * Return: a pointer for which IS_ERR() is true and PTR_ERR() gives @error.
 * Any other @error gives a pointer IS_ERR() does not recognise, as in the
 * kernel.
 */
static inline void *ERR_PTR(long error)
{
	return (void *)(intptr_t)error;
}

/**
 * PTR_ERR() - the errno carried by an error pointer
 * @ptr: a pointer for which IS_ERR() is true
 *
 * Return: the negative errno; meaningless for a valid pointer.
 */
static inline long PTR_ERR(const void *ptr)
{
	return (long)(intptr_t)ptr;
}

/**
 * IS_ERR() - whether a pointer encodes an errno
 * @ptr: the pointer
 *
 * Return: true for ERR_PTR(-1) .. ERR_PTR(-MAX_ERRNO); false for NULL.
 */
static inline bool IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE(ptr);
}

/**
 * IS_ERR_OR_NULL() - whether a pointer is NULL or encodes an errno
 * @ptr: the pointer
 */
static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE(ptr);
}

/**
 * ERR_CAST() - pass an error pointer on as another pointer type
 * @ptr: an error pointer
 */
static inline void *ERR_CAST(const void *ptr)
{
	return (void *)(uintptr_t)ptr;
}

/**
 * PTR_ERR_OR_ZERO() - the errno of an error pointer, 0 for anything else
 * @ptr: the pointer (NULL gives 0)
 */
static inline int PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

#ifdef __cplusplus
}
#endif

#endif /* GENALLOC_DEVICE_ERR_H */
