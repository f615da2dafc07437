#!/usr/bin/env bats
# ktop -- CMD in the live view (root): the table shows CMD's processes only,
# the footer says what became of CMD, the final numbers stay until q, CMD's
# output is printed once the terminal is restored, Ctrl-C and q while it runs.

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-launch-$$"
INST=/sys/kernel/tracing/instances

setup() {
	[ "$(id -u)" -eq 0 ] || skip "needs root: -- CMD follows CMD's children with kernel events"
	[ -d "$INST" ] || skip "tracefs is not available"
	tmux -L "$S" kill-server 2>/dev/null || true
	tmux -L "$S" new-session -d -s t -x 120 -y 30 "sh"
	tmux -L "$S" set-option -g remain-on-exit on >/dev/null
}

teardown() {
	tmux -L "$S" kill-server 2>/dev/null || true
}

# run_ktop ARGS...: ktop in the pane, its exit status printed after it.
run_ktop() {
	keys "clear; $KTOP -d 0.3 $*; echo KTOP-EXIT=\$?" Enter
	wait_for 'PID[^ ]* +USER'
}

@test "launch: only CMD's processes, 'exited with status 3' kept until q, then its output and status" {
	run_ktop -- sh -c "'echo launch-out-1; sleep 1; echo launch-out-2; exit 3'"
	wait_for '^sh runs, pid [0-9]+'
	# the rows are sh and its sleep: no pid 1, no ktop
	run screen
	[[ "$output" != *" 1 root "* ]]
	wait_for '^sh, pid [0-9]+, exited with status 3; the numbers are final; q quits'
	# it stays: the numbers are final
	sleep 1
	wait_for '^sh, pid [0-9]+, exited with status 3'
	# Its row stays, exited (ktop, its parent, reaped it): X with its command
	# line, not a zombie [sh]; the header counts it exited, not as a zombie
	local pid
	pid=$(screen | sed -n 's/^sh, pid \([0-9]*\), exited.*/\1/p')
	screen | grep -Eq "^ +$pid +root +-?[0-9]+ +X .* sh -c echo launch-out-1"
	screen | grep -Eq ' 0 zombie, .*; 2 exited'
	keys q
	wait_for 'KTOP-EXIT=3'
	run screen
	[[ "$output" == *"ktop: output of sh:"*"launch-out-1"*"launch-out-2"*"KTOP-EXIT=3"* ]]
}

@test "launch: Ctrl-C reaches CMD as in a shell; ktop ends after it (130), instance gone" {
	# ktop's pid, for its instance's name: the shell that prints it becomes ktop
	keys "clear; sh -c 'echo KTOP-PID=\$\$; exec $KTOP -d 0.3 -- sleep 60'; echo KTOP-EXIT=\$?" Enter
	wait_for '^sleep runs'
	keys C-c
	wait_for 'KTOP-EXIT=130'
	run screen
	[[ "$output" != *"PID USER"* ]]
	local kpid
	kpid=$(screen | sed -n 's/^KTOP-PID=\([0-9]*\)$/\1/p')
	[ -n "$kpid" ]
	[ ! -e "$(inst_dir $kpid)" ] && [ ! -e "$(inst_dir $kpid -f)" ]
}

@test "launch: q while CMD runs asks first; q again sends it SIGTERM (143)" {
	run_ktop -- sleep 60
	wait_for '^sleep runs'
	keys q
	wait_for 'sleep still runs: q again sends it SIGTERM'
	keys q
	wait_for 'KTOP-EXIT=143'
}
