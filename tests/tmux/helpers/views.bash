# views.bats's and viewsload.bats's common part: the workloads built, the
# pane, the process view opened.

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-views-$$"
TRACEFS=/sys/kernel/tracing

setup_file() {
	helper_prog evwl
	helper_prog floodwl
}

setup() {
	[ "$(id -u)" = 0 ] && [ -d "$TRACEFS/instances" ] || skip "needs root and tracefs"
	tmux -L "$S" kill-server 2>/dev/null || true
	tmux -L "$S" new-session -d -s t -x 110 -y 34 "sh"
	tmux -L "$S" set-option -g remain-on-exit on >/dev/null
	"$BATS_FILE_TMPDIR/evwl" "$BATS_TEST_TMPDIR/pids" &
	WL=$!
	for _ in $(seq 50); do [ -s "$BATS_TEST_TMPDIR/pids" ] && break; sleep 0.1; done
	read -r P SENDER <"$BATS_TEST_TMPDIR/pids"
}

teardown() {
	tmux -L "$S" kill-server 2>/dev/null || true
	[ -n "${WL:-}" ] && kill "$WL" 2>/dev/null
	[ -n "${SENDER:-}" ] && kill "$SENDER" 2>/dev/null
	[ -n "${WL:-}" ] && wait "$WL" 2>/dev/null
	[ -n "${FL:-}" ] && kill "$FL" 2>/dev/null
	[ -n "${FL:-}" ] && wait "$FL" 2>/dev/null
	return 0
}

# The table, filtered to the workload, lowest pid (the parent) selected; Enter.
open_parent_view() {
	keys "clear; ${OPEN_ENV:-} LANG=C.UTF-8 $KTOP -d 0.3 $*; echo KTOP-EXIT=\$?" Enter
	wait_for 'PID[^ ]* +USER'
	# By its pid file: unique to the test (zombies of earlier runs have no command line).
	keys F4
	tmux -L "$S" send-keys -t t -l "$BATS_TEST_TMPDIR/pids"
	keys Enter
	wait_for "^ +$P "
	keys N
	wait_for 'sort:pid\+'
	keys Home Enter
	wait_for "^Process $P +evwl"
}

# The event list's selected line (the theme's cyan): "ROW TEXT", ROW from 1,
# TEXT without the time (a wall time made from each refresh's clocks: it may
# move by microseconds from one to the next).
selected_event() {
	tmux -L "$S" capture-pane -e -p -t t | grep -n -m1 $'\e\\[46m' |
		sed -E $'s/\e\\[[0-9;]*m//g; s/^([0-9]+):[0-9:.]+ /\\1 /'
}

# The event lines on the screen, without their times.
event_lines() { screen | sed -nE 's/^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]+ //p'; }

seen() { screen | sed -nE 's/^Events of .* kept of ([0-9]+) seen.*/\1/p'; }

# A click of button 1 at screen line $1, column $2 (1-based), SGR encoding (TERM=xterm-256color).
click() {
	tmux -L "$S" send-keys -t t -l "$(printf '\033[<0;%d;%dM\033[<0;%d;%dm' "$2" "$1" "$2" "$1")"
}

# As in cli/security.bats: nobody, CAP_DAC_OVERRIDE standing in for a tracing
# group. Sets dir (a copy of ktop in it), as (runs a command as nobody) and nb
# (nobody's ktop); the caller declares them local and removes dir.
nobody_ktop() {
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	need_program setpriv util-linux
	dir=$(mktemp -d /tmp/ktop-nobody.XXXXXX)
	chmod 755 "$dir"
	cp "$KTOP" "$dir/ktop"
	as="setpriv --reuid=nobody --regid=$(id -gn nobody) --clear-groups"
	nb="$as --inh-caps=+dac_override --ambient-caps=+dac_override $dir/ktop"
}
