# Shared by the stress scripts (sourced): start ktop in the background and
# measure it from outside, from /proc and its own output.

KTOP=${KTOP:-$(cd "$(dirname "$0")/../.." && pwd)/ktop}
INST=/sys/kernel/tracing/instances

# start_batch OUT ARGS...: KTOP_STATS=1 ktop -b --csv ARGS > OUT; sets KP.
# KTOP_WRAP: a command that execs ktop (prlimit ...), the pid stays ktop's.
start_batch() {
	local out=$1
	shift
	KTOP_STATS=1 ${KTOP_WRAP:-} "$KTOP" -b --csv "$@" >"$out" 2>"$out.err" </dev/null &
	KP=$!
}

# fds PID: open descriptors of PID.
fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
# kb PID FIELD: a VmXXX line of /proc/PID/status, in kB.
kb() { awk -v f="$2:" '$1 == f { print $2 }' "/proc/$1/status"; }
# nprocs: processes on the system (the /proc listing).
nprocs() { ls /proc | grep -c '^[0-9]'; }

# wait_ticks OUT N: until OUT (CSV) has N distinct tick times.
wait_ticks() {
	local i
	for ((i = 0; i < 600; i++)); do
		[ "$(cut -d, -f1 "$1" | sed 1d | sort -u | wc -l)" -ge "$2" ] && return 0
		sleep 0.1
	done
	echo "timed out waiting for $2 ticks in $1" >&2
	return 1
}

# ticks_after OUT T: distinct tick times (CSV time column) after T, one per line.
ticks_after() {
	awk -F, -v t="$2" 'NR > 1 && $1 > t { print $1 }' "$1" | sort -u
}

# lateness OUT DELAY [T0 [T1]]: "max_gap_s mean_gap_s late_ticks ticks" of the
# ticks between T0 and T1: the gap between two tick starts is DELAY when ktop
# is on time; a tick is late when its gap exceeds DELAY by more than 10%.
lateness() {
	cut -d, -f1 "$1" | sed 1d | uniq | awk -v d="$2" -v t0="${3:-0}" -v t1="${4:-1e12}" '
		$1 >= t0 && $1 <= t1 { if (prev) { g = $1 - prev; if (g > max) max = g; sum += g; n++; if (g > d * 1.1) late++ } prev = $1 }
		END { printf "%.3f %.3f %d %d\n", max, n ? sum / n : 0, late, n }'
}

# stop PID: SIGTERM, wait; sets RC to its exit status.
stop() {
	kill -TERM "$1" 2>/dev/null
	wait "$1"
	RC=$?
}

# dead_fds PID: its descriptors of /proc/N/... files whose N is gone.
dead_fds() {
	local f t p
	for f in /proc/"$1"/fd/*; do
		t=$(readlink "$f" 2>/dev/null) || continue
		case $t in
		/proc/[0-9]*)
			p=${t#/proc/}
			[ -e "/proc/${p%%/*}" ] || echo "$t"
			;;
		esac
	done
}

# fd_report PID: "FIXED STALE": descriptors that are not per-process /proc
# files (tracing, output, system files: must not grow), and per-process ones
# of processes gone for over two seconds (seen twice, 2 s apart: a process
# that just exited is closed at the next refresh; one still open is a leak).
fd_report() {
	local fixed a b
	fixed=$(for f in /proc/"$1"/fd/*; do readlink "$f"; done 2>/dev/null | grep -vc '^/proc/[0-9]')
	a=$(dead_fds "$1" | sort)
	sleep 2
	b=$(dead_fds "$1" | sort)
	echo "$fixed $(comm -12 <(echo "$a") <(echo "$b") | grep -c .)"
}
# inst_dir PID [-f]: the tracefs instance of ktop PID (tests/instances.bash).
. "$(dirname "${BASH_SOURCE[0]}")/../instances.bash"
