#!/usr/bin/env bats
# The exporter (--listen, --textfile) against real components the tests start
# themselves: Debian's `prometheus` server (its binary, a generated config, a
# temporary storage directory, 127.0.0.1 and free ports) scraping ktop every
# second, whose HTTP API the tests query; promtool; the strict OpenMetrics
# parser of python3-prometheus-client; hostile clients. A missing component
# skips its test and says which, never passes it.
#
# Workloads with known counts are helpers/tracewl.c (trace.bats says what each
# mode does), copied under a name of this run's own, so that the group (by
# comm) holds only them whatever else runs on the machine.

# exportertime.bats holds the ones timed against the clock (run alone);
# helpers/exporter.bash the common part.

load helpers/common
load helpers/exporter

# ---------------------------------------------------------------- exact counts

@test "prometheus: 3000 failed openat of a child born and gone between scrapes, and 400 signals: +3000 and +400 exactly" {
	need_tracing
	need_tracewl
	need_prometheus
	local kp g="comm=\"$WLNAME\""
	start_wl fails fails-child 3000
	wait_blocked "${WL[0]}" read
	start_wl sig signals 400
	wait_blocked "${WL[0]}" read
	wait_blocked "${WL[1]}" rt_sigsuspend
	kp=$(promq freeport)
	start_ktop "$OUT" -b --listen "127.0.0.1:$kp" -d 0.5
	wait_serving "$kp"
	start_prometheus "$kp"
	# Before: nothing of the work is counted (it was set up before ktop started).
	[ "$(promq value "$PPORT" "ktop_syscall_errors_total{$g,syscall=\"openat\",errno=\"ENOENT\"}")" = absent ]
	[ "$(promq value "$PPORT" "sum(ktop_signals_total{$g,direction=\"sent\"})")" = 0 ]
	[ "$(promq value "$PPORT" "sum(ktop_signals_total{$g,direction=\"received\"})")" = 0 ]
	[ "$(promq value "$PPORT" "ktop_processes{$g}")" = 3 ]

	run_wl sig
	expect_exactly "ktop_signals_total{$g,direction=\"sent\",signal=\"SIGUSR1\"}" 400
	expect_exactly "ktop_signals_total{$g,direction=\"received\",signal=\"SIGUSR1\"}" 400
	[ "$(promq value "$PPORT" "sum(ktop_signals_total{$g})")" = 800 ]
	run_wl fails
	expect_exactly "ktop_syscall_errors_total{$g,syscall=\"openat\",errno=\"ENOENT\"}" 3000
	expect_exactly "ktop_syscalls_total{$g,syscall=\"openat\"}" 3000
	# the child's exit sent its parent one SIGCHLD, which the parent ignores
	# (default action): generated, not queued, so not received
	expect_exactly "ktop_signals_total{$g,direction=\"sent\",signal=\"SIGCHLD\"}" 1
	expect_exactly "sum(ktop_signals_total{$g,direction=\"sent\"})" 401
	expect_exactly "sum(ktop_signals_total{$g,direction=\"received\"})" 400
	stays_exact
	# the child is gone: the group's counters kept what it did
	[ "$(promq value "$PPORT" "ktop_processes{$g}")" = 3 ]
	no_lost
	[ "$(promq value "$PPORT" 'ktop_tracing')" = 1 ]
	# why, as one word of a fixed set, and the clock: no sentence in a label
	[ "$(promq value "$PPORT" 'ktop_tracing_info{cause="none",clock=~"local|mono|x86-tsc|global"}')" = 1 ]
	[ "$(promq value "$PPORT" 'count(ktop_tracing_info)')" = 1 ]
	[ ! -s "$OUT" ]	# headless: nothing on stdout
}

@test "prometheus: increase between two scrapes = ktop -b --csv --syscalls over the same refreshes; rate() agrees" {
	need_tracing
	need_prometheus
	local kp xc="kxc$$" d="$BATS_TEST_TMPDIR"
	# short-lived processes of a name of their own, each failing an openat
	cp /bin/cat "$d/$xc"
	(while :; do "$d/$xc" /nonexistent-ktop-exporter 2>/dev/null || true; sleep 0.02; done) </dev/null >/dev/null 2>&1 3>&- &
	track $!
	kp=$(promq freeport)
	start_ktop "$OUT" -b --csv --syscalls -d 1 --listen "127.0.0.1:$kp"
	wait_serving "$kp"
	start_prometheus "$kp"
	# six scrapes of each counter compared (csv-match needs three, rate() a span)
	promq wait "$PPORT" "count_over_time(ktop_syscalls_total{comm=\"$xc\",syscall=\"openat\"}[2m])" 6 60 >/dev/null
	promq wait "$PPORT" "count_over_time(ktop_syscalls_total{comm=\"$xc\",syscall=\"execve\"}[2m])" 6 60 >/dev/null
	run promq csv-match "$PPORT" "ktop_syscalls_total{comm=\"$xc\",syscall=\"openat\"}" "$OUT" "$xc" openat calls
	echo "$output"
	[ "$status" -eq 0 ]
	run promq csv-match "$PPORT" "ktop_syscalls_total{comm=\"$xc\",syscall=\"execve\"}" "$OUT" "$xc" execve calls
	echo "$output"
	[ "$status" -eq 0 ]
	no_lost
}

@test "exporter: --latency's histograms pass promtool and the strict OpenMetrics parser; the series cap bounds them" {
	need_tracing
	need_promtool
	need_client
	local kp n
	kp=$(promq freeport)
	start_ktop "$OUT" -b --latency --listen "127.0.0.1:$kp" -d 0.3 --metrics-max-series 3
	wait_serving "$kp"
	wait_refreshes 3 "http://127.0.0.1:$kp/metrics"
	run "$PY" "$HELPERS/omcheck.py" fetch "$kp" /metrics - "$OUT.txt"
	run promtool check metrics <"$OUT.txt"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^# TYPE ktop_syscall_duration_seconds histogram$' "$OUT.txt"
	# 3 label sets of their own and the overflow ("other"), each 28 buckets, a sum, a count
	n=$(sed -n 's/^ktop_syscall_duration_seconds_count{\(.*\)} .*/\1/p' "$OUT.txt" | sort -u | wc -l)
	echo "$n histograms" >&2
	[ "$n" -le 4 ] && [ "$n" -ge 2 ]
	grep -q '^ktop_syscall_duration_seconds_count{comm="other",syscall="other"} ' "$OUT.txt"
	[ "$(grep -c '^ktop_syscall_duration_seconds_bucket{' "$OUT.txt")" -eq $((n * 28)) ]
	run "$PY" "$HELPERS/omcheck.py" fetch "$kp" /metrics \
		'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' "$OUT.om"
	"$PY" - "$OUT.om" <<-'PYEOF'
	import sys
	from prometheus_client.openmetrics.parser import text_string_to_metric_families
	fams = {f.name: f for f in text_string_to_metric_families(open(sys.argv[1]).read())}
	f = fams["ktop_syscall_duration_seconds"]
	assert f.type == "histogram" and f.unit == "seconds", (f.type, f.unit)
	assert any(s.name.endswith("_bucket") for s in f.samples)
	PYEOF
}

# ---------------------------------------------------------------- formats

@test "exporter: a real scrape passes promtool check metrics and the strict OpenMetrics parser, hostile names included" {
	need_promtool
	need_client
	local kp
	start_workload name 'a"b\\c\nd\xffe'
	kp=$(promq freeport)
	start_ktop "$OUT" -b --listen "127.0.0.1:$kp" -d 0.3
	wait_serving "$kp"
	wait_refreshes 3 "http://127.0.0.1:$kp/metrics"
	run "$PY" "$HELPERS/omcheck.py" fetch "$kp" /metrics - "$OUT.txt"
	[ "$output" = "200 text/plain; version=0.0.4; charset=utf-8" ]
	run promtool check metrics <"$OUT.txt"
	echo "$output"
	[ "$status" -eq 0 ]
	run "$PY" "$HELPERS/omcheck.py" fetch "$kp" /metrics \
		'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5' "$OUT.om"
	[ "$output" = "200 application/openmetrics-text; version=1.0.0; charset=utf-8" ]
	run promq omcheck "$OUT.om" "a\"b\\c
d"$'\xef\xbf\xbd'"e"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(tail -n 1 "$OUT.om")" = "# EOF" ]
}

@test "exporter: --textfile writes DIR/ktop.prom atomically each refresh (promtool passes); removed at exit" {
	need_promtool
	local dir="$BATS_TEST_TMPDIR/tf"
	mkdir "$dir"
	start_ktop "$OUT" -b --textfile "$dir" -d 0.2
	wait_for_file "$dir/ktop.prom" 5
	wait_for_match "$dir/ktop.prom" '^ktop_refreshes_total ([3-9]|[1-9][0-9]+)$'
	run promtool check metrics <"$dir/ktop.prom"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q '^ktop_refreshes_total [0-9]' "$dir/ktop.prom"
	# no temporary file is left where node_exporter reads *.prom
	[ "$(ls "$dir" | grep -c '\.prom$')" = 1 ]
	kill -TERM "$KPID"
	wait_exit "$KPID" 10
	[ "$ST" -eq 0 ]
	[ ! -e "$dir/ktop.prom" ]
	[ ! -s "$OUT" ]
}

# ---------------------------------------------------------------- bad input

@test "exporter: a port in use is one line and exit 1, before tracing starts" {
	local busy
	"$PY" -c 'import socket,sys,time
s=socket.socket(); s.bind(("127.0.0.1",0)); s.listen()
print(s.getsockname()[1]); sys.stdout.flush(); time.sleep(30)' >"$BATS_TEST_TMPDIR/busy" &
	track $!
	wait_for_file "$BATS_TEST_TMPDIR/busy" 5
	busy=$(cat "$BATS_TEST_TMPDIR/busy")
	run --separate-stderr "$KTOP" -b --listen "127.0.0.1:$busy"
	[ "$status" -eq 1 ]
	assert_one_line_error
	[[ "$stderr" == *"Address already in use"* ]]
	run --separate-stderr "$KTOP" -b --csv --listen ":$busy" -- /bin/true
	[ "$status" -eq 1 ]
	assert_one_line_error
	# Before tracing starts: no instance was made (other ktops' come and go, so
	# it is ktop's own calls that are looked at), and /bin/true never ran.
	need_program strace	# the instance check needs it
	run strace -f -qq -e trace=mkdir,mkdirat,execve -o "$BATS_TEST_TMPDIR/st" \
		"$KTOP" -b --csv --listen ":$busy" -- /bin/true
	[ "$status" -eq 1 ]
	if grep -q 'instances/' "$BATS_TEST_TMPDIR/st"; then return 1; fi
	if grep -q 'execve("/bin/true"' "$BATS_TEST_TMPDIR/st"; then return 1; fi
}

@test "exporter: a bad --listen address is exit 2; --metrics-* without an exporter too" {
	local a
	for a in "" "1.2.3:9469" "9469x" "70000" "host.example:9469" "::1:9469" "[::1]9469" ":"; do
		run --separate-stderr "$KTOP" -b --listen "$a"
		echo "'$a': $status $stderr"
		[ "$status" -eq 2 ]
		assert_one_line_error
	done
	run --separate-stderr "$KTOP" -b --metrics-group-by user
	[ "$status" -eq 2 ]
	assert_one_line_error
	run --separate-stderr "$KTOP" -b --listen 9469 --metrics-group-by pid
	[ "$status" -eq 2 ]
	assert_one_line_error
	run --separate-stderr "$KTOP" -b --listen 9469 --metrics-max-series 0
	[ "$status" -eq 2 ]
	assert_one_line_error
}

@test "exporter: an address not of this host is exit 1 (cannot listen)" {
	run --separate-stderr "$KTOP" -b --listen 192.0.2.1:9469
	[ "$status" -eq 1 ]
	assert_one_line_error
}

# ---------------------------------------------------------------- every interval

# The live view collects out of turn (space resumes, a signal sent, a sort by a
# status column): that interval reaches the exporter like a tick's (src/sinks.c).
# Before, 1000 calls made during a pause reached the screen and never the
# counters.
@test "exporter: 1000 failed calls made while the live view was paused are counted once resumed" {
	need_tracing
	need_tracewl
	need_program tmux
	local kp S="ktop-xp-$$" i v g="comm=\"$WLNAME\""
	start_wl fails fails 1000
	wait_blocked "${WL[0]}" read
	kp=$(promq freeport)
	tmux -L "$S" kill-server 2>/dev/null || true
	tmux -L "$S" new-session -d -s t -x 120 -y 40 "'$KTOP' --listen 127.0.0.1:$kp -d 0.5"
	wait_serving "$kp"
	wait_refreshes 2 "http://127.0.0.1:$kp/metrics"
	tmux -L "$S" send-keys -t t ' '
	for ((i = 0; i < 100; i++)); do
		tmux -L "$S" capture-pane -p -t t | grep -q PAUSED && break
		sleep 0.05
	done
	run_wl fails
	sleep 1.2	# two ticks that do not collect
	tmux -L "$S" send-keys -t t ' '
	for ((i = 0; i < 100; i++)); do
		tmux -L "$S" capture-pane -p -t t | grep -q PAUSED || break
		sleep 0.05
	done
	wait_refreshes 2 "http://127.0.0.1:$kp/metrics"	# the resumed interval, then a tick
	promq scrape "$kp" "$BATS_TEST_TMPDIR/after.prom" >/dev/null
	tmux -L "$S" send-keys -t t q
	sleep 0.5
	tmux -L "$S" kill-server 2>/dev/null || true
	v=$(grep "^ktop_syscall_errors_total{$g,syscall=\"openat\",errno=\"ENOENT\"}" \
		"$BATS_TEST_TMPDIR/after.prom" | awk '{ print $2 }')
	echo "openat ENOENT of $WLNAME: ${v:-absent} (want 1000)" >&2
	[ "$v" = 1000 ]
}
