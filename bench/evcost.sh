#!/bin/sh
# bench/evcost.sh - instructions of ktop's counting path per event, on the
# floods of bench/trace.sh: a number the machine's load does not change
# (callgrind counts instructions; no hardware counter is needed).
#
#   sh bench/evcost.sh [WORKLOAD ...]     (root; default: getppid pingpong open)
#
# For each workload: a tracefs instance of our own with the events ktop
# enables (collectors/trace/counting.c; with "getppid-lat" raw_syscalls:sys_enter
# too, as --latency), 64 KiB sub-buffers and trace_clock BENCH_EC_CLOCK
# (local, ktop's where sched_clock is stable; mono: stamps not mapped), records BENCH_EC_SECS (0.3) s of build/bench/flood; the pages are read
# from trace_pipe_raw once tracing is off (nobody reads during the flood), the
# instance removed after its readers closed. Then build/bench/evcost decodes
# them in BENCH_EC_TICKS (3) intervals under valgrind --tool=callgrind,
# counting only its measured_*() (decode, lifecycle order, call timing, the
# state split, each interval's end). Prints instructions per event and per
# page, and a digest of the counts (the same pages must give the same digest
# in every build: an optimisation that changes it changed a count). Knobs:
# BENCH_EC_SECS, BENCH_EC_TICKS, BENCH_EC_KEEP=DIR (keep the recorded pages
# there), BENCH_EC_PAGES=DIR (decode pages kept before instead of recording),
# BENCH_EC_BIN=PATH (another build's evcost: two builds, the same input),
# BENCH_EC_DRAIN (26: pages of a CPU decoded before the next CPU's, as ktop's
# reader drains; 0: each CPU's tick at once), BENCH_EC_CLOCK (the trace clock;
# its name kept as DIR/trace_clock: evcost maps stamps to CLOCK_MONOTONIC as
# ktop does unless it is mono).
set -u
cd "$(dirname "$0")/.." || exit 2
SECS=${BENCH_EC_SECS:-0.3}
TICKS=${BENCH_EC_TICKS:-3}
TRACEFS=/sys/kernel/tracing
WORKLOADS=${*:-getppid pingpong open}
KTOP_EVENTS="raw_syscalls/sys_exit syscalls/sys_enter_exit syscalls/sys_enter_exit_group
sched/sched_switch task/task_newtask sched/sched_process_exec sched/sched_process_exit
signal/signal_generate cgroup/cgroup_attach_task task/task_rename sched/sched_wakeup
sched/sched_wakeup_new"
INST=""
T=""

