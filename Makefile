# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# genalloc in user space - the one (non-recursive) GNU Makefile.
#
# Every build variant has its own object tree under build/<variant>/, so that
# switching between them never needs "make clean".  The check-* targets run
# the same test runner built in another variant (a sub-make of this same
# Makefile with VARIANT set, not a descent into sub-directories).
#
#   make                 release library: build/libgenalloc.a, build/libgenalloc.so
#   make check           build and run every Check suite and the examples
#   make help            every target
#
# Library sources are found by wildcard: a new .c file under common/, legacy/,
# modern/ or compat/ is part of the library; a new test/<dir>/*.c defining
# "Suite *NAME_suite(void)" is part of the runner.  No list to edit.

.SUFFIXES:
.DEFAULT_GOAL := all
.DELETE_ON_ERROR:
# Objects reached through pattern chains are kept, not rebuilt every run.
.SECONDARY:
SHELL := /bin/bash

VERSION_MAJOR := 0
VERSION_MINOR := 1
VERSION_PATCH := 0
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)

PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
DESTDIR ?=

CC ?= cc
ifeq ($(origin CC),default)
CC := cc
endif
VARIANT ?= release

# ---------------------------------------------------------------- variants
WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wpointer-arith -Wcast-align -Wformat=2 -Wvla
BASE_CFLAGS := -std=c11 $(WARN) -g -fPIC -fvisibility=hidden -pthread
BASE_CPPFLAGS := -D_GNU_SOURCE -I.

# Loops start on 32 bytes, so that one of up to 32 never straddles a 64-byte
# fetch block: the kernel path's word-at-a-time scan (bitmap.c find_next)
# ran at half speed whenever unrelated code moved it across one
# (genalloc-speed kff8, 64 B pairs at 64M: 10.6 or 21 us by link layout).
# GCC aligns that loop as a jump target (it is entered by a jump to its
# test), which -falign-loops does not reach: it sat on 16 bytes and ran at
# 21 us once order hints moved the code.  So bitmap.c also gets
# -falign-jumps=32 where the compiler has it (clang refuses it under
# -Werror); elsewhere it made no measurable difference.
VARIANT_CFLAGS_release := -O2 -falign-loops=32
ALIGN_JUMPS := $(shell $(CC) -falign-jumps=32 -Werror -x c -c /dev/null -o /dev/null \
	2>/dev/null && echo -falign-jumps=32)
VARIANT_CFLAGS_debug := -O0
VARIANT_CFLAGS_asan := -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
VARIANT_CFLAGS_tsan := -O1 -fsanitize=thread
VARIANT_CFLAGS_coverage := -O0 --coverage
VARIANT_CPPFLAGS_coverage := -DGENALLOC_TEST_COVERAGE
VARIANT_LDFLAGS_asan := -fsanitize=address,undefined
VARIANT_LDFLAGS_tsan := -fsanitize=thread
VARIANT_LDFLAGS_coverage := --coverage
# How much longer than Check's per-test timeout (4 s unless a case sets its
# own) a variant's tests may run.  The coverage build's slowest
# default-timeout test took 3.4 s on the quiet 2-core machine and timed out
# in a CI run that shared it with valgrind runs; under ASan the slowest
# take 1.2 s, under TSan 13 s.
VARIANT_CK_TIMEOUT_asan := 3
VARIANT_CK_TIMEOUT_tsan := 10
VARIANT_CK_TIMEOUT_coverage := 10

ifeq ($(filter $(VARIANT),release debug asan tsan coverage),)
$(error unknown VARIANT '$(VARIANT)': use release, debug, asan, tsan or coverage)
endif

# A compiler other than the default gets its own trees too.
CCNAME := $(notdir $(firstword $(CC)))
# The C++ compiler (for test/cxx) is CC's sibling: objects of one
# toolchain, sanitizer runtimes included, unless CXX is given.
ifeq ($(origin CXX),default)
CXX := $(if $(findstring clang,$(CCNAME)),$(subst clang,clang++,$(CCNAME)),\
	$(if $(findstring gcc,$(CCNAME)),$(subst gcc,g++,$(CCNAME)),g++))
endif
B := build/$(VARIANT)$(if $(filter cc,$(CCNAME)),,-$(CCNAME))

