#!/usr/bin/env bats
# Look and feel in a real terminal (tmux): themes read back with their colours
# (capture-pane -e), NO_COLOR, 8 colours, ASCII, the settings file, the tree,
# the menus, kill and renice of a process started here.

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-lf-$$"

setup() {
	tmux -L "$S" kill-server 2>/dev/null || true
	tmux -L "$S" new-session -d -s t -x 110 -y 30 "sh"
	tmux -L "$S" set-option -g remain-on-exit on >/dev/null
	CFG="$BATS_TEST_TMPDIR/cfg"
	mkdir -p "$CFG"
}

teardown() {
	tmux -L "$S" kill-server 2>/dev/null || true
	[ -n "${SLEEPER:-}" ] && kill "$SLEEPER" 2>/dev/null || true
	[ -n "${TREE:-}" ] && pkill -P "$TREE" 2>/dev/null; [ -n "${TREE:-}" ] && kill "$TREE" 2>/dev/null || true
}

colours() { tmux -L "$S" capture-pane -p -e -t t; }


# ktop with ENV (VAR=value ...) and ARGS; its settings in $CFG.
start() {
	local env=$1
	shift
	keys "clear; env XDG_CONFIG_HOME='$CFG' TERM=xterm-256color LANG=C.UTF-8 $env $KTOP -d 0.3 --no-trace $*; echo KTOP-EXIT=\$?" Enter
	wait_for 'PID[^ ]* +USER'
}

# ktop -p PID: it opens the process view; Esc goes to the table of that process.
start_p() {
	keys "clear; env XDG_CONFIG_HOME='$CFG' TERM=xterm-256color LANG=C.UTF-8 $KTOP -d 0.3 --no-trace -p $1; echo KTOP-EXIT=\$?" Enter
	wait_for "^Process $1 "
	keys Escape
	wait_for 'PID[^ ]* +USER'
	wait_for "^ *$1 "
}

# A background "sleep" has exec'ed (a loaded machine may be slow to).
wait_sleep() {
	for _ in $(seq 150); do
		[ "$(cat "/proc/$1/comm" 2>/dev/null)" = sleep ] && return 0
		sleep 0.1
	done
	return 1
}

quit() {
	keys q
	wait_for 'KTOP-EXIT=0'
}

# Any colour (foreground or background, 8, 16 or 256) on the screen?
any_colour() { colours | grep -E $'\e\\[(3[0-7]|4[0-7]|9[0-7]|10[0-7]|38;5|48;5)(;|m)'; }

# The line of the table's column titles, with its escape sequences.
title_line() { colours | grep -m1 'PID.*USER'; }

@test "theme default: black on green titles, cyan selection" {
	start "" --theme default
	title_line | grep -qF $'\e[30m\e[42m'
	colours | grep -qF $'\e[46m'
	quit
}

@test "theme light: white on blue titles" {
	start "" --theme light
	title_line | grep -qF $'\e[37m\e[44m'
	quit
}

@test "theme high-contrast: black on bright yellow titles, black background" {
	start "" --theme high-contrast
	title_line | grep -qE $'\e\\[30m\e\\[103m'
	colours | grep -qF $'\e[40m'
	quit
}

@test "theme mono: no colour at all, reverse titles" {
	start "" --theme mono
	title_line | grep -qE $'\e\\[([0-9]+;)*7m'
	run any_colour
	[ "$status" -ne 0 ]
	quit
}

@test "NO_COLOR forces mono over --theme, and Z says why it stays" {
	start "NO_COLOR=1" --theme light
	title_line | grep -qE $'\e\\[([0-9]+;)*7m'
	run any_colour
	[ "$status" -ne 0 ]
	keys C	# setup, as in htop: Theme is its second line
	wait_for '^ +Theme '
	keys Down Right
	wait_for 'NO_COLOR is set'
	keys Escape
	quit
}

@test "8-colour terminal (TERM=xterm): colours without 256-colour codes" {
	start "TERM=xterm" --theme default
	title_line | grep -qF $'\e[30m\e[42m'
	sleep 0.7
	run sh -c "tmux -L $S capture-pane -p -e -t t | grep -F $'\e[38;5'"
	[ "$status" -ne 0 ]
	quit
}

@test "setup's Theme cycles the themes live" {
	start "" --theme default
	keys C	# setup, as in htop
	wait_for '^ +Theme '
	keys Down Right
	wait_for 'Theme +high-contrast'
	keys Escape
	wait_for 'PID.*USER'
	sleep 0.5
	title_line | grep -qF $'\e[30m\e[103m'	# high-contrast follows default
	keys C
	wait_for '^ +Theme '
	keys Right
	wait_for 'Theme +light'
	keys Escape
	wait_for 'PID.*USER'
	sleep 0.5
	title_line | grep -qF $'\e[37m\e[44m'	# then light
	quit
}

@test "a theme file with an error: message with file and line, default used" {
	mkdir -p "$CFG/ktop/themes"
	printf 'normal default default\n# fine\nselected black purple\n' >"$CFG/ktop/themes/broken.theme"
	start "" --theme broken
	wait_for 'broken.theme:3: unknown colour .purple.'
	title_line | grep -qF $'\e[30m\e[42m'
	quit
	start "" --theme nosuchtheme
	wait_for "no theme 'nosuchtheme'"
	quit
}

