#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause
#
# test/include-rules.sh - every quoted #include of the tree against
# test/include-rules.txt (who may include what) and
# test/include-exceptions.txt (what breaks the rules and is to go); run by
# "make check" from the top of the tree.  Prints each include that neither
# allows, and each exception that no include uses any more; exits 1 if
# there is one.
#
#   bash test/include-rules.sh [-v]     -v: also print every include checked
set -euo pipefail
shopt -s inherit_errexit
# The rules are patterns, never to be expanded against the files.
set -f

verbose=0
[ "${1:-}" = -v ] && verbose=1
rules_file=test/include-rules.txt
except_file=test/include-exceptions.txt
dirs=(common legacy modern device compat test bench examples)

declare -A sets=()
from=() allowed=()
while read -r first rest; do
	case $first in ''|'#'*) continue ;; esac
	if [[ $first == @* ]]; then
		# shellcheck disable=SC2086 # split into words, unexpanded (set -f)
		set -- $rest
		[ "${1:-}" = = ] || { echo "$rules_file: bad set line '$first $rest'" >&2; exit 2; }
		shift
		sets[$first]="$*"
		continue
	fi
	pats=""
	for p in $rest; do
		if [[ $p == @* ]]; then
			[ -n "${sets[$p]+x}" ] || { echo "$rules_file: unknown set $p" >&2; exit 2; }
			pats+=" ${sets[$p]}"
		else
			pats+=" $p"
		fi
	done
	from+=("$first")
	allowed+=("$pats")
done < <(sed 's/#.*//' "$rules_file")

declare -A except=() used=()
while read -r f h _; do
	case $f in ''|'#'*) continue ;; esac
	except["$f $h"]=1
done < "$except_file"

# $1 with its "." and ".." steps taken, as a path from the top, in $norm
# (no subshell: a fork an include made the check slow).
normalize() {
	local part out=()
	local IFS=/
	for part in $1; do
		case $part in
		''|.) ;;
		..) [ "${#out[@]}" -gt 0 ] && unset 'out[${#out[@]}-1]' ;;
		*) out+=("$part") ;;
		esac
	done
	norm="${out[*]}"
}

# Is $1 allowed to include $2 by a rule?
allowed_by_rules() {
	local i p
	for i in "${!from[@]}"; do
		# shellcheck disable=SC2053 # the rules are patterns
		[[ $1 == ${from[$i]} ]] || continue
		for p in ${allowed[$i]}; do
			# shellcheck disable=SC2053
			[[ $2 == $p ]] && return 0
		done
	done
	return 1
}

bad=0 n=0 norm=
# One grep over the tree: "FILE:HEADER" a line.
while IFS=: read -r file inc; do
	dir=${file%/*}
	if [ -e "$dir/$inc" ]; then
		normalize "$dir/$inc"
	elif [ -e "$inc" ]; then
		normalize "$inc"
	else
		continue	# generated (build/), or a system header in quotes
	fi
	target=$norm
	n=$((n + 1))
	[ "$verbose" = 1 ] && echo "$file $target"
	if [ -n "${except["$file $target"]+x}" ]; then
		used["$file $target"]=1
	elif ! allowed_by_rules "$file" "$target"; then
		echo "include-rules: $file includes $target, which $rules_file does not allow"
		bad=1
	fi
done < <(find "${dirs[@]}" -type f \( -name '*.c' -o -name '*.h' -o -name '*.cc' \) -print0 |
	 sort -z | xargs -0 grep -H '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' |
	 sed 's/^\([^:]*\):[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1:\2/')

for k in "${!except[@]}"; do
	if [ -z "${used[$k]+x}" ]; then
		echo "include-rules: '$k' in $except_file is no longer included: remove the line"
		bad=1
	fi
done
[ "$bad" = 0 ] && echo "include-rules: $n includes follow $rules_file (${#except[@]} listed exceptions)"
exit "$bad"
