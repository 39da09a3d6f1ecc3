/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/linux/of_platform.h - lets kernel-style code that includes
 * <linux/of_platform.h> build unchanged with -Imodern:
 * of_find_device_by_node(), which gives the struct platform_device bound to
 * a node.  They live with the device model in device/device.h, their manual.
 */
#ifndef GENALLOC_MODERN_LINUX_OF_PLATFORM_H
#define GENALLOC_MODERN_LINUX_OF_PLATFORM_H

#include "../../device/device.h"

#endif /* GENALLOC_MODERN_LINUX_OF_PLATFORM_H */
