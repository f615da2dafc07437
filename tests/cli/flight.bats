#!/usr/bin/env bats
# The flight recorder (--flight, SIGUSR2, --trigger): the trace.dat it saves
# is read back by trace-cmd report and by libtracecmd (helpers: tdread), and
# holds exactly what the workloads of helpers/flightwl.c did, under their
# names, at their times; ktop's own counts agree. Saves refuse what another
# user planted, survive a full disk and a read-only directory, and are listed
# in the recording and counted by the exporter.

load helpers/common

setup_file() {
	helper_prog flightwl || true
}

setup() {
	common_setup
	FWL="$BATS_FILE_TMPDIR/flightwl"
	TDREAD="$BATS_TEST_DIRNAME/../../build/tests/helpers/tdread"
	D="$BATS_TEST_TMPDIR/saves"
	mkdir -p "$D"
	chmod 0755 "$D"
}

teardown() {
	common_teardown
	[ -n "${NOBODY_FILE:-}" ] && rm -f "$NOBODY_FILE"
	[ -n "${CG:-}" ] && rmdir "$CG" 2>/dev/null
	return 0
}

need_all() {
	need_tracing "the flight recorder keeps kernel events"
	need_built "$FWL"
	need_built "$TDREAD"
	need_program trace-cmd
}

# start_wl MODE N: the workload, blocked before its gate; WL (pid), WL_TIDS (the rest).
start_wl() {
	GATE="$BATS_TEST_TMPDIR/gate"
	rm -f "$GATE"
	mkfifo "$GATE"
	"$FWL" "$BATS_TEST_TMPDIR/ready" "$GATE" "$1" "$2" >"$BATS_TEST_TMPDIR/wl.out" 2>&1 </dev/null 3>&- &
	track $!
	wait_for_file "$BATS_TEST_TMPDIR/ready" 10
	read -r WL WL_TIDS <"$BATS_TEST_TMPDIR/ready"
}

open_gate() {
	printf x >"$GATE"
}

# start_ktop (common.bash) with KTOP_STATS on: its counts on OUT.err at exit.
START_KTOP_STATS=1

# usr2_goes_on OUT ERE: SIGUSR2 to ktop $KPID (writing OUT, OUT.err), its line on
# stderr matches ERE, two more intervals come, and SIGTERM still ends it (0).
usr2_goes_on() {
	local n
	wait_for_lines "$1" 2 10
	kill -USR2 "$KPID"
	for _ in $(seq 100); do grep -q 'flight recorder' "$1.err" && break; sleep 0.05; done
	grep -E "$2" "$1.err"
	n=$(wc -l <"$1")
	wait_for_lines "$1" $((n + 2)) 10
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ]
}

# saved_path ERRFILE [N]: the path of the Nth (default 1st) "saved" line, once there.
saved_path() {
	local i
	for i in $(seq 300); do
		p=$(grep -o 'flight recorder: saved [^ ]*' "$1" | sed -n "${2:-1}p" | cut -d' ' -f4)
		[ -n "$p" ] && { echo "$p"; return 0; }
		sleep 0.05
	done
	echo "no save in $1:" >&2
	cat "$1" >&2
	return 1
}

