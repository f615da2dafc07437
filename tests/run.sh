#!/bin/sh
# The whole test suite: unit tests (plain and under ASan+UBSan), a short run of
# the fuzz harnesses, CLI tests of the real binary, terminal tests under tmux.
# Every level prints TAP; this script counts the results, names each skip with
# its reason, times each file and ends with one line
# "N passed, M skipped, K failed".
#
# Two CPUs are the machine this has to fit (8 minutes with the build): most of
# a bats file's time is waiting (for refreshes, a scrape, a screen), so what
# cannot disturb another test runs side by side. make check built the program
# and the tests' programs; the sanitizer build, the unit tests and the fuzz
# harnesses (CPU only: no process, no event, no instance of their own to see)
# are built and run under nice in the background from the start. First, the
# files of POOL, taken longest first from one queue by three workers
# (KTOP_TEST_JOBS): they check formats, exact counts of their own processes,
# a screen: no timing against the clock, no count of the whole machine, no
# flood of events or processes that would overrun another ktop's ring
# buffers. Then, one file at a time, every other file: first those of BESIDE,
# which the background's compilers cannot disturb (nice: they run when the
# CPU is free), while it ends; then, with nothing else running, the ones that
# count the machine's processes, threads, zombies, exit records or tracefs
# instances (security's strace of ktop: it removes one a ktop killed beside it
# left), flood (order, massexit: the sanitizer build), and last those that
# time things against the clock (LAST), take a CPU offline or remount tracefs
# (kernel.bats).
# KTOP_TEST_JOBS=1 runs everything one at a time.
#
# Where tools/deps.sh test ran (make check: KTOP_TESTS_STRICT=1; CI=true) a
# skip for a missing program or package ("missing ...", tests/need.bash) is a
# failure: deps.sh installs them. A skip for what the kernel lacks
# ("kernel: ...") or for not being root stays a skip, listed with its reason.
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

# (run.sh --background: only them, the background job below, and its time)
if [ "${1:-}" = --background ]; then
	s=$(date +%s)
	unit
	fuzz
	times >"$2"
	c=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, "m"); c += t[1] * 60 + t[2] } printf "%.1f", c }' "$2")
	echo "# time: the background job $(( $(date +%s) - s )) s, cpu $c s"
	exit 0
fi

log=$(mktemp /tmp/ktop-tests.XXXXXX)
trap 'rm -rf "$log" "$log".*' EXIT
status=0
jobs=${KTOP_TEST_JOBS:-3}
# No test waits forever (an until loop on a row that never comes): bats ends
# one after this many seconds, "not ok ... # timeout" (the longest take ~30 s).
export BATS_TEST_TIMEOUT="${BATS_TEST_TIMEOUT:-300}"
t0=$(date +%s)
# took WHAT: how long the suite has run so far (the minutes are in parts).
took() { echo "# $1: $(( $(date +%s) - t0 )) s since the start"; }

# The files (of tests/, without .bats) run side by side, longest first (as
# the "# time:" lines of a run say).
POOL="cli/record cli/package cli/valgrind cli/exporter cli/containers cli/listen
tmux/htopuser cli/webconfig cli/fleet tmux/views tmux/lookfeel cli/bytes
cli/names tmux/newcomer cli/disks tmux/ui tmux/robust tmux/sysviews tmux/replay cli/man
cli/views cli/exact cli/csv cli/inprog tmux/inprog tmux/valgrind cli/json
tmux/launch tmux/containers cli/promtext cli/text tmux/config"

# Of the files one at a time, those run while the background job ends.
BESIDE="cli/exportertime tmux/viewsload tmux/htopload cli/trace cli/flight tmux/flight"

# Of the files one at a time, those that time things against the clock come
# last (summary: its sleeps' durations).
LAST="cli/summary cli/clock cli/kernel cli/latency cli/lifecycle cli/options cli/states cli/threads"

# files LIST: the paths of LIST's files that exist.
files() {
	for n in "$@"; do
		[ -f "tests/$n.bats" ] && printf ' tests/%s.bats' "$n"
	done
}

# cpu FILE: the CPU seconds (user + system) of this shell's children so far
# appended to FILE (times in a $(...) would give the subshell's).
cpu() {
	times >"$1.t"
	awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, "m"); c += t[1] * 60 + t[2] } print c }' "$1.t" >>"$1"
}

# batsfile FILE OUT: FILE's TAP to OUT, then a line of its time: wall clock
# and the CPU of what it ran and reaped (not a tmux server's: it is a daemon).
batsfile() {
	s=$(date +%s)
	: >"$2.cpu"
	cpu "$2.cpu"
	bats --tap --timing "$1" >"$2" 2>&1
	cpu "$2.cpu"
	c=$(awk 'NR == 1 { a = $1 } NR == 2 { printf "%.1f", $1 - a }' "$2.cpu")
	echo "# time: $1 $(( $(date +%s) - s )) s, cpu $c s (ended at $(( $(date +%s) - t0 )) s)" >>"$2"
}

