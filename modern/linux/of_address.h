/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * modern/linux/of_address.h - lets kernel-style code that includes
 * <linux/of_address.h> build unchanged with -Imodern:
 * of_address_to_resource(), which reads a node's "reg" through its parents'
 * "ranges".  They live with the device model in device/device.h, their
 * manual.
 */
#ifndef GENALLOC_MODERN_LINUX_OF_ADDRESS_H
#define GENALLOC_MODERN_LINUX_OF_ADDRESS_H

#include "../../device/device.h"

#endif /* GENALLOC_MODERN_LINUX_OF_ADDRESS_H */
