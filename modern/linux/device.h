/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/linux/device.h - lets kernel-style code that includes
 * <linux/device.h> build unchanged with -Imodern.  The manual of the device
 * and devres model is device/device.h; error pointers come along, as they do
 * in the kernel.
 */
#ifndef GENALLOC_MODERN_LINUX_DEVICE_H
#define GENALLOC_MODERN_LINUX_DEVICE_H

/* Kernel code gets the kernel's lock-free pools, as from <linux/genalloc.h>. */
#ifndef GENALLOC_DEFAULT_LOCKLESS
#define GENALLOC_DEFAULT_LOCKLESS 1
#endif
#include "../../common/version.h"

#include "../../device/device.h"
#include "../../device/err.h"

#endif /* GENALLOC_MODERN_LINUX_DEVICE_H */
