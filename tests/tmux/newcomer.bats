#!/usr/bin/env bats
# Issue 21, the first ten minutes of a top/htop user: what the screen says at a
# glance is true (zombies as ps counts them, rates under 10 with a decimal, the
# first frame, the Mem legend) and readable (COMMAND's width, quit at 80x24,
# the tab shown, the sort arrow, the theme's name, NI, search, the tree at
# 80x24, exited rows, replay's position), each with a number to check.
#
# newcomercount.bats: the tests that count the whole machine or flood it (run
# alone); helpers/newcomer.bash: their common part.

load helpers/tmux
load helpers/newcomer

@test "first frame: CPU% and faults since each process started at once, marked so" {
	start -d 30 --no-trace
	# no second refresh for 30 s: what shows now is the first frame
	wait_for 'Rates \(from the next refresh; CPU% and faults/s below: averages since each process started\)'
	# pid 1 has a CPU% number, not '-'
	wait_for '^ +1 +root +-?[0-9]+ +[A-Z] +[0-9]+\.[0-9] '
	quit
}

@test "COMMAND gets at least 40 cells at 120 columns; NI, RES and TIME+ are there" {
	start -d 1
	local t pos
	t=$(titles)
	pos=$(awk '{ print index($0, "COMMAND") }' <<<"$t")
	echo "titles: $t; COMMAND at $pos of 120" >&2
	[ $((120 - pos + 1)) -ge 40 ]
	[[ "$t" =~ \ NI\  ]] && [[ "$t" =~ \ RES\  ]] && [[ "$t" =~ \ TIME\+\  ]]
	quit
}

@test "at 80x24 the key bar still says how to quit; F3 is search" {
	pane 80 24
	start -d 1
	wait_for 'F10Quit'
	screen | tail -1 | grep -q 'F3Search'
	quit
}

@test "the sort column has an arrow (ASCII too); setup's Theme names the theme" {
	start -d 1 --no-trace
	wait_for 'CPU%▽'
	keys I
	wait_for 'CPU%△'
	keys C	# setup, as in htop: its second line is the theme
	wait_for '^ +Theme '
	keys Down Right
	wait_for '^theme [a-z-]+ \([0-9] of [0-9]; Left/Right: another'
	keys Escape
	quit
	keys "clear; env XDG_CONFIG_HOME='$CFG' LANG=C.UTF-8 $KTOP -d 1 --no-trace --ascii; echo KTOP-EXIT=\$?" Enter
	wait_for 'CPU%v'
	quit
}

@test "the tab of the view shown differs from the others in every shipped theme" {
	[ "$(id -u)" = 0 ] || skip "the system views count events: needs root"
	local th cur other TERMENV=TERM=xterm-256color	# the themes' 256 colours
	for th in default light mono high-contrast; do
		start -d 1 --theme "$th"
		keys 2
		wait_for ' 2 Syscalls '
		cur=$(look_of ' 2 Syscalls ')
		other=$(look_of ' 3 Errors ')
		echo "$th: shown '$cur', other '$other'" >&2
		[ -n "$cur" ] && [ "$cur" != "$other" ]
		quit
	done
}

@test "NI shows a renice at once (F8 on the selected process)" {
	bg sleep 1004
	local p=$BG
	start -d 1 --no-trace
	keys F4
	typein "sleep 1004"
	keys Enter
	wait_for "^ +$p +root +0 "
	keys F8
	wait_for "^ +$p +root +1 "
	[ "$(ps -o ni= -p "$p" | tr -d ' ')" = 1 ]
	quit
}

@test "search (F3): the selection jumps to the next match, no row is hidden" {
	bg sleep 1005
	local a=$BG
	bg sleep 1005
	local b=$BG
	start -d 2 --no-trace
	keys N	# by pid: the two in a known order
	wait_for 'PID△'
	local before
	before=$(screen | grep -cE '^ +[0-9]+ ')
	keys F3
	wait_for '^Search \(F3: next\):'
	typein "sleep 1005"
	keys Enter
	# the first match selected, and the rows all there (the table is not filtered)
	[ "$(screen | grep -cE '^ +[0-9]+ ')" -ge $((before - 2)) ]
	if screen | tail -1 | grep -q 'filter:'; then return 1; fi
	keys F3	# a new search starts empty (issue 33); F3 in it: the next match
	wait_for '^Search \(F3: next\): *$'
	typein "sleep 1005"
	wait_for '^Search \(F3: next\): sleep 1005'
	keys F3
	keys Enter
	keys Enter	# the selected row's process view
	wait_for "^Process $b +sleep"
	keys Escape
	keys F3
	typein "zz-no-such"
	wait_for '^Search \(no match\):'
	keys Escape
	quit
	: "$a"
}

@test "search (F3): a refresh after it keeps the selection on its process, not its line" {
	# -d 100: no tick; the only refresh after the first frames is the one c
	# makes (COMMAND: the name; the first frame read every command line).
	# By threads, most first: a process of 200 threads started then lands
	# above the selected row (pids wrap: a new one is not always the highest).
	start -d 100 --no-trace -s threads
	wait_for 'sort:threads-'
	keys Home Enter
	wait_for '^Process [0-9]+'
	local sel
	sel=$(screen | sed -n 's/^Process \([0-9]*\).*/\1/p' | head -1)
	keys Escape
	wait_for 'sort:threads-'
	bg python3 -c 'import threading, time, os, sys
for _ in range(200): threading.Thread(target=time.sleep, args=(1000,), daemon=True).start()
open(sys.argv[1] + ".tmp", "w").close(); os.rename(sys.argv[1] + ".tmp", sys.argv[1])
time.sleep(1000)' "$BATS_TEST_TMPDIR/threads-ready"
	for _ in $(seq 100); do [ -e "$BATS_TEST_TMPDIR/threads-ready" ] && break; sleep 0.1; done
	keys F3
	wait_for '^Search \(F3: next\):'
	keys Escape
	keys c
	# the refresh is done when the new process has its row
	wait_for "^ +$BG "
	keys Enter
	wait_for '^Process [0-9]+'
	echo "selected before F3: $sel; after: $(screen | grep -E '^Process [0-9]+')" >&2
	screen | grep -qE "^Process $sel( |\$)"
	keys Escape
	quit
}

