#!/usr/bin/env bats
# Terminal tests of the system-wide views: the real ktop in a tmux pane, on
# helpers/evwl.c (an openat of a missing file failing with ENOENT, getppid,
# nanosleep; SIGUSR1 from its child "evwl-sender" every 300 ms). Each view ->
# Enter -> the processes behind the row (-> a process view) -> back; the view
# keys (1-9, v, F3) switch; without tracing a view says why it is empty.

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-sysviews-$$"
TRACEFS=/sys/kernel/tracing

setup_file() {
	helper_prog evwl
}

setup() {
	tmux -L "$S" kill-server 2>/dev/null || true
	tmux -L "$S" new-session -d -s t -x 130 -y 40 "sh"
	tmux -L "$S" set-option -g remain-on-exit on >/dev/null
	# The settings of the user running the tests are not these tests' settings.
	export XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/config"
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
	return 0
}

need_tracing() {
	[ "$(id -u)" = 0 ] && [ -d "$TRACEFS/instances" ] || skip "needs root and tracefs"
}

# start [ARGS...]: ktop in the pane; the process table (or FIRST, set before) first.
start() {
	keys "clear; XDG_CONFIG_HOME=$XDG_CONFIG_HOME LANG=C.UTF-8 $KTOP -d 0.4 $*; echo KTOP-EXIT=\$?" Enter
	wait_for "${FIRST:-PID[^ ]* +USER}"
}

# filter TEXT: the view's filter (the rows of a busy machine are many).
filter() {
	keys /
	tmux -L "$S" send-keys -t t -l "$1"
	keys Enter
	wait_for "filter:$1 "
}

# select_row HEADER ROW: (paused: the rows stay) the first row matching ROW
# (grep -E) under the column titles matching HEADER, selected from the top.
select_row() {
	local s h r i
	s=$(screen)
	h=$(grep -nE -- "$1" <<<"$s" | head -1 | cut -d: -f1)
	r=$(grep -nE -- "$2" <<<"$s" | head -1 | cut -d: -f1)
	if [ -z "$h" ] || [ -z "$r" ] || [ "$r" -le "$h" ]; then
		echo "no row '$2' under '$1'" >&2
		echo "$s" >&2
		return 1
	fi
	keys Home
	for ((i = h + 1; i < r; i++)); do
		keys Down
	done
}

pause() {
	keys Z
	wait_for 'PAUSED'
}

resume() {
	keys Z
	for _ in $(seq 50); do
		screen | grep -q PAUSED || return 0
		sleep 0.1
	done
	return 1
}

