/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/linux/device.h - lets kernel-style code that includes
 * <linux/device.h> build unchanged with -Imodern.  The manual of the device
 * and devres model is modern/device.h; error pointers come along, as they do
 * in the kernel.
 */
#ifndef GENALLOC_MODERN_LINUX_DEVICE_H
#define GENALLOC_MODERN_LINUX_DEVICE_H

#include "../device.h"
#include "../err.h"

#endif /* GENALLOC_MODERN_LINUX_DEVICE_H */
