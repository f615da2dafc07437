#!/usr/bin/env bats
# The state split (root, tracing): where a process's wall time goes, on a CPU,
# waiting for one, sleeping, blocked, stopped. helpers/stateswl.c makes
# workloads whose truth the kernel states itself (schedstat's run_delay and
# run time, utime+stime, how long a vfork or a child's life took) and writes
# it down; ktop's sums over its intervals must say the same.

load helpers/common

setup_file() {
	helper_prog stateswl || true
}

setup() {
	common_setup
	[ "$(id -u)" -eq 0 ] || skip "needs root: the state split comes from tracing"
	[ -d /sys/kernel/tracing/events/sched ] || skip "tracefs is not available"
	WL="$BATS_FILE_TMPDIR/stateswl"
	[ -x "$WL" ] || skip "helpers/stateswl.c was not built (no C compiler?)"
	COLS=pid,comm,state,threads,oncpu_ms,runq_ms,sleep_ms,blocked_ms,stopped_ms
}
teardown() { common_teardown; }

# truth KEY: a value the workload wrote to $TRUTH.
truth() {
	awk -v k="$1" '$1 == k { print $2 }' "$TRUTH"
}

# colsum PID COLUMN: ktop's sum over the intervals of PID's rows in $OUT.
colsum() {
	awk -F, -v pid="$1" -v col="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i == col) c = i; next }
		$3 == pid && $c != "" { s += $c }
		END { printf "%.3f\n", s }' "$OUT"
}

# within A B PCT: |A - B| <= PCT% of B.
within() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'
}

