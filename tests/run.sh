#!/bin/sh
# The whole test suite: unit tests (plain and under ASan+UBSan), a short run of
# the fuzz harnesses, CLI tests of the real binary, terminal tests under tmux.
# Every level prints TAP; this script counts the results, names each skip with
# its reason and ends with one line "N passed, N failed, N skipped".
#
# Two CPUs are the machine this has to fit (8 minutes with the build): most of
# a bats file's time is waiting (for refreshes, a scrape, a screen), so what
# cannot disturb another test runs side by side. First, three bats lanes side
# by side (LANE1-3, each lane's files one after the other, the lanes of about
# the same length), while the sanitizer build and the unit tests are built
# and run under nice beside them (make check built the program and the tests'
# workloads before). The lanes' files check formats, exact counts of their
# own processes, a screen: no timing against the clock, no count of the whole
# machine, no flood of events or processes that would overrun another ktop's
# ring buffers. Then, one file at a time and nothing else running, every other
# file: the ones that time things (latency, states, the exporter's refreshes
# under attack), count the machine's processes, threads, zombies, exit records
# or tracefs instances, see other ktops' instances (security's strace of ktop:
# it removes one a ktop killed beside it left), flood (order, massexit,
# trace's overrun, the process view's floods), take a CPU offline or remount
# tracefs (kernel.bats); only the fuzz harnesses, which use nothing but the
# CPU, are built and run under nice beside the first of them (the files that
# time things come last).
# KTOP_TEST_JOBS=1 runs everything one at a time.
cd "$(dirname "$0")/.." || exit 1

# build TARGET...: make them; its messages as TAP comments, a failure "not ok".
build() {
	out=$(mktemp /tmp/ktop-tests-build.XXXXXX)
	echo "# build: make $*"
	if ! MAKEFLAGS='' make -s --no-print-directory -j"$(nproc)" "$@" >"$out" 2>&1; then
		echo "not ok - build: make $*" >>"$out"
	fi
	sed '/^not ok - build: /!s/^/# /' "$out"
	rm -f "$out"
}

# unit: the sanitizer build (massexit.bats runs it) and the unit tests built,
# the unit tests run; TAP on stdout.
unit() {
	build build/ktop-asan unit
	out=$(mktemp /tmp/ktop-tests-unit.XXXXXX)
	for t in build/tests/test_* build/asan/test_*; do
		[ -x "$t" ] || continue
		echo "# unit: $t"
		if ! "$t" >"$out" 2>&1; then
			grep -q '^not ok' "$out" || echo "not ok - $t crashed or failed outside a test" >>"$out"
		fi
		sed "s|^\(not \)\{0,1\}ok [0-9]* - |&$(basename "$(dirname "$t")")/$(basename "$t"): |" "$out"
	done
	rm -f "$out"
}

# fuzz: the libFuzzer harnesses built, a few seconds of each (make fuzz runs
# them for longer); TAP on stdout.
fuzz() {
	build fuzzers
	echo "# fuzz: tests/fuzz"
	sh tests/fuzz/run.sh "${KTOP_FUZZ_SECONDS:-4}"
}

# (run.sh --unit, --fuzz: only them, the background jobs below)
case "${1:-}" in
--unit)
	unit
	exit 0
	;;
--fuzz)
	fuzz
	exit 0
	;;
esac

log=$(mktemp /tmp/ktop-tests.XXXXXX)
bg=$(mktemp /tmp/ktop-tests-bg.XXXXXX)
trap 'rm -f "$log" "$log.out" "$log.skips" "$bg" "$bg.1" "$bg.2" "$bg.3" "$bg.f"' EXIT
status=0
jobs=${KTOP_TEST_JOBS:-2}
# No test waits forever (an until loop on a row that never comes): bats ends
# one after this many seconds, "not ok ... # timeout" (the longest take ~30 s).
export BATS_TEST_TIMEOUT="${BATS_TEST_TIMEOUT:-300}"
t0=$(date +%s)
# took WHAT: how long the suite has run so far (the minutes are in parts).
took() { echo "# $1: $(( $(date +%s) - t0 )) s since the start"; }

