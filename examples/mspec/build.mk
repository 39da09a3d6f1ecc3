# SPDX-License-Identifier: GPL-2.0-only
# examples/mspec/build.mk - the ia64 uncached page allocator and the mspec
# driver of 2.6.13, ported to user space: $(B)/examples/mspec/mspec.
#
# uncached.c is the 2005 code and sees <linux/genalloc.h> through -Icompat;
# uncached_modern.c is the 2006 port and sees it through -Imodern.  The two
# define different struct gen_pool, so they are separate objects and no
# other file includes either header.  "make check" runs "mspec --check".

MSPEC_SRCS := $(sort $(wildcard examples/mspec/*.c))
MSPEC_OBJS := $(MSPEC_SRCS:%.c=$(B)/%.o)
MSPEC_BIN := $(B)/examples/mspec/mspec

PROGRAMS += $(MSPEC_BIN)
CHECK_PROGRAMS += $(MSPEC_BIN)

$(B)/examples/mspec/uncached.o: ALL_CPPFLAGS += -Icompat
$(B)/examples/mspec/uncached_modern.o: ALL_CPPFLAGS += -Imodern

$(MSPEC_BIN): $(MSPEC_OBJS) $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $(MSPEC_OBJS) $(LIB_A) $(ALL_LDFLAGS)

.PHONY: help-mspec
help: help-mspec
help-mspec:
	@echo '  examples/mspec  $(MSPEC_BIN): mspec [--modern | --check]'
	@echo '                  (the 2005 code runs on GENALLOC_BACKEND=buddy|bitmap)'

-include $(MSPEC_OBJS:.o=.d)
