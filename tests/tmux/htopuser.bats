#!/usr/bin/env bats
# Issue 33: the first screen answers "why is it slow" for a top/htop user.
# The real ktop in tmux panes of 80x24, 120x40 and 200x60, and its batch
# output: where the time goes on the table, a selection that is a process,
# htop's keys, numbers that read right, a layout that fits.
#
# htopload.bats: the tests that load the CPUs or compare with the kernel's
# counts over a time (run alone); helpers/htopuser.bash: their common part.

load helpers/tmux
load helpers/htopuser

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
	# its command line is its own (other files' loops run beside it in the pool)
	bg env -i HU_MARK="hu-mark-$$" PATH="$PATH" /bin/sh -c "while :; do sleep 0.2; done # hu-s-$$"
	local p=$BG
	start -d 0.5
	search "hu-s-$$"
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
	typein "sleep 1011"
	keys Enter
	wait_for "^ +$BG +root +${cg//./\\.} +sleep 1011"
	quit
}
