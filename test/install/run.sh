#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# test/install/run.sh - "make check-install": install into a scratch
# DESTDIR, build test/install/consumer.c outside the tree the ways README
# documents (pkg-config shared and static, CMake's genalloc::genalloc and
# genalloc::genalloc_static), run each, check the manual pages and
# documents, then uninstall and check that no file is left; and run
# README's quick start.  CC, MAKE and VARIANT come from the calling make.
set -euo pipefail

cc=${CC:-cc}
make=${MAKE:-make}
variant=${VARIANT:-release}
src=$(cd "$(dirname "$0")" && pwd)
top=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dest=$work/dest
prefix=/opt/genalloc
root=$dest$prefix
passed=0

ok() {
	echo "check-install: $*: ok"
	passed=$((passed + 1))
}

"$make" --no-print-directory install DESTDIR="$dest" PREFIX="$prefix" CC="$cc" VARIANT="$variant"

# The installed library is the one CC built, not another compiler's.
so=$(ls "$root"/lib/libgenalloc.so.*.*.*)
# grep without -q: under pipefail, a grep that stops reading early fails
# the pipeline when its writer meets the closed pipe.
if "$cc" --version | grep clang >/dev/null; then want=clang; else want=GCC; fi
if ! readelf -p .comment "$so" | grep "$want" >/dev/null; then
	echo "check-install: $so was not built by $cc:" >&2
	readelf -p .comment "$so" >&2
	exit 1
fi
ok "the installed library was built by $cc"

# Every installed header compiles on its own against the installed tree:
# none needs a header that was not installed, and each gives the version
# (common/version.h says every public header includes it).
n=0
while IFS= read -r h; do
	printf '#include "%s"\n#ifndef GENALLOC_VERSION_STRING\n#error no version\n#endif\n' \
		"${h#"$root/include/genalloc/"}" |
		"$cc" -std=c11 -fsyntax-only -I"$root/include/genalloc" -x c - \
		|| { echo "check-install: $h does not compile on its own, or gives no version" >&2; exit 1; }
	n=$((n + 1))
done < <(find "$root/include/genalloc" -name '*.h')
ok "each of the $n installed headers compiles on its own and gives the version"

version=$(sed -n 's/^Version: //p' "$root/lib/pkgconfig/genalloc.pc")

# pkg-config, as README shows it; the sysroot stands for DESTDIR.
export PKG_CONFIG_PATH="" PKG_CONFIG_LIBDIR="$root/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest"
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
"$cc" -o "$work/pc-shared" "$src/consumer.c" $(pkg-config --cflags --libs genalloc)
LD_LIBRARY_PATH="$root/lib" "$work/pc-shared"
LD_LIBRARY_PATH="$root/lib" ldd "$work/pc-shared" | grep "$root/lib/libgenalloc.so" >/dev/null \
	|| { echo "check-install: pc-shared does not load the installed libgenalloc.so" >&2; exit 1; }
ok "pkg-config, shared"

# shellcheck disable=SC2046
"$cc" -static -o "$work/pc-static" "$src/consumer.c" $(pkg-config --static --cflags --libs genalloc)
"$work/pc-static"
ok "pkg-config --static, a static program"

# shellcheck disable=SC2046
"$cc" -o "$work/pc-libstatic" "$src/consumer.c" $(pkg-config --cflags genalloc) \
	$(pkg-config --libs-only-L genalloc) -l:libgenalloc.a $(pkg-config --static --libs-only-other genalloc)
if ldd "$work/pc-libstatic" | grep libgenalloc >/dev/null; then
	echo "check-install: pc-libstatic still needs libgenalloc.so" >&2
	exit 1
fi
"$work/pc-libstatic"
ok "pkg-config with the static library alone"

# CMake: find_package(genalloc MAJOR.MINOR CONFIG REQUIRED).
cmake -S "$src" -B "$work/cmake" -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$root" \
	-DGENALLOC_WANT="${version%.*}" >"$work/cmake.log" 2>&1 \
	|| { cat "$work/cmake.log" >&2; exit 1; }
