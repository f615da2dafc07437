#!/usr/bin/env bats
# htopuser.bats's tests that load the CPUs or compare with the kernel's counts
# over a time, run alone (tests/run.sh): RUNQ%, BLOCK% and WAIT% of threads
# pinned to one CPU, four CPU hogs re-sorting the table, CSW/s and RUNQ% against
# /proc. htopuser.bats says what they check.

load helpers/tmux
load helpers/htopuser

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
