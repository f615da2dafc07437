#!/usr/bin/env bats
# views.bats's tests that flood system calls or measure what other tests
# change, run alone (tests/run.sh): a getppid flood would overrun the ring
# buffers of other tests' ktops (their exact counts then fail); the bytes a
# quiet process view sends a refresh grow with the machine's activity (its
# header). views.bats says what the views show.

load helpers/tmux
load helpers/views

@test "views: a getppid flood on one CPU: its calls as it counts them; LOST for the event list only" {
	local n
	"$BATS_FILE_TMPDIR/floodwl" "$BATS_TEST_TMPDIR/flood" 2 &
	FL=$!
	for _ in $(seq 50); do [ -s "$BATS_TEST_TMPDIR/flood" ] && break; sleep 0.1; done
	# The view's instance small (64 KiB a CPU): the flood overflows it, not the counting one.
	keys "clear; KTOP_FOCUS_KB=64 LANG=C.UTF-8 $KTOP -d 0.5 -p $FL; echo KTOP-EXIT=\$?" Enter
	wait_for "^Process $FL +floodwl"
	kill -USR1 "$FL"
	for _ in $(seq 100); do [ -s "$BATS_TEST_TMPDIR/flood.count" ] && break; sleep 0.1; done
	n=$(cat "$BATS_TEST_TMPDIR/flood.count")
	echo "the flood's own count: $n" >&2
	[ "$n" -gt 100000 ]
	# CALLS, then ERRORS: the counting path's, exact
	wait_for "^getppid +Process Mgmt\. +[0-9.kMG]+ +$n +0 "
	# the event list lost events, and says so; its times are marked partial
	wait_for '^event list: LOST [1-9][0-9]*\+? events while focused'
	wait_for '~AVG +~MAX'
	if screen | grep -q '^counts: LOST'; then return 1; fi
	keys e
	wait_for "^Events of $FL floodwl"
	wait_for 'the kernel dropped [1-9][0-9]* events while focused'
	keys F10
	wait_for 'KTOP-EXIT=0'
}

@test "views: the process view of a process flooding system calls reads each idle CPU once a pass, not once a record" {
	need_program perf linux-perf	# it counts ktop's splice calls
	local fl fp kp n i
	helper_prog flood "$BATS_TEST_TMPDIR/flood"
	"$BATS_TEST_TMPDIR/flood" getppid 20 1 >/dev/null &
	fl=$!
	for i in $(seq 50); do fp=$(pgrep -P "$fl" | head -1) && [ -n "$fp" ] && break; sleep 0.1; done
	keys "clear; LANG=C.UTF-8 $KTOP -d 1 -p $fp; echo KTOP-EXIT=\$?" Enter
	wait_for "^Process $fp "
	kp=$(ktop_pid)
	sleep 1
	# Counted by the kernel (a tracepoint counter, nothing read by perf).
	perf stat -x, -e syscalls:sys_enter_splice -p "$kp" -- sleep 2 2>"$BATS_TEST_TMPDIR/perf" || true
	kill "$fl" 2>/dev/null || true
	wait "$fl" 2>/dev/null || true
	n=$(awk -F, '/sys_enter_splice/ { print $1 }' "$BATS_TEST_TMPDIR/perf")
	# The flood has exited: the view or the table of its last row; q until ktop ends.
	keys q
	sleep 0.5
	screen | grep -q 'KTOP-EXIT=' || keys q
	wait_for 'KTOP-EXIT=0'
	echo "splice calls in 2 s: $n" >&2
	[[ "$n" =~ ^[0-9]+$ ]] || skip_kernel "perf could not count syscalls:sys_enter_splice here: $(cat "$BATS_TEST_TMPDIR/perf")"
	# Each pass reads at most a bounded number of pages per CPU; a record per
	# idle-CPU read was ~400,000 a second.
	[ "$n" -lt 40000 ]
}

@test "views: the theme's graph and event-kind elements; a quiet process view sends few bytes a refresh" {
	keys "clear; TERM=xterm-256color LANG=C.UTF-8 $KTOP -d 0.3 --theme default -p $P; echo KTOP-EXIT=\$?" Enter
	wait_for "^Process $P +evwl"
	wait_for '^syscalls +[0-9]'
	sleep 1
	# graph-high (red): the top of the graph's scale, where a steady rate is
	tmux -L "$S" capture-pane -p -e -t t | grep -E 'syscalls +[0-9]' >"$BATS_TEST_TMPDIR/rate"
	grep -qF $'\e[31m' "$BATS_TEST_TMPDIR/rate"
	# the event list: switches in event-switch (75), signals in event-signal (205, bold)
	keys e
	wait_for 'switch out [SDR+]+ -> '
	wait_for 'deliver SIGUSR1'
	tmux -L "$S" capture-pane -p -e -t t >"$BATS_TEST_TMPDIR/ev"
	grep -F 'switch out ' "$BATS_TEST_TMPDIR/ev" | grep -qF $'\e[38;5;75m'
	grep -F 'deliver SIGUSR1' "$BATS_TEST_TMPDIR/ev" | grep -qF $'38;5;205m'
	keys F10
	wait_for 'KTOP-EXIT=0'
	# Bytes per steady-state refresh of the process view of a quiet process
	# (bench/ttybytes.py): whole lines, curses sends what changed (~140 B at
	# 80x24; 310 when the view was blanked each frame and idle cells were dim).
	python3 -c 'import os, time
end = time.time() + 30
while time.time() < end:
    [os.getppid() for _ in range(100)]
    time.sleep(0.05)' &
	local q=$! out
	out=$(python3 "$BATS_TEST_DIRNAME/../../bench/ttybytes.py" --size 80x24 --seconds 5 --warmup 3 \
		"pv=$KTOP -d {delay} -p $q")
	kill "$q"
	echo "$out" >&2
	# (under the pool's load more numbers change a frame: 234 B seen; 270 still
	# tells the blanked view's 310 apart)
	awk '$1 == "pv" { found = 1; ok = $2 >= 3 && $3 + 0 < 270 } END { exit !(found && ok) }' <<<"$out"
}
