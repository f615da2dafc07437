# Shared by the tmux suites: read the pane of tmux server -L "$S", session t,
# send it keys, wait for what it shows.

screen() { tmux -L "$S" capture-pane -p -t t; }
keys() { tmux -L "$S" send-keys -t t "$@"; }

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

# inst_dir PID [-f]: the tracefs instance of ktop PID (tests/instances.bash).
. "$(dirname "${BASH_SOURCE[0]}")/../../instances.bash"
# need_program, skip_missing, skip_kernel, helper_prog (tests/need.bash).
. "$(dirname "${BASH_SOURCE[0]}")/../../need.bash"
