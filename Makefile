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

# The version lives in common/version.h alone; the soname, the file names,
# genalloc.pc and the CMake package take it from there.
version_field = $(shell sed -n 's/^.define GENALLOC_VERSION_$(1)  *\([0-9][0-9]*\)$$/\1/p' common/version.h)
VERSION_MAJOR := $(call version_field,MAJOR)
VERSION_MINOR := $(call version_field,MINOR)
VERSION_PATCH := $(call version_field,PATCH)
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
VARIANT_CFLAGS_checked := -O2
VARIANT_CFLAGS_debug := -O0
VARIANT_CFLAGS_asan := -O1 -fno-omit-frame-pointer \
	-fsanitize=address,undefined -fno-sanitize-recover=all
VARIANT_CFLAGS_tsan := -O1 -fsanitize=thread
VARIANT_CFLAGS_coverage := -O0 --coverage
VARIANT_CPPFLAGS_coverage := -DGENALLOC_TEST_COVERAGE
# The engine's invariants are asserted (modern/assert_internal.h) in every
# build that runs the tests but coverage, whose gate counts branches.
VARIANT_CPPFLAGS_checked := -DGENALLOC_ASSERTS
VARIANT_CPPFLAGS_debug := -DGENALLOC_ASSERTS
VARIANT_CPPFLAGS_asan := -DGENALLOC_ASSERTS
VARIANT_CPPFLAGS_tsan := -DGENALLOC_ASSERTS
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

ifeq ($(filter $(VARIANT),release checked debug asan tsan coverage),)
$(error unknown VARIANT '$(VARIANT)': use release, checked, debug, asan, tsan or coverage)
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
LIB_DIRS := common legacy modern device compat
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
CHECK_TARGETS :=
help: help-core

-include $(sort $(wildcard examples/*/build.mk bench/build.mk test/*/build.mk))

# ---------------------------------------------------------------- top targets
.PHONY: all lib check check-includes check-run check-asan check-tsan check-valgrind coverage \
	install uninstall check-install clean help help-core deps-check deps-lcov deps-valgrind \
	deps-gnuplot deps-cxx deps-cmake deps-jq deps-xmllint deps-pkg-config deps-mandoc deps-fuzzer FORCE

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

# make check runs in the checked build (release optimisation with the
# engine's assertions) unless VARIANT is given.
CHECK_VARIANT := $(if $(filter file,$(origin VARIANT)),checked,$(VARIANT))
check:
	@$(MAKE) --no-print-directory deps-check
	@$(MAKE) --no-print-directory VARIANT=$(CHECK_VARIANT) check-run

# Who may include what (test/include-rules.txt).
check-includes:
	@bash test/include-rules.sh
CHECK_TARGETS += check-includes

# Programs run with --check (CHECK_PROGRAMS) and make targets (CHECK_TARGETS)
# that the per-directory fragments add; test/run-checks.sh runs them all
# after the suites and ends with the one verdict line.
check-run: $(TEST_BIN) $(CHECK_PROGRAMS)
	@+CK_TIMEOUT_MULTIPLIER=$(CK_TIMEOUT) TEST_WRAPPER='$(TEST_WRAPPER)' SUITE='$(SUITE)' \
		bash test/run-checks.sh $(TEST_BIN) '$(CHECK_PROGRAMS)' '$(CHECK_TARGETS)'

# The dependency mechanism itself, with each tool hidden in turn (the
# README's make check; other variants and compilers would only repeat it).
.PHONY: check-deps
check-deps:
	@bash test/deps/test_deps.sh
ifeq ($(B),build/checked)
CHECK_TARGETS += check-deps
endif

