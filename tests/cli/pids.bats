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

@test "-p: ktop exits 0 by itself soon after the watched process exits" {
	sleep 0.7 3>&- &
	local pid=$! t0 t1
	track "$pid"
	t0=$(date +%s%N)
	run --separate-stderr timeout 5 "$KTOP" -b --csv -d 0.1 -p "$pid" -o pid,comm
	t1=$(date +%s%N)
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	(( (t1 - t0) / 1000000 < 3000 ))
	# it was listed while it ran, and then no more
	[ "${lines[0]}" = "time,interval_s,pid,comm" ]
	[[ "${lines[1]}" == *",$pid,sleep" ]]
	[ "$(grep -c ",$pid,sleep\$" <<<"$output")" -eq $(( ${#lines[@]} - 1 )) ]
}

@test "-p A,B: ktop goes on while one of them lives, ends when both are gone" {
	sleep 0.3 3>&- &
	local a=$!
	sleep 1.2 3>&- &
	local b=$!
	track "$a" "$b"
	run --separate-stderr timeout 5 "$KTOP" -b --csv -d 0.1 -p "$a,$b" -o pid
	[ "$status" -eq 0 ]
	local na nb
	na=$(grep -c ",$a\$" <<<"$output")
	nb=$(grep -c ",$b\$" <<<"$output")
	(( na >= 1 && nb > na + 3 ))
}

@test "-H -p: ktop exits by itself when the watched process exits" {
	sleep 0.5 3>&- &
	local pid=$!
	track "$pid"
	run --separate-stderr timeout 5 "$KTOP" -b -H -d 0.1 -p "$pid" -o pid,tgid,comm
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
}

@test "RLIMIT_NOFILE 64 and 300 processes: every one in both iterations, vcsw known" {
	command -v prlimit >/dev/null || skip "no prlimit"
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
	command -v prlimit >/dev/null || skip "no prlimit"
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
