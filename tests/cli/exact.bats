#!/usr/bin/env bats
# Exactness: a process that makes a known number of kernel events shows that
# number, summed over ktop's intervals. The process is set up and blocked before
# ktop's first (baseline) sample; it is released (SIGUSR1) right after it, does
# its work, and blocks again, still alive; ktop is stopped once it has read the
# process after that. The sum must also equal what /proc says changed between
# before and after.

load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

# measure COLUMN KTOP-ARGS...: run ktop on $WL_PID around the work; sets SUM
# (ktop's sum over intervals of COLUMN for the pid, or its threads with -H) and
# DELTA (the change of that count in /proc over the same time). ktop runs until
# it has written a tick that began after the work was done (however long a
# loaded machine makes the work take), then SIGTERM ends it.
measure() {
	local col=$1 idx t
	shift
	case "$col" in
	minflt) idx=1 ;; majflt) idx=2 ;; vcsw) idx=3 ;; ivcsw) idx=4 ;;
	esac
	"$KTOP" -b --csv -p "$WL_PID" "$@" >"$OUT" 2>"$OUT.err" 3>&- &
	local kpid=$!
	track "$kpid"
	# the header and the baseline row: ktop has read the process once
	wait_for_lines "$OUT" 2 10
	local before after
	before=$(check snap "$WL_PID" | cut -d' ' -f"$idx")
	kill -USR1 "$WL_PID"
	wait_for_file "$WL_READY.done" 60 || { echo "the work did not finish" >&2; return 1; }
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t" 10
	# and the next one begun: every row (-H: one a thread) of that tick is written
	wait_tick_after "$OUT" "$(tail -n 1 "$OUT" | cut -d, -f1)" 10
	kill -TERM "$kpid"
	wait_exit "$kpid" 10
	[ "$ST" -eq 0 ] || { echo "ktop exit $ST: $(cat "$OUT.err")" >&2; return 1; }
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
	measure minflt -d 0.2 -o pid,minflt,majflt
	(( SUM >= 16384 && SUM <= 16384 + 2000 ))
	[ "$SUM" -eq "$DELTA" ]
}

@test "exact: 200 sleeps of 1 ms show 200 voluntary context switches (+ a few)" {
	start_workload sleeps 200
	measure vcsw -d 0.2 -o pid,vcsw,ivcsw
	(( SUM >= 200 && SUM <= 250 ))
	[ "$SUM" -eq "$DELTA" ]
}

@test "exact: 4 threads sleeping 50 times each: vcsw is summed over the threads" {
	start_workload threads 4 50
	measure vcsw -d 0.2 -o pid,threads,vcsw
	(( SUM >= 4 * 50 ))
	[ "$SUM" -eq "$DELTA" ]
}

@test "exact: threads made during the interval count from their birth" {
	start_workload spawn 4 50
	measure vcsw -d 0.2 -o pid,threads,vcsw
	(( SUM >= 4 * 50 ))
	[ "$SUM" -eq "$DELTA" ]
}

@test "exact: -H: the threads' own rows add up to the same switches" {
	start_workload threads 4 50
	measure vcsw -H -d 0.2 -o pid,tgid,vcsw
	(( SUM >= 4 * 50 ))
	[ "$SUM" -eq "$DELTA" ]
}

@test "exact: -H: minflt of the threads' rows add up to the process's" {
	start_workload faults 4096
	measure minflt -H -d 0.2 -o pid,tgid,minflt
	(( SUM >= 4096 && SUM <= 4096 + 2000 ))
	[ "$SUM" -eq "$DELTA" ]
}
