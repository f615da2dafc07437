#!/bin/sh
# bench/record.sh - what recording costs (ktop -w) and how fast a replay starts
# and jumps (ktop -r), side by side with atop -w.
#
# 1. Bytes per hour at a 10 s interval, ktop -b -w against atop -w (Debian's
#    atop), recording at the same time on the same machine: BENCH_REC_IDLE
#    (1000) idle processes (bench/idle.c) plus a mixed workload: a shell loop of
#    short-lived commands (ls, cat and sleep every BENCH_REC_LOOP s, default 1:
#    3 process lives a second) and a busy server (bench/flood.c open: open +
#    read + close without pause), for BENCH_REC_SECS (600) s. ktop records
#    every process life, short-lived ones included, with its system calls;
#    atop (without its accounting daemon) none of those: the bytes per life
#    recorded are printed too, to scale to other rates.
#    Bytes/hour = the growth of each file between the first samples and the end
#    (ktop's from PRAGMA page_count, what the database holds; atop's file
#    size), scaled to an hour. Target: ktop <= 0.5 x atop.
# 2. Bytes per hour at a 1 s interval with BENCH_REC_IDLE1 (500) processes for
#    BENCH_REC_SECS1 (300) s, no workload (aim: <= 5 MB/h), and the recorder's
#    share of one core: its own CPU time (KTOP_STATS record_cpu_s, the time
#    record_tick takes) / the run's wall time (aim: <= 1%); ktop's whole CPU
#    share for scale.
# 3. CPU per refresh of ktop -b -w against ktop -b at BENCH_REC_PROCS ("1000
#    5000") idle processes, as bench/run.sh measures it: (cpu(-n 23) -
#    cpu(-n 3)) / 20 at -d 0.1, median of BENCH_REC_REPS (5); both write the
#    default text to /dev/null. Target: <= 1.15 x.
# 4. A 24-hour recording (BENCH_REC_HOURS), 10 s interval, BENCH_REC_GEN (1000)
#    processes, made by build/bench/recgen (bench/recgen.c, through the
#    recorder); the replay's first frame (open + the first interval applied)
#    and BENCH_REC_JUMPS (50) jumps to random times, timed in-process; and
#    ktop -r FILE -b -n 1 as a whole (start to exit). Targets: first frame
#    <= 200 ms, a jump <= 100 ms (the slowest).
#
# Ends with one PASS/FAIL line per target; exit status 0 when all pass, 1 when
# one fails, 2 when it could not run (not root, no atop, ktop or recgen not
# built: make ktop build/bench/recgen). Needs root (tracing, atop). Takes about
# 25 minutes at the defaults; BENCH_REC_SECS=60 BENCH_REC_SECS1=30
# BENCH_REC_PROCS=1000 BENCH_REC_HOURS=1 BENCH_REC_REPS=1 is a quick look.
# Everything started here is killed by pid on exit, Ctrl-C or SIGTERM.
set -u
cd "$(dirname "$0")/.." || exit 2

SECS=${BENCH_REC_SECS:-600}
LOOP=${BENCH_REC_LOOP:-1}
IDLE=${BENCH_REC_IDLE:-1000}
SECS1=${BENCH_REC_SECS1:-300}
IDLE1=${BENCH_REC_IDLE1:-500}
PROCS=${BENCH_REC_PROCS:-"1000 5000"}
REPS=${BENCH_REC_REPS:-5}
HOURS=${BENCH_REC_HOURS:-24}
GEN=${BENCH_REC_GEN:-1000}
JUMPS=${BENCH_REC_JUMPS:-50}
CC=${CC:-cc}
B=build/bench
KTOP=./ktop

die() {
	echo "bench/record: $*" >&2
	exit 2
}

[ "$(id -u)" -eq 0 ] || die "needs root (ktop's tracing, atop)"
[ -x "$KTOP" ] || die "./ktop is not built (make ktop)"
[ -x "$B/recgen" ] || die "$B/recgen is not built (make $B/recgen)"
command -v atop >/dev/null 2>&1 || die "atop not found (apt-get install atop)"
command -v sqlite3 >/dev/null 2>&1 || die "sqlite3 not found (apt-get install sqlite3)"
mkdir -p "$B" || die "cannot create $B"
for p in idle cputime flood; do
	$CC -std=gnu11 -O2 -Wall -Wextra -o "$B/$p" "bench/$p.c" || die "cannot build $B/$p"