@test "tree: a chain 10 deep reads at 80x24 (names not cut to letters)" {
	pane 80 24
	# each level a shell waiting on the next; the last one sleeps
	printf '%s\n' 'if [ "$1" -gt 0 ]; then sh "$0" $(($1 - 1)); else exec sleep 1006; fi' \
		>"$BATS_TEST_TMPDIR/deep.sh"
	bg sh "$BATS_TEST_TMPDIR/deep.sh" 10
	# the chain complete before ktop's first frame (a loaded machine takes a while)
	for _ in $(seq 200); do pgrep -s "$BG" -f '^sleep 1006$' >/dev/null && break; sleep 0.05; done
	start -d 1 --no-trace
	keys t
	wait_for 'tree view'
	keys F3
	typein "sleep 1006"
	keys Enter
	keys F	# follow it: a refresh that reorders the rows keeps it in view
	local line
	for _ in $(seq 100); do
		line=$(screen | grep -E '[^a-z]sleep 1006' | head -1)
		[ -n "$line" ] && break
		sleep 0.1
	done
	echo "deepest: $line" >&2
	# the name keeps its letters, and its parent's line is there too
	[[ "$line" == *"sleep 1006"* ]]
	# the tree's lines before it take at most half of COMMAND's room (in cells)
	local cmd name
	cmd=$(titles | awk '{ print index($0, "COMMAND") - 1 }')
	name=$(python3 -c 'import sys; l = sys.argv[1]; print(len(l[:l.index("sleep 1006")]))' "$line")
	echo "COMMAND at $cmd, the name at $name" >&2
	[ $((name - cmd)) -le $(((80 - cmd) / 2 + 3)) ]
	quit
}

@test "help: the header's legend first (Mem is total - available), then each page's title" {
	start -d 1 --no-trace
	keys '?'
	wait_for 'help: the header, then the keys of the table view'
	wait_for 'Mem +used = MemTotal - MemAvailable'
	keys NPage NPage NPage
	wait_for '^ktop .* help: keys of the table view'
	keys NPage NPage NPage NPage NPage NPage NPage NPage NPage NPage
	if screen | head -1 | grep -q 'keys of the table view'; then return 1; fi
	keys x
	quit
}

@test "the views menu (V) shows whole descriptions at 200 columns" {
	pane 200 40
	start -d 1 --no-trace
	keys V
	wait_for '6 Groups +processes summed per command, user, cgroup, unit, container$'
	keys Escape
	quit
}

@test "the delay has one lower bound: the d key takes 0.05 as -d does" {
	start -d 1 --no-trace
	keys d
	wait_for 'Delay in seconds'
	keys C-u
	tmux -L "$S" send-keys -t t -l "0.05"
	keys Enter
	wait_for 'delay 0.05 s'
	keys d C-u
	tmux -L "$S" send-keys -t t -l "0.001"
	keys Enter
	wait_for "delay '0.001' is not a number of seconds from 0.01 to 86400"
	quit
}

@test "a filter that matches nothing: Enter says so" {
	start -d 1 --no-trace
	keys F4
	typein "zz-nothing-$$"
	keys Enter
	wait_for 'no process matches the filter \(Esc clears it\)'
	keys Enter
	wait_for "no process to open: the filter 'zz-nothing-$$' matches none"
	quit
}

@test "replay: position and times, J past the end says so, [ does not count twice, no F9" {
	local db="$BATS_TEST_TMPDIR/r.db"
	timeout 20 "$KTOP" -b -d 0.5 -n 6 -w "$db" >/dev/null
	start -r "$db"
	keys ' '
	wait_for '^ktop REPLAY .* [0-9]+/6 \[[0-9:]{8}-[0-9:]{8}\]  PAUSED'
	keys J
	wait_for 'Jump to'
	tmux -L "$S" send-keys -t t -l "23:59:59"
	keys Enter
	wait_for "23:59:59 is after the recording's end: its last interval"
	wait_for '^ktop REPLAY .* 6/6 '
	# F7 F8 F9 are not offered; F9 says why at once
	if screen | tail -1 | grep -qE 'F7|F8|F9'; then return 1; fi
	keys F9
	wait_for 'a recording: no live process to signal'
	# the process view of the first row, at once on the paused replay
	keys Home Enter
	wait_for 'history, newest right \(1 of [0-9]+ ticks, 0\.[45][0-9]* s each\)'
	if screen | grep -q 'not read from /proc yet'; then return 1; fi
	# a step back starts the history again at the interval shown: one point,
	# not the jump's baselines and the interval added (4)
	keys '['
	sleep 0.5
	wait_for 'history, newest right \(1 of [0-9]+ ticks'
	keys ']'
	wait_for 'history, newest right \(2 of [0-9]+ ticks'
	keys Escape
	wait_for '^ktop REPLAY .* 6/6 '
	quit
}
