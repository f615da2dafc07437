#!/bin/sh
# bench/trace.sh - what tracing costs the traced: ktop against strace, perf
# trace, bpftrace and bare ftrace, on a system-call flood on every CPU.
#
# Workloads (bench/flood.c, built into build/bench/flood): one process per CPU,
# each pinned to its CPU, all started together, looping for BENCH_TSECS s:
#   getppid  one getppid() per iteration (like `perf bench syscall basic`);
#   open     open + read + close of a small file in /dev/shm (tmpfs);
#   getppid1 the getppid loop in one process only, a CPU left for the tracer
#            (ktop, bpftrace and ftrace with ktop's events; no target).
#   pingpong pairs of processes on two CPUs passing a byte over pipes: a
#            context switch flood, the worst case for the scheduler events
#            (the state split's sched_switch, sched_wakeup); ns per round
#            trip. Tracers: ktop, ftrace with ktop's events, bpftrace doing
#            runqlat (bcc's logic: wakeup -> switch-in histogram), perf sched
#            record.
#   tcp64    TCP on 127.0.0.1, one connection per CPU, its sender and
#            receiver on two CPUs (so each CPU sends and receives), 64-byte
#            send()s (TCP_NODELAY) and recv()s of at most 64 bytes: a small
#            message flood, two sock events a message (sock_send_length,
#            sock_recv_length); ns per message. Tracers: ktop, ftrace with
#            ktop's events, bpftrace summing the same bytes per pid from
#            the same two tracepoints.
# --latency (ktop-lat and its anchors) runs on the getppid flood only.
# ns = CPU time per iteration (the sum of the loop times / all iterations).
#
# Each traced run comes between two untraced runs (untraced, traced, untraced,
# traced, ...); ratio = traced ns / the mean of the two, median over the
# repetitions. Before a run the script waits for other system-wide tracers
# (a tracefs instance or a bpftrace/perf process that is not ours: another
# ktop, a test suite) to end, and a run during which one appeared is done
# again, up to 3 times. Tracers:
#   ktop       ./ktop -b -d 1 >/dev/null, system-wide, default columns, KTOP_STATS=1,
#              LC_ALL=C (as in bench/run.sh); a copy of ./ktop, so that a build
#              during the run does not change what is measured
#   ktop-nofl  the same with --flight 0: what the flight recorder's keeping of
#              pages costs, the traced and ktop (getppid, getppid1)
#   bpftrace   tracepoint:raw_syscalls:sys_enter { @[pid, args->id] = count(); }
#              (pingpong: runqlat; tcp64: the bytes of sock_send_length and
#              sock_recv_length summed per pid, as ktop counts them)
#   ftrace     our own tracefs instance, raw_syscalls sys_enter + sys_exit, no reader
#   ftrace-exit  the same with sys_exit only (what ktop enables for syscalls)
#   ftrace-ktop  the same with the events ktop enables (read from its instance
#                during its first run; KTOP_EVENTS before one), no reader:
#                what ktop costs the traced before it reads anything; with
#                ktop's instance settings (trace_clock, sub-buffer and buffer size,
#                read from ktop's instance during its first run), so that it
#                differs from ktop by the reader alone
#   ftrace-ktop-dflt  ktop's events with the instance's defaults (local clock,
#                4 KiB sub-buffers): what ktop's settings cost (information)
#   perf       perf trace -s -- flood   (the flood only)
#   perf-sched perf sched record -- flood (pingpong only)
#   strace     strace -c -f -- flood    (the flood only)
# and for --latency (getppid only):
#   ktop-lat     ./ktop -b -d 1 --latency (the same copy, the same way as ktop)
#   ftrace-lat   ftrace-ktop's events plus raw_syscalls:sys_enter, no reader:
#                what --latency costs the traced before it reads anything
#   bpftrace-lat a per-syscall latency histogram in the kernel: sys_enter
#                stores nsecs per thread, sys_exit adds hist(nsecs - start)
#                keyed by the syscall id and deletes the start
#   strace-w     strace -c -w -f -- flood (strace's per-syscall times)
# During ktop's runs: its CPU seconds, events decoded and lost (KTOP_STATS=1),
# and the kernel's overrun + dropped counts of its instance, read before it
# stops (ktop-lat's too). Start-up: `ktop -b -n 1` with stdout on a pipe, the time to the first
# byte, to the first process row and to the exit, median of BENCH_TFIRST runs.
#
# Ends with a PASS/FAIL line per target; exit status 0 when all pass, 1 when
# one fails, 2 when the benchmark could not run (not root, no tracefs, no
# strace or cc, ktop not built). bpftrace or perf missing (or not working on
# this kernel) skips that tracer. Needs root. Takes about 5 minutes.
#
# Everything started here is killed by pid on exit, Ctrl-C or SIGTERM; our
# tracefs instance is removed and so is the instance of any ktop started here.
# Knobs:
#   BENCH_TSECS=1        length of each flood run, seconds
#   BENCH_TREPS=5        pairs per tracer and workload (median)
#   BENCH_TSLOW_REPS=3   pairs for strace and perf trace (100x+ slower; the
#                        ratio is not close to any target)
#   BENCH_TFIRST=9       start-up runs (median)
#   BENCH_TTOOLS="ktop ktop-nofl bpftrace ftrace ftrace-exit ftrace-ktop ftrace-ktop-dflt perf perf-sched strace
#                 ktop-lat ftrace-lat bpftrace-lat strace-w"
#                        the tracers (a subset runs; a target whose
#                        measurements are missing says SKIP)
#   BENCH_TWORKLOADS="getppid open getppid1 pingpong tcp64"
#   BENCH_TQUIET=90      seconds in all to wait for other tracers to finish
#   BENCH_KEEP=1         keep the raw logs (path printed at the end)
#   BENCH_BASE=PATH      another ktop binary (an older build), measured side by
#                        side as the tracer "ktop-base" (same command line)
set -u
cd "$(dirname "$0")/.." || exit 2

