#!/usr/bin/env bats
# Tracing (root): ktop's system call, error, signal and context switch counts are
# exact against independent sources (strace, /proc, workloads that make a known
# number of each); its tracefs instance is removed however ktop ends; it does not
# count itself; without root or with --no-trace it is a /proc monitor.
#
# The workloads of helpers/tracewl.c are set up and blocked in a known system
# call before ktop's baseline; a byte on a FIFO releases them; they say "done"
# and block again. ktop is stopped (SIGTERM, handled between ticks) once it has
# written a tick that began after that: every event of the work is in its output.

load helpers/common

setup_file() {
	helper_prog tracewl || true
}

setup() {
	common_setup
	TRACEWL="$BATS_FILE_TMPDIR/tracewl"
	MINE="$BATS_TEST_TMPDIR/instances"	# instances the test made itself
	: >"$MINE"
}

teardown() {
	if [ -n "${WAKER:-}" ]; then kill "$WAKER" 2>/dev/null || true; fi
	local name
	common_teardown
	while read -r name; do
		[ -n "$name" ] && [ -d "$INST/$name" ] && rmdir "$INST/$name" 2>/dev/null
	done <"$MINE"
	[ -f "$BATS_TEST_TMPDIR/nobody-dir" ] && rm -rf "$(cat "$BATS_TEST_TMPDIR/nobody-dir")"
	return 0
}


need_tracewl() {
	need_built "$TRACEWL"
}

# ---------------------------------------------------------------- ktop

# start_ktop (common.bash) with KTOP_STATS on: its counts on OUT.err at exit.
START_KTOP_STATS=1

# stop_ktop [SIG]: SIGTERM (or SIG) to ktop; it must exit 0.
stop_ktop() {
	kill "-${1:-TERM}" "$KPID"
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ] || { echo "ktop exit $ST: $(cat "$OUT.err")" >&2; return 1; }
}

# no_lost: the kernel dropped no event (KTOP_STATS line at exit), nothing malformed.
no_lost() {
	local stats
	stats=$(grep '^ktop-stats: ' "$OUT.err") || { echo "no ktop-stats line: $(cat "$OUT.err")" >&2; return 1; }
	echo "$stats" >&2
	[[ "$stats" == *" tracing=1 "* ]] || { echo "tracing is off" >&2; return 1; }
	[[ "$stats" == *" lost=0 "* ]] || { echo "the kernel dropped events: counts cannot be exact" >&2; return 1; }
	[[ "$stats" == *" malformed=0 "* ]]
}

# ---------------------------------------------------------------- tracewl

# start_tracewl MODE N: helpers/tracewl set up and blocked; WL=(its pids).
start_tracewl() {
	local d=$BATS_TEST_TMPDIR
	mkfifo "$d/gate"
	"$TRACEWL" "$d/ready" "$d/gate" "$@" >"$d/done" 2>"$d/tracewl.err" </dev/null 3>&- &
	track $!
	wait_for_file "$d/ready" 10 || { cat "$d/tracewl.err" >&2; return 1; }
	read -r -a WL <"$d/ready"
	track "${WL[@]}"
}

release() {
	printf g >"$BATS_TEST_TMPDIR/gate"	# one byte: one read(2) returns
}

wait_done() {
	wait_for_file "$BATS_TEST_TMPDIR/done" 10 || { cat "$BATS_TEST_TMPDIR/tracewl.err" >&2; return 1; }
}