ALL_CFLAGS := $(BASE_CFLAGS) $(VARIANT_CFLAGS_$(VARIANT)) $(CFLAGS)
ifeq ($(VARIANT),release)
$(B)/modern/bitmap.o: ALL_CFLAGS += $(ALIGN_JUMPS)
endif
ALL_CPPFLAGS := $(BASE_CPPFLAGS) $(VARIANT_CPPFLAGS_$(VARIANT)) $(CPPFLAGS)
ALL_LDFLAGS := -pthread $(VARIANT_LDFLAGS_$(VARIANT)) $(LDFLAGS)
DEPFLAGS = -MMD -MP

# ---------------------------------------------------------------- sources
LIB_DIRS := common legacy modern compat
LIB_SRCS := $(sort $(wildcard $(addsuffix /*.c,$(LIB_DIRS))))
LIB_HDRS := $(sort $(wildcard $(addsuffix /*.h,$(LIB_DIRS)) $(addsuffix /linux/*.h,$(LIB_DIRS))))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)

TEST_SRCS := $(sort $(wildcard test/*.c test/legacy/*.c test/modern/*.c test/compat/*.c \
	test/examples/*.c test/bench/*.c))
TEST_OBJS := $(TEST_SRCS:%.c=$(B)/%.o)
TEST_BIN := $(B)/test/genalloc-tests
SUITES_INC := $(B)/test/suites.inc

LIB_A := $(B)/libgenalloc.a
SONAME := libgenalloc.so.$(VERSION_MAJOR)
LIB_SO := $(B)/libgenalloc.so.$(VERSION)

# Per-directory fragments (examples, bench, fuzz) add programs to these, and
# may add lines to "make help" with a rule "help: help-<dir>".
PROGRAMS :=
CHECK_PROGRAMS :=
help: help-core

-include $(sort $(wildcard examples/*/build.mk bench/build.mk test/*/build.mk))

# ---------------------------------------------------------------- top targets
.PHONY: all lib check check-includes check-run check-asan check-tsan check-valgrind coverage \
	install uninstall clean help help-core deps-check deps-lcov deps-valgrind deps-gnuplot \
	deps-cxx FORCE

all: lib $(PROGRAMS)
ifeq ($(B),build/release)
all: build/libgenalloc.a build/libgenalloc.so

build/libgenalloc.a: $(LIB_A)
	cp $< $@
build/libgenalloc.so: $(LIB_SO)
	cp $< build/$(notdir $(LIB_SO))
	ln -sf $(notdir $(LIB_SO)) build/$(SONAME)
	ln -sf $(SONAME) $@
endif

lib: $(LIB_A) $(LIB_SO)

$(LIB_A): $(LIB_OBJS)
	@mkdir -p $(@D)
	rm -f $@
	$(AR) rcs $@ $^

$(LIB_SO): $(LIB_OBJS)
	@mkdir -p $(@D)
	$(CC) -shared -Wl,-soname,$(SONAME) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS)
	ln -sf $(notdir $@) $(B)/$(SONAME)
	ln -sf $(SONAME) $(B)/libgenalloc.so

$(B)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c -o $@ $<

# ---------------------------------------------------------------- tests
# The suite list is regenerated from the sources; it is only rewritten when
# it changes, so the runner is not relinked for nothing.
$(SUITES_INC): $(TEST_SRCS) Makefile
	@mkdir -p $(@D)
	@grep -ho '^Suite \*[A-Za-z0-9_]*_suite(void)' $(TEST_SRCS) \
		| sed 's/^Suite \*\(.*\)(void)/SUITE(\1)/' | sort > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@

$(TEST_OBJS): $(SUITES_INC)
$(TEST_OBJS): ALL_CPPFLAGS += -I$(B)/test

TEST_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
TEST_LIBS = $(shell pkg-config --libs check 2>/dev/null)
$(TEST_OBJS): ALL_CFLAGS += $(TEST_CFLAGS)

# The library's allocations pass through test/oom.c, which fails them on
# demand (the out-of-memory tests).
TEST_WRAP := $(foreach f,malloc calloc realloc posix_memalign aligned_alloc strdup mmap,\
	-Wl,--wrap=$(f))
$(TEST_BIN): $(TEST_OBJS) $(LIB_A) | deps-check
	$(CC) $(ALL_CFLAGS) -o $@ $(TEST_OBJS) $(LIB_A) $(TEST_LIBS) $(TEST_WRAP) $(ALL_LDFLAGS)

$(TEST_OBJS): | deps-check

# Check's per-test timeout is stretched CK_TIMEOUT times: by the variant
# (above), by check-valgrind, or from the command line.  Worked out in the
# make that runs the tests and given to Check in the recipe alone: an
# exported default would carry the calling make's variant into the sub-make.
CK_TIMEOUT ?= $(or $(VARIANT_CK_TIMEOUT_$(VARIANT)),1)
TEST_WRAPPER ?=

check: check-includes
	@$(MAKE) --no-print-directory deps-check
	@$(MAKE) --no-print-directory VARIANT=$(VARIANT) check-run

# Who may include what (test/include-rules.txt).
check-includes:
	@bash test/include-rules.sh

check-run: $(TEST_BIN) $(CHECK_PROGRAMS)
	CK_TIMEOUT_MULTIPLIER=$(CK_TIMEOUT) $(TEST_WRAPPER) $(TEST_BIN) $(SUITE)
	@set -e; if [ -z "$(SUITE)" ]; then for p in $(CHECK_PROGRAMS); do \
		echo "== $$p"; $(TEST_WRAPPER) $$p --check; done; fi

check-asan:
	@$(MAKE) --no-print-directory deps-check
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
		$(MAKE) --no-print-directory VARIANT=asan check-run

check-tsan:
	@$(MAKE) --no-print-directory deps-check
	@TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 GENALLOC_STRESS=long \
		$(MAKE) --no-print-directory VARIANT=tsan check-run

VALGRIND := valgrind -q --error-exitcode=99 --leak-check=full \
	--errors-for-leak-kinds=definite --trace-children=yes
check-valgrind:
	@$(MAKE) --no-print-directory deps-check deps-valgrind
	@GENALLOC_UNDER_VALGRIND=1 $(MAKE) --no-print-directory VARIANT=debug \
		CK_TIMEOUT=20 TEST_WRAPPER='$(VALGRIND)' check-run

# ---------------------------------------------------------------- coverage
# Line and branch coverage of the library only (common, legacy, modern,
# compat); tests, examples and benches are excluded.
COV_DIR := build/coverage
# The gate: make coverage fails when legacy/, modern/ or compat/ falls below.
COV_MIN_LINES ?= 95
COV_MIN_BRANCHES ?= 85
LCOV_BR := --rc lcov_branch_coverage=1
coverage:
	@$(MAKE) --no-print-directory deps-check deps-lcov
	@rm -f $$(find build/coverage -name '*.gcda' 2>/dev/null)
	@$(MAKE) --no-print-directory VARIANT=coverage check-run
	@mkdir -p $(COV_DIR)
	lcov -q $(LCOV_BR) --capture --directory build/coverage --base-directory . \
		--output-file $(COV_DIR)/all.info
	lcov -q $(LCOV_BR) --extract $(COV_DIR)/all.info \
		$(foreach d,$(LIB_DIRS),'$(CURDIR)/$(d)/*') --output-file $(COV_DIR)/lib.info
	genhtml -q $(LCOV_BR) --output-directory $(COV_DIR)/html $(COV_DIR)/lib.info
	@lcov $(LCOV_BR) --summary $(COV_DIR)/lib.info
	@echo "HTML report: $(COV_DIR)/html/index.html"
	@fail=0; for d in $(LIB_DIRS); do \
		lcov -q $(LCOV_BR) --extract $(COV_DIR)/lib.info "$(CURDIR)/$$d/*" \
			--output-file $(COV_DIR)/$$d.info >/dev/null 2>&1 || continue; \
		sum=$$(lcov $(LCOV_BR) --summary $(COV_DIR)/$$d.info 2>&1); \
		l=$$(echo "$$sum" | sed -n 's/.*lines[.]*: *\([0-9.]*\)%.*/\1/p'); \
		b=$$(echo "$$sum" | sed -n 's/.*branches[.]*: *\([0-9.]*\)%.*/\1/p'); \
		verdict=ok; \
		if [ "$$d" != common ] && { awk "BEGIN{exit !($${l:-0} < $(COV_MIN_LINES))}" || \
			awk "BEGIN{exit !($${b:-0} < $(COV_MIN_BRANCHES))}"; }; then \
			verdict="BELOW the gate ($(COV_MIN_LINES)% lines, $(COV_MIN_BRANCHES)% branches)"; fail=1; fi; \
		printf '%-8s lines %6s%%  branches %6s%%  %s\n' $$d "$$l" "$$b" "$$verdict"; \
	done; exit $$fail

# ---------------------------------------------------------------- dependencies
# A target that needs a tool installs it with apt-get when run as root, or
# stops with the exact command to run.
define require_pkgs
	@if ! $(1) >/dev/null 2>&1; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "Installing $(2) with apt-get"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
				apt-get install -y -qq $(2) >/dev/null || exit 1; \
		else \
			echo "Missing $(2). Run: sudo apt-get install $(2)"; exit 1; \
		fi; \
	fi
endef

deps-check:
	$(call require_pkgs,pkg-config --exists check && pkg-config --libs check,check libsubunit-dev pkg-config)
deps-lcov:
	$(call require_pkgs,command -v lcov && command -v genhtml,lcov)
deps-valgrind:
	$(call require_pkgs,command -v valgrind,valgrind)
deps-gnuplot:
	$(call require_pkgs,command -v gnuplot,gnuplot-nox)
deps-cxx:
	$(call require_pkgs,command -v $(CXX),$(if $(findstring clang,$(CXX)),clang,g++))

# ---------------------------------------------------------------- install
PUBLIC_HDRS := $(filter-out %/internal.h %_internal.h,$(LIB_HDRS))

# The paths in it come from the command line (make install PREFIX=...), which
# no file's date records: written every time, replaced only if it differs.
build/genalloc.pc: FORCE
	@mkdir -p $(@D)
	@printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$(LIBDIR)' 'includedir=$(INCLUDEDIR)' '' \
		'Name: genalloc' \
		'Description: the Linux genalloc special-purpose memory allocator in user space' \
		'Version: $(VERSION)' \
		'Cflags: -I$${includedir}/genalloc' \
		'Libs: -L$${libdir} -lgenalloc' \
		'Libs.private: -pthread' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

FORCE:

install: all build/genalloc.pc
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 644 build/libgenalloc.a $(DESTDIR)$(LIBDIR)/
	install -m 755 build/libgenalloc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/
	ln -sf libgenalloc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libgenalloc.so
	set -e; for h in $(PUBLIC_HDRS); do \
		install -d $(DESTDIR)$(INCLUDEDIR)/genalloc/$$(dirname $$h); \
		install -m 644 $$h $(DESTDIR)$(INCLUDEDIR)/genalloc/$$h; done
	install -m 644 build/genalloc.pc $(DESTDIR)$(PKGCONFIGDIR)/genalloc.pc

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libgenalloc.a $(DESTDIR)$(LIBDIR)/libgenalloc.so* \
		$(DESTDIR)$(PKGCONFIGDIR)/genalloc.pc
	rm -rf $(DESTDIR)$(INCLUDEDIR)/genalloc

clean:
	rm -rf build

help-core:
	@echo 'Targets:'
	@echo '  all (default)   build/libgenalloc.a and build/libgenalloc.so, examples, benches'
	@echo '  check           run every Check suite and the examples (installs Check if root)'
	@echo '  check-includes  every #include against test/include-rules.txt (make check runs it)'
	@echo '  check-asan      the same under AddressSanitizer + UBSan'
	@echo '  check-tsan      the same under ThreadSanitizer, with the long stress runs'
	@echo '  check-valgrind  the same under valgrind (memcheck, leak check)'
	@echo '  coverage        line and branch coverage of the library: build/coverage/html/'
	@echo '  install         PREFIX, DESTDIR, LIBDIR, INCLUDEDIR honoured; installs genalloc.pc'
	@echo '  uninstall       remove what install put in place'
	@echo '  clean           remove build/'
	@echo '  help            this list'
	@echo 'Variables: VARIANT=release|debug|asan|tsan|coverage  CC=gcc|clang  SUITE=<name>'
	@echo '           CK_TIMEOUT=<n> (Check timeouts times n; slow variants set their own)'

-include $(LIB_OBJS:.o=.d) $(TEST_OBJS:.o=.d)
