#!/bin/sh
# bench/run.sh - ktop -b against top -b, per refresh, at 1000 and 5000 idle processes.
#
# For each process count: CPU time per refresh (user+sys from wait4 rusage, the
# difference of a short and a long run so start-up cancels out, median of
# BENCH_REPS runs), syscalls per refresh and per process (strace -f -c, runs
# of -n 3 and -n 13, median of BENCH_SREPS), ktop's descriptors and peak RSS.
# Ends with PASS/FAIL against the targets at the largest count: ktop CPU per
# refresh <= 0.40 x top's, and ktop syscalls per process per refresh <= 1.1;
# and a second line for the disk columns (issue 35): ktop -o with the text
# default columns plus disk_read_bytes,disk_write_bytes (/proc/PID/io for
# every row), CPU per refresh <= 0.40 x top's as well.
# Exit status 1 on FAIL, 2 on error (the idle processes are killed either way).
# Then runs bench/trace.sh (the cost of tracing, see there) and bench/tty.sh
# (bytes per screen refresh against htop and top), then bench/exporter.sh (the
# exporter against prometheus-process-exporter, see there): exit status 1 when
# any part missed a target, else 2 when the tracing or exporter part could not run.
# Last, bench/record.sh: what recording costs against atop -w, how fast a
# replay starts and jumps (1 when it missed a target, 2 when it could not run).
#
# Run from anywhere (make bench calls it as `sh bench/run.sh` after building
# ./ktop). Needs: cc, strace, top (procps-ng). Knobs, for trying things out:
#   BENCH_PROCS="1000 5000"  idle process counts (totals of idle processes)
#   BENCH_REPS=5             CPU repetitions (median)
#   BENCH_SREPS=3            strace repetitions (median)
#   BENCH_SHORT=3 BENCH_LONG=23 BENCH_DELAY=0.1   iterations and delay
#   BENCH_SLONG=13           long run under strace (counts do not vary; top is
#                            slow under strace, this keeps the run < 5 min)
#   BENCH_KEEP=1             keep the raw logs (path printed at the end)
#   BENCH_BASE=PATH          another ktop binary (an older build) measured side
#                            by side as "ktop-base", with the ratio ktop/ktop-base
#                            (also passed to bench/trace.sh)
set -u
cd "$(dirname "$0")/.." || exit 2

PROCS=${BENCH_PROCS:-"1000 5000"}
REPS=${BENCH_REPS:-5}
SREPS=${BENCH_SREPS:-3}
SHORT=${BENCH_SHORT:-3}
LONG=${BENCH_LONG:-23}
SLONG=${BENCH_SLONG:-13}
DELAY=${BENCH_DELAY:-0.1}
CPU_TARGET=0.40
DISK_TARGET=0.40	# ktop with the disk columns, CPU per refresh against top's
# The text default without tracing (man ktop, -o) and the disk columns before comm.
DISK_COLS=pid,user,state,cpu_pct,mem_pct,rss_kb,minflt,majflt,threads,cpu_s,disk_read_bytes,disk_write_bytes,comm
SYS_TARGET=1.1
CC=${CC:-cc}
B=build/bench
KTOP=./ktop

die() {
	echo "bench: $*" >&2
	exit 2
}

[ -x "$KTOP" ] || die "./ktop is not built (make ktop)"
command -v top >/dev/null 2>&1 || die "top not found (apt-get install procps)"
command -v strace >/dev/null 2>&1 || die "strace not found (apt-get install strace)"
top -V 2>/dev/null | grep -q procps || die "top is not procps-ng's"
if [ "$LONG" -le "$SHORT" ] || [ "$SLONG" -le "$SHORT" ]; then
	die "BENCH_LONG and BENCH_SLONG must be larger than BENCH_SHORT"
fi

mkdir -p "$B" || die "cannot create $B"
for p in idle cputime; do
	$CC -std=gnu11 -O2 -Wall -Wextra -o "$B/$p" "bench/$p.c" || die "cannot build $B/$p"
done

# Room for the idle processes.
. bench/procs.sh
max=0
for n in $PROCS; do [ "$n" -gt "$max" ] && max=$n; done
existing=$(nprocs)
idle_room "$max"