@test "flight: SIGUSR2 to ktop -b saves a trace.dat holding exactly the workload's 777 kill calls, named, at their times; ktop's counts agree" {
	need_all
	start_wl kills 777
	# The trace clock is mono here: the workload's own clock_gettime brackets its calls.
	KTOP_TRACE_CLOCK=mono start_ktop "$OUT" -b --csv --syscalls -d 0.25 --flight-dir "$D" --flight-after 0
	wait_for_lines "$OUT" 2 10
	open_gate
	wait_for_file "$BATS_TEST_TMPDIR/wl.out" 10
	read -r T0 T1 <"$BATS_TEST_TMPDIR/wl.out"
	sleep 0.1
	wait_tick_after "$OUT" "$(date +%s.%N)" 10
	kill -USR2 "$KPID"
	f=$(saved_path "$OUT.err")
	# ktop goes on after a save, and SIGTERM still ends it cleanly.
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ]
	no_instance_left "$KPID"
	[ -f "$f" ]
	[ "$(stat -c '%a %u' "$f")" = "600 0" ]
	case "$f" in "$D"/ktop-flight-*-[0-9]*-[0-9]*.dat) ;; *) echo "name: $f" >&2; false ;; esac

	# trace-cmd report: 777 sys_exit NR 62 (kill) of the workload, under its name, = -3 (ESRCH).
	trace-cmd report -i "$f" >"$BATS_TEST_TMPDIR/report" 2>"$BATS_TEST_TMPDIR/report.err"
	n=$(grep -cE "^ *flightwl-$WL +\[[0-9]+\] +[0-9.]+: sys_exit: +NR 62 = -3\$" "$BATS_TEST_TMPDIR/report")
	[ "$n" -eq 777 ] || { echo "trace-cmd report: $n kill exits of flightwl-$WL" >&2; false; }
	# Nothing under another name: the pid's every line is flightwl's.
	! grep -E "^ *[^ ]+-$WL +\[" "$BATS_TEST_TMPDIR/report" | grep -vqE "^ *flightwl-$WL "
	! grep -qi "error\|fail" "$BATS_TEST_TMPDIR/report.err"

	# libtracecmd's read API: the same 777, and their stamps inside the workload's own bracket.
	"$TDREAD" "$f" >"$BATS_TEST_TMPDIR/td"
	awk -F'\t' -v p="$WL" -v t0="$T0" -v t1="$T1" '
		$4 == p && $6 == "raw_syscalls:sys_exit" && $7 == "id=62 ret=-3" {
			n++; if ($5 != "flightwl") bad++; if ($3 < t0 || $3 > t1) out++ }
		END { printf "%d %d %d\n", n, bad, out }' "$BATS_TEST_TMPDIR/td" >"$BATS_TEST_TMPDIR/counts"
	[ "$(cat "$BATS_TEST_TMPDIR/counts")" = "777 0 0" ] || { cat "$BATS_TEST_TMPDIR/counts" >&2; false; }

	# ktop's own numbers for those intervals: kill calls and errors of the workload.
	awk -F, -v p="$WL" '$3 == p && $6 == "kill" { c += $8; e += $9 } END { print c + 0, e + 0 }' \
		"$OUT" >"$BATS_TEST_TMPDIR/ktop-counts"
	[ "$(cat "$BATS_TEST_TMPDIR/ktop-counts")" = "777 777" ]
	grep -q 'flight_saves=1 ' "$OUT.err"
}

@test "flight: --trigger runq_ms>300 fires once (rate limit) on three threads sharing a CPU; the file holds their switches around it" {
	need_all
	[ "$(nproc)" -ge 1 ]
	start_wl runq 3
	start_ktop "$OUT" -b -d 0.5 -p "$WL" -o pid,runq_ms --csv --trigger 'runq_ms>300' \
		--flight-dir "$D" --flight-after 0.5
	wait_for_lines "$OUT" 2 10
	open_gate
	f=$(saved_path "$OUT.err")
	# Six more intervals (a row each) above the bound: the rate limit (60 s) lets no
	# second save through.
	wait_for_lines "$OUT" $(($(wc -l <"$OUT") + 6)) 30
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ]
	[ "$(grep -c 'flight recorder: saved' "$OUT.err")" -eq 1 ]
	[ "$(ls "$D" | wc -l)" -eq 1 ]
	grep -E "flight_saves=1 .*flight_suppressed=[1-9]" "$OUT.err"
	# What fired, in the file (its version option) and on stderr.
	trace-cmd report --version -i "$f" >"$BATS_TEST_TMPDIR/version" 2>&1
	grep -E "why: trigger runq_ms>300: pid $WL \(flightwl\): runq_ms [0-9.]+" "$BATS_TEST_TMPDIR/version"
	grep -E "saved .*trigger runq_ms>300: pid $WL \(flightwl\)" "$OUT.err"
	# ktop saw it: an interval with the process over 300 ms waiting for a CPU.
	awk -F, -v p="$WL" '$3 == p && $4 > 300 { n++ } END { exit !n }' "$OUT"

	# Each thread's switches, in and out, before and after the trigger: the save came
	# --flight-after (0.5 s) after the interval that fired, so the last 0.5 s of the file
	# are after it and what precedes them before.
	save_ts=$(sed -n 's/.*trace clock [a-z_]* \([0-9]*\)\.\([0-9]*\);.*/\1\2/p' "$BATS_TEST_TMPDIR/version")
	[ -n "$save_ts" ]
	save_ns=$((save_ts * 1000))
	"$TDREAD" "$f" >"$BATS_TEST_TMPDIR/td"
	for t in $WL_TIDS; do
		awk -F'\t' -v t="$t" -v s="$save_ns" '
			$6 == "sched:sched_switch" && ($7 ~ ("prev=" t " ") || $7 ~ ("next=" t "$")) {
				if ($3 < s - 700000000) before++; else if ($3 <= s) after++ }
			END { printf "%d %d\n", before, after; exit !(before > 0 && after > 0) }' \
			"$BATS_TEST_TMPDIR/td" || { echo "thread $t: switches before/after the trigger missing" >&2; false; }
	done
}

