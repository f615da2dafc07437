#!/bin/bash
# Scale: 10,000 idle processes and 50,000 threads (50 processes of 1,000), then
# ktop against them (root; raises kernel.pid_max for the run when it is below
# 131072, and puts it back).
#
#   sudo tests/stress/scale.sh [NPROC [THREAD_PROCS [THREADS_EACH]]]
#
# Measured: the time of a batch refresh at this scale (the gap between tick
# starts against -d 2, and ktop's CPU time per tick from KTOP_STATS), with
# and without -H; RLIMIT_NOFILE of 1024, far below the process count, still
# shows every process in every tick; in the live view (tmux, -d 2) the time
# from a key press to the screen showing its effect, which must be within one
# refresh: N (sort by pid), H (threads: a table of 60,000 rows), then P.
set -u
. "$(dirname "$0")/lib.sh"
nproc=${1:-10000}
ntp=${2:-50}
each=${3:-1000}
dir=$(mktemp -d /tmp/ktop-scale.XXXXXX)
cc -O2 -pthread -o "$dir/spawn" "$(dirname "$0")/spawn.c" || exit 1
old_pid_max=$(cat /proc/sys/kernel/pid_max)
S=ktop-scale-$$
cleanup() {
	[ -n "${SP:-}" ] && kill "$SP" 2>/dev/null && wait "$SP" 2>/dev/null
	tmux -L "$S" kill-server 2>/dev/null
	[ "$(cat /proc/sys/kernel/pid_max)" != "$old_pid_max" ] && echo "$old_pid_max" >/proc/sys/kernel/pid_max
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
(( old_pid_max >= 131072 )) || echo 131072 >/proc/sys/kernel/pid_max
"$dir/spawn" "$nproc" "$ntp" "$each" "$dir/pids" &
SP=$!
want=$(( nproc + ntp + 1 ))
for ((i = 0; i < 600; i++)); do
	[ -s "$dir/pids" ] && [ "$(wc -l <"$dir/pids")" -ge $(( nproc + ntp )) ] && break
	sleep 0.2
done
sleep 2
echo "system: $(nprocs) processes, $(ls /proc/*/task 2>/dev/null | grep -c '^[0-9]') threads"
ok=1

# batch: NAME ARGS...: three refreshes at -d 2; prints gap, CPU per tick, rows.
batch() {
	local name=$1
	shift
	start_batch "$dir/$name.csv" -d 2 -n 4 -o pid "$@"
	wait "$KP"
	local rc=$? gaps cpu ticks rows missing
	gaps=$(lateness "$dir/$name.csv" 2)
	cpu=$(grep -o 'ticks=[0-9]* cpu_s=[0-9.]*' "$dir/$name.csv.err")
	rows=$(awk -F, 'NR > 1 { n[$1]++ } END { m = 1e9; for (k in n) if (n[k] < m) m = n[k]; print m }' "$dir/$name.csv")
	# every spawned pid in every tick (only the last 3: the first may race the listing)
	missing=$(awk -F, 'NR == FNR { want[$1] = 1; next } FNR > 1 { seen[$1 "," $3] = 1; t[$1] = 1 }
		END { for (k in t) for (p in want) if (!((k "," p) in seen)) m++; print m + 0 }' "$dir/pids" "$dir/$name.csv")
	echo "$name: exit $rc; gap max/mean ${gaps% * *} s (late/ticks ${gaps#* * }); $cpu;" \
		"fewest rows in a tick $rows; spawned pids missing from a tick: $missing"
	[ "$rc" = 0 ] && [ "$missing" = 0 ] || ok=0
}
batch processes
batch threads -H
# RLIMIT_NOFILE 1024, far below the process count: every process, every tick
KTOP_WRAP="prlimit --nofile=1024:1024" batch nofile-1024
grep -h '^ktop-stats' "$dir"/*.err | sed 's/^/  /'

# live view: time from a key to the screen showing it
tmux -L "$S" new-session -d -s t -x 160 -y 50 "$KTOP -d 2"
screen() { tmux -L "$S" capture-pane -p -t t; }
until screen | grep -q 'PID  *USER'; do sleep 0.1; done
sleep 4
key() {	# key KEY PATTERN: ms until PATTERN shows
	local t0=${EPOCHREALTIME/./} i
	tmux -L "$S" send-keys -t t "$1"
	for ((i = 0; i < 1000; i++)); do
		screen | grep -qE -- "$2" && { echo $(( (${EPOCHREALTIME/./} - t0) / 1000 )); return; }
		sleep 0.01
	done
	echo timeout
}
ms_n=$(key N 'sort:pid')
ms_h=$(key H 'threads')
sleep 4
ms_p=$(key P 'sort:cpu')
echo "live view, -d 2: N (sort by pid) ${ms_n} ms; H (60,000 thread rows) ${ms_h} ms; then P ${ms_p} ms"
for v in "$ms_n" "$ms_h" "$ms_p"; do
	[ "$v" != timeout ] && (( v <= 2000 )) || ok=0
done
[ "$ok" = 1 ] || { echo "FAIL" >&2; exit 1; }
