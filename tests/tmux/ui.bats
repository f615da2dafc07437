#!/usr/bin/env bats
# Terminal tests: the real ktop in a tmux pane, driven with send-keys and read
# back with capture-pane, as a person would use it.

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-test-$$"

setup() {
	shell_pane
}

teardown() {
	tmux -L "$S" kill-server 2>/dev/null || true
	[ -n "${SLEEPER:-}" ] && kill "$SLEEPER" 2>/dev/null || true
}



start_ktop() {
	keys "clear; $KTOP -d 0.3 $*; echo KTOP-EXIT=\$?" Enter
	wait_for '^ +PID'
}

@test "tmux: starts, shows the header and process rows, quits with q" {
	start_ktop
	wait_for '^ktop [0-9:]+ +up'
	wait_for '^CPU\['
	wait_for '^Mem\['
	wait_for '^Tasks [0-9]+'
	wait_for '^ +1 +root'
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "tmux: quitting restores the terminal (no ktop screen left, shell usable)" {
	start_ktop
	keys q
	wait_for 'KTOP-EXIT=0'
	keys "echo after-ktop-\$((6*7))" Enter
	wait_for 'after-ktop-42'
	run screen
	[[ "$output" != *"PID USER"* ]]
}

@test "tmux: rates appear after the first interval (first frame shows -)" {
	start_ktop
	wait_for 'Rates ctxsw [0-9.kM]+/s'
	keys q
}

@test "tmux: P, M, N change the sort column shown in the footer" {
	start_ktop
	keys M
	wait_for 'sort:rss_kb-'
	keys N
	wait_for 'sort:pid\+'
	keys N
	wait_for 'sort:pid-'
	keys P
	wait_for 'sort:cpu_pct-'
	keys '>'	# the column right of CPU% on screen: WAIT% at 100 columns traced, MEM% untraced
	wait_for 'sort:(wait_pct|mem_pct)-'
	keys '<'
	wait_for 'sort:cpu_pct-'
	keys q
}

@test "tmux: sort by PID puts pid 1 first; inverted puts the newest first" {
	start_ktop
	keys N
	wait_for 'sort:pid\+'
	# the selection stays on its process (htop's way): Home shows the top of the order
	keys Home
	sleep 0.4
	first=$(screen | grep -E -A1 '^ +PID' | tail -1 | awk '{print $1}')
	[ "$first" = 1 ]
	keys I
	wait_for 'sort:pid-'
	keys Home
	sleep 0.4
	first=$(screen | grep -E -A1 '^ +PID' | tail -1 | awk '{print $1}')
	[ "$first" -gt 1 ]
	keys q
}

@test "tmux: filter by name shows only matching processes" {
	sleep 300 &
	SLEEPER=$!
	start_ktop
	keys '\' k t o p Enter
	wait_for 'filter:ktop'
	run sh -c "tmux -L $S capture-pane -p -t t | sed -n '/PID *USER/,\$p' | sed '1d;\$d' | grep -v '^ *\$'"
	[ "$status" -eq 0 ]
	[[ "$output" == *ktop* ]]
	[[ "$output" != *"sleep 300"* ]]
	keys Escape
	keys F4 s l e e p Enter
	wait_for 'sleep 300'
	keys q
}

@test "tmux: untraced, the rows on screen have their context switches read (a number, not -)" {
	# The table marks the rows it drew; src/ reads their status at the next tick.
	sleep 300 &
	SLEEPER=$!
	start_ktop --no-trace
	keys F4 s l e e p Enter
	wait_for 'CSW/s COMMAND'
	# CSW/s, just before COMMAND: "-" until its status is read.
	wait_for "^ *$SLEEPER .* [0-9][0-9.kM]* +sleep 300"
	keys q
}

@test "tmux: the sort menu sorts by the chosen column" {
	start_ktop
	keys F6
	wait_for 'Sort by'
	keys Home
	keys Down	# the columns on screen first: PID, USER, ...
	keys Enter
	wait_for 'sort:user\+'
	keys q
}

@test "tmux: help lists the keys and returns" {
	start_ktop
	keys '?'
	wait_for 'view \(any key returns'
	# the header's legend comes first: the keys on the next pages
	for _ in $(seq 10); do screen | grep -q 'filter by name' && break; keys NPage; sleep 0.2; done
	wait_for 'sort by CPU%'
	wait_for 'filter by name'
	keys x
	wait_for '^ +PID'
	keys q
}

@test "tmux: resize redraws at once; too small shows a message and recovers" {
	start_ktop
	tmux -L "$S" resize-window -t t -x 30 -y 6
	wait_for 'too small'
	tmux -L "$S" resize-window -t t -x 90 -y 25
	wait_for '^ +PID'
	tmux -L "$S" resize-window -t t -x 160 -y 40
	# the wide layout: the columns 90 cells had no room for
	wait_for 'TIME\+ .*CSW/s .*COMMAND'
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "tmux: H toggles threads and Z pauses" {
	start_ktop
	keys H
	wait_for 'threads'
	keys Z
	wait_for 'PAUSED'
	keys Z
	keys H
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "tmux: d changes the delay; a bad delay is refused with a message" {
	start_ktop
	keys d C-u 1 . 5 Enter
	wait_for 'delay 1.50 s'
	keys d C-u x y z Enter
	wait_for 'is not a number of seconds'
	keys q
}

@test "tmux: Down moves the selection, End and Home jump" {
	start_ktop
	keys N
	keys End
	sleep 0.3
	keys Home
	sleep 0.3
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "tmux: SIGTERM restores the terminal and exits cleanly" {
	start_ktop
	kill -TERM "$(ktop_pid)"
	wait_for 'KTOP-EXIT=0'
}

@test "tmux: 80x24 shows the columns the table needs, and COMMAND a third of the line" {
	tmux -L "$S" resize-window -t t -x 80 -y 24
	start_ktop
	if [ "$(id -u)" = 0 ]; then
		# where the time goes (WAIT%) and TIME+ (htop keeps it) before ktop's SYSC/s
		wait_for 'PID[^ ]* +S +CPU%[^ ]* +WAIT% +RES +TIME\+ +SYSC/s COMMAND'
	else
		wait_for 'PID[^ ]* +USER +NI S +CPU%[^ ]* +MEM% +RES +TIME\+ COMMAND'
	fi
	local pos
	pos=$(screen | grep -E '^ +PID' | sed 's/▽/v/; s/△/^/' | awk '{ print index($0, "COMMAND") }')
	[ $((80 - pos + 1)) -ge 26 ]
	keys q
}

@test "tmux: signal_generate's format unreadable: the header's signal rate is unknown (-), not 0" {
	[ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing/events/signal ] || skip "needs root and tracefs"
	need_program unshare util-linux
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	# As in cli/kernel.bats: an empty directory over events/signal, in a private mount namespace.
	keys "clear; unshare -m --propagation private sh -c 'mount --bind $BATS_TEST_TMPDIR/empty /sys/kernel/tracing/events/signal && $KTOP -d 0.3'; echo KTOP-EXIT=\$?" Enter
	wait_for '^ +PID'
	wait_for '^Evnts +syscalls [0-9.]+[kMG]?/s +failed [0-9.]+[kMG]?/s +signals - '
	keys q
	wait_for 'KTOP-EXIT=0'
}
