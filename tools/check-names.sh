#!/bin/sh
# tools/check-names.sh [-v] - one vocabulary (issue 34), run by tools/check-layout.sh:
#
#  1. Of the functions declared in the headers of lib/, model/, tables/, store/
#     and collectors/ (its source folders too), at least 90% carry their file's
#     name: the function's name starts with the header's base name, or the base
#     name starts with the function's name, or the function starts with a prefix
#     that tools/names-aliases.txt gives that header (catalogs such as lib/util).
#  2. No two source files share a name (collectors/cgres.c and model/cgres.c did).
#  3. A header's opening comment (the comments before its first declaration)
#     names only paths that exist (a path without its .c/.h names a module;
#     one with a capital letter is a pattern: collectors/X_source.c).
#
# Prints one line per breach (-v: the rate, and every function without its
# file's name) and exits 1; nothing and 0 when all hold.
cd "$(dirname "$0")/.." || exit 2
verbose=0
[ "${1:-}" = -v ] && verbose=1
MIN=90
bad=0

# 1. The names rate.
if command -v ctags >/dev/null 2>&1; then
	hdrs=$(ls lib/*.h model/*.h tables/*.h store/*.h collectors/*.h collectors/*/*.h 2>/dev/null)
	# shellcheck disable=SC2086
	ctags -x --c-kinds=p $hdrs | awk -v min="$MIN" -v verbose="$verbose" '
		FNR == NR {
			sub(/#.*/, "")
			for (i = 2; i <= NF; i++)
				alias[$1, ++nalias[$1]] = $i
			next
		}
		{
			fn = $1; h = $4; base = h
			sub(/.*\//, "", base); sub(/\.h$/, "", base)
			tot++
			if (index(fn, base) == 1 || index(base, fn) == 1) { ok++; next }
			for (i = 1; i <= nalias[h]; i++)
				if (index(fn, alias[h, i]) == 1) { ok++; aliased++; next }
			off[++noff] = h " " fn
		}
		END {
			if (!tot) exit 0
			pct = 100 * ok / tot
			low = pct < min
			if (verbose || low)
				printf "names: %d of %d functions (%.1f%%) carry their file'"'"'s name (%d by tools/names-aliases.txt); at least %d%% wanted\n", ok, tot, pct, aliased, min
			if (verbose || low)
				for (i = 1; i <= noff; i++)
					print "names:   " off[i]
			exit low
		}' tools/names-aliases.txt - || bad=1
fi

# 2. No two source files of one name.
dups=$(find lib model tables store collectors views outputs src tests bench tools \
	-name '*.[ch]' -not -path 'tests/fuzz/corpus/*' 2>/dev/null |
	awk '{ b = $0; sub(/.*\//, "", b); n[b]++; w[b] = w[b] " " $0 } END { for (b in n) if (n[b] > 1) print b ":" w[b] }')
if [ -n "$dups" ]; then
	echo "$dups" | sed 's/^/names: two source files of one name: /'
	bad=1
fi

# 3. Header openings name paths that exist.
for h in $(find lib model tables store collectors views outputs src -name '*.h' | sort); do
	awk '
		/^[[:space:]]*$/ || /^[[:space:]]*#/ { next }
		incomment { print; if (/\*\//) incomment = 0; next }
		/^[[:space:]]*\/\*/ { print; if (!/\*\//) incomment = 1; next }
		/^[[:space:]]*\/\// { print; next }
		{ exit }' "$h" |
	grep -oE '(^|[^[:alnum:]_/.-])(lib|model|tables|store|collectors|views|outputs|src|tests|tools|bench|man|themes|contrib)/[[:alnum:]_./-]*[[:alnum:]_]' |
	sed 's/^[^a-z]//' | grep -v '[A-Z]' | sort -u |
	while read -r p; do
		[ -e "$p" ] || [ -e "$p.c" ] || [ -e "$p.h" ] ||
			echo "names: $h: its opening names $p, which does not exist"
	done
done | grep . && bad=1

exit "$bad"
