#!/usr/bin/env bats
# Security: a user other than root who can use tracefs sees the events of their
# own processes only; ktop executes nothing, makes no process, and writes only
# in its own tracefs instance and its output (strace of whole runs, with
# processes whose names are shell commands). Without tracefs access: trace.bats,
# "not root".

load helpers/common

INST=/sys/kernel/tracing/instances
STRACE_CALLS='trace=%file,%process,unshare,write,pwrite64,writev,pwritev,pwritev2'

setup() {
	common_setup
}

teardown() {
	common_teardown
	[ -n "${NOBODY_DIR:-}" ] && rm -rf "$NOBODY_DIR"
	return 0
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	[ -d "$INST" ] || skip_kernel "tracefs is not available"
}

# Access to tracefs as a tracing group would give it, without changing the
# permissions of this machine's tracefs: user nobody with CAP_DAC_OVERRIDE.
# AS_NOBODY runs a copy of ktop (in NOBODY_DIR, which nobody can read) so.
nobody_ktop() {
	need_root
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	need_program setpriv util-linux
	NOBODY_DIR=$(mktemp -d /tmp/ktop-nobody.XXXXXX)
	chmod 755 "$NOBODY_DIR"
	cp "$KTOP" "$NOBODY_DIR/ktop"
	chmod 755 "$NOBODY_DIR/ktop"
	AS_NOBODY="setpriv --reuid=nobody --regid=$(id -gn nobody) --clear-groups --inh-caps=+dac_override --ambient-caps=+dac_override $NOBODY_DIR/ktop"
}

# busy USER: a python3 of USER making getppid calls for 20 s; BUSY is its pid.
# Returns once it has made its first 1000 (it says so on its stdout).
busy() {
	local ready=$BATS_TEST_TMPDIR/busy.$RANDOM$RANDOM
	setpriv --reuid="$1" --regid="$(id -gn "$1")" --clear-groups /usr/bin/python3 -c '
import os, time
end = time.time() + 20
[os.getppid() for _ in range(1000)]
print("looping", flush=True)
while time.time() < end:
    time.sleep(0.02)
    [os.getppid() for _ in range(1000)]' </dev/null >"$ready" 2>&1 3>&- &
	BUSY=$!
	track "$BUSY"
	wait_for_file "$ready" 10
}

@test "not root, with access to tracefs: the user's own processes' events only, rows, totals, --syscalls" {
	nobody_ktop
	local as_nobody=$AS_NOBODY k
	local -A kp
	busy nobody
	local mine=$BUSY
	busy root
	local roots=$BUSY
	# The three runs side by side: CSV rows, JSON totals, --syscalls.
	timeout 20 $as_nobody -b --csv -n 3 -d 0.4 -o pid,user,syscalls,sig_recv,sig_sent \
		>"$OUT.csv" 2>"$OUT.csv.err" </dev/null 3>&- &
	kp[csv]=$!
	timeout 20 $as_nobody -b --json -n 3 -d 0.4 -o pid,user,syscalls \
		>"$OUT.json" 2>"$OUT.json.err" </dev/null 3>&- &
	kp[json]=$!
	timeout 20 $as_nobody -b --csv --syscalls -n 3 -d 0.4 >"$OUT.sc" 2>"$OUT.sc.err" </dev/null 3>&- &
	kp[sc]=$!
	track "${kp[@]}"
	for k in csv json sc; do
		wait "${kp[$k]}" || { echo "$k: exit $?: $(cat "$OUT.$k.err")" >&2; return 1; }
	done
	[ ! -s "$OUT.csv.err" ] || { echo "stderr: $(cat "$OUT.csv.err")" >&2; return 1; }
	# tracing is on (the syscall columns), the user's process counted ...
	[ "$(head -n 1 "$OUT.csv")" = "time,interval_s,pid,user,syscalls,sig_recv,sig_sent" ]
	awk -F, -v p="$mine" '$3 == p && $2 != "" && $5 > 1000 { n++ } END { exit !(n == 2) }' "$OUT.csv"
	# ... and nothing of another user's: root's busy process, or any other
	awk -F, -v p="$roots" 'NR > 1 && $4 != "nobody" && ($5 > 0 || $6 > 0 || $7 > 0) { print; bad = 1 }
		NR > 1 && $3 == p { seen = 1 } END { exit bad || !seen }' "$OUT.csv"
	# The JSON totals are the user's: the sum of the rows, each interval.
	"$PY" - "$OUT.json" <<'PY'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
assert len(lines) == 3
for o in lines[1:]:
    rows = sum(p["syscalls"] or 0 for p in o["processes"])
    others = [p for p in o["processes"] if p["user"] != "nobody" and p["syscalls"]]
    assert not others, others[:3]
    assert o["system"]["syscalls"] == rows and rows > 1000, (o["system"]["syscalls"], rows)
PY
	# --syscalls: only the user's processes have lines
	local pids
	pids=$(awk -F, 'NR > 1 { print $3 }' "$OUT.sc" | sort -u)
	echo "pids with system calls: $pids" >&2
	# the user's busy process, and no process of another user (other processes
	# of nobody may come and go on this machine: the owner of each is checked)
	grep -qx "$mine" <<<"$pids"
	if grep -qx "$roots" <<<"$pids"; then return 1; fi
	local p uid
	for p in $pids; do
		uid=$(awk '$1 == "Uid:" { print $3 }' "/proc/$p/status" 2>/dev/null) || continue
		[ -z "$uid" ] || [ "$uid" = "$(id -u nobody)" ] || { echo "pid $p of uid $uid listed" >&2; return 1; }
	done
	[ -z "$(ls "$INST" | grep -E "^ktop-($mine|$roots)$")" ]
}

