#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# test/deps/test_deps.sh - every deps-NAME target of the Makefile, with its
# tool hidden.  For each tool, three runs of "make deps-NAME":
#   - as root, with an apt-get that installs: the install is attempted with
#     exactly the expected packages, and the target then passes;
#   - as root, with an apt-get that succeeds but installs nothing: the
#     target fails and says the tool is still missing;
#   - as another user: the target fails at once, prints the exact
#     "sudo apt-get install ..." command, and never calls apt-get.
# Nothing here installs anything: apt-get and id are stubs, and each tool
# is hidden by a PATH that lacks it (or, for Check, an empty
# PKG_CONFIG_LIBDIR).  Run by "make check" from the repository's root.
set -u

top=$(pwd)
make_bin=$(command -v "${MAKE:-make}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# A bin directory holding every command of the real PATH but the hidden
# ones (and the real apt-get and id, which the stubs replace): one ln for
# all of them, the first of each name on PATH winning, as on PATH.
bare_path() {
	local dir=$work/bare-$1 d f n
	shift
	local -A seen=([apt-get]=1 [apt]=1 [id]=1)
	local links=()
	for n in "$@"; do seen[$n]=1; done
	if [ ! -d "$dir" ]; then
		mkdir -p "$dir"
		IFS=: read -r -a dirs <<<"$PATH"
		for d in "${dirs[@]}"; do
			[ -d "$d" ] || continue
			for f in "$d"/*; do
				n=${f##*/}
				if [ -n "${seen[$n]:-}" ] || [ ! -x "$f" ]; then
					continue
				fi
				seen[$n]=1
				links+=("$f")
			done
		done
		ln -s -t "$dir" "${links[@]}"
	fi
	echo "$dir"
}

# The stubs: id answers $STUB_UID; apt-get logs its arguments and, unless
# STUB_APT=noop, "installs" each package by putting a stand-in in place.
make_stubs() {
	local stub=$work/stub
	mkdir -p "$stub"
	cat >"$stub/id" <<'EOS'
#!/bin/sh
[ "$1" = -u ] && { echo "$STUB_UID"; exit 0; }
exec /usr/bin/id "$@"
EOS
	cat >"$stub/apt-get" <<'EOS'
#!/bin/bash
echo "$*" >>"$STUB_LOG"
[ "$1" = install ] || exit 0
[ "$STUB_APT" = noop ] && exit 0
for p in "$@"; do
	case $p in
	-*|install) ;;
	check) cp "$STUB_CHECK_PC" "$PKG_CONFIG_LIBDIR/" ;;
	libsubunit-dev) cp "$STUB_SUBUNIT_PC" "$PKG_CONFIG_LIBDIR/" ;;
	lcov) printf '#!/bin/sh\n' >"$STUB_BIN/lcov"; printf '#!/bin/sh\n' >"$STUB_BIN/genhtml" ;;
	gnuplot-nox) printf '#!/bin/sh\ncat >/dev/null\n' >"$STUB_BIN/gnuplot" ;;
	libxml2-utils) printf '#!/bin/sh\n' >"$STUB_BIN/xmllint" ;;
	pkg-config) printf '#!/bin/sh\nexec %s "$@"\n' "$STUB_REAL_PKG_CONFIG" >"$STUB_BIN/pkg-config" ;;
	libclang-rt-*-dev) touch "$STUB_BIN/.fuzzer-runtime" ;;
	*) printf '#!/bin/sh\n' >"$STUB_BIN/$p" ;;
	esac