# The lanes (files of tests/, without .bats), about 2 minutes each on a quiet
# machine; every other file runs alone after them.
LANE1="cli/record cli/valgrind cli/inprog tmux/inprog"
LANE2="cli/names cli/exact cli/csv cli/json cli/text cli/man cli/promtext cli/fleet"
LANE3="cli/summary cli/containers tmux/config tmux/replay tmux/lookfeel tmux/ui tmux/robust tmux/launch tmux/containers tmux/sysviews tmux/valgrind"

# Of the files one at a time, those that time things against the clock come
# last, when the fuzz harnesses (below) are done.
LAST="cli/clock cli/kernel cli/latency cli/lifecycle cli/options cli/states cli/threads"

# files LIST: the paths of LIST's files that exist.
files() {
	for n in "$@"; do
		[ -f "tests/$n.bats" ] && printf ' tests/%s.bats' "$n"
	done
}

# The layout's directions (collectors, views, outputs -> model; model pure).
echo "# layout: tools/check-layout.sh"
if sh tools/check-layout.sh >"$log.out" 2>&1; then
	echo "ok - layout: the include directions hold, no I/O in model/" | tee -a "$log"
else
	sed 's/^/# /' "$log.out"
	echo "not ok - layout: tools/check-layout.sh" | tee -a "$log"
fi

# shellcheck disable=SC2086
lanes="$(files $LANE1 $LANE2 $LANE3) "
# shellcheck disable=SC2086
last="$(files $LAST) "
serial=""
for f in tests/cli/*.bats tests/tmux/*.bats; do
	case "$lanes$last" in
	*" $f "*) ;;
	*) serial="$serial $f" ;;
	esac
done
serial="$serial $last"
fpid=
if [ "$jobs" -gt 1 ]; then
	# (nice: the bats files beside them are the longer road)
	nice -n 10 sh tests/run.sh --unit >"$bg" 2>&1 &
	upid=$!
	# shellcheck disable=SC2086
	echo "# bats: three lanes side by side:$(files $LANE1) |$(files $LANE2) |$(files $LANE3)"
	# shellcheck disable=SC2046,SC2086
	bats --tap --timing $(files $LANE1) >"$bg.1" 2>&1 &
	l1=$!
	# shellcheck disable=SC2046,SC2086
	bats --tap --timing $(files $LANE2) >"$bg.2" 2>&1 &
	l2=$!
	# shellcheck disable=SC2046,SC2086
	bats --tap --timing $(files $LANE3) >"$bg.3" 2>&1 &
	l3=$!
	wait "$l1" "$l2" "$l3" "$upid"
	cat "$bg.1" "$bg.2" "$bg.3" "$bg" | tee -a "$log"
	took "the three lanes, the sanitizer build and the unit tests"
	# The fuzz harnesses use the CPU and nothing else (no process, no event
	# of their own): under nice beside the first files of the next part.
	nice -n 10 sh tests/run.sh --fuzz >"$bg.f" 2>&1 &
	fpid=$!
else
	{ unit; fuzz; } | tee -a "$log"
	serial="$lanes$serial"
fi

echo "# bats: one file at a time"
# shellcheck disable=SC2086
bats --tap --timing $serial 2>&1 | tee -a "$log"
took "the files one at a time"
if [ -n "$fpid" ]; then
	wait "$fpid"
	tee -a "$log" <"$bg.f"
	took "the fuzz harnesses"
fi

# Each skip named, with its reason (tests/need.bash: "missing ..." for a
# program or package, "kernel: ..." for what this kernel lacks), its file.
grep -iE '^ok .* # skip' "$log" >"$log.skips"
skipped=$(wc -l <"$log.skips")
if [ "$skipped" -gt 0 ]; then
	echo "# skipped, and why:"
	while IFS= read -r line; do
		why=$(printf '%s\n' "$line" | sed 's/.* # [sS][kK][iI][pP] *//')
		name=$(printf '%s\n' "$line" | sed 's/^ok [0-9]* \(- \)\{0,1\}//; s/ # [sS][kK][iI][pP].*//; s/ in [0-9]*ms$//')
		file=$(grep -lF "@test \"$name\"" tests/cli/*.bats tests/tmux/*.bats 2>/dev/null | head -n 1)
		echo "#   ${why:-(no reason given)}: ${file:+$file: }$name"
	done <"$log.skips" | sort
fi
passed=$(( $(grep -c '^ok ' "$log") - skipped ))
failed=$(grep -c '^not ok ' "$log")
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] || status=1
echo "$passed passed, $failed failed, $skipped skipped"
exit $status