@test "not root, with access to tracefs: -p of another user's process: its events unknown, --summary refused" {
	nobody_ktop
	local as_nobody=$AS_NOBODY
	busy root
	local roots=$BUSY
	# Its row is there (what /proc shows anyone), its event columns empty: not 0, unknown.
	run --separate-stderr timeout 20 $as_nobody -b --csv -n 3 -d 0.2 -p "$roots" -o pid,user,syscalls,syscall_errors,sig_recv,sig_sent
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >&2
	[ "${#lines[@]}" -eq 4 ]
	local l
	for l in "${lines[@]:1}"; do
		[[ "$l" =~ ^[0-9.]+,[0-9.]*,$roots,root,,,,$ ]] || { echo "bad line: $l" >&2; return 1; }
	done
	run --separate-stderr timeout 20 $as_nobody --summary -n 2 -d 0.2 -p "$roots"
	[ "$status" -eq 1 ] && [ -z "$output" ]
	[ "$stderr" = "ktop: --summary: process $roots is uid 0's, not yours: only root sees its events" ]
}

# A python3 that makes getppid calls for ARGV[2] seconds, then executes
# ARGV[3:]. ARGV[1]: "-", or a FIFO to read a byte from first (after saying
# "ready" on its stdout).
PRE_EXEC='import os, sys, time
if sys.argv[1] != "-":
    print("ready", flush=True)
    open(sys.argv[1]).read(1)
end = time.time() + float(sys.argv[2])
while time.time() < end:
    [os.getppid() for _ in range(200)]
    time.sleep(0.01)
os.execv(sys.argv[3], sys.argv[3:])'

# After nobody_ktop: SHADOW, a setuid-root helpers/shadowloop.c in NOBODY_DIR,
# checked to gain root's privileges when nobody runs it (no nosuid mount, no
# no_new_privs): it reads /etc/shadow in a loop, with a sched_yield per pass.
setuid_prog() {
	helper_prog shadowloop "$NOBODY_DIR/shadowloop"
	chown root:root "$NOBODY_DIR/shadowloop"
	chmod 4755 "$NOBODY_DIR/shadowloop"
	SHADOW=$NOBODY_DIR/shadowloop
	setpriv --reuid=nobody --regid="$(id -gn nobody)" --clear-groups "$SHADOW" 0 ||
		skip_kernel "a setuid program does not gain privileges here (nosuid, no_new_privs?)"
}

