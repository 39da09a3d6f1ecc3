#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
# test/bench/tracer_cli.sh - libgenalloc-trace.so records a small program
# whose requests are known (test/bench/tracee/main.c), genalloc-compare
# replays the trace, and tracing a wrapper script warns.
#
# Usage: sh test/bench/tracer_cli.sh TRACER.so TRACEE genalloc-compare
set -eu
tracer=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
tracee=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
compare=$3
tmp=$(mktemp -d "${TMPDIR:-/tmp}/genalloc-tracer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "tracer_cli: FAIL: $*" >&2; exit 1; }

GENALLOC_TRACE="$tmp/t.trace" LD_PRELOAD="$tracer" "$tracee" 2> "$tmp/err" ||
	fail "the traced program failed"
[ ! -s "$tmp/err" ] || fail "warnings on a plain program: $(cat "$tmp/err")"
sizes=$(awk '$1 == "a" { printf "%s ", $3 }' "$tmp/t.trace")
[ "$sizes" = "100 5000 80 300 " ] || fail "allocations recorded: '$sizes'"
[ "$(grep -c '^f ' "$tmp/t.trace")" = 4 ] || fail "not four frees"
# A moved realloc is written new block first: 100 + 5000 + 80 + 300 live at once.
peak=5380
awk '$1 == "a" && $3 == 300 { exit !(prev == "a") } { prev = $1 }' "$tmp/t.trace" && peak=5480

"$compare" -w "$tmp/t.trace" -e buddy,ff8 -r arena -R 1 -P -q -o "$tmp/out" > /dev/null ||
	fail "genalloc-compare refused the trace"
awk -F, -v peak=$peak 'NR > 1 && !($5 == 4 && $6 == 4 && $10 == peak) { bad = 1 }
	END { exit bad || NR != 3 }' "$tmp/out/arena.csv" ||
	fail "replay: want 4 allocations, 4 frees, peak live $peak: $(cat "$tmp/out/arena.csv")"

# Through a wrapper script, only the shell is traced: it must say so.
printf '#!/bin/sh\nexec "%s"\n' "$tracee" > "$tmp/wrapper"
chmod +x "$tmp/wrapper"
GENALLOC_TRACE="$tmp/w.trace" LD_PRELOAD="$tracer" "$tmp/wrapper" 2> "$tmp/err" ||
	fail "the wrapper failed"
grep -q "libgenalloc-trace: warning: tracing the shell" "$tmp/err" ||
	fail "no warning for a wrapper script: '$(cat "$tmp/err")'"
echo "tracer_cli: ok"