T=$(mktemp -d /tmp/ktop-bench.XXXXXX) || die "mktemp failed"
mkdir -p "$T/home"
cleanup() {
	trap '' INT TERM
	idle_kill
	if [ "${BENCH_KEEP:-0}" = 1 ]; then
		echo "bench: raw logs kept in $T" >&2
	else
		rm -rf "$T"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

median() { sort -n | awk '{ a[NR] = $1 } END { if (!NR) print "nan"; else if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }

# The tools: tool_argv TOOL N prints the command line for N iterations. top gets
# its default configuration (an empty HOME) and 512 columns so no line is cut.
TOOLS="top ktop ktopcsv ktopdisk"
BASE=${BENCH_BASE:-}
if [ -n "$BASE" ]; then
	[ -x "$BASE" ] || die "BENCH_BASE=$BASE is not an executable"
	cp "$BASE" "$T/ktop-base" || die "cannot copy $BASE"
	BASE=$T/ktop-base
	TOOLS="$TOOLS ktopbase"
fi
tool_argv() {
	case $1 in
	top) echo "env HOME=$T/home XDG_CONFIG_HOME=$T/home LC_ALL=C top -b -d $DELAY -n $2 -w 512" ;;
	# The /proc monitor against top (--no-trace): tracing's cost is measured
	# by bench/trace.sh. Counted under strace, a tracing ktop would also read
	# the events of strace's own ptrace calls, a feedback loop of strace's.
	ktop) echo "env LC_ALL=C $KTOP -b --no-trace -d $DELAY -n $2" ;;
	ktopcsv) echo "env LC_ALL=C $KTOP -b --no-trace --csv -d $DELAY -n $2" ;;
	ktopdisk) echo "env LC_ALL=C $KTOP -b --no-trace -o $DISK_COLS -d $DELAY -n $2" ;;
	ktopbase) echo "env LC_ALL=C $BASE -b --no-trace -d $DELAY -n $2" ;;
	esac
}

# Check a tool really refreshes: 2 frames for -n 2, each with a row per idle process ($2).
check_frames() {
	tool=$1
	# shellcheck disable=SC2046
	"$B/cputime" -o "$T/frames.$tool" $(tool_argv "$tool" 2) >/dev/null 2>>"$T/stderr" ||
		die "$tool -n 2 failed"
	case $tool in
	top) frames=$(grep -c '^top - ' "$T/frames.$tool") ;;
	ktop | ktopbase | ktopdisk) frames=$(grep -c '^ktop - ' "$T/frames.$tool") ;;
	ktopcsv) frames=$(awk -F, 'NR > 1 { print $1 }' "$T/frames.$tool" | sort -u | wc -l) ;;
	esac
	rows=$(wc -l <"$T/frames.$tool")
	[ "$frames" -eq 2 ] || die "$tool printed $frames frames for -n 2"
	[ "$rows" -ge "$((2 * $2))" ] || die "$tool printed $rows lines for $2 processes"
}

measure_cpu() {	# tool n -> appends "cpu_us maxrss_kb user_us sys_us" to $T/cpu.$procs.$tool.$n
	# shellcheck disable=SC2046
	r=$("$B/cputime" $(tool_argv "$1" "$2") 2>>"$T/stderr") || die "$1 -n $2 failed (see stderr)"
	echo "$r" | awk '{ print $1 + $2, $3, $1, $2 }' >>"$T/cpu.$procs.$1.$2"
}
measure_sys() {	# tool n -> sets $calls, the total syscall count
	# shellcheck disable=SC2046
	strace -f -c -o "$T/strace.$procs.$1.$2" $(tool_argv "$1" "$2") >/dev/null 2>>"$T/stderr" ||
		die "strace $1 -n $2 failed"
	calls=$(awk '$NF == "total" { print $4 }' "$T/strace.$procs.$1.$2")
	[ -n "$calls" ] || die "no total in strace -c output $T/strace.$procs.$1.$2"
}

