/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/linux/platform_device.h - lets kernel-style code that includes
 * <linux/platform_device.h> build unchanged with -Imodern: struct
 * platform_device, platform_device_register(), to_platform_device(),
 * platform_get_resource() and the drvdata accessors.  They live with the
 * device model in device/device.h, their manual.
 */
#ifndef GENALLOC_MODERN_LINUX_PLATFORM_DEVICE_H
#define GENALLOC_MODERN_LINUX_PLATFORM_DEVICE_H

#include "../../device/device.h"

#endif /* GENALLOC_MODERN_LINUX_PLATFORM_DEVICE_H */
