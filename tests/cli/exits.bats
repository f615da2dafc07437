#!/usr/bin/env bats
# Dead processes, exact: the kernel's exit records (taskstats) give the rows of
# processes that die between two refreshes their CPU time, faults and user.
# helpers/burn.c starts 20 processes a second that each burn a known CPU time
# and touch known pages, and report their own getrusage as they end; ktop's
# rows must say the same (helpers/ktopcheck.py csv-exits).

load helpers/common

setup_file() {
	helper_prog burn || true
	helper_prog deadcpu || true
}

setup() {
	common_setup
	need_built "$BATS_FILE_TMPDIR/burn"
	[ "$(id -u)" -eq 0 ] || skip "exit records need root (CAP_NET_ADMIN)"
	# Another user must run it: a directory of its own, readable by all.
	DIR=$(mktemp -d /tmp/ktop-burn.XXXXXX)
	chmod 777 "$DIR"
	cp "$BATS_FILE_TMPDIR/burn" "$DIR/burn"
	ln "$DIR/burn" "$DIR/burnone"
}

teardown() {
	common_teardown
	[ -n "$DIR" ] && rm -rf "$DIR"
}

# csv_start COLUMNS KTOP-ARGS...: ktop's CSV into $OUT (ktop: $KPID), its
# header and first sample written: the test's processes come after it, and
# after the time it began listening (known within 0.1 s, taskstats.h). The
# interval's length is not what the checks are about: a short one.
csv_start() {
	local cols=$1
	shift
	"$KTOP" -b --csv -d 0.2 -o "$cols" "$@" >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	KPID=$!
	track "$KPID"
	wait_for_lines "$OUT" 2 10
	sleep 0.3
}

# csv_stop: the test's processes reaped, a tick begun after that has read
# them all; and one more, for calls read a tick late (however long the load
# made it). Then ktop ends, with 0.
csv_stop() {
	local st=0 t
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t" 10
	wait_tick_after "$OUT" "$(tail -n 1 "$OUT" | cut -d, -f1)" 10
	kill -TERM "$KPID"
	wait "$KPID" || st=$?
	[ "$st" -eq 0 ] || { echo "ktop exit $st: $(cat "$OUT.err")" >&2; return 1; }
}

# burn_rows USER N EVERY_MS MS PAGES THREADS KTOP-ARGS...: ktop's CSV of the
# interval the loop runs in ($OUT), the processes' own report ($DIR/report).
burn_rows() {
	local user=$1 n=$2 every=$3 ms=$4 pages=$5 threads=$6
	shift 6
	csv_start pid,user,comm,state,cpu_s,cpu_pct,minflt,majflt,vcsw,syscalls "$@"
	setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups \
		"$DIR/burn" loop "$n" "$every" "$DIR/burnone" "$ms" "$pages" "$DIR/report" "$threads"
	csv_stop
	[ "$(wc -l <"$DIR/report")" -eq "$n" ] || { echo "$(wc -l <"$DIR/report") reports of $n" >&2; return 1; }
}

# wait4_rows DEADCPU-ARGS...: ktop's CSV ($OUT, traced) over a run of
# helpers/deadcpu.c, whose children's wait4 is in $DIR/report. The helper and
# its children run SCHED_FIFO on one CPU: a child runs from its parent's
# switch to it to its own switches, no other task comes between (a task
# whose own events the kernel does not record, as pid 1's threads on some
# virtual machines, hides the switch back to the task it preempted).
wait4_rows() {
	need_built "$BATS_FILE_TMPDIR/deadcpu"
	need_program chrt util-linux
	need_program taskset util-linux
	csv_start pid,comm,state,cpu_s,cpu_pct
	taskset -c "$(($(nproc) - 1))" chrt -f 1 "$BATS_FILE_TMPDIR/deadcpu" "$@" "$DIR/report"
	csv_stop
}