# finish_work SYSCALL: (ktop started, its baseline written) release the
# workload, wait until it is done and every pid of WL is blocked again in
# SYSCALL, then until ktop has written a tick that began after that; stop ktop.
finish_work() {
	local i
	release
	wait_done
	for ((i = 0; i < ${#WL[@]}; i++)); do
		wait_blocked "${WL[$i]}" "$1"
	done
	wait_tick_after "$OUT" "$(date +%s.%N)"
	stop_ktop
	no_lost
}

# ---------------------------------------------------------------- 1. strace

# strace_truth SCRIPT...: ktop system-wide with --syscalls around
# `strace -f sh -c SCRIPT`; then call for call, error for error, per pid.
strace_truth() {
	local log="$BATS_TEST_TMPDIR/strace.log" min_pids=$1 min_calls=$2
	shift 2
	need_program strace
	start_ktop "$OUT" -b --csv --syscalls -d 0.1
	wait_for_lines "$OUT" 1 10	# the header: the baseline is taken
	strace -f -qq -o "$log" "$@" </dev/null >"$BATS_TEST_TMPDIR/wl.out" 2>&1 3>&- ||
		{ echo "workload failed: $(cat "$BATS_TEST_TMPDIR/wl.out")" >&2; return 1; }
	wait_tick_after "$OUT" "$(date +%s.%N)"
	stop_ktop
	no_lost
	check strace-cmp "$OUT" "$log" 10 "$min_pids" "$min_calls"
}

@test "strace: ls -laR of a tree, per pid and syscall: calls and errors equal" {
	need_tracing
	local t="$BATS_TEST_TMPDIR/tree" i j
	for i in 1 2 3 4 5 6; do
		mkdir -p "$t/d$i/sub"
		for j in $(seq 1 15); do
			echo "$i $j" >"$t/d$i/f$j"
		done
		ln -s "f1" "$t/d$i/link"
		ln -s "/nonexistent-ktop-test" "$t/d$i/dangling"
		mkfifo "$t/d$i/sub/fifo"
	done
	# two commands: sh forks both (and the children are compared exactly)
	strace_truth 3 800 sh -c 'ls -laR "$1" >/dev/null; ls -la /nonexistent-ktop-test "$1"/d1/dangling/x 2>/dev/null; exit 0' sh "$t"
}

@test "strace: gcc (cc1, as, collect2, ld), per pid and syscall: calls and errors equal" {
	need_tracing
	need_program gcc
	local d="$BATS_TEST_TMPDIR"
	printf '#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n' >"$d/prog.c"
	strace_truth 5 2000 gcc -O1 -o "$d/prog" "$d/prog.c"
	[ -x "$d/prog" ]
}

@test "strace: a bash script that forks, traps signals, fails calls, restarts a wait: equal" {
	need_tracing
	need_program bash
	strace_truth 8 200 bash -c '
		n=0
		trap "n=\$((n + 1))" USR1
		kill -USR1 $$
		ls /nonexistent-ktop-a 2>/dev/null
		cat /nonexistent-ktop-b 2>/dev/null
		( exit 3 )
		for i in 1 2 3; do /bin/true; done
		echo hello | tr a-z A-Z >/dev/null
		x=$(cat /proc/self/stat)
		# a wait4 the trapped USR1 interrupts: "= ? ERESTARTSYS", then again
		sleep 0.2 &
		s=$!
		(sleep 0.05; kill -USR1 $$) &
		wait $s || wait $s
		wait
		[ "$n" = 2 ] || exit 1
		false || exit 0'
}

# ---------------------------------------------------------------- 2. signals

@test "signals: 200 SIGUSR1 one after the other: sig_recv 200 for the child, sig_sent 200 for the sender" {
	need_tracing
	need_tracewl
	start_tracewl signals 200
	wait_blocked "${WL[0]}" read
	wait_blocked "${WL[1]}" rt_sigsuspend
	start_ktop "$OUT" -b --csv -d 0.1 -o pid,ppid,comm,sig_recv,sig_sent,syscalls
	wait_for_lines "$OUT" 2 10
	finish_work read
	local p c
	p=$(check csv-rows-sum "$OUT" "${WL[0]}" sig_sent,sig_recv)
	c=$(check csv-rows-sum "$OUT" "${WL[1]}" sig_sent,sig_recv)
	echo "sender sent,received: $p; child: $c" >&2
	[ "$p" = "200 0" ]
	[ "$c" = "0 200" ]
}

@test "signals, -p CHILD: signals from a process outside -p still count as received" {
	need_tracing
	need_tracewl
	start_tracewl signals 50
	wait_blocked "${WL[0]}" read
	wait_blocked "${WL[1]}" rt_sigsuspend
	start_ktop "$OUT" -b --csv -d 0.1 -p "${WL[1]}" -o pid,sig_recv,sig_sent
	wait_for_lines "$OUT" 2 10
	finish_work read
	local c
	c=$(check csv-rows-sum "$OUT" "${WL[1]}" sig_sent,sig_recv)
	echo "child sent,received: $c" >&2
	[ "$c" = "0 50" ]
}

# ---------------------------------------------------------------- 3. context switches

# switches_exact PID...: per pid, ktop's vcsw and ivcsw sums equal the change in
# /proc (summed over threads) from before the release to after the work;
# and vcsw >= $MIN_VCSW.
switches_exact() {
	local p i before=() after ksum
	for p in "$@"; do
		before+=("$(check snap "$p")")
	done
	finish_work read
	i=0
	for p in "$@"; do
		after=$(check snap "$p")
		ksum=$(check csv-rows-sum "$OUT" "$p" vcsw,ivcsw)
		local b=(${before[$i]}) a=($after) k=($ksum)
		local dv=$(( a[2] - b[2] )) di=$(( a[3] - b[3] ))
		echo "pid $p: ktop vcsw ${k[0]} ivcsw ${k[1]}; /proc vcsw $dv ivcsw $di" >&2
		[ "${k[0]}" -eq "$dv" ] || return 1
		[ "${k[1]}" -eq "$di" ] || return 1
		(( k[0] >= MIN_VCSW )) || { echo "fewer than $MIN_VCSW voluntary switches" >&2; return 1; }
		i=$((i + 1))
	done
}

@test "context switches: 300 pipe round trips between two processes equal /proc, >= 300 each" {
	need_tracing
	need_tracewl
	start_tracewl pingpong 300
	wait_blocked "${WL[0]}" read
	wait_blocked "${WL[1]}" read
	start_ktop "$OUT" -b --csv -d 0.1 -p "${WL[0]},${WL[1]}" -o pid,vcsw,ivcsw,syscalls
	wait_for_lines "$OUT" 3 10
	MIN_VCSW=300
	switches_exact "${WL[@]}"
}

@test "context switches: 300 round trips between two threads: the process's sum equals /proc" {
	need_tracing
	need_tracewl
	start_tracewl pingpong-threads 300
	wait_blocked "${WL[0]}" read
	start_ktop "$OUT" -b --csv -d 0.1 -p "${WL[0]}" -o pid,threads,vcsw,ivcsw
	wait_for_lines "$OUT" 2 10
	MIN_VCSW=600
	switches_exact "${WL[0]}"
}

# ---------------------------------------------------------------- 4. failed calls

@test "errors, -p: 500 openat of a missing file: syscalls 502, syscall_errors 500, top openat" {
	need_tracing
	need_tracewl
	start_tracewl fails 500
	wait_blocked "${WL[0]}" read
	start_ktop "$OUT" -b --csv -d 0.1 -p "${WL[0]}" -o pid,syscalls,syscall_errors,top_syscall
	wait_for_lines "$OUT" 2 10
	finish_work read
	# read (the gate) + 500 openat + write ("done")
	[ "$(check csv-rows-sum "$OUT" "${WL[0]}" syscalls,syscall_errors)" = "502 500" ]
	# the interval of the work: openat the most frequent
	grep -q "^[0-9.]*,[0-9.]*,${WL[0]},[0-9]*,[0-9]*,openat\$" "$OUT"
}

@test "errors, --syscalls: the openat row has 500 calls, 500 errors, ENOENT; read and write 1 each" {
	need_tracing
	need_tracewl
	start_tracewl fails 500
	wait_blocked "${WL[0]}" read
	start_ktop "$OUT" -b --csv --syscalls -d 0.1
	wait_for_lines "$OUT" 1 10
	finish_work read
	[ "$(check sc-get "$OUT" "${WL[0]}" openat)" = "500 500 ENOENT" ]
	run check sc-list "$OUT" "${WL[0]}"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf 'openat 500 500\nread 1 0\nwrite 1 0')" ]
}

@test "errors: a short-lived child keeps its row, last state X: 301 calls, 300 errors" {
	need_tracing
	need_tracewl
	start_tracewl fails-child 300
	wait_blocked "${WL[0]}" read
	start_ktop "$OUT" -b --csv -d 0.1 -o pid,ppid,comm,state,syscalls,syscall_errors
	wait_for_lines "$OUT" 2 10
	finish_work read
	local kids
	kids=$(check csv-children "$OUT" "${WL[0]}")
	echo "children: $kids" >&2
	[[ "$kids" =~ ^[0-9]+$ ]]
	# the parent: read, fork, wait4, write
	[ "$(check csv-rows-sum "$OUT" "${WL[0]}" syscalls,syscall_errors)" = "4 0" ]
	# the child: 300 openat, exit_group
	[ "$(check csv-rows-sum "$OUT" "$kids" syscalls,syscall_errors)" = "301 300" ]
	[ "$(check csv-last "$OUT" "$kids" state)" = "X" ]
}

# ---------------------------------------------------------------- 5. clean-up

# The instances, but those named after the pid of a program not ours (another
# ktop, a benchmark of someone else's, which come and go as they please).
instances() {
	local name
	for name in $(ls "$INST"); do
		# ktop-PID-START, a focus view's ktop-PID-START-f (and an older
		# ktop's ktop-PID, ktop-PID-f): PID, not START, says whose
		if [[ "$name" =~ ^ktop-([0-9]+)(-[0-9]+)?(-f)?$ ]] && ! grep -qx "${BASH_REMATCH[1]}" "$KTOPS" &&
			! grep -qx "$name" "$MINE"; then
			continue
		fi
		echo "$name"
	done | sort
}

# make_instance NAME: an instance of the test's, removed in teardown.
make_instance() {
	echo "$1" >>"$MINE"
	mkdir "$INST/$1"
}

# cleanup_on HOW: ktop's instance exists while it runs and is gone after it
# ends by HOW (-n, or a signal name); nothing else changes.
cleanup_on() {
	local before after
	before=$(instances)
	if [ "$1" = n ]; then
		start_ktop "$OUT" -b --csv -d 0.2 -n 6 -o pid
	else
		start_ktop "$OUT" -b --csv -d 0.2 -o pid
	fi
	wait_for_lines "$OUT" 2 10
	[ -d "$(inst_dir $KPID)" ] || { echo "$1: no instance ktop-$KPID while ktop runs" >&2; return 1; }
	if [ "$1" = n ]; then
		wait_exit "$KPID" 10
		[ "$ST" -eq 0 ] || { echo "exit $ST" >&2; return 1; }
	else
		stop_ktop "$1"
	fi
	[ ! -e "$(inst_dir $KPID)" ] || { echo "$1: ktop-$KPID left behind" >&2; return 1; }
	after=$(instances)
	[ "$before" = "$after" ] || { echo "$1: instances before: $before; after: $after" >&2; return 1; }
}

@test "clean-up: the instance is removed after -n, SIGINT, SIGTERM, SIGHUP, SIGQUIT" {
	need_tracing
	make_instance ktoptest-other-$$x
	local how
	for how in n INT TERM HUP QUIT; do
		cleanup_on "$how"
	done
	[ -d "$INST/ktoptest-other-$$x" ]
}

# killed_ktop: a ktop killed with SIGKILL, whose instance stays; KPID is its pid.
killed_ktop() {
	start_ktop "$OUT" -b --csv -d 0.2 -o pid
	wait_for_lines "$OUT" 2 10
	[ -d "$(inst_dir $KPID)" ] || { echo "no instance ktop-$KPID while ktop runs" >&2; return 1; }
	kill -KILL "$KPID"
	wait_exit "$KPID" 10
	[ -d "$(inst_dir $KPID)" ] || { echo "SIGKILL: ktop-$KPID is gone" >&2; return 1; }
}

@test "clean-up: SIGKILL leaves the instance; the next ktop leaves other instances alone" {
	need_tracing
	make_instance ktoptest-other-$$x
	make_instance ktop-notapid
	make_instance ktop-12x
	killed_ktop
	run --separate-stderr timeout 20 "$KTOP" -b -n 1 -o pid
	[ "$status" -eq 0 ]
	[ -d "$INST/ktoptest-other-$$x" ]
	[ -d "$INST/ktop-notapid" ]
	[ -d "$INST/ktop-12x" ]
}

@test "clean-up: the next ktop removes what a SIGKILLed ktop left, and ktop-PID of a dead PID" {
	need_tracing
	# a ktop-PID whose PID is not running
	sh -c 'exit 0' </dev/null >/dev/null 2>&1 3>&- &
	local dead=$!
	wait "$dead"
	make_instance "ktop-$dead-4242"
	make_instance "ktop-$dead-4242-f"	# a process view's focus instance
	make_instance "ktop-$dead"		# an older ktop's name, without its start time
	make_instance "ktop-$dead-f"
	make_instance ktoptest-other-$$x
	killed_ktop
	run --separate-stderr timeout 20 "$KTOP" -b -n 1 -o pid
	[ "$status" -eq 0 ]
	[ ! -e "$(inst_dir $KPID)" ] || { echo "ktop-$KPID (SIGKILLed ktop) not removed" >&2; return 1; }
	local n
	for n in "ktop-$dead-4242" "ktop-$dead-4242-f" "ktop-$dead" "ktop-$dead-f"; do
		[ ! -e "$INST/$n" ] || { echo "$n (no such process) not removed" >&2; return 1; }
	done
	[ -d "$INST/ktoptest-other-$$x" ]
}

@test "clean-up: SIGTERM as soon as the instance exists (still setting up): removed, exit 0" {
	need_tracing
	local deadline
	start_ktop "$OUT" -b --csv -d 0.2 -o pid
	deadline=$(( ${EPOCHREALTIME/./} + 10000000 ))
	until [ -d "$(inst_dir $KPID)" ]; do
		(( ${EPOCHREALTIME/./} < deadline )) || { echo "no instance ktop-$KPID" >&2; return 1; }
	done
	stop_ktop TERM
	[ ! -e "$(inst_dir $KPID)" ]
}

@test "clean-up: SIGUSR1 and SIGALRM (they end a process) remove the instance too" {
	need_tracing
	local sig
	for sig in USR1 ALRM; do
		start_ktop "$OUT" -b --csv -d 0.2 -o pid
		wait_for_lines "$OUT" 2 10
		[ -d "$(inst_dir $KPID)" ]
		kill "-$sig" "$KPID"
		wait_exit "$KPID" 10
		# read from the signalfd like SIGTERM: the clean path, exit 0
		[ "$ST" -eq 0 ] || { echo "SIG$sig: exit $ST" >&2; return 1; }
		[ ! -e "$(inst_dir $KPID)" ] || { echo "SIG$sig: ktop-$KPID left behind" >&2; return 1; }
	done
}

@test "clean-up: a crash (SIGSEGV) stops tracing at once; the next ktop removes the instance" {
	need_tracing
	start_ktop "$OUT" -b --csv -d 0.2 -o pid
	wait_for_lines "$OUT" 2 10
	local dead=$KPID
	[ "$(cat "$(inst_dir $dead)/tracing_on")" = 1 ]
	kill -SEGV "$dead"
	wait_exit "$dead" 10
	[ "$ST" -eq $((128 + 11)) ] || { echo "exit $ST" >&2; return 1; }
	# The handler cannot close libtracefs's splice pipes, so it must not rmdir
	# (the kernel would free their pages twice): tracing off, instance kept.
	[ -d "$(inst_dir $dead)" ]
	[ "$(cat "$(inst_dir $dead)/tracing_on")" = 0 ]
	run --separate-stderr timeout 20 "$KTOP" -b -n 1
	[ "$status" -eq 0 ]
	[ ! -e "$(inst_dir $dead)" ]
}

@test "clean-up: a second ktop leaves a running ktop's instance alone, which goes on counting" {
	need_tracing
	start_ktop "$OUT" -b --csv -d 0.2 -o pid,syscalls
	local first=$KPID
	wait_for_lines "$OUT" 2 10
	run --separate-stderr timeout 20 "$KTOP" -b -n 2 -d 0.1
	[ "$status" -eq 0 ]
	[ -d "$(inst_dir $first)" ]
	# after the second one ended, the first still counts syscalls
	local t
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t"
	wait_tick_after "$OUT" "$(tail -n 1 "$OUT" | cut -d, -f1)"
	stop_ktop
	awk -F, -v t="$t" '$1 > t && $4 > 0 { found = 1 } END { exit !found }' "$OUT"
	[ ! -e "$(inst_dir $first)" ]
}

# ---------------------------------------------------------------- 6. itself

@test "ktop does not count itself: its own row has no syscalls" {
	need_tracing
	start_ktop "$OUT" -b --csv -d 0.2 -n 4 -o pid,comm,syscalls,syscall_errors
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ]
	check csv-own-syscalls "$OUT" "$KPID"
}

# ---------------------------------------------------------------- 7. not root

@test "not root: tracing off with the reason in the header; exit 0; no instance made" {
	need_tracing
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	local group d
	group=$(id -gn nobody)
	# /work may be closed to nobody: a copy it can run
	d=$(mktemp -d /tmp/ktop-nobody.XXXXXX)
	echo "$d" >"$BATS_TEST_TMPDIR/nobody-dir"
	chmod 755 "$d"
	cp "$KTOP" "$d/ktop"
	chmod 755 "$d/ktop"
	setpriv --reuid=nobody --regid="$group" --clear-groups "$d/ktop" -b -d 0.3 -n 4 \
		>"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	KPID=$!
	track "$KPID"
	ktop_started "$KPID"
	wait_for_lines "$OUT" 3 10
	# setpriv execs ktop: the same pid
	[ "$(cat "/proc/$KPID/comm")" = ktop ]
	[ ! -e "$(inst_dir $KPID)" ]
	wait_exit "$KPID" 10
	rm -rf "$d"
	[ "$ST" -eq 0 ] || { echo "exit $ST: $(cat "$OUT.err")" >&2; return 1; }
	[ ! -e "$(inst_dir $KPID)" ]
	# said once on stderr too, in the header's words
	[ "$(wc -l <"$OUT.err")" -eq 1 ]
	grep -E '^Events: tracing off: .{10,}' "$OUT"
	[ "$(grep -c '^Events: tracing off: ' "$OUT")" -eq 4 ]
	[ "$(cat "$OUT.err")" = "ktop: $(grep -m1 '^Events: tracing off: ' "$OUT" | cut -d' ' -f2-)" ]
	# the /proc columns only: no syscall column (root's has one: the control)
	grep -q '^ *PID .*COMMAND' "$OUT"
	if grep -q 'SYSC/s' "$OUT"; then return 1; fi
	run --separate-stderr timeout 20 "$KTOP" -b -n 1 -p 1
	[ "$status" -eq 0 ]
	[[ "$output" == *SYSC/s* ]]
	[[ "$output" != *"tracing off"* ]]
}

# ---------------------------------------------------------------- 8. --no-trace

@test "--no-trace: no syscall columns, no instance" {
	need_tracing
	start_ktop "$OUT" -b --csv --no-trace -d 0.2 -n 4
	wait_for_lines "$OUT" 2 10
	[ ! -e "$(inst_dir $KPID)" ]
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ]
	local header
	header=$(head -n 1 "$OUT")
	echo "$header" >&2
	[[ "$header" == time,interval_s,pid,* ]]
	[[ ",$header," != *,syscalls,* ]]
	[[ ",$header," != *,syscall_errors,* ]]
	[[ ",$header," != *,top_syscall,* ]]
	[[ ",$header," != *,sig_recv,* ]]
	[[ ",$header," != *,sig_sent,* ]]
	[[ ",$header," != *,lost_events,* ]]
	grep -q 'tracing=0 ' "$OUT.err"
}

