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
	[ -d /sys/kernel/tracing/events/sched ] || skip_kernel "tracefs is not available"
	WL="$BATS_FILE_TMPDIR/stateswl"
	need_built "$WL"
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
	# ktop's adds the execve, the loader and the exit around it (2-4 ms).
	# Down to a tick below (the issue's tolerance), a tick above: this
	# machine's kernel writes no task-context record of its VM agent's
	# threads (nice -10), so when one preempts a pinned thread nothing says
	# when it gave the CPU back; ktop gives it the run its schedstat counts
	# (evdark.c). Before, its runs were the pinned threads': beside two CPU
	# hogs 9-26 ms over in 2 s.
	awk -v a="$oncpu" -v b="$run_ns" -v t="$tick" 'BEGIN { exit !(a >= b - t && a <= b + t) }'
	# utime and stime are each truncated to a tick (their sum up to two short),
	# and the kernel scales them to the runtime it has (cputime_adjust: up to a
	# tick over; seen here 2010 against a runtime of 2006.6).
	awk -v a="$oncpu" -v b="$cpu" -v t="$tick" 'BEGIN { d = a - b; exit !(d >= -t && d <= 2 * t) }'
}

# burnsleep_start CPU: a loop of 20 ms busy and 30 ms asleep, 4 s, pinned to
# CPU, watched by ktop -p from before it starts (helpers/stateswl.c), up to
# its go (a line on CPU's go, burnsleep_go). SCHED_FIFO: no task preempts
# it mid-burn. One whose own events the kernel does not write (the VM
# agent's threads here) would have its run credited to the loop: its switch
# back is not written, and the loop ran since the CPU's last record at the
# earliest, which is all the events say.
burnsleep_start() {
	local d=$BATS_TEST_TMPDIR/cpu$1 child kp i
	mkdir "$d"
	mkfifo "$d/go"
	GOFIFO=$d/go chrt -f 1 "$WL" burnsleep "$1" 20 30 4000 "$d/truth" 3>&- &
	BS_WL[$1]=$!
	track $!
	for ((i = 0; i < 100; i++)); do
		child=$(awk '$1 == "child" { print $2 }' "$d/truth" 2>/dev/null || true)
		[ -n "$child" ] && break
		sleep 0.05
	done
	[ -n "$child" ] || return 1
	BS_CHILD[$1]=$child
	track "$child"
	# pinned, its schedstat read: waiting for the go
	wait_wchan "$child" wait_for_partner
	"$KTOP" -b --csv -d 0.5 -p "$child" -o "$COLS" >"$d/out" 2>"$d/err" 3>&- &
	kp=$!
	BS_KP[$1]=$kp
	track $kp
	ktop_started $kp
	wait_for_lines "$d/out" 2 10 || { cat "$d/err" >&2; return 1; }
}

burnsleep_go() {
	echo go >"$BATS_TEST_TMPDIR/cpu$1/go"
}

# burnsleep_end CPU: once the loop of CPU is done, ktop's sums over its rows
# in ONCPU and RUNQ; in RUN and DELAY the time its schedstat says it spent on
# a CPU and waiting for one, over the same life: from before it waits for the
# go to its zombie.
burnsleep_end() {
	local d=$BATS_TEST_TMPDIR/cpu$1 child=${BS_CHILD[$1]}
	wait_exit "${BS_WL[$1]}" 30
	[ "$ST" -eq 0 ]
	# ktop -p ends once its process is gone, its last row written
	wait_exit "${BS_KP[$1]}" 10
	OUT=$d/out
	ONCPU=$(colsum "$child" oncpu_ms)
	RUNQ=$(colsum "$child" runq_ms)
	RUN=$(awk '$1 == "run_ns" { printf "%.3f", $2 / 1e6 }' "$d/truth")
	DELAY=$(awk '$1 == "run_delay_ns" { printf "%.3f", $2 / 1e6 }' "$d/truth")
	echo "CPU $1: oncpu_ms $ONCPU, schedstat run $RUN; runq_ms $RUNQ, run_delay $DELAY" >&2
}

