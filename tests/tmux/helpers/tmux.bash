# Shared by the tmux suites: read the pane of tmux server -L "$S", session t,
# send it keys, wait for what it shows.

screen() { tmux -L "$S" capture-pane -p -t t; }
keys() { tmux -L "$S" send-keys -t t "$@"; }

# Type text $1 in two halves: a tmux client's command line never holds it
# whole, so a search or filter for it cannot match that client's row (a tick
# that caught it running lists it, and then as exited).
typein() {
	local h=$((${#1} / 2))
	tmux -L "$S" send-keys -t t -l -- "${1:0:h}"
	tmux -L "$S" send-keys -t t -l -- "${1:h}"
}

# Wait until the screen shows a line matching $1 (grep -E), up to 15 s: long
# enough for a loaded machine, and a pass returns as soon as it shows.
wait_for() {
	for _ in $(seq 150); do
		screen | grep -Eq -- "$1" && return 0
		sleep 0.1
	done
	echo "timed out waiting for: $1" >&2
	screen >&2
	return 1
}

# The pid of the ktop that the pane's shell started: found by its parent, never
# by name alone (other ktops run on this machine). Waits for it, up to 5 s.
ktop_pid() {
	local sh p
	sh=$(tmux -L "$S" display -p -t t '#{pane_pid}')
	for _ in $(seq 50); do
		p=$(pgrep -P "$sh" -x ktop) && [ -n "$p" ] && { echo "$p"; return 0; }
		sleep 0.1
	done
	echo "no ktop child of the pane's shell $sh" >&2
	return 1
}

# A new tmux server -L "$S" whose pane runs a shell, 100x30: what ktop leaves on
# the terminal after it ends shows there.
shell_pane() {
	tmux -L "$S" kill-server 2>/dev/null || true
	tmux -L "$S" new-session -d -s t -x 100 -y 30 "sh"
	tmux -L "$S" set-option -g remain-on-exit on >/dev/null
}

# pane W H: a new tmux server -L "$S" whose pane runs a shell, W x H.
pane() {
	tmux -L "$S" kill-server 2>/dev/null || true
	# the old server gone first: a new one on its socket could meet its exit
	for _ in $(seq 50); do tmux -L "$S" ls >/dev/null 2>&1 || break; sleep 0.1; done
	tmux -L "$S" new-session -d -s t -x "$1" -y "$2" "sh"
	tmux -L "$S" set-option -g remain-on-exit on >/dev/null
}

# A test's start: a 120x40 pane, an empty settings directory $CFG, no
# background process yet (bg, bg_end).
pane_setup() {
	pane 120 40
	CFG="$BATS_TEST_TMPDIR/cfg"
	mkdir -p "$CFG"
	PIDS=()
}

# bg CMD...: CMD in the background, in a process group of its own; its pid in
# PIDS (bg_end ends the group) and in BG.
bg() {
	setsid "$@" </dev/null >/dev/null 2>&1 3>&- &
	BG=$!
	PIDS+=("$BG")
}

# The tmux server and what bg started (each with setsid: its group is all it
# started, a chain of shells too).
bg_end() {
	tmux -L "$S" kill-server 2>/dev/null || true
	local p
	for p in "${PIDS[@]}"; do
		kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true
	done
}

# The table's column titles line, and the row of pid $1 (its first match).
# (the sort arrow as one byte: positions are then cells)
titles() { screen | grep -E '^ +PID' | head -1 | sed 's/▽/v/; s/△/^/'; }
row_of() { screen | grep -E "^ +$1 " | head -1; }

# inst_dir PID [-f]: the tracefs instance of ktop PID (tests/instances.bash).
. "$(dirname "${BASH_SOURCE[0]}")/../../instances.bash"
# need_program, skip_missing, skip_kernel, helper_prog (tests/need.bash).
. "$(dirname "${BASH_SOURCE[0]}")/../../need.bash"
