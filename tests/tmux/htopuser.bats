#!/usr/bin/env bats
# Issue 33: the first screen answers "why is it slow" for a top/htop user.
# The real ktop in tmux panes of 80x24, 120x40 and 200x60, and its batch
# output: where the time goes on the table, a selection that is a process,
# htop's keys, numbers that read right, a layout that fits.

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-hu-$$"

setup_file() {
	local cc
	cc=$(command -v cc || command -v gcc) || return 0
	"$cc" -O2 -Wall -pthread -o "$BATS_FILE_TMPDIR/stateswl" \
		"$BATS_TEST_DIRNAME/../cli/helpers/stateswl.c" || echo "stateswl.c does not build" >&2
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

@test "layout: bottom-bar labels never run together, at 80, 120 and 200 columns" {
	local size line
	for size in "80 24" "120 40" "200 60"; do
		pane $size
		start -d 1
		wait_for 'F10Quit'
		line=$(bottom)
		echo "$size: $line" >&2
		# a label's last letter straight against the next key (F3SearchF4, 6Groups7)
		lacks '[a-z+-](F[0-9]|[1-7][A-Z])' <<<"$line"
		quit
	done
}

@test "layout: help's title fits at 80 and 120 columns, key labels stay apart from their help" {
	local size
	for size in "80 24" "120 40"; do
		pane $size
		start -d 1
		keys '?'
		wait_for '^ktop .*help'
		# the title ends with its closing parenthesis: not cut
		screen | head -1 | grep -Eq '\)$'
		# the menu's "Esc q F6 F10" and its help do not touch
		for _ in $(seq 30); do
			screen | grep -q 'Esc q F6 F10' && break
			keys NPage
			sleep 0.1
		done
		wait_for 'Esc q F6 F10 +leave'
		keys q
		quit
	done
}

# Two processes whose time goes elsewhere than a CPU: three threads pinned to
# one CPU (each waits for it two thirds of the time) and a parent waiting in
# vfork (blocked, D) while its child sleeps. They start work when $GO exists
# (go): after ktop, which then sees them switch (a thread that has not
# switched since tracing began is in no state ktop knows).
waiters() {
	WL="$BATS_FILE_TMPDIR/stateswl"
	[ -x "$WL" ] || skip "tests/cli/helpers/stateswl.c was not built (no C compiler?)"
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

@test "where the time goes: RUNQ% and BLOCK% on the default table at 120 and 200 columns" {
	needs_root
	local size
	for size in "120 40" "200 60"; do
		pane $size
		waiters
		start -d 1
		go
		filter stateswl
		wait_for "^ +$VF "
		titles | grep -Eq ' RUNQ% BLOCK% '
		# the pinned threads wait for their CPU (~200% of one thread's time);
		# the vfork parent is blocked all the time (~100%)
		until_cell "$PINNED" 'RUNQ%' 5 '^([5-9][0-9]|[1-9][0-9][0-9])(\.[0-9])?$'
		until_cell "$VF" 'BLOCK%' 6 '^([5-9][0-9]|1[0-9][0-9])(\.[0-9])?$'
		quit
	done
}

@test "where the time goes at 80 columns: WAIT% names runq or blk; TIME+ stays" {
	needs_root
	waiters
	pane 80 24
	start -d 1
	go
	filter stateswl
	wait_for "^ +$VF "
	titles | grep -Eq ' WAIT% .* TIME\+ '
	until_cell "$PINNED" 'WAIT%' 9 '^runq [0-9]+'
	until_cell "$VF" 'WAIT%' 9 '^blk [0-9]+'
	quit
}

@test "the sort column shows when it is not on screen; < > step through the columns shown" {
	start -d 1 -s majflt
	wait_for 'sorted by MAJFLT/s▽$'
	keys P
	wait_for 'CPU%▽'
	lacks 'sorted by' <<<"$(screen)"
	quit
	[ "$(id -u)" = 0 ] || return 0	# untraced, ERR/s is not a column
	# right of ERR/s on screen is COMMAND (TOP-SYSCALL has no room at 120)
	start -d 1 -s syscall_errors
	wait_for 'ERR/s▽'
	keys '>'
	wait_for 'sort:cmdline\+'
	quit
}

@test "the sort menu lists the columns on screen first; setup says which ticked ones do not fit" {
	needs_root	# the default columns with tracing: more than 120 columns hold
	start -d 1
	keys F6
	wait_for '^Sort by'
	# the first items are the titles on screen, in their order
	local first
	first=$(screen | grep -A4 '^Sort by' | tail -4 | awk '{ print $(NF > 0 && $1 == "*" ? 2 : 1) }' | tr '\n' ' ')
	echo "first items: $first" >&2
	[ "$first" = "PID USER NI S " ]
	wait_for 'TOP-SYSCALL +top_syscall +\(not shown\)'
	keys Escape
	keys F2
	wait_for '\[x\] TOP-SYSCALL +top_syscall +\(no room at 120 columns\)'
	wait_for '\[x\] RUNQ% +runq_ms +time runnable'
	keys Escape
	quit
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

@test "selection: F3 finds a process, four CPU hogs re-sort the table, Enter opens the one found" {
	bg sleep 1007
	local target=$BG
	start -d 0.5
	search "sleep 1007"
	wait_for '^F1Help'
	local i hogs=()
	for i in 1 2 3 4; do
		bg sh -c 'while :; do :; done'
		hogs+=("$BG")
	done
	# the hogs at the top of CPU% push every other row down: once they ran,
	# and ktop refreshed (each 0.5 s) since
	for i in "${hogs[@]}"; do cpu_at_least "$i" 30; done
	refreshed 2
	keys Enter
	wait_for '^Process [0-9]+'
	screen | grep -Eq "^Process $target( |$)" || { echo "target $target" >&2; screen >&2; false; }
	keys Escape
	quit
}

@test "selection: it stays on its process through sort changes, H, the tree and a filter" {
	bg sleep 1008
	local target=$BG
	start -d 0.5
	search "sleep 1008"
	wait_for '^F1Help'
	keys M
	wait_for 'sort:rss_kb-'
	keys H
	wait_for 'one row per thread'
	keys N
	wait_for 'sort:pid\+'
	keys t
	wait_for 'tree view'
	keys F4
	tmux -L "$S" send-keys -t t -l "sleep"
	keys Enter
	wait_for 'filter:sleep'
	keys Enter
	wait_for '^Process [0-9]+'
	screen | grep -Eq "^Process $target( |$)" || { echo "target $target" >&2; screen >&2; false; }
	keys Escape
	quit
}

@test "search: a new F3 starts empty; Esc clears the text" {
	start -d 1
	search "no-such-process-xyz"
	wait_for '^F1Help'
	keys F3
	wait_for '^Search'
	bottom | grep -Eq '^Search \(F3: next\): *$'
	tmux -L "$S" send-keys -t t -l "ktop"
	wait_for '^Search \(F3: next\): ktop'
	keys Escape
	keys F3
	wait_for '^Search'
	bottom | grep -Eq '^Search \(F3: next\): *$'
	keys Escape
	quit
}

@test "htop's keys: K hides and shows kernel threads; hide_kernel_threads in the settings file" {
	[ "$(cat /proc/2/comm 2>/dev/null)" = kthreadd ] || skip "no kthreadd in this pid namespace"
	start -d 1
	keys N
	wait_for 'PID△'
	keys Home	# the top of the order (N keeps the selection on its process)
	wait_for '^ +2 +root .*\[kthreadd\]'
	keys K
	wait_for 'kernel threads hidden'
	wait_for '^ +1 +root'
	lacks '\[kthreadd\]' <<<"$(screen)"
	wait_for 'kthreads:hidden'
	keys K
	wait_for '^ +2 +root .*\[kthreadd\]'
	quit
	mkdir -p "$CFG/ktop"
	printf 'hide_kernel_threads = yes\nsort = +pid\n' >"$CFG/ktop/ktoprc"
	start -d 1
	wait_for '^ +1 +root'
	wait_for 'kthreads:hidden'
	lacks '\[kthreadd\]' <<<"$(screen)"
	quit
}

@test "htop's keys: / searches (the filter is \\ and F4), Z pauses, Space says there are no tags" {
	start -d 0.5
	keys /
	wait_for '^Search \(F3: next\):'
	keys Escape
	keys '\'
	wait_for '^Filter:'
	keys Escape
	keys Z
	wait_for '^ktop .*PAUSED'
	keys Z
	for _ in $(seq 50); do screen | head -1 | grep -q PAUSED || break; sleep 0.1; done
	lacks PAUSED <<<"$(screen | head -1)"
	keys Space
	wait_for 'Space tags in htop; ktop has no tags'
	lacks PAUSED <<<"$(screen | head -1)"
	quit
}

@test "htop's keys: s shows the selected process's system calls as they happen, e its environment" {
	needs_root	# s: its events are traced
	bg env -i HU_MARK="hu-mark-$$" PATH="$PATH" /bin/sh -c 'while :; do sleep 0.2; done'
	local p=$BG
	start -d 0.5
	search "while :; do sleep 0.2"
	wait_for '^F1Help'
	keys s
	wait_for "^Events of $p "
	wait_for 'wait4|nanosleep|clock_nanosleep'
	keys Escape
	wait_for "^Process $p"
	keys Escape
	wait_for '^ +PID'
	keys e
	wait_for "^Environment of $p"
	wait_for "HU_MARK=hu-mark-$$"
	keys Escape
	quit
}

@test "help lists where ktop's keys differ from htop's" {
	pane 100 60
	start -d 1
	keys '?'
	wait_for '^ktop .*help'
	keys End	# at the end, after every view's keys
	wait_for "Where the keys differ from htop's"
	wait_for '^ Space +htop tags'
	keys q
	quit
}

# A process that sleeps 0.3 s at a time: each call in the log2 bucket
# (262144, 524288] us, whose bound is far above the longest call.
sleeper() {
	bg sh -c 'while :; do sleep 0.3; done'
	SLEEPER=$BG
}

@test "numbers: the Latency view's durations in scaled units, TIME/s, percentiles never above MAX" {
	needs_root
	sleeper
	start -d 1 --latency
	keys 7
	wait_for '^SYSCALL +TIME/s +CALLS/s +AVG +P50 +P90 +P99 +MAX '
	# wait4 of the sleeper's shell: ~0.3 s a call
	wait_for '^wait4 +[0-9.]+(us|ms|s) +[0-9.k]+ +[0-9.]+(us|ms|s) +≤[0-9.]+(us|ms|s) '
	local line
	line=$(screen | grep -E '^(clock_nanosleep|wait4) ' | head -1)
	echo "$line" >&2
	# no raw microseconds: every duration has its unit
	lacks '[0-9]{6,}' <<<"$line"
	python3 - "$line" <<'PY'
import re, sys
f = sys.argv[1].split()
def us(s):
    v, u = re.fullmatch(r"≤?([0-9.]+)(us|ms|s)", s).groups()
    return float(v) * {"us": 1, "ms": 1e3, "s": 1e6}[u]
p50, p90, p99, mx = (us(x) for x in f[4:8])
# rounded to 3 digits: a percentile equal to the max reads the same
assert p50 <= p90 <= p99 <= mx * 1.005, f
PY
	quit
}

@test "numbers: --latency --syscalls --csv, --view latency --csv and --summary: no percentile above max_us" {
	needs_root
	sleeper
	local d=$BATS_TEST_TMPDIR
	timeout 30 "$KTOP" -b --csv --latency --syscalls -d 0.7 -n 4 >"$d/sc.csv"
	timeout 30 "$KTOP" -b --csv --latency --view latency -d 0.7 -n 4 >"$d/lat.csv"
	timeout 30 "$KTOP" --summary --csv -- sh -c 'sleep 0.3; sleep 0.3' >"$d/sum.csv" 2>/dev/null
	# the sleeper's calls were timed, a bucket's bound far above them
	grep -q ',clock_nanosleep,' "$d/sc.csv" || grep -q ',wait4,' "$d/sc.csv"
	python3 - "$d/sc.csv" "$d/lat.csv" "$d/sum.csv" <<'PY'
import csv, sys
n = 0
for path in sys.argv[1:]:
    rows = list(csv.DictReader(open(path)))
    for r in rows:
        mx = r.get("max_us", "")
        if not mx:
            continue
        for k in ("p50_us", "p90_us", "p99_us"):
            if r.get(k):
                n += 1
                assert float(r[k]) <= float(mx), (path, k, r)
assert n > 0, "no percentile written"
print(n, "percentiles, none above its row's max_us")
PY
}

@test "numbers: exited rows show '-' for what is not known (NI, RES), not 0" {
	bg sh -c 'while :; do /bin/true; sleep 0.02; done'
	start -d 0.5
	keys F4
	tmux -L "$S" send-keys -t t -l "true"
	keys Enter
	# an X row of a true that lived between two refreshes: no /proc reading of it
	wait_for '^ +[0-9]+ +root +- X '
	lacks '^ +[0-9]+ +root +- X .* 0 +[0-9:.]+ +[0-9.k-]+ +[0-9.k-]+ +true$' <<<"$(screen)"
	row=$(screen | grep -E '^ +[0-9]+ +root +- X ' | head -1)
	echo "$row" >&2
	[[ "$row" =~ \ -\ +-\ +[0-9]+:[0-9.]+\  ]]	# MEM% RES unknown, TIME+ its exit record's
	quit
}

@test "first frame: sorted as its arrow says, command lines, kernel threads bracketed; batch's first iteration too" {
	start -d 30	# no second refresh: what shows is the first frame
	wait_for 'averages since each process started'
	# CPU% (since each process started) going down
	screen | awk '/^ +PID/ { on = 1; next } on && /^ +[0-9]+ / { v = $5; if (n++ && v > last + 0.05) bad++; last = v }
		END { exit !(n > 5 && !bad) }'
	quit
	start -d 30 -s +pid
	wait_for 'averages since each process started'
	# pid 1's command line, not its bare name (when they differ)
	local arg0 comm
	arg0=$(tr '\0' '\n' </proc/1/cmdline | head -1)
	comm=$(cat /proc/1/comm)
	if [ -n "$arg0" ] && [ "$arg0" != "$comm" ]; then
		wait_for "^ +1 +root .* ${arg0//./\\.}"
	fi
	if [ "$(cat /proc/2/comm 2>/dev/null)" = kthreadd ]; then
		wait_for '^ +2 +root .* \[kthreadd\]$'
	fi
	quit
	# batch: the first iteration in CPU% order; kernel threads bracketed
	local out
	out=$(timeout 20 "$KTOP" -b -n 1 -d 1)
	echo "$out" | awk '/^ +PID/ { on = 1; next } on && /^ +[0-9]+ / { v = $4; if (n++ && v > last + 0.05) bad++; last = v }
		END { exit !(n > 5 && !bad) }'
	if [ "$(cat /proc/2/comm 2>/dev/null)" = kthreadd ]; then
		timeout 20 "$KTOP" -b -n 1 -d 1 -s +pid | grep -Eq '^ +2 .* \[kthreadd\]$'
	fi
}

@test "selection: Enter on an exited row opens its last numbers, as the row showed them" {
	needs_root	# the process view focuses events
	bg sh -c 'while :; do /bin/true; sleep 0.02; done'
	start -d 1
	keys F4
	tmux -L "$S" send-keys -t t -l "true"
	keys Enter
	wait_for '^ +[0-9]+ +root +[-0-9]+ X '
	keys Z	# paused: the rows stay as they are
	wait_for 'PAUSED'
	keys End
	local row pid
	row=$(screen | grep -E '^ +[0-9]+ +root +[-0-9]+ X ' | tail -1 | sed -E 's/ +true$//')
	pid=$(awk '{ print $1 }' <<<"$row")
	echo "row: $row" >&2
	keys Enter
	wait_for "^Process $pid "
	wait_for '^ +PID USER'
	screen | grep -qxF -- "$row" || { screen >&2; return 1; }
	keys Escape
	quit
}

@test "layout: cgroup names use the width there is (Groups by cgroup, the CGROUP column) at 200 columns" {
	bg sleep 1011
	local cg
	cg=$(timeout 20 "$KTOP" -b --csv -o pid,cgroup -p "$BG" -d 0.3 -n 1 | awk -F, 'NR == 2 { print $NF }')
	[ "${#cg}" -gt 24 ] || skip "no cgroup path past 24 characters here ('$cg')"
	echo "cgroup: $cg" >&2
	pane 200 60
	start -d 1 --group-by cgroup
	keys 6
	wait_for '^CGROUP +PROCS'
	wait_for "^${cg//./\\.} +[0-9]+ "
	quit
	mkdir -p "$CFG/ktop"
	printf 'columns = pid,user,cgroup,cmdline\n' >"$CFG/ktop/ktoprc"
	start -d 1
	keys F4
	tmux -L "$S" send-keys -t t -l "sleep 1011"
	keys Enter
	wait_for "^ +$BG +root +${cg//./\\.} +sleep 1011"
	quit
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

@test "untraced: CSW/s and RUNQ% on the live table from /proc, as the kernel counts them (status, schedstat)" {
	WL="$BATS_FILE_TMPDIR/stateswl"
	[ -x "$WL" ] || skip "tests/cli/helpers/stateswl.c was not built (no C compiler?)"
	local a b kv krq tv trq i ok=0
	pane 200 60
	start -d 1 --no-trace
	filter stateswl
	titles | grep -Eq ' CPU%. RUNQ% '
	# ~100 nanosleeps of 10 ms a second (voluntary switches); three threads
	# pinned to one CPU (each waits for it ~2/3 of the time: RUNQ% ~200)
	bg "$WL" sleepshere 6000 10 "$BATS_TEST_TMPDIR/sleeps.out"
	SL=$BG
	bg "$WL" pinned 60000 "$BATS_TEST_TMPDIR/pinned.out"
	PIN=$BG
	wait_for "^ +$SL .*stateswl sleepshere"
	# a row's first interval is not known: "-", not 0
	[ "$(cell "$SL" 'CSW/s' 7)" = - ]
	until_cell "$SL" 'CSW/s' 7 '^[0-9]'
	until_cell "$PIN" 'RUNQ%' 6 '^[0-9]'
	# ktop's last interval against the kernel's counts over 3 s around it,
	# three times: two rounds of three agree (a loaded machine varies)
	for i in 1 2 3; do
		a=$(proc_counts "$SL") b=$(proc_counts "$PIN")
		sleep 1.5
		kv=$(cell "$SL" 'CSW/s' 7) krq=$(cell "$PIN" 'RUNQ%' 6)
		sleep 1.5
		tv=$(echo "$a $(proc_counts "$SL")" | awk '{ printf "%.1f", ($6 - $2) / (($5 - $1) / 1e9) }')
		trq=$(echo "$b $(proc_counts "$PIN")" | awk '{ printf "%.1f", ($8 - $4) / ($5 - $1) * 100 }')
		echo "round $i: CSW/s $kv, /proc status $tv/s; RUNQ% $krq, schedstat run_delay $trq%" >&2
		near "$kv" "$tv" && near "$krq" "$trq" && ok=$((ok + 1))
	done
	[ "$ok" -ge 2 ]
	quit
}
