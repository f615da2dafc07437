#!/usr/bin/env bats
# Hostile processes on a real kernel: a pid reused within one refresh, a command
# line of 100 kB and one full of escapes, processes that exit between the /proc
# listing and the read of their files. (Hostile names: names.bats.)

load helpers/common

setup_file() {
	local cc
	cc=$(command -v cc || command -v gcc) || return 0
	"$cc" -O2 -Wall -o "$BATS_FILE_TMPDIR/pidreuse" "$BATS_TEST_DIRNAME/helpers/pidreuse.c" ||
		echo "pidreuse.c does not build" >&2
}

setup() {
	common_setup
	PIDREUSE="$BATS_FILE_TMPDIR/pidreuse"
}

teardown() {
	common_teardown
	# a traced ktop killed by the teardown leaves its instance
	[ -n "${KPID:-}" ] && rmdir "/sys/kernel/tracing/instances/ktop-$KPID" 2>/dev/null
	return 0
}

# reuse_case ARGS...: ktop -b --csv ARGS, a process killed and its pid given to a
# new one (another name) between two refreshes: the first refresh after it
# shows the new process's name in that pid's row, and so does every later one.
reuse_case() {
	[ "$(id -u)" -eq 0 ] || skip "reusing a pid on purpose needs root (clone3 set_tid)"
	[ -x "$PIDREUSE" ] || skip "helpers/pidreuse.c was not built"
	local d=$BATS_TEST_TMPDIR pid t after
	mkfifo "$d/gate"
	"$PIDREUSE" "$d/ready" "$d/gate" >"$d/done" 2>"$d/err" </dev/null 3>&- &
	track $!
	wait_for_file "$d/ready" 5
	pid=$(cat "$d/ready")
	track "$pid"
	"$KTOP" -b --csv -d 0.5 -o pid,comm,state "$@" >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	KPID=$!
	track "$KPID"
	# two ticks that show the old process: the second one is past the first listing
	wait_tick_after "$OUT" "$(date +%s.%N)"
	wait_tick_after "$OUT" "$(date +%s.%N)"
	grep -q ",$pid,reuse-old," "$OUT" || { cat "$OUT" >&2; return 1; }
	printf g >"$d/gate"
	wait_for_file "$d/done" 5
	t=$(date +%s.%N)
	[ "$(cat "$d/done")" = "done $pid" ] || {
		st=$(cat "$d/err")
		[[ "$st" == *"clone3"* ]] && skip "the kernel would not reuse the pid: $st"
		return 1
	}
	wait_tick_after "$OUT" "$t"
	after=$(date +%s.%N)
	wait_tick_after "$OUT" "$after"
	wait_tick_after "$OUT" "$(date +%s.%N)"
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ] || { echo "ktop exit $ST: $(cat "$OUT.err")" >&2; return 1; }
	# every tick that began after the swap: one row for the pid, the new name
	awk -F, -v t="$t" -v pid="$pid" '
		NR > 1 && $1 > t { ticks[$1] = 1; if ($3 == pid) { rows[$1]++; if ($4 != "reuse-new") bad = bad " " $1 ":" $4 } }
		END {
			for (k in ticks) { n++; if (rows[k] != 1) { print "tick " k ": " rows[k] + 0 " rows for the pid" > "/dev/stderr"; err = 1 } }
			if (bad) { print "old name after the swap:" bad > "/dev/stderr"; err = 1 }
			if (n < 3) { print "only " n " ticks after the swap" > "/dev/stderr"; err = 1 }
			exit err
		}' "$OUT"
}

@test "pid reuse within one refresh: the new process gets the row at once (tracing)" {
	reuse_case
}

@test "pid reuse within one refresh: the new process gets the row at once (--no-trace)" {
	reuse_case --no-trace
}
