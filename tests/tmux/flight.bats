#!/usr/bin/env bats
# The flight recorder from the live view: W in the process view saves both of
# ktop's instances, the counting one as trace.dat's top buffer and the process
# view's as a buffer of its own (trace-cmd shows it by its instance's name),
# on one time line: the workload's calls, seen by both, carry the same times.

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
TDREAD="$BATS_TEST_DIRNAME/../../build/tests/helpers/tdread"
S="ktop-flight-$$"
TRACEFS=/sys/kernel/tracing

setup_file() {
	helper_prog flightwl
}

setup() {
	[ "$(id -u)" = 0 ] && [ -d "$TRACEFS/instances" ] || skip "needs root and tracefs"
	need_built "$TDREAD"
	need_program trace-cmd
	D="$BATS_TEST_TMPDIR/saves"
	mkdir -p "$D"
	GATE="$BATS_TEST_TMPDIR/gate"
	mkfifo "$GATE"
	"$BATS_FILE_TMPDIR/flightwl" "$BATS_TEST_TMPDIR/ready" "$GATE" slow 0 </dev/null >/dev/null 2>&1 &
	WL=$!
	for _ in $(seq 100); do [ -s "$BATS_TEST_TMPDIR/ready" ] && break; sleep 0.05; done
	printf x >"$GATE"
	shell_pane
}

teardown() {
	tmux -L "$S" kill-server 2>/dev/null || true
	[ -n "${WL:-}" ] && kill "$WL" 2>/dev/null
	[ -n "${WL:-}" ] && wait "$WL" 2>/dev/null
	return 0
}

@test "flight: W in the process view saves both instances as two buffers on one time line" {
	keys "cd $D && $KTOP -d 0.5 -p $WL --flight-after 0; echo KTOP-EXIT=\$?" Enter
	wait_for "^Process $WL +flightwl"
	k=$(ktop_pid)
	sleep 1.5
	keys W
	wait_for "flight recorder: saved \./ktop-flight-[^ ]+\.dat"
	keys F10
	wait_for "KTOP-EXIT=0"
	f=$(ls "$D"/ktop-flight-*.dat)
	[ "$(echo "$f" | wc -l)" -eq 1 ]
	"$TDREAD" "$f" >"$BATS_TEST_TMPDIR/td"
	grep -E "^# events top [1-9][0-9]*\$" "$BATS_TEST_TMPDIR/td"
	grep -E "^# events ktop-$k-[0-9]+-f [1-9][0-9]*\$" "$BATS_TEST_TMPDIR/td"
	# The process view's instance records the workload alone: each call's exit is its.
	awk -F'\t' '$1 ~ /-f$/ && $6 == "raw_syscalls:sys_exit" && ($4 != '"$WL"' || $5 != "flightwl") { bad++ }
		END { exit bad > 0 }' "$BATS_TEST_TMPDIR/td"
	# Its getppid exits in both buffers, matched one to one: the same times
	# within 50 us. The instances are read in turn: the one read last may hold
	# calls after the other's last page; those are not compared.
	awk -F'\t' -v p="$WL" '
		$4 == p && $7 ~ /^id=110 / { if ($1 == "top") top[++nt] = $3; else foc[++nf] = $3 }
		END {
			j = 1; m = 0
			while (nf > 0 && nt > 0 && foc[nf] > top[nt] + 50000) { nf--; late++ }
			if (late > 0) printf "%d focus calls after the last top page\n", late
			for (i = 1; i <= nf; i++) {
				while (j < nt && top[j + 1] <= foc[i]) j++
				d = foc[i] - top[j]; if (d < 0) d = -d
				if (j < nt) { e = top[j + 1] - foc[i]; if (e < 0) e = -e; if (e < d) d = e }
				if (d <= 50000) m++
				else printf "focus call at %s unmatched (top %s .. %s), %d us off\n", foc[i], top[1], top[nt], d / 1000
			}
			printf "%d focus, %d top, %d within 50 us\n", nf, nt, m
			exit !(nf > 100 && m == nf)
		}' "$BATS_TEST_TMPDIR/td"
	# trace-cmd shows the second buffer by its name.
	trace-cmd report -i "$f" 2>/dev/null | grep -qE "^ktop-$k-[0-9]+-f: +flightwl-$WL +\[[0-9]+\] +[0-9.]+: sys_exit: +NR 110 = "
}

@test "flight: a save listed in a recording shows in its replay at the interval it was made in" {
	need_program sqlite3
	"$KTOP" -b -d 0.3 -w "$D/rec.db" --flight-after 0 >/dev/null 2>"$D/rec.err" </dev/null &
	r=$!
	for _ in $(seq 100); do [ -s "$D/rec.db" ] && break; sleep 0.05; done
	sleep 1
	kill -USR2 "$r"
	for _ in $(seq 200); do grep -q 'flight recorder: saved' "$D/rec.err" && break; sleep 0.05; done
	sleep 1
	kill -TERM "$r"
	wait "$r"
	f=$(sqlite3 "$D/rec.db" 'SELECT path FROM flight')
	[ -f "$f" ]
	keys "$KTOP -r $D/rec.db -d 0.2; echo KTOP-EXIT=\$?" Enter
	# The path is longer than the pane: its start, and the rest when the line has room.
	wait_for "flight recorder: saved here .*$(basename "$(dirname "$f")")/ktop-flight-"
	keys q
	wait_for "KTOP-EXIT=0"
}

@test "flight: W while paused saves at once; a save still waiting when ktop quits is written, its line on the terminal after" {
	keys "cd $D && $KTOP -d 0.5 --flight-after 30; echo KTOP-EXIT=\$?" Enter
	wait_for "PID[^ ]* +USER"
	keys Z
	wait_for "PAUSED|paused"
	keys W
	wait_for "flight recorder: saved \./ktop-flight-[^ ]+\.dat .*the W key"
	[ "$(ls "$D" | wc -l)" -eq 1 ]
	keys Z
	sleep 1
	keys W
	wait_for "flight recorder: saving the events kept and those of the next seconds"
	keys q
	wait_for "KTOP-EXIT=0"
	wait_for "^ktop: flight recorder: saved \./ktop-flight-[^ ]+\.dat \("
	[ "$(ls "$D" | wc -l)" -eq 2 ]
}
