# Shared setup for the CLI tests of the real ktop binary (bats-core 1.8+).
# Every process a test starts is recorded in $BATS_TEST_TMPDIR/pids and killed,
# by pid and only those, in teardown.

bats_require_minimum_version 1.5.0

# KTOP_BIN: another build of the program (tests/stress/massexit.sh: build/ktop-asan).
KTOP="${KTOP_BIN:-$BATS_TEST_DIRNAME/../../ktop}"
HELPERS="$BATS_TEST_DIRNAME/helpers"
if [ -x /usr/bin/python3 ]; then
	PY=/usr/bin/python3
else
	PY=python3
fi

# The tracefs instances (tests/instances.bash names ktop's among them).
INST=/sys/kernel/tracing/instances

common_setup() {
	[ -x "$KTOP" ] || {
		echo "ktop is not built: run 'make ktop'" >&2
		return 1
	}
	PIDFILE="$BATS_TEST_TMPDIR/pids"
	: >"$PIDFILE"
	# pids of the ktops the test started that may trace (ktop_started)
	KTOPS="$BATS_TEST_TMPDIR/ktops"
	: >"$KTOPS"
	OUT="$BATS_TEST_TMPDIR/out"
}

# need_tracing [WHY]: skip the test unless ktop can trace here (root, tracefs).
# WHY says what the test needs root for.
need_tracing() {
	[ "$(id -u)" -eq 0 ] || skip "needs root: ${1:-ktop traces only as root}"
	[ -d "$INST" ] || skip_kernel "tracefs is not available (no $INST)"
}

# ktop_started PID...: ktops that may make tracefs instances; the teardown
# removes those a killed one left (after its pids are reaped: no reader left).
ktop_started() {
	local p
	for p in "$@"; do
		echo "$p" >>"$KTOPS"
	done
}

# no_instance_left PID: the ktop PID (gone) left no instance behind, neither
# its own nor its focus view's. (Other ktops, of other tests running at the
# same time, are not this test's business.)
no_instance_left() {
	local d
	for d in "$(inst_dir "$1")" "$(inst_dir "$1" -f)"; do
		[ ! -e "$d" ] || { echo "instance $d left behind" >&2; return 1; }
	done
}

# Checks on ktop's output and /proc (tests/cli/helpers/ktopcheck.py).
check() {
	"$PY" "$HELPERS/ktopcheck.py" "$@"
}

common_teardown() {
	local p
	[ -f "$PIDFILE" ] || return 0
	while read -r p; do
		[ -n "$p" ] && kill -KILL "$p" 2>/dev/null
	done <"$PIDFILE"
	while read -r p; do
		[ -n "$p" ] && wait "$p" 2>/dev/null
	done <"$PIDFILE"
	# a ktop killed (by the test or just now) leaves its instances
	[ -f "${KTOPS:-}" ] && while read -r p; do
		[ -n "$p" ] || continue
		rmdir "$(inst_dir "$p" -f)" "$(inst_dir "$p")" 2>/dev/null
	done <"$KTOPS"
	return 0
}

# start_ktop OUT ARGS...: ktop ARGS in the background, stdout to OUT, stderr
# to OUT.err; KPID its pid, also added to KPIDS and OUTS (for tests that start
# several). A file that sets START_KTOP_STATS=1 gets KTOP_STATS's counts on
# OUT.err at exit.
start_ktop() {
	local out=$1
	shift
	if [ -n "${START_KTOP_STATS:-}" ]; then
		KTOP_STATS=1 "$KTOP" "$@" >"$out" 2>"$out.err" </dev/null 3>&- &
	else
		"$KTOP" "$@" >"$out" 2>"$out.err" </dev/null 3>&- &
	fi
	KPID=$!
	track "$KPID"
	ktop_started "$KPID"
	KPIDS+=("$KPID")
	OUTS+=("$out")
}

# Remember pids to kill in teardown.
track() {
	local p
	for p in "$@"; do
		echo "$p" >>"$PIDFILE"
	done
}

# wait_for_file FILE [SECONDS]: until FILE exists and is not empty.
wait_for_file() {
	local i n=$(( ${2:-5} * 20 ))
	for ((i = 0; i < n; i++)); do
		[ -s "$1" ] && return 0
		sleep 0.05
	done
	echo "timed out waiting for $1" >&2
	return 1
}

# wait_for_lines FILE N [SECONDS]: until FILE has at least N lines.
wait_for_lines() {
	local i n=$(( ${3:-5} * 20 ))
	for ((i = 0; i < n; i++)); do
		[ -f "$1" ] && [ "$(wc -l <"$1")" -ge "$2" ] && return 0
		sleep 0.05
	done
	echo "timed out waiting for $2 lines in $1" >&2
	return 1
}

# start_workload NAME ARGS...: run helpers/workload.py in the background, wait
# until it is ready; sets WL_PID (its pid, as it reported it).
start_workload() {
	local ready="$BATS_TEST_TMPDIR/ready.$RANDOM$RANDOM"
	"$PY" "$HELPERS/workload.py" "$ready" "$@" </dev/null >"$ready.log" 2>&1 3>&- &
	track $!
	wait_for_file "$ready" 10 || { cat "$ready.log" >&2; return 1; }
	WL_PID=$(cat "$ready")
	WL_READY=$ready
	track "$WL_PID"
}

