# views.bats's and viewsmachine.bats's common part: the workload with known
# counts (N failed openat, M getppid, K SIGUSR1) in a cgroup made for it.

N=300 M=500 K=40

setup_file() {
	helper_prog tracewl || true
}

setup() {
	common_setup
	TRACEWL="$BATS_FILE_TMPDIR/tracewl"
	CG=
}

teardown() {
	common_teardown
	# the workload is killed: its cgroups are empty and can go
	if [ -n "$CG" ]; then
		[ -d "$CG/moved" ] && rmdir "$CG/moved" 2>/dev/null
		[ -d "$CG" ] && rmdir "$CG" 2>/dev/null
	fi
	return 0
}

need_tracing() {
	[ "$(id -u)" -eq 0 ] || skip "needs root: ktop traces only as root"
	[ -d "$INST" ] || skip_kernel "tracefs is not available (no $INST)"
	need_built "$TRACEWL"
}

# make_cgroup: a cgroup v2 of the test's own (hybrid: under unified), CG its path.
make_cgroup() {
	local root
	if [ -f /sys/fs/cgroup/unified/cgroup.procs ]; then
		root=/sys/fs/cgroup/unified
	elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
		root=/sys/fs/cgroup
	else
		skip_kernel "no cgroup v2 hierarchy"
	fi
	CG="$root/ktoptest-$$-$BATS_TEST_NUMBER.service"
	mkdir "$CG" || skip_kernel "cannot make a cgroup under $root"
	CGNAME=${CG#"$root"}
}

# start_ktop (common.bash) with KTOP_STATS on: its counts on OUT.err at exit.
START_KTOP_STATS=1

# The mix workload in cgroup CG, set up and blocked: WL=(P C).
start_mix() {
	local d=$BATS_TEST_TMPDIR
	mkfifo "$d/gate"
	sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$CG" \
		"$TRACEWL" "$d/ready" "$d/gate" mix "$N" "$M" "$K" >"$d/done" 2>"$d/tracewl.err" </dev/null 3>&- &
	track $!
	wait_for_file "$d/ready" 10 || { cat "$d/tracewl.err" >&2; return 1; }
	read -r -a WL <"$d/ready"
	track "${WL[@]}"
	wait_blocked "${WL[0]}" read
	wait_blocked "${WL[1]}" rt_sigsuspend
}

# Every ktop has written its baseline; release the work, wait until it is
# done and blocked again, and for a tick of every ktop after that; stop them,
# each must exit 0 and have lost no event.
run_work() {
	local i o t stats
	for o in "${OUTS[@]}"; do
		wait_for_lines "$o" 1 10
	done
	sleep 0.4	# a tick after the header: the processes are rows of every ktop
	printf g >"$BATS_TEST_TMPDIR/gate"
	wait_for_file "$BATS_TEST_TMPDIR/done" 10 || { cat "$BATS_TEST_TMPDIR/tracewl.err" >&2; return 1; }
	wait_blocked "${WL[0]}" read
	wait_blocked "${WL[1]}" read
	t=$(date +%s.%N)
	# --syscalls writes only rows that made calls: no line says a tick went by;
	# the views write their totals each tick, and the ticks of all run alike
	for o in "${OUTS[@]}"; do
		[[ "$o" == *procs.csv ]] || wait_tick_after "$o" "$t"
	done
	sleep 1
	for ((i = 0; i < ${#KPIDS[@]}; i++)); do
		kill -TERM "${KPIDS[$i]}"
		wait_exit "${KPIDS[$i]}" 10
		[ "$ST" -eq 0 ] || { echo "ktop ${OUTS[$i]} exit $ST: $(cat "${OUTS[$i]}.err")" >&2; return 1; }
		stats=$(grep '^ktop-stats: ' "${OUTS[$i]}.err")
		[[ "$stats" == *" tracing=1 "* && "$stats" == *" lost=0 "* ]] ||
			{ echo "${OUTS[$i]}: $stats" >&2; return 1; }
	done
}

# ---------------------------------------------------------------- options

# ---------------------------------------------------------------- exactness