@test "flight: --flight 4M on a getppid flood: the ring stays within 4 MiB, ktop's memory within it and its usual size, and the file holds the latest pages" {
	need_all
	start_wl flood 0
	open_gate
	# Its usual size: the same run without the recorder, at the same time (ktop's
	# arrays follow the events it reads: runs a minute apart differ by MiBs here).
	KTOP_STATS=1 "$KTOP" -b -d 0.5 -n 8 -o pid --flight 0 >"$OUT.base" 2>"$OUT.base.err" </dev/null 3>&- &
	BASE=$!
	track "$BASE"
	ktop_started "$BASE"
	start_ktop "$OUT" -b -d 0.5 -n 8 -o pid --flight 4M --flight-dir "$D" --flight-after 0
	wait_for_lines "$OUT" 10 10
	sleep 2
	kill -USR2 "$KPID"
	f=$(saved_path "$OUT.err")
	wait_exit "$KPID" 20
	[ "$ST" -eq 0 ]
	wait_exit "$BASE" 20
	[ "$ST" -eq 0 ]
	base=$(grep -o 'maxrss_kb=[0-9]*' "$OUT.base.err" | cut -d= -f2)
	cap=$(grep -o 'flight_cap=[0-9]*' "$OUT.err" | cut -d= -f2)
	used=$(grep -o 'flight_used=[0-9]*' "$OUT.err" | cut -d= -f2)
	dropped=$(grep -o 'flight_dropped=[0-9]*' "$OUT.err" | cut -d= -f2)
	rss=$(grep -o 'maxrss_kb=[0-9]*' "$OUT.err" | cut -d= -f2)
	echo "cap $cap used $used dropped $dropped rss $rss base $base" >&2
	[ "$cap" -eq $((4 << 20)) ]
	[ "$used" -le "$cap" ]
	[ "$dropped" -gt 0 ]
	# Its memory: the usual size and the ring, with a MiB for the save and the rest's noise.
	[ "$rss" -le $((base + 4096 + 1024)) ]
	# The file: the pages the ring held (each a whole 64 KiB sub-buffer there, a
	# tick's partly filled ones joined), their formats and names; and the flood's
	# calls up to the save's tick.
	sz=$(stat -c %s "$f")
	out=$(grep -o 'flight_pages_out=[0-9]*' "$OUT.err" | cut -d= -f2)
	[ "$out" -gt 0 ]
	[ "$sz" -ge $((out * 65536)) ]
	[ "$sz" -le $((out * 65536 + 256 * 1024)) ]
	"$TDREAD" "$f" >"$BATS_TEST_TMPDIR/td"
	trace-cmd report --version -i "$f" >"$BATS_TEST_TMPDIR/version" 2>&1
	save_ts=$(sed -n 's/.*trace clock [a-z_]* \([0-9]*\)\.\([0-9]*\);.*/\1\2/p' "$BATS_TEST_TMPDIR/version")
	awk -F'\t' -v p="$WL" -v s="$((save_ts * 1000))" '
		$4 == p && $7 ~ /^id=110 / { n++; if (!first) first = $3; last = $3 }
		END { printf "%d calls, first %.3f s and last %.3f s before the save\n", n, (s - first) / 1e9, (s - last) / 1e9
		      exit !(n > 1000 && s - last < 1000000000 && s - first < 3000000000) }' "$BATS_TEST_TMPDIR/td"
}

