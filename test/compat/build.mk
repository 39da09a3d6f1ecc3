# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/compat/build.mk - one kernel-style source, test/compat/kernel/driver.c,
# that includes only <linux/genalloc.h>, compiled against -Icompat (the 2005
# API) and against -Imodern (today's), linked, and run by "make check" with
# --check.  Nothing but the include path differs between the two builds,
# which is the point: the public headers stand alone, as kernel headers do.

KSTYLE_SRC := test/compat/kernel/driver.c
KSTYLE_2005 := $(B)/test/compat/kernel-2005
KSTYLE_2006 := $(B)/test/compat/kernel-2006
PROGRAMS += $(KSTYLE_2005) $(KSTYLE_2006)
CHECK_PROGRAMS += $(KSTYLE_2005) $(KSTYLE_2006)

$(B)/test/compat/kernel/driver-2005.o: $(KSTYLE_SRC)
	@mkdir -p $(@D)
	$(CC) -D_GNU_SOURCE -Icompat $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<
$(B)/test/compat/kernel/driver-2006.o: $(KSTYLE_SRC)
	@mkdir -p $(@D)
	$(CC) -D_GNU_SOURCE -Imodern $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(B)/test/compat/kernel-%: $(B)/test/compat/kernel/driver-%.o $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_A) $(ALL_LDFLAGS)

-include $(B)/test/compat/kernel/driver-2005.d $(B)/test/compat/kernel/driver-2006.d

# test/compat/kernel/sram_of.c: SRAM- and QE-shaped code that finds its
# memory through the device tree (<linux/of.h>, <linux/of_address.h>,
# <linux/platform_device.h>), built as the kernel would build it, with
# -Imodern and nothing else of the library's.
KOF := $(B)/test/compat/kernel-of
PROGRAMS += $(KOF)
CHECK_PROGRAMS += $(KOF)

$(B)/test/compat/kernel/sram_of.o: test/compat/kernel/sram_of.c
	@mkdir -p $(@D)
	$(CC) -D_GNU_SOURCE -Imodern $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

$(KOF): $(B)/test/compat/kernel/sram_of.o $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_A) $(ALL_LDFLAGS)

-include $(B)/test/compat/kernel/sram_of.d
