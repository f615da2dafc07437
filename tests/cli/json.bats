#!/usr/bin/env bats
# Batch JSON output: one object per iteration per line, read back with python3.

load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

@test "JSON: -n 3 -d 0.2: every line parses; time, interval_s (null first), system, processes" {
	run --separate-stderr timeout 10 "$KTOP" -b --json -n 3 -d 0.2
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	printf '%s\n' "$output" >"$OUT"
	check json-format "$OUT" 3 0.1 0.5 pid,ppid,user,uid,comm,state,nice,threads,cpu_pct,mem_pct,rss_kb,vsz_kb,cpu_s,minflt,majflt,vcsw,ivcsw,syscalls,syscall_errors,top_syscall,sig_recv,sig_sent,oncpu_ms,runq_ms,sleep_ms,blocked_ms,lost_events,lost_exits
}

@test "JSON: -o pid,comm gives exactly those keys" {
	run timeout 10 "$KTOP" -b --json -n 2 -d 0.1 -o pid,comm
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	check json-format "$OUT" 2 0.05 0.5 pid,comm
}

@test "JSON: every column, cmdline included, is valid JSON for every process" {
	run timeout 10 "$KTOP" -b --json -n 2 -d 0.1 \
		-o pid,tgid,ppid,user,uid,state,nice,cpu_pct,mem_pct,rss_kb,vsz_kb,cpu_s,minflt,majflt,vcsw,ivcsw,threads,cpu,comm,cmdline
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	check json-format "$OUT" 2 0.05 0.5 pid,tgid,ppid,user,uid,state,nice,cpu_pct,mem_pct,rss_kb,vsz_kb,cpu_s,minflt,majflt,vcsw,ivcsw,threads,cpu,comm,cmdline
}

@test "JSON: a kernel thread's cmdline is \"[comm]\" as in text and CSV" {
	run timeout 10 "$KTOP" -b --json -n 1 -p 2 -o pid,comm,cmdline
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	run check json-field "$OUT" 2 cmdline
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	[ "$output" = '"[kthreadd]"' ]
}

@test "JSON: a process's cmdline has its arguments joined by spaces" {
	start_sleeps 1
	run timeout 10 "$KTOP" -b --json -n 1 -p "${SLEEP_PIDS[0]}" -o pid,cmdline
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT"
	run check json-field "$OUT" "${SLEEP_PIDS[0]}" cmdline
	[ "$status" -eq 0 ]
	[ "$output" = '"sleep 60"' ]
}

@test "JSON: -p restricts processes and system.tasks to the watched process" {
	start_sleeps 2
	run timeout 10 "$KTOP" -b --json -n 2 -d 0.1 -p "${SLEEP_PIDS[1]}" -o pid,comm,vcsw
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[1]}" == *'"tasks":1,'* ]]
	# Then the calls it is in (-p): its sleep, begun before ktop.
	[[ "${lines[1]}" == *'"processes":[{"pid":'"${SLEEP_PIDS[1]}"',"comm":"sleep","vcsw":0,"calls_in_progress":[{"tid":'"${SLEEP_PIDS[1]}"',"syscall":"'*'nanosleep",'*'"at_least":true}]}]}' ]]
}
