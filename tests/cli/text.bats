#!/usr/bin/env bats
# Batch text output: the summary lines, the table header, one line per process.

load helpers/common

setup() {
	common_setup
}

teardown() {
	common_teardown
}

@test "text: the table header is PID USER S CPU% ... COMMAND" {
	run --separate-stderr timeout 10 "$KTOP" -b -n 1
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	local header
	header=$(grep -E '^ +PID ' <<<"$output")
	[[ "$header" =~ ^\ +PID\ +USER\ +S\ +CPU%\ +MEM%\ +RES\ +SYSC/s\ +ERR/s\ +TOP-SYSCALL\ +MINFLT/s\ +MAJFLT/s\ +CSW/s\ +ICSW/s\ +THR\ +TIME\+\ +COMMAND$ ]]
}

@test "text: --no-trace: the header reads /proc/PID/stat columns only" {
	run --separate-stderr timeout 10 "$KTOP" -b --no-trace -n 1
	[ "$status" -eq 0 ]
	local header
	header=$(grep -E '^ +PID ' <<<"$output")
	[[ "$header" =~ ^\ +PID\ +USER\ +S\ +CPU%\ +MEM%\ +RES\ +MINFLT/s\ +MAJFLT/s\ +THR\ +TIME\+\ +COMMAND$ ]]
}

@test "text: -n 2 prints two iterations, each with its summary, header and pid 1" {
	run timeout 10 "$KTOP" -b -n 2 -d 0.2
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ktop - ' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^Tasks: ' <<<"$output")" -eq 2 ]
	[ "$(grep -cE '^ +PID ' <<<"$output")" -eq 2 ]
	[ "$(grep -cE '^ +1 ' <<<"$output")" -eq 2 ]
	[[ "${lines[0]}" =~ ^ktop\ -\ [0-9]{2}:[0-9]{2}:[0-9]{2}\ up\ .*load\ average:\ [0-9.]+,\ [0-9.]+,\ [0-9.]+$ ]]
}

@test "text: the first iteration has averages since the start (CPU%, faults), no event rates; the second has rates" {
	[ "$(id -u)" = 0 ] || skip "needs root (the syscalls column)"
	run timeout 10 "$KTOP" -b -n 2 -d 0.2 -p 1 -o pid,cpu_pct,minflt,syscalls,comm
	[ "$status" -eq 0 ]
	local rows first want_cpu want_flt
	rows=$(grep -E '^ +1 ' <<<"$output")
	first=$(sed -n 1p <<<"$rows")
	# top's first iteration: since the process started (stat utime+stime, minflt; its age).
	read -r want_cpu want_flt < <(awk -v hz="$(getconf CLK_TCK)" -v up="$(cut -d' ' -f1 /proc/uptime)" '
		{ sub(/^.*\) /, ""); age = up - $20 / hz; printf "%.1f %.1f\n", ($12 + $13) / hz / age * 100, $8 / age }' /proc/1/stat)
	echo "first: $first; want CPU% $want_cpu, minflt/s $want_flt" >&2
	[[ "$first" =~ ^\ +1\ +([0-9.]+)\ +([0-9.]+)\ +-\ $(cat /proc/1/comm)$ ]]
	awk -v a="${BASH_REMATCH[1]}" -v b="$want_cpu" 'BEGIN { exit !(a - b <= 0.15 && b - a <= 0.15) }'
	# (a rate of 10 or more shows no decimal: rounded, up to 0.5 off)
	awk -v a="${BASH_REMATCH[2]}" -v b="$want_flt" 'BEGIN { t = 0.15 + b / 50 + (index(a, ".") ? 0 : 0.5)
		exit !(a - b <= t && b - a <= t) }'
	[[ "$(sed -n 2p <<<"$rows")" =~ ^\ +1\ +[0-9.]+\ +[0-9.kM]+\ +[0-9.kM]+\ [^\ ] ]]
	[ "$(grep -c '^Rates/s: - (first interval; the rows.* averages since each process started)$' <<<"$output")" -eq 1 ]
	[ "$(grep -cE '^Rates/s: [0-9]+ ctxsw, [0-9]+ intr, [0-9]+ forks, [0-9]+ minflt, [0-9]+ majflt$' <<<"$output")" -eq 1 ]
}

@test "text: -o pid,comm gives exactly those columns" {
	run timeout 10 "$KTOP" -b -n 1 -p 1 -o pid,comm
	[ "$status" -eq 0 ]
	[ "$(grep -E '^ +PID ' <<<"$output")" = "    PID COMMAND" ]
	[ "$(grep -E '^ +1 ' <<<"$output")" = "      1 $(cat /proc/1/comm)" ]
}

@test "text: -p PID shows that process only, and Tasks: counts it alone" {
	start_sleeps 2
	run timeout 10 "$KTOP" -b -n 2 -d 0.1 -p "${SLEEP_PIDS[1]}" -o pid,comm
	[ "$status" -eq 0 ]
	# The table's rows: the list of its calls in progress after it is not one.
	[ "$(sed '/^Calls in progress/,/^$/d' <<<"$output" | grep -cE '^ +[0-9]+ ')" -eq 2 ]
	[ "$(grep -cE "^ +${SLEEP_PIDS[1]} sleep\$" <<<"$output")" -eq 2 ]
	# Its sleep began before ktop: "for more than".
	grep -Eq "^ +${SLEEP_PIDS[1]} +${SLEEP_PIDS[1]}  [a-z_]*nanosleep for more than [0-9.]+ s\$" <<<"$output"
	[ "$(grep -c '^Tasks: 1 total, 0 running, 1 sleeping' <<<"$output")" -eq 2 ]
}
