#!/usr/bin/env bats
# Hostile processes on a real kernel: a pid reused within one refresh, a command
# line of 100 kB and one full of escapes, processes that exit between the /proc
# listing and the read of their files. (Hostile names: names.bats.)

load helpers/common

setup_file() {
	helper_prog pidreuse || true
}

setup() {
	common_setup
	PIDREUSE="$BATS_FILE_TMPDIR/pidreuse"
}

teardown() {
	common_teardown
	# a traced ktop killed by the teardown leaves its instance
	[ -n "${KPID:-}" ] && rmdir "$(inst_dir $KPID)" 2>/dev/null
	return 0
}

# reuse_try ARGS...: ktop -b --csv ARGS, a process killed and its pid given to a
# new one (another name) between two refreshes: the first refresh after it
# shows the new process's name in that pid's row, and so does every later one;
# the old one's end is a row of its own, X, once (its exit record, its events).
# Exit 3: that failed, but a refresh began between the gate and the swap's
# end (it may have read /proc in the middle of it): not between two refreshes.
# (Called in a list: every step that can fail says so itself, set -e does not.)
reuse_try() {
	local d=$BATS_TEST_TMPDIR/try.$RANDOM pid g t after
	mkdir "$d" && mkfifo "$d/gate" || return 1
	"$PIDREUSE" "$d/ready" "$d/gate" >"$d/done" 2>"$d/err" </dev/null 3>&- &
	track $!
	wait_for_file "$d/ready" 5 || return 1
	pid=$(cat "$d/ready")
	track "$pid"
	"$KTOP" -b --csv -d 0.2 -o pid,comm,state "$@" >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	KPID=$!
	track "$KPID"
	# two ticks that show the old process: the second one is past the first listing
	wait_tick_after "$OUT" "$(date +%s.%N)" || return 1
	wait_tick_after "$OUT" "$(date +%s.%N)" || return 1
	grep -q ",$pid,reuse-old," "$OUT" || { cat "$OUT" >&2; return 1; }
	g=$(date +%s.%N)
	printf g >"$d/gate"
	wait_for_file "$d/done" 5 || return 1
	[ "$(cat "$d/done")" = "done $pid" ] || {
		st=$(cat "$d/err")
		[[ "$st" == *"clone3"* ]] && skip_kernel "the kernel would not reuse the pid: $st"
		return 1
	}
	# the new process has its name (its first act): the swap is over
	wait_for_match "/proc/$pid/comm" '^reuse-new$' 5 || return 1
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t" || return 1
	after=$(date +%s.%N)
	wait_tick_after "$OUT" "$after" || return 1
	wait_tick_after "$OUT" "$(date +%s.%N)" || return 1
	kill -TERM "$KPID"
	wait_exit "$KPID" 10 || return 1
	[ "$ST" -eq 0 ] || { echo "ktop exit $ST: $(cat "$OUT.err")" >&2; return 1; }
	# every tick that began after the gate: one row of the new name for the
	# pid, alive; the old name once, X
	awk -F, -v t="$g" -v pid="$pid" '
		NR > 1 && $1 > t { ticks[$1] = 1
			if ($3 == pid && $4 == "reuse-new" && $5 != "X") rows[$1]++
			else if ($3 == pid && $4 == "reuse-old" && $5 == "X") old++
			else if ($3 == pid) bad = bad " " $1 ":" $4 ":" $5 }
		END {
			for (k in ticks) { n++; if (rows[k] != 1) { print "tick " k ": " rows[k] + 0 " rows of reuse-new" > "/dev/stderr"; err = 1 } }
			if (bad) { print "other rows for the pid after the swap:" bad > "/dev/stderr"; err = 1 }
			if (old != 1) { print old + 0 " rows X of reuse-old after the swap" > "/dev/stderr"; err = 1 }
			if (n < 3) { print "only " n " ticks after the swap" > "/dev/stderr"; err = 1 }
			exit err
		}' "$OUT" && return 0
	awk -F, -v g="$g" -v t="$t" 'NR > 1 && $1 > g && $1 <= t { found = 1 } END { exit !found }' "$OUT" || return 1
	return 3
}

# reuse_case ARGS...: reuse_try, again when a refresh came in the middle of
# the swap (twice at most).
reuse_case() {
	[ "$(id -u)" -eq 0 ] || skip "reusing a pid on purpose needs root (clone3 set_tid)"
	need_built "$PIDREUSE"
	local i st
	for i in 1 2 3; do
		st=0
		reuse_try "$@" || st=$?
		[ "$st" -eq 3 ] || return "$st"
		echo "# try $i: a refresh began between the gate and the swap's end" >&2
	done
	return 1
}

@test "pid reuse within one refresh: the new process gets the row at once (tracing)" {
	reuse_case
}

@test "pid reuse within one refresh: the new process gets the row at once (--no-trace)" {
	reuse_case --no-trace
}

