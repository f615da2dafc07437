#!/usr/bin/env bats
# The kernel side in unusual states, on the real kernel (root): tracefs not
# mounted, mounted read-only, an event ktop cannot decode, a CPU going offline
# and online while tracing. The mount states are made in a private mount
# namespace (unshare -m): the machine's own tracefs mount is never changed.
# (Overrun ring buffers: trace.bats, "lost events".)

load helpers/common

INST=/sys/kernel/tracing/instances
CPU1=/sys/devices/system/cpu/cpu1/online

need_root_tracing() {
	[ "$(id -u)" -eq 0 ] || skip "needs root"
	[ -d "$INST" ] || skip_kernel "tracefs is not available"
	need_program unshare util-linux
}

setup() {
	common_setup
}

teardown() {
	# whatever happened, the CPU is back online
	[ -n "${OFFLINED:-}" ] && echo 1 >"$CPU1" 2>/dev/null
	common_teardown
	[ -n "${KPID:-}" ] && rmdir "$(inst_dir $KPID)" 2>/dev/null
	[ -n "${NOBODY_DIR:-}" ] && rm -rf "$NOBODY_DIR"
	return 0
}

# in_ns SCRIPT: sh -c SCRIPT in a private mount namespace, $1 = ktop.
in_ns() {
	unshare -m --propagation private sh -c "$1" _ "$KTOP"
}

@test "tracefs not mounted: root mounts it where it belongs and traces; exit 0" {
	need_root_tracing
	run --separate-stderr in_ns 'umount -l /sys/kernel/tracing && umount -l /sys/kernel/debug 2>/dev/null
		grep -c " tracefs " /proc/self/mounts
		"$1" -b -n 2 -d 0.3 -p 1 || exit $?
		grep " tracefs " /proc/self/mounts'
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; return 1; }
	[ "${lines[0]}" = 0 ]
	[[ "$output" == *"Events/s: "*syscalls* ]]
	[[ "$output" != *"tracing off"* ]]
	[[ "${lines[-1]}" == *" /sys/kernel/tracing tracefs "* ]]
}

# nobody_ktop: a copy of ktop that user nobody can run; sets NOBODY_KTOP.
nobody_ktop() {
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	NOBODY_DIR=$(mktemp -d /tmp/ktop-nobody.XXXXXX)
	chmod 755 "$NOBODY_DIR"
	cp "$KTOP" "$NOBODY_DIR/ktop"
	chmod 755 "$NOBODY_DIR/ktop"
	NOBODY_KTOP="$NOBODY_DIR/ktop"
}

@test "batch without tracing: every format says so once on stderr, in the header's words; exit 0" {
	need_root_tracing
	nobody_ktop
	local fmt flag who words
	for fmt in text csv json; do
		flag=--$fmt
		[ "$fmt" = text ] && flag=-b
		for who in root nobody; do
			if [ "$who" = root ]; then
				run --separate-stderr timeout 20 "$KTOP" -b "$flag" -n 3 -d 0.2 --no-trace
			else
				run --separate-stderr timeout 20 setpriv --reuid=nobody --regid="$(id -gn nobody)" \
					--clear-groups "$NOBODY_KTOP" -b "$flag" -n 3 -d 0.2
			fi
			echo "$fmt, $who: $stderr" >&2
			[ "$status" -eq 0 ]
			[ "$(wc -l <<<"$stderr")" -eq 1 ]
			[[ "$stderr" == "ktop: tracing off: "?* ]]
			words=${stderr#ktop: }
			case $fmt in
			text)
				[ "$(grep -Fxc "Events: $words" <<<"$output")" -eq 3 ] ;;
			json)
				"$PY" -c 'import json, sys
words = sys.argv[1]
for line in sys.stdin:
    assert json.loads(line)["system"]["tracing"] == words, line' "$words" <<<"$output" ;;
			csv)
				# no place for it in the file: stderr alone says it
				[[ "${lines[0]}" == time,interval_s,* ]] ;;
			esac
		done
	done
}

@test "tracefs not mounted, not root: /proc mode that says so, exit 0" {
	need_root_tracing
	nobody_ktop
	run --separate-stderr unshare -m --propagation private sh -c '
		umount -l /sys/kernel/tracing && umount -l /sys/kernel/debug 2>/dev/null
		exec setpriv --reuid=nobody --regid="$(id -gn nobody)" --clear-groups "$1" -b -n 2 -d 0.2' _ "$NOBODY_KTOP"
	[ "$status" -eq 0 ]
	[[ "$stderr" == "ktop: tracing off: tracefs is not mounted"* ]]
	[ "$(grep -c '^Events: tracing off: tracefs is not mounted' <<<"$output")" -eq 2 ]
	grep -q '^ *PID .*COMMAND' <<<"$output"
}

@test "tracefs read-only: a clear message, /proc mode, no instance, exit 0" {
	need_root_tracing
	run --separate-stderr in_ns 'mount --bind /sys/kernel/tracing /sys/kernel/tracing &&
		mount -o remount,bind,ro /sys/kernel/tracing && exec "$1" -b --json -n 2 -d 0.2'
	[ "$status" -eq 0 ]
	[ "$stderr" = "ktop: tracing off: tracefs is mounted read-only at /sys/kernel/tracing" ]
	printf '%s\n' "$output" >"$OUT.json"
	check json-format "$OUT.json" 2 0.1 1
	"$PY" - "$OUT.json" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    o = json.loads(line)
    st = o["system"]["tracing"]
    assert st == "tracing off: tracefs is mounted read-only at /sys/kernel/tracing", st
    assert o["system"].get("syscalls") is None
PY
}