# Lines of --syscalls CSV FILE for pid P: the python's getppid ones there, none
# of the setuid program (its sched_yield). The name may be the program's
# already: /proc read after the exec, its events read at the next tick.
user_part_only() {
	awk -F, -v p="$2" '$3 == p && $6 == "getppid" && $8 > 0 { mine++ }
		$3 == p && $6 == "sched_yield" { print "privileged: " $0; bad++ }
		END { exit bad || !mine }' "$1"
}

@test "not root: a process that executes a setuid program: none of its calls listed from that exec on (--syscalls, -p)" {
	nobody_ktop
	setuid_prog
	local as_nobody=$AS_NOBODY p kp kall gate=$NOBODY_DIR/gate
	mkfifo -m 666 "$gate"
	# It waits at the gate, nobody's already, until both ktops have their baseline.
	setpriv --reuid=nobody --regid="$(id -gn nobody)" --clear-groups \
		/usr/bin/python3 -c "$PRE_EXEC" "$gate" 0.6 "$SHADOW" 1 </dev/null >"$OUT.ready" 2>&1 3>&- &
	p=$!
	track "$p"
	wait_for_file "$OUT.ready" 10
	# The whole system and -p of that process, at once; -n: past its end.
	$as_nobody -b --csv --syscalls -n 13 -d 0.2 -p "$p" >"$OUT.p" 2>"$OUT.perr" </dev/null 3>&- &
	kp=$!
	timeout 20 $as_nobody -b --csv --syscalls -n 13 -d 0.2 >"$OUT.all" 2>"$OUT.allerr" </dev/null 3>&- &
	kall=$!
	track "$kp" "$kall"
	# (the header comes with the baseline)
	wait_for_file "$OUT.p" 10
	wait_for_file "$OUT.all" 10
	printf g >"$gate"
	wait "$kall" || { echo "exit $?: $(cat "$OUT.allerr")" >&2; return 1; }
	[ ! -s "$OUT.allerr" ] || { echo "stderr: $(cat "$OUT.allerr")" >&2; return 1; }
	wait "$kp"
	# It ran with root's privileges: every open of /etc/shadow succeeded.
	wait "$p"
	user_part_only "$OUT.all" "$p"
	user_part_only "$OUT.p" "$p"
	# The row of -p stays (what /proc shows anyone), labelled with its new owner.
	grep -qx "ktop: pid $p (shadowloop) gained privileges: no longer reported" "$OUT.perr"
}

@test "not root: --summary -- CMD that executes a setuid program: the privileged part is not counted, and said" {
	nobody_ktop
	setuid_prog
	local as_nobody=$AS_NOBODY k
	# CSV beside the text: the note and the table on stderr.
	timeout 20 $as_nobody --summary --csv -d 0.2 -- \
		/usr/bin/python3 -c "$PRE_EXEC" - 0.6 "$SHADOW" 1 >"$OUT.csv.cmd" 2>"$OUT.csv" </dev/null 3>&- &
	k=$!
	track "$k"
	run --separate-stderr timeout 20 $as_nobody --summary -d 0.2 -- \
		/usr/bin/python3 -c "$PRE_EXEC" - 0.6 "$SHADOW" 1
	# CMD's status: 0, every open of /etc/shadow succeeded; the summary on stderr, nothing on stdout.
	[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "exit $status: $output" >&2; return 1; }
	printf '%s\n' "$stderr" >&2
	grep -Eq '^ktop: pid [0-9]+ \(shadowloop\) gained privileges: its calls are not counted from the refresh before that exec on$' <<<"$stderr"
	grep -Eq ' [1-9][0-9]+ +getppid +Process Mgmt\.' <<<"$stderr"
	if grep -q sched_yield <<<"$stderr"; then return 1; fi
	wait "$k" || { echo "CSV: exit $?: $(cat "$OUT.csv")" >&2; return 1; }
	grep -Eq '^syscall,getppid,' "$OUT.csv"
	if grep -q sched_yield "$OUT.csv"; then return 1; fi
	[[ "$(cat "$OUT.csv")" =~ ^ktop:\ pid\ [0-9]+\ \(shadowloop\)\ gained\ privileges ]]
}

