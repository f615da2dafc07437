#!/bin/bash
# bench/clockcost.sh [REPS] - what ktop's instance settings cost a getppid
# flood with ktop's default events enabled and nobody reading: trace_clock
# local or mono, 4 KiB or 64 KiB sub-buffers (with ktop's buffer size).
# One flood process (build/bench/flood, built by bench/trace.sh), each traced
# run between two untraced ones; prints ratio = traced / mean(untraced) per
# variant, one line per repetition. Root; our own tracefs instance, removed.
set -u
cd "$(dirname "$0")/.." || exit 2
T=/sys/kernel/tracing
F=build/bench/flood
REPS=${1:-7}
KB=${BENCH_CLOCK_KB:-8192}
[ -x "$F" ] || cc -std=gnu11 -O2 -Wall -Wextra -o "$F" bench/flood.c || exit 2
EV="raw_syscalls/sys_exit syscalls/sys_enter_exit syscalls/sys_enter_exit_group
sched/sched_switch sched/sched_wakeup sched/sched_wakeup_new task/task_newtask
sched/sched_process_exec sched/sched_process_exit"
d=$T/instances/kclock-$$
trap '[ -d "$d" ] && { echo 0 >"$d/tracing_on"; rmdir "$d"; }' EXIT INT TERM
run() { "$F" getppid 1 | sed -n 's/^ns=\([0-9.]*\) .*/\1/p'; }
on() {	# clock subbuf_kb
	mkdir "$d" || exit 2
	echo 0 >"$d/tracing_on"
	if [ "$2" != 4 ]; then
		echo "$2" >"$d/buffer_subbuf_size_kb" || exit 2
		echo "$KB" >"$d/buffer_size_kb"
	fi
	echo "$1" >"$d/trace_clock" || exit 2
	for e in $EV; do echo 1 >"$d/events/$e/enable" 2>/dev/null; done
	echo 1 >"$d/tracing_on"
}
off() { echo 0 >"$d/tracing_on"; rmdir "$d"; }
echo "local/4K mono/4K local/64K mono/64K x86-tsc/64K"
for ((r = 0; r < REPS; r++)); do
	line=""
	for v in "local 4" "mono 4" "local 64" "mono 64" "x86-tsc 64"; do
		grep -q "${v%% *}" "$T/trace_clock" || { line="$line -"; continue; }
		u=$(run); on $v; t=$(run); off; u2=$(run)
		line="$line $(awk "BEGIN { printf \"%.3f\", 2 * $t / ($u + $u2) }")"
	done
	echo "$line"
done