# name_at SECONDS: the file name a save makes that many seconds from now (local time).
name_at() {
	local host
	host=$(hostname | sed 's/[^A-Za-z0-9._-]/_/g')
	echo "ktop-flight-$host-$(date -d "@$(($(date +%s) + $1))" +%Y%m%d-%H%M%S)"
}

@test "flight: a symbolic link and another user's file planted at the names are left alone; the save takes the next free name; a directory others may write without the sticky bit is refused" {
	need_all
	chmod 1777 "$D"
	victim="$BATS_TEST_TMPDIR/victim"
	echo "nobody's business" >"$victim"
	chmod 0644 "$victim"
	start_ktop "$OUT" -b -d 0.25 -o pid --flight-dir "$D" --flight-after 0
	wait_for_lines "$OUT" 2 10
	# The next seconds' names: a link to the victim, then a file of nobody's that anyone may write.
	for t in 0 1 2 3 4 5 6; do
		n=$(name_at $t)
		ln -sf "$victim" "$D/$n.dat"
		echo planted >"$D/$n.1.dat"
		chown nobody "$D/$n.1.dat"
		chmod 0666 "$D/$n.1.dat"
	done
	before=$(stat -c '%s %Y %U' "$victim" "$D"/*.1.dat | md5sum)
	kill -USR2 "$KPID"
	f=$(saved_path "$OUT.err")
	grep -E "flight recorder: .*\.dat is a symbolic link: left alone; .*\.1\.dat is|flight recorder: .*\.dat is a symbolic link: left alone; saved as" "$OUT.err"
	case "$f" in *.2.dat) ;; *) echo "saved as $f" >&2; false ;; esac
	[ -f "$f" ] && [ ! -L "$f" ]
	[ "$(stat -c '%a %U' "$f")" = "600 root" ]
	[ "$(cat "$victim")" = "nobody's business" ]
	[ "$(stat -c '%s %Y %U' "$victim" "$D"/*.1.dat | md5sum)" = "$before" ]
	for x in "$D"/*.1.dat; do [ "$(cat "$x")" = planted ]; done
	trace-cmd report -i "$f" >/dev/null 2>&1

	# A directory group or others may write, no sticky bit: refused, ktop goes on.
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ]
	D2="$BATS_TEST_TMPDIR/open"
	mkdir "$D2"
	chmod 0777 "$D2"
	start_ktop "$OUT.2" -b -d 0.25 -o pid --flight-dir "$D2" --flight-after 0
	usr2_goes_on "$OUT.2" "ktop: flight recorder: .*open: group or others may write to this directory and it has no sticky bit"
	[ -z "$(ls -A "$D2")" ]
}

# in_private_tmpfs OPTS SCRIPT: SCRIPT run by sh in a mount namespace of its own,
# with a tmpfs mounted (mount -o OPTS) at $M; $KTOP, $OUT exported to it.
in_private_tmpfs() {
	M="$BATS_TEST_TMPDIR/mnt"
	mkdir -p "$M"
	M="$M" KTOP="$KTOP" OUT="$OUT" unshare -m --propagation private sh -c "
		mount -t tmpfs -o '$1' tmpfs \"\$M\" || exit 3
		$2" >"$OUT.sh" 2>&1 || { echo "in the namespace: status $?" >&2; cat "$OUT.sh" >&2; return 1; }
}

# The script's part: ktop saving into $M on SIGUSR2, going on after, then ended.
SAVE_AND_GO_ON='
	: >"$OUT"; : >"$OUT.err"
	KTOP_STATS=1 "$KTOP" -b -d 0.25 -o pid --flight-dir "$M" --flight-after 0 >>"$OUT" 2>>"$OUT.err" &
	k=$!
	echo $k >"$OUT.pid"
	i=0; while [ "$(wc -l <"$OUT")" -lt 2 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	kill -USR2 $k || { echo "ktop $k is gone:"; cat "$OUT.err"; exit 4; }
	i=0; while ! grep -q "flight recorder" "$OUT.err" && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	n=$(wc -l <"$OUT")
	i=0; while [ "$(wc -l <"$OUT")" -lt $((n + 2)) ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
	kill -TERM $k
	wait $k; echo "exit $?" >"$OUT.exit"
	ls -A "$M" >"$OUT.ls"
	cat "$M/other" >"$OUT.other" 2>/dev/null || true
'

@test "flight: a full disk: a clear message, nothing left behind, ktop goes on" {
	need_all
	need_program unshare util-linux
	# Full before the save: a ring of a few pages would fit in any free space left.
	in_private_tmpfs size=256k,mode=0755 'echo "another file" >"$M/other"; head -c 1M /dev/zero >"$M/fill" 2>/dev/null; '"$SAVE_AND_GO_ON"
	track "$(cat "$OUT.pid")"
	ktop_started "$(cat "$OUT.pid")"
	cat "$OUT.err" >&2
	grep -E "^ktop: flight recorder: cannot save in .*/mnt: writing [a-z ]+: No space left on device \(SIGUSR2\)\$" "$OUT.err"
	[ "$(cat "$OUT.exit")" = "exit 0" ]
	[ "$(cat "$OUT.ls" | tr '\n' ' ')" = "fill other " ]
	[ "$(cat "$OUT.other")" = "another file" ]
	grep -q 'flight_failures=1 ' "$OUT.err"
	# It went on: intervals after the failure.
	[ "$(grep -c '^ *PID' "$OUT")" -ge 3 ] || [ "$(wc -l <"$OUT")" -ge 4 ]
}

@test "flight: a read-only directory: a clear message, ktop goes on" {
	need_all
	need_program unshare util-linux
	in_private_tmpfs ro "$SAVE_AND_GO_ON"
	track "$(cat "$OUT.pid")"
	ktop_started "$(cat "$OUT.pid")"
	cat "$OUT.err" >&2
	grep -E "^ktop: flight recorder: cannot save in .*/mnt: Read-only file system \(SIGUSR2\)\$" "$OUT.err"
	[ "$(cat "$OUT.exit")" = "exit 0" ]
	[ -z "$(cat "$OUT.ls")" ]
}

@test "flight: with -w the save goes to the recording's directory and is listed in it (time, path, why, bytes)" {
	need_all
	need_program sqlite3
	start_ktop "$OUT" -b -d 0.25 -w "$D/rec.db" --flight-after 0
	# The recording under way: its first interval after the baseline written.
	for _ in $(seq 200); do
		[ "$(sqlite3 "$D/rec.db" 'SELECT count(*) FROM interval' 2>/dev/null)" -ge 2 ] 2>/dev/null && break
		sleep 0.05
	done
	t0=$(date +%s.%N)
	kill -USR2 "$KPID"
	f=$(saved_path "$OUT.err")
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ]
	[ "$(dirname "$f")" = "$D" ]
	run sqlite3 "$D/rec.db" "SELECT path, why, bytes, wall >= $t0 AND wall < $t0 + 10 FROM flight"
	[ "$status" -eq 0 ]
	[ "$output" = "$f|SIGUSR2|$(stat -c %s "$f")|1" ]
}

