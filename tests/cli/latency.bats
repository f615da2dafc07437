#!/usr/bin/env bats
# System-call latency (--latency, root): durations as log2 histograms. A
# process makes 50 nanosleep(10 ms) under strace -T while several ktops watch
# it at once (-p: the same events in each ktop's own instance, the same
# times): its --syscalls rows against strace -T's times of the same calls and
# against its own clock around each call; the Latency view's, the process
# rows' and the Groups view's times against each other.

load helpers/common

setup_file() {
	helper_prog stateswl || true
}

setup() {
	common_setup
	need_tracing "calls are timed from tracing"
	WL="$BATS_FILE_TMPDIR/stateswl"
	need_built "$WL"
	need_program strace
}

teardown() { common_teardown; }

# col FILE KEY [FILTER_KEY FILTER_VALUE]...: the sum of column KEY over FILE's rows.
col() {
	local f=$1 k=$2
	shift 2
	awk -F, -v k="$k" -v filt="$*" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; n = split(filt, fv, " "); next }
		{ for (j = 1; j < n; j += 2) if ($c[fv[j]] != fv[j + 1]) next; s += $c[k] }
		END { printf "%.3f\n", s }' "$f"
}

# within A B PCT: |A - B| <= PCT% of B.
within() {
	awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100) }'
}

@test "latency: 50 nanosleep(10 ms): time = strace -T's and its own clock's, p50 bucket holds 10 ms; the Latency view, process rows and groups sum alike" {
	local d=$BATS_TEST_TMPDIR go=$BATS_TEST_TMPDIR/go truth=$BATS_TEST_TMPDIR/truth
	local sp p i o child keep
	# strace follows the child the workload forks; -T: each call's time
	mkfifo "$go"
	GOFIFO=$go strace -f -T -qq -e trace=nanosleep,clock_nanosleep -o "$d/strace" \
		"$WL" sleepshere 50 10 "$truth" 3>&- &
	sp=$!
	track $sp
	for ((i = 0; i < 100; i++)); do
		# strace forks a helper first: the workload is the child named so
		p=$(cat /proc/$sp/task/*/children 2>/dev/null | awk '{ print $1 }')
		[ -n "$p" ] && [ "$(cat /proc/$p/comm 2>/dev/null)" = stateswl ] && break
		p=
		sleep 0.05
	done
	[ -n "$p" ] || { echo "strace did not start the workload" >&2; return 1; }
	track "$p"
	# blocked opening the fifo (fs/pipe.c): its start-up calls are over, so
	# every ktop, started now, sees the same calls
	wait_wchan "$p" wait_for_partner
	# a process that stays, asleep (its start-up calls over): every view
	# has a row each tick to the end
	sleep 600 3>&- &
	keep=$!
	track $keep
	wait_wchan "$keep" hrtimer_nanosleep
	p="$p,$keep"
	KPIDS=()
	OUTS=()
	start_ktop "$d/sc.csv" -b --csv --latency -d 0.3 -p "$p" --syscalls
	start_ktop "$d/procs.csv" -b --csv --latency -d 0.3 -p "$p" -o pid,comm,state,sc_time_ms,sc_p99_us
	start_ktop "$d/lat.csv" -b --csv --latency -d 0.3 -p "$p" --view latency
	start_ktop "$d/groups.csv" -b --csv --latency -d 0.3 -p "$p" --view groups
	# a tick after the header: the processes are rows of every ktop (the
	# Latency view has rows once a call is timed)
	for o in "$d/procs.csv" "$d/groups.csv"; do
		wait_for_lines "$o" 2 10 || { cat "$o.err" >&2; return 1; }
	done
	wait_for_lines "$d/lat.csv" 1 10
	echo go >"$go"
	wait_exit "$sp" 30
	[ "$ST" -eq 0 ]
	child=$(awk '$1 == "child" { print $2 }' "$truth")
	t=$(date +%s.%N)
	for o in "$d/procs.csv" "$d/lat.csv" "$d/groups.csv"; do
		wait_tick_after "$o" "$t"
	done
	# --syscalls writes only rows with calls: its last is the exit_group
	for ((i = 0; i < 200; i++)); do
		awk -F, -v p="$child" '$3 == p && $6 == "exit_group" { f = 1 } END { exit !f }' "$d/sc.csv" && break
		sleep 0.05
	done
	for ((i = 0; i < ${#KPIDS[@]}; i++)); do
		kill -TERM "${KPIDS[$i]}"
		wait_exit "${KPIDS[$i]}" 10
		[ "$ST" -eq 0 ] || { echo "ktop ${OUTS[$i]} exit $ST: $(cat "${OUTS[$i]}.err")" >&2; return 1; }
	done

	local kt calls own st n p50s
	kt=$(col "$d/sc.csv" time_ms pid "$child" syscall clock_nanosleep)
	calls=$(col "$d/sc.csv" calls pid "$child" syscall clock_nanosleep)
	own=$(awk '$1 == "inner_ns" { printf "%.3f", $2 / 1e6 }' "$truth")
	read -r n st < <(awk -v p="$child" '$1 == p && /nanosleep\(/ {
			sub(/.*</, ""); sub(/>.*/, ""); n++; s += $0 } END { printf "%d %.3f\n", n, s * 1000 }' "$d/strace")
	echo "nanosleep x $calls: ktop $kt ms, strace -T $st ms (x $n), its own clock $own ms" >&2
	[ "${calls%.*}" = 50 ] && [ "$n" = 50 ]
	# each sleep takes at least its 10 ms, and no more than the process's
	# own clock around it (which also holds strace's stops at entry and
	# exit); strace -T times the same calls from those stops
	awk -v t="$kt" -v o="$own" 'BEGIN { exit !(t >= 500 && t <= o) }'
	within "$kt" "$st" 5
	# p50: the bucket (8192, 16384] us holds 10 ms, in every interval's row;
	# its bound, or the longest sleep when that is less (never more)
	p50s=$(awk -F, -v p="$child" 'NR > 1 && $3 == p && $6 == "clock_nanosleep" { print $12, $14 }' "$d/sc.csv")
	echo "p50_us, max_us of the rows: $p50s" >&2
	awk '{ n++; if ($1 > $2 || $1 < 10000 || ($1 != $2 && $1 != 16384)) bad++ }
		END { exit !(n > 0 && !bad) }' <<<"$p50s"

	# The Latency view's rows sum to the process rows' and to the groups',
	# to the rounding of 3 decimals a row, and to 0.05%: each ktop's
	# instance stamps an event with its own clock read (a few hundred ns
	# apart, more when an interrupt comes between; 33 us over 70 calls seen)
	local lv pr gr sc rows
	lv=$(col "$d/lat.csv" time_ms)
	pr=$(col "$d/procs.csv" sc_time_ms)
	gr=$(col "$d/groups.csv" sc_time_ms)
	sc=$(col "$d/sc.csv" time_ms)
	rows=$(awk 'END { print NR }' "$d/lat.csv" "$d/sc.csv")
	echo "time_ms: latency view $lv, process rows $pr, groups $gr, --syscalls rows $sc" >&2
	awk -v a="$lv" -v b="$pr" -v c="$gr" -v s="$sc" -v r="$rows" 'BEGIN {
		e = r * 0.0005 + b * 0.0005
		exit !(a - b <= e && b - a <= e && c - b <= e && b - c <= e && s - b <= e && b - s <= e && a >= 500) }'
	[ "$(col "$d/lat.csv" calls syscall clock_nanosleep)" = "$(printf '%.3f' "$calls")" ]
	# the process rows' p99: a bucket bound (a power of two), or the longest
	# call when less: in the rows that hold a sleep, a sleep's 10 ms or more
	awk -F, -v p="$child" 'NR > 1 && $3 == p && $7 != "" {
		n++; if ($6 >= 10 && $7 < 10000) bad++ }
		END { exit !(n > 0 && !bad) }' "$d/procs.csv"
}

