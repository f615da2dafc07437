#!/usr/bin/env bats
# The system-wide views in batch (--view, --group-by): bad values, tracing
# off, the formats; and exactness (root): a workload with known counts (N
# failed openat of a missing file, M getppid, K SIGUSR1 from one process to
# another, in a cgroup made for it) watched by one ktop per view at once:
# every view's rows equal the known counts, and the syscalls view equals the
# processes' own --syscalls rows summed.
#
# viewsmachine.bats: the test that counts the whole machine (run alone);
# helpers/views.bash: the common part.

load helpers/common
load helpers/views

@test "--view and --group-by: an unknown value is one line and exit 2" {
	run --separate-stderr "$KTOP" -b -n 1 --view nosuch
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "ktop: --view: 'nosuch' is not a view"* ]]
	run --separate-stderr "$KTOP" -b -n 1 --view groups --group-by nosuch
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
	[[ "$stderr" == "ktop: --group-by: 'nosuch' is not a key"* ]]
	run --separate-stderr "$KTOP" -b -n 1 --view syscalls -s nosuch
	[ "$status" -eq 2 ]
	[[ "$stderr" == "ktop: -s: the syscalls view has no column 'nosuch'"* ]]
	run --separate-stderr "$KTOP" -b -n 1 --view errors -o pid
	[ "$status" -eq 2 ]
	run --separate-stderr "$KTOP" -b -n 1 --group-by unit
	[ "$status" -eq 2 ]
	[ "${#stderr_lines[@]}" -eq 1 ]
}

@test "--view without tracing: the header, no rows, one line on stderr, exit 0" {
	local v
	for v in syscalls errors subsystems signals; do
		run --separate-stderr timeout 10 "$KTOP" -b --csv -n 2 -d 0.1 --no-trace --view "$v"
		[ "$status" -eq 0 ]
		[ "${#lines[@]}" -eq 1 ]
		[[ "${lines[0]}" == time,interval_s,* ]]
		[ "${#stderr_lines[@]}" -eq 1 ]
		[[ "$stderr" == "ktop: the $v view counts kernel events, but --no-trace is given"* ]]
	done
	# groups are /proc numbers too: rows; their event columns are empty, said once as for any batch
	run --separate-stderr timeout 10 "$KTOP" -b --csv -n 2 -d 0.1 --no-trace --view groups --group-by user
	[ "$status" -eq 0 ]
	[ "$stderr" = "ktop: tracing off: --no-trace" ]
	[[ "${lines[0]}" == time,interval_s,group,procs,cpu_pct,* ]]
	[[ "$output" == *",root,"* ]]
}

@test "--view: text has the view's titles, JSON its rows" {
	need_tracing
	run --separate-stderr timeout 10 "$KTOP" -b -n 2 -d 0.2 --view subsystems
	[ "$status" -eq 0 ]
	[[ "$output" == *"SUBSYSTEM     "*"CALLS/s"*"SHARE%"* ]]
	[[ "$output" == *"Filesystem"* ]]
	run --separate-stderr timeout 10 "$KTOP" -b --json -n 2 -d 0.2 --view syscalls
	[ "$status" -eq 0 ]
	"$PY" -c 'import json, sys
o = [json.loads(l) for l in sys.stdin.read().splitlines()][-1]
assert o["view"] == "syscalls"
assert o["rows"], "no syscall in an interval of the whole system"
for r in o["rows"]:
    assert r["calls_total"] >= r["calls"] >= r["errors"] >= 0, r
# (each share is rounded to 0.1: up to 0.05 off a row; the many below 0.05 show 0)
s = sum(r["share_pct"] for r in o["rows"])
assert abs(s - 100) < 0.2 + 0.05 * len(o["rows"]), ("shares", s, len(o["rows"]))
' <<<"$output"
}