@test "an event whose format cannot be read: named on screen, disabled, the other events count" {
	need_root_tracing
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	# an empty directory over events/signal: signal_generate's format is unreadable
	run --separate-stderr in_ns 'mount --bind "'"$BATS_TEST_TMPDIR/empty"'" /sys/kernel/tracing/events/signal &&
		"$1" -b -n 2 -d 0.3 && "$1" -b --csv -n 2 -d 0.3 -o pid,syscalls,sig_recv,sig_sent,vcsw &&
		"$1" -b --json -n 2 -d 0.3 -o pid'
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; return 1; }
	[ -z "$stderr" ]
	# the system's signal rate unknown too, as the columns: "-", never 0
	grep -q '^Events/s: [0-9]* syscalls, [0-9]* failed, - signals; events missing here: signal:signal_generate; trace clock [a-z0-9_-]*$' <<<"$output"
	grep '^{' <<<"$output" | tail -n 1 | "$PY" -c '
import json, sys
s = json.load(sys.stdin)["system"]
assert s["signals"] is None and s["syscalls"] > 0 and s["syscall_errors"] is not None, s' 
	# CSV: syscalls and switches counted, the signal counts unknown (empty), never 0
	grep '^[0-9.]*,[0-9.]*,[0-9]*,' <<<"$output" >"$OUT.csv"
	awk -F, '$2 != "" { rows++; if ($5 != "" || $6 != "") bad++; if ($4 > 0) sc++; if ($7 != "") sw++ }
		END { exit !(rows > 10 && !bad && sc > 0 && sw > 0) }' "$OUT.csv"
}

@test "a CPU goes offline and online while tracing: ktop goes on, counts what runs there after" {
	need_root_tracing
	[ -w "$CPU1" ] || skip_kernel "cpu1 cannot go offline here"
	[ "$(cat "$CPU1")" = 1 ] || skip_kernel "cpu1 is offline"
	need_program taskset util-linux
	KTOP_STATS=1 "$KTOP" -b --csv -d 0.3 -o pid,comm,syscalls,lost_events >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	KPID=$!
	track "$KPID"
	wait_for_lines "$OUT" 2 10
	OFFLINED=1
	echo 0 >"$CPU1"
	local t
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t"
	wait_tick_after "$OUT" "$(date +%s.%N)"
	echo 1 >"$CPU1"
	OFFLINED=
	# 3000 getppid calls on cpu1, after it came back
	taskset -c 1 "$PY" -c 'import os; [os.getppid() for _ in range(3000)]' </dev/null 3>&- &
	local w=$!
	wait "$w"
	wait_tick_after "$OUT" "$(date +%s.%N)"
	wait_tick_after "$OUT" "$(date +%s.%N)"
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ] || { echo "exit $ST: $(cat "$OUT.err")" >&2; return 1; }
	[ ! -e "$(inst_dir $KPID)" ]
	grep -q ' malformed=0 ' "$OUT.err"
	# refreshes went on while cpu1 was offline
	[ "$(awk -F, -v t="$t" 'NR > 1 && $1 > t { print $1 }' "$OUT" | sort -u | wc -l)" -ge 4 ]
	local n
	n=$(awk -F, -v p="$w" '$3 == p && $5 != "" { s += $5 } END { print s + 0 }' "$OUT")
	echo "syscalls of the pinned process: $n" >&2
	(( n >= 3000 ))
}

@test "pid namespace (unshare -fp --mount-proc): a /proc monitor that says why; no instance made, none left after SIGKILL" {
	need_root_tracing
	run --separate-stderr timeout 20 unshare -fp --mount-proc "$KTOP" -b -n 2 -d 0.2
	[ "$status" -eq 0 ]
	[[ "$output" == *"Events: tracing off: ktop runs in a pid namespace"* ]]
	[[ "$stderr" == "ktop: tracing off: ktop runs in a pid namespace"* ]]
	# Its pid there is 1: an instance would be ktop-1-*, and the host's init
	# would be the pid it keeps out of its events.
	if compgen -G "$INST/ktop-1-*" >/dev/null; then return 1; fi
	if [ -e "$INST/ktop-1" ]; then return 1; fi
	# SIGKILLed inside the namespace: it never traced, so nothing traces on.
	unshare -fp --mount-proc "$KTOP" -b -d 0.2 >/dev/null 2>&1 3>&- &
	local up=$! kp i
	for i in $(seq 50); do kp=$(pgrep -P "$up" -x ktop) && break; sleep 0.1; done
	[ -n "$kp" ]
	sleep 0.5
	kill -KILL "$kp"
	wait "$up" 2>/dev/null || true
	if compgen -G "$INST/ktop-1-*" >/dev/null; then return 1; fi
	if [ -e "$INST/ktop-1" ]; then return 1; fi
}

@test "an instance directory that exists already (same pid and start time) is never reused or removed" {
	need_root_tracing
	# bash makes ktop's instance name before exec'ing ktop: same pid, same start time.
	run --separate-stderr timeout 20 bash -c '
		s=$(sed "s/.*) //" /proc/$$/stat | cut -d" " -f20)
		mkdir "'"$INST"'/ktop-$$-$s" && echo "ktop-$$-$s" >&2
		exec "$1" -b -n 1 -d 0.2' _ "$KTOP"
	local name
	name=$(printf '%s\n' "$stderr" | grep -m1 '^ktop-')
	[ -n "$name" ]
	[ "$status" -eq 0 ]
	[[ "$output" == *"Events: tracing off: cannot create tracefs instance $name: File exists"* ]]
	# Untouched: still there, still as mkdir made it (tracing on, no event enabled).
	[ -d "$INST/$name" ]
	[ "$(cat "$INST/$name/tracing_on")" = 1 ]
	[ -z "$(cat "$INST/$name/set_event")" ]
	rmdir "$INST/$name"
}
