# bench/procs.sh - sourced by the benchmarks: the processes they start, and
# exactly those ended. N idle processes (bench/idle.c, built as $B/idle), and
# others listed in PIDS by the script. The sourcing script sets T (its
# temporary directory) and die(), and calls pids_kill and idle_kill on exit.

IDLE_PARENTS=""
idle_count=0
PIDS=""

# pids_kill: SIGTERM to every pid in PIDS, each waited for; PIDS empty again.
pids_kill() {
	for p in $PIDS; do
		kill -TERM "$p" 2>/dev/null
	done
	for p in $PIDS; do
		wait "$p" 2>/dev/null
	done
	PIDS=""
}

# nprocs: the processes there are.
nprocs() { find /proc -mindepth 1 -maxdepth 1 -name '[0-9]*' 2>/dev/null | wc -l; }

# idle_room MAX: die unless the kernel (and, not root, ulimit -u) has room
# for MAX more processes beside the ones there are.
idle_room() {
	need=$(($(nprocs) + $1 + 500))
	pid_max=$(cat /proc/sys/kernel/pid_max)
	threads_max=$(cat /proc/sys/kernel/threads-max)
	[ "$pid_max" -ge "$need" ] || die "kernel.pid_max=$pid_max < $need needed"
	[ "$threads_max" -ge "$need" ] || die "kernel.threads-max=$threads_max < $need needed"
	nproc_lim=$(awk '/^Max processes/ { print $3 }' /proc/self/limits)
	if [ "$nproc_lim" != unlimited ] && [ "$(id -u)" != 0 ] && [ "$nproc_lim" -lt "$need" ]; then
		die "ulimit -u is $nproc_lim < $need needed"
	fi
}

# spawn_to N: start idle processes until there are N of them in all.
spawn_to() {
	more=$(($1 - idle_count))
	[ "$more" -gt 0 ] || return 0
	file="$T/idle.$1.pids"
	"$B/idle" "$more" "$file" &
	par=$!
	IDLE_PARENTS="$IDLE_PARENTS $par:$file"
	i=0
	while [ ! -f "$file" ]; do
		kill -0 "$par" 2>/dev/null || die "idle helper failed to start $more processes"
		i=$((i + 1))
		[ "$i" -lt 1200 ] || die "idle helper did not report its processes in 60 s"
		sleep 0.05
	done
	got=$(wc -l <"$file")
	[ "$got" -eq "$more" ] || die "idle helper started $got processes, not $more"
	idle_count=$1
	sleep 0.5	# let the children reach pause()
}

# idle_kill: the children listed by each idle helper that are still its
# children (a pid cannot be reused before its parent reaps it), then the
# helper itself, which kills and reaps its own children.
idle_kill() {
	for ip in $IDLE_PARENTS; do
		par=${ip%%:*}
		file=${ip#*:}
		if [ -r "/proc/$par/cmdline" ] && tr '\0' ' ' <"/proc/$par/cmdline" | grep -q "bench/idle "; then
			if [ -f "$file" ]; then
				kids=$(awk -v par="$par" '{
					f = "/proc/" $1 "/stat"; line = ""
					if ((getline line < f) > 0) {
						sub(/.*\) /, "", line); split(line, a, " ")
						if (a[2] == par) print $1
					}
					close(f)
				}' "$file")
				# shellcheck disable=SC2086
				[ -n "$kids" ] && kill -KILL $kids 2>/dev/null
			fi
			kill -TERM "$par" 2>/dev/null
			wait "$par" 2>/dev/null
		fi
	done
	IDLE_PARENTS=""
	idle_count=0
}
