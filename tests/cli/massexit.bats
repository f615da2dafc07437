#!/usr/bin/env bats
# Never dies (issue 20): 1,000 tasks that end at once, under the program built
# with ASan+UBSan (build/ktop-asan), in each mode: no crash, no sanitizer
# report, and every task's rows exact (its signal counted once, its last row
# its only X). Then the watchdog: a step of the loop that never finishes
# (KTOP_TEST_STALL) still lets SIGTERM, SIGINT and SIGHUP end ktop within a
# second or two, with its instance removed. The long forms (10,000 tasks,
# repeated, exec and thread storms, pid reuse) are tests/stress/massexit.sh.

load helpers/common
load ../instances

ASAN="$BATS_TEST_DIRNAME/../../build/ktop-asan"
N=${KTOP_MASSEXIT_N:-1000}

setup_file() {
	helper_prog massexit || true
}

setup() {
	common_setup
	[ "$(id -u)" -eq 0 ] || skip "needs tracing (root)"
	[ -d /sys/kernel/tracing/instances ] || skip_kernel "no tracefs"
	need_built "$BATS_FILE_TMPDIR/massexit"
	need_built "$ASAN"
	READY="$BATS_TEST_TMPDIR/ready"
	ERR="$BATS_TEST_TMPDIR/err"
	export LSAN_OPTIONS="suppressions=$BATS_TEST_DIRNAME/../lsan.supp:print_suppressions=0"
	export UBSAN_OPTIONS="print_stacktrace=1"
}

teardown() {
	common_teardown
}

# start_tasks MODE: the tasks, waiting for the go; sets MX (the helper's pid).
start_tasks() {
	"$BATS_FILE_TMPDIR/massexit" "$1" "$N" "$READY" </dev/null &
	MX=$!
	track "$MX"
	wait_for_file "$READY" 120
}

# intervals FILE: how many intervals a CSV output has written.
intervals() {
	tail -n +2 "$1" 2>/dev/null | cut -d, -f1 | sort -u | wc -l
}

# go_after FILE N: once FILE shows N intervals, the tasks end at once.
go_after() {
	local i
	for ((i = 0; i < 1200; i++)); do
		(( $(intervals "$1") >= $2 )) && break
		sleep 0.05
	done
	kill -USR1 "$MX"
}

# sane KTOP-STATUS [ERRFILE]: ktop ended by itself, with no sanitizer report
# (on ERRFILE, default $ERR).
sane() {
	local err=${2:-$ERR}
	if [ "$1" -ne 0 ] || grep -qE 'runtime error|ERROR: (Address|Leak)Sanitizer|SUMMARY:' "$err"; then
		echo "ktop-asan exit $1:" >&2
		head -40 "$err" >&2
		return 1
	fi
}

# run_batch ARGS...: ktop-asan -b --csv -d 0.25 ARGS in the background while
# the tasks end at its third interval; once every task is gone (READY.done) and
# three more intervals are written, SIGINT ends it (its clean exit, status 0).
# No fixed -n: a slow machine takes longer to kill 1,000 processes than a
# count of intervals would wait for.
run_batch() {
	local st=0 i n
	timeout 300 "$ASAN" -b --csv -d 0.25 -o pid,ppid,comm,state,sig_recv,sig_sent,syscalls "$@" \
		>"$OUT" 2>"$ERR" &
	local kp=$!
	track "$kp"
	go_after "$OUT" 2
	wait_for_file "$READY.done" 240
	n=$(( $(intervals "$OUT") + 3 ))
	for ((i = 0; i < 1200; i++)); do
		(( $(intervals "$OUT") >= n )) && break
		# -p ends by itself with its process (bash has reaped it: no zombie
		# to look for in /proc; that wait took the loop's whole 60 s and more).
		kill -0 "$kp" 2>/dev/null || break
		sleep 0.05
	done
	kill -INT "$kp" 2>/dev/null || true
	wait "$kp" || st=$?
	sane "$st"
}

