#!/bin/sh
# bench/cgroups.sh - the per-tick cost of the groups' cgroup files
# (collectors/cgroup/cgfiles.c) with N groups shown (BENCH_GROUPS, default 500).
#
# Root. Makes N cgroups of its own under the v2 hierarchy (and, on a hybrid
# host, the same names in the v1 cpu, memory and pids hierarchies, under its
# own cgroup of each), one sleeping process of its own in each, then runs
# `ktop -b --csv --no-trace --view groups --group-by cgroup` for BENCH_TICKS
# refreshes (default 20, -d 0.1) and reports, from KTOP_STATS:
#   - the collector's own CPU time per refresh and per group read,
#   - the files read (pread) per group read, the opens (once per file: the
#     descriptors stay open), the descriptors held;
#   - ktop's whole CPU time per refresh, and the same run grouped by comm
#     (the same processes, no cgroup read) beside it.
# Everything it made is removed at exit (its processes by pid, then the cgroups).
set -u
cd "$(dirname "$0")/.." || exit 2
N=${BENCH_GROUPS:-500}
TICKS=${BENCH_TICKS:-20}
T=$(mktemp -d) || exit 2
KTOP=./ktop
DIRS=""

die() {
	echo "cgroups bench: $*" >&2
	exit 2
}

. bench/procs.sh

cleanup() {
	pids_kill
	# the processes are reaped: their cgroups are empty
	for d in $DIRS; do
		for c in "$d"/g*; do
			[ -d "$c" ] && rmdir "$c" 2>/dev/null
		done
		rmdir "$d" 2>/dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 2' INT TERM

[ "$(id -u)" = 0 ] || die "needs root (makes cgroups)"
[ -x "$KTOP" ] || die "build ktop first (make ktop)"
if [ -f /sys/fs/cgroup/unified/cgroup.procs ]; then
	V2=/sys/fs/cgroup/unified
elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
	V2=/sys/fs/cgroup
else
	die "no cgroup v2 hierarchy"
fi
name=ktopbench-$$
DIRS="$V2/$name"
mkdir "$V2/$name" || die "cannot make $V2/$name"
# hybrid: the v1 controllers too, under this shell's own cgroup of each
if [ "$V2" = /sys/fs/cgroup/unified ]; then
	for ctl in cpu memory pids; do
		own=$(sed -n "s/^[0-9]*:\([^:]*,\)\{0,1\}$ctl\(,[^:]*\)\{0,1\}:\(.*\)\$/\3/p" /proc/self/cgroup)
		d=/sys/fs/cgroup/$ctl${own%/}/$name
		[ -f "/sys/fs/cgroup/$ctl/cgroup.procs" ] && mkdir "$d" 2>/dev/null && DIRS="$DIRS $d"
	done
fi
i=0
while [ "$i" -lt "$N" ]; do
	targets=""
	for d in $DIRS; do
		mkdir "$d/g$i" || die "cannot make $d/g$i"
		targets="$targets $d/g$i"
	done
	sh -c 'for d in $1; do echo $$ >"$d/cgroup.procs" || exit 1; done; exec sleep 3600' \
		sh "$targets" </dev/null >/dev/null 2>&1 &
	PIDS="$PIDS $!"
	i=$((i + 1))
done
# every process in its cgroups before measuring
sleep 1
moved=$(cat "$V2/$name"/g*/cgroup.procs | wc -l)
[ "$moved" -eq "$N" ] || die "$moved of $N processes moved into their cgroups"

# run KEY: KTOP_STATS of one run grouped by KEY, in $T/KEY.err
run() {
	KTOP_STATS=1 "$KTOP" -b --csv --no-trace --view groups --group-by "$1" -d 0.1 -n "$TICKS" \
		>"$T/$1.csv" 2>"$T/$1.err" </dev/null || die "ktop failed: $(cat "$T/$1.err")"
}
stat_of() { sed -n "s/.* $2=\([0-9.]*\).*/\1/p" "$T/$1.err" | head -1; }

run cgroup
run comm
rows=$(grep -c ",/$name/g" "$T/cgroup.csv")
[ "$rows" -ge "$N" ] || die "ktop wrote $rows rows of the groups, not $N per refresh"
shown=$(awk -F, -v p="/$name/g" 'index($3, p) == 1 && $NF != "" && $(NF - 3) != "" { n++ } END { print n + 0 }' \
	"$T/cgroup.csv")
cg_cpu=$(stat_of cgroup cgres_cpu_s)
greads=$(stat_of cgroup cgres_group_reads)
freads=$(stat_of cgroup cgres_file_reads)
opens=$(stat_of cgroup cgres_opens)
fds=$(stat_of cgroup cgres_fds)
cpu_cg=$(stat_of cgroup cpu_s)
cpu_comm=$(stat_of comm cpu_s)
awk -v n="$N" -v t="$TICKS" -v c="$cg_cpu" -v g="$greads" -v f="$freads" -v o="$opens" \
	-v fd="$fds" -v a="$cpu_cg" -v b="$cpu_comm" -v dirs="$(echo $DIRS | wc -w)" 'BEGIN {
	printf "cgroups bench: %d groups (%d hierarchies), %d refreshes at 0.1 s\n", n, dirs, t
	printf "  collector: %.3f ms CPU per refresh, %.2f us per group read (%d group reads)\n",
		c * 1000 / t, c * 1e6 / g, g
	printf "  files: %.1f preads per group read, %d opens in all (%.1f per group), %d descriptors held\n",
		f / g, o, o / n, fd
	printf "  ktop in all: %.2f ms CPU per refresh grouped by cgroup, %.2f ms by comm\n",
		a * 1000 / t, b * 1000 / t
}'
