#!/bin/sh
# Run every libFuzzer harness of tests/fuzz for SECONDS each (default 4), from its
# seed corpus tests/fuzz/corpus/NAME. Prints TAP: one line per harness.
#
#   sh tests/fuzz/run.sh [SECONDS]     (make fuzzers first; make fuzz does both)
#
# New interesting inputs go to build/fuzz/corpus/NAME (the seeds are read, never
# written); a crash leaves its input in build/fuzz/crash/ and fails the line. To
# keep a long run's finds as seeds, merge them (minimized) into the repository:
#   build/fuzz/fuzz_NAME -merge=1 tests/fuzz/corpus/NAME build/fuzz/corpus/NAME
cd "$(dirname "$0")/../.." || exit 1
secs=${1:-4}
targets="procparse sysparse evdecode text tsparse replay cgparse"
status=0
n=0
echo "1..$(echo $targets | wc -w)"
mkdir -p build/fuzz/crash
for t in $targets; do
	n=$((n + 1))
	bin=build/fuzz/fuzz_$t
	work=build/fuzz/corpus/$t
	log=build/fuzz/$t.log
	mkdir -p "$work"
	if [ ! -x "$bin" ]; then
		echo "not ok $n - fuzz: $t: $bin is not built (make fuzzers)"
		status=1
		continue
	fi
	# -rss_limit_mb: a leak or a runaway allocation is a finding too
	if "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=1024 -print_final_stats=1 \
		-artifact_prefix=build/fuzz/crash/"$t"- "$work" tests/fuzz/corpus/"$t" >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
		echo "ok $n - fuzz: $t: ${runs:-?} inputs in $secs s, $cov, no crash, leak or timeout"
	else
		echo "not ok $n - fuzz: $t: see $log"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | head -5 | sed 's/^/# /'
		status=1
	fi
done
exit $status
