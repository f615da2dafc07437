#!/usr/bin/env bats
# Exactness: a process that makes a known number of kernel events shows that
# number, summed over ktop's intervals. The process is set up and blocked before
# ktop's first (baseline) sample; it is released (SIGUSR1) right after it, does
# its work, and blocks again, still alive, long before ktop's last sample. The
# sum must also equal what /proc says changed between before and after.

load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

# measure COLUMN KTOP-ARGS...: run ktop on $WL_PID around the work; sets SUM
# (ktop's sum over intervals of COLUMN for the pid, or its threads with -H) and
# DELTA (the change of that count in /proc over the same time).
measure() {
	local col=$1 idx
	shift
	case "$col" in
	minflt) idx=1 ;; majflt) idx=2 ;; vcsw) idx=3 ;; ivcsw) idx=4 ;;
	esac
	timeout 20 "$KTOP" -b --csv -p "$WL_PID" "$@" >"$OUT" 2>"$OUT.err" 3>&- &
	local kpid=$!
	track "$kpid"
	# the header and the baseline row: ktop has read the process once
	wait_for_lines "$OUT" 2 10
	local before after
	before=$(check snap "$WL_PID" | cut -d' ' -f"$idx")
	kill -USR1 "$WL_PID"
	local st=0
	wait "$kpid" || st=$?
	[ "$st" -eq 0 ] || { echo "ktop exit $st: $(cat "$OUT.err")" >&2; return 1; }
	[ -s "$WL_READY.done" ] || { echo "the work did not finish in time" >&2; return 1; }
	after=$(check snap "$WL_PID" | cut -d' ' -f"$idx")
	DELTA=$((after - before))
	if [[ " $* " == *" -H "* ]]; then
		SUM=$(check csv-sum-tgid "$OUT" "$WL_PID" "$col")
	else
		SUM=$(check csv-sum "$OUT" "$WL_PID" "$col")
	fi
	echo "$col: ktop $SUM, /proc $DELTA" >&2
}

@test "exact: 16384 pages touched once show 16384 minflt (+ python's own few)" {
	start_workload faults 16384
	measure minflt -d 0.5 -n 6 -o pid,minflt,majflt
	(( SUM >= 16384 && SUM <= 16384 + 2000 ))
	[ "$SUM" -eq "$DELTA" ]
}

@test "exact: 200 sleeps of 1 ms show 200 voluntary context switches (+ a few)" {
	start_workload sleeps 200
	measure vcsw -d 0.4 -n 5 -o pid,vcsw,ivcsw
	(( SUM >= 200 && SUM <= 250 ))
	[ "$SUM" -eq "$DELTA" ]
}

@test "exact: 4 threads sleeping 50 times each: vcsw is summed over the threads" {
	start_workload threads 4 50
	measure vcsw -d 0.4 -n 5 -o pid,threads,vcsw
	(( SUM >= 4 * 50 ))
	[ "$SUM" -eq "$DELTA" ]
}

@test "exact: threads made during the interval count from their birth" {
	start_workload spawn 4 50
	measure vcsw -d 0.4 -n 5 -o pid,threads,vcsw
	(( SUM >= 4 * 50 ))
	[ "$SUM" -eq "$DELTA" ]
}

@test "exact: -H: the threads' own rows add up to the same switches" {
	start_workload threads 4 50
	measure vcsw -H -d 0.4 -n 5 -o pid,tgid,vcsw
	(( SUM >= 4 * 50 ))
	[ "$SUM" -eq "$DELTA" ]
}

@test "exact: -H: minflt of the threads' rows add up to the process's" {
	start_workload faults 4096
	measure minflt -H -d 0.4 -n 4 -o pid,tgid,minflt
	(( SUM >= 4096 && SUM <= 4096 + 2000 ))
	[ "$SUM" -eq "$DELTA" ]
}