SECS=${BENCH_TSECS:-1}
REPS=${BENCH_TREPS:-5}
SLOW_REPS=${BENCH_TSLOW_REPS:-3}
FIRST_REPS=${BENCH_TFIRST:-9}
TOOLS=${BENCH_TTOOLS:-"ktop ktop-nofl bpftrace ftrace ftrace-exit ftrace-ktop ftrace-ktop-dflt perf perf-sched strace ktop-lat ftrace-lat bpftrace-lat strace-w"}
WORKLOADS=${BENCH_TWORKLOADS:-"getppid open getppid1 pingpong tcp64"}
ONE_CPU_TOOLS="ktop ktop-nofl ktop-base bpftrace ftrace-ktop ftrace-ktop-dflt"	# the tracers measured on getppid1
PINGPONG_TOOLS="ktop ktop-base bpftrace ftrace-ktop ftrace-ktop-dflt perf-sched"	# and on pingpong
TCP_TOOLS="ktop ktop-base bpftrace ftrace-ktop ftrace-ktop-dflt"	# and on tcp64
LAT_TOOLS="ktop-lat ftrace-lat bpftrace-lat strace-w"	# measured on getppid only
FLIGHT_TOOLS="ktop-nofl"	# measured on getppid and getppid1 only
FLIGHT_EPS=0.05		# the flight recorder: the traced's ratio at most +this over ktop --flight 0's
FLIGHT_CPU=1.05		# and ktop's CPU per event at most this times --flight 0's
PINGPONG_EPS=0.05	# ktop on pingpong: at most its events with no reader + this
TCP_EPS=0.05		# ktop on tcp64: at most its events with no reader + this
LAT_EPS=0.05		# ktop --latency on getppid: at most its events with no reader + this
FAR=10			# "far below": ktop-lat's added cost at most 1/FAR of perf trace's, strace -w's
FLOOD_TARGET=3.0	# ktop ratio on the getppid flood; and no worse than bpftrace
MIXED_TARGET=1.35	# ktop ratio on open/read/close
EPS_TARGET=10000000	# events decoded per second of ktop CPU
FIRST_TARGET=50		# ms to the first line on stdout
CC=${CC:-cc}
B=build/bench
TRACEFS=/sys/kernel/tracing
# The events ktop enables by default (collectors/trace/counting.c, blockev.c), for a
# floor measured before any ktop run: the floors take the set ktop's instance
# had (events_of), so that they follow ktop's defaults and what this kernel has.
KTOP_EVENTS="raw_syscalls/sys_exit syscalls/sys_enter_exit syscalls/sys_enter_exit_group
sched/sched_switch task/task_newtask sched/sched_process_exec sched/sched_process_exit
signal/signal_generate cgroup/cgroup_attach_task task/task_rename sched/sched_wakeup
sched/sched_wakeup_new sock/sock_send_length sock/sock_recv_length
block/block_rq_issue block/block_rq_complete block/block_io_start block/block_rq_requeue"
BPF_COUNT='BEGIN { printf("ready\n"); } tracepoint:raw_syscalls:sys_enter { @[pid, args->id] = count(); }'
# runqlat as bcc does it: runnable from a wakeup or a preemption to the switch-in.
BPF_RUNQLAT='BEGIN { printf("ready\n"); }
tracepoint:sched:sched_wakeup, tracepoint:sched:sched_wakeup_new { @q[args->pid] = nsecs; }
tracepoint:sched:sched_switch {
	if (args->prev_state == 0) { @q[args->prev_pid] = nsecs; }
	$t = @q[args->next_pid];
	if ($t) { @usecs = hist((nsecs - $t) / 1000); delete(@q[args->next_pid]); }
}'
# A per-syscall latency histogram, as --latency keeps one (the start per thread).
BPF_LAT='BEGIN { printf("ready\n"); }
tracepoint:raw_syscalls:sys_enter { @start[tid] = nsecs; }
tracepoint:raw_syscalls:sys_exit /@start[tid]/ {
	@lat[args->id] = hist(nsecs - @start[tid]);
	delete(@start[tid]);
}
END { clear(@start); }'
# The bytes ktop counts per process from the same tracepoints: calls that
# moved bytes (ret > 0), receives without MSG_PEEK (2).
BPF_NET='BEGIN { printf("ready\n"); }
tracepoint:sock:sock_send_length /args->ret > 0/ { @tx[pid] = sum(args->ret); }
tracepoint:sock:sock_recv_length /args->ret > 0 && !(args->flags & 2)/ { @rx[pid] = sum(args->ret); }'
BPF_PROG=$BPF_COUNT

T=""
S=""
PIDS=""		# processes started here and not reaped yet
KTOPS=""	# pids of every ktop started here (their instances are ktop-PID[-...])
RAW=""		# our own tracefs instance, while it exists

die() {
	echo "trace bench: $*" >&2
	exit 2
}

# The state letter of a process (empty when gone).
pstate() { sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1; }
alive() {
	s=$(pstate "$1")
	[ -n "$s" ] && [ "$s" != Z ] && [ "$s" != X ]
}
forget() { PIDS=$(echo " $PIDS " | sed "s/ $1 / /; s/^ *//; s/ *$//"); }

# Stop a process of ours: SIGNAL, 2 s, then SIGKILL; reap it.
stop_pid() {
	kill "-$2" "$1" 2>/dev/null
	i=0
	while alive "$1" && [ "$i" -lt 100 ]; do
		sleep 0.02
		i=$((i + 1))
	done
	alive "$1" && kill -KILL "$1" 2>/dev/null
	wait "$1" 2>/dev/null
	forget "$1"
}

# Remove a tracefs instance: stop it, disable its events, rmdir (retried: a
# reader that is closing its files makes rmdir fail with EBUSY for a moment).
remove_instance() {
	d=$TRACEFS/instances/$1
	[ -d "$d" ] || return 0
	echo 0 >"$d/tracing_on" 2>/dev/null
	echo 0 >"$d/events/enable" 2>/dev/null
	i=0
	while [ -d "$d" ] && ! rmdir "$d" 2>/dev/null && [ "$i" -lt 50 ]; do
		sleep 0.05
		i=$((i + 1))
	done
	[ ! -d "$d" ]
}

# The tracefs instances of ktop PID (named ktop-PID, or ktop-PID-START by newer
# builds), one name a line.
instances_of() {
	for d in "$TRACEFS/instances/ktop-$1" "$TRACEFS/instances/ktop-$1"-*; do
		[ -d "$d" ] && echo "${d##*/}"
	done
}

