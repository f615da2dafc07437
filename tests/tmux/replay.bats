#!/usr/bin/env bats
# The live view of a recording (ktop -r FILE) in a tmux pane: REPLAY and the
# recorded date and time in the header, Space pauses and plays, ] and [ step
# one interval, J jumps to a typed time, the help lists the keys; a live ktop
# says what the keys are for; REC while recording.

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-test-$$"

setup() {
	shell_pane
	D="$BATS_TEST_TMPDIR"
}

teardown() {
	tmux -L "$S" kill-server 2>/dev/null || true
}

# The header's recorded time: "REPLAY YYYY-MM-DD HH:MM:SS".
shown_time() {
	screen | sed -n 's/^ktop REPLAY \([0-9-]* [0-9:]*\) .*/\1/p' | head -n 1
}

record() {
	local t=
	[ "$(id -u)" -eq 0 ] || t=--no-trace
	"$KTOP" -b -w "$D/r.db" -n "$1" -d 1 $t >/dev/null
}

@test "tmux replay: REPLAY, the recorded time; pause, step, jump to a time" {
	local first t1 t2 want
	record 6
	first=$(sqlite3 "$D/r.db" "SELECT strftime('%Y-%m-%d %H:%M:%S', min(wall), 'unixepoch', 'localtime') FROM interval")
	keys "clear; $KTOP -r $D/r.db -d 0.5; echo KTOP-EXIT=\$?" Enter
	wait_for '^ktop REPLAY [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8} '
	wait_for 'PID[^ ]* +USER'
	# it plays to the end of the file, then says so
	wait_for 'END \(following\)'
	keys ' '
	wait_for 'PAUSED'
	t1=$(shown_time)
	keys '['
	for _ in $(seq 50); do
		t2=$(shown_time)
		[ "$t2" != "$t1" ] && break
		sleep 0.1
	done
	[ "$(date -d "$t2" +%s)" -lt "$(date -d "$t1" +%s)" ]
	keys ']'
	wait_for "^ktop REPLAY $t1 "
	# J: the first interval, typed as HH:MM:SS
	keys J
	wait_for 'Jump to'
	keys "${first#* }" Enter
	wait_for "^ktop REPLAY $first "
	keys '['
	wait_for 'the first interval of the recording'
	keys '?'
	wait_for '^ktop .*help.* table view'
	for _ in $(seq 10); do screen | grep -q 'a replay: jump to a time' && break; keys NPage; sleep 0.2; done
	wait_for 'a replay: jump to a time'
	keys q
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "tmux replay: a live ktop explains [ ] J; shows REC while recording" {
	keys "clear; $KTOP -d 0.5 -w $D/live.db; echo KTOP-EXIT=\$?" Enter
	wait_for 'PID[^ ]* +USER'
	wait_for '  REC'
	keys ']'
	wait_for 'ktop -r FILE'
	keys q
	wait_for 'KTOP-EXIT=0'
	[ "$(sqlite3 "$D/live.db" 'SELECT count(*) FROM interval')" -ge 1 ]
}

@test "tmux replay: H keeps the recording's rows and says so (a recording keeps one row per process)" {
	record 2
	keys "clear; $KTOP -r $D/r.db -d 0.5; echo KTOP-EXIT=\$?" Enter
	wait_for 'END \(following\)'
	keys H
	wait_for 'a recording keeps its rows: one per process'
	keys H
	wait_for 'a recording keeps its rows: one per process'
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "tmux replay: a step or a jump reaches the sinks like a tick, and only those that take a replay" {
	local first st
	record 4
	first=$(sqlite3 "$D/r.db" "SELECT strftime('%H:%M:%S', min(wall), 'unixepoch', 'localtime') FROM interval")
	# -d 100: no tick moves it; every interval after the first is a key's
	keys "clear; KTOP_STATS=1 $KTOP -r $D/r.db -d 100 2>$D/stats; echo KTOP-EXIT=\$?" Enter
	wait_for '^ktop REPLAY [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8} '
	keys ']'
	wait_for 'REPLAY .* 2/[0-9]+'
	keys ']'
	wait_for 'REPLAY .* 3/[0-9]+'
	keys '['
	wait_for 'REPLAY .* 2/[0-9]+'
	keys J
	wait_for 'Jump to'
	keys "$first" Enter
	wait_for 'REPLAY .* 1/[0-9]+'
	keys q
	keys q
	wait_for 'KTOP-EXIT=0'
	st=$(grep -E '^ktop-stats: intervals=' "$D/stats")
	echo "$st" >&2
	# the first interval, two steps on, one back, a jump: five, each to the view
	[[ "$st" == *" intervals=5 "* ]]
	[[ "$st" == *" sink_mode=5"* ]]
	# the recorder and the exporter take no replayed interval (sinks.c's rule)
	[[ "$st" == *" sink_recorder=0 "* ]]
	[[ "$st" == *" sink_exporter=0 "* ]]
}