@test "--no-trace: the traced default has the syscall columns (the control)" {
	need_tracing
	run --separate-stderr timeout 20 "$KTOP" -b --csv -d 0.2 -n 1
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *,vcsw,ivcsw,syscalls,syscall_errors,top_syscall,sig_recv,sig_sent,oncpu_ms,runq_ms,sleep_ms,blocked_ms,lost_events,lost_exits ]]
}

@test "--syscalls with --no-trace, and --syscalls without -b: usage errors (exit 2)" {
	run --separate-stderr "$KTOP" -b --csv --syscalls --no-trace -n 1
	[ "$status" -eq 2 ]
	assert_one_line_error
	run --separate-stderr "$KTOP" --syscalls -n 1
	[ "$status" -eq 2 ]
	assert_one_line_error
	run --separate-stderr "$KTOP" --no-trace --syscalls -b -n 1
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "lost events: an overrun ring buffer is counted and shown, never hidden" {
	need_tracing
	# 8 KiB per CPU cannot hold a flood of 200,000 calls while ktop is
	# stopped (a few hundred of their events fit). Running, it reads most of
	# a flood: 2,000,000 calls lost 26,000 to 46,000 events here, 200,000
	# none in 6 runs of 8.
	KTOP_BUFFER_KB=8 start_ktop "$OUT" -b --csv -d 0.3 -o pid,syscalls,lost_events
	wait_for_lines "$OUT" 2 10
	kill -STOP "$KPID"
	dd if=/dev/zero of=/dev/null bs=1 count=100000 2>/dev/null
	kill -CONT "$KPID"
	local t
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t"
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ]
	local lost
	lost=$(awk -F, 'NR > 1 && $5 != "" { if ($5 > m) m = $5 } END { print m + 0 }' "$OUT")
	(( lost > 0 )) || { echo "no lost events in the CSV" >&2; return 1; }
	grep -q ' lost=[1-9]' "$OUT.err"
	# A buffer that fills wakes the reader (buffer_percent): counted, pages read on those wake-ups.
	grep -q ' drains=[1-9]' "$OUT.err" || { grep ktop-stats "$OUT.err" >&2; return 1; }
	# The text header says it where nobody can miss it.
	KTOP_BUFFER_KB=8 start_ktop "$OUT.txt" -b -d 0.3
	wait_for_lines "$OUT.txt" 5 10
	kill -STOP "$KPID"
	dd if=/dev/zero of=/dev/null bs=1 count=100000 2>/dev/null
	kill -CONT "$KPID"
	wait_for_match "$OUT.txt" '^Events/s: .*LOST [0-9][0-9]* events: counts may be short' 10
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
}

