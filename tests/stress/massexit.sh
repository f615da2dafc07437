#!/bin/bash
# Mass exits, the long form of tests/cli/massexit.bats (make stress; root).
#
#   sudo tests/stress/massexit.sh [N [ROUNDS]]
#
# The program built with ASan+UBSan (build/ktop-asan) while N tasks (default
# 10,000) end at once, ROUNDS times (default 3): processes killed in one loop
# (batch with and without exit records, -w and --listen, -- CMD, -p, the live
# view), an exec storm, N threads returning at once; then tests/cli/order.bats
# (5,000 short lives from a shell loop, in time order) and the pid reused
# within one refresh (tests/cli/hostile.bats), both under the same build.
# kernel.pid_max is raised to 131072 for the run when it is lower, and put
# back. Exit 0 when every round passed: no crash, no sanitizer report, every
# task's rows exact.
set -u
cd "$(dirname "$0")/../.." || exit 2
n=${1:-10000}
rounds=${2:-3}
[ "$(id -u)" -eq 0 ] || { echo "massexit.sh: needs root (tracing)" >&2; exit 2; }
[ -x build/ktop-asan ] || { echo "massexit.sh: build/ktop-asan is not built (make build/ktop-asan)" >&2; exit 2; }
old_pid_max=$(cat /proc/sys/kernel/pid_max)
trap '[ "$(cat /proc/sys/kernel/pid_max)" != "$old_pid_max" ] && echo "$old_pid_max" >/proc/sys/kernel/pid_max' EXIT
(( old_pid_max >= 131072 )) || echo 131072 >/proc/sys/kernel/pid_max
export LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp:print_suppressions=0"
fail=0
for ((r = 1; r <= rounds; r++)); do
	echo "# round $r of $rounds: $n tasks"
	KTOP_MASSEXIT_N=$n bats tests/cli/massexit.bats || fail=1
done
echo "# order and pid reuse under build/ktop-asan"
KTOP_BIN=$PWD/build/ktop-asan bats tests/cli/order.bats || fail=1
KTOP_BIN=$PWD/build/ktop-asan bats -f 'pid reuse' tests/cli/hostile.bats || fail=1
# A pid given again within an interval and later: each life its own row (issue 32).
LSAN_OPTIONS=suppressions=$PWD/tests/lsan.supp KTOP_BIN=$PWD/build/ktop-asan bats tests/cli/lives.bats || fail=1
[ $fail -eq 0 ] && echo "massexit: PASS" || echo "massexit: FAIL"
exit $fail
