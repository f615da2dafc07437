#!/usr/bin/env bats
# -p in batch: the watched processes' system calls in progress for an
# interval or more (text: a list after the table; JSON: each process's
# "calls_in_progress"). tests/tmux/helpers/thrwl.c: a thread in an hour's
# nanosleep and one waiting in vfork (both begun before ktop: "at least"),
# one reading a pipe that the main thread writes to every 2 s.

load helpers/common

setup_file() {
	helper_prog thrwl || true
}

setup() {
	common_setup
	[ "$(id -u)" -eq 0 ] || skip "needs root: the calls come from tracing"
	[ -d /sys/kernel/tracing/events/raw_syscalls ] || skip_kernel "tracefs is not available"
	need_built "$BATS_FILE_TMPDIR/thrwl"
	"$BATS_FILE_TMPDIR/thrwl" "$BATS_TEST_TMPDIR/wl" "$BATS_TEST_TMPDIR/reads" &
	track $!
	wait_for_file "$BATS_TEST_TMPDIR/wl"
	read -r P BUSY SLEEP VFORK READER FD <"$BATS_TEST_TMPDIR/wl"
}
teardown() { common_teardown; }

@test "inprog: -p --json lists each call in progress with its fd, its age, 'at least' when begun before ktop" {
	"$KTOP" -b --json -p "$P" -d 0.4 -n 12 >"$OUT"
	"$PY" - "$OUT" "$SLEEP" "$VFORK" "$READER" "$FD" "$BUSY" <<'PYEOF'
import json, sys
out, sleep, vfork, reader, fd, busy = sys.argv[1], *map(int, sys.argv[2:])
ticks = [json.loads(l) for l in open(out)]
prev, reads, pairs, slept = None, 0, 0, []
# The first sample has no interval to be in progress for: not known, like its rates.
assert "calls_in_progress" not in ticks[0]["processes"][0], ticks[0]
for t in ticks[1:]:
    (p,) = t["processes"]
    calls = {c["tid"]: c for c in p["calls_in_progress"]}
    assert busy not in calls, calls  # spinning: in no call
    # Begun before ktop: a lower bound, growing with the time.
    s = calls[sleep]
    assert s["syscall"] == "nanosleep" and s["at_least"], s
    slept.append(s["age_s"])
    assert calls[vfork]["syscall"] == "vfork" and calls[vfork]["at_least"], calls
    r = calls.get(reader)
    # The one it was in when ktop began is "at least" too; the later ones are exact.
    if r and r["at_least"]:
        assert r["syscall"] == "read" and r["fd"] == fd, r
        assert not reads, r
        r = None
    if r:
        reads += 1
        assert r["syscall"] == "read" and r["fd"] == fd, r
        assert r["target"].startswith("pipe:["), r
        # In progress an interval or more, never longer than the 2 s it blocks.
        assert 0.9 * t["interval_s"] <= r["age_s"] <= 2.1, (r, t["interval_s"])
        # The same call a tick later is exactly one interval older.
        if prev and r["age_s"] > prev["age"]:
            assert abs(r["age_s"] - prev["age"] - t["interval_s"]) < 0.002, (r, prev, t["interval_s"])
            pairs += 1
        prev = {"age": r["age_s"]}
    else:
        prev = None
assert reads >= 3 and pairs >= 1, (reads, pairs)
assert all(b > a for a, b in zip(slept, slept[1:])), slept
print("reads seen", reads, "consecutive", pairs, "sleeper ages", slept[0], slept[-1])
PYEOF
}

@test "inprog: -p text lists them after the table" {
	"$KTOP" -b -p "$P" -d 0.4 -n 8 >"$OUT"
	grep -q '^Calls in progress (an interval or more):$' "$OUT"
	grep -Eq "^ +$P +$SLEEP  nanosleep for more than [0-9.]+ s$" "$OUT"
	grep -Eq "^ +$P +$VFORK  vfork for more than [0-9.]+ s$" "$OUT"
	grep -Eq "^ +$P +$READER  read on fd $FD \(pipe:\[[0-9]+\]\) for [0-9.]+ s$" "$OUT"
	if grep -Eq "^ +$P +$BUSY " "$OUT"; then return 1; fi
}

@test "inprog: without -p nothing is listed (no sys_enter: not known)" {
	"$KTOP" -b --json -d 0.3 -n 2 -o pid,comm >"$OUT"
	if grep -q calls_in_progress "$OUT"; then return 1; fi
}