iters=$((LONG - SHORT))
siters=$((SLONG - SHORT))
label() { case $1 in ktopcsv) echo "ktop --csv" ;; ktopbase) echo "ktop-base" ;; ktopdisk) echo "ktop +disk" ;; *) echo "$1" ;; esac; }
start=$(date +%s)
echo "ktop bench: $(nproc) CPUs, $(uname -r), $(top -V | head -1), ktop $($KTOP -V 2>/dev/null | head -1)"
echo "per refresh = (run of -n LONG minus run of -n $SHORT) / (LONG - $SHORT), -d $DELAY, stdout to /dev/null"
echo "CPU: LONG=$LONG, user+sys from wait4 rusage, median of $REPS runs; user% = user share of the long runs"
echo "syscalls: LONG=$SLONG, strace -f -c, median of $SREPS; per proc = per refresh / processes in /proc"
echo "ktop +disk: ktop -b -o $DISK_COLS"
echo "existing processes: $existing"
echo
printf '%-6s %-11s %7s %15s %17s %14s %6s\n' procs tool nprocs cpu_ms/refresh syscalls/refresh syscalls/proc user%
: >"$T/summary"

for procs in $PROCS; do
	spawn_to "$procs"
	np=$(nprocs)
	for tool in $TOOLS; do check_frames "$tool" "$idle_count"; done

	# CPU: interleave tools and lengths so any drift hits all alike.
	rep=0
	while [ "$rep" -lt "$REPS" ]; do
		for tool in $TOOLS; do
			measure_cpu "$tool" "$SHORT"
			measure_cpu "$tool" "$LONG"
		done
		rep=$((rep + 1))
	done

	# Descriptors and peak RSS of ktop while it runs (after a few refreshes).
	for tool in ktop ktopcsv ktopdisk; do
		# shellcheck disable=SC2046
		env $(tool_argv "$tool" 40) >/dev/null 2>>"$T/stderr" &
		kp=$!
		sleep 1.5
		fds=$(find "/proc/$kp/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
		fstat=$(find "/proc/$kp/fd" -mindepth 1 -maxdepth 1 -lname '/proc/*/stat' 2>/dev/null | wc -l)
		fstatus=$(find "/proc/$kp/fd" -mindepth 1 -maxdepth 1 -lname '/proc/*/status' 2>/dev/null | wc -l)
		fio=$(find "/proc/$kp/fd" -mindepth 1 -maxdepth 1 -lname '/proc/*/io' 2>/dev/null | wc -l)
		hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$kp/status" 2>/dev/null)
		npnow=$(nprocs)
		wait "$kp"
		echo "$tool $fds $fstat $fstatus $fio ${hwm:-0} $npnow" >>"$T/fds.$procs"
	done

	np2=$(nprocs)
	np=$(((np + np2) / 2))
	for tool in $TOOLS; do
		c_s=$(cut -d' ' -f1 "$T/cpu.$procs.$tool.$SHORT" | median)
		c_l=$(cut -d' ' -f1 "$T/cpu.$procs.$tool.$LONG" | median)
		cpu_ms=$(calc '%.2f' "($c_l - $c_s) / $iters / 1000")
		# The kernel splits user and sys by tick samples: a share, not exact.
		usr=$(awk '$1 > 0 { print 100 * $3 / $1 }' "$T/cpu.$procs.$tool.$LONG" | median)
		rss=$(cut -d' ' -f2 "$T/cpu.$procs.$tool.$LONG" | sort -n | tail -1)
		# Median of SREPS differences: processes that other jobs start and end
		# during a run add opens and closes to one run but not the other.
		: >"$T/sys.$procs.$tool"
		rep=0
		while [ "$rep" -lt "$SREPS" ]; do
			measure_sys "$tool" "$SHORT"
			s_s=$calls
			measure_sys "$tool" "$SLONG"
			echo "$((calls - s_s))" >>"$T/sys.$procs.$tool"
			rep=$((rep + 1))
		done
		d=$(median <"$T/sys.$procs.$tool")
		sys=$(calc '%.0f' "$d / $siters")
		per=$(calc '%.3f' "$d / $siters / $np")
		printf '%-6s %-11s %7s %15s %17s %14s %5.0f%%\n' "$procs" "$(label "$tool")" "$np" \
			"$cpu_ms" "$sys" "$per" "$usr"
		echo "$procs $tool $cpu_ms $sys $per $rss" >>"$T/summary"
	done
	# Ratios against top.
	awk -v p="$procs" '$1 == p { c[$2] = $3; s[$2] = $4 }
		END {
			printf "ratio ktop/top:        cpu %.2f, syscalls %.2f\n", c["ktop"] / c["top"], s["ktop"] / s["top"]
			printf "ratio ktop --csv/top:  cpu %.2f, syscalls %.2f\n", c["ktopcsv"] / c["top"], s["ktopcsv"] / s["top"]
			printf "ratio ktop +disk/top:  cpu %.2f, syscalls %.2f\n", c["ktopdisk"] / c["top"], s["ktopdisk"] / s["top"]
			if (c["ktopbase"] > 0)
				printf "ratio ktop/ktop-base:  cpu %.2f, syscalls %.2f\n", c["ktop"] / c["ktopbase"], s["ktop"] / s["ktopbase"]
		}' "$T/summary"
	awk -v p="$procs" '$1 == p { r[$2] = $6 } END {
			printf "peak RSS (ru_maxrss): top %d KiB, ktop %d KiB, ktop --csv %d KiB, ktop +disk %d KiB\n",
				r["top"], r["ktop"], r["ktopcsv"], r["ktopdisk"] }' "$T/summary"
	while read -r tool fds fstat fstatus fio hwm npnow; do
		printf '%s: %s open descriptors (%s stat, %s status, %s io) with %s processes, VmHWM %s KiB\n' \
			"$(label "$tool")" "$fds" "$fstat" "$fstatus" "$fio" "$npnow" "$hwm"
	done <"$T/fds.$procs"
	echo
