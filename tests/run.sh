#!/bin/sh
# The whole test suite: unit tests (plain and under ASan+UBSan), a short run of
# the fuzz harnesses, CLI tests of the real binary, terminal tests under tmux.
# Every level prints TAP; this script counts the results and ends with one line
# "N passed, N failed".
cd "$(dirname "$0")/.." || exit 1
log=$(mktemp /tmp/ktop-tests.XXXXXX)
trap 'rm -f "$log"' EXIT
status=0

# The layout's directions (collectors, views, outputs -> model; model pure).
echo "# layout: tools/check-layout.sh"
if sh tools/check-layout.sh >"$log.out" 2>&1; then
	echo "ok - layout: the include directions hold, no I/O in model/" | tee -a "$log"
else
	sed 's/^/# /' "$log.out"
	echo "not ok - layout: tools/check-layout.sh" | tee -a "$log"
fi

for t in build/tests/test_* build/asan/test_*; do
	[ -x "$t" ] || continue
	echo "# unit: $t"
	if ! "$t" >"$log.out" 2>&1; then
		grep -q '^not ok' "$log.out" || echo "not ok - $t crashed or failed outside a test" >>"$log.out"
	fi
	sed "s|^\(not \)\{0,1\}ok [0-9]* - |&$(basename "$(dirname "$t")")/$(basename "$t"): |" "$log.out" | tee -a "$log"
done
rm -f "$log.out"

# A few seconds of each libFuzzer harness (make fuzz runs them for longer).
echo "# fuzz: tests/fuzz"
sh tests/fuzz/run.sh "${KTOP_FUZZ_SECONDS:-4}" | tee -a "$log"

for suite in tests/cli tests/tmux; do
	ls "$suite"/*.bats >/dev/null 2>&1 || continue
	echo "# bats: $suite"
	bats --tap "$suite" 2>&1 | tee -a "$log"
done

passed=$(grep -c '^ok ' "$log")
failed=$(grep -c '^not ok ' "$log")
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ] || status=1
echo "$passed passed, $failed failed"
exit $status