@test "not root: a followed child of -- CMD that executes a setuid program stops being reported, and says so" {
	nobody_ktop
	setuid_prog
	local as_nobody=$AS_NOBODY child k
	# Rows (beside the --syscalls run): never as root's, its new owner (it left the focus).
	timeout 20 $as_nobody -b --csv -d 0.2 -o pid,user,syscalls -- \
		/bin/sh -c '"$@"; exit $?' sh /usr/bin/python3 -c "$PRE_EXEC" - 0.6 "$SHADOW" 1 \
		>"$OUT.rows" 2>"$OUT.rows.err" </dev/null 3>&- &
	k=$!
	track "$k"
	# sh forks the python (a command that is not its last); the python executes the program.
	run --separate-stderr timeout 20 $as_nobody -b --csv --syscalls -d 0.2 -- \
		/bin/sh -c '"$@"; exit $?' sh /usr/bin/python3 -c "$PRE_EXEC" - 0.6 "$SHADOW" 1
	[ "$status" -eq 0 ] || { echo "exit $status: $stderr" >&2; return 1; }
	printf '%s\n' "$output" >"$OUT"
	[[ "$stderr" =~ ^ktop:\ pid\ ([0-9]+)\ \(shadowloop\)\ gained\ privileges:\ no\ longer\ reported$ ]]
	child=${BASH_REMATCH[1]}
	# Its python part is there, then nothing of it.
	user_part_only "$OUT" "$child"
	wait "$k" || { echo "rows: exit $?: $(cat "$OUT.rows.err")" >&2; return 1; }
	[[ "$(cat "$OUT.rows.err")" =~ ^ktop:\ pid\ ([0-9]+)\ \(shadowloop\) ]]
	child=${BASH_REMATCH[1]}
	awk -F, -v c="$child" '$3 == c && $4 == "nobody" && $5 > 100 { n++ }
		$3 == c && $4 != "nobody" { print "privileged: " $0; bad = 1 }
		END { exit bad || !n }' "$OUT.rows"
}

# sandbox_run LOG OUT ARGS...: ktop ARGS under strace -f -y, its output in
# OUT and OUT.err.
sandbox_run() {
	local log=$1 out=$2
	shift 2
	strace -f -y -qq -o "$log" -e "$STRACE_CALLS" "$KTOP" "$@" >"$out" 2>"$out.err" </dev/null
}

@test "strace: a traced batch run executes nothing and writes only its instance and its output" {
	need_root
	need_program strace
	# processes named like commands and paths, should anything ever run or open them
	local n p
	for n in '$(touch /tmp/x)' '`id>/tmp/y`' '; rm -rf /' '../../etc/pwn' '|sh'; do
		"$PY" -c 'import ctypes, sys, time; ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0); time.sleep(30)' "$n" \
			</dev/null >/dev/null 2>&1 3>&- &
		p=$!
		track "$p"
		# named so before ktop looks
		for ((i = 0; i < 200; i++)); do
			[ "$(cat "/proc/$p/comm" 2>/dev/null)" = "$n" ] && break
			sleep 0.05
		done
		[ "$(cat "/proc/$p/comm")" = "$n" ]
	done
	# the two runs side by side
	sandbox_run "$BATS_TEST_TMPDIR/st.log" "$OUT" -b --csv -n 3 -d 0.3 -o pid,comm,cmdline,syscalls &
	local k1=$!
	sandbox_run "$BATS_TEST_TMPDIR/st2.log" "$OUT.2" -b --json --syscalls -n 2 -d 0.3 -H &
	local k2=$!
	track "$k1" "$k2"
	wait "$k1"
	wait "$k2"
	check strace-sandbox "$BATS_TEST_TMPDIR/st.log" "$OUT" "$OUT.err" /dev/null
	grep -q '$(touch /tmp/x)' "$OUT"
	check strace-sandbox "$BATS_TEST_TMPDIR/st2.log" "$OUT.2" "$OUT.2.err" /dev/null
}
