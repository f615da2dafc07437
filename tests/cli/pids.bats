#!/usr/bin/env bats
# -p and -H: which tasks are listed, watched processes that exit, and many
# processes under a descriptor limit lower than their number.

load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

@test "-H: a process with 3 threads shows 3 rows, each with its tgid" {
	start_workload idle 3
	run timeout 10 "$KTOP" -b --csv -H -n 3 -d 0.1 -p "$WL_PID" -o pid,tgid,comm
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	[ "${lines[0]}" = "time,interval_s,pid,tgid,comm" ]
	check csv-threads "$OUT" "$WL_PID" 3
}

@test "-H: every thread of the system has a row, with its tgid" {
	start_workload idle 3
	run timeout 10 "$KTOP" -b --csv -H -n 1 -o pid,tgid
	[ "$status" -eq 0 ]
	local tid
	for tid in $(ls "/proc/$WL_PID/task"); do
		grep -q "^[0-9.]*,,$tid,$WL_PID\$" <<<"$output" || { echo "no row $tid,$WL_PID" >&2; return 1; }
	done
}

# ticks_of FILE PID: the rows of PID in a CSV output so far.
ticks_of() {
	grep -c ",$2\$" "$1" 2>/dev/null || true
}

# until_ticks FILE PID N: until PID has N rows in FILE (up to 30 s).
until_ticks() {
	local i
	for ((i = 0; i < 600; i++)); do
		(( $(ticks_of "$1" "$2") >= $3 )) && return 0
		sleep 0.05
	done
	echo "timed out waiting for $3 rows of $2 in $1" >&2
	return 1
}

@test "-p: ktop exits 0 by itself soon after the watched process exits" {
	sleep 300 3>&- &
	local pid=$! t0 t1 st=0
	track "$pid"
	timeout 60 "$KTOP" -b --csv -d 0.1 -p "$pid" -o comm,pid >"$OUT" 2>"$OUT.err" &
	local kp=$!
	track "$kp"
	until_ticks "$OUT" "$pid" 2
	t0=$(date +%s%N)
	kill "$pid"
	wait "$kp" || st=$?
	t1=$(date +%s%N)
	[ "$st" -eq 0 ]
	[ ! -s "$OUT.err" ]
	(( (t1 - t0) / 1000000 < 3000 ))
	# it was listed while it ran, and then no more
	mapfile -t lines <"$OUT"
	[ "${lines[0]}" = "time,interval_s,comm,pid" ]
	[[ "${lines[1]}" == *",sleep,$pid" ]]
	[ "$(grep -c ",sleep,$pid\$" "$OUT")" -eq $(( ${#lines[@]} - 1 )) ]
}

# The watched processes end when the test says, never by the machine's speed.
@test "-p A,B: ktop goes on while one of them lives, ends when both are gone" {
	sleep 300 3>&- &
	local a=$! st=0
	sleep 300 3>&- &
	local b=$!
	track "$a" "$b"
	timeout 60 "$KTOP" -b --csv -d 0.1 -p "$a,$b" -o pid >"$OUT" 2>"$OUT.err" &
	local kp=$!
	track "$kp"
	until_ticks "$OUT" "$a" 2
	kill "$a"
	until_ticks "$OUT" "$b" $(( $(ticks_of "$OUT" "$a") + 4 ))
	kill "$b"
	wait "$kp" || st=$?
	[ "$st" -eq 0 ]
	local na nb
	na=$(ticks_of "$OUT" "$a")
	nb=$(ticks_of "$OUT" "$b")
	echo "A: $na rows, B: $nb rows" >&2
	(( na >= 2 && nb > na + 3 ))
}

@test "-H -p: ktop exits by itself when the watched process exits" {
	sleep 300 3>&- &
	local pid=$! st=0
	track "$pid"
	timeout 60 "$KTOP" -b --csv -H -d 0.1 -p "$pid" -o tgid,comm,pid >"$OUT" 2>"$OUT.err" &
	local kp=$!
	track "$kp"
	until_ticks "$OUT" "$pid" 1
	kill "$pid"
	wait "$kp" || st=$?
	[ "$st" -eq 0 ]
	[ ! -s "$OUT.err" ]
}

@test "RLIMIT_NOFILE 64 and 300 processes: every one in both iterations, vcsw known" {
	need_program prlimit util-linux
	start_sleeps 300
	run --separate-stderr timeout 20 prlimit --nofile=64:64 "$KTOP" -b --csv -n 2 -d 0.2 -o pid,comm,vcsw
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	printf '%s\n' "$output" >"$OUT"
	run check csv-pids "$OUT" any vcsw "${SLEEP_PIDS[@]}"
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	[ "$output" = 2 ]
}

@test "RLIMIT_NOFILE 64 and 300 processes with -p of all of them" {
	need_program prlimit util-linux
	start_sleeps 300
	local list
	list=$(IFS=,; echo "${SLEEP_PIDS[*]}")
	run --separate-stderr timeout 20 prlimit --nofile=64:64 "$KTOP" -b --csv -n 3 -d 0.2 -p "$list" -o pid,comm,vcsw,minflt
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	printf '%s\n' "$output" >"$OUT"
	run check csv-pids "$OUT" only vcsw,minflt "${SLEEP_PIDS[@]}"
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	[ "$output" = 3 ]
}
