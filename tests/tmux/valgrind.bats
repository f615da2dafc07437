#!/usr/bin/env bats
# The live view under valgrind memcheck, in a real terminal (tmux): the table,
# the tree, help, the process view and its event list, then q. No error, and no
# leak definitely or possibly lost outside what tests/valgrind.supp explains
# (ncurses' own caches). tests/cli/valgrind.bats does the batch modes.

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-vg-$$"

setup() {
	need_program valgrind
	SUPP="$BATS_TEST_DIRNAME/../valgrind.supp"
	LOG="$BATS_TEST_TMPDIR/vg.log"
	shell_pane
}

teardown() {
	tmux -L "$S" kill-server 2>/dev/null || true
	return 0
}

@test "valgrind: the live view (table, tree, help, process view, events): no error, nothing possibly lost" {
	keys "clear; valgrind --error-exitcode=99 --suppressions=$SUPP --leak-check=full \
--show-leak-kinds=definite,possible --errors-for-leak-kinds=definite,possible \
--log-file=$LOG $KTOP -d 0.3; echo KTOP-EXIT=\$?" Enter
	wait_for 'PID[^ ]* +USER'
	keys t
	wait_for 'PID[^ ]* +USER'
	keys t '?'
	wait_for '[Kk]eys|[Hh]elp'
	keys Escape
	wait_for 'PID[^ ]* +USER'
	keys Enter
	sleep 2
	keys e
	sleep 2
	keys q q q
	wait_for 'KTOP-EXIT='
	cat "$LOG" >&2
	screen | grep -q 'KTOP-EXIT=0'
	grep -q 'ERROR SUMMARY: 0 errors' "$LOG"
	if grep -q 'possibly lost in loss record' "$LOG"; then return 1; fi
}