@test "mass exit: $N processes killed at once, -b --csv, with exit records: exact rows" {
	start_tasks procs
	run_batch
	run check csv-mass-exit "$OUT" "$READY.pids" 1 mx-kid
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

@test "mass exit: the same with the exit records off (the events alone)" {
	start_tasks procs
	KTOP_EXITS_KB=0 run_batch
	run check csv-mass-exit "$OUT" "$READY.pids" 1 mx-kid
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

@test "mass exit: untraced (--no-trace), the exit records alone: no sanitizer report, rows ending in X" {
	start_tasks procs
	run_batch --no-trace
	# untraced, signals are not counted (empty): 0 received in all
	run check csv-mass-exit "$OUT" "$READY.pids" 0 mx-kid
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

@test "sanitizer build: every view and grouping, traced and untraced, JSON and text: no report" {
	local v g t st i bad=0 pids=() what=()
	# Side by side (each run mostly waits for its two intervals): each its
	# own ktop, instance and report.
	for t in --no-trace ""; do
		for v in processes syscalls errors subsystems signals latency; do
			"$ASAN" -b -n 2 -d 0.2 $t --view "$v" >/dev/null 2>"$ERR.${#pids[@]}" &
			pids+=($!)
			what+=("--view $v $t")
		done
		for g in comm user cgroup unit container; do
			"$ASAN" -b -n 2 -d 0.2 $t --view groups --group-by "$g" --json >/dev/null \
				2>"$ERR.${#pids[@]}" &
			pids+=($!)
			what+=("--group-by $g $t")
		done
	done
	track "${pids[@]}"
	ktop_started "${pids[@]}"
	for i in "${!pids[@]}"; do
		st=0
		wait "${pids[i]}" || st=$?
		sane "$st" "$ERR.$i" || { echo "${what[i]}" >&2; bad=1; }
	done
	[ "$bad" -eq 0 ]
}

@test "mass exit: recording and serving metrics at once (-w, --listen)" {
	start_tasks procs
	run_batch -w "$BATS_TEST_TMPDIR/rec.db" --listen 127.0.0.1:0
	run check csv-mass-exit "$OUT" "$READY.pids" 1 mx-kid
	echo "$output" >&2
	[ "$status" -eq 0 ]
	# The recording replays, under the sanitizers too, to what was written.
	run --separate-stderr "$ASAN" -r "$BATS_TEST_TMPDIR/rec.db" -b --csv \
		-o pid,ppid,comm,state,sig_recv,sig_sent,syscalls
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$OUT")" ]
}

@test "mass exit: -- CMD, its $N children followed and killed at once" {
	local st=0
	timeout 120 "$ASAN" -b --csv -d 0.25 -o pid,ppid,comm,state,sig_recv,sig_sent,syscalls \
		-- "$BATS_FILE_TMPDIR/massexit" procs "$N" "$READY" >"$OUT" 2>"$ERR" &
	local kp=$!
	track "$kp"
	wait_for_file "$READY" 120
	MX=$(cat "$READY")
	go_after "$OUT" 3
	wait "$kp" || st=$?
	sane "$st"
	run check csv-mass-exit "$OUT" "$READY.pids" 1 mx-kid
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

@test "mass exit: -p of the parent whose $N children die at once" {
	start_tasks procs
	run_batch -p "$MX"
	# Its row says it exited, once, at the end.
	echo "$MX" >"$BATS_TEST_TMPDIR/parent"
	run check csv-mass-exit "$OUT" "$BATS_TEST_TMPDIR/parent" 0 massexit
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

@test "mass exit: an exec storm, $N children executing true at once" {
	start_tasks exec
	run_batch
	run check csv-mass-exit "$OUT" "$READY.pids" 1 true
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

@test "mass exit: $N threads of one process returning at once, -H" {
	start_tasks threads
	run_batch -H
	# The process goes on with its one thread and ends: its last row X.
	echo "$MX" >"$BATS_TEST_TMPDIR/proc"
	grep -q "^[^,]*,[^,]*,$MX," "$OUT"
}

# live_start SERVER DELAY: the sanitizer build's live view in tmux (120x40,
# server SERVER, window t), once its table is drawn; it writes its metrics
# (--textfile) for live_refreshes.
live_start() {
	local i
	tmux -L "$1" kill-server 2>/dev/null || true
	mkdir -p "$BATS_TEST_TMPDIR/tf"
	tmux -L "$1" new-session -d -s t -x 120 -y 40 \
		"LSAN_OPTIONS='$LSAN_OPTIONS' UBSAN_OPTIONS='$UBSAN_OPTIONS' '$ASAN' -d $2 --textfile '$BATS_TEST_TMPDIR/tf' 2>'$ERR'; echo \$? >'$BATS_TEST_TMPDIR/st'"
	for ((i = 0; i < 300; i++)); do
		tmux -L "$1" capture-pane -p -t t | grep -q '^ *PID ' && break
		sleep 0.1
	done
	wait_for_file "$BATS_TEST_TMPDIR/tf/ktop.prom" 30
}

# live_refreshes N: until the live view has refreshed N times more than now
# (its own count, ktop_refreshes_total), not a guess of the clock's. Two
# after a key: the first may have been under way when the key came.
live_refreshes() {
	local f="$BATS_TEST_TMPDIR/tf/ktop.prom" v0 v i
	v0=$(sed -n 's/^ktop_refreshes_total \([0-9]*\)$/\1/p' "$f")
	for ((i = 0; i < 1500; i++)); do
		v=$(sed -n 's/^ktop_refreshes_total \([0-9]*\)$/\1/p' "$f")
		[ -n "$v" ] && [ -n "$v0" ] && ((v >= v0 + $1)) && return 0
		if [ -s "$BATS_TEST_TMPDIR/st" ]; then
			echo "the live view ended" >&2
			sane "$(cat "$BATS_TEST_TMPDIR/st")"
			return 1
		fi
		sleep 0.02
	done
	echo "the live view did not refresh $1 times after ${v0:-none} (now ${v:-none})" >&2
	return 1
}

# live_end SERVER: q; it ended by itself, with no sanitizer report.
live_end() {
	tmux -L "$1" send-keys -t t q
	wait_for_file "$BATS_TEST_TMPDIR/st" 20
	tmux -L "$1" kill-server 2>/dev/null || true
	sane "$(cat "$BATS_TEST_TMPDIR/st")"
}

@test "mass exit: the live view (tmux, 120x40) while $N processes die at once" {
	need_program tmux
	local S=ktop-mx-$$
	start_tasks procs
	live_start "$S" 0.25
	live_refreshes 2
	kill -USR1 "$MX"
	wait_for_file "$READY.done" 120
	# Four refreshes after the deaths, the view still answers keys.
	live_refreshes 4
	tmux -L "$S" send-keys -t t P
	live_refreshes 2
	live_end "$S"
}

@test "sanitizer build, live view (tmux): threads on and off (H), views, sorts, the process view: no report" {
	need_program tmux
	local S=ktop-keys-$$ key
	live_start "$S" 0.1
	# H frees every task the rows point at (the use after free it made).
	# Each key, then a refresh after it.
	for key in H P H M N T '<' '>' I x t t c 1 2 3 4 5 6 7 1 H Enter Escape H; do
		tmux -L "$S" send-keys -t t "$key"
		live_refreshes 2
	done
	live_end "$S"
}

# oncpu_ns PID: the nanoseconds its main thread has run (schedstat).
oncpu_ns() {
	local ns
	read -r ns _ <"/proc/$1/task/$1/schedstat"
	echo "$ns"
}

# stalled SIGNAL: ktop -b whose third tick never finishes; SIGNAL ends it.
stalled() {
	local kp t0 t1 i ns
	KTOP_TEST_STALL=3 "$KTOP" -b -d 0.2 -o pid,comm >"$OUT" 2>"$ERR" &
	kp=$!
	track "$kp"
	# Two ticks written, then the stall under way: its main thread has run
	# 300 ms more since (a tick of this ktop takes milliseconds; the stall
	# spins).
	for ((i = 0; i < 200; i++)); do
		[ "$(grep -c '^ktop -' "$OUT")" -ge 2 ] && break
		sleep 0.05
	done
	ns=$(oncpu_ns "$kp")
	for ((i = 0; i < 200; i++)); do
		(( $(oncpu_ns "$kp") - ns >= 300000000 )) && break
		sleep 0.05
	done
	echo "stalled: its main thread ran $(( ($(oncpu_ns "$kp") - ns) / 1000000 )) ms since its second tick" >&2
	[ -d "$(inst_dir "$kp")" ]
	t0=$(date +%s%N)
	kill -"$1" "$kp"
	for ((i = 0; i < 100; i++)); do
		kill -0 "$kp" 2>/dev/null || break
		sleep 0.05
	done
	t1=$(date +%s%N)
	wait "$kp" || st=$?
	echo "ended in $(( (t1 - t0) / 1000000 )) ms, status ${st:-0}: $(cat "$ERR")" >&2
	(( t1 - t0 < 2500000000 ))
	[ "${st:-0}" -eq 1 ]
	grep -q "busy for .* ms without finishing.*ended on SIG$1: tracing stopped, its instance removed" "$ERR"
	[ ! -d "$(inst_dir "$kp")" ]
}

@test "watchdog: a tick that never finishes, then SIGTERM: gone within 2.5 s, instance removed" {
	stalled TERM
}

@test "watchdog: the same for SIGINT and SIGHUP" {
	stalled INT
	stalled HUP
}
