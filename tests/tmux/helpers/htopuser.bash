# htopuser.bats's and htopload.bats's common part: ktop in the pane, its
# cells, the workloads (stateswl: threads pinned to one CPU, a vfork parent).

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-hu-$$"

setup_file() {
	helper_prog stateswl || true
}

setup() { pane_setup; }
teardown() { bg_end; }

# start ARGS...: ktop in the pane, no settings file, UTF-8.
start() {
	keys "clear; env XDG_CONFIG_HOME='$CFG' LANG=C.UTF-8 $KTOP $*; echo KTOP-EXIT=\$?" Enter
	wait_for '^ +PID|^SYSCALL'
}

quit() {
	keys q
	wait_for 'KTOP-EXIT=0'
}

# The bottom line.
bottom() { screen | grep -v '^$' | tail -1; }
# cell PID TITLE WIDTH: the right-aligned cell of PID's row under TITLE, trimmed.
cell() {
	row_of "$1" | awk -v t="$(titles)" -v k="$2" -v w="$3" '{
		e = index(t, k) + length(k) - 1; v = substr($0, e - w + 1, w)
		gsub(/^ +| +$/, "", v); print v }'
}
# filter TEXT: the table shows only the rows holding TEXT (F4, as in htop).
filter() {
	keys F4
	tmux -L "$S" send-keys -t t -l "$1"
	keys Enter
}

# lacks RE: stdin has no line matching RE (a plain "! grep" would not fail a test).
lacks() { ! grep -Eq -- "$1"; }

needs_root() { [ "$(id -u)" = 0 ] || skip "counts events: needs root"; }

# Two processes whose time goes elsewhere than a CPU: three threads pinned to
# one CPU (each waits for it two thirds of the time) and a parent waiting in
# vfork (blocked, D) while its child sleeps. They start work when $GO exists
# (go): after ktop, which then sees them switch (a thread that has not
# switched since tracing began is in no state ktop knows).
waiters() {
	WL="$BATS_FILE_TMPDIR/stateswl"
	need_built "$WL"
	GO="$BATS_TEST_TMPDIR/go"
	rm -f "$GO"
	bg env GO="$GO" "$WL" pinned 60000 "$BATS_TEST_TMPDIR/pinned.out"
	PINNED=$BG
	bg env GO="$GO" "$WL" vfork 600 100 "$BATS_TEST_TMPDIR/vfork.out"
	VF=$BG
}
go() { touch "$GO"; }

# until_cell PID TITLE WIDTH RE: wait (up to 15 s) until that cell matches RE.
until_cell() {
	local v
	for _ in $(seq 150); do
		v=$(cell "$1" "$2" "$3")
		[[ "$v" =~ $4 ]] && return 0
		sleep 0.1
	done
	echo "$2 of $1: '$v', not $4" >&2
	screen >&2
	return 1
}

# cpu_at_least PID TICKS: wait until PID used TICKS clock ticks of CPU.
cpu_at_least() {
	for _ in $(seq 300); do
		[ "$(awk '{ print $14 + $15 }' "/proc/$1/stat")" -ge "$2" ] && return 0
		sleep 0.1
	done
	return 1
}

# refreshed N: wait until the header's clock moved N times (a refresh each, at least).
refreshed() {
	local t0 t n=0
	t0=$(screen | sed -nE '1s/^ktop ([0-9:]+) .*/\1/p')
	for _ in $(seq 100); do
		t=$(screen | sed -nE '1s/^ktop ([0-9:]+) .*/\1/p')
		if [ -n "$t" ] && [ "$t" != "$t0" ]; then
			n=$((n + 1))
			t0=$t
			[ "$n" -ge "$1" ] && return 0
		fi
		sleep 0.1
	done
	return 1
}

# search TEXT: F3, TEXT typed, Enter.
search() {
	keys F3
	wait_for '^Search'
	tmux -L "$S" send-keys -t t -l "$1"
	keys Enter
}

# A process that sleeps 0.3 s at a time: each call in the log2 bucket
# (262144, 524288] us, whose bound is far above the longest call.
sleeper() {
	bg sh -c 'while :; do sleep 0.3; done'
	SLEEPER=$BG
}

# proc_counts PID: "ns vcsw ivcsw run_delay_ns" of PID, summed over its threads:
# the kernel's own counts, which ktop reads untraced.
proc_counts() {
	local t v=0 iv=0 rq=0 now
	now=$(date +%s%N)
	for t in /proc/"$1"/task/*; do
		v=$((v + $(awk '/^voluntary_ctxt_switches/ { print $2 }' "$t/status")))
		iv=$((iv + $(awk '/^nonvoluntary_ctxt_switches/ { print $2 }' "$t/status")))
		rq=$((rq + $(cut -d' ' -f2 "$t/schedstat")))
	done
	echo "$now $v $iv $rq"
}

# near SHOWN TRUTH: SHOWN within a quarter of TRUTH (and 2 units).
near() { awk -v s="$1" -v t="$2" 'BEGIN { d = s - t; if (d < 0) d = -d; exit !(d <= t / 4 + 2) }'; }