# shellcheck disable=SC2317	# called by the EXIT trap
cleanup() {
	trap '' INT TERM HUP
	# SIGTERM first: ktop removes its instance, flood reaps its processes,
	# bpftrace detaches; SIGKILL after 2 s.
	# strace and perf: their flood first, so they reap it and end by themselves.
	for p in $PIDS; do
		# shellcheck disable=SC2046
		kill -TERM $(cat /proc/"$p"/task/*/children 2>/dev/null) 2>/dev/null
	done
	for p in $PIDS; do
		i=0
		while [ -n "$(cat /proc/"$p"/task/*/children 2>/dev/null)" ] && [ "$i" -lt 50 ]; do
			sleep 0.02
			i=$((i + 1))
		done
		stop_pid "$p" TERM
	done
	[ -n "$RAW" ] && remove_instance "$RAW"
	for k in $KTOPS; do
		for n in $(instances_of "$k"); do
			remove_instance "$n" || echo "trace bench: could not remove instance $n" >&2
		done
	done
	[ -n "$S" ] && rm -rf "$S"
	if [ -n "$T" ]; then
		if [ "${BENCH_KEEP:-0}" = 1 ]; then
			echo "trace bench: raw logs kept in $T" >&2
		else
			rm -rf "$T"
		fi
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# --- can it run? -------------------------------------------------------------
[ "$(id -u)" = 0 ] || die "needs root (tracefs instances, system-wide tracing)"
[ -d "$TRACEFS/instances" ] || die "tracefs is not mounted at $TRACEFS (mount -t tracefs nodev $TRACEFS)"
[ -d "$TRACEFS/events/raw_syscalls/sys_exit" ] || die "no raw_syscalls events in $TRACEFS/events"
[ -x ./ktop ] || die "./ktop is not built (make ktop)"
command -v strace >/dev/null 2>&1 || die "strace not found (apt-get install strace)"
command -v "$CC" >/dev/null 2>&1 || die "$CC not found"
mkdir -p "$B" || die "cannot create $B"
$CC -std=gnu11 -O2 -Wall -Wextra -o "$B/flood" bench/flood.c || die "cannot build $B/flood"
T=$(mktemp -d /tmp/ktop-trace-bench.XXXXXX) || die "mktemp failed"
S=$(mktemp -d /dev/shm/ktop-trace-bench.XXXXXX) || die "mktemp in /dev/shm failed"
# A copy: another build of ./ktop during the run must not change what is measured.
cp ./ktop "$T/ktop" || die "cannot copy ./ktop"
KTOP=$T/ktop
KTOP_BASE=""
if [ -n "${BENCH_BASE:-}" ]; then
	[ -x "$BENCH_BASE" ] || die "BENCH_BASE=$BENCH_BASE is not an executable"
	cp "$BENCH_BASE" "$T/ktop-base" || die "cannot copy $BENCH_BASE"
	KTOP_BASE=$T/ktop-base
	case " $TOOLS " in
	*" ktop-base "*) ;;
	*" ktop "*) TOOLS=$(echo " $TOOLS " | sed 's/ ktop / ktop ktop-base /; s/^ *//; s/ *$//') ;;
	*) TOOLS="ktop-base $TOOLS" ;;
	esac
fi
FLOOD=$B/flood
NCPU=$(nproc)

# Run a command of ours to the end in the background (so a signal is handled
# at once), stdout to $1. Returns its exit status.
run() {
	out=$1
	shift
	"$@" >"$out" 2>>"$T/stderr" &
	rp=$!
	PIDS="$PIDS $rp"
	wait "$rp"
	rc=$?
	forget "$rp"
	return "$rc"
}

# Another tracer that may trace our flood: a tracefs instance that is not
# ours (another ktop), a bpftrace or perf process (strace traces only its own
# tracees). foreign_lines prints their names, one a line; foreign on one line.
foreign_lines() {
	for d in "$TRACEFS"/instances/*; do
		[ -d "$d" ] || continue
		n=${d##*/}
		[ "$n" = "$RAW" ] && continue
		p=${n#ktop-}
		case " $PIDS " in *" ${p%%-*} "*) continue ;; esac
		echo "$n"
	done
	for d in /proc/[0-9]*; do
		{ read -r c <"$d/comm"; } 2>/dev/null || continue
		case $c in
		bpftrace | perf)
			case " $PIDS " in *" ${d#/proc/} "*) continue ;; esac
			echo "$c:${d#/proc/}"
			;;
		esac
	done
}
foreign() { foreign_lines | tr '\n' ' ' | sed 's/ $//'; }
# Wait until no other tracer runs: at most 30 s at a time and QUIET_BUDGET s
# in all, so that a busy machine makes the run longer but not endless.
QUIET_BUDGET=${BENCH_TQUIET:-90}
waited=0
quiet_wait() {
	i=0
	while [ -n "$(foreign)" ] && [ "$i" -lt 120 ] && [ "$waited" -lt "$((QUIET_BUDGET * 4))" ]; do
		sleep 0.25
		i=$((i + 1))
		waited=$((waited + 1))
	done
}

# --- the tracers that work here ------------------------------------------------
SKIPPED=""
have() { case " $TOOLS " in *" $1 "*) return 0 ;; esac; return 1; }
drop() {
	SKIPPED="$SKIPPED $1 ($2);"
	TOOLS=$(echo " $TOOLS " | sed "s/ $1 / /; s/^ *//; s/ *$//")
}
start_bpftrace() {	# -> $bp, or returns 1
	: >"$T/bpf.out"
	bpftrace -e "$BPF_PROG" >"$T/bpf.out" 2>>"$T/bpf.err" &
	bp=$!
	PIDS="$PIDS $bp"
	i=0
	while ! grep -q '^ready$' "$T/bpf.out" 2>/dev/null; do
		alive "$bp" || { wait "$bp"; forget "$bp"; return 1; }
		i=$((i + 1))
		[ "$i" -lt 750 ] || { stop_pid "$bp" KILL; return 1; }
		sleep 0.02
	done
	return 0
}
# check_bpftrace TOOL PROGRAM: drop TOOL unless bpftrace runs PROGRAM here.
check_bpftrace() {
	have "$1" || return 0
	BPF_PROG=$2
	if ! command -v bpftrace >/dev/null 2>&1; then
		drop "$1" "not installed"
	elif ! start_bpftrace; then
		drop "$1" "does not start here: $(grep -v RLIMIT_MEMLOCK "$T/bpf.err" | tail -1)"
	else
		stop_pid "$bp" TERM
	fi
}
check_bpftrace bpftrace "$BPF_COUNT"
# tcp64 needs the sock events (Linux 6.3+), and bpftrace able to attach to them.
case " $WORKLOADS " in
*" tcp64 "*)
	if [ ! -d "$TRACEFS/events/sock/sock_send_length" ] || [ ! -d "$TRACEFS/events/sock/sock_recv_length" ]; then
		SKIPPED="$SKIPPED tcp64 (no sock:sock_send_length/sock_recv_length events: Linux 6.3+);"
		WORKLOADS=$(echo " $WORKLOADS " | sed 's/ tcp64 / /; s/^ *//; s/ *$//')
	elif have bpftrace; then
		BPF_PROG=$BPF_NET
		if start_bpftrace; then
			stop_pid "$bp" TERM
		else
			SKIPPED="$SKIPPED bpftrace on tcp64 (does not attach to the sock events: $(grep -v RLIMIT_MEMLOCK "$T/bpf.err" | tail -1));"
			TCP_TOOLS=$(echo " $TCP_TOOLS " | sed 's/ bpftrace / /; s/^ *//; s/ *$//')
		fi
	fi
	;;
