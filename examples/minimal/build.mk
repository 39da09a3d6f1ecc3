# examples/minimal/build.mk - the README's three examples, built by "make"
# and run by "make check" (the compat one on both backends), so the README
# never shows code that does not work.

MINIMAL_NAMES := legacy modern compat
MINIMAL_BINS := $(MINIMAL_NAMES:%=$(B)/examples/minimal/%)
PROGRAMS += $(MINIMAL_BINS)
CHECK_PROGRAMS += $(MINIMAL_BINS)

$(B)/examples/minimal/%: $(B)/examples/minimal/%.o $(LIB_A)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(LIB_A) $(ALL_LDFLAGS)

# The same compat binary, unchanged, on the bitmap engine.
.PHONY: check-minimal-bitmap
check-run: check-minimal-bitmap
check-minimal-bitmap: $(B)/examples/minimal/compat
	GENALLOC_BACKEND=bitmap $(TEST_WRAPPER) $<

-include $(MINIMAL_BINS:=.d)
