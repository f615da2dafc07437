#!/usr/bin/env bats
# Watching a process of many threads (root): the kernel's pid filter
# (set_event_pid) takes every thread id, and each write to it waits for an RCU
# grace period (20-70 ms). One id a write froze ktop for minutes on 10,000
# threads, deaf to keys and SIGTERM. The ids go in one write; the filter is
# armed in bounded time and counts every thread. Workload: helpers/blockers.c.

load helpers/common

setup_file() {
	helper_prog blockers || true
}

setup() {
	common_setup
	BLOCKERS="$BATS_FILE_TMPDIR/blockers"
}

teardown() { common_teardown; }

need_blockers() {
	need_tracing "the pid filter is tracing's"
	need_built "$BLOCKERS"
}

# start_blockers N [CALLS]: a process of N threads, blocked; sets BPID. With
# CALLS, the other threads wait on the FIFO $BATS_TEST_TMPDIR/gate.
start_blockers() {
	local d=$BATS_TEST_TMPDIR
	if [ -n "${2:-}" ]; then
		mkfifo "$d/gate"
		"$BLOCKERS" "$1" "$d/bpid" "$d/gate" "$d/done" "$2" </dev/null >"$d/blockers.err" 2>&1 3>&- &
	else
		"$BLOCKERS" "$1" "$d/bpid" </dev/null >"$d/blockers.err" 2>&1 3>&- &
	fi
	track $!
	wait_for_file "$d/bpid" 60 || { cat "$d/blockers.err" >&2; return 1; }
	BPID=$(cat "$d/bpid")
	[ "$(ls "/proc/$BPID/task" | wc -l)" -eq "$1" ]
}

now_ms() { echo $(( ${EPOCHREALTIME/./} / 1000 )); }

@test "-p of 10,000 threads: armed within seconds, every thread's calls counted" {
	need_blockers
	local t0 ms on reads ppids
	start_blockers 10001 3
	t0=$(now_ms)
	start_ktop "$OUT" -b --csv --syscalls -d 0.5 -p "$BPID"
	# tracing_on is set last, once the filter holds every thread
	until on=$(cat "$(inst_dir $KPID)/tracing_on" 2>/dev/null) && [ "$on" = 1 ]; do
		kill -0 "$KPID" 2>/dev/null || { cat "$OUT.err" >&2; return 1; }
		(( $(now_ms) - t0 < 60000 )) || { echo "not armed after 60 s" >&2; return 1; }
		sleep 0.05
	done
	ms=$(( $(now_ms) - t0 ))
	echo "armed after $ms ms" >&2
	# one id a write: 4 minutes here
	(( ms < 20000 ))
	head -c 10000 /dev/zero >"$BATS_TEST_TMPDIR/gate"
	wait_for_file "$BATS_TEST_TMPDIR/done" 30
	# a tick that began after the work: all of it is in the output
	local n
	n=$(wc -l <"$OUT")
	wait_for_lines "$OUT" $(( n + 1 )) 10
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ]
	reads=$(awk -F, -v p="$BPID" '$3 == p && $6 == "read" { s += $8 } END { print s + 0 }' "$OUT")
	ppids=$(awk -F, -v p="$BPID" '$3 == p && $6 == "getppid" { s += $8 } END { print s + 0 }' "$OUT")
	echo "read $reads, getppid $ppids" >&2
	[ "$reads" -eq 10000 ]
	[ "$ppids" -eq 30000 ]
}

@test "-p of 10,000 threads: -b -n 2 ends within seconds, with the thread count" {
	need_blockers
	local t0 ms
	start_blockers 10000
	t0=$(now_ms)
	run --separate-stderr timeout 120 "$KTOP" -b --csv -n 2 -d 0.2 -p "$BPID" -o pid,threads,syscalls
	ms=$(( $(now_ms) - t0 ))
	echo "took $ms ms: $stderr" >&2
	[ "$status" -eq 0 ]
	(( ms < 20000 ))
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[1]}" == *",$BPID,10000," ]]
	# nothing ran in the second interval: every thread blocks
	[[ "${lines[2]}" == *",$BPID,10000,0" ]]
}

@test "-p of 10,000 threads: SIGTERM while arming ends ktop within 2 s, instance removed" {
	need_blockers
	local t0
	start_blockers 10000
	start_ktop "$OUT" -b --csv -d 0.2 -p "$BPID" -o pid
	t0=$(now_ms)
	until [ -d "$(inst_dir $KPID)" ]; do
		(( $(now_ms) - t0 < 30000 )) || { echo "no instance ktop-$KPID" >&2; return 1; }
	done
	t0=$(now_ms)
	kill -TERM "$KPID"
	wait_exit "$KPID" 30
	echo "ended $(( $(now_ms) - t0 )) ms after SIGTERM" >&2
	(( $(now_ms) - t0 < 2000 ))
	[ "$ST" -eq 0 ]
	[ ! -e "$(inst_dir $KPID)" ]
}

@test "-p: the thread ids go to set_event_pid in one write (strace)" {
	need_blockers
	need_program strace
	start_blockers 500
	run --separate-stderr strace -f -y -s 0 -e trace=write -o "$BATS_TEST_TMPDIR/st" \
		"$KTOP" -b --csv -n 1 -p "$BPID" -o pid
	[ "$status" -eq 0 ]
	grep 'set_event_pid>' "$BATS_TEST_TMPDIR/st" >&2 || true
	[ "$(grep -c 'set_event_pid>' "$BATS_TEST_TMPDIR/st")" -eq 1 ]
	# the whole list written: 500 ids and their separators
	local len
	len=$(ls "/proc/$BPID/task" | awk '{ n += length($0) + 1 } END { print n - 1 }')
	grep -q "set_event_pid>, \"\"\\.\\.\\., $len) = $len\$" "$BATS_TEST_TMPDIR/st"
}