esac
check_bpftrace bpftrace-lat "$BPF_LAT"
if have perf; then
	if ! command -v perf >/dev/null 2>&1; then
		drop perf "not installed"
	elif ! perf trace -s -o "$T/perf.check" -- true >/dev/null 2>>"$T/perf.err"; then
		drop perf "perf trace does not work here: $(tail -1 "$T/perf.err")"
	fi
fi
if have perf-sched; then
	if ! command -v perf >/dev/null 2>&1; then
		drop perf-sched "perf not installed"
	elif ! perf sched record -o "$T/perf-sched.check" -- true >/dev/null 2>>"$T/perf.err"; then
		drop perf-sched "perf sched record does not work here: $(tail -1 "$T/perf.err")"
	fi
	rm -f "$T/perf-sched.check"
fi

# --- one flood, traced or not ------------------------------------------------
flood_args() {
	case $1 in
	getppid) echo "getppid $SECS" ;;
	open) echo "open $SECS $S" ;;
	getppid1) echo "getppid $SECS 1" ;;
	pingpong) echo "pingpong $SECS" ;;
	tcp64) echo "tcp64 $SECS" ;;
	esac
}
# ns of the last flood, from its output file $1; its iterations in $calls.
parse_flood() {
	ns=$(sed -n 's/^ns=\([0-9.]*\) .*/\1/p' "$1")
	calls=$(sed -n 's/.* calls=\([0-9]*\) .*/\1/p' "$1")
	[ -n "$ns" ] && [ -n "$calls" ]
}
# The syscall the workload repeats, by name and by number (for bpftrace's map).
sc_name() { case $1 in getppid*) echo getppid ;; open) echo openat ;; pingpong) echo read ;; esac; }
sc_nr() {
	sed -n "s/^[[:space:]]*\[\([0-9]*\)\] = \"$(sc_name "$1")\",/\1/p" build/gen/syscall_names.c 2>/dev/null | head -1
}
per_iter() { case $1 in getppid*) echo 1 ;; open) echo 3 ;; pingpong) echo 4 ;; tcp64) echo 2 ;; esac; }
# The events of ktop's floor: what TOOL's instance had enabled in its first
# run (ktop or ktop-lat), else KTOP_EVENTS (ktop-lat's: + raw_syscalls:sys_enter).
events_of() {
	if [ -s "$T/events.$1" ]; then
		cat "$T/events.$1"
	else
		echo "$KTOP_EVENTS"
		[ "$1" = ktop-lat ] && echo raw_syscalls/sys_enter
	fi
}

raw_on() {	# system/event ...
	RAW=kbench-$$
	d=$TRACEFS/instances/$RAW
	mkdir "$d" || die "cannot create tracefs instance $d"
	echo 0 >"$d/tracing_on" || die "cannot write $d/tracing_on"
	# A floor of ktop's: its instance's clock, sub-buffer and buffer sizes
	# (read from its instance when it ran), so that the floor differs from
	# ktop by the reader alone.
	if [ -n "${RAW_CFG:-}" ] && [ -s "$RAW_CFG" ]; then
		while read -r f v; do
			echo "$v" >"$d/$f" 2>/dev/null || die "cannot write $v to $d/$f"
		done <"$RAW_CFG"
	fi
	for e in "$@"; do
		echo 1 >"$d/events/$e/enable" || die "cannot enable $e"
	done
	echo 1 >"$d/tracing_on" || die "cannot write $d/tracing_on"
}
raw_off() {
	remove_instance "$RAW" || die "cannot remove tracefs instance $RAW"
	RAW=""
}

