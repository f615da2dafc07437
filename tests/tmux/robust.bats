#!/usr/bin/env bats
# Terminal robustness: tiny and huge terminals, resize storms, terminals without
# cursor addressing, colours or UTF-8, names made of escape sequences, and every
# way a live ktop can end (signals, a crash, the terminal going away): the
# terminal is restored and the tracefs instance removed.

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-robust-$$"
INST=/sys/kernel/tracing/instances

setup() {
	shell_pane
}

teardown() {
	tmux -L "$S" kill-server 2>/dev/null || true
	[ -n "${NAMED:-}" ] && kill "$NAMED" 2>/dev/null
	# a crash leaves its instance (stopped) for the next ktop: the test removes it
	[ -n "${KP:-}" ] && rmdir "$(inst_dir $KP)" 2>/dev/null
	return 0
}

# exited PID: no such process, or a zombie.
exited() {
	local line
	line=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	line=${line##*) }
	[ "${line%% *}" = Z ]
}

resize() { tmux -L "$S" resize-window -t t -x "$1" -y "$2"; }

start_ktop() {
	keys "clear; $KTOP -d 0.3 $*; echo KTOP-EXIT=\$?" Enter
	wait_for 'PID[^ ]* +USER'
}

# The shell is usable again and the terminal is as ktop found it: canonical
# mode and echo on, the main screen (not the alternate one), cursor visible.
assert_restored() {
	keys "clear; stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icanon|echo)' | tr '\\n' ' '; echo STTY" Enter
	wait_for '^icanon echo STTY'
	[ "$(tmux -L "$S" display -p -t t '#{alternate_on}')" = 0 ]
	[ "$(tmux -L "$S" display -p -t t '#{cursor_flag}')" = 1 ]
}

@test "tmux: 20x5: says the terminal is too small; grown to 100x30 it shows the table" {
	resize 20 5
	keys "clear; $KTOP -d 0.3; echo KTOP-EXIT=\$?" Enter
	# word-wrapped over the 5 lines
	wait_for '^terminal 20x5 is too$'
	wait_for '^small: ktop needs$'
	resize 100 30
	wait_for 'PID[^ ]* +USER'
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "tmux: 300x100: the whole table, a row per line down to the footer" {
	resize 300 100
	start_ktop
	wait_for 'PID[^ ]* +USER.* COMMAND'
	wait_for '^F1Help'
	# rows of processes fill what the header leaves (this machine has > 100)
	[ "$(screen | grep -cE '^ +[0-9]+ [a-z+]')" -ge 60 ]
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "tmux: 40 resizes within 2 s: ktop keeps up, draws the last size, quits normally" {
	start_ktop
	local i
	for ((i = 0; i < 20; i++)); do
		resize $((30 + i * 7)) $((8 + i))
		resize 100 30
		sleep 0.05
	done
	resize 120 40
	wait_for 'PID[^ ]* +USER'
	# The footer comes to the last line of the new size once ktop has read the
	# last SIGWINCH (on a loaded machine that can take a moment; until then
	# tmux shows its own reflow of the previous frame).
	for ((i = 0; i < 50; i++)); do
		[ "$(screen | sed -n 40p | grep -c 'Help')" -eq 1 ] && break
		sleep 0.1
	done
	[ "$(screen | sed -n 40p | grep -c 'Help')" -eq 1 ] || { screen >&2; return 1; }
	keys q
	wait_for 'KTOP-EXIT=0'
	assert_restored
}

@test "tmux: TERM=dumb: one clear line and exit 1, the terminal as it was" {
	keys "clear; TERM=dumb $KTOP; echo KTOP-EXIT=\$?" Enter
	wait_for 'KTOP-EXIT=1'
	wait_for '^ktop: TERM=dumb cannot move the cursor'
	assert_restored
}

# colours_on_screen: the SGR colour codes on the screen (foreground, background,
# 256 and bright colours; the default-colour resets 39/49 are not colours).
colours_on_screen() {
	tmux -L "$S" capture-pane -e -p -t t | grep -oE $'\e\\[[0-9;]*m' |
		grep -cE '[[;](3[0-7]|4[0-7]|9[0-7]|10[0-7]|38;5;[0-9]+|48;5;[0-9]+)[;m]' || true
}

@test "tmux: NO_COLOR, TERM=vt100 and LC_ALL=C: no colour, ASCII only; the default has colours" {
	start_ktop
	wait_for '^ktop [0-9:]+ +up'
	sleep 0.5
	[ "$(colours_on_screen)" -gt 0 ] || { echo "the default shows no colour: the check is blind" >&2; return 1; }
	keys q
	wait_for 'KTOP-EXIT=0'
	keys "clear; NO_COLOR=1 $KTOP -d 0.3; echo KTOP-EXIT=\$?" Enter
	wait_for 'PID[^ ]* +USER'
	sleep 0.5
	[ "$(colours_on_screen)" -eq 0 ]
	keys q
	wait_for 'KTOP-EXIT=0'
	keys "clear; TERM=vt100 LC_ALL=C $KTOP -d 0.3; echo KTOP-EXIT=\$?" Enter
	wait_for 'PID[^ ]* +USER'
	wait_for '^Mem\[\|*'
	sleep 0.5
	[ "$(colours_on_screen)" -eq 0 ]
	if screen | LC_ALL=C grep -q $'[\x80-\xff]'; then return 1; fi
	keys q
	wait_for 'KTOP-EXIT=0'
	assert_restored
}

@test "tmux: a name of escape sequences never reaches the terminal (table and process view)" {
	python3 -c 'import ctypes, time; ctypes.CDLL(None).prctl(15, b"\x1b]2;pwned\x07\x1b[2J", 0, 0, 0); time.sleep(60)' </dev/null >/dev/null 2>&1 &
	NAMED=$!
	sleep 0.3
	local title
	title=$(tmux -L "$S" display -p -t t '#{pane_title}')
	start_ktop
	keys F4 ctypes Enter	# its command line; then COMMAND shows the name (comm)
	keys c
	wait_for "^ +$NAMED .*\\?\\]2;pwned\\?\\?\\[2"
	[ "$(tmux -L "$S" display -p -t t '#{pane_title}')" = "$title" ]
	# the process view of it: its name in the title line, never raw
	keys Enter
	wait_for "^Process $NAMED "
	sleep 0.6
	[ "$(tmux -L "$S" display -p -t t '#{pane_title}')" = "$title" ]
	if tmux -L "$S" capture-pane -e -p -t t | grep -q pwned$'\a'; then return 1; fi
	keys q q
	wait_for 'KTOP-EXIT=0'
}

# end_by SIG: a live ktop gets SIG, exits 0 within a second, the terminal is
# restored and (root) its instance is gone.
end_by() {
	start_ktop
	KP=$(ktop_pid)
	local t0=${EPOCHREALTIME/./}
	kill "-$1" "$KP"
	wait_for 'KTOP-EXIT=0'
	(( ${EPOCHREALTIME/./} - t0 < 1500000 )) || { echo "SIG$1: ktop took more than 1.5 s" >&2; return 1; }
	[ ! -e "$(inst_dir $KP)" ] || { echo "SIG$1: instance ktop-$KP left" >&2; return 1; }
	assert_restored
}

@test "tmux: SIGINT, SIGTERM, SIGHUP, SIGQUIT: terminal restored, instance removed, exit 0" {
	local sig
	for sig in INT TERM HUP QUIT; do
		end_by "$sig"
	done
}

@test "tmux: SIGSEGV and SIGABRT: the terminal is restored before ktop dies of the signal" {
	local sig st
	for sig in SEGV ABRT; do
		start_ktop
		KP=$(ktop_pid)
		kill "-$sig" "$KP"
		st=$(( 128 + $(kill -l "$sig") ))
		wait_for "KTOP-EXIT=$st"
		assert_restored
		# tracing stopped; the instance stays for the next ktop (see trace.bats)
		# (another ktop on this machine may be removing it already)
		[ "$(cat "$(inst_dir $KP)/tracing_on" 2>/dev/null)" != 1 ]
		rmdir "$(inst_dir $KP)" 2>/dev/null || true
	done
}

@test "tmux: the terminal goes away (SSH disconnect: SIGHUP, no tty): ktop is gone within a second, instance removed" {
	start_ktop
	KP=$(ktop_pid)
	local t0=${EPOCHREALTIME/./} i
	tmux -L "$S" kill-server
	# exited: gone, or a zombie that init has not reaped yet (its shell died too)
	for ((i = 0; i < 20; i++)); do
		exited "$KP" && break
		sleep 0.05
	done
	exited "$KP" || { echo "ktop $KP still runs 1 s after the hangup" >&2; return 1; }
	echo "gone after $(( (${EPOCHREALTIME/./} - t0) / 1000 )) ms" >&2
	[ ! -e "$(inst_dir $KP)" ]
}

@test "tmux: strace of a live session (filter typed as a shell command, every view): nothing executed, nothing written beyond the instance and the terminal" {
	need_program strace
	local log="$BATS_TEST_TMPDIR/st.log"
	keys "clear; strace -f -y -qq -o $log -e trace=%file,%process,unshare,write,pwrite64,writev,pwritev,pwritev2 $KTOP -d 0.3; echo KTOP-EXIT=\$?" Enter
	wait_for 'PID[^ ]* +USER'
	keys F4 '$(touch /tmp/ktop-pwned)' Enter
	sleep 0.5
	keys Escape
	keys / '$(touch /tmp/ktop-pwned)' Enter
	sleep 0.5
	keys F6
	sleep 0.3
	keys Escape
	keys '?'
	wait_for 'Keys of the table view'
	keys q
	# the process view: the focus instance (ktop-PID-f) starts and stops
	keys Enter
	wait_for '^Process [0-9]+ '
	sleep 1
	keys Left
	keys H
	sleep 0.5
	keys H c d C-u 1 Enter
	sleep 0.5
	keys q
	wait_for 'KTOP-EXIT=0'
	[ ! -e /tmp/ktop-pwned ]
	python3 "$BATS_TEST_DIRNAME/../cli/helpers/ktopcheck.py" strace-sandbox "$log" /dev/null
}
