#!/usr/bin/env bats
# How a batch ktop ends: the reader of its pipe leaves, a signal, -n.

load helpers/common

setup() {
	common_setup
}

teardown() {
	common_teardown
}

@test "broken pipe: ktop -b | head -1 ends within 5 s and ktop exits 0" {
	# timeout around the whole pipeline: a hang would be status 124
	run timeout 5 bash -c '"$1" -b -d 0.1 | head -1; echo "ktop=${PIPESTATUS[0]}"' _ "$KTOP"
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "ktop - "* ]]
	[ "${lines[1]}" = "ktop=0" ]
}

@test "broken pipe: CSV and JSON too, and within 5 s" {
	local fmt
	for fmt in --csv --json; do
		run timeout 5 bash -c '"$1" -b '"$fmt"' -d 0.1 | head -c 10 >/dev/null; exit "${PIPESTATUS[0]}"' _ "$KTOP"
		[ "$status" -eq 0 ] || { echo "$fmt: status $status" >&2; return 1; }
	done
}

@test "broken pipe: a pipe that is already closed" {
	run timeout 5 bash -c '"$1" -b -d 0.1 -n 100 | true; exit "${PIPESTATUS[0]}"' _ "$KTOP"
	[ "$status" -eq 0 ]
}

# signal_exit SIG: a batch ktop gets SIG and exits 0 promptly.
signal_exit() {
	local out="$BATS_TEST_TMPDIR/out"
	# (a background job of a script starts with SIGINT ignored: ktop must still get it)
	"$KTOP" -b --csv -d 0.1 -o pid >"$out" 2>&1 3>&- &
	local pid=$! st=0
	track "$pid"
	wait_for_lines "$out" 2 5
	local t0 t1
	t0=$(date +%s%N)
	kill "-$1" "$pid"
	(sleep 5; kill -KILL "$pid" 2>/dev/null) 3>&- &
	local guard=$!
	wait "$pid" || st=$?
	t1=$(date +%s%N)
	kill "$guard" 2>/dev/null
	wait "$guard" 2>/dev/null || true
	[ "$st" -eq 0 ] || { echo "SIG$1: exit $st" >&2; return 1; }
	(( (t1 - t0) / 1000000 < 1000 )) || { echo "SIG$1: took $(( (t1 - t0) / 1000000 )) ms" >&2; return 1; }
	# the output ends with a whole line
	[ "$(tail -c 1 "$out" | od -An -c | tr -d ' ')" = '\n' ]
}

@test "SIGTERM: a batch ktop exits 0 promptly" {
	signal_exit TERM
}

@test "SIGINT: a batch ktop exits 0 promptly" {
	signal_exit INT
}

@test "SIGHUP and SIGQUIT: a batch ktop exits 0 promptly" {
	signal_exit HUP
	signal_exit QUIT
}

@test "-n 3 -d 0.2: ends by itself after 3 iterations, about 0.4 s" {
	local t0 t1
	t0=$(date +%s%N)
	run timeout 10 "$KTOP" -b -n 3 -d 0.2 -p 1
	t1=$(date +%s%N)
	[ "$status" -eq 0 ]
	[ "$(grep -c '^ktop - ' <<<"$output")" -eq 3 ]
	(( (t1 - t0) / 1000000 >= 380 && (t1 - t0) / 1000000 < 3000 ))
}

@test "stdout closed: exit 1 at once with one line on stderr; a full disk (/dev/full): exit 1, one line" {
	run --separate-stderr timeout 5 bash -c '"$1" -b -n 100 -d 0.1 >&-' _ "$KTOP"
	[ "$status" -eq 1 ]
	assert_one_line_error
	[[ "$stderr" == *"stdout is closed"* ]]
	run --separate-stderr timeout 5 bash -c '"$1" -b --csv -n 100 -d 0.1 >/dev/full' _ "$KTOP"
	[ "$status" -eq 1 ]
	assert_one_line_error
	[[ "$stderr" == *"No space left on device"* ]]
}

@test "stdin and stderr closed: the output is written as usual, ktop exits 0" {
	run timeout 10 bash -c '"$1" -b --csv -n 2 -d 0.1 -o pid,comm <&- 2>&-' _ "$KTOP"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "time,interval_s,pid,comm" ]
	[ "${#lines[@]}" -gt 4 ]
}

@test "-- CMD: ktop killed by SIGKILL takes CMD with it (PR_SET_PDEATHSIG), stopped or running" {
	local kp child i
	"$KTOP" -b --no-trace -d 5 -- sleep 100 >/dev/null 2>&1 &
	kp=$!
	for i in $(seq 50); do
		child=$(pgrep -P "$kp" -x sleep) && break
		sleep 0.1
	done
	[ -n "$child" ]
	kill -KILL "$kp"
	wait "$kp" 2>/dev/null || true
	for i in $(seq 50); do
		[ -d "/proc/$child" ] || break
		sleep 0.1
	done
	if [ -d "/proc/$child" ]; then
		kill -KILL "$child" 2>/dev/null
		echo "CMD (pid $child) outlived ktop" >&2
		return 1
	fi
}

@test "-- CMD: the last iteration shows CMD exited (X, its command line), not a zombie, traced or not" {
	local t last
	for t in "" --no-trace; do
		run --separate-stderr timeout 20 "$KTOP" -b -d 0.3 $t -- sh -c 'sleep 0.7; exit 3'
		[ "$status" -eq 3 ] || { echo "${t:-traced}: status $status" >&2; return 1; }
		last=$(awk '/^ktop - / { f = "" } { f = f $0 "\n" } END { printf "%s", f }' <<<"$output")
		echo "${t:-traced}: $last" >&2
		grep -Eq '^Tasks: .* 0 zombie, .*; [1-9][0-9]* exited$' <<<"$last"
		# CMD is its first row by pid: the sh, X, with its command's name
		grep -Eq '^ +[0-9]+ root +X .* sh$' <<<"$last"
		! grep -Eq ' Z .* (sh|\[sh\])$' <<<"$last"
	done
}
