#!/usr/bin/env bats
# The real binary under valgrind memcheck, a representative run of each output
# and mode: no invalid read or write, no use of an uninitialised value, no leak
# definitely lost. tests/valgrind.supp names the library-internal leaks it
# ignores, each with its reason. (The unit tests run under ASan+UBSan.)

load helpers/common

setup() {
	common_setup
	need_program valgrind
	SUPP="$BATS_TEST_DIRNAME/../valgrind.supp"
}

teardown() {
	common_teardown
}

# vg ARGS...: ktop ARGS under memcheck; fails on any error valgrind reports.
vg() {
	run --separate-stderr timeout 60 valgrind --quiet --error-exitcode=99 \
		--suppressions="$SUPP" --leak-check=full --show-leak-kinds=definite \
		--errors-for-leak-kinds=definite --track-origins=yes "$KTOP" "$@"
	# batch without tracing says so, once: that line is not valgrind's
	if [ "$status" -ne 0 ] || [ -n "$(grep -v '^ktop: tracing off: ' <<<"$stderr")" ]; then
		echo "ktop $*: exit $status" >&2
		printf '%s\n' "$stderr" | head -60 >&2
		return 1
	fi
}

@test "valgrind: text batch, traced when root (instance set up, events decoded, removed)" {
	vg -b -n 3 -d 0.3
	[[ "$output" == *"PID USER"* ]]
}

@test "valgrind: CSV per system call, and JSON of threads" {
	vg -b --csv --syscalls -n 3 -d 0.3
	vg -b --json -H -n 2 -d 0.3
}

@test "valgrind: --no-trace CSV, -p, -o every column, sorted" {
	vg -b --no-trace --csv -n 2 -d 0.2 -s vcsw
	vg -b --json -n 2 -d 0.2 -p 1,$$ -o pid,ppid,user,comm,cmdline,state,cpu_pct,rss_kb,minflt,vcsw
}

@test "valgrind: recording (-w) and replaying it (-r): batch, a jump, the summary" {
	local d="$BATS_TEST_TMPDIR"
	KTOP_KEYFRAME_S=0.3 vg -b --csv -n 4 -d 0.2 -w "$d/r.db"
	vg -r "$d/r.db" -b --json --syscalls
	b=$(sqlite3 "$d/r.db" 'SELECT wall FROM interval WHERE seq = 3')
	vg -r "$d/r.db" -b --begin "$b"
	[[ "$output" == *"PID USER"* ]]
	if [ "$(id -u)" -eq 0 ]; then
		# the summary to a file: stderr is valgrind's (and the summary's by default)
		vg --summary --output "$d/sum.txt" -r "$d/r.db" -p 1
		grep -q 'total' "$d/sum.txt"
	fi
}
