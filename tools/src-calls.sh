#!/bin/sh
# tools/src-calls.sh - the collector functions src/ calls (issue 34): the
# functions declared in collectors/**.h whose names appear in src/*.c, comments
# left out. src/ reaches the live sources through their list
# (src/sourcelist.c, collectors/source.h); this keeps that so.
#
#   sh tools/src-calls.sh [-v] [MAX]    (-v: each name and the files; MAX: exit 1 above it)
cd "$(dirname "$0")/.." || exit 2
verbose=0
[ "${1:-}" = -v ] && { verbose=1; shift; }
max=${1:-}
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
ctags -x --c-kinds=p collectors/*.h collectors/*/*.h | awk '{ print $1 }' | sort -u >"$tmp/fns"
for f in src/*.c; do
	cpp -fpreprocessed -P -w "$f" 2>/dev/null >"$tmp/$(basename "$f")"
done
n=0
while read -r fn; do
	files=$(cd "$tmp" && grep -lw -- "$fn" ./*.c 2>/dev/null | sed 's|^\./||' | tr '\n' ' ')
	[ -n "$files" ] || continue
	n=$((n + 1))
	[ "$verbose" = 1 ] && echo "$fn: $files"
done <"$tmp/fns"
echo "src-calls: $n collector functions called from src/"
[ -z "$max" ] || [ "$n" -le "$max" ]
