#!/usr/bin/env bats
# The settings and theme files as ssh treats its own (src/conffile.c): root with
# HOME or XDG_CONFIG_HOME in a directory somebody else controls writes through
# no symlink, reads no file another user owns or can write, loads themes only
# by name from the theme directories; a FIFO is refused, never waited on.

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-cfg-$$"

setup() {
	shell_pane
	CFG="$BATS_TEST_TMPDIR/cfg"
	mkdir -p "$CFG/ktop"
	chmod 755 "$BATS_TEST_TMPDIR" "$CFG" "$CFG/ktop"
}

teardown() {
	tmux -L "$S" kill-server 2>/dev/null || true
	return 0
}

start() {
	keys "clear; env XDG_CONFIG_HOME='$CFG' LANG=C.UTF-8 $KTOP -d 0.3 --no-trace $*; echo KTOP-EXIT=\$?" Enter
	wait_for 'PID[^ ]* +USER'
}

quit() {
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "saving settings: planted symlinks (ktoprc.tmp, ktoprc) are not followed; ktoprc is a new regular file" {
	echo precious >"$BATS_TEST_TMPDIR/victim"
	echo precious2 >"$BATS_TEST_TMPDIR/victim2"
	ln -s "$BATS_TEST_TMPDIR/victim" "$CFG/ktop/ktoprc.tmp"
	ln -s "$BATS_TEST_TMPDIR/victim2" "$CFG/ktop/ktoprc"
	start
	keys F2
	wait_for 'Setup - Up/Down'
	keys s
	wait_for "saved to $CFG/ktop/ktoprc"
	keys Escape
	quit
	[ "$(cat "$BATS_TEST_TMPDIR/victim")" = precious ]
	[ "$(cat "$BATS_TEST_TMPDIR/victim2")" = precious2 ]
	[ -f "$CFG/ktop/ktoprc" ] && [ ! -L "$CFG/ktop/ktoprc" ]
	grep -q '^columns = ' "$CFG/ktop/ktoprc"
	# No temporary file is left behind.
	[ "$(find "$CFG/ktop" -name 'ktoprc.?*' ! -name ktoprc.tmp | wc -l)" -eq 0 ]
}

@test "a settings directory owned by another user, or writable by others, is refused with the reason; defaults used" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to chown to another user"
	printf 'tree = yes\n' >"$CFG/ktop/ktoprc"
	chown -R nobody "$CFG/ktop"
	start
	wait_for 'owned by uid [0-9]+, not by you or root'
	if screen | grep -q 'tree sort:'; then return 1; fi
	quit
	chown -R root "$CFG/ktop"
	chmod 777 "$CFG/ktop"
	start
	wait_for 'writable by others \(mode 777\)'
	if screen | grep -q 'tree sort:'; then return 1; fi
	quit
	chmod 755 "$CFG/ktop"
	chmod 666 "$CFG/ktop/ktoprc"
	start
	wait_for 'ktoprc is writable by others'
	quit
}

@test "theme = /etc/shadow (a path in ktoprc) is refused; a theme whose name has a control character is never offered" {
	printf 'theme = /etc/shadow\n' >"$CFG/ktop/ktoprc"
	start
	wait_for "theme must be a theme's name, not a path"
	quit
	# A name with a newline would put its second half on a line of its own in ktoprc.
	mkdir -p "$CFG/ktop/themes"
	cp "$BATS_TEST_DIRNAME/../../themes/light.theme" "$CFG/ktop/themes/$(printf 'zz\ntree = yes\nx').theme"
	: >"$CFG/ktop/ktoprc"
	start
	keys F2
	wait_for 'Setup - Up/Down'
	# Every theme once round, then save: no line of ktoprc comes from a file name.
	keys Down Right Right Right Right Right Right Right Right s
	wait_for "saved to $CFG/ktop/ktoprc"
	keys Escape
	quit
	if grep -qx 'tree = yes' "$CFG/ktop/ktoprc"; then return 1; fi
	[ "$(grep -c '^theme = ' "$CFG/ktop/ktoprc")" -le 1 ]
	if grep -q '^x$' "$CFG/ktop/ktoprc"; then return 1; fi
}

@test "ktoprc that is a FIFO: ktop starts at once and says it is not a regular file" {
	mkfifo "$CFG/ktop/ktoprc"
	start
	wait_for 'ktoprc is not a regular file'
	quit
}
