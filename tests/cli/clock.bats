#!/usr/bin/env bats
# The trace clock (root, tracing): ktop picks `local` (sched_clock) where the
# kernel says sched_clock is stable across CPUs, `mono` elsewhere, says which,
# and maps the clock's stamps to CLOCK_MONOTONIC. The kernel's word is read
# here on our own (debugfs in a private mount namespace); the mapping is
# checked against trace_marker writes between two clock_gettime calls
# (tests/helpers/clockcheck.c, built by `make unit`), a reading ktop does
# not use. The exactness of what the clock feeds (the state split, call
# times) is in states.bats and latency.bats, run with each clock.

load helpers/common

CLOCKCHECK="$BATS_TEST_DIRNAME/../../build/tests/helpers/clockcheck"

setup() {
	common_setup
	[ "$(id -u)" -eq 0 ] || skip "needs root: the trace clock is tracing's"
	[ -d /sys/kernel/tracing/events/sched ] || skip_kernel "tracefs is not available"
}
teardown() { common_teardown; }

# The kernel's sched_clock_stable(): 1, 0, or "" when it cannot be read here.
kernel_says() {
	unshare -m sh -c 'mount --make-rprivate / && mount -t debugfs none /sys/kernel/debug 2>/dev/null
		sed -n "s/^sched_clock_stable() *: *\([01]\)$/\1/p" /sys/kernel/debug/sched/debug' 2>/dev/null |
		head -n 1
}

@test "trace clock: local where the kernel keeps sched_clock stable, else mono; named in Events/s and KTOP_STATS" {
	stable=$(kernel_says)
	[ -n "$stable" ] || skip_kernel "no debugfs sched/debug here: ktop keeps mono and cannot be checked against the kernel"
	want=mono
	[ "$stable" = 1 ] && want=local
	run --separate-stderr env -u KTOP_TRACE_CLOCK KTOP_STATS=1 "$KTOP" -b -d 0.3 -n 4
	[ "$status" -eq 0 ]
	[ "$(grep -c "^Events/s: .*; trace clock $want\$" <<<"$output")" -eq 3 ]
	st=$(grep '^ktop-stats: trace_clock=' <<<"$stderr")
	echo "$st" >&2
	[[ "$st" == "ktop-stats: trace_clock=$want clock_why=\"sched_clock "* ]]
	[ "$want" = mono ] && return 0
	# four samples at least (the start, three ticks), none refused or stepped, errors of microseconds
	awk '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
		END { exit !(v["clock_samples"] >= 4 && v["clock_steps"] == 0 &&
			     v["clock_err_max_ns"] < 50000 && v["clock_rate"] > 0.999 && v["clock_rate"] < 1.001) }' <<<"$st"
}

@test "trace clock: KTOP_TRACE_CLOCK chooses it (mono: nothing mapped); an unknown name is refused" {
	run --separate-stderr env KTOP_STATS=1 KTOP_TRACE_CLOCK=mono "$KTOP" -b -d 0.3 -n 3
	[ "$status" -eq 0 ]
	[ "$(grep -c '^Events/s: .*; trace clock mono$' <<<"$output")" -eq 2 ]
	grep -q '^ktop-stats: trace_clock=mono clock_why="KTOP_TRACE_CLOCK" clock_samples=0 ' <<<"$stderr"
	run --separate-stderr env KTOP_TRACE_CLOCK=counter "$KTOP" -b -n 1
	[ "$status" -eq 1 ]
	[[ "$stderr" == "ktop: KTOP_TRACE_CLOCK=counter: not a trace clock ktop maps "* ]]
}

# markers CLOCK: clockcheck's markers mapped through CLOCK's calibration, within their bracket + 5 us.
markers() {
	need_built "$CLOCKCHECK"
	grep -qw -- "$1" /sys/kernel/tracing/trace_clock || skip_kernel "no trace clock $1 here"
	run "$CLOCKCHECK" "$1" 8
	echo "$output" >&2
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 8 ]
}

@test "trace clock: local's stamps mapped to CLOCK_MONOTONIC agree with trace_marker writes timed by clock_gettime" {
	markers local
}

@test "trace clock: x86-tsc's cycles mapped (rate measured) agree with trace_marker writes" {
	[ "$(uname -m)" = x86_64 ] || skip "x86 only"
	markers x86-tsc
}
