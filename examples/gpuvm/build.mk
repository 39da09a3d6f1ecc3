# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# examples/gpuvm/build.mk - a GPU address space that imports 2 MiB pages
# from a parent pool, gives each back as it empties, and keeps command
# buffers from crossing a 4 GiB boundary (gen_pool_xalloc's nocross):
# $(B)/examples/gpuvm/gpuvm.  "make check" runs "gpuvm --check".

GPUVM_SRCS := $(sort $(wildcard examples/gpuvm/*.c))
GPUVM_OBJS := $(GPUVM_SRCS:%.c=$(B)/%.o)
GPUVM_BIN := $(B)/examples/gpuvm/gpuvm

PROGRAMS += $(GPUVM_BIN)
CHECK_PROGRAMS += $(GPUVM_BIN)

$(GPUVM_BIN): $(GPUVM_OBJS) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(GPUVM_OBJS) $(LIB_A) $(ALL_LDFLAGS)

.PHONY: help-gpuvm
help: help-gpuvm
help-gpuvm:
	@echo '  examples/gpuvm  $(GPUVM_BIN): gpuvm [--check]'
	@echo '                  (GPU address space importing 2 MiB pages; command buffers within 4 GiB)'

-include $(GPUVM_OBJS:.o=.d)