# traced TOOL WORKLOAD TAG: one traced flood; sets ns, calls, seen (or "-").
traced() {
	tool=$1
	w=$2
	tag=$3
	out=$T/flood.$tag
	seen=-
	kline=""
	# shellcheck disable=SC2046
	case $tool in
	ktop | ktop-base | ktop-lat | ktop-nofl)
		bin=$KTOP
		[ "$tool" = ktop-base ] && bin=$KTOP_BASE
		set -- -b -d 1
		[ "$tool" = ktop-lat ] && set -- -b -d 1 --latency
		[ "$tool" = ktop-nofl ] && set -- -b -d 1 --flight 0
		KTOP_STATS=1 LC_ALL=C "$bin" "$@" >/dev/null 2>"$T/ktop.$tag" &
		kp=$!
		PIDS="$PIDS $kp"
		KTOPS="$KTOPS $kp"
		i=0
		inst=""
		while [ -z "$inst" ] || [ "$(cat "$TRACEFS/instances/$inst/tracing_on" 2>/dev/null)" != 1 ]; do
			inst=$(instances_of "$kp" | head -n 1)
			alive "$kp" || die "ktop exited before tracing: $(cat "$T/ktop.$tag")"
			i=$((i + 1))
			[ "$i" -lt 250 ] || die "ktop (pid $kp, state $(pstate "$kp"), in $(cat "/proc/$kp/wchan" 2>/dev/null)) did not start tracing in 5 s"
			sleep 0.02
		done
		# The events it enabled, once per tracer (the floors are ftrace with ktop's set).
		[ -e "$T/events.$tool" ] || grep -l '^1' "$TRACEFS/instances/$inst"/events/*/*/enable 2>/dev/null |
			sed "s|^$TRACEFS/instances/$inst/events/||; s|/enable\$||" | sort >"$T/events.$tool"
		# Its instance's settings, for the floors (raw_on): sub-buffer size before the buffer's.
		[ -e "$T/cfg.$tool" ] || {
			c=$TRACEFS/instances/$inst
			printf 'buffer_subbuf_size_kb %s\nbuffer_size_kb %s\ntrace_clock %s\n' \
				"$(cat "$c/buffer_subbuf_size_kb" 2>/dev/null || echo 4)" \
				"$(cat "$c/buffer_size_kb")" \
				"$(sed 's/.*\[\(.*\)\].*/\1/' "$c/trace_clock")" >"$T/cfg.$tool"
			[ -e "$c/buffer_subbuf_size_kb" ] || sed -i '/^buffer_subbuf_size_kb/d' "$T/cfg.$tool"
		}
		sleep 0.3	# its first tick (the /proc scan) out of the way
		# Its CPU time in ns (schedstat) from the flood's start to the tick after it.
		c0=$(cut -d' ' -f1 "/proc/$kp/schedstat")
		run "$out" "$FLOOD" $(flood_args "$w") || die "flood $w under ktop failed"
		sleep 1.1	# a tick reads what is left in the buffers
		c1=$(cut -d' ' -f1 "/proc/$kp/schedstat")
		# The kernel's own count of what ktop's buffers lost.
		klost=$(cat "$TRACEFS/instances/$inst/per_cpu"/cpu*/stats 2>/dev/null |
			awk '/^overrun:/ || /^dropped events:/ { s += $NF } END { print s + 0 }')
		stop_pid "$kp" TERM
		[ -d "$TRACEFS/instances/$inst" ] && echo "trace bench: ktop left its instance $inst" >&2
		remove_instance "$inst"
		st=$(grep '^ktop-stats:' "$T/ktop.$tag") || die "no ktop-stats line from ktop: $(cat "$T/ktop.$tag")"
		echo "$st" | grep -q ' tracing=1 ' || die "ktop ran without tracing: $(cat "$T/ktop.$tag")"
		parse_flood "$out" || die "no result from flood $w"
		ev=$(echo "$st" | sed -n 's/.* events=\([0-9]*\) .*/\1/p')
		cpu=$(echo "$st" | sed -n 's/.* cpu_s=\([0-9.]*\) .*/\1/p')
		lost=$(echo "$st" | sed -n 's/.* lost=\([0-9]*\) .*/\1/p')
		pg=$(echo "$st" | sed -n 's/.* pages=\([0-9]*\) .*/\1/p')
		dr=$(echo "$st" | sed -n 's/.* drains=\([0-9]*\) .*/\1/p')
		# ktop's own cost is summed for this build only.
		[ "$tool" != ktop-base ] &&
			kline="$w $tool $cpu $ev $lost $klost $calls $(awk "BEGIN { print ($c1 - $c0) / 1e9 }") ${pg:-0} ${dr:--}"
		;;
	bpftrace)
		BPF_PROG=$BPF_COUNT
		[ "$w" = pingpong ] && BPF_PROG=$BPF_RUNQLAT
		[ "$w" = tcp64 ] && BPF_PROG=$BPF_NET
		start_bpftrace || die "bpftrace did not start: $(tail -1 "$T/bpf.err")"
		run "$out" "$FLOOD" $(flood_args "$w") || die "flood $w under bpftrace failed"
		stop_pid "$bp" TERM
		nr=$(sc_nr "$w")
		# tcp64: the bytes it summed for the flood's processes, both ways, in
		# 128-byte units (a message sent and received): / messages = 1 when exact.
		[ "$w" = tcp64 ] && nr="" && seen=$(sed -n 's/^@[tr]x\[\([0-9]*\)\]: \([0-9]*\)$/\1 \2/p' "$T/bpf.out" |
			awk -v pl="$(sed -n 's/.* pids=\([0-9,]*\).*/\1/p' "$out")" '
				BEGIN { n = split(pl, a, ","); for (i = 1; i <= n; i++) f[a[i]] = 1 }
				$1 in f { s += $2 } END { print s / 128 }')
		[ -n "$nr" ] && seen=$(sed -n 's/^@\[[0-9]*, \([0-9]*\)\]: \([0-9]*\)$/\1 \2/p' "$T/bpf.out" |
			awk -v nr="$nr" '$1 == nr { s += $2 } END { print s + 0 }')
		;;
	bpftrace-lat)
		BPF_PROG=$BPF_LAT
		start_bpftrace || die "bpftrace did not start: $(tail -1 "$T/bpf.err")"
		run "$out" "$FLOOD" $(flood_args "$w") || die "flood $w under bpftrace failed"
		stop_pid "$bp" TERM
		# The calls in the histogram of the workload's syscall: its buckets' counts.
		nr=$(sc_nr "$w")
		[ -n "$nr" ] && seen=$(awk -v k="@lat[$nr]:" '
			$1 == k { in_ = 1; next }
			in_ && /^\[/ { s += $3; next }
			{ in_ = 0 }
			END { print s + 0 }' "$T/bpf.out")
		;;
	ftrace)
		raw_on raw_syscalls/sys_enter raw_syscalls/sys_exit
		run "$out" "$FLOOD" $(flood_args "$w") || die "flood $w under ftrace failed"
		raw_off
		;;
	ftrace-exit)
		raw_on raw_syscalls/sys_exit
		run "$out" "$FLOOD" $(flood_args "$w") || die "flood $w under ftrace failed"
		raw_off
		;;
	ftrace-ktop)
		# shellcheck disable=SC2046
		RAW_CFG=$T/cfg.ktop raw_on $(events_of ktop)
		run "$out" "$FLOOD" $(flood_args "$w") || die "flood $w under ftrace failed"
		raw_off
		;;
	ftrace-ktop-dflt)
		# shellcheck disable=SC2046
		raw_on $(events_of ktop)
		run "$out" "$FLOOD" $(flood_args "$w") || die "flood $w under ftrace failed"
		raw_off
		;;
	ftrace-lat)
		# shellcheck disable=SC2046
		RAW_CFG=$T/cfg.ktop-lat raw_on $(events_of ktop-lat)
		run "$out" "$FLOOD" $(flood_args "$w") || die "flood $w under ftrace failed"
		raw_off
		;;
	perf-sched)
		run "$out" perf sched record -o "$T/perf-sched.$tag" -- "$FLOOD" $(flood_args "$w") ||
			die "perf sched record flood $w failed"
		rm -f "$T/perf-sched.$tag"
		;;
	perf)
		run "$out" perf trace -s -o "$T/perf.$tag" -- "$FLOOD" $(flood_args "$w") ||
			die "perf trace -s flood $w failed"
		seen=$(awk -v n="$(sc_name "$w")" '$1 == n { s += $2 } END { print s + 0 }' "$T/perf.$tag")
		;;
	strace)
		run "$out" strace -c -f -o "$T/strace.$tag" -- "$FLOOD" $(flood_args "$w") ||
			die "strace -c -f flood $w failed"
		seen=$(awk -v n="$(sc_name "$w")" '$NF == n { print $4 }' "$T/strace.$tag")
		;;
	strace-w)
		run "$out" strace -c -w -f -o "$T/strace.$tag" -- "$FLOOD" $(flood_args "$w") ||
			die "strace -c -w -f flood $w failed"
		seen=$(awk -v n="$(sc_name "$w")" '$NF == n { print $4 }' "$T/strace.$tag")
		;;
	esac
	parse_flood "$out" || die "no result from flood $w under $tool"
	case $seen in -) ;; *) seen=$(awk "BEGIN { printf \"%.3f\", ${seen:-0} / $calls }") ;; esac
	# ktop's seen is events / syscalls made (all its events, not one syscall's).
	case $tool in ktop | ktop-base | ktop-lat | ktop-nofl) seen=$(awk "BEGIN { printf \"%.3f\", $ev / ($calls * $(per_iter "$w")) }") ;; esac
}