# start_cmdline ARGS...: a python3 that sleeps, with ARGS after its script; CPID.
start_cmdline() {
	"$PY" -c 'import time; time.sleep(60)' "$@" </dev/null >/dev/null 2>&1 3>&- &
	CPID=$!
	track "$CPID"
	local i
	for ((i = 0; i < 100; i++)); do
		grep -qa time.sleep "/proc/$CPID/cmdline" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# no_controls FILE: no C0 control but newline, no DEL, no C1 control (UTF-8 or raw).
no_controls() {
	! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$1" || { echo "a control byte in $1" >&2; return 1; }
	! LC_ALL=C grep -q $'\xc2[\x80-\x9f]' "$1" || { echo "a C1 control in $1" >&2; return 1; }
}

@test "a 100 kB command line: text, CSV and JSON stay whole; the first 4 KiB are shown" {
	local big i
	big=$(head -c 100000 /dev/zero | tr '\0' 'A')
	start_cmdline "$big" "${big:0:10}"
	[ "$(wc -c <"/proc/$CPID/cmdline")" -gt 100000 ]
	# JSON, CSV and text side by side (each file ktop's stdout and stderr)
	local kj kc
	timeout 10 "$KTOP" -b --json -n 2 -d 0.2 -p "$CPID" -o pid,cmdline >"$OUT.json" 2>&1 </dev/null 3>&- &
	kj=$!
	timeout 10 "$KTOP" -b --csv -n 2 -d 0.2 -p "$CPID" -o pid,cmdline,comm >"$OUT.csv" 2>&1 </dev/null 3>&- &
	kc=$!
	track "$kj" "$kc"
	timeout 10 "$KTOP" -b -n 1 -p "$CPID" -o pid,cmdline >"$OUT.txt"
	wait "$kj"
	wait "$kc"
	run check json-field "$OUT.json" "$CPID" cmdline
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT.values"
	"$PY" - "$CPID" "$OUT.values" <<'PY'
import json, sys
real = open("/proc/%s/cmdline" % sys.argv[1], "rb").read().replace(b"\0", b" ").decode()
n = 0
for line in open(sys.argv[2]):
    n += 1
    v = json.loads(line)
    assert 4000 <= len(v) <= 4096 and real.startswith(v), (len(v), v[:40])
assert n == 2, n
PY
	check csv-sane "$OUT.csv" 2 "$CPID"
	[ "$(sed -n '/^ *PID /,$p' "$OUT.txt" | wc -l)" -eq 3 ]
	grep -q "^ *$CPID .*time.sleep(60) AAAA" "$OUT.txt"
}

@test "a command line of escapes, newlines, quotes and invalid UTF-8: never raw in text or CSV; JSON valid" {
	start_cmdline $'\e]2;pwned\a' $'two\nlines' $'\e[2J\e[H' $'\xc2\x9b31m' $'\xff\xfe' 'a,"b"'
	# text, CSV and JSON side by side (each file ktop's stdout and stderr)
	local kc kj
	timeout 10 "$KTOP" -b --csv -n 2 -d 0.2 -p "$CPID" -o pid,cmdline >"$OUT.csv" 2>&1 </dev/null 3>&- &
	kc=$!
	timeout 10 "$KTOP" -b --json -n 2 -d 0.2 -p "$CPID" -o pid,cmdline >"$OUT.json" 2>&1 </dev/null 3>&- &
	kj=$!
	track "$kc" "$kj"
	timeout 10 "$KTOP" -b -n 1 -p "$CPID" -o pid,cmdline >"$OUT.txt" 2>&1
	wait "$kc"
	wait "$kj"
	no_controls "$OUT.txt"
	grep -q "time.sleep(60) ?]2;pwned? two?lines ?\[2J?\[H ??31m ?? a,\"b\"$" "$OUT.txt"
	no_controls "$OUT.csv"
	check csv-sane "$OUT.csv" 2 "$CPID"
	no_controls "$OUT.json"
	run check json-field "$OUT.json" "$CPID" cmdline
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == *'\u001b]2;pwned\u0007 two\nlines \u001b[2J\u001b[H \ufffd\ufffd31m \ufffd\ufffd a,\"b\""' ]]
}

# churn: ktop -b --csv -d 0.1 -n 15, traced and not, with -H and without (four
# at once), while a few thousand processes (each with a thread) start and
# exit, from two forkers: many are listed and gone before their files are read. Each ktop ends
# normally; every line is whole.
@test "churn: processes that exit between the listing and the read (tracing, -H, --no-trace)" {
	local i st
	local -a args=("" "-H" "--no-trace" "--no-trace -H") kp
	# two forkers (one after the other, the four runs met one to four)
	for i in 1 2; do
		"$PY" - <<'PY' </dev/null >/dev/null 2>&1 3>&- &
import os, threading, time
end = time.time() + 30
while time.time() < end:
    pid = os.fork()
    if pid == 0:
        t = threading.Thread(target=time.sleep, args=(0.001,))
        t.start()
        os._exit(0)
    os.waitpid(pid, 0)
PY
		track $!
	done
	for i in 0 1 2 3; do
		# shellcheck disable=SC2086
		timeout 20 "$KTOP" -b --csv -d 0.1 -n 15 ${args[$i]} >"$OUT.$i.csv" 2>"$OUT.$i.err" </dev/null 3>&- &
		kp[$i]=$!
		track "${kp[$i]}"
	done
	for i in 0 1 2 3; do
		st=0
		wait "${kp[$i]}" || st=$?
		[ "$st" -eq 0 ] || { echo "ktop ${args[$i]}: exit $st: $(cat "$OUT.$i.err")" >&2; return 1; }
		if [[ " ${args[$i]} " == *" --no-trace "* ]]; then
			[ "$(cat "$OUT.$i.err")" = "ktop: tracing off: --no-trace" ]
		else
			[ ! -s "$OUT.$i.err" ] || { echo "ktop ${args[$i]}: $(cat "$OUT.$i.err")" >&2; return 1; }
		fi
		check csv-sane "$OUT.$i.csv" 15
	done
}