done

T=$(mktemp -d /tmp/ktop-bench-record.XXXXXX) || die "mktemp failed"
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

# The idle processes (spawn_to N) and the workloads (PIDS), ended.
stop_bg() {
	pids_kill
	idle_kill
}

# db_bytes FILE: what the database holds now (its pages), WAL included.
db_bytes() {
	sqlite3 "file:$1?mode=ro" 'SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()' 2>/dev/null || echo 0
}

# median of the numbers on stdin
median() {
	sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else print 0 }'
}

verdicts=""
verdict() {
	verdicts="$verdicts$1
"
}

echo "# 1. bytes per hour at 10 s: ktop -b -w vs atop -w, $IDLE idle processes + short-lived commands (every $LOOP s) + a busy server, ${SECS} s"
spawn_to "$IDLE"
sh -c "while :; do ls /usr/bin >/dev/null; cat /etc/hostname >/dev/null; sleep $LOOP; done" \
	</dev/null >/dev/null 2>&1 &
PIDS="$PIDS $!"
"$B/flood" open $((SECS + 60)) /dev/shm 1 >/dev/null 2>&1 &
PIDS="$PIDS $!"
atop -w "$T/a.raw" 10 </dev/null >/dev/null 2>&1 &
apid=$!
"$KTOP" -b -d 10 -w "$T/k.db" </dev/null >/dev/null 2>"$T/k.err" &
kpid=$!
sleep 25
a0=$(stat -c %s "$T/a.raw")
k0=$(db_bytes "$T/k.db")
sleep "$SECS"
a1=$(stat -c %s "$T/a.raw")
k1=$(db_bytes "$T/k.db")
kill "$apid" "$kpid" 2>/dev/null
wait "$apid" 2>/dev/null
wait "$kpid" 2>/dev/null
stop_bg
ab=$(awk -v a="$a0" -v b="$a1" -v s="$SECS" 'BEGIN { printf "%.0f", (b - a) * 3600 / s }')
kb=$(awk -v a="$k0" -v b="$k1" -v s="$SECS" 'BEGIN { printf "%.0f", (b - a) * 3600 / s }')
ratio=$(awk -v a="$ab" -v k="$kb" 'BEGIN { printf "%.3f", (a > 0 ? k / a : 0) }')
kprocs=$(sqlite3 "file:$T/k.db?mode=ro" 'SELECT count(*) FROM proc' 2>/dev/null)
life=$(awk -v a="$k0" -v b="$k1" -v n="$kprocs" -v i="$IDLE" 'BEGIN { printf "%.0f", (n > i ? (b - a) / (n - i) : 0) }')
echo "atop: $ab bytes/hour; ktop: $kb bytes/hour ($kprocs process lives recorded, each with its system calls: about $life bytes a short-lived one); ktop/atop = $ratio"
[ "$ab" -gt 0 ] || die "atop wrote nothing"
verdict "$(awk -v r="$ratio" 'BEGIN { print (r <= 0.5 ? "PASS" : "FAIL") }') bytes/hour at 10 s: ktop/atop = $ratio (target <= 0.5)"

echo "# 2. bytes per hour at 1 s, $IDLE1 idle processes, ${SECS1} s; the recorder's share of a core"
spawn_to "$IDLE1"
KTOP_STATS=1 "$B/cputime" "$KTOP" -b -d 1 -n "$SECS1" -w "$T/one.db" >"$T/one.cpu" 2>"$T/one.err" &
cpid=$!
sleep 12
k0=$(db_bytes "$T/one.db")
wait "$cpid"
k1=$(db_bytes "$T/one.db")
stop_bg
read -r u s _ wall _ <"$T/one.cpu"
rec=$(sed -n 's/.*record_cpu_s=\([0-9.]*\).*/\1/p' "$T/one.err")
mbh=$(awk -v a="$k0" -v b="$k1" -v s="$SECS1" 'BEGIN { printf "%.2f", (b - a) * 3600 / (s - 12) / 1e6 }')
share=$(awk -v r="${rec:-0}" -v w="$wall" 'BEGIN { printf "%.3f", 100 * r / (w / 1e6) }')
whole=$(awk -v u="$u" -v s="$s" -v w="$wall" 'BEGIN { printf "%.2f", 100 * (u + s) / w }')
echo "ktop -b -d 1 -w: $mbh MB/hour; the recorder $share% of a core (ktop as a whole $whole%)"
verdict "$(awk -v m="$mbh" 'BEGIN { print (m <= 5 ? "PASS" : "FAIL") }') bytes/hour at 1 s x $IDLE1 processes: $mbh MB/h (aim <= 5)"
verdict "$(awk -v m="$share" 'BEGIN { print (m <= 1 ? "PASS" : "FAIL") }') the recorder's share of a core: $share% (aim <= 1%)"

