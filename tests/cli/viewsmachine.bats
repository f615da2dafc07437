#!/usr/bin/env bats
# views.bats's test that counts the whole machine, run alone (tests/run.sh):
# the groups view's processes summed against the machine's tasks (a process
# started or ended by another test between the two is a difference).
# views.bats says what the views show.

load helpers/common
load helpers/views

@test "--view groups: every process is in one group; procs sum to the rows of -b" {
	run --separate-stderr timeout 10 "$KTOP" -b --json -n 2 -d 0.2 --no-trace --view groups
	[ "$status" -eq 0 ]
	"$PY" -c 'import json, sys
lines = sys.stdin.read().splitlines()
assert len(lines) == 2, lines
for line in lines:
    o = json.loads(line)
    assert o["view"] == "groups" and o["group_by"] == "comm", o.keys()
    keys = [r["group"] for r in o["rows"]]
    assert len(keys) == len(set(keys)), "a group twice"
    assert sum(r["procs"] for r in o["rows"]) >= o["system"]["tasks"] - 50
' <<<"$output"
}