@test "flight: the exporter counts the saves and their bytes" {
	need_all
	T="$BATS_TEST_TMPDIR/prom"
	mkdir "$T"
	start_ktop "$OUT" -b -d 0.25 --textfile "$T" --flight-dir "$D" --flight-after 0
	for _ in $(seq 100); do [ -s "$T/ktop.prom" ] && break; sleep 0.05; done
	grep -qx 'ktop_flight_saves_total 0' "$T/ktop.prom"
	kill -USR2 "$KPID"
	f=$(saved_path "$OUT.err")
	for _ in $(seq 100); do grep -qx 'ktop_flight_saves_total 1' "$T/ktop.prom" && break; sleep 0.05; done
	grep -x 'ktop_flight_saves_total 1' "$T/ktop.prom"
	grep -x "ktop_flight_saved_bytes_total $(stat -c %s "$f")" "$T/ktop.prom"
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
}

@test "flight: --flight 0 and tracing off: SIGUSR2 says so and ktop goes on; the options are checked" {
	need_all
	start_ktop "$OUT" -b -d 0.3 -o pid --flight 0
	usr2_goes_on "$OUT" '^ktop: flight recorder off: --flight 0 \(SIGUSR2 ignored\)$'
	start_ktop "$OUT.nt" -b -d 0.3 -o pid --no-trace
	usr2_goes_on "$OUT.nt" '^ktop: flight recorder off: --no-trace \(SIGUSR2 ignored\)$'

	run --separate-stderr "$KTOP" -b -n 1 --trigger 'runq_ms>x'
	[ "$status" -eq 2 ]
	assert_one_line_error
	[[ "$stderr" == *"'x' is not a number"* ]]
	run --separate-stderr "$KTOP" -b -n 1 --trigger 'cmdline>1'
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"'cmdline' is not a numeric column"* ]]
	run --separate-stderr "$KTOP" -b -n 1 --trigger 'blocked_ms>1000' --flight 0
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"not with --flight 0"* ]]
	run --separate-stderr "$KTOP" -b -n 1 --no-trace --flight 8M
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"not with --no-trace"* ]]
	run --separate-stderr "$KTOP" -b -n 1 --flight 100K
	[ "$status" -eq 2 ]
	run --separate-stderr "$KTOP" -b -n 1 --trigger 'pod:syscall_errors>=1000' --trigger oom --flight-dir "$D"
	[ "$status" -eq 0 ]
}