# A CPU whose idle task's own events the kernel does not write (this
# machine's CPU 1) has no switch written when it leaves idle for the woken
# task: that task ran (the CPU's next switch-out names it), it did not wait.
# The CPUs' loops run at the same time, each on its own CPU, each watched by
# a ktop of its own.
@test "states: a 20/30 ms burn-sleep loop pinned to each CPU, all at once: oncpu_ms within 2%, runq_ms within 5 ms of its schedstat" {
	local cpu cpus
	cpus=$(awk '/^processor/ { print $3 }' /proc/cpuinfo)
	for cpu in $cpus; do
		burnsleep_start "$cpu"
	done
	for cpu in $cpus; do
		burnsleep_go "$cpu"
	done
	for cpu in $cpus; do
		burnsleep_end "$cpu"
		within "$ONCPU" "$RUN" 2
		awk -v a="$RUNQ" -v b="$DELAY" 'BEGIN { d = a - b; exit !(d <= 5 && d >= -5) }'
	done
}

# no_oncpu_beyond N FILE: in no interval of FILE (ktop -b --csv, oncpu_ms) do
# the rows of live processes add up to more on-CPU time than N CPUs have (2%
# over at most: the time past the interval's end of threads that exited, up
# to their last switch); and from the start to any interval, neither do all
# rows. Those go in the running sum only: a row that carries an earlier
# interval's counts too (its process looked up late: an empty cell or no row
# in the interval before; a dead process whose last switch was read late,
# X or Z, maybe born in the interval before) moves time later, never
# earlier. Prints the worst.
no_oncpu_beyond() {
	awk -F, -v n="$1" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["interval_s"] == "" { seen[$c["pid"]] = 1; next }
		$1 != cur { if (cur != "") flush(); cur = $1; iv = $c["interval_s"] * 1000; k++ }
		{
			p = $c["pid"]; v = $c["oncpu_ms"]
			later = (p in seen && last[p] != k - 1) || (p in empty && empty[p] == k - 1) ||
				$c["state"] == "X" || $c["state"] == "Z"
			if (v == "") empty[p] = k; else if (later) other += v; else sum += v
			seen[p] = 1; last[p] = k
		}
		function flush() {
			if (sum / (n * iv) > worst) { worst = sum / (n * iv); w = sum " ms in " iv " ms" }
			tot += sum + other; totiv += iv; sum = other = 0
			if (tot / (n * totiv) > cworst) cworst = tot / (n * totiv)
		}
		END {
			flush()
			printf "worst interval: %s on %d CPUs (%.4f x); running sum at most %.4f x\n", w, n, worst, cworst
			exit !(k >= 4 && worst <= 1.02 && cworst <= 1.01)
		}' "$2"
}

@test "states: per interval, the rows' on-CPU time is never more than the CPUs' (a mixed workload, the whole machine)" {
	local cpu i n
	n=$(awk '/^processor/ { n++ } END { print n }' /proc/cpuinfo)
	# a burn-sleep loop pinned to each CPU, short processes, a pipe
	for cpu in $(seq 0 $((n - 1))); do
		"$WL" burnsleep "$cpu" 20 30 6000 "$BATS_TEST_TMPDIR/t$cpu" 3>&- &
		track $!
	done
	(for ((i = 0; i < 300; i++)); do /bin/true; sleep 0.01; done) 3>&- &
	track $!
	(head -c 300000000 /dev/zero | cat >/dev/null) 3>&- &
	track $!
	run --separate-stderr env KTOP_STATS=1 timeout 30 "$KTOP" -b --csv -d 0.5 -n 9 \
		-o pid,comm,state,oncpu_ms
	[ "$status" -eq 0 ]
	echo "$output" >"$OUT"
	no_oncpu_beyond "$n" "$OUT" >&2
	# what the code checks on each span: none credited over another on its CPU
	grep -q ' oncpu_overlaps=0 ' <<<"$stderr"
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
