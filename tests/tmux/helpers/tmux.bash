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