# start_sleeps N: N "sleep 60" processes; their pids in SLEEP_PIDS (array).
start_sleeps() {
	local i
	SLEEP_PIDS=()
	for ((i = 0; i < $1; i++)); do
		sleep 60 </dev/null >/dev/null 2>&1 3>&- &
		SLEEP_PIDS+=($!)
		echo $! >>"$PIDFILE"
	done
}

# One line, "ktop: " first: the form of every error message.
assert_one_line_error() {
	if [ "${#stderr_lines[@]}" -ne 1 ]; then
		echo "expected one line on stderr, got ${#stderr_lines[@]}: $stderr" >&2
		return 1
	fi
	case "${stderr_lines[0]}" in
	"ktop: "*) ;;
	*)
		echo "stderr does not start with 'ktop: ': $stderr" >&2
		return 1
		;;
	esac
	if [ -n "$output" ]; then
		echo "expected nothing on stdout, got: $output" >&2
		return 1
	fi
}

# wait_wchan PID FUNCTION: until PID sleeps in the kernel's FUNCTION.
wait_wchan() {
	local i
	for ((i = 0; i < 100; i++)); do
		[ "$(cat /proc/$1/wchan 2>/dev/null)" = "$2" ] && return 0
		sleep 0.05
	done
	echo "$1 does not sleep in $2: $(cat /proc/$1/wchan 2>&1)" >&2
	return 1
}

# wait_exit PID [SECONDS]: until PID (a child of this shell) has exited; reaps it
# and sets ST to its exit status.
wait_exit() {
	local i n=$(( ${2:-10} * 20 )) line state
	for ((i = 0; i < n; i++)); do
		line=
		{ read -r line <"/proc/$1/stat"; } 2>/dev/null || true
		state=${line##*) }
		state=${state%% *}
		if [ -z "$line" ] || [ "$state" = Z ]; then
			ST=0
			wait "$1" || ST=$?
			return 0
		fi
		sleep 0.05
	done
	echo "timed out waiting for $1 to exit" >&2
	return 1
}

# wait_tick_after FILE T [SECONDS]: until FILE's last line is of a tick that
# began (time column) after T (seconds since the epoch, date +%s.%N).
wait_tick_after() {
	local i n=$(( ${3:-10} * 20 )) last
	for ((i = 0; i < n; i++)); do
		last=$(tail -n 1 "$1" | cut -d, -f1)
		# a line being written has a prefix of its time: never more than it
		if [[ "$last" =~ ^[0-9]+\.[0-9]+$ ]] &&
			awk -v a="$last" -v b="$2" 'BEGIN { exit !(a > b) }'; then
			return 0
		fi
		sleep 0.05
	done
	echo "timed out waiting for a tick after $2 in $1 (last: $last)" >&2
	return 1
}

# wait_for_match FILE REGEX [SECONDS]: until a line of FILE matches REGEX (grep -E).
wait_for_match() {
	local i n=$(( ${3:-10} * 20 ))
	for ((i = 0; i < n; i++)); do
		grep -Eq -- "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "timed out waiting for a line matching '$2' in $1" >&2
	return 1
}

# refreshes URL [CURL ARGS...]: ktop's own count of its refreshes, read from
# its /metrics at URL (ktop_refreshes_total); empty when it does not answer.
refreshes() {
	curl -s "$@" | sed -n 's/^ktop_refreshes_total \([0-9]*\).*/\1/p'
}

# wait_refreshes N URL [CURL ARGS...]: until the ktop serving URL has refreshed
# N times more than now: what "a few refreshes later" means, by its own
# interval counter, not the clock (a loaded machine refreshes late).
wait_refreshes() {
	local n=$1 v0 v i
	shift
	v0=$(refreshes "$@")
	[ -n "$v0" ] || { echo "no ktop_refreshes_total at $*" >&2; return 1; }
	for ((i = 0; i < 600; i++)); do
		v=$(refreshes "$@")
		[ -n "$v" ] && [ "$v" -ge $((v0 + n)) ] && return 0
		sleep 0.05
	done
	echo "timed out waiting for $n refreshes after $v0 at $* (now ${v:-none})" >&2
	return 1
}

# inst_dir PID [-f]: the tracefs instance of ktop PID (tests/instances.bash).
. "$(dirname "${BASH_SOURCE[0]}")/../../instances.bash"
# need_program, skip_missing, skip_kernel, helper_prog (tests/need.bash).
. "$(dirname "${BASH_SOURCE[0]}")/../../need.bash"

# wait_blocked PID SYSCALL [SECONDS]: until every thread of PID is switched out
# in SYSCALL (/proc/TID/syscall says "running" for a task on a CPU): every call
# it made before has returned. $TRACEWL names the call (helpers/tracewl.c).
wait_blocked() {
	local i n=$(( ${3:-10} * 20 )) nr t first ok
	nr=$("$TRACEWL" nr "$2")
	for ((i = 0; i < n; i++)); do
		ok=1
		for t in /proc/"$1"/task/*/syscall; do
			first=
			{ read -r first _ <"$t"; } 2>/dev/null || true
			[ "$first" = "$nr" ] || { ok=0; break; }
		done
		[ "$ok" = 1 ] && return 0
		sleep 0.05
	done
	echo "timed out: $1 is not blocked in $2: $(cat /proc/"$1"/task/*/syscall 2>&1)" >&2
	return 1
}