@test "sysviews: each view, Enter to the processes behind a row, and back" {
	need_tracing
	start
	# Syscalls -> the processes making getppid -> evwl's process view -> back, back
	keys 2
	wait_for '^SYSCALL +CALLS/s +ERR/s +SHARE%'
	filter getppid
	wait_for '^getppid +[0-9.k]+ +0 '
	select_row '^SYSCALL +CALLS/s' '^getppid '
	keys Enter
	wait_for '^Processes making getppid'
	filter evwl
	wait_for "^ +$P .* evwl *\$"
	select_row '^ +PID[^ ]* +USER' "^ +$P "
	keys Enter
	wait_for "^Process $P +evwl"
	keys Escape
	wait_for '^Processes making getppid'
	keys Left
	wait_for '^SYSCALL +CALLS/s'
	wait_for ' 2 Syscalls '

	# Errors: openat ENOENT -> its processes, evwl among them -> back
	keys 3
	wait_for '^SYSCALL +ERRNO +ERR/s'
	filter openat
	wait_for '^openat +ENOENT '
	pause
	select_row '^SYSCALL +ERRNO' '^openat +ENOENT '
	keys Enter
	wait_for '^Processes whose openat failed with ENOENT'
	filter evwl
	wait_for "^ +$P .* evwl *\$"
	keys Left
	wait_for '^SYSCALL +ERRNO +ERR/s'
	resume

	# Subsystems -> Process Mgmt.'s syscalls -> getppid's processes -> back, back
	keys 4
	wait_for '^SUBSYSTEM +CALLS/s +ERR/s'
	wait_for '^Process Mgmt\. '
	pause
	select_row '^SUBSYSTEM +CALLS/s' '^Process Mgmt\. '
	keys Enter
	wait_for '^Syscalls of Process Mgmt\.'
	wait_for '^getppid '
	[ -z "$(screen | sed -n '/^SYSCALL /,$p' | grep -E '^(openat|nanosleep|kill) ')" ]
	select_row '^SYSCALL +CALLS/s' '^getppid '
	keys Enter
	wait_for '^Processes making getppid'
	keys Left
	wait_for '^Syscalls of Process Mgmt\.'
	keys Left
	wait_for '^SUBSYSTEM +CALLS/s'
	resume

	# Signals: the sender -> receiver flow -> the receiver's process view -> back
	keys 5
	wait_for '^ +FROM SENDER +TO RECEIVER +SIGNAL +RESULT'
	filter evwl
	wait_for "^ +$SENDER evwl-sender +$P evwl +SIGUSR1 +delivered +[0-9.]+ +[0-9]+"
	select_row '^ +FROM SENDER' "^ +$SENDER evwl-sender +$P evwl +SIGUSR1"
	keys Enter
	wait_for "^Process $P +evwl"
	keys Escape
	wait_for '^ +FROM SENDER +TO RECEIVER'
	# per command (b): the same flow, one row per (sender, receiver) name
	keys b
	wait_for 'per command \(b: per process\)'
	# one row for every evwl-sender -> evwl (this test's and earlier ones': '-', several)
	wait_for "^ +($SENDER|-) evwl-sender +($P|-) evwl +SIGUSR1 +delivered +[0-9.]+ +[0-9]+"
	[ "$(screen | grep -cE ' evwl-sender +([0-9]+|-) evwl +SIGUSR1 +delivered ')" -eq 1 ]
	keys b
	wait_for 'per process \(b: per command\)'

	# Groups by command: evwl's -> its processes; then by user
	keys 6
	wait_for '^COMM +PROCS +CPU%'
	filter evwl
	wait_for '^evwl +1 '
	select_row '^COMM +PROCS' '^evwl '
	keys Enter
	wait_for '^Processes of comm evwl'
	wait_for "^ +$P .* evwl *\$"
	keys Left
	wait_for '^COMM +PROCS'
	keys Escape
	wait_for 'sort:cpu_pct-'
	keys b
	wait_for 'Group by'
	keys Down Enter
	wait_for '^USER +PROCS +CPU%'
	wait_for 'by user'
	filter root
	wait_for '^root +[0-9]+ '
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "sysviews: Latency (7, --latency): a syscall's time and percentiles, Enter to its processes with theirs; without --latency it says why" {
	need_tracing
	start --latency
	keys 7
	wait_for '^SYSCALL +TIME/s +CALLS/s +AVG +P50 +P90 +P99 +MAX +PROCS'
	wait_for ' 7 Latency'
	filter nanosleep
	# evwl and its sender sleep (100 and 300 ms): a row with the time and
	# percentiles, durations scaled, percentiles marked as bounds; evwl's own
	# p50 is in the bucket of 100 ms, (65536, 131072] us, whose bound is
	# above its longest sleep: that sleep, about 100 ms, then
	d='[0-9.]+(us|ms|s)'
	wait_for "^nanosleep +$d +[0-9.k]+ +$d +≤$d +≤$d +≤$d +$d +[0-9]+ "
	pause
	select_row '^SYSCALL +TIME/s' '^nanosleep '
	keys Enter
	wait_for '^Processes timed in nanosleep'
	wait_for 'TIME/s +P50 +P99 +MAX'
	filter evwl
	wait_for "^ +$P .* $d +≤1[0-3][0-9]ms +≤$d +$d +evwl *\$"
	keys Left
	wait_for '^SYSCALL +TIME/s +CALLS/s'
	resume
	keys q
	wait_for 'KTOP-EXIT=0'
	keys "clear" Enter
	start
	keys 7
	wait_for 'system calls are not timed: start ktop with --latency'
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "sysviews: Connections (8): a TCP pair with addresses, state and bytes; Enter opens the owner's process view, which lists it" {
	need_tracing
	[ -d "$TRACEFS/events/sock/sock_send_length" ] || skip "no sock:sock_send_length (Linux before 6.3)"
	start
	# a connection on 127.0.0.1: 1000 bytes every 50 ms, begun after ktop
	python3 -c '
import os, socket, sys, time
l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(1)
port = l.getsockname()[1]
if os.fork() == 0:
    c = socket.socket(); c.connect(("127.0.0.1", port))
    open(sys.argv[1] + ".tmp", "w").write("%d %d\n" % (os.getpid(), port))
    os.rename(sys.argv[1] + ".tmp", sys.argv[1])
    for i in range(600):
        c.sendall(b"x" * 1000); time.sleep(0.05)
    os._exit(0)
s, _ = l.accept()
while s.recv(65536): pass
' "$BATS_TEST_TMPDIR/conn" &
	CONNWL=$!
	for _ in $(seq 50); do [ -s "$BATS_TEST_TMPDIR/conn" ] && break; sleep 0.1; done
	read -r CPID PORT <"$BATS_TEST_TMPDIR/conn"
	keys 8
	wait_for '^ +PID COMMAND +PROTO +LOCAL +REMOTE +STATE +BYTES/s +TX/s +RX/s'
	wait_for "^ +$CPID python3 +tcp +127\.0\.0\.1:[0-9]+ +127\.0\.0\.1:$PORT +ESTABLISHED +[0-9.]+K "
	# its two rows (the client's, the server's: either may be first in a tick)
	filter "$PORT"
	wait_for "^ +$CONNWL python3 +tcp +127\\.0\\.0\\.1:$PORT +127\\.0\\.0\\.1:[0-9]+ +ESTABLISHED "
	keys Home Enter
	wait_for "^Process ($CPID|$CONNWL) +python3"
	wait_for '^Connections \(1 socket this interval\)'
	wait_for "^ tcp +127\\.0\\.0\\.1:[0-9]+ +-> 127\\.0\\.0\\.1:[0-9]+ +ESTABLISHED +TX/s"
	screen | grep -E "^ tcp +127\\.0\\.0\\.1:$PORT +->|-> 127\\.0\\.0\\.1:$PORT "
	keys Escape
	wait_for '^ +PID COMMAND +PROTO +LOCAL'
	keys q
	wait_for 'KTOP-EXIT=0'
	kill "$CONNWL" 2>/dev/null
	pkill -P "$CONNWL" 2>/dev/null || true
	wait "$CONNWL" 2>/dev/null || true
}

@test "sysviews: v cycles the views, V (F3 in them) is a menu, 1-9 pick one; the bar and help list them" {
	need_tracing
	start
	# the table's F3 is htop's search; a system view's F3 is the views menu
	wait_for 'F3Search'
	keys v
	wait_for 'F3Views'
	keys 1
	wait_for 'F3Search'
	keys v
	wait_for '^SYSCALL +CALLS/s'
	keys v
	wait_for '^SYSCALL +ERRNO'
	keys v
	wait_for '^SUBSYSTEM +CALLS/s'
	keys v
	wait_for '^ +FROM SENDER'
	keys v
	wait_for '^COMM +PROCS'
	keys v
	wait_for '^SYSCALL +TIME/s +CALLS/s +AVG +P50'
	keys v
	wait_for '^ +PID COMMAND +PROTO +LOCAL +REMOTE +STATE'
	keys v
	wait_for '^DEVICE +RD/s +WR/s'
	keys v
	wait_for 'PID[^ ]* +USER'
	keys 9
	wait_for '^DEVICE +RD/s +WR/s'
	keys 8
	wait_for '^ +PID COMMAND +PROTO +LOCAL +REMOTE +STATE'
	keys 1
	wait_for 'PID[^ ]* +USER'
	keys V
	wait_for '^Views \(Enter: show, Esc: cancel\)'
	wait_for '5 Signals +who signals whom'
	keys Down Down Down Down Enter
	wait_for '^ +FROM SENDER'
	keys '?'
	wait_for 'Keys of the signals view'
	wait_for '1 +the Processes view'
	keys x
	wait_for '^ +FROM SENDER'
	# a filter, and its status on the bottom line
	keys /
	tmux -L "$S" send-keys -t t -l 'evwl'
	keys Enter
	wait_for 'filter:evwl sort:count-'
	keys Escape
	wait_for 'sort:count-'
	keys 1
	wait_for 'PID[^ ]* +USER'
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "sysviews: the view and the groups' key are settings; --view picks the first" {
	need_tracing
	FIRST='^SYSCALL +ERRNO' start --view errors
	keys 6
	wait_for '^COMM +PROCS'
	keys b
	wait_for 'Group by'
	keys Down Down Down Enter
	wait_for '^UNIT +PROCS'
	keys 1
	wait_for 'PID[^ ]* +USER'
	keys F2
	wait_for '^Setup'
	wait_for 'Groups by +unit'
	keys Down Down Down Down Down Down Down Down Right
	wait_for 'View +Syscalls'
	keys s
	wait_for 'saved to'
	keys Escape
	wait_for '^SYSCALL +CALLS/s'
	grep -qx 'view = syscalls' "$XDG_CONFIG_HOME/ktop/ktoprc"
	grep -qx 'group_by = unit' "$XDG_CONFIG_HOME/ktop/ktoprc"
	keys q
	wait_for 'KTOP-EXIT=0'
	start_view_again
}

start_view_again() {
	keys "clear; XDG_CONFIG_HOME=$XDG_CONFIG_HOME $KTOP -d 0.4; echo KTOP-EXIT=\$?" Enter
	wait_for '^SYSCALL +CALLS/s'
	keys 6
	wait_for '^UNIT +PROCS'
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "sysviews: without tracing a view says why it is empty; groups still sum /proc" {
	start --no-trace
	keys 2
	wait_for 'The Syscalls view counts kernel events: '
	keys 5
	wait_for 'The Signals view counts kernel events: '
	keys 6
	filter evwl
	wait_for '^evwl +1 '
	keys q
	wait_for 'KTOP-EXIT=0'
}
