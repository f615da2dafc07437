#!/bin/bash
# Soak: ktop -b --csv -d 1 with tracing on (root) for SECONDS (default 600)
# under a mixed load: a fork storm, a thread storm, a syscall flood on every
# CPU (dd bs=1, which overruns the ring buffer now and then: lost events are
# expected and must be reported), and memory churn (stress-ng --vm).
#
#   sudo tests/stress/soak.sh [SECONDS] [KTOP-ARGS...]
#
# Measured: RSS at the start (after 5 ticks, before the load), after the first
# minute of load (the heap's high-water mark of a storm: glibc keeps it) and at
# the end; descriptors at the start and at the end
# (those that are not per-process /proc files must not grow; no per-process
# one may stay open for a process gone for over two seconds); peak RSS; lost events (lost_events column and
# KTOP_STATS); refresh lateness (gaps between tick starts against the 1 s
# delay). Exit 0 when ktop exited 0, removed its instance, refreshed with no
# gap over 1.5 s, its RSS at the end is within 25% (+4 MB) of the first
# minute's, and its descriptors did not grow.
set -u
. "$(dirname "$0")/lib.sh"
secs=${1:-600}
shift $(( $# >= 1 ? 1 : 0 ))
command -v stress-ng >/dev/null || { echo "stress-ng is not installed: sh tools/deps.sh stress" >&2; exit 2; }
out=$(mktemp /tmp/ktop-soak.XXXXXX)
start_batch "$out" -d 1 -o pid,comm,syscalls,vcsw,lost_events "$@"
wait_ticks "$out" 5 || exit 1
rss0=$(kb "$KP" VmRSS)
read -r fd0 stale0 < <(fd_report "$KP")
t0=$(date +%s.%N)
load=()
stress-ng --fork 1 --pthread 1 --vm 1 --vm-bytes 256m --timeout "${secs}s" --quiet &
load+=($!)
for ((c = 0; c < $(nproc); c++)); do
	# bursts: 3 s of flood, 7 s of rest
	(end=$(( SECONDS + secs )); while (( SECONDS < end )); do
		timeout 3 dd if=/dev/zero of=/dev/null bs=1 2>/dev/null; sleep 7; done) &
	load+=($!)
done
sleep 60
rss_warm=$(kb "$KP" VmRSS)
wait "${load[@]}"
t1=$(date +%s.%N)
sleep 3.5
rss1=$(kb "$KP" VmRSS)
hwm=$(kb "$KP" VmHWM)
read -r fd1 stale1 < <(fd_report "$KP")
read -r maxgap meangap late nticks < <(lateness "$out" 1 "$t0" "$t1")
stop "$KP"
lost=$(awk -F, 'NR > 1 && $7 != "" { if (!($1 in seen)) { seen[$1] = 1; s += $7; if ($7 > 0) n++ } } END { print s + 0, n + 0 }' "$out")
echo "soak ${secs}s: ticks $nticks, gap max ${maxgap}s mean ${meangap}s, late $late;" \
	"RSS ${rss0} kB idle, ${rss_warm} kB after a minute of load, ${rss1} kB at the end (peak ${hwm} kB); descriptors other than per-process /proc files $fd0 -> $fd1, per-process ones of gone processes $stale0 -> $stale1;" \
	"lost events ${lost% *} in ${lost#* } intervals; exit $RC"
grep '^ktop-stats:' "$out.err" | sed 's/^/  /'
ok=1
awk -v g="$maxgap" 'BEGIN { exit !(g <= 1.5) }' || { echo "FAIL: a refresh came ${maxgap}s after the previous one" >&2; ok=0; }
(( rss1 <= rss_warm * 5 / 4 + 4096 )) || { echo "FAIL: RSS grew $rss_warm -> $rss1 kB" >&2; ok=0; }
(( fd1 <= fd0 && stale1 == 0 )) || { echo "FAIL: descriptors $fd0 -> $fd1, of gone processes $stale1" >&2; ok=0; }
[ "$RC" = 0 ] || { echo "FAIL: ktop exit $RC" >&2; ok=0; }
[ ! -e "$(inst_dir $KP)" ] || { echo "FAIL: instance ktop-$KP left" >&2; ok=0; }
rm -f "$out" "$out.err"
[ "$ok" = 1 ]
