# What a test needs of the machine, and the programs make builds for the tests
# (sourced by tests/cli/helpers/common.bash and tests/tmux/helpers/tmux.bash).
#
# A test that cannot run here skips, saying why in one of these forms, which
# tests/run.sh lists at the end of the run:
#   need_program PROG [PACKAGE]   "missing program PROG (package PACKAGE; ...)"
#   skip_missing PACKAGE WHAT     "missing WHAT (package PACKAGE; ...)": a test
#                                 found WHAT of PACKAGE missing (a module, a file)
#   need_built FILE               "missing FILE (not built: ...)": a program
#                                 make builds for the tests
#   skip_kernel WHY               "kernel: WHY": a feature of the kernel (or of
#                                 how it is set up: tracefs, cgroups, CPUs) that
#                                 this machine lacks
# Other skips (not root, another architecture) say so in plain words.
#
# Where tools/deps.sh test ran, what a test needs is there: its test list
# names every program and package the tests use. With KTOP_TESTS_STRICT=1
# (make check sets it, after deps-test) or CI=true, a missing one fails the
# test instead of skipping it (and tests/run.sh counts any "missing ..." skip
# as a failure).

KTOP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# tests_strict: tools/deps.sh test ran; nothing it installs may be missing.
tests_strict() {
	[ "${KTOP_TESTS_STRICT:-0}" = 1 ] || [ "${CI:-}" = true ]
}

# skip_missing PACKAGE WHAT: WHAT, of PACKAGE, is not on this machine.
skip_missing() {
	local why="missing $2 (package $1; make deps-test)"
	if tests_strict; then
		if { sh "$KTOP_ROOT/tools/deps.sh" --list build
			sh "$KTOP_ROOT/tools/deps.sh" --list test; } | grep -qxF -- "$1"; then
			echo "$why: tools/deps.sh test installs it, so it should be here" >&2
		else
			echo "$why: add $1 to tools/deps.sh's test list" >&2
		fi
		return 1
	fi
	skip "$why"
}

# need_program PROG [PACKAGE]: skip (or fail, see above) unless PROG is in PATH.
need_program() {
	command -v "$1" >/dev/null 2>&1 || skip_missing "${2:-$1}" "program $1"
}

# need_built FILE: a program make builds for the tests (make testprogs, or
# build/ktop-asan); make check built it, so where deps.sh ran it fails.
need_built() {
	[ -x "$1" ] && return 0
	local why="missing ${1#"$KTOP_ROOT"/} (not built: make testprogs)"
	if tests_strict; then
		echo "$why" >&2
		return 1
	fi
	skip "$why"
}

# skip_kernel WHY: this kernel (or its setup here) lacks what the test needs.
skip_kernel() {
	skip "kernel: $1"
}

# helper_prog NAME [DEST]: the workload NAME of the tests (tests/cli/helpers/NAME.c,
# tests/tmux/helpers/NAME.c or bench/NAME.c; sumwl32: sumwl.c for 32 bits)
# that make built in build/tests/cli/, build/tests/tmux/ or build/bench/,
# copied to DEST (default $BATS_FILE_TMPDIR/NAME): the test file's own copy,
# under a name of its own if it wants one. A file run alone (bats FILE after
# make ktop) asks make for a program missing or older than its source.
# Fails, saying why, when there is none.
helper_prog() {
	local name=$1 dest=${2:-$BATS_FILE_TMPDIR/$1} src='' out='' pair
	for pair in tests/cli/helpers:build/tests/cli tests/tmux/helpers:build/tests/tmux bench:build/bench; do
		if [ -f "$KTOP_ROOT/${pair%%:*}/${name%32}.c" ]; then
			src=$KTOP_ROOT/${pair%%:*}/${name%32}.c
			out=${pair#*:}/$name
			break
		fi
	done
	[ -n "$src" ] || { echo "helper_prog: no source of $name" >&2; return 1; }
	if [ ! -x "$KTOP_ROOT/$out" ] || [ "$src" -nt "$KTOP_ROOT/$out" ]; then
		make -s -C "$KTOP_ROOT" "$out" >&2 || true
	fi
	[ -x "$KTOP_ROOT/$out" ] || { echo "helper_prog: $out is not built" >&2; return 1; }
	cp "$KTOP_ROOT/$out" "$dest"
}