@test "a process listed under its parent's name that execs and exits between refreshes: its last row has the new name" {
	need_tracing
	mkfifo "$BATS_TEST_TMPDIR/go"
	# A bash child (comm bash) waits; once ktop has listed it, it execs python3
	# (2000 getppid calls) and exits well within one refresh.
	bash -c 'read -r x <"$1"; exec "$2" -c "import os; [os.getppid() for _ in range(2000)]"' \
		_ "$BATS_TEST_TMPDIR/go" "$PY" </dev/null 3>&- &
	local p=$!
	track "$p"
	"$KTOP" -b --csv -d 0.5 -o pid,comm,syscalls >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	local k=$!
	track "$k"
	wait_for_lines "$OUT" 2 10
	wait_tick_after "$OUT" "$(date +%s.%N)"
	grep -q "^[0-9.]*,[0-9.]*,$p,bash," "$OUT"
	echo go >"$BATS_TEST_TMPDIR/go"
	wait "$p" || true
	# Two ticks that began after it exited: its row of then, and what was
	# read a tick late (a row again, if any); then ktop's clean end.
	wait_tick_after "$OUT" "$(date +%s.%N)"
	wait_tick_after "$OUT" "$(tail -n 1 "$OUT" | cut -d, -f1)"
	kill -TERM "$k"
	wait "$k"
	grep ",$p," "$OUT" >&2
	# its last row: the new name, and the calls it made under it
	grep ",$p," "$OUT" | tail -n 1 | awk -F, '{ exit !($4 == "python3" && $5 >= 2000) }'
}

