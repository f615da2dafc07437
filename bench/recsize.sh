#!/bin/sh
# bench/recsize.sh [KTOP...] - the bytes a recording takes on issue 22's
# workload, side by side with atop -w and between ktop builds.
#
# The workload: BENCH_RS_IDLE (1000) idle processes (bench/idle.c) beside a
# shell running `ls -la /usr/share/doc` in a loop without pause. Each ktop
# given (default ./ktop; e.g. a build of the commit before to compare with)
# records `ktop -b -w FILE` at the same time as `atop -w` on the same
# machine, for each interval in BENCH_RS_DELAYS ("1 10"): at 1 s
# BENCH_RS_N1 (16) intervals, at 10 s BENCH_RS_N10 (6). Tracing is on (root):
# every short-lived ls is recorded with its system calls.
#
# Printed per delay and build: the whole file (ktop: after it exits, the
# WAL checkpointed; atop: its raw file), and the growth from the end of the
# first interval to the last (what the intervals cost without the files'
# fixed part: ktop's schema and name tables, atop's header), and ktop/atop
# for both. Target (issue 22): at 1 s, ktop <= 0.5 x atop; at 10 s no worse
# than the build before.
#
# Needs root (tracing, atop), atop (sh tools/deps.sh bench installs it) and
# sqlite3. Everything started here is killed by pid on exit.
set -u
cd "$(dirname "$0")/.." || exit 2

IDLE=${BENCH_RS_IDLE:-1000}
DELAYS=${BENCH_RS_DELAYS:-"1 10"}
N1=${BENCH_RS_N1:-16}
N10=${BENCH_RS_N10:-6}
CC=${CC:-cc}
B=build/bench

die() {
	echo "bench/recsize: $*" >&2
	exit 2
}

[ "$(id -u)" -eq 0 ] || die "needs root (ktop's tracing, atop)"
command -v atop >/dev/null 2>&1 || die "atop not found (sh tools/deps.sh bench)"
command -v sqlite3 >/dev/null 2>&1 || die "sqlite3 not found"
[ $# -gt 0 ] || set -- ./ktop
for k in "$@"; do
	[ -x "$k" ] || die "$k is not built"
done
mkdir -p "$B" || die "cannot create $B"
$CC -std=gnu11 -O2 -Wall -Wextra -o "$B/idle" bench/idle.c || die "cannot build $B/idle"

T=$(mktemp -d /tmp/ktop-bench-recsize.XXXXXX) || die "mktemp failed"
. bench/procs.sh
cleanup() {
	pids_kill
	idle_kill
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# db_bytes FILE: what the database holds now (its pages), WAL included.
db_bytes() {
	sqlite3 "file:$1?mode=ro" 'SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()' 2>/dev/null || echo 0
}

# wait_intervals FILE N: until the recording has N intervals.
wait_intervals() {
	while [ "$(sqlite3 "file:$1?mode=ro" 'SELECT count(*) FROM interval' 2>/dev/null || echo 0)" -lt "$2" ]; do
		sleep 0.1
	done
}

spawn_to "$IDLE"
sh -c 'while :; do ls -la /usr/share/doc >/dev/null; done' </dev/null >/dev/null 2>&1 &
PIDS="$PIDS $!"
verdicts=""
for d in $DELAYS; do
	n=$N1
	[ "$d" -eq 1 ] || n=$N10
	echo "# ${d} s interval, $n intervals, $IDLE idle processes + ls -la /usr/share/doc in a loop"
	printf '%-28s %12s %12s %10s %10s\n' recorder file_bytes growth file/atop growth/atop
	i=0
	for k in "$@"; do
		i=$((i + 1))
		rm -f "$T"/k.db* "$T/a.raw"
		atop -w "$T/a.raw" "$d" $((n + 1)) </dev/null >/dev/null 2>&1 &
		apid=$!
		"$k" -b -d "$d" -n "$n" -w "$T/k.db" </dev/null >/dev/null 2>"$T/k.err" &
		kpid=$!
		# the first interval of each written: the growth counts from there
		wait_intervals "$T/k.db" 1
		k0=$(db_bytes "$T/k.db")
		while [ ! -s "$T/a.raw" ]; do sleep 0.1; done
		a0=$(stat -c %s "$T/a.raw")
		wait "$kpid" || die "$k -b -w failed: $(cat "$T/k.err")"
		wait "$apid"
		k1=$(stat -c %s "$T/k.db")
		a1=$(stat -c %s "$T/a.raw")
		awk -v k="$k" -v k0="$k0" -v k1="$k1" -v a0="$a0" -v a1="$a1" 'BEGIN {
			printf "%-28s %12d %12d %10.3f %10.3f\n", "atop -w", a1, a1 - a0, 1, 1
			printf "%-28s %12d %12d %10.3f %10.3f\n", k, k1, k1 - k0, k1 / a1, (k1 - k0) / (a1 - a0) }'
		eval "file_$i=$k1 grow_$i=$((k1 - k0)) afile_$i=$a1 agrow_$i=$((a1 - a0))"
	done
	eval "f=\$file_$i a=\$afile_$i"
	if [ "$d" -eq 1 ]; then
		verdicts="$verdicts$(awk -v f="$f" -v a="$a" 'BEGIN { printf "%s 1 s: %s file/atop = %.3f (target <= 0.5)\n", (f <= 0.5 * a ? "PASS" : "FAIL"), "'"$k"'", f / a }')
"
	elif [ $# -gt 1 ]; then
		eval "f0=\$file_1"
		verdicts="$verdicts$(awk -v f="$f" -v f0="$f0" 'BEGIN { printf "%s %d s: %s %d bytes, %s %d (target: no more)\n", (f <= f0 ? "PASS" : "FAIL"), '"$d"', "'"$k"'", f, "'"$1"'", f0 }')
"
	fi
done
printf '%s' "$verdicts"
case "$verdicts" in
*FAIL*) exit 1 ;;
esac
exit 0
