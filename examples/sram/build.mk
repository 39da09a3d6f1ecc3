# SPDX-License-Identifier: GPL-2.0-only
# examples/sram/build.mk - the kernel's generic on-chip SRAM driver
# (drivers/misc/sram.c) and two consumers, ported to user space:
# $(B)/examples/sram/sram.  The code is kernel-style: it includes
# <linux/genalloc.h>, <linux/device.h> and <linux/err.h> through -Imodern.
# "make check" runs "sram --check".

SRAM_SRCS := $(sort $(wildcard examples/sram/*.c))
SRAM_OBJS := $(SRAM_SRCS:%.c=$(B)/%.o)
SRAM_BIN := $(B)/examples/sram/sram

PROGRAMS += $(SRAM_BIN)
CHECK_PROGRAMS += $(SRAM_BIN)

$(SRAM_OBJS): ALL_CPPFLAGS += -Imodern

$(SRAM_BIN): $(SRAM_OBJS) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(SRAM_OBJS) $(LIB_A) $(ALL_LDFLAGS)

.PHONY: help-sram
help: help-sram
help-sram:
	@echo '  examples/sram   $(SRAM_BIN): sram [--check]'
	@echo '                  (on-chip SRAM driver: reserved ranges, partitions, DMA)'

-include $(SRAM_OBJS:.o=.d)
