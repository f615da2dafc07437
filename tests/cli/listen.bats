#!/usr/bin/env bats
# What --listen serves beyond one host (issue 25): the warning, gzip,
# systemd's socket, hidepid, and the two holes' repros (slowloris, unique
# names filling the groups); fleet.bats says more.

load helpers/common
load helpers/fleet

# ---------------------------------------------------------------- listen

@test "listen: an address beyond this host without --web-config is a one-line warning naming it" {
	run --separate-stderr "$KTOP" -b --no-trace -n 1 --listen 0.0.0.0:0
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"warning: --listen 0.0.0.0:0 serves the metrics beyond this host"*"--web-config"* ]]
	[ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ]
	run --separate-stderr "$KTOP" -b --no-trace -n 1 --listen 127.0.0.1:0
	[ -z "$stderr" ]
}

# ---------------------------------------------------------------- gzip

@test "gzip: Accept-Encoding: gzip gets the same page compressed; promtool accepts it" {
	need curl
	need promtool prometheus
	local kp d="$BATS_TEST_TMPDIR" i
	kp=$(promq freeport)
	# refreshes far apart: both requests see one model state
	start_ktop "$OUT" -b -d 30 --listen "127.0.0.1:$kp"
	wait_serving "$kp"
	for ((i = 0; i < 3; i++)); do
		curl -s -D "$d/h" -H 'Accept-Encoding: gzip' -o "$d/page.gz" "http://127.0.0.1:$kp/metrics"
		curl -s -o "$d/page" "http://127.0.0.1:$kp/metrics"
		gzip -dc <"$d/page.gz" >"$d/page.unz"
		cmp -s "$d/page" "$d/page.unz" && break
	done
	grep -qi '^content-encoding: gzip' "$d/h"
	grep -qi '^vary: accept-encoding' "$d/h"
	cmp "$d/page" "$d/page.unz"
	echo "$(stat -c %s "$d/page") bytes, gzip $(stat -c %s "$d/page.gz")" >&2
	(($(stat -c %s "$d/page.gz") * 3 < $(stat -c %s "$d/page")))
	run promtool check metrics <"$d/page.unz"
	echo "$output"
	[ "$status" -eq 0 ]
	# gzip refused by q=0: plain
	curl -s -D "$d/h2" -H 'Accept-Encoding: gzip;q=0' -o /dev/null "http://127.0.0.1:$kp/metrics"
	if grep -qi '^content-encoding' "$d/h2"; then return 1; fi
}

# ---------------------------------------------------------------- socket activation

@test "systemd: --listen systemd serves the socket passed (LISTEN_FDS), and says when there is none" {
	need systemd-socket-activate systemd
	need curl
	local kp
	kp=$(promq freeport)
	systemd-socket-activate -l "127.0.0.1:$kp" "$KTOP" -b --no-trace -d 0.3 --listen systemd \
		</dev/null >"$OUT" 2>"$OUT.err" 3>&- &
	track $!
	wait_serving "$kp"
	grep -q '^ktop_refreshes_total ' <(curl -s "http://127.0.0.1:$kp/metrics")
	run --separate-stderr "$KTOP" -b --no-trace --listen systemd
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"no socket passed"* ]]
}

# ---------------------------------------------------------------- the two holes