echo "# 3. CPU per refresh, ktop -b -w vs ktop -b (median of $REPS)"
printf '%-6s %-10s %14s\n' procs tool cpu_ms/refresh
worst=0
for n in $PROCS; do
	spawn_to "$n"
	for tool in plain rec; do
		: >"$T/cpu.$tool"
	done
	r=0
	while [ $r -lt "$REPS" ]; do
		for tool in plain rec; do
			for len in 3 23; do
				rm -f "$T"/c.db*
				if [ $tool = rec ]; then
					set -- -w "$T/c.db"
				else
					set --
				fi
				"$B/cputime" "$KTOP" -b -d 0.1 -n $len --output /dev/null "$@" >"$T/c.$len" ||
					die "ktop -b $* failed"
			done
			read -r u3 s3 _ <"$T/c.3"
			read -r u23 s23 _ <"$T/c.23"
			echo $(((u23 + s23 - u3 - s3) / 20)) >>"$T/cpu.$tool"
		done
		r=$((r + 1))
	done
	p=$(median <"$T/cpu.plain")
	w=$(median <"$T/cpu.rec")
	printf '%-6s %-10s %14.2f\n' "$n" "ktop -b" "$(echo "$p" | awk '{ print $1 / 1000 }')"
	printf '%-6s %-10s %14.2f\n' "$n" "ktop -b -w" "$(echo "$w" | awk '{ print $1 / 1000 }')"
	ratio=$(awk -v p="$p" -v w="$w" 'BEGIN { printf "%.3f", (p > 0 ? w / p : 0) }')
	echo "$n processes: -b -w / -b = $ratio"
	worst=$(awk -v a="$worst" -v b="$ratio" 'BEGIN { print (b > a ? b : a) }')
	stop_bg
done
verdict "$(awk -v r="$worst" 'BEGIN { print (r <= 1.15 ? "PASS" : "FAIL") }') CPU per refresh -b -w / -b: $worst at worst (target <= 1.15)"

echo "# 4. replay of a ${HOURS}-hour recording, 10 s interval, $GEN processes"
"$B/recgen" make "$T/day.db" "$HOURS" 10 "$GEN" || die "recgen make failed"
out=$("$B/recgen" time "$T/day.db" "$JUMPS") || die "recgen time failed"
echo "$out"
first=$(echo "$out" | sed -n 's/.*first_ms=\([0-9.]*\).*/\1/p')
jmax=$(echo "$out" | sed -n 's/.*jump_max_ms=\([0-9.]*\).*/\1/p')
: >"$T/whole"
for r in 1 2 3 4 5; do
	"$B/cputime" "$KTOP" -r "$T/day.db" -b -n 1 | awk '{ print $4 }' >>"$T/whole"
done
whole=$(median <"$T/whole" | awk '{ printf "%.1f", $1 / 1000 }')
echo "ktop -r FILE -b -n 1, start to exit: $whole ms (median of 5)"
verdict "$(awk -v m="$first" 'BEGIN { print (m <= 200 ? "PASS" : "FAIL") }') replay first frame: $first ms (target <= 200)"
verdict "$(awk -v m="$jmax" 'BEGIN { print (m <= 100 ? "PASS" : "FAIL") }') replay jump, the slowest of $JUMPS: $jmax ms (target <= 100)"

printf '%s' "$verdicts"
case $verdicts in *FAIL*) exit 1 ;; esac
exit 0