untraced() {	# workload -> $ns
	# shellcheck disable=SC2046
	run "$T/flood.base" "$FLOOD" $(flood_args "$1") || die "flood $1 failed"
	parse_flood "$T/flood.base" || die "no result from flood $1"
}
# One traced run between two untraced ones (the one before is the last one's
# after, when nothing came between). Appends to $T/pairs:
# "workload tool rep untraced-before traced untraced-after seen other-tracer".
lastbase=""
pair() {
	tool=$1
	w=$2
	rep=$3
	try=0
	while :; do
		f1=$(foreign)
		if [ -n "$f1" ]; then
			quiet_wait
			lastbase=""
			f1=$(foreign)
		fi
		if [ -n "$lastbase" ]; then
			b1=$lastbase
		else
			untraced "$w"
			b1=$ns
		fi
		traced "$tool" "$w" "$w.$tool.$rep.$try"
		t=$ns
		tseen=$seen
		untraced "$w"
		b2=$ns
		lastbase=$b2
		f2=$(foreign)
		try=$((try + 1))
		[ -z "$f1$f2" ] && break
		lastbase=""
		[ "$try" -lt 3 ] || break
		echo "trace bench: another tracer ran ($f1 $f2), $tool $w again" >&2
	done
	[ -n "$f2" ] && lastbase=""
	fl=0
	[ -n "$f1$f2" ] && fl=1
	[ -n "$kline" ] && echo "$kline" >>"$T/ktopstats"
	echo "$w $tool $rep $b1 $t $b2 $tseen $fl" >>"$T/pairs"
}

label() {	# tool [workload]
	case $1 in
	ktop) echo "ktop -b -d 1" ;;
	ktop-base) echo "ktop-base -b -d 1" ;;
	ktop-lat) echo "ktop --latency" ;;
	ktop-nofl) echo "ktop --flight 0" ;;
	bpftrace)
		case ${2:-} in
		pingpong) echo "bpftrace runqlat" ;;
		tcp64) echo "bpftrace sum(bytes)" ;;
		*) echo "bpftrace count()" ;;
		esac
		;;
	bpftrace-lat) echo "bpftrace lat hist" ;;
	ftrace-lat) echo "ftrace ktop's+enter" ;;
	strace-w) echo "strace -c -w -f" ;;
	ftrace) echo "ftrace enter+exit" ;;
	ftrace-exit) echo "ftrace exit only" ;;
	ftrace-ktop) echo "ftrace ktop's set" ;;
	ftrace-ktop-dflt) echo "ftrace ktop's, dflt" ;;
	perf) echo "perf trace -s" ;;
	perf-sched) echo "perf sched record" ;;
	strace) echo "strace -c -f" ;;
	esac
}

# --- run ----------------------------------------------------------------------
start=$(date +%s)
rev=$(git rev-parse --short HEAD 2>/dev/null) &&
	! git diff --quiet HEAD -- src collectors views Makefile 2>/dev/null && rev="$rev, modified"
echo "ktop trace bench: $NCPU CPUs, $(uname -r), $("$KTOP" -V 2>/dev/null | head -1)${rev:+ ($rev)}"
echo "tools: $(strace -V | head -1 | sed 's/ -- version//')$(command -v perf >/dev/null && echo ", $(perf --version)")$(command -v bpftrace >/dev/null && echo ", $(bpftrace --version)")"
[ -n "$SKIPPED" ] && echo "skipped:$SKIPPED"
echo "flood: $NCPU processes, one pinned per CPU, ${SECS} s a run; ns = CPU time per iteration"
echo "       (getppid1: one process only, the other CPUs left to the tracer;"
echo "       tcp64: a TCP connection per CPU on 127.0.0.1, 64-byte messages, ns per message)"
echo "ratio = traced ns / the mean of the untraced runs just before and after it:"
echo "        median [min-max] of $REPS ($SLOW_REPS for perf, strace); untraced_ns and traced_ns are medians"
echo "seen = the workload's syscall as counted by the tool / as made (ktop: all events decoded / syscalls made;"
echo "       tcp64: bpftrace's bytes of the flood's pids / the bytes sent and received)"
echo "--latency on getppid only: ktop --latency, ftrace with its events (ktop's + raw_syscalls:sys_enter),"
echo "        bpftrace's per-syscall latency histogram, strace -c -w -f; perf trace -s is the getppid row"
echo
: >"$T/pairs"
: >"$T/ktopstats"
for w in $WORKLOADS; do
	lastbase=""
	rep=0
	while [ "$rep" -lt "$REPS" ]; do
		for tool in $TOOLS; do
			case $tool in perf | strace | strace-w) [ "$rep" -lt "$SLOW_REPS" ] || continue ;; esac
			case " $LAT_TOOLS " in *" $tool "*) [ "$w" = getppid ] || continue ;; esac
			case " $FLIGHT_TOOLS " in *" $tool "*) [ "$w" = getppid ] || [ "$w" = getppid1 ] || continue ;; esac
			[ "$w" = getppid1 ] && case " $ONE_CPU_TOOLS " in *" $tool "*) ;; *) continue ;; esac
			[ "$w" = pingpong ] && case " $PINGPONG_TOOLS " in *" $tool "*) ;; *) continue ;; esac
			[ "$w" = tcp64 ] && case " $TCP_TOOLS " in *" $tool "*) ;; *) continue ;; esac
			[ "$w" != pingpong ] && [ "$tool" = perf-sched ] && continue
			pair "$tool" "$w" "$rep"
		done
		rep=$((rep + 1))
	done
done

# Start-up: ktop -b -n 1, stdout on a pipe.
: >"$T/first"
i=0
while [ "$i" -lt "$FIRST_REPS" ]; do
	run "$T/first.one" "$FLOOD" firstline -- env LC_ALL=C "$KTOP" -b -n 1 || die "flood firstline failed"
	cat "$T/first.one" >>"$T/first"
	i=$((i + 1))
done
grep -q 'status=0' "$T/first" || die "ktop -b -n 1 failed: $(cat "$T/first")"

