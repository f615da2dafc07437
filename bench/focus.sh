#!/bin/sh
# bench/focus.sh - what a process view costs: the focus instance (ktop-PID-f)
# against a system-call flood in a process that is NOT focused, and the memory
# of a focused process's rings. Root, tmux; not part of make check (it floods).
#
#   sh bench/focus.sh [ROUNDS]
#
# Each round runs, under a system-wide ktop (-d 1) in a tmux pane:
#   none   getppid flood (bench/flood.c, one process) with no process view;
#   view   the same with the process view of an idle workload open
#          (tests/tmux/helpers/evwl.c: ~30 calls/s), so the focus instance is
#          there and its filter must drop the flood's events.
# Prints ns per getppid call for each, rounds alternating. Then the flood
# itself is focused for 5 s and KTOP_STATS reports the bytes its rings hold
# (focus_bytes) and the events it kept, with the default --events 4096.
set -eu
cd "$(dirname "$0")/.."
ROUNDS=${1:-3}
SECS=3
B=build/bench
T=$(mktemp -d /tmp/ktop-focus.XXXXXX)
S=ktop-focus-bench-$$
mkdir -p "$B"
cc -O2 -Wall -o "$B/flood" bench/flood.c
cc -O2 -Wall -o "$B/evwl" tests/tmux/helpers/evwl.c
# KTOP_BIN: another build to measure (the view's cost before and after a change).
KTOP_BIN=${KTOP_BIN:-./ktop}
[ -x "$KTOP_BIN" ] || { echo "build ktop first" >&2; exit 1; }

cleanup() {
	tmux -L "$S" kill-server 2>/dev/null || true
	[ -n "${WL:-}" ] && kill "$WL" 2>/dev/null || true
	rm -rf "$T"
}
trap cleanup EXIT INT TERM

keys() { tmux -L "$S" send-keys -t t "$@"; }
wait_screen() {
	for _ in $(seq 100); do
		tmux -L "$S" capture-pane -p -t t | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	echo "timed out waiting for $1" >&2
	exit 1
}

"$B/evwl" "$T/pids" &
WL=$!
sleep 0.5
read -r P _ <"$T/pids"

start_ktop() {
	tmux -L "$S" kill-server 2>/dev/null || true
	sleep 0.3	# a new server right after kill-server can lose the race
	tmux -L "$S" new-session -d -s t -x 120 -y 40 "sh"
	keys "KTOP_STATS=1 $KTOP_BIN -d 1 $* 2>$T/stats" Enter
	wait_screen 'PID +USER|^Process'
}

open_view() {	# the process view of pid $1, from the table
	keys /
	tmux -L "$S" send-keys -t t -l "$2"
	keys Enter
	wait_screen "^ +$1 "
	keys N Home Enter
	wait_screen "^Process $1"
}

flood_ns() {
	"$B/flood" getppid "$SECS" 1 | sed -n 's/.*ns=\([0-9.]*\).*/\1/p'
}

i=0
while [ "$i" -lt "$ROUNDS" ]; do
	start_ktop
	sleep 2
	none=$(flood_ns)
	open_view "$P" "$T/pids"
	sleep 2
	view=$(flood_ns)
	# and once more without, after the view closed (noise on a shared machine)
	keys Escape
	wait_screen 'PID +USER'
	sleep 1
	after=$(flood_ns)
	echo "round $i: getppid ns/call, not focused: no view $none, view open $view, closed again $after"
	keys Q
	sleep 0.5
	i=$((i + 1))
done

# The rings of a focused flood: 5 s of getppid at full speed. Meanwhile, for 3
# s, what the view costs ktop: its CPU (utime+stime from /proc/PID/stat) and
# its splice calls (perf stat of syscalls:sys_enter_splice: counted in the
# kernel, nothing read by perf).
"$B/flood" getppid 30 1 >/dev/null &
FL=$!
sleep 0.5
FP=$(pgrep -P "$FL" | head -1)
start_ktop -p "$FP"
sleep 1
KP=$(pgrep -P "$(tmux -L "$S" display -p -t t '#{pane_pid}')" -x "$(basename "$KTOP_BIN")")
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
c0=$(cpu_ticks "$KP")
if command -v perf >/dev/null 2>&1; then
	perf stat -x, -e syscalls:sys_enter_splice -p "$KP" -- sleep 3 2>"$T/perf" || true
	splices=$(awk -F, '/sys_enter_splice/ { print $1 }' "$T/perf")
else
	sleep 3
	splices="? (no perf)"
fi
c1=$(cpu_ticks "$KP")
echo "focused flood, 3 s: ktop CPU $(awk "BEGIN { printf \"%.0f\", ($c1 - $c0) * 100 / $(getconf CLK_TCK) / 3 }")% of one CPU, $splices splice calls"
sleep 1
kill -TERM "$KP"
sleep 1
kill "$FL" 2>/dev/null || true
wait "$FL" 2>/dev/null || true
grep ktop-stats "$T/stats"
