#!/usr/bin/env bats
# Security: a user other than root who can use tracefs sees the events of their
# own processes only; ktop executes nothing, makes no process, and writes only
# in its own tracefs instance and its output (strace of whole runs, with
# processes whose names are shell commands). Without tracefs access: trace.bats,
# "not root".

load helpers/common

INST=/sys/kernel/tracing/instances
STRACE_CALLS='trace=%file,%process,write,pwrite64,writev,pwritev,pwritev2'

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
	[ -d "$INST" ] || skip "tracefs is not available"
}

# Access to tracefs as a tracing group would give it, without changing the
# permissions of this machine's tracefs: user nobody with CAP_DAC_OVERRIDE.
# AS_NOBODY runs a copy of ktop (in NOBODY_DIR, which nobody can read) so.
nobody_ktop() {
	need_root
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	command -v setpriv >/dev/null || skip "no setpriv"
	NOBODY_DIR=$(mktemp -d /tmp/ktop-nobody.XXXXXX)
	chmod 755 "$NOBODY_DIR"
	cp "$KTOP" "$NOBODY_DIR/ktop"
	chmod 755 "$NOBODY_DIR/ktop"
	AS_NOBODY="setpriv --reuid=nobody --regid=$(id -gn nobody) --clear-groups --inh-caps=+dac_override --ambient-caps=+dac_override $NOBODY_DIR/ktop"
}

# busy USER: a python3 of USER making getppid calls for 20 s; BUSY is its pid.
busy() {
	setpriv --reuid="$1" --regid="$(id -gn "$1")" --clear-groups /usr/bin/python3 -c '
import os, time
end = time.time() + 20
while time.time() < end:
    [os.getppid() for _ in range(1000)]
    time.sleep(0.02)' </dev/null >/dev/null 2>&1 3>&- &
	BUSY=$!
	track "$BUSY"
}

@test "not root, with access to tracefs: the user's own processes' events only, rows, totals, --syscalls" {
	nobody_ktop
	local as_nobody=$AS_NOBODY
	busy nobody
	local mine=$BUSY
	busy root
	local roots=$BUSY
	sleep 0.3
	run --separate-stderr timeout 20 $as_nobody -b --csv -n 3 -d 0.4 -o pid,user,syscalls,sig_recv,sig_sent
	[ "$status" -eq 0 ] && [ -z "$stderr" ] || { echo "exit $status: $stderr" >&2; return 1; }
	printf '%s\n' "$output" >"$OUT.csv"
	# tracing is on (the syscall columns), the user's process counted ...
	[ "${lines[0]}" = "time,interval_s,pid,user,syscalls,sig_recv,sig_sent" ]
	awk -F, -v p="$mine" '$3 == p && $2 != "" && $5 > 1000 { n++ } END { exit !(n == 2) }' "$OUT.csv"
	# ... and nothing of another user's: root's busy process, or any other
	awk -F, -v p="$roots" 'NR > 1 && $4 != "nobody" && ($5 > 0 || $6 > 0 || $7 > 0) { print; bad = 1 }
		NR > 1 && $3 == p { seen = 1 } END { exit bad || !seen }' "$OUT.csv"
	# The JSON totals are the user's: the sum of the rows, each interval.
	run --separate-stderr timeout 20 $as_nobody -b --json -n 3 -d 0.4 -o pid,user,syscalls
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT.json"
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
	run --separate-stderr timeout 20 $as_nobody -b --csv --syscalls -n 3 -d 0.4
	[ "$status" -eq 0 ]
	local pids
	pids=$(awk -F, 'NR > 1 { print $3 }' <<<"$output" | sort -u)
	echo "pids with system calls: $pids" >&2
	# the user's busy process, and no process of another user (other processes
	# of nobody may come and go on this machine: the owner of each is checked)
	grep -qx "$mine" <<<"$pids"
	! grep -qx "$roots" <<<"$pids"
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
	sleep 0.3
	# Its row is there (what /proc shows anyone), its event columns empty: not 0, unknown.
	run --separate-stderr timeout 20 $as_nobody -b --csv -n 3 -d 0.4 -p "$roots" -o pid,user,syscalls,syscall_errors,sig_recv,sig_sent
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >&2
	[ "${#lines[@]}" -eq 4 ]
	local l
	for l in "${lines[@]:1}"; do
		[[ "$l" =~ ^[0-9.]+,[0-9.]*,$roots,root,,,,$ ]] || { echo "bad line: $l" >&2; return 1; }
	done
	run --separate-stderr timeout 20 $as_nobody --summary -n 2 -d 0.4 -p "$roots"
	[ "$status" -eq 1 ] && [ -z "$output" ]
	[ "$stderr" = "ktop: --summary: process $roots is uid 0's, not yours: only root sees its events" ]
}

# sandbox_run LOG ARGS...: ktop ARGS under strace -f -y, output in $OUT.
sandbox_run() {
	local log=$1
	shift
	strace -f -y -qq -o "$log" -e "$STRACE_CALLS" "$KTOP" "$@" >"$OUT" 2>"$OUT.err" </dev/null
}

@test "strace: a traced batch run executes nothing and writes only its instance and its output" {
	need_root
	command -v strace >/dev/null || skip "strace is not installed"
	# processes named like commands and paths, should anything ever run or open them
	local n
	for n in '$(touch /tmp/x)' '`id>/tmp/y`' '; rm -rf /' '../../etc/pwn' '|sh'; do
		"$PY" -c 'import ctypes, sys, time; ctypes.CDLL(None).prctl(15, sys.argv[1].encode(), 0, 0, 0); time.sleep(30)' "$n" \
			</dev/null >/dev/null 2>&1 3>&- &
		track $!
	done
	sandbox_run "$BATS_TEST_TMPDIR/st.log" -b --csv -n 3 -d 0.3 -o pid,comm,cmdline,syscalls
	check strace-sandbox "$BATS_TEST_TMPDIR/st.log" "$OUT" "$OUT.err" /dev/null
	grep -q '$(touch /tmp/x)' "$OUT"
	sandbox_run "$BATS_TEST_TMPDIR/st2.log" -b --json --syscalls -n 2 -d 0.3 -H
	check strace-sandbox "$BATS_TEST_TMPDIR/st2.log" "$OUT" "$OUT.err" /dev/null
}