# --- report -------------------------------------------------------------------
med() { sort -g | awk '{ a[NR] = $1 } END { if (!NR) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
printf '%-8s %-19s %12s %12s %8s %15s %6s\n' workload tracer untraced_ns traced_ns ratio "[min-max]" seen
: >"$T/ratios"
for w in $WORKLOADS; do
	for tool in $TOOLS; do
		awk -v w="$w" -v t="$tool" '$1 == w && $2 == t' "$T/pairs" >"$T/sel"
		[ -s "$T/sel" ] || continue
		b=$(awk '{ print ($4 + $6) / 2 }' "$T/sel" | med)
		tr=$(cut -d' ' -f5 "$T/sel" | med)
		awk '{ print 2 * $5 / ($4 + $6) }' "$T/sel" | sort -g >"$T/r"
		r=$(med <"$T/r")
		lo=$(head -1 "$T/r")
		hi=$(tail -1 "$T/r")
		sn=$(awk '$7 != "-" { print $7 }' "$T/sel" | med)
		[ "$sn" = nan ] && sn=-
		nf=$(awk '$8 == 1' "$T/sel" | wc -l)
		printf '%-8s %-19s %12.1f %12.1f %7.2fx %15s %6s%s\n' "$w" "$(label "$tool" "$w")" "$b" "$tr" "$r" \
			"$(printf '[%.2f-%.2f]' "$lo" "$hi")" "$sn" "$([ "$nf" -gt 0 ] && echo " ($nf pairs with another tracer)")"
		echo "$w $tool $r" >>"$T/ratios"
	done
done
echo
ratio_of() { awk -v w="$1" -v t="$2" '$1 == w && $2 == t { print $3 }' "$T/ratios"; }

# ktop's own cost during the floods (ktop and ktop --latency; not ktop-base).
if [ -s "$T/ktopstats" ]; then
	echo "ktop's own cost: whole ktop runs (start, 0.3 s, the ${SECS} s flood, 1.1 s, SIGTERM), from KTOP_STATS=1;"
	echo "medians, lost summed over all runs (ktop's count; the kernel's overrun + dropped of its instance);"
	echo "flood_cpu_s: its CPU from the flood's start to 1.1 s after it (/proc/PID/schedstat), without"
	echo "start-up and exit; events/flood_cpu_s: all its events over that (information, not a target);"
	echo "pages: ring-buffer sub-buffers read (a copy each); drains: wake-ups that read pages (buffer_percent)"
	printf '%-8s %-9s %5s %8s %12s %15s %11s %13s %12s %20s %7s %7s\n' workload tracer runs cpu_s events \
		"events/cpu_s" "lost(ktop)" "lost(kernel)" flood_cpu_s "events/flood_cpu_s" pages drains
fi
: >"$T/ktopsum"
for w in $WORKLOADS; do
	for tool in ktop ktop-nofl ktop-lat; do
		awk -v w="$w" -v t="$tool" '$1 == w && $2 == t' "$T/ktopstats" >"$T/sel"
		[ -s "$T/sel" ] || continue
		cpu=$(cut -d' ' -f3 "$T/sel" | med)
		ev=$(cut -d' ' -f4 "$T/sel" | med)
		eps=$(awk '$3 > 0 { print $4 / $3 }' "$T/sel" | med)
		lost=$(awk '{ s += $5 } END { print s + 0 }' "$T/sel")
		klost=$(awk '{ s += $6 } END { print s + 0 }' "$T/sel")
		n=$(wc -l <"$T/sel")
		fcpu=$(cut -d' ' -f8 "$T/sel" | med)
		feps=$(awk '$8 > 0 { print $4 / $8 }' "$T/sel" | med)
		pg=$(cut -d' ' -f9 "$T/sel" | med)
		dr=$(awk '$10 != "-" { print $10 }' "$T/sel" | med)
		printf '%-8s %-9s %5d %8.3f %11.2fM %14.1fM %11d %13d %12.3f %19.1fM %7s %7s\n' "$w" "$tool" "$n" "$cpu" \
			"$(awk "BEGIN { print $ev / 1e6 }")" "$(awk "BEGIN { print $eps / 1e6 }")" "$lost" "$klost" \
			"$fcpu" "$(awk "BEGIN { print $feps / 1e6 }")" "$pg" "$dr"
		echo "$w $tool $cpu $ev $eps $lost $klost $feps" >>"$T/ktopsum"
	done
done
echo
fm=$(sed -n 's/^first=\([0-9.-]*\) .*/\1/p' "$T/first" | med)
rm_=$(sed -n 's/.* row=\([0-9.-]*\) .*/\1/p' "$T/first" | med)
em=$(sed -n 's/.* exit=\([0-9.-]*\) .*/\1/p' "$T/first" | med)
printf 'start-up, ktop -b -n 1 (median of %d): first line on stdout %.1f ms, first process row %.1f ms, exit %.1f ms\n' \
	"$FIRST_REPS" "$fm" "$rm_" "$em"
echo

# --- verdict --------------------------------------------------------------------
fails=0
checks=0
verdict() {	# ok(0/1) text
	checks=$((checks + 1))
	if [ "$1" = 1 ]; then
		echo "PASS  $2"
	else
		echo "FAIL  $2"
		fails=$((fails + 1))
	fi
}
f2() { if [ -n "$1" ]; then printf %.2f "$1"; else printf -; fi; }
fx() { if [ -n "$1" ]; then printf %.2fx "$1"; else printf -; fi; }	# a ratio
# target A OP B TEXT: a verdict on A OP B (OP: le, lt), or SKIP when either was not
# measured (BENCH_TTOOLS, BENCH_TWORKLOADS, a tracer missing here).
target() {
	if [ -z "$1" ] || [ -z "$3" ]; then
		echo "SKIP  $4 (not measured)"
		return
	fi
	case $2 in
	le) verdict "$(awk "BEGIN { print ($1 <= $3) ? 1 : 0 }")" "$4" ;;
	lt) verdict "$(awk "BEGIN { print ($1 < $3) ? 1 : 0 }")" "$4" ;;
	esac
}
plus() { [ -n "$1" ] && awk "BEGIN { print $1 + $2 }"; }
# What a tracer adds over its floor (ratio - floor's ratio): empty if either is missing.
minus() { [ -n "$1" ] && [ -n "$2" ] && awk "BEGIN { printf \"%+.3f\", $1 - $2 }"; }
# A cost 1/FAR of another's (the part over 1x): empty if not measured.
far() { [ -n "$1" ] && awk "BEGIN { print 1 + ($1 - 1) / $FAR }"; }

# Default mode: the floods.
kr=$(ratio_of getppid ktop)
br=$(ratio_of getppid bpftrace)
target "$kr" le "$FLOOD_TARGET" "getppid flood: ktop $(fx "$kr") (target <= ${FLOOD_TARGET}x)"
target "$kr" le "$br" "getppid flood: ktop $(fx "$kr"), bpftrace $(fx "$br") (target: ktop <= bpftrace)"
mr=$(ratio_of open ktop)
mb=$(ratio_of open bpftrace)
target "$mr" le "$MIXED_TARGET" "open/read/close: ktop $(fx "$mr") (target <= ${MIXED_TARGET}x)"
target "$mr" le "$mb" "open/read/close: ktop $(fx "$mr"), bpftrace $(fx "$mb") (target: ktop <= bpftrace)"
# The reader's own cost: ktop over ftrace with its events and nobody reading.
# ktop-base is put over the same floor (its event set is printed when it differs).
for w in getppid open getppid1 pingpong tcp64; do
	fl=$(ratio_of "$w" ftrace-ktop)
	rk=$(minus "$(ratio_of "$w" ktop)" "$fl")
	rb=$(minus "$(ratio_of "$w" ktop-base)" "$fl")
	[ -n "$rk" ] || continue
	txt="$w: ktop's reader over its floor (ftrace ktop's set $(fx "$fl")): ktop ${rk}x"
	[ -n "$rb" ] && txt="$txt, ktop-base ${rb}x"
	case $w in
	getppid | open)
		if [ -n "$rb" ]; then
			target "$rk" le "$(awk "BEGIN { print $rb / 2 }")" "$txt (target: at most half of ktop-base's)"
		else
			echo "INFO  $txt (the target, half of the base build's, needs BENCH_BASE)"
		fi
		;;
	*) echo "INFO  $txt" ;;
	esac