# A suite name that does not exist is one line listing the suites, before
# anything is built.
ifneq ($(SUITE),)
SUITE_NAMES := $(shell sed -n 's/^Suite \*\([A-Za-z0-9_]*\)_suite(void).*/\1/p' $(TEST_SRCS) | sort)
ifneq ($(filter-out $(SUITE_NAMES) $(SUITE_NAMES:=_suite),$(SUITE)),)
$(error no suite named '$(filter-out $(SUITE_NAMES) $(SUITE_NAMES:=_suite),$(SUITE))'; the suites are: $(SUITE_NAMES))
endif
endif

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
# Each tool a target needs has one deps-NAME target: build-aux/require runs
# the test after the comma; if it fails, root on a Debian-like machine gets
# the packages installed with apt-get (and the test run again), anyone else
# one line naming the command to run, and the target stops.
# test/deps/test_deps.sh checks every one of them with each tool hidden.
REQUIRE := sh build-aux/require
# clang's libFuzzer runtime comes in a package named for clang's version.
CLANG_MAJOR = $(or $(shell $(FUZZ_CC) --version 2>/dev/null | sed -n 's/.*clang version \([0-9]*\).*/\1/p' | head -n 1),14)

deps-check:
	@$(REQUIRE) 'Check (the C unit test library)' \
		'$(CC) build-aux/check-probe.c $$(pkg-config --cflags --libs check) -o /dev/null' \
		check libsubunit-dev pkg-config
deps-lcov:
	@$(REQUIRE) 'lcov' 'command -v lcov && command -v genhtml' lcov
deps-valgrind:
	@$(REQUIRE) 'valgrind' 'command -v valgrind' valgrind
deps-gnuplot:
	@$(REQUIRE) 'gnuplot (with PNG output)' \
		'echo "set terminal pngcairo" | gnuplot' gnuplot-nox
deps-cxx:
	@$(REQUIRE) 'a C++ compiler ($(CXX))' 'command -v $(CXX)' \
		$(if $(findstring clang,$(CXX)),clang,g++)
deps-cmake:
	@$(REQUIRE) 'CMake' 'command -v cmake' cmake
deps-jq:
	@$(REQUIRE) 'jq' 'command -v jq' jq
deps-xmllint:
	@$(REQUIRE) 'xmllint' 'command -v xmllint' libxml2-utils
deps-pkg-config:
	@$(REQUIRE) 'pkg-config' 'command -v pkg-config' pkg-config
deps-mandoc:
	@$(REQUIRE) 'mandoc (the manual pages checker)' 'command -v mandoc' mandoc
deps-fuzzer:
	@$(REQUIRE) "clang's libFuzzer runtime" \
		'echo "int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; return (int)n & 0; }" \
		| $(FUZZ_CC) -x c -fsanitize=fuzzer - -o /dev/null' \
		clang libclang-rt-$(CLANG_MAJOR)-dev

