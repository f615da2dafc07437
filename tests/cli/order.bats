#!/usr/bin/env bats
# Events in time order: each CPU's ring buffer is read in turn, so a child's
# exec and exit (on its CPU) may be decoded before its fork (on its
# parent's). Forks, execs, renames and exits are applied in time order: a
# loop of short-lived commands has every child named by its program (not
# its parent's name), shown once as it dies (not again, with 0 calls, in the
# next interval), and a child that renames itself (prctl) by that name. With
# the exit records off (KTOP_EXITS_KB=0) the events alone say it; with them,
# the records say the same.

load helpers/common

setup_file() {
	helper_prog burn || true
}

setup() {
	common_setup
	[ "$(id -u)" -eq 0 ] || skip "needs tracing (root)"
	[ -d /sys/kernel/tracing/instances ] || skip_kernel "no tracefs"
}

teardown() {
	common_teardown
}

# loop_rows N CMD...: ktop -b --csv on "sh -c" running CMD N times; $OUT.
# (The timeout is for a hang only: 5000 fork+exec took 121 s beside
# stress-ng --cpu 2 and the other lane, 100 s with exit records on.)
loop_rows() {
	local n=$1
	shift
	run --separate-stderr timeout 900 "$KTOP" -b --csv -d 0.5 -o pid,ppid,comm,state,syscalls,top_syscall \
		-- sh -c "i=0; while [ \$i -lt $n ]; do $*; i=\$((i+1)); done"
	[ "$status" -eq 0 ] || { echo "ktop exit $status: $stderr" >&2; return 1; }
	printf '%s\n' "${lines[@]}" >"$OUT"
}

@test "order: 5000 /bin/true from sh, events only: every child one row X named true" {
	KTOP_EXITS_KB=0 loop_rows 5000 /bin/true
	run check csv-dead-children "$OUT" 5000 true
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

@test "order: 5000 /bin/true from sh, with exit records: the same" {
	loop_rows 5000 /bin/true
	run check csv-dead-children "$OUT" 5000 true
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

@test "order: 100 children that rename themselves (prctl): shown by that name, events only" {
	need_built "$BATS_FILE_TMPDIR/burn"
	KTOP_EXITS_KB=0 loop_rows 100 "$BATS_FILE_TMPDIR/burn" name worker-42
	run check csv-dead-children "$OUT" 100 worker-42
	echo "$output" >&2
	[ "$status" -eq 0 ]
}

@test "order: the same with exit records" {
	need_built "$BATS_FILE_TMPDIR/burn"
	loop_rows 100 "$BATS_FILE_TMPDIR/burn" name worker-42
	run check csv-dead-children "$OUT" 100 worker-42
	echo "$output" >&2
	[ "$status" -eq 0 ]
}