@test "a process of 3,000 threads that existed before tracing: its process is looked up once, not once a thread" {
	need_tracing
	local wpid n
	helper_prog waker "$BATS_TEST_TMPDIR/waker"
	"$BATS_TEST_TMPDIR/waker" 3000 "$BATS_TEST_TMPDIR/wpid" 3>&- &
	WAKER=$!
	for _ in $(seq 100); do [ -s "$BATS_TEST_TMPDIR/wpid" ] && break; sleep 0.1; done
	wpid=$(cat "$BATS_TEST_TMPDIR/wpid")
	# Every /proc/TID/status ktop opens, counted by strace (only openat is traced).
	run --separate-stderr timeout 60 strace -f -qq -e trace=openat -o "$BATS_TEST_TMPDIR/st" \
		"$KTOP" -b --csv -d 0.25 -n 4 -o pid,syscalls
	kill "$WAKER" 2>/dev/null || true
	wait "$WAKER" 2>/dev/null || true
	[ "$status" -eq 0 ]
	n=$(grep -cE '"/proc/[0-9]+/status"' "$BATS_TEST_TMPDIR/st" || true)
	echo "status opens: $n" >&2
	# Before: one per thread of the waker (3,000). Now one per process whose
	# threads had events, and a listing of its tasks.
	[ "$n" -lt 300 ]
	# Its threads' calls are the process's row.
	awk -F, -v p="$wpid" 'NR > 2 && $3 == p && $4 > 1000 { ok = 1 } END { exit !ok }' <<<"$output"
}

@test "a long /proc scan (-H, 5,000 threads): the ring-buffer pages copied out during it are freed once decoded" {
	need_tracing
	local wpid
	helper_prog waker "$BATS_TEST_TMPDIR/waker"
	"$BATS_TEST_TMPDIR/waker" 5000 "$BATS_TEST_TMPDIR/wpid" 3>&- &
	WAKER=$!
	for _ in $(seq 100); do [ -s "$BATS_TEST_TMPDIR/wpid" ] && break; sleep 0.1; done
	# each tick reads 5,000 threads' /proc files: more than 20 ms, the
	# buffers' pages are copied out as it goes (counting_stash)
	run --separate-stderr env KTOP_STATS=1 timeout 60 "$KTOP" -b -H -d 0.3 -n 6
	[ "$status" -eq 0 ]
	grep '^ktop-stats: ticks' <<<"$stderr" >&2
	grep -q ' stashed=[1-9]' <<<"$stderr"
	# Before: kept at its most (up to 4 ring buffers a CPU) once decoded.
	grep -q ' stash_kept=0 ' <<<"$stderr"
}
