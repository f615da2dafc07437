#!/usr/bin/env bats
# Terminal tests of the process view, the event list and the snapshots: the
# real ktop in a tmux pane, walking table -> process -> events -> snapshot ->
# back, on helpers/evwl.c, a workload whose events are known (an openat of a
# missing file failing with ENOENT, getppid, nanosleep; SIGUSR1 from its child
# "evwl-sender" every 300 ms), and on helpers/floodwl.c, a getppid flood that
# counts its own calls.
#
# viewsload.bats: the tests that flood system calls or measure bytes (run alone);
# helpers/views.bash: their common part.

load helpers/tmux
load helpers/views

@test "views: table -> process view -> events -> snapshot -> back, with known content" {
	open_parent_view
	# The syscall table: the failing openat with its errno, the signals with their sender.
	wait_for 'openat +Filesystem +[0-9.k]+ +[0-9]+ +[0-9]+ ENOENT'
	wait_for 'getppid +Process Mgmt\.'
	wait_for "SIGUSR1 +from $SENDER evwl-sender +to $P +delivered: handler"
	wait_for '^ Filesystem +[0-9.]+%'
	# The focus instance is there while the view is open.
	k=$(ktop_pid)
	[ -d "$(inst_dir $k -f)" ]

	keys e
	wait_for "^Events of $P evwl"
	wait_for 'openat\(0xffffff9c, 0x[0-9a-f]+, 0, 0\) = -2 ENOENT <[0-9.]+ us>'
	wait_for 'switch out S -> '
	keys / o p e n a t Enter
	wait_for 'filter: kind=syscall syscall=openat'
	run sh -c "tmux -L $S capture-pane -p -t t | sed '1,3d;\$d' | grep -v '^ *\$' | grep -v openat"
	[ -z "$output" ]
	# Two of them at least, so that Left has one to step back to.
	for _ in $(seq 50); do
		[ "$(screen | grep -c 'openat(')" -ge 2 ] && break
		sleep 0.1
	done
	[ "$(screen | grep -c 'openat(')" -ge 2 ]

	keys Enter
	wait_for 'Snapshot at event #[0-9]+'
	wait_for 'return +-2 ENOENT'
	wait_for "tid +$P +event \\(exact\\)"
	wait_for 'minflt +[0-9]+ +stat [+-][0-9.]+ [um]?s'
	wait_for 'mem_total +[0-9]+ kB +meminfo [+-]'
	wait_for 'switch_out +[0-9]+'
	first=$(screen | sed -n 's/^Snapshot at event #\([0-9]*\).*/\1/p')
	[ -n "$first" ]
	keys Left
	for _ in $(seq 30); do
		second=$(screen | sed -n 's/^Snapshot at event #\([0-9]*\).*/\1/p')
		[ -n "$second" ] && [ "$second" -lt "$first" ] && break
		sleep 0.1
	done
	[ "$second" -lt "$first" ] || { echo "Left: #$first -> #$second" >&2; screen >&2; false; }
	# Still an openat: Left steps within the list's filter.
	wait_for '^openat\('

	keys Escape
	wait_for "^Events of $P"
	keys Escape
	wait_for "^Process $P"
	keys Escape
	wait_for 'PID[^ ]* +USER'
	# The view closed: its instance is gone, the main one stays.
	for _ in $(seq 30); do [ -d "$(inst_dir $k -f)" ] || break; sleep 0.1; done
	[ ! -d "$(inst_dir $k -f)" ]
	[ -d "$(inst_dir $k)" ]
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "views: a delivered signal names its sender; kind filter; pause" {
	open_parent_view
	keys e
	wait_for "^Events of $P"
	keys f d e l Enter
	wait_for 'filter: kind=deliver'
	wait_for "deliver SIGUSR1 \(handler, sent by $SENDER evwl-sender\)"
	keys ' '
	wait_for 'PAUSED'
	n1=$(screen | grep -c 'deliver SIGUSR1')
	sleep 1
	n2=$(screen | grep -c 'deliver SIGUSR1')
	[ "$n1" = "$n2" ]
	keys ' '
	wait_for ' live '
	keys F10
	wait_for 'KTOP-EXIT=0'
}

@test "views: the event list's selection stays on its event, and on its line, as events arrive" {
	OPEN_ENV=TERM=xterm-256color open_parent_view --theme default
	keys e
	wait_for "^Events of $P evwl"
	# more events than the list has lines
	wait_for ' kept of ([4-9][0-9]|[1-9][0-9]{2,}) seen'
	keys Up Up Up
	local first now n0 n lines
	for _ in $(seq 50); do
		first=$(selected_event)
		# three lines above the last event line (the screen's last is the key hint)
		[ "${first%% *}" = $(($(screen | wc -l) - 4)) ] && break
		sleep 0.1
	done
	[ "${first%% *}" = $(($(screen | wc -l) - 4)) ]
	lines=$(event_lines)
	n0=$(seen)
	# a screen's worth of new events: the list moves on below the selection
	for _ in $(seq 300); do
		n=$(seen)
		[ "$n" -ge $((n0 + 30)) ] && break
		sleep 0.1
	done
	[ "$n" -ge $((n0 + 30)) ]
	now=$(selected_event)
	echo "selected: $first (seen $n0); then: $now (seen $n)" >&2
	[ "$now" = "$first" ]
	# the lines around it did not move either
	[ "$(event_lines)" = "$lines" ]
	# End (G: the key this TERM is sure to send): the newest again, on the last line, following
	keys G
	for _ in $(seq 50); do
		now=$(selected_event)
		[ "${now%% *}" = $(($(screen | wc -l) - 1)) ] && break
		sleep 0.1
	done
	[ "${now%% *}" = $(($(screen | wc -l) - 1)) ]
	# a click selects the event under it, which then stays on its line too
	local y=$(($(screen | wc -l) - 6))
	click "$y" 20
	for _ in $(seq 50); do
		now=$(selected_event)
		[ "${now%% *}" = "$y" ] && break
		sleep 0.1
	done
	[ "${now%% *}" = "$y" ]
	keys F10
	wait_for 'KTOP-EXIT=0'
}

@test "views: -p PID opens the process view; the process exits: 'exited', data kept" {
	keys "clear; LC_ALL=C $KTOP -d 0.3 -p $P; echo KTOP-EXIT=\$?" Enter
	wait_for "^Process $P +evwl"
	wait_for 'openat +Filesystem'
	wait_for '^nanosleep +Time'
	k=$(ktop_pid)
	[ -d "$(inst_dir $k -f)" ]
	# Not UTF-8: the history graphs are ASCII.
	run sh -c "tmux -L $S capture-pane -p -t t | LC_ALL=C grep -c '[^ -~]'"
	[ "$output" = 0 ]
	kill "$SENDER" "$WL"
	wait "$WL" 2>/dev/null || true
	wait_for "^Process $P +evwl +\(exited"
	wait_for 'openat +Filesystem'
	keys Q
	wait_for 'KTOP-EXIT=0'
	[ ! -d "$(inst_dir $k -f)" ]
	[ ! -d "$(inst_dir $k)" ]
}

@test "views: help lists the process view's keys" {
	open_parent_view
	keys '?'
	wait_for '^ktop .*help.* process view'
	wait_for 'the event list: every kernel event'
	keys x
	wait_for "^Process $P"
	keys F10
	wait_for 'KTOP-EXIT=0'
}

@test "views: a child's SIGCHLD shows once, with the child's name, delivered" {
	# The children are in the focus instance's pid filter (event-fork) and in
	# the system-wide instance: one signal, one line.
	bash -c 'while :; do /bin/true; sleep 0.2; done' &
	L=$!
	keys "clear; LANG=C.UTF-8 $KTOP -d 0.3 -p $L; echo KTOP-EXIT=\$?" Enter
	wait_for "^Process $L +bash"
	wait_for "SIGCHLD +from [0-9]+ true +to $L +delivered: handler"
	wait_for "SIGCHLD +from [0-9]+ sleep +to $L +delivered: handler"
	sleep 1
	kill "$L"
	dup=$(screen | grep -oE "SIGCHLD +from [0-9]+" | sort | uniq -d | wc -l)
	[ "$dup" = 0 ]
	keys F10
	wait_for 'KTOP-EXIT=0'
}

@test "views: not root with tracefs access: another user's process is not focused, one's own is" {
	local dir nb own k as
	nobody_ktop
	$as sleep "100.$$" </dev/null >/dev/null 2>&1 &
	own=$!
	# -p of root's workload: the table, the refusal on the bottom line, no focus instance.
	keys "clear; LANG=C.UTF-8 $nb -d 0.3 -p $P; echo KTOP-EXIT=\$?" Enter
	wait_for "process $P is uid 0's, not yours: only root sees its events"
	wait_for "^ +$P +root"
	k=$(ktop_pid)
	if screen | grep -q "^Process $P"; then return 1; fi
	# Enter on its row: refused again.
	keys Enter
	sleep 0.5
	wait_for "process $P is uid 0's, not yours"
	if screen | grep -q "^Process $P"; then return 1; fi
	[ ! -d "$(inst_dir $k -f)" ]
	keys F10
	wait_for 'KTOP-EXIT=0'
	# The user's own process: its view, its events focused.
	keys "clear; LANG=C.UTF-8 $nb -d 0.3; echo KTOP-EXIT=\$?" Enter
	wait_for 'PID[^ ]* +USER'
	keys F4
	typein "100.$$"
	keys Enter
	wait_for "^ +$own +nobody"
	k=$(ktop_pid)
	keys Enter
	wait_for "^Process $own +sleep"
	[ -d "$(inst_dir $k -f)" ]
	keys F10
	wait_for 'KTOP-EXIT=0'
	kill "$own"
	rm -rf "$dir"
}

@test "views: C1 and invalid UTF-8 in a name and an exec's file name are never raw (process view, events, snapshot)" {
	local link="$BATS_TEST_TMPDIR/h"$'\xc2\x9b'"x"$'\xff'"y" x scr
	ln -s /bin/sleep "$link"
	# Focused first, then it execs the link: comm and the exec event's file name are hostile.
	python3 -c 'import os, sys, time; time.sleep(1.5); os.execv(sys.argv[1], [sys.argv[1], "30"])' "$link" &
	x=$!
	keys "clear; LANG=C.UTF-8 $KTOP -d 0.3 -p $x; echo KTOP-EXIT=\$?" Enter
	wait_for "^Process $x +h\\?+x\\?y"
	keys e f
	tmux -L "$S" send-keys -t t -l exec
	keys Enter
	wait_for "exec .*/h\\?+x\\?y"
	scr=$(tmux -L "$S" capture-pane -p -t t)
	keys Enter
	wait_for "filename +.*/h\\?+x\\?y"
	wait_for "^Snapshot at event #[0-9]+ of $x h\\?+x\\?y"
	scr+=$(tmux -L "$S" capture-pane -p -t t)
	kill "$x"
	# Nothing on the screen but what sanitize_text lets through: no C1, no invalid byte.
	if LC_ALL=C grep -q $'\xc2\x9b\\|\xff' <<<"$scr"; then return 1; fi
	keys F10
	wait_for 'KTOP-EXIT=0'
}

@test "views: not root: one's own process executes a setuid program: its events end there, and the view says so" {
	local dir nb own as
	nobody_ktop
	# The setuid-root program of cli/security.bats: reads /etc/shadow, sched_yield each pass.
	helper_prog shadowloop "$dir/shadowloop"
	chmod 4755 "$dir/shadowloop"
	$as "$dir/shadowloop" 0 || { rm -rf "$dir"; skip_kernel "a setuid program does not gain privileges here"; }
	# nobody's python: getppid calls for 2.5 s, then it executes the program.
	$as /usr/bin/python3 -c 'import os, sys, time
end = time.time() + 2.5
while time.time() < end:
    [os.getppid() for _ in range(50)]
    time.sleep(0.02)
os.execv(sys.argv[1], [sys.argv[1], "8"])' "$dir/shadowloop" </dev/null >/dev/null 2>&1 &
	own=$!
	keys "clear; LANG=C.UTF-8 $nb -d 0.3 -p $own; echo KTOP-EXIT=\$?" Enter
	wait_for "^Process $own +python3"
	keys e
	wait_for "^Events of $own"
	wait_for '^[0-9:.]+ +[0-9]+ +[0-9]+ +getppid\(\) = '
	wait_for "process $own gained privileges \(exec .*shadowloop\): its events after that are not shown"
	# What the program does (openat, read, sched_yield) would be the newest lines by now.
	sleep 1
	if screen | grep -Eq '^[0-9:.]+ +[0-9]+ +[0-9]+ +(sched_yield|exec |openat)'; then screen >&2; return 1; fi
	screen | grep -Eq 'getppid\(\) = '
	keys F10
	wait_for 'KTOP-EXIT=0'
	kill "$own"
	wait "$own" 2>/dev/null || true
	rm -rf "$dir"
}