@test "exact: syscalls, errors, subsystems, signals and groups rows equal the workload's counts" {
	need_tracing
	make_cgroup
	start_mix
	local d=$BATS_TEST_TMPDIR pids="${WL[0]},${WL[1]}" v
	KPIDS=()
	OUTS=()
	for v in syscalls errors subsystems signals; do
		start_ktop "$d/$v.csv" -b --csv -d 0.3 -p "$pids" --view "$v"
	done
	start_ktop "$d/cgroup.csv" -b --csv -d 0.3 -p "$pids" --view groups --group-by cgroup
	start_ktop "$d/unit.csv" -b --csv -d 0.3 -p "$pids" --view groups --group-by unit
	start_ktop "$d/procs.csv" -b --csv -d 0.3 -p "$pids" --syscalls
	run_work

	local P=${WL[0]} C=${WL[1]} got
	# Syscalls: P's calls, C's calls (kill K from P, the rest below)
	got=$(check view-sum "$d/syscalls.csv" calls,errors syscall=openat)
	[ "$got" = "$N $N" ] || { echo "openat: $got" >&2; return 1; }
	# procs counts the processes of one interval: not additive (the calls may
	# fall in two intervals); one process, P, in every interval with calls
	got=$(check view-sum "$d/syscalls.csv" calls,errors syscall=getppid)
	[ "$got" = "$M 0" ] || { echo "getppid: $got" >&2; return 1; }
	got=$(check view-max "$d/syscalls.csv" procs syscall=getppid)
	[ "$got" = 1 ] || { echo "getppid procs: $got" >&2; return 1; }
	got=$(check view-sum "$d/syscalls.csv" calls,errors syscall=kill)
	[ "$got" = "$K 0" ] || { echo "kill: $got" >&2; return 1; }
	got=$(check view-sum "$d/syscalls.csv" calls syscall=read)
	[ "$got" = "$((K + 1))" ] || { echo "read: $got" >&2; return 1; }
	got=$(check view-sum "$d/syscalls.csv" calls,errors syscall=rt_sigsuspend)
	[ "$got" = "$K $K" ] || { echo "rt_sigsuspend: $got" >&2; return 1; }
	got=$(check view-sum "$d/syscalls.csv" calls syscall=rt_sigreturn)
	[ "$got" = "$K" ]
	got=$(check view-sum "$d/syscalls.csv" calls syscall=write)
	[ "$got" = "$((K + 1))" ]
	[ "$(check view-last "$d/syscalls.csv" calls_total syscall=openat)" = "$N" ]
	[ "$(check view-last "$d/syscalls.csv" top_errno syscall=openat)" = ENOENT ]
	# the per-syscall sums equal the processes' own --syscalls, summed
	got=$(check view-vs-syscalls "$d/syscalls.csv" "$d/procs.csv")
	echo "syscalls view = processes' --syscalls: $got" >&2
	[ "$got" = "7 $((N + M + 5 * K + 2))" ]

	# Errors: one row per (syscall, errno)
	got=$(check view-sum "$d/errors.csv" errors syscall=openat errno=ENOENT)
	[ "$got" = "$N" ] || { echo "openat ENOENT: $got" >&2; return 1; }
	got=$(check view-max "$d/errors.csv" procs syscall=openat errno=ENOENT)
	[ "$got" = 1 ] || { echo "openat ENOENT procs: $got" >&2; return 1; }
	# the restart of sigsuspend, seen before the kernel makes it EINTR; and
	# rt_sigreturn returns the interrupted call's EINTR (strace shows both so)
	got=$(check view-sum "$d/errors.csv" errors syscall=rt_sigsuspend errno=ERESTARTNOHAND)
	[ "$got" = "$K" ]
	got=$(check view-sum "$d/errors.csv" errors syscall=rt_sigreturn errno=EINTR)
	[ "$got" = "$K" ]
	got=$(check view-sum "$d/errors.csv" errors)
	[ "$got" = "$((N + 2 * K))" ] || { echo "errors: $got" >&2; cat "$d/errors.csv" >&2; return 1; }
	[ "$(check view-last "$d/errors.csv" errors_total syscall=openat errno=ENOENT)" = "$N" ]

	# Subsystems: Filesystem has openat, read, write; Process getppid; Signal the rest
	got=$(check view-sum "$d/subsystems.csv" calls,errors subsystem=Filesystem)
	[ "$got" = "$((N + 2 * K + 2)) $N" ] || { echo "Filesystem: $got" >&2; return 1; }
	got=$(check view-sum "$d/subsystems.csv" calls "subsystem=Process Mgmt.")
	[ "$got" = "$M" ] || { echo "Process Mgmt.: $got" >&2; return 1; }
	got=$(check view-sum "$d/subsystems.csv" calls,errors subsystem=Signal)
	[ "$got" = "$((3 * K)) $((2 * K))" ] || { echo "Signal: $got" >&2; return 1; }
	got=$(check view-sum "$d/subsystems.csv" calls)
	[ "$got" = "$((N + M + 5 * K + 2))" ]

	# Signals: K SIGUSR1 from P to C, delivered; nothing else
	got=$(check view-sum "$d/signals.csv" count sender_pid="$P" receiver_pid="$C" signal=SIGUSR1 result=delivered)
	[ "$got" = "$K" ] || { echo "P -> C: $got" >&2; return 1; }
	[ "$(check view-sum "$d/signals.csv" count)" = "$K" ]
	[ "$(check view-last "$d/signals.csv" total sender_pid="$P")" = "$K" ]

	# Groups: the cgroup made for the work holds both processes and all their counts
	got=$(check view-sum "$d/cgroup.csv" syscalls,syscall_errors,sig_sent,sig_recv group="$CGNAME")
	[ "$got" = "$((N + M + 5 * K + 2)) $((N + 2 * K)) $K $K" ] || { echo "cgroup $CGNAME: $got" >&2; return 1; }
	[ "$(check view-last "$d/cgroup.csv" procs group="$CGNAME")" = 2 ]
	[ "$(check view-last "$d/cgroup.csv" syscalls_total group="$CGNAME")" = "$((N + M + 5 * K + 2))" ]
	got=$(check view-sum "$d/unit.csv" syscalls group="${CGNAME#/}")
	[ "$got" = "$((N + M + 5 * K + 2))" ] || { echo "unit ${CGNAME#/}: $got" >&2; return 1; }
}

@test "groups: a process moved to another cgroup without an exec is in its new group (cgroup_attach_task)" {
	need_tracing
	make_cgroup
	start_mix
	local d=$BATS_TEST_TMPDIR t
	KPIDS=()
	OUTS=()
	# the whole system: with -p the kernel would keep only the watched
	# processes' events, and the move is the event of the shell that writes
	start_ktop "$d/cgroup.csv" -b --csv -d 0.3 --view groups --group-by cgroup
	wait_for_lines "$d/cgroup.csv" 2 10
	wait_tick_after "$d/cgroup.csv" "$(date +%s.%N)"
	[ "$(check view-last "$d/cgroup.csv" procs group="$CGNAME")" = 2 ]
	# P moves; C stays; neither execs
	mkdir "$CG/moved"
	echo "${WL[0]}" >"$CG/moved/cgroup.procs"
	t=$(date +%s.%N)
	wait_tick_after "$d/cgroup.csv" "$t"
	sleep 0.7
	kill -TERM "${KPIDS[0]}"
	wait_exit "${KPIDS[0]}" 10
	[ "$ST" -eq 0 ]
	[ "$(check view-last "$d/cgroup.csv" procs group="$CGNAME/moved")" = 1 ]
	[ "$(check view-last "$d/cgroup.csv" procs group="$CGNAME")" = 1 ]
}
