#!/usr/bin/env bats
# Command line: exit codes, the one-line error messages, --help, --version.

load helpers/common

setup() {
	common_setup
}

teardown() {
	common_teardown
}

# usage_error ARGS...: exit 2, one line "ktop: ..." on stderr, nothing on stdout.
usage_error() {
	run --separate-stderr "$KTOP" "$@"
	if [ "$status" -ne 2 ]; then
		echo "ktop $*: exit $status, expected 2; stderr: $stderr" >&2
		return 1
	fi
	assert_one_line_error
}

@test "an unknown long option: exit 2, one line naming it" {
	usage_error -b -n 1 --no-such-option
	[[ "$stderr" == *"--no-such-option"* ]]
}

@test "an unknown short option: exit 2, one line naming it" {
	usage_error -b -n 1 -x
	[[ "$stderr" == *"-x"* ]]
}

@test "-d -1 is refused" {
	usage_error -b -n 1 -d -1
	[[ "$stderr" == *"-d"* && "$stderr" == *"-1"* ]]
}

@test "-d abc is refused" {
	usage_error -b -n 1 -d abc
	[[ "$stderr" == *"abc"* ]]
}

@test "-d 0 is refused" {
	usage_error -b -n 1 -d 0
	[[ "$stderr" == *"'0'"* ]]
}

@test "-d inf, nan, 1e1, 0x10 and 100000 are refused" {
	local d
	for d in inf nan 1e1 0x10 100000 ""; do
		usage_error -b -n 1 -d "$d"
	done
}

@test "-n abc is refused" {
	usage_error -b -n abc
	[[ "$stderr" == *"-n"* && "$stderr" == *"abc"* ]]
}

@test "-n 0 and -n -1 are refused" {
	usage_error -b -n 0
	[[ "$stderr" == *"'0'"* ]]
	usage_error -b -n -1
}

@test "-p abc, -p 0, -p 1,x and -p , are refused" {
	usage_error -b -n 1 -p abc
	[[ "$stderr" == *"abc"* ]]
	usage_error -b -n 1 -p 0
	usage_error -b -n 1 -p 1,x
	[[ "$stderr" == *"'x'"* ]]
	usage_error -b -n 1 -p ,
}

@test "-p of a pid that does not exist: non-zero exit, message names the pid" {
	run --separate-stderr "$KTOP" -b -n 1 -p 999999999
	[ "$status" -ne 0 ]
	assert_one_line_error
	[[ "$stderr" == *999999999* ]]
}

@test "--csv or --json without -b: exit 2, message says to add -b" {
	usage_error --csv -n 1
	[[ "$stderr" == *"-b"* ]]
	usage_error --json -n 1
	[[ "$stderr" == *"-b"* ]]
}

@test "an unexpected positional argument: exit 2, one line naming it" {
	usage_error -b -n 1 extra
	[[ "$stderr" == *"extra"* ]]
}

@test "-o with an unknown column: exit 2, message names it" {
	usage_error -b -n 1 -o pid,nosuchcol
	[[ "$stderr" == *"nosuchcol"* ]]
	usage_error -b -n 1 -o ,
}

@test "-s with an unknown column: exit 2, message names it" {
	usage_error -b -n 1 -s nosuchcol
	[[ "$stderr" == *"nosuchcol"* ]]
}

@test "an option without its value: exit 2" {
	usage_error -b -n
	[[ "$stderr" == *"-n"* ]]
	usage_error -b --delay
	[[ "$stderr" == *"--delay"* ]]
}

@test "the live view with stdin and stdout not a terminal: fails at once, says to use -b" {
	run --separate-stderr timeout 5 "$KTOP" </dev/null
	[ "$status" -ne 0 ]
	[ "$status" -ne 124 ]	# not killed by timeout: it did not hang
	assert_one_line_error
	[[ "$stderr" == *"-b"* ]]
	# it says which end is not a terminal, and what it is instead
	[[ "$stderr" == *"stdin is a device that is not a terminal"* ]]
	run --separate-stderr timeout 5 sh -c 'echo | "$0"' "$KTOP"
	[[ "$stderr" == *"stdin is a pipe"* ]]
}

@test "the live view with only stdout redirected: fails at once" {
	run --separate-stderr timeout 5 "$KTOP" -d 0.5
	[ "$status" -ne 0 ]
	[ "$status" -ne 124 ]
	[[ "$stderr" == *"-b"* ]]
}

@test "--help: exit 0, every long option listed" {
	run --separate-stderr "$KTOP" --help
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	local opt
	for opt in batch iterations delay pid columns sort threads csv json help version; do
		[[ "$output" == *"--$opt"* ]] || { echo "--help lacks --$opt" >&2; return 1; }
	done
	# and every one of the option table in the source, should one be added
	local n=0
	while read -r opt; do
		n=$((n + 1))
		[[ "$output" == *"--$opt"* ]] || { echo "--help lacks --$opt" >&2; return 1; }
	done < <(sed -n 's/^[[:space:]]*{ "\([a-z-]*\)",.*/\1/p' "$BATS_TEST_DIRNAME/../../src/options.c")
	[ "$n" -ge 11 ]
	[[ "${lines[0]}" == "Usage: ktop"* ]]
	run "$KTOP" -h
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "Usage: ktop"* ]]
}

@test "--help lists every column key" {
	run "$KTOP" --help
	[ "$status" -eq 0 ]
	local k
	for k in pid tgid ppid user uid state nice cpu_pct mem_pct rss_kb vsz_kb cpu_s \
		minflt majflt vcsw ivcsw threads cpu comm cmdline; do
		grep -Eq "^  $k +[a-zA-Z]" <<<"$output" || { echo "--help lacks column $k" >&2; return 1; }
	done
}

@test "--version prints 'ktop X.Y.Z', the features and their libraries, the kernel's; exits 0" {
	run --separate-stderr "$KTOP" --version
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 4 ]
	[[ "${lines[0]}" =~ ^ktop\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
	[[ "${lines[1]}" == "built with: tracing (libtracefs, libtraceevent), recording and replay (SQLite "* ]]
	[[ "${lines[2]}" == "loaded when asked: exporter --listen (libmicrohttpd.so."*"), web config --web-config (libyaml"*"), remote write --remote-write (libcurl"*")" ]]
	[[ "${lines[3]}" == "kernel $(uname -r): "* ]]
	if [ -d /sys/kernel/tracing/events ] && [ "$(id -u)" = 0 ]; then
		[[ "${lines[3]}" == *"tracefs at /sys/kernel/tracing (instances writable), events "* ]]
	fi
	run "$KTOP" -V
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^ktop\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
}

@test "every long option is accepted in its long form" {
	run --separate-stderr timeout 10 "$KTOP" --batch --iterations 2 --delay 0.1 --pid 1 \
		--columns pid,tgid,comm --sort pid --threads --csv
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[ "${lines[0]}" = "time,interval_s,pid,tgid,comm" ]
	[ "${#lines[@]}" -ge 3 ]
	run --separate-stderr timeout 10 "$KTOP" --batch --iterations=1 --delay=0.1 --pid=1 --json
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "fractions of a second are a valid delay: -d 0.05 -n 3 takes about 0.1 s" {
	local t0 t1
	t0=$(date +%s%N)
	run timeout 10 "$KTOP" -b --csv -n 3 -d 0.05 -p 1 -o pid
	t1=$(date +%s%N)
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 4 ]
	# the first sample is taken at once; two delays of 50 ms follow
	(( (t1 - t0) / 1000000 >= 90 && (t1 - t0) / 1000000 < 3000 ))
}
