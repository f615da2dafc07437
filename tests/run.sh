#!/bin/sh
# The whole test suite: unit tests (plain and under ASan+UBSan), a short run of
# the fuzz harnesses, CLI tests of the real binary, terminal tests under tmux.
# Every level prints TAP; this script counts the results and ends with one line
# "N passed, N failed".
#
# Two CPUs are the machine this has to fit (15 minutes): what cannot disturb
# another test runs side by side. First, the CLI files of LANE1 and LANE2, two
# bats side by side (each lane's files one after the other; the lanes are of
# about the same length), while the unit tests and the fuzz harnesses run
# under nice beside them. Then, one file at a time and nothing else running,
# every other CLI file and the tmux suite: the ones that time things (latency,
# states, the exporter's refreshes), count the machine's processes, threads or
# tracefs instances, take a CPU offline or remount tracefs (kernel.bats).
# KTOP_TEST_JOBS=1 runs everything one at a time.
cd "$(dirname "$0")/.." || exit 1

# unit_and_fuzz: the unit tests, then a few seconds of each libFuzzer harness
# (make fuzz runs them for longer); TAP on stdout.
unit_and_fuzz() {
	out=$(mktemp /tmp/ktop-tests-unit.XXXXXX)
	for t in build/tests/test_* build/asan/test_*; do
		[ -x "$t" ] || continue
		echo "# unit: $t"
		if ! "$t" >"$out" 2>&1; then
			grep -q '^not ok' "$out" || echo "not ok - $t crashed or failed outside a test" >>"$out"
		fi
		sed "s|^\(not \)\{0,1\}ok [0-9]* - |&$(basename "$(dirname "$t")")/$(basename "$t"): |" "$out"
	done
	echo "# fuzz: tests/fuzz"
	rm -f "$out"
	sh tests/fuzz/run.sh "${KTOP_FUZZ_SECONDS:-4}"
}
# (run.sh --unit-fuzz: only them, the background job below)
if [ "${1:-}" = --unit-fuzz ]; then
	unit_and_fuzz
	exit 0
fi

log=$(mktemp /tmp/ktop-tests.XXXXXX)
bg=$(mktemp /tmp/ktop-tests-bg.XXXXXX)
trap 'rm -f "$log" "$log.out" "$bg" "$bg.1" "$bg.2"' EXIT
status=0
jobs=${KTOP_TEST_JOBS:-2}
t0=$(date +%s)
# took WHAT: how long the suite has run so far (the 15 minutes are in parts).
took() { echo "# $1: $(( $(date +%s) - t0 )) s since the start"; }

# Files of tests/cli whose tests check formats and exact counts of their own
# processes only: no timing, no count of the whole machine, no instance count.
# (exits.bats is not one: it reads every exit record of the machine, and
# order.bats's 5000 exits beside it could overflow them.)
LANE1="record summary csv json text"
LANE2="order names man exact promtext"

# The layout's directions (collectors, views, outputs -> model; model pure).
echo "# layout: tools/check-layout.sh"
if sh tools/check-layout.sh >"$log.out" 2>&1; then
	echo "ok - layout: the include directions hold, no I/O in model/" | tee -a "$log"
else
	sed 's/^/# /' "$log.out"
	echo "not ok - layout: tools/check-layout.sh" | tee -a "$log"
fi

lanes=$(for n in $LANE1 $LANE2; do printf ' tests/cli/%s.bats' "$n"; done)
serial=""
for f in tests/cli/*.bats; do
	case "$lanes " in
	*" $f "*) ;;
	*) serial="$serial $f" ;;
	esac
done
if [ "$jobs" -gt 1 ]; then
	# (nice: the bats files beside them are the longer road)
	nice -n 10 sh tests/run.sh --unit-fuzz >"$bg" 2>&1 &
	upid=$!
	echo "# bats: tests/cli, two lanes side by side:$LANE1 |$LANE2"
	# shellcheck disable=SC2046
	bats --tap --timing $(for n in $LANE1; do echo "tests/cli/$n.bats"; done) >"$bg.1" 2>&1 &
	l1=$!
	# shellcheck disable=SC2046
	bats --tap --timing $(for n in $LANE2; do echo "tests/cli/$n.bats"; done) >"$bg.2" 2>&1 &
	l2=$!
	wait "$l1" "$l2" "$upid"
	cat "$bg.1" "$bg.2" "$bg" | tee -a "$log"
	took "the two lanes, unit tests and fuzzers"
else
	unit_and_fuzz | tee -a "$log"
	serial="$lanes$serial"
fi

echo "# bats: tests/cli, one file at a time"
# shellcheck disable=SC2086
bats --tap --timing $serial 2>&1 | tee -a "$log"
took "tests/cli"
if ls tests/tmux/*.bats >/dev/null 2>&1; then
	echo "# bats: tests/tmux"
	bats --tap --timing tests/tmux 2>&1 | tee -a "$log"
	took "tests/tmux"
fi

passed=$(grep -c '^ok ' "$log")
failed=$(grep -c '^not ok ' "$log")
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] || status=1
echo "$passed passed, $failed failed"
exit $status