@test "UTF-8 tree lines; ASCII with --ascii and in the C locale" {
	sh -c 'sleep 301 & sleep 301 & wait' &
	TREE=$!
	start "" -s +pid
	keys t
	wait_for 'tree sort:pid\+'
	wait_for '[├└]─ '
	quit
	start "" --ascii -s +pid
	keys t
	wait_for '(\||`)- '
	run sh -c "tmux -L $S capture-pane -p -t t | grep -E '[├└│]'"
	[ "$status" -ne 0 ]
	quit
	start "LANG=C LC_ALL=C" -s +pid
	keys t
	wait_for '(\||`)- '
	quit
}

@test "tree view: children under their parent, fold and unfold" {
	sh -c 'sleep 302 & sleep 302 & wait' &
	TREE=$!
	# No pattern below has "sleep 302" in it: a grep that has would match the
	# filter and could be the first row when pids wrap.
	start "" -s +pid
	keys t F4 s l e e p ' ' 3 0 2 Enter
	wait_for 'filter:sleep 30[2]'
	wait_for "^ *$TREE .*sh -c sleep 30[2]"
	wait_for '├─ sleep 30[2]'
	wait_for '└─ sleep 30[2]'
	keys g -
	wait_for "^ *$TREE .*\+ sh -c sleep 30[2]"
	run sh -c "tmux -L $S capture-pane -p -t t | grep -c '[├└]─ sleep 30[2]'"
	[ "$output" = 0 ] || { screen >&2; false; }
	keys +
	wait_for '└─ sleep 30[2]'
	quit
}

@test "settings: F2 changes theme and tree live, s saves, the next start reads them" {
	start "" -d 0.3
	keys F2
	wait_for 'Setup - Up/Down'
	keys Down Right
	wait_for 'Theme +high-contrast'
	keys Down Down Down ' '
	wait_for 'Tree view +yes'
	keys s
	wait_for "saved to $CFG/ktop/ktoprc"
	grep -qx 'theme = high-contrast' "$CFG/ktop/ktoprc"
	grep -qx 'tree = yes' "$CFG/ktop/ktoprc"
	grep -q '^columns = pid,' "$CFG/ktop/ktoprc"
	keys Escape
	quit
	start ""
	wait_for 'tree sort:'
	title_line | grep -qF $'\e[30m\e[103m'
	quit
}

@test "settings: bad lines give a message and their defaults, ktop still starts" {
	mkdir -p "$CFG/ktop"
	printf 'delay = fast\ntheme = light\ncolumns = pid,bogus\n' >"$CFG/ktop/ktoprc"
	start ""
	wait_for "ktoprc:1: delay 'fast' is not"
	title_line | grep -qF $'\e[37m\e[44m'	# the good line was used
	quit
}

@test "function-key bar and help list every screen's keys" {
	start ""
	wait_for 'F1Help +F2Setup +F3?.*F5Tree +F6SortBy +F7Nice - +F8Nice \+ +F9Kill +F10Quit'
	keys '?'
	wait_for 'Keys of the table view'
	keys G	# End: the last page (the legend and every view's keys before it)
	wait_for 'Keys of the setup view'
	keys x
	wait_for 'PID[^ ]* +USER'
	quit
}

@test "u: a menu of users; picking one filters" {
	start ""
	keys u
	wait_for 'Show the processes of'
	wait_for 'All users'
	keys Down Enter
	wait_for 'user:[0-9]+ '
	quit
}

@test "kill: k asks with a signal menu; Esc sends nothing, Enter sends SIGTERM" {
	sleep 303 &
	SLEEPER=$!
	wait_sleep "$SLEEPER"
	start_p "$SLEEPER"
	keys k
	wait_for "Send a signal to $SLEEPER \(sleep\)\?"
	keys Escape
	sleep 0.4
	kill -0 "$SLEEPER"
	keys k
	wait_for 'SIGTERM +terminate'
	keys Enter
	wait_for "SIGTERM sent to $SLEEPER"
	run wait "$SLEEPER"
	[ "$status" -eq 143 ]
	SLEEPER=
	quit
}

@test "renice: F8 raises the nice value of the selected process" {
	sleep 304 &
	SLEEPER=$!
	wait_sleep "$SLEEPER"
	start_p "$SLEEPER"
	keys F8
	wait_for "$SLEEPER now has nice 1"
	[ "$(awk '{print $19}' /proc/$SLEEPER/stat)" = 1 ]
	quit
}

# A click of button 1 at screen line $1, column $2 (1-based), as xterm sends it
# to ktop with TERM=xterm-256color: press and release, SGR encoding (1006).
click() {
	tmux -L "$S" send-keys -t t -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$2" "$1" "$2" "$1")"
}

@test "mouse: a click on a row selects it, a click on a title sorts by it" {
	start "" -s +pid
	local y pid
	y=$(screen | grep -nE 'PID[^ ]* +USER' | cut -d: -f1)
	pid=$(screen | sed -n "$((y + 3))p" | awk '{print $1}')
	[ "$pid" -le 3 ]
	click $((y + 3)) 10
	sleep 0.5
	keys k
	wait_for "Send a signal to $pid "
	keys Escape
	sleep 1	# not a double click
	click "$y" 10
	wait_for 'sort:user\+'
	quit
}