@test "flight: --flight-after 3 with a 4M ring on a flood: the moment asked for stays in the file, and so do the seconds after it" {
	need_all
	start_wl flood 0
	open_gate
	KTOP_TRACE_CLOCK=mono start_ktop "$OUT" -b -d 0.5 -o pid --flight 4M --flight-dir "$D" --flight-after 3
	wait_for_lines "$OUT" 10 10
	sleep 1
	# CLOCK_MONOTONIC, the trace clock here, when it is asked for.
	t=$("$PY" -c 'import time; print(time.monotonic_ns())')
	kill -USR2 "$KPID"
	f=$(saved_path "$OUT.err")
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ]
	grep -E 'flight_held_back=[1-9]' "$OUT.err"
	"$TDREAD" "$f" >"$BATS_TEST_TMPDIR/td"
	# The ring holds a fraction of a second of the flood: without keeping the moment,
	# the three seconds after it would have pushed it out.
	awk -F'\t' -v p="$WL" -v t="$t" '
		$4 == p && $7 ~ /^id=110 / { if ($3 < t) before++; else after++ }
		END { printf "%d calls before the request, %d after\n", before, after
		      exit !(before > 1000 && after > 1000) }' "$BATS_TEST_TMPDIR/td"
}

@test "flight: --trigger throttled_pct>50 fires on a spinner in a v1 cpu cgroup of 10%" {
	need_all
	[ -f /sys/fs/cgroup/cpu/cgroup.procs ] || skip_kernel "no v1 cpu hierarchy (/sys/fs/cgroup/cpu)"
	CG=/sys/fs/cgroup/cpu/ktoptest-flight-$$
	mkdir "$CG"
	echo 100000 >"$CG/cpu.cfs_period_us"
	echo 10000 >"$CG/cpu.cfs_quota_us"
	sh -c "echo \$\$ >$CG/cgroup.procs && exec sh -c 'while :; do :; done'" </dev/null >/dev/null 2>&1 3>&- &
	hog=$!
	track "$hog"
	for _ in $(seq 100); do grep -qx "$hog" "$CG/cgroup.procs" && break; sleep 0.05; done
	start_ktop "$OUT" -b -d 0.5 -n 8 -p "$hog" -o pid --trigger 'throttled_pct>50' \
		--flight-dir "$D" --flight-after 0
	f=$(saved_path "$OUT.err")
	wait_exit "$KPID" 20
	[ "$ST" -eq 0 ]
	grep -E "saved .*trigger throttled_pct>50: pid $hog \(sh\): throttled_pct [5-9][0-9]\.[0-9]" "$OUT.err"
	[ "$(grep -c 'flight recorder: saved' "$OUT.err")" -eq 1 ]
	kill "$hog"
	wait "$hog" 2>/dev/null || true
	for _ in $(seq 100); do [ -z "$(cat "$CG/cgroup.procs")" ] && break; sleep 0.05; done
	rmdir "$CG" && CG=
	trace-cmd report -i "$f" >/dev/null 2>&1
}