done
if [ -s "$T/events.ktop-base" ] && [ -s "$T/events.ktop" ] && ! cmp -s "$T/events.ktop" "$T/events.ktop-base"; then
	echo "NOTE  ktop-base's events differ from ktop's (the floor is ktop's):" \
		"$(diff "$T/events.ktop" "$T/events.ktop-base" | sed -n 's/^</ktop only:/p; s/^>/base only:/p' | tr '\n' ' ')"
fi
# The context switch flood.
pr=$(ratio_of pingpong ktop)
fr=$(ratio_of pingpong ftrace-ktop)
target "$pr" le "$(plus "$fr" "$PINGPONG_EPS")" \
	"context switch flood: ktop $(fx "$pr"), its events with no reader $(fx "$fr") (target <= +$PINGPONG_EPS)"
for o in perf-sched bpftrace; do
	orr=$(ratio_of pingpong "$o")
	target "$pr" lt "$orr" "context switch flood: ktop $(fx "$pr"), $(label "$o" pingpong) $(fx "$orr") (target: ktop below)"
done
# The loopback TCP flood of small messages (issue 35).
tr_=$(ratio_of tcp64 ktop)
tf=$(ratio_of tcp64 ftrace-ktop)
target "$tr_" le "$(plus "$tf" "$TCP_EPS")" \
	"TCP flood (tcp64): ktop $(fx "$tr_"), its events with no reader $(fx "$tf") (target <= +$TCP_EPS)"
tb=$(ratio_of tcp64 bpftrace)
target "$tr_" lt "$tb" "TCP flood (tcp64): ktop $(fx "$tr_"), $(label bpftrace tcp64) per pid $(fx "$tb") (target: ktop below)"
tcl=$(awk '$1 == "tcp64" && $2 == "ktop" { print ($6 > $7 ? $6 : $7) }' "$T/ktopsum")
target "$tcl" le 0 "TCP flood (tcp64): lost events under ktop: ${tcl:--} (ktop's count or the kernel's, the larger, over its runs; target 0, default buffers)"
# --latency on the getppid flood.
lr=$(ratio_of getppid ktop-lat)
lf=$(ratio_of getppid ftrace-lat)
target "$lr" le "$(plus "$lf" "$LAT_EPS")" \
	"--latency, getppid flood: ktop $(fx "$lr"), its events with no reader $(fx "$lf") (target <= +$LAT_EPS)"
lb=$(ratio_of getppid bpftrace-lat)
target "$lr" lt "$lb" "--latency, getppid flood: ktop $(fx "$lr"), bpftrace latency histogram $(fx "$lb") (target: ktop below)"
for o in perf strace-w; do
	orr=$(ratio_of getppid "$o")
	target "$lr" le "$(far "$orr")" \
		"--latency, getppid flood: ktop $(fx "$lr"), $(label "$o") $(fx "$orr") (target: far below, ktop's added cost <= 1/$FAR of it)"
done
# Lost events, and ktop's CPU per event.
if [ -s "$T/ktopsum" ]; then
	tl=$(awk '{ s += $6 > $7 ? $6 : $7 } END { print s + 0 }' "$T/ktopsum")
	target "$tl" le 0 "lost events during the floods (ktop, ktop --latency): $tl (target 0, default settings)"
else
	echo "SKIP  lost events during the floods (ktop not measured)"
fi
eps=$(awk '$1 == "getppid" && $2 == "ktop" { print $5 }' "$T/ktopsum")
target "$EPS_TARGET" le "$eps" \
	"events per second of ktop CPU, getppid flood: $(awk "BEGIN { printf \"%.1f\", ${eps:-0} / 1e6 }")M (target >= $((EPS_TARGET / 1000000))M)"
# The flight recorder (on by default): keeping pages against --flight 0, side by side.
for w in getppid getppid1; do
	kr=$(ratio_of "$w" ktop)
	nr=$(ratio_of "$w" ktop-nofl)
	target "$kr" le "$(plus "$nr" "$FLIGHT_EPS")" \
		"flight recorder, $w: the traced under ktop $(fx "$kr"), under ktop --flight 0 $(fx "$nr") (target <= +$FLIGHT_EPS)"
	ke=$(awk -v w="$w" '$1 == w && $2 == "ktop" { print $8 }' "$T/ktopsum")
	ne=$(awk -v w="$w" '$1 == w && $2 == "ktop-nofl" { print $8 }' "$T/ktopsum")
	kc=""
	[ -n "$ke" ] && [ -n "$ne" ] && kc=$(awk "BEGIN { printf \"%.3f\", $ne / $ke }")
	target "$kc" le "$FLIGHT_CPU" \
		"flight recorder, $w: ktop's CPU per event $(fx "$kc") of --flight 0's (target <= ${FLIGHT_CPU}x)"
done
# An older build measured side by side: information, not a target.
if have ktop && have ktop-base; then
	for w in getppid open getppid1 pingpong tcp64; do
		kr=$(ratio_of "$w" ktop)
		br=$(ratio_of "$w" ktop-base)
		[ -n "$kr" ] && [ -n "$br" ] &&
			echo "INFO  $w: ktop $(fx "$kr"), ktop-base $(fx "$br") (ratio $(awk "BEGIN { printf \"%.3f\", $kr / $br }"))"
	done
fi
target "$fm" le "$FIRST_TARGET" "first line of ktop -b -n 1 on stdout: $(f2 "$fm") ms (target <= $FIRST_TARGET ms)"
# None of our instances may be left.
left=""
for k in $KTOPS; do left="$left $(instances_of "$k" | tr '\n' ' ')"; done
left=$(echo "$left" | tr -s ' ' | sed 's/^ *//; s/ *$//')
[ -n "$left" ] && echo "trace bench: instances left behind: $left" >&2
if [ "$fails" -eq 0 ]; then
	echo "PASS: $checks of $checks tracing targets met"
else
	echo "FAIL: $fails of $checks tracing targets missed"
fi
echo "trace bench time: $(($(date +%s) - start)) s"
[ "$fails" -eq 0 ] || exit 1
exit 0
