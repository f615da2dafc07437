#!/usr/bin/env bats
# Terminal tests of the process view's calls in progress and thread table, on
# helpers/thrwl.c: a process of five threads in known states (one spinning,
# one in an hour's nanosleep, one waiting in vfork for a child that sleeps,
# one reading a pipe the main thread writes to every 2 s). Its reads time
# themselves (the truth the view's durations are checked against).

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-inprog-$$"
TRACEFS=/sys/kernel/tracing

setup_file() {
	helper_prog thrwl
}

setup() {
	[ "$(id -u)" = 0 ] && [ -d "$TRACEFS/instances" ] || skip "needs root and tracefs"
	tmux -L "$S" kill-server 2>/dev/null || true
	tmux -L "$S" new-session -d -s t -x 120 -y 44 "sh"
	tmux -L "$S" set-option -g remain-on-exit on >/dev/null
}

teardown() {
	tmux -L "$S" kill-server 2>/dev/null || true
	[ -n "${WL:-}" ] && kill "$WL" 2>/dev/null
	[ -n "${WL:-}" ] && wait "$WL" 2>/dev/null
	return 0
}

# ktop first, then the workload: its threads' states are known from their
# first wakeup (a thread asleep since before ktop began has none to tell it).
# Then its process view, found by its pid file in the command line.
open_view() {
	keys "clear; LANG=C.UTF-8 $KTOP -d 0.3; echo KTOP-EXIT=\$?" Enter
	wait_for 'PID[^ ]* +USER'
	"$BATS_FILE_TMPDIR/thrwl" "$BATS_TEST_TMPDIR/pids" "$BATS_TEST_TMPDIR/reads" &
	WL=$!
	for _ in $(seq 50); do [ -s "$BATS_TEST_TMPDIR/pids" ] && break; sleep 0.1; done
	read -r P BUSY SLEEP VFORK READER FD <"$BATS_TEST_TMPDIR/pids"
	keys F4
	tmux -L "$S" send-keys -t t -l "$BATS_TEST_TMPDIR/pids"
	keys Enter
	wait_for "^ +$P "
	keys Enter
	wait_for "^Process $P +thrwl"
}

@test "inprog: calls in progress for an interval or more, with their fd and age; then one ~2 s call" {
	open_view
	# Begun before the view opened (read from /proc/TID/syscall): their age is a lower bound.
	wait_for "^in progress: nanosleep for more than [0-9.]+ s +\(thread $SLEEP wl-sleep\)"
	wait_for "^in progress: vfork for more than [0-9.]+ s +\(thread $VFORK wl-vfork\)"
	# A read begun while the view is open: exact, its descriptor and what it is.
	re="^in progress: read on fd $FD \(pipe:\[[0-9]+\]\) for ([0-9.]+) s +\(thread $READER wl-reader\)"
	wait_for "$re"
	# It ages as it goes on (one interval at least, at most the 2 s it blocks).
	age1=$(screen | sed -nE "s/$re.*/\1/p")
	for _ in $(seq 50); do
		age2=$(screen | sed -nE "s/$re.*/\1/p")
		[ -n "$age2" ] && awk -v a="$age1" -v b="$age2" 'BEGIN { exit !(b > a) }' && break
		sleep 0.1
	done
	echo "ages $age1 then $age2" >&3
	awk -v a="$age1" -v b="$age2" 'BEGIN { exit !(a >= 0.3 && b > a && b <= 2.1) }'
	# A spinning thread is in no call: never listed.
	if screen | grep -q "thread $BUSY "; then return 1; fi

	# When it ends, it is one call of about 2 s: as long as the reader's own clock says.
	keys e
	wait_for "^Events of $P thrwl"
	keys / r e a d Enter
	dre="read\($FD, 0x[0-9a-f]+, 1\) = 1 <([0-9.]+) s>"
	wait_for "$dre"
	d=$(screen | sed -nE "s/.*$dre.*/\1/p" | tail -1)
	echo "ktop: read of $d s; the reader's own: $(tail -3 "$BATS_TEST_TMPDIR/reads" | tr '\n' ' ')" >&3
	awk -v d="$d" 'BEGIN { exit !(d >= 1.95 && d < 2.5) }'
	# Within 20 ms of one the reader timed itself (clock_gettime around the call).
	awk -v d="$d" '$1 == "read" && ($3 / 1e9 - d < 0.02 && d - $3 / 1e9 < 0.02) { ok = 1 }
		END { exit !ok }' "$BATS_TEST_TMPDIR/reads"
	keys q
}

# The thread table's row of TID: its CPU% RUNQ% SLEEP% BLOCK%, and its history.
row() { screen | awk -v t="$1" '$1 == t && NF >= 6 { print $3, $4, $5, $6, $NF; exit }'; }

@test "inprog: the thread table splits each thread's time by state, with its history" {
	open_view
	wait_for "^ +TID THREAD +CPU% RUNQ% SLEEP% BLOCK%"
	# A few ticks of history, then every number from one screen.
	wait_for "^ +$VFORK wl-vfork +0 +0 +0 +100 +DDDD"
	wait_for "^ +$SLEEP wl-sleep +0 +0 +100 +0 +SSSS"
	wait_for "^ +$READER wl-reader +0 +0 +(99|100) +0 +SSSS"
	wait_for "^ +$BUSY wl-busy +[0-9]+ +[0-9]+ +0 +0 +[RQ]{4}"
	# The spinning one is on a CPU or waiting for one all the time.
	for _ in $(seq 50); do
		read -r c q s b h <<<"$(row "$BUSY")"
		[ $((c + q)) -ge 98 ] && [ $((c + q)) -le 101 ] && break
		sleep 0.1
	done
	echo "busy: cpu $c runq $q sleep $s blocked $b" >&3
	[ $((c + q)) -ge 98 ] && [ $((c + q)) -le 101 ]
	# The threads add up to the process's own split (its row's), each rounded.
	for _ in $(seq 30); do
		scr=$(screen)
		tc=$(awk '$1 ~ /^[0-9]+$/ && NF >= 7 && $5 ~ /^[0-9]+$/ { c += $3; q += $4; s += $5; b += $6 }
			END { print c, q, s, b }' <<<"$scr")
		pc=$(awk '/^on cpu %/ { print $4 } /^runq %/ { print $3 } /^sleep %/ { print $3 }
			/^blocked %/ { print $3 }' <<<"$scr" | tr '\n' ' ')
		echo "threads: $tc; process: $pc" >&3
		ok=$(awk -v t="$tc" -v p="$pc" 'BEGIN { n = split(t, a, " "); split(p, b, " ");
			for (i = 1; i <= 4; i++) if (a[i] - b[i] > 3 || b[i] - a[i] > 3) { print 0; exit }
			print 1 }')
		[ "$ok" = 1 ] && break
		sleep 0.2
	done
	[ "$ok" = 1 ]
	keys q
}