done
chmod +x "$STUB_BIN"/* 2>/dev/null
exit 0
EOS
	# A clang whose libFuzzer runtime is missing until it is "installed".
	cat >"$stub/fake-clang" <<'EOS'
#!/bin/sh
case " $* " in
*" --version "*) echo "Debian clang version 14.0.6"; exit 0 ;;
*-fsanitize=fuzzer*) [ -e "$STUB_BIN/.fuzzer-runtime" ] && exit 0
	echo "ld: cannot find libclang_rt.fuzzer-x86_64.a" >&2; exit 1 ;;
esac
exit 0
EOS
	chmod +x "$stub"/*
	echo "$stub"
}

stub=$(make_stubs)
real_pc_libdir=$(pkg-config --variable pc_path pkg-config 2>/dev/null)
check_pc=$(PKG_CONFIG_PATH="" pkg-config --path check 2>/dev/null || true)
subunit_pc=$(PKG_CONFIG_PATH="" pkg-config --path libsubunit 2>/dev/null || true)

# run TARGET UID APT HIDDEN-TOOLS... : one make run; its output in $work/out.
run() {
	local target=$1 uid=$2 apt=$3
	shift 3
	local bare
	bare=$(bare_path "$target-${*// /-}" "$@")
	rm -rf "${work:?}/bin" "$work/pc" "$work/log"
	mkdir -p "$work/bin" "$work/pc"
	: >"$work/log"
	env PATH="$work/bin:$stub:$bare" STUB_UID="$uid" STUB_APT="$apt" STUB_LOG="$work/log" \
		STUB_BIN="$work/bin" STUB_CHECK_PC="$check_pc" STUB_SUBUNIT_PC="$subunit_pc" \
		STUB_REAL_PKG_CONFIG="$(command -v pkg-config)" \
		PKG_CONFIG_LIBDIR="${PC_LIBDIR:-$real_pc_libdir}" PKG_CONFIG_PATH="" \
		"$make_bin" --no-print-directory -s -C "$top" "$target" "${EXTRA[@]}" >"$work/out" 2>&1
}

ok() {
	passed=$((passed + 1))
}

bad() {
	failed=$((failed + 1))
	echo "FAIL: $*"
	sed 's/^/    | /' "$work/out"
}

# expect TARGET 'PACKAGES' HIDDEN-TOOLS...
expect() {
	local target=$1 pkgs=$2
	shift 2

	if run "$target" 0 install "$@"; then
		if grep -qx "install -y -qq --no-install-recommends $pkgs" "$work/log"; then
			ok
		else
			bad "$target as root: apt-get was asked for '$(grep install "$work/log")', not '$pkgs'"
		fi
	else
		bad "$target as root: failed although apt-get installed $pkgs"
	fi

	if run "$target" 0 noop "$@"; then
		bad "$target as root: passed although apt-get installed nothing"
	elif grep -q "still missing" "$work/out"; then
		ok
	else
		bad "$target as root: failed without saying the tool is still missing"
	fi

	if run "$target" 1000 install "$@"; then
		bad "$target as a user: passed with the tool hidden"
	elif ! grep -q "Run: sudo apt-get install $pkgs\$" "$work/out"; then
		bad "$target as a user: no 'Run: sudo apt-get install $pkgs' line"
	elif [ -s "$work/log" ]; then
		bad "$target as a user: called apt-get ($(cat "$work/log"))"
	else
		ok
	fi
}

EXTRA=()
if [ -n "$check_pc" ] && [ -n "$subunit_pc" ]; then
	PC_LIBDIR=$work/pc expect deps-check 'check libsubunit-dev pkg-config'
else
	echo "SKIP: deps-check with Check hidden (no check.pc to stand in for the install)"
fi
expect deps-check 'check libsubunit-dev pkg-config' pkg-config
expect deps-pkg-config 'pkg-config' pkg-config
expect deps-lcov 'lcov' lcov genhtml
expect deps-valgrind 'valgrind' valgrind
expect deps-gnuplot 'gnuplot-nox' gnuplot
expect deps-cmake 'cmake' cmake
expect deps-jq 'jq' jq
expect deps-xmllint 'libxml2-utils' xmllint
expect deps-mandoc 'mandoc' mandoc
EXTRA=(CC=gcc CXX=g++)
expect deps-cxx 'g++' g++
EXTRA=(FUZZ_CC=fake-clang)
expect deps-fuzzer 'clang libclang-rt-14-dev'

echo "deps: $passed passed, $failed failed"
[ "$failed" = 0 ]
