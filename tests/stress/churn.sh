#!/bin/bash
# Churn: a fork storm or a thread storm for SECONDS (default 60) under a traced
# ktop -b --csv -d 1 (as root; --no-trace or not root: the /proc collector).
#
#   sudo tests/stress/churn.sh fork|thread [SECONDS] [KTOP-ARGS...]
#
# stress-ng makes the storm (sh tools/deps.sh stress installs it): --fork 2
# (thousands of short-lived processes per second) or --pthread 2 (threads made
# and ended as fast as it can). Measured from outside: ktop's refreshes (the
# gap between tick starts against the 1 s delay), its peak RSS (VmHWM), its
# descriptors before the storm and after it (those that are not per-process
# /proc files must not grow; no per-process one may stay open for a process
# gone for over two seconds), lost events (summed from the lost_events column and
# KTOP_STATS), the processes ktop saw. Exit 0 when ktop refreshed on time
# (no gap over 1.5 s), kept its descriptors, exited 0 and removed its
# instance; the numbers are printed either way.
set -u
. "$(dirname "$0")/lib.sh"
kind=${1:?fork or thread}
secs=${2:-60}
shift $(( $# >= 2 ? 2 : $# ))
case "$kind" in
fork) storm="--fork 2" ;;
thread) storm="--pthread 2" ;;
*) echo "usage: $0 fork|thread [SECONDS]" >&2; exit 2 ;;
esac
command -v stress-ng >/dev/null || { echo "stress-ng is not installed: sh tools/deps.sh stress" >&2; exit 2; }
out=$(mktemp /tmp/ktop-churn.XXXXXX)
start_batch "$out" -d 1 -o pid,comm,syscalls,lost_events "$@"
wait_ticks "$out" 3 || exit 1
read -r fd0 stale0 < <(fd_report "$KP")
t0=$(date +%s.%N)
stress-ng $storm --timeout "${secs}s" --quiet &
st=$!
peak_procs=0
while kill -0 "$st" 2>/dev/null; do
	n=$(nprocs)
	(( n > peak_procs )) && peak_procs=$n
	sleep 1
done
wait "$st"
t1=$(date +%s.%N)
# settle: the storm's processes are gone; three more ticks
sleep 3.5
read -r fd1 stale1 < <(fd_report "$KP")
hwm=$(kb "$KP" VmHWM)
rss=$(kb "$KP" VmRSS)
read -r maxgap meangap late nticks < <(lateness "$out" 1 "$t0" "$t1")
stop "$KP"
rc=$RC
lost_csv=$(awk -F, 'NR > 1 && $6 != "" { if (!($1 in seen)) { seen[$1] = 1; s += $6 } } END { print s + 0 }' "$out")
stats=$(grep '^ktop-stats:' "$out.err")
rows=$(awk -F, -v t0="$t0" -v t1="$t1" 'NR > 1 && $1 > t0 && $1 < t1 { n++ } END { print n + 0 }' "$out")
echo "churn $kind ${secs}s: ticks $nticks, gap max ${maxgap}s mean ${meangap}s, late $late;" \
	"peak RSS ${hwm} kB (end ${rss} kB); descriptors other than per-process /proc files $fd0 -> $fd1, per-process ones of gone processes $stale0 -> $stale1; lost events $lost_csv;" \
	"rows during the storm $rows; peak processes $peak_procs; exit $rc"
echo "  $stats"
ok=1
awk -v g="$maxgap" 'BEGIN { exit !(g <= 1.5) }' || { echo "FAIL: a refresh came ${maxgap}s after the previous one" >&2; ok=0; }
(( fd1 <= fd0 && stale1 == 0 )) || { echo "FAIL: descriptors $fd0 -> $fd1, of gone processes $stale1" >&2; ok=0; }
[ "$rc" = 0 ] || { echo "FAIL: ktop exit $rc: $(cat "$out.err")" >&2; ok=0; }
[ ! -e "$(inst_dir $KP)" ] || { echo "FAIL: instance ktop-$KP left" >&2; ok=0; }
rm -f "$out" "$out.err"
[ "$ok" = 1 ]
