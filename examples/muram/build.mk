# SPDX-License-Identifier: GPL-2.0-only
# examples/muram/build.mk - the Freescale CPM/QE multi-user RAM allocator
# (drivers/soc/fsl/qe/qe_common.c), ported to user space:
# $(B)/examples/muram/muram.  genalloc hands out offsets into a device
# memory it never touches.  The code is kernel-style: it includes
# <linux/genalloc.h> through -Imodern.  "make check" runs "muram --check".

MURAM_SRCS := $(sort $(wildcard examples/muram/*.c))
MURAM_OBJS := $(MURAM_SRCS:%.c=$(B)/%.o)
MURAM_BIN := $(B)/examples/muram/muram

PROGRAMS += $(MURAM_BIN)
CHECK_PROGRAMS += $(MURAM_BIN)

$(MURAM_OBJS): ALL_CPPFLAGS += -Imodern

$(MURAM_BIN): $(MURAM_OBJS) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(MURAM_OBJS) $(LIB_A) $(ALL_LDFLAGS)

.PHONY: help-muram
help: help-muram
help-muram:
	@echo '  examples/muram  $(MURAM_BIN): muram [--check]'
	@echo '                  (CPM/QE MURAM: aligned and fixed offsets into device memory)'

-include $(MURAM_OBJS:.o=.d)