die() {
	echo "evcost: $*" >&2
	exit 2
}
# shellcheck disable=SC2317	# the EXIT trap
cleanup() {
	if [ -n "$INST" ] && [ -d "$TRACEFS/instances/$INST" ]; then
		echo 0 >"$TRACEFS/instances/$INST/tracing_on"
		rmdir "$TRACEFS/instances/$INST" || echo "evcost: could not remove instance $INST" >&2
	fi
	[ -n "$T" ] && rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

command -v valgrind >/dev/null 2>&1 || die "valgrind not found (sh tools/deps.sh test)"
make -s build/bench/evcost build/bench/flood || die "build failed"
EVCOST=${BENCH_EC_BIN:-build/bench/evcost}
T=$(mktemp -d /tmp/ktop-evcost.XXXXXX) || die "mktemp failed"

# record DIR WORKLOAD: the pages of one flood.
record() {
	dir=$1
	w=$2
	[ "$(id -u)" = 0 ] || die "recording needs root (or BENCH_EC_PAGES=DIR)"
	[ -d "$TRACEFS/instances" ] || die "no tracefs at $TRACEFS"
	INST=kevcost-$$
	d=$TRACEFS/instances/$INST
	mkdir "$d" || die "cannot create $d"
	echo 0 >"$d/tracing_on"
	echo 64 >"$d/buffer_subbuf_size_kb" 2>/dev/null || die "no buffer_subbuf_size_kb (Linux 6.8+)"
	echo 65536 >"$d/buffer_size_kb" || die "cannot size the buffer"
	echo "${BENCH_EC_CLOCK:-local}" >"$d/trace_clock" || die "no trace_clock ${BENCH_EC_CLOCK:-local}"
	echo "${BENCH_EC_CLOCK:-local}" >"$dir/trace_clock"
	evs=$KTOP_EVENTS
	[ "$w" = getppid-lat ] && evs="$evs raw_syscalls/sys_enter"
	for e in $evs; do
		echo 1 >"$d/events/$e/enable" || die "cannot enable $e"
		cp "$TRACEFS/events/$e/format" "$dir/$(echo "$e" | tr / :)"
	done
	# evcost loads sys_enter's format with "latency" only; it is there either way.
	cp "$TRACEFS/events/raw_syscalls/sys_enter/format" "$dir/raw_syscalls:sys_enter"
	cp "$TRACEFS/events/header_page" "$dir/header_page"
	echo 1 >"$d/tracing_on"
	case $w in
	getppid | getppid-lat) build/bench/flood getppid "$SECS" >/dev/null ;;
	open) build/bench/flood open "$SECS" /dev/shm >/dev/null ;;
	pingpong) build/bench/flood pingpong "$SECS" >/dev/null ;;
	*) die "unknown workload $w" ;;
	esac
	echo 0 >"$d/tracing_on"
	for c in "$d"/per_cpu/cpu*; do
		n=${c##*/cpu}
		# Whole sub-buffers until it is empty (EAGAIN ends dd).
		dd if="$c/trace_pipe_raw" of="$dir/cpu$n.raw" bs=65536 iflag=nonblock status=none 2>/dev/null
		[ -s "$dir/cpu$n.raw" ] || rm -f "$dir/cpu$n.raw"
	done
	cat "$d"/per_cpu/cpu*/stats | awk '/^overrun:/ && $2 > 0 { print "evcost: overrun", $2 > "/dev/stderr" }'
	rmdir "$d" || die "cannot remove $d"
	INST=""
}

printf '%-12s %10s %7s %8s %14s %12s %12s  %s\n' workload events pages threads instructions \
	"instr/event" "instr/page" digest
for w in $WORKLOADS; do
	if [ -n "${BENCH_EC_PAGES:-}" ]; then
		dir=$BENCH_EC_PAGES/$w
		[ -d "$dir" ] || die "no pages kept in $dir"
	else
		dir=$T/$w
		mkdir -p "$dir"
		record "$dir" "$w"
		if [ -n "${BENCH_EC_KEEP:-}" ]; then
			mkdir -p "$BENCH_EC_KEEP/$w" && cp "$dir"/* "$BENCH_EC_KEEP/$w/"
		fi
	fi
	lat=""
	[ "$w" = getppid-lat ] && lat=latency
	valgrind --tool=callgrind --callgrind-out-file="$T/cg.out" --toggle-collect="measured*" \
		"$EVCOST" "$dir" "$TICKS" $lat >"$T/out" 2>"$T/vg" || die "evcost failed: $(tail -3 "$T/vg")"
	ir=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$T/cg.out")
	ev=$(sed -n 's/.*events=\([0-9]*\).*/\1/p' "$T/out")
	pg=$(sed -n 's/.*pages=\([0-9]*\).*/\1/p' "$T/out")
	th=$(sed -n 's/.*threads=\([0-9]*\).*/\1/p' "$T/out")
	dg=$(sed -n 's/.*digest=\([0-9a-f]*\).*/\1/p' "$T/out")
	[ "${ev:-0}" -gt 0 ] || die "no events decoded for $w"
	printf '%-12s %10d %7d %8d %14d %12.1f %12.0f  %s\n' "$w" "$ev" "$pg" "$th" "$ir" \
		"$(awk "BEGIN { print $ir / $ev }")" "$(awk "BEGIN { print $ir / $pg }")" "$dg"
done