done

# Verdict at the largest count.
verdict=$(awk -v p="$max" -v ct="$CPU_TARGET" -v st="$SYS_TARGET" '$1 == p { c[$2] = $3; s[$2] = $5 }
	END {
		r = c["ktop"] / c["top"]
		ok = (r <= ct && s["ktop"] <= st)
		printf "%s: at %d processes ktop cpu/refresh = %.2f x top (target <= %.2f: %s), syscalls/proc = %.3f (target <= %.1f: %s)\n",
			ok ? "PASS" : "FAIL", p, r, ct, r <= ct ? "ok" : "missed", s["ktop"], st, s["ktop"] <= st ? "ok" : "missed"
	}' "$T/summary")
# The disk columns (issue 35): /proc/PID/io beside stat for every row.
dverdict=$(awk -v p="$max" -v ct="$DISK_TARGET" '$1 == p { c[$2] = $3; s[$2] = $5 }
	END {
		r = c["ktopdisk"] / c["top"]
		printf "%s: at %d processes ktop with the disk columns (+disk_read_bytes,disk_write_bytes) cpu/refresh = %.2f x top (target <= %.2f: %s), syscalls/proc = %.3f\n",
			r <= ct ? "PASS" : "FAIL", p, r, ct, r <= ct ? "ok" : "missed", s["ktopdisk"]
	}' "$T/summary")
echo "$verdict"
echo "$dverdict"
echo "bench time: $(($(date +%s) - start)) s"
case $verdict$dverdict in PASS*PASS*) status=0 ;; *) status=1 ;; esac

# Then the cost of tracing (bench/trace.sh), once the idle processes are gone,
# and the bytes a refresh sends to the terminal (bench/tty.sh).
cleanup
trap - EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP
echo
BENCH_BASE=${BENCH_BASE:-} sh bench/trace.sh
tstatus=$?
echo
sh bench/tty.sh
case $? in
1) status=1 ;;
0 | 2) ;;
*) exit 1 ;;
esac
echo
sh bench/exporter.sh
case $? in
0) ;;
1) status=1 ;;
2) [ "$tstatus" = 0 ] && tstatus=2 ;;
*) exit 1 ;;
esac
# What recording costs and how fast a replay starts (bench/record.sh).
echo
sh bench/record.sh
case $? in
0) ;;
1) status=1 ;;
2) [ "$tstatus" = 0 ] && tstatus=2 ;;
*) exit 1 ;;
esac
# 1 when either failed a target, else 2 when the tracing part could not run.
case $tstatus in
0 | 1 | 2) ;;
*) exit "$tstatus" ;;	# interrupted
esac
[ "$status" = 1 ] || [ "$tstatus" = 1 ] && exit 1
exit "$tstatus"