# The exit record is sent before the exit frees the memory, with the runtime
# of the last clock tick: the events add what came after (the X row's cpu_s
# is wait4's, not 20-40 ms short for 256 MiB, nor a tick short for a spin).
@test "exits: 12 children touching 256 MiB or spinning 20 ms: cpu_s is wait4's (traced)" {
	wait4_rows kids 12 256 20 250
	run check csv-wait4 "$OUT" "$DIR/report"
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

# A child that touched 4 MiB and exited between two refreshes, reaped 0.6 s
# later (three refreshes): its record's runtime is its last clock tick's, 0
# when its one run met none; its Z rows and its X row are what wait4 says
# (they read 0.000000).
@test "exits: a child first seen as a zombie: its Z and X rows' cpu_s is wait4's, not 0 (traced)" {
	wait4_rows zombie 4 600
	run check csv-wait4 "$OUT" "$DIR/report" Z
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

@test "exits: 40 processes of 30 ms and 500 pages, 20 a second: every X row exact (traced)" {
	burn_rows root 40 50 30 500 0
	run check csv-exits "$OUT" "$DIR/report" burnone root
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

@test "exits: another user's, without tracing: user, CPU and faults exact, switches known" {
	burn_rows nobody 40 50 30 500 0 --no-trace
	run check csv-exits "$OUT" "$DIR/report" burnone nobody
	echo "$output" >&2
	[ "$status" -eq 0 ]
	# without tracing the switches come from the record (or /proc): never unknown
	if awk -F, 'NR > 1 && $5 == "burnone" && $11 == "" { bad = 1 } END { exit !bad }' "$OUT"; then return 1; fi
}

@test "exits: processes of 4 threads: the threads' records summed" {
	burn_rows root 12 100 20 300 3
	run check csv-exits "$OUT" "$DIR/report" burnone root
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

@test "exits: records the kernel dropped are counted and said (text, CSV, JSON)" {
	local i fmt flag
	local -A kpid
	# one ktop a format, side by side: each stopped once its first sample is out
	for fmt in text csv json; do
		flag=--$fmt
		[ "$fmt" = text ] && flag=-b
		# a receive buffer of 1 KiB holds 2 records; ktop stopped, 60 exits overflow it
		# not under timeout: the pid stopped must be ktop's (-n ends it)
		KTOP_EXITS_KB=1 "$KTOP" -b "$flag" -d 0.5 -n 4 \
			-o pid,comm,state,cpu_s,lost_exits >"$OUT.$fmt" 2>"$OUT.err.$fmt" </dev/null 3>&- &
		kpid[$fmt]=$!
		track "${kpid[$fmt]}"
	done
	for fmt in text csv json; do
		# listening since before the first sample
		wait_for_file "$OUT.$fmt" 10
		kill -STOP "${kpid[$fmt]}"
	done
	for ((i = 0; i < 60; i++)); do /bin/true; done
	for fmt in text csv json; do
		kill -CONT "${kpid[$fmt]}"
	done
	for fmt in text csv json; do
		wait "${kpid[$fmt]}" || { echo "$fmt: ktop exit $?: $(cat "$OUT.err.$fmt")" >&2; return 1; }
	done
	grep -qE '^Exits: LOST [0-9]+ exit records: dead processes' "$OUT.text"
	awk -F, 'NR > 1 && $7 > 0 { found = 1 } END { exit !found }' "$OUT.csv"
	"$PY" -c 'import json, sys
lost = [json.loads(l)["system"].get("lost_exits") for l in open(sys.argv[1])]
assert any(v for v in lost if v), lost' "$OUT.json"
}

@test "exits: not root, no records: the header says why, the columns stay empty" {
	# /work may be closed to nobody: a copy it can run
	cp "$KTOP" "$DIR/ktop"
	run --separate-stderr setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$DIR/ktop" -b -n 1 --no-trace
	[ "$status" -eq 0 ]
	[[ "$output" == *"Exits: exit records off: taskstats: needs root (CAP_NET_ADMIN)"* ]]
	run --separate-stderr setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$DIR/ktop" -b --json -n 1 --no-trace
	[ "$status" -eq 0 ]
	"$PY" -c 'import json, sys
d = json.loads(sys.stdin.readline())
assert d["system"]["exit_records"] == "exit records off: taskstats: needs root (CAP_NET_ADMIN)", d["system"]
assert all(p["lost_exits"] is None for p in d["processes"])' <<<"$output"
}

@test "exits: children their parent has not reaped: Z rows, none X (traced and not)" {
	local gate="$DIR/gate" ready="$DIR/zpids" opt kpid zpid deadline
	for opt in "" --no-trace; do
		rm -f "$gate" "$ready" "$ready.tmp"
		mkfifo "$gate"
		# the parent forks 5 children when the test says, and never reaps them
		"$PY" -c '
import os, signal, sys, time
open(sys.argv[1]).read(1)
pids = []
for i in range(5):
    pid = os.fork()
    if pid == 0:
        os._exit(3)
    pids.append(str(pid))
    time.sleep(0.13)
with open(sys.argv[2] + ".tmp", "w") as f:
    f.write(" ".join(pids))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
signal.pause()' "$gate" "$ready" </dev/null 3>&- &
		track $!
		"$KTOP" $opt -b --csv -d 0.2 -o pid,state,comm >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
		kpid=$!
		track "$kpid"
		wait_for_lines "$OUT" 2 10
		echo x >"$gate"
		wait_for_file "$ready" 10
		# each one's rows of three ticks (within 20 s: never is a failure)
		deadline=$((SECONDS + 20))
		for zpid in $(cat "$ready"); do
			until [ "$(grep -c "^[0-9.]*,[0-9.]*,$zpid," "$OUT")" -ge 3 ]; do
				kill -0 "$kpid" || return 1
				[ "$SECONDS" -lt "$deadline" ] || {
					echo "${opt:-traced}: no 3 rows of $zpid:" >&2
					grep "^[0-9.]*,[0-9.]*,$zpid," "$OUT" >&2
					return 1
				}
				sleep 0.05
			done
		done
		kill -TERM "$kpid"
		wait_exit "$kpid" 10
		for zpid in $(cat "$ready"); do
			grep "^[0-9.]*,[0-9.]*,$zpid," "$OUT" >&2
			# (/proc may read one running before it exits: R, then Z)
			[ "$(grep -c "^[0-9.]*,[0-9.]*,$zpid,Z," "$OUT")" -ge 2 ]
			# (not '! grep': bats does not fail on a negated command but the last)
			[ "$(grep -c "^[0-9.]*,[0-9.]*,$zpid,X," "$OUT")" -eq 0 ]
		done
	done
}
