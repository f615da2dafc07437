#!/usr/bin/env bats
# Batch CSV output, read back with python3's csv module.

load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

@test "CSV: -n 3 -d 0.2 parses; header, field counts, empty first iteration, intervals, counts" {
	run --separate-stderr timeout 10 "$KTOP" -b --csv -n 3 -d 0.2
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	printf '%s\n' "$output" >"$OUT"
	check csv-format "$OUT" 3 0.1 0.5
}

@test "CSV: the header is time,interval_s then the default columns" {
	run timeout 10 "$KTOP" -b --csv -n 1 -p 1
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "time,interval_s,pid,ppid,user,uid,comm,state,nice,threads,cpu_pct,mem_pct,rss_kb,vsz_kb,cpu_s,minflt,majflt,vcsw,ivcsw,syscalls,syscall_errors,top_syscall,sig_recv,sig_sent,oncpu_ms,runq_ms,sleep_ms,blocked_ms,lost_events,lost_exits" ]
	[ "${#lines[@]}" -eq 2 ]
}

@test "CSV: --no-trace: the default columns are the /proc ones" {
	run --separate-stderr timeout 10 "$KTOP" -b --csv --no-trace -n 1 -p 1
	[ "$status" -eq 0 ]
	[ "$stderr" = "ktop: tracing off: --no-trace" ]
	[ "${lines[0]}" = "time,interval_s,pid,ppid,user,uid,comm,state,nice,threads,cpu_pct,mem_pct,rss_kb,vsz_kb,cpu_s,minflt,majflt,vcsw,ivcsw,runq_ms,lost_exits" ]
}

@test "CSV: the header is written once, not per iteration" {
	run timeout 10 "$KTOP" -b --csv -n 3 -d 0.1 -p 1
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	[ "$(grep -c '^time,' <<<"$output")" -eq 1 ]
}

@test "CSV: -o pid,comm gives exactly those columns after time,interval_s" {
	run timeout 10 "$KTOP" -b --csv -n 2 -d 0.1 -o pid,comm
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	run check csv-header "$OUT"
	[ "$status" -eq 0 ]
	[ "$output" = "time,interval_s,pid,comm" ]
	run timeout 10 "$KTOP" -b --csv -n 1 -o COMM,Pid,vcsw
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "time,interval_s,comm,pid,vcsw" ]
}

@test "CSV: -p PID restricts the rows to that process" {
	start_sleeps 1
	run timeout 10 "$KTOP" -b --csv -n 3 -d 0.1 -p "${SLEEP_PIDS[0]}" -o pid,comm,minflt
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	[ "${#lines[@]}" -eq 4 ]
	check csv-pids "$OUT" only minflt "${SLEEP_PIDS[0]}" >/dev/null
	[[ "${lines[1]}" == *",${SLEEP_PIDS[0]},sleep," ]]
}

@test "CSV: -p PID1,PID2 and -p PID1 -p PID2 show both and only those" {
	start_sleeps 3
	run timeout 10 "$KTOP" -b --csv -n 2 -d 0.1 -p "${SLEEP_PIDS[0]},${SLEEP_PIDS[1]}" -o pid,comm,vcsw
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	[ "${#lines[@]}" -eq 5 ]
	check csv-pids "$OUT" only vcsw "${SLEEP_PIDS[0]}" "${SLEEP_PIDS[1]}" >/dev/null
	run timeout 10 "$KTOP" -b --csv -n 2 -d 0.1 -p "${SLEEP_PIDS[2]}" -p "${SLEEP_PIDS[0]}" -o pid,comm
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	check csv-pids "$OUT" only - "${SLEEP_PIDS[0]}" "${SLEEP_PIDS[2]}" >/dev/null
}

@test "CSV: -s pid sorts descending, -s +pid ascending" {
	run timeout 10 "$KTOP" -b --csv -n 2 -d 0.1 -s pid -o pid,comm
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	check csv-order "$OUT" pid desc
	run timeout 10 "$KTOP" -b --csv -n 2 -d 0.1 -s +pid -o pid,comm
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	check csv-order "$OUT" pid asc
	[ "$(sed -n 2p "$OUT" | cut -d, -f3)" = 1 ]
}

@test "CSV: -s vcsw sorts by a count read from status" {
	run timeout 10 "$KTOP" -b --csv -n 2 -d 0.2 -s vcsw -o pid,vcsw
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	# first iteration: all empty; the second one is in descending order
	sed -i '/^[^,]*,,/d' "$OUT"
	check csv-order "$OUT" vcsw desc
}

@test "CSV: pid, ppid, threads and comm of a known process match /proc" {
	start_workload idle 3
	run timeout 10 "$KTOP" -b --csv -n 1 -p "$WL_PID" -o pid,ppid,tgid,threads,comm,state,uid,user
	[ "$status" -eq 0 ]
	local want
	want=$(awk '{print $4}' "/proc/$WL_PID/stat")
	[[ "${lines[1]}" == *",$WL_PID,$want,$WL_PID,3,$(cat /proc/$WL_PID/comm),S,0,root" ]]
}

@test "CSV: rss_kb and vsz_kb of a known process match /proc/PID/stat" {
	start_workload idle 1
	run timeout 10 "$KTOP" -b --csv -n 1 -p "$WL_PID" -o rss_kb,vsz_kb,cpu_s
	[ "$status" -eq 0 ]
	local rss vsz
	rss=$(awk '{print $24 * 4}' "/proc/$WL_PID/stat")
	vsz=$(awk '{print int($23 / 1024)}' "/proc/$WL_PID/stat")
	[[ "${lines[1]}" == *,,$rss,$vsz,* ]]
}