cmake --build "$work/cmake" >>"$work/cmake.log" 2>&1 || { cat "$work/cmake.log" >&2; exit 1; }
"$work/cmake/app"
ok "CMake, genalloc::genalloc"
"$work/cmake/app_static"
ok "CMake, genalloc::genalloc_static"

# A newer release than this one is refused.
if cmake -S "$src" -B "$work/cmake-newer" -DCMAKE_C_COMPILER="$cc" -DCMAKE_PREFIX_PATH="$root" \
	-DGENALLOC_WANT="$((${version%%.*} + 1)).0" >"$work/cmake-newer.log" 2>&1; then
	echo "check-install: find_package accepted version $((${version%%.*} + 1)).0 of $version" >&2
	exit 1
fi
ok "CMake refuses a newer major version"

# The manual: a page or a link for every public call of the installed
# headers, each read by mandoc without a warning, and man's way in works:
# gen_pool_free(3) is the page of gen_pool_alloc(3).
man3=$root/share/man/man3
bash "$top/test/docs/man_names.sh" --installed "$man3" \
	$(find "$root/include/genalloc" -name '*.h' | sort)
mandoc -T lint -W warning "$man3"/*.3
mandoc -T ascii "$man3/gen_pool_free.3" | sed 's/.\x08//g' | grep 'gen_pool_free(struct gen_pool \*pool' >/dev/null \
	|| { echo "check-install: gen_pool_free(3) does not show its synopsis" >&2; exit 1; }
for f in README LICENSE LICENSES/GPL-2.0-only.txt LICENSES/BSD-2-Clause.txt docs/misuse.md; do
	cmp -s "$top/$f" "$root/share/doc/genalloc/$f" \
		|| { echo "check-install: share/doc/genalloc/$f is not $f" >&2; exit 1; }
done
ok "manual pages and links for every public call, and README, LICENSE and docs/ in share/doc"

"$make" --no-print-directory uninstall DESTDIR="$dest" PREFIX="$prefix" CC="$cc" VARIANT="$variant"
left=$(find "$dest" ! -type d)
if [ -n "$left" ]; then
	echo "check-install: uninstall left:" >&2
	echo "$left" >&2
	exit 1
fi
ok "uninstall removes every file"

# README's quick start, as a user types it, in a scratch home: its commands
# from "make install" on (the clone and the build are this tree), run in a
# copy of the tree's top made of links, so that ./hello lands there; then
# ./hello's output against the one README shows.
qs=$work/quickstart
mkdir -p "$qs/tree" "$qs/home"
for f in "$top"/* ; do ln -s "$f" "$qs/tree/"; done
awk '/^Quick start$/ { q = 1; next } q && /^    / { print substr($0, 5); b = 1; next } b { exit }' \
	"$top/README" > "$qs/commands"
awk '/^`\.\/hello` prints$/ { p = 1; next } p && /^    / { print substr($0, 5); b = 1; next } b { exit }' \
	"$top/README" > "$qs/want"
sed -n '/^make install /,$p' "$qs/commands" > "$qs/run"
if ! grep -q '^\./hello$' "$qs/run" || [ ! -s "$qs/want" ]; then
	echo "check-install: README's quick start has no install ... ./hello commands or no output" >&2
	exit 1
fi
(cd "$qs/tree" && unset PKG_CONFIG_LIBDIR PKG_CONFIG_SYSROOT_DIR MAKEFLAGS &&
	HOME=$qs/home bash -euo pipefail "$qs/run") > "$qs/got" 2> "$qs/err" \
	|| { echo "check-install: README's quick start failed:" >&2; cat "$qs/run" "$qs/err" >&2; exit 1; }
# make install's own lines come first; the program's line is the last.
if ! tail -n "$(wc -l < "$qs/want")" "$qs/got" | cmp -s - "$qs/want"; then
	echo "check-install: README's quick start printed:" >&2
	cat "$qs/got" >&2
	echo "where README says:" >&2
	cat "$qs/want" >&2
	exit 1
fi
ok "README's quick start, from make install to ./hello's output"
echo "check-install: $passed passed, 0 failed"
