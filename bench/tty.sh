#!/bin/sh
# bench/tty.sh - bytes written to the terminal per steady-state refresh, ktop
# (as root: tracing, its default columns), htop and top side by side, each in
# a pseudo-terminal of its own (bench/ttybytes.py), at 80x24 and 200x50, one
# refresh a second. PASS when ktop's median is at most htop's at both sizes.
# Exit status 1 on FAIL, 2 when it cannot run. Knobs: TTY_SECONDS=20 (measured),
# TTY_WARMUP=4, TTY_SIZES="80x24 200x50", TTY_TERM=xterm-256color.
set -u
cd "$(dirname "$0")/.." || exit 2
[ -x ./ktop ] || { echo "tty: ./ktop is not built" >&2; exit 2; }
for p in htop top python3; do
	command -v "$p" >/dev/null 2>&1 || { echo "tty: $p not found (sh tools/deps.sh bench)" >&2; exit 2; }
done
out=$(mktemp /tmp/ktop-tty.XXXXXX)
trap 'rm -f "$out"' EXIT
status=0
for size in ${TTY_SIZES:-80x24 200x50}; do
	python3 bench/ttybytes.py --size "$size" --seconds "${TTY_SECONDS:-20}" \
		--warmup "${TTY_WARMUP:-4}" --term "${TTY_TERM:-xterm-256color}" \
		ktop='./ktop -d {delay}' htop='htop -d {tenths}' top='top -d {delay}' >"$out" || exit 2
	cat "$out"
	awk -v size="$size" '$1 == "ktop" { k = $3 } $1 == "htop" { h = $3 }
		END { ok = k != "" && h != "" && k + 0 <= h + 0
			printf "%s: %s ktop %s bytes/refresh, htop %s\n", ok ? "PASS" : "FAIL", size, k, h
			exit !ok }' "$out" || status=1
done
exit $status