# ---------------------------------------------------------------- install
# make install builds the library alone, with the CC and VARIANT of its
# command line (never a build another compiler left behind), and installs
# the static and shared libraries, the public headers, genalloc.pc, the
# CMake package, the manual pages (man/) and README, CHANGES, LICENSE,
# LICENSES/ and docs/ (DOCDIR).  It installs no packages.  make uninstall
# removes exactly those files, and the directories of its own they leave
# empty.
# The public headers are named, not inferred from file names: a header an
# engine shares between its own files (modern/index_state_internal.h) is not the API.
PUBLIC_HDRS := common/api.h common/dump.h common/error.h common/version.h \
	legacy/genalloc.h compat/genalloc.h compat/stats.h compat/linux/genalloc.h \
	modern/genalloc.h $(wildcard modern/linux/*.h) device/device.h device/err.h
CMAKEDIR ?= $(LIBDIR)/cmake/genalloc
MANDIR ?= $(PREFIX)/share/man
DOCDIR ?= $(PREFIX)/share/doc/genalloc
# A manual page per group of calls (man/*.3, mdoc); every name in a page's
# NAME section is installed as a link to it, so that "man gen_pool_free"
# finds gen_pool_alloc(3).
MAN_PAGES := $(sort $(wildcard man/*.3))
MAN_NAMES = sed -n '/^\.Sh NAME/,/^\.Nd/s/^\.Nm \([A-Za-z_0-9]*\).*/\1/p' $(1)
DOC_FILES := README CHANGES LICENSE $(sort $(wildcard LICENSES/* docs/*))
PKG_FILES := $(B)/genalloc.pc $(B)/genallocConfig.cmake $(B)/genallocConfigVersion.cmake
SIZEOF_VOID_P := $(shell $(CC) -dM -E -x c /dev/null 2>/dev/null | sed -n 's/.*__SIZEOF_POINTER__ //p')

# The paths in them come from the command line (make install PREFIX=...),
# which no file's date records: written every time, replaced only if they
# differ.  The CMake package finds the prefix from its own place.
relpath = $(shell realpath -m --relative-to='$(1)' '$(2)')
$(PKG_FILES): $(B)/%: build-aux/%.in FORCE
	@mkdir -p $(@D)
	@sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' -e 's|@VERSION@|$(VERSION)|g' \
		-e 's|@VERSION_MAJOR@|$(VERSION_MAJOR)|g' -e 's|@VERSION_MINOR@|$(VERSION_MINOR)|g' \
		-e 's|@SIZEOF_VOID_P@|$(SIZEOF_VOID_P)|g' \
		-e 's|@CMAKE_TO_PREFIX@|$(call relpath,$(CMAKEDIR),$(PREFIX))|g' \
		-e 's|@PREFIX_TO_LIB@|$(call relpath,$(PREFIX),$(LIBDIR))|g' \
		-e 's|@PREFIX_TO_INCLUDE@|$(call relpath,$(PREFIX),$(INCLUDEDIR))|g' $< > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv -f $@.tmp $@; fi

FORCE:

install: $(LIB_A) $(LIB_SO) $(PKG_FILES)
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(CMAKEDIR)
	install -m 644 $(LIB_A) $(DESTDIR)$(LIBDIR)/libgenalloc.a
	install -m 755 $(LIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf libgenalloc.so.$(VERSION) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libgenalloc.so
	@set -e; for h in $(PUBLIC_HDRS); do \
		install -d $(DESTDIR)$(INCLUDEDIR)/genalloc/$$(dirname $$h); \
		install -m 644 $$h $(DESTDIR)$(INCLUDEDIR)/genalloc/$$h; done
	install -m 644 $(B)/genalloc.pc $(DESTDIR)$(PKGCONFIGDIR)/genalloc.pc
	install -m 644 $(B)/genallocConfig.cmake $(B)/genallocConfigVersion.cmake \
		$(DESTDIR)$(CMAKEDIR)/
	install -d $(DESTDIR)$(MANDIR)/man3
	@set -e; for p in $(MAN_PAGES); do \
		page=$$(basename $$p); \
		install -m 644 $$p $(DESTDIR)$(MANDIR)/man3/$$page; \
		for n in $$($(call MAN_NAMES,$$p)); do \
			[ "$$n.3" = "$$page" ] || ln -sf $$page $(DESTDIR)$(MANDIR)/man3/$$n.3; \
		done; done
	@echo "install: $(words $(MAN_PAGES)) manual pages and their links in $(DESTDIR)$(MANDIR)/man3"
	@set -e; for f in $(DOC_FILES); do \
		install -d $(DESTDIR)$(DOCDIR)/$$(dirname $$f); \
		install -m 644 $$f $(DESTDIR)$(DOCDIR)/$$f; done
	@echo "install: $(DOC_FILES) in $(DESTDIR)$(DOCDIR)"
	@echo "Installed genalloc $(VERSION) ($(CCNAME), $(VARIANT)) under $(DESTDIR)$(PREFIX)"

uninstall:
	rm -f $(DESTDIR)$(LIBDIR)/libgenalloc.a $(DESTDIR)$(LIBDIR)/libgenalloc.so \
		$(DESTDIR)$(LIBDIR)/$(SONAME) $(DESTDIR)$(LIBDIR)/libgenalloc.so.$(VERSION) \
		$(DESTDIR)$(PKGCONFIGDIR)/genalloc.pc \
		$(DESTDIR)$(CMAKEDIR)/genallocConfig.cmake $(DESTDIR)$(CMAKEDIR)/genallocConfigVersion.cmake \
		$(PUBLIC_HDRS:%=$(DESTDIR)$(INCLUDEDIR)/genalloc/%)
	@for p in $(MAN_PAGES); do \
		for n in $$($(call MAN_NAMES,$$p)); do rm -f $(DESTDIR)$(MANDIR)/man3/$$n.3; done; \
		rm -f $(DESTDIR)$(MANDIR)/man3/$$(basename $$p); done
	rm -f $(DOC_FILES:%=$(DESTDIR)$(DOCDIR)/%)
	@for d in $$(printf '%s\n' $(sort $(dir $(PUBLIC_HDRS))) | sort -r); do \
		rmdir $(DESTDIR)$(INCLUDEDIR)/genalloc/$$d 2>/dev/null || true; done
	@rmdir $(DESTDIR)$(INCLUDEDIR)/genalloc $(DESTDIR)$(CMAKEDIR) 2>/dev/null || true
	@rmdir $(DESTDIR)$(DOCDIR)/LICENSES $(DESTDIR)$(DOCDIR)/docs $(DESTDIR)$(DOCDIR) 2>/dev/null || true

# Install into a scratch DESTDIR, build and run the consumers of
# test/install/ against that copy (pkg-config, shared and static; CMake),
# then uninstall and check that nothing is left.
check-install: $(LIB_A) $(LIB_SO) | deps-pkg-config deps-cmake deps-mandoc
	@CC='$(CC)' MAKE='$(MAKE)' VARIANT='$(VARIANT)' bash test/install/run.sh

clean:
	rm -rf build

help-core:
	@echo 'Targets:'
	@echo '  all (default)   build/libgenalloc.a and build/libgenalloc.so, examples, benches'
	@echo '  lib             the static and shared library alone, in build/VARIANT/'
	@echo '  check           run every Check suite and the examples (installs Check if root)'
	@echo '                  and each check-* below marked (make check), which also run alone'
	@echo '  check-asan      the same under AddressSanitizer + UBSan'
	@echo '  check-tsan      the same under ThreadSanitizer, with the long stress runs'
	@echo '  check-valgrind  the same under valgrind (memcheck, leak check)'
	@echo '  check-includes  every #include against test/include-rules.txt (make check)'
	@echo '  check-deps      each deps-* target with its tool hidden (make check)'
	@echo '  check-man       mandoc lint of man/, and a page for every public call (make check)'
	@echo '  check-misuse-doc  every test docs/misuse.md names exists (make check)'
	@echo '  check-minimal-readme  README'"'"'s copies of examples/minimal/ are the files (make check)'
	@echo '  check-bench-results  bench/results.sh on test/docs/results/ (make check)'
	@echo '  check-install   install into a scratch DESTDIR, build and run consumers with'
	@echo '                  pkg-config and CMake, check the manual, uninstall; run README'"'"'s'
	@echo '                  quick start in a scratch home (needs pkg-config, cmake, mandoc)'
	@echo '  coverage        line and branch coverage of the library: build/coverage/html/'
	@echo '  install         the library, headers, genalloc.pc, CMake package, manual pages'
	@echo '                  and README, LICENSE, docs/; PREFIX, DESTDIR, LIBDIR, INCLUDEDIR,'
	@echo '                  MANDIR, DOCDIR honoured'
	@echo '  uninstall       remove what install put in place'
	@echo '  deps-NAME       install a tool the targets need (check, lcov, valgrind, gnuplot,'
	@echo '                  cxx, cmake, jq, xmllint, pkg-config, mandoc, fuzzer) if root'
	@echo '  clean           remove build/'
	@echo '  help            this list'
	@echo 'Variables: VARIANT=release|checked|debug|asan|tsan|coverage  CC=gcc|clang  SUITE=<name>'
	@echo '           CK_TIMEOUT=<n> (Check timeouts times n; slow variants set their own)'

-include $(LIB_OBJS:.o=.d) $(TEST_OBJS:.o=.d)
