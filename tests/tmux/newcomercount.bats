#!/usr/bin/env bats
# newcomer.bats's tests that count the whole machine or flood it, run alone
# (tests/run.sh): the header's zombies against ps's, a rate of one signal every
# 2.5 s, a /bin/true loop's exited rows. newcomer.bats says what they check.

load helpers/tmux
load helpers/newcomer

@test "header: the zombie count is ps's; exited rows are counted apart, not as zombies" {
	# a zombie that stays: its parent (exec'd into sleep) never reaps it
	bg sh -c 'sleep 0 & exec sleep 300'
	# and processes that keep exiting between refreshes (X rows)
	bg sh -c 'while :; do /bin/true; sleep 0.05; done'
	start -d 0.5
	wait_for '^Tasks .* zombie, [0-9]+ idle; [0-9]+ exited'
	local shown ps_now ok=0 i
	for i in $(seq 60); do
		shown=$(screen | sed -nE 's/^Tasks .* ([0-9]+) zombie,.*/\1/p')
		ps_now=$(ps -eo stat= | grep -c '^Z')
		echo "header $shown zombie, ps $ps_now" >&2
		[ -n "$shown" ] && [ "$shown" -ge 1 ] && [ "$shown" -eq "$ps_now" ] && { ok=1; break; }
		sleep 0.25
	done
	[ "$ok" = 1 ]
	# the exited ones are there, said apart
	wait_for '; [1-9][0-9]* exited'
	quit
}

@test "numbers: a rate of 0.4/s shows 0.4 (one signal every 2.5 s)" {
	[ "$(id -u)" = 0 ] || skip "needs root (signals are counted from events)"
	pane 200 40	# SIG/s is among the first to go at 120 columns
	# a receiver that handles SIGUSR1 (a default-ignored signal is 'ignored') and
	# has no children (a shell's would add their SIGCHLD)
	bg python3 -c 'import signal, sys, time
signal.signal(signal.SIGUSR1, lambda *a: None)
open(sys.argv[1], "w").close()
while True: time.sleep(1000)' "$BATS_TEST_TMPDIR/ready" "nc-rx-$$"
	local rx=$BG
	# the first signal once its handler is set (before, one would kill it)
	for _ in $(seq 100); do [ -e "$BATS_TEST_TMPDIR/ready" ] && break; sleep 0.1; done
	[ -e "$BATS_TEST_TMPDIR/ready" ]
	bg sh -c "while :; do kill -USR1 $rx; sleep 2.5; done"
	start -d 5
	keys F4
	typein "nc-rx-$$"
	keys Enter
	wait_for "^ +$rx "
	local col
	# SIG/s, per second over 5 s: 2 signals = 0.4 (1 or 3 at the edges: 0.2, 0.6)
	for _ in $(seq 150); do
		# right-aligned under its title: the cells that end where "SIG/s" ends
		col=$(row_of "$rx" | awk -v t="$(titles)" '{ e = index(t, "SIG/s") + 4; v = substr($0, e - 6, 7); gsub(/ /, "", v); print v }')
		[[ "$col" =~ ^0\.[246]$ ]] && break
		sleep 0.1
	done
	echo "SIG/s of the receiver: $col" >&2
	[[ "$col" =~ ^0\.[246]$ ]]
	quit
}

@test "exited processes: after the live ones by default, x hides them" {
	bg sh -c 'while :; do /bin/true; done'
	start -d 0.5
	wait_for '; [1-9][0-9]* exited'
	# no live row under an exited (X) one: the live ones first
	local states
	states=$(screen | awk '/^ +PID /{ on = 1; next } on && /^ +[0-9]+ / { print $4 }' | tr -d '\n')
	echo "states top to bottom: $states" >&2
	[[ ! "$states" =~ X[^X] ]]
	# and they are there, at the end
	keys End
	# NI is '-' on a row never read alive (born and gone between two refreshes)
	wait_for '^ +[0-9]+ +root +(-?[0-9]+|-) +X '
	states=$(screen | awk '/^ +PID /{ on = 1; next } on && /^ +[0-9]+ / { print $4 }' | tr -d '\n')
	[[ ! "$states" =~ X[^X] ]]
	keys x
	wait_for 'exited:hidden'
	sleep 1.2
	if screen | grep -qE '^ +[0-9]+ +root +(-?[0-9]+|-) +X '; then return 1; fi
	keys x
	wait_for 'exited:mixed'
	quit
}