# worker N: takes the queue's next file until none is left (mkdir is the lock).
worker() {
	while :; do
		until mkdir "$log.lock" 2>/dev/null; do sleep 0.05; done
		f=$(head -n 1 "$log.queue")
		sed -i 1d "$log.queue"
		rmdir "$log.lock"
		[ -n "$f" ] || return 0
		batsfile "$f" "$log.w$1"
		cat "$log.w$1" >>"$log.pool$1"
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
pool="$(files $POOL) "
# shellcheck disable=SC2086
beside="$(files $BESIDE) "
# shellcheck disable=SC2086
last="$(files $LAST) "
serial=""
for f in tests/cli/*.bats tests/tmux/*.bats; do
	case "$pool$beside$last" in
	*" $f "*) ;;
	*) serial="$serial $f" ;;
	esac
done
serial="$serial $last"

# one FILE...: each file alone, its TAP to the log.
one() {
	for f in "$@"; do
		batsfile "$f" "$log.one"
		tee -a "$log" <"$log.one"
	done
}

if [ "$jobs" -gt 1 ]; then
	# (not this shell's child: its CPU would count in a file's that ran
	# when it ended; its pid is in $log.bgpid)
	(
		nice -n 10 sh tests/run.sh --background "$log.bgtimes" >"$log.bg" 2>&1 &
		echo $! >"$log.bgpid"
	)
	echo "# bats: $jobs side by side, longest first:$pool"
	# shellcheck disable=SC2086
	printf '%s\n' $pool >"$log.queue"
	pids=""
	i=1
	while [ "$i" -le "$jobs" ]; do
		worker "$i" &
		pids="$pids $!"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086
	wait $pids
	cat "$log".pool* | tee -a "$log"
	took "the files side by side"
	echo "# bats: one file at a time, the background job beside"
	# shellcheck disable=SC2086
	one $beside
	while kill -0 "$(cat "$log.bgpid")" 2>/dev/null; do sleep 1; done
	tee -a "$log" <"$log.bg"
	took "the background job (sanitizer build, unit tests, fuzz harnesses)"
else
	{ unit; fuzz; } | tee -a "$log"
	serial="$pool$beside$serial"
fi

echo "# bats: one file at a time"
# shellcheck disable=SC2086
one $serial
took "the files one at a time"

echo "# the files by time (seconds, run alone or side by side):"
sed -n 's/^# time: \([^ ]*\) \([0-9]*\) s, cpu \([0-9.]*\) s.*/\2 \1 \3/p' "$log" | sort -rn | head -n 12 |
	while read -r sec f c; do echo "#   $sec s $f (cpu $c s)"; done

# Each skip named, with its reason (tests/need.bash: "missing ..." for a
# program or package, "kernel: ..." for what this kernel lacks), its file.
# Where deps.sh test ran, a "missing" one is a failure.
strict=0
[ "${KTOP_TESTS_STRICT:-0}" = 1 ] || [ "${CI:-}" = true ] && strict=1
grep -iE '^ok .* # skip' "$log" >"$log.skips"
: >"$log.missing"
if [ -s "$log.skips" ]; then
	echo "# skipped, and why:"
	while IFS= read -r line; do
		why=$(printf '%s\n' "$line" | sed 's/.* # [sS][kK][iI][pP] *//')
		name=$(printf '%s\n' "$line" | sed 's/^ok [0-9]* \(- \)\{0,1\}//; s/ # [sS][kK][iI][pP].*//; s/ in [0-9]*ms$//')
		file=$(grep -lF "@test \"$name\"" tests/cli/*.bats tests/tmux/*.bats 2>/dev/null | head -n 1)
		case "$why" in
		missing*)
			[ "$strict" = 1 ] && echo "not ok - $file: $name: $why, where tools/deps.sh test ran" >>"$log.missing"
			;;
		esac
		echo "#   ${why:-(no reason given)}: ${file:+$file: }$name"
	done <"$log.skips" | sort
fi
if [ -s "$log.missing" ]; then
	cat "$log.missing"
	cat "$log.missing" >>"$log"
fi
skipped=$(( $(wc -l <"$log.skips") - $(wc -l <"$log.missing") ))
passed=$(( $(grep -c '^ok ' "$log") - $(wc -l <"$log.skips") ))
failed=$(grep -c '^not ok ' "$log")
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] || status=1
echo "$passed passed, $skipped skipped, $failed failed"
exit $status
