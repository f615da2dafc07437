#!/usr/bin/env bats
# Issue 33: the first screen answers "why is it slow" for a top/htop user.
# The real ktop in tmux panes of 80x24, 120x40 and 200x60, and its batch
# output: where the time goes on the table, a selection that is a process,
# htop's keys, numbers that read right, a layout that fits.

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-hu-$$"

# pane W H: a new tmux server whose pane runs a shell, W x H.
pane() {
	tmux -L "$S" kill-server 2>/dev/null || true
	for _ in $(seq 50); do tmux -L "$S" ls >/dev/null 2>&1 || break; sleep 0.1; done
	tmux -L "$S" new-session -d -s t -x "$1" -y "$2" "sh"
	tmux -L "$S" set-option -g remain-on-exit on >/dev/null
}

setup() {
	pane 120 40
	CFG="$BATS_TEST_TMPDIR/cfg"
	mkdir -p "$CFG"
	PIDS=()
}

teardown() {
	tmux -L "$S" kill-server 2>/dev/null || true
	local p
	for p in "${PIDS[@]}"; do
		kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true
	done
}

# bg CMD...: CMD in the background, in a process group of its own (teardown
# ends it); its pid in BG.
bg() {
	setsid "$@" </dev/null >/dev/null 2>&1 3>&- &
	BG=$!
	PIDS+=("$BG")
}

# start ARGS...: ktop in the pane, no settings file, UTF-8.
start() {
	keys "clear; env XDG_CONFIG_HOME='$CFG' LANG=C.UTF-8 $KTOP $*; echo KTOP-EXIT=\$?" Enter
	wait_for '^ +PID|^SYSCALL'
}

quit() {
	keys q
	wait_for 'KTOP-EXIT=0'
}

# The table's column titles (the sort arrow as one byte) and the bottom line.
titles() { screen | grep -E '^ +PID' | head -1 | sed 's/▽/v/; s/△/^/'; }
bottom() { screen | grep -v '^$' | tail -1; }

# lacks RE: stdin has no line matching RE (a plain "! grep" would not fail a test).
lacks() { ! grep -Eq -- "$1"; }

needs_root() { [ "$(id -u)" = 0 ] || skip "counts events: needs root"; }

@test "layout: bottom-bar labels never run together, at 80, 120 and 200 columns" {
	local size line
	for size in "80 24" "120 40" "200 60"; do
		pane $size
		start -d 1
		wait_for 'F10Quit'
		line=$(bottom)
		echo "$size: $line" >&2
		# a label's last letter straight against the next key (F3SearchF4, 6Groups7)
		lacks '[a-z+-](F[0-9]|[1-7][A-Z])' <<<"$line"
		quit
	done
}

@test "layout: help's title fits at 80 and 120 columns, key labels stay apart from their help" {
	local size
	for size in "80 24" "120 40"; do
		pane $size
		start -d 1
		keys '?'
		wait_for '^ktop .*help'
		# the title ends with its closing parenthesis: not cut
		screen | head -1 | grep -Eq '\)$'
		# the menu's "Esc q F6 F10" and its help do not touch
		for _ in $(seq 30); do
			screen | grep -q 'Esc q F6 F10' && break
			keys NPage
			sleep 0.1
		done
		wait_for 'Esc q F6 F10 +leave'
		keys q
		quit
	done
}