@test "slowloris: 8 connections trickling a header line every 8 s from one address; a scrape each second always answers" {
	need curl
	local kp i ok=0 fail=0 code
	kp=$(promq freeport)
	start_ktop "$OUT" -b --no-trace -d 0.5 --listen "127.0.0.1:$kp"
	wait_serving "$kp"
	"$PY" - "$kp" 24 <<-'EOF' &
	import socket, sys, time
	port, end = int(sys.argv[1]), time.time() + float(sys.argv[2])
	conns = []
	def opened():
	    s = socket.create_connection(("127.0.0.1", port))
	    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
	    return s
	while time.time() < end:
	    conns = [c for c in conns if c.fileno() >= 0]
	    while len(conns) < 8:
	        conns.append(opened())
	    time.sleep(8)
	    for c in conns:
	        try:
	            c.sendall(b"X-Slow: 1\r\n")
	        except OSError:
	            c.close()
	EOF
	track $!
	sleep 1
	for ((i = 0; i < 20; i++)); do
		code=$(curl -s -m 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$kp/metrics" || true)
		if [ "$code" = 200 ]; then ok=$((ok + 1)); else fail=$((fail + 1)); echo "scrape $i: $code" >&2; fi
		sleep 1
	done
	echo "$ok answered, $fail not" >&2
	[ "$fail" = 0 ]
}

@test "slots: 300 short-lived unique names with --metrics-max-series 200; a new command gets its own series within the expiry" {
	need_tracing
	need_program pgrep procps
	local kp i name="kxnew$$" v t0 gate="$BATS_TEST_TMPDIR/gate" gfd
	kp=$(promq freeport)
	start_ktop "$OUT" -b -d 0.5 --listen "127.0.0.1:$kp" --metrics-max-series 200 --metrics-expire 8
	wait_serving "$kp"
	# 300 uniquely named processes that live until the gate closes (EOF on a
	# FIFO the test holds open): every slot stays taken for as long as the
	# test looks, however slowly they start, and they all end at once.
	mkfifo "$gate"
	exec {gfd}<>"$gate"
	for ((i = 0; i < 300; i++)); do
		bash -c 'printf "u%s-%s" "$1" "$$" >/proc/$$/comm; read -r _' _ "$i" <"$gate" {gfd}>&- 3>&- &
		track $!
	done
	for ((i = 0; i < 600; i++)); do
		[ "$(pgrep -c '^u[0-9]+-[0-9]')" = 300 ] && break
		sleep 0.1
	done
	[ "$(pgrep -c '^u[0-9]+-[0-9]')" = 300 ]
	promq_metric() { awk -v m="$1" '$1 == m { print $2 }' "$BATS_TEST_TMPDIR/full.prom"; }
	for ((i = 0; i < 60; i++)); do
		curl -s "http://127.0.0.1:$kp/metrics" >"$BATS_TEST_TMPDIR/full.prom"
		v=$(promq_metric ktop_metrics_dropped_groups)
		[ "${v:-0}" -gt 0 ] && break
		sleep 0.25
	done
	bash -c 'printf "%s" "$1" >/proc/$$/comm; while :; do sleep 0.2; done' _ "$name" {gfd}>&- 3>&- &
	track $!
	# two refreshes at least: ktop has seen it
	v=$(promq_metric ktop_refreshes_total)
	for ((i = 0; i < 60; i++)); do
		curl -s "http://127.0.0.1:$kp/metrics" >"$BATS_TEST_TMPDIR/full.prom"
		(($(promq_metric ktop_refreshes_total) >= v + 3)) && break
		sleep 0.25
	done
	# The hole: every slot taken, the new command hides in other.
	v=$(promq_metric ktop_metrics_dropped_groups)
	echo "folded into other: $v" >&2
	((v > 0))
	if grep -q "^ktop_processes{comm=\"$name\"}" "$BATS_TEST_TMPDIR/full.prom"; then return 1; fi
	# The unique names end; 8 s later they expire, and the new name has a series.
	exec {gfd}>&-
	for ((i = 0; i < 100; i++)); do
		[ "$(pgrep -c '^u[0-9]+-[0-9]')" = 0 ] && break
		sleep 0.1
	done
	t0=$(date +%s.%N)
	for ((i = 0; i < 80; i++)); do
		curl -s "http://127.0.0.1:$kp/metrics" >"$BATS_TEST_TMPDIR/now.prom"
		grep -q "^ktop_processes{comm=\"$name\"} 1" "$BATS_TEST_TMPDIR/now.prom" && break
		sleep 0.25
	done
	echo "its own series $(awk -v t="$t0" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - t }') s after the 300 ended (expiry 8 s)" >&2
	grep -q "^ktop_processes{comm=\"$name\"} 1" "$BATS_TEST_TMPDIR/now.prom"
	# and every one of the 300 leaves (those whose last tick came later, a little later)
	for ((i = 0; i < 20; i++)); do
		curl -s "http://127.0.0.1:$kp/metrics" >"$BATS_TEST_TMPDIR/now.prom"
		grep -q '^ktop_processes{comm="u[0-9]*-' "$BATS_TEST_TMPDIR/now.prom" || break
		sleep 0.25
	done
	if grep -q '^ktop_processes{comm="u[0-9]*-' "$BATS_TEST_TMPDIR/now.prom"; then return 1; fi
}

@test "other: a process named other is [other], not the overflow" {
	need_tracing
	local kp
	kp=$(promq freeport)
	start_ktop "$OUT" -b -d 0.3 --listen "127.0.0.1:$kp"
	wait_serving "$kp"
	bash -c 'printf other >/proc/$$/comm; sleep 1; :'
	wait_refreshes 2 "http://127.0.0.1:$kp/metrics"
	curl -s "http://127.0.0.1:$kp/metrics" >"$BATS_TEST_TMPDIR/p"
	grep -q '^ktop_processes{comm="\[other\]"}' "$BATS_TEST_TMPDIR/p"
	if grep -q '{comm="other"' "$BATS_TEST_TMPDIR/p"; then return 1; fi
}

# ---------------------------------------------------------------- hidepid

@test "hidepid: an unauthenticated --listen, a --textfile or a --remote-write is refused where /proc hides pids, unless --expose-hidepid" {
	need unshare util-linux
	[ "$(id -u)" -eq 0 ] || skip "needs root: a /proc of its own in a new mount namespace"
	# A procfs instance of its own (new pid and mount namespaces): the host's is untouched.
	run --separate-stderr unshare -m -p -f sh -c 'mount -t proc -o hidepid=2 proc /proc &&
		exec "$0" -b --no-trace -n 1 --listen 127.0.0.1:0' "$KTOP"
	echo "$status $stderr"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"mounted with hidepid="*"--listen without basic auth"*"--expose-hidepid"* ]]
	run --separate-stderr unshare -m -p -f sh -c 'mount -t proc -o hidepid=2 proc /proc &&
		exec "$0" -b --no-trace -n 1 --textfile "$1"' "$KTOP" "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--textfile (0644)"* ]]
	run --separate-stderr unshare -m -p -f sh -c 'mount -t proc -o hidepid=2 proc /proc &&
		exec "$0" -b --no-trace -n 1 --remote-write http://127.0.0.1:1/write' "$KTOP"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--remote-write would show every user"* ]]
	run --separate-stderr unshare -m -p -f sh -c 'mount -t proc -o hidepid=2 proc /proc &&
		exec "$0" -b --no-trace -n 1 --listen 127.0.0.1:0 --expose-hidepid' "$KTOP"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"mounted with hidepid="* ]]
	# without hidepid: nothing said
	run --separate-stderr "$KTOP" -b --no-trace -n 1 --listen 127.0.0.1:0
	[ -z "$stderr" ]
}