@test "latency: --view latency needs --latency to say anything: without it, rows have no times" {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	run timeout 20 "$KTOP" -b --csv -d 0.3 -n 2 --view latency
	[ "$status" -eq 0 ]
	# the header, and no row: no call was timed
	[ "$(wc -l <<<"$output")" -eq 1 ]
	[[ "$output" == time,interval_s,syscall,time_ms,calls,avg_us,p50_us,p90_us,p99_us,max_us,procs,* ]]
}

@test "latency: a recording keeps the histograms: --syscalls and the Latency view replay as they were written" {
	local d=$BATS_TEST_TMPDIR
	run timeout 30 "$KTOP" -b --csv --latency -d 0.3 -n 4 --syscalls -w "$d/lat.db"
	[ "$status" -eq 0 ]
	echo "$output" >"$d/live.csv"
	# timed calls have their percentiles (columns p50_us, p99_us)
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["p50_us"] != "" && $c["p99_us"] != "" { n++ } END { exit !(n > 0) }' "$d/live.csv"
	run --separate-stderr "$KTOP" -r "$d/lat.db" -b --csv --syscalls
	[ "$status" -eq 0 ]
	[ "$output" = "$(cat "$d/live.csv")" ]
	# the Latency view of the replay: its percentiles from the same histograms
	run --separate-stderr "$KTOP" -r "$d/lat.db" -b --csv --view latency
	[ "$status" -eq 0 ]
	awk -F, 'NR > 1 && $7 != "" { n++ } END { exit !(n > 0) }' <<<"$output"
	# and sqlite3 users see each call's histogram
	if command -v sqlite3 >/dev/null; then
		[ "$(sqlite3 "$d/lat.db" "SELECT count(*) FROM syscall WHERE hist IS NOT NULL")" -gt 0 ]
	fi
}