@test "states: three threads pinned to one CPU: runq_ms = schedstat run_delay, oncpu_ms = utime+stime" {
	TRUTH="$BATS_TEST_TMPDIR/truth"
	run timeout 30 "$KTOP" -b --csv -d 0.5 -o "$COLS" -- "$WL" pinned 2000 "$TRUTH"
	[ "$status" -eq 0 ]
	echo "$output" >"$OUT"
	[ "$(truth done)" = 1 ]
	pid=$(awk -F, 'NR == 2 { print $3 }' "$OUT")
	runq=$(colsum "$pid" runq_ms)
	oncpu=$(colsum "$pid" oncpu_ms)
	delay=$(awk '$1 ~ /run_delay_ns/ { s += $2 } END { printf "%.3f", s / 1e6 }' "$TRUTH")
	run_ns=$(awk '$1 ~ /_run_ns/ { s += $2 } END { printf "%.3f", s / 1e6 }' "$TRUTH")
	cpu=$(awk '$1 == "utime_stime_ticks" { t = $2 } $1 == "hz" { hz = $2 }
		END { printf "%.3f", t * 1000 / hz }' "$TRUTH")
	tick=$(awk '$1 == "hz" { printf "%.3f", 1000 / $2 }' "$TRUTH")
	echo "runq_ms: ktop $runq, schedstat run_delay $delay" >&2
	echo "oncpu_ms: ktop $oncpu, schedstat run time $run_ns, utime+stime $cpu" >&2
	# Three threads on one CPU wait for it about twice as long as they run.
	awk -v r="$runq" -v o="$oncpu" 'BEGIN { exit !(r > o) }'
	within "$runq" "$delay" 5
	# schedstat's run time (ns) counts from the main thread's start of work:
	# ktop's adds the execve, the loader and the exit around it. Down to a
	# tick below (the issue's tolerance): this machine's kernel writes no
	# task-context events of some threads (the VM agent's, nice -10), so a
	# pinned thread they preempt has no switch-in written for its return,
	# and that stretch counts as waiting (seen 1775.3 against 1783.6).
	awk -v a="$oncpu" -v b="$run_ns" -v t="$tick" 'BEGIN { exit !(a >= b - t && a <= b * 1.05) }'
	# utime and stime are each truncated to a tick (their sum up to two short),
	# and the kernel scales them to the runtime it has (cputime_adjust: up to a
	# tick over; seen here 2010 against a runtime of 2006.6).
	awk -v a="$oncpu" -v b="$cpu" -v t="$tick" 'BEGIN { d = a - b; exit !(d >= -t && d <= 2 * t) }'
}

@test "states: a thread's states add up to the interval it existed in (live rows, +- 1 ms a thread)" {
	TRUTH="$BATS_TEST_TMPDIR/truth"
	run timeout 30 "$KTOP" -b --csv -d 0.4 -o "$COLS" -- "$WL" pinned 1600 "$TRUTH"
	[ "$status" -eq 0 ]
	echo "$output" >"$OUT"
	# Rows 3 and on, while all four threads live (the first counted interval
	# saw them made, the last one saw them end): 4 threads x the interval.
	n=$(awk -F, 'NR > 3 && $5 != "X" && $6 == 4 {
		s = $7 + $8 + $9 + $10 + $11; w = $2 * 1000 * 4; d = s - w; if (d < 0) d = -d
		print "interval " w " ms, states " s " ms" > "/dev/stderr"
		if (d > 4) bad++; n++ }
		END { print (bad ? -1 : n + 0) }' "$OUT")
	[ "$n" -ge 1 ]
}

@test "states: a parent waiting in vfork while its child sleeps 3 x 400 ms: blocked_ms ~ 1200" {
	TRUTH="$BATS_TEST_TMPDIR/truth"
	run timeout 30 "$KTOP" -b --csv -d 0.5 -o "$COLS" -- "$WL" vfork 3 400 "$TRUTH"
	[ "$status" -eq 0 ]
	echo "$output" >"$OUT"
	parent=$(truth parent)
	child=$(truth child)
	blocked=$(colsum "$parent" blocked_ms)
	vfork=$(awk '$1 == "vfork_ns" { printf "%.3f", $2 / 1e6 }' "$TRUTH")
	sleep=$(colsum "$child" sleep_ms)
	echo "parent blocked_ms $blocked (vfork took $vfork ms), child sleep_ms $sleep" >&2
	# The kernel waits for a vfork child TASK_KILLABLE: D, blocked.
	within "$blocked" 1200 5
	within "$blocked" "$vfork" 1
	within "$sleep" 1200 5
}

@test "states: a child that sleeps 500 ms and exits within one interval: its X row" {
	TRUTH="$BATS_TEST_TMPDIR/truth"
	GO="$BATS_TEST_TMPDIR/go"
	GO=$GO "$WL" sleepexit 500 "$TRUTH" 3>&- &
	track $!
	timeout 30 "$KTOP" -b --csv -d 3 -n 3 -o "$COLS" >"$OUT" 2>"$OUT.err" 3>&- &
	track $!
	# The baseline is written: the next interval is 3 s, the child lives 0.5 s.
	wait_for_lines "$OUT" 2 10
	touch "$GO"
	wait_for_file "$TRUTH" 10
	until [ "$(truth done)" = 1 ]; do sleep 0.05; done
	child=$(truth child)
	life=$(awk '$1 == "life_ns" { printf "%.3f", $2 / 1e6 }' "$TRUTH")
	inner=$(awk '$1 == "inner_ns" { printf "%.3f", $2 / 1e6 }' "$TRUTH")
	until [ "$(wc -l <"$OUT")" -gt 2 ] && awk -F, -v p="$child" '$3 == p { f = 1 } END { exit !f }' "$OUT"; do
		sleep 0.1
	done
	row=$(awk -F, -v p="$child" '$3 == p' "$OUT")
	echo "row: $row; it lived at most $life ms, at least $inner ms" >&2
	[ "$(echo "$row" | wc -l)" -eq 1 ]
	[ "$(echo "$row" | cut -d, -f5)" = X ]
	sleep=$(echo "$row" | cut -d, -f9)
	within "$sleep" 500 5
	# Its states add up to its life, fork to its last switch: more than the
	# child measured from its first to its last instruction, less than the
	# parent measured around fork and waitpid.
	echo "$row" | awk -F, -v life="$life" -v inner="$inner" \
		'{ s = $7 + $8 + $9 + $10 + $11; exit !(s <= life && s >= inner) }'
}

@test "latency: --latency times every call system-wide: 50 sleeps of 10 ms, sc_time_ms between the sleeps' own time and the process's life" {
	TRUTH="$BATS_TEST_TMPDIR/truth"
	GO="$BATS_TEST_TMPDIR/go"
	GO=$GO "$WL" sleeps 50 10 "$TRUTH" 3>&- &
	track $!
	timeout 60 "$KTOP" -b --csv --latency -d 0.5 -o pid,comm,state,syscalls,sc_time_ms >"$OUT" 2>"$OUT.err" 3>&- &
	kp=$!
	track $kp
	wait_for_lines "$OUT" 2 10
	touch "$GO"
	wait_for_file "$TRUTH" 20
	until [ "$(truth done)" = 1 ]; do sleep 0.05; done
	child=$(truth child)
	# Its last row (state X) is written within two more intervals.
	until awk -F, -v p="$child" '$3 == p && $5 == "X" { f = 1 } END { exit !f }' "$OUT"; do
		sleep 0.1
	done
	kill "$kp"
	inner=$(awk '$1 == "inner_ns" { printf "%.3f", $2 / 1e6 }' "$TRUTH")
	life=$(awk '$1 == "life_ns" { printf "%.3f", $2 / 1e6 }' "$TRUTH")
	t=$(colsum "$child" sc_time_ms)
	echo "sc_time_ms $t; the sleeps timed by the process $inner ms; its life $life ms" >&2
	# Each sleep's entry and exit are inside the process's own two clock reads.
	awk -v t="$t" -v i="$inner" -v l="$life" 'BEGIN { exit !(t >= i * 0.98 && t <= l) }'
}

@test "latency: without --latency, a system-wide run does not time calls (sc_time_ms empty)" {
	run timeout 20 "$KTOP" -b --csv -d 0.3 -n 2 -o pid,sc_time_ms
	[ "$status" -eq 0 ]
	[ "$(awk -F, 'NR > 1 && $4 != ""' <<<"$output" | wc -l)" -eq 0 ]
}

@test "states, latency: a recording replays the state split and sc_time_ms byte for byte" {
	local cols=pid,comm,state,syscalls,sc_time_ms,oncpu_ms,runq_ms,sleep_ms,blocked_ms,stopped_ms
	run timeout 30 "$KTOP" -b --csv --latency -d 0.3 -n 4 -w "$BATS_TEST_TMPDIR/r.db" -o "$cols"
	[ "$status" -eq 0 ]
	echo "$output" >"$OUT"
	# Some rows have each known (not only empty cells compared).
	[ "$(awk -F, 'NR > 1 && $7 != "" && $9 != ""' "$OUT" | wc -l)" -gt 0 ]
	run timeout 30 "$KTOP" -r "$BATS_TEST_TMPDIR/r.db" -b --csv -o "$cols"
	[ "$status" -eq 0 ]
	diff "$OUT" <(echo "$output")
}
