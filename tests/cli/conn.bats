#!/usr/bin/env bats
# The Connections view (issue 35): one row per socket of the interval, from
# the sock events' socket, inet_sock_set_state and tcp_retransmit_skb.
# Compared with what the processes themselves did (helpers/byteswl.c: their
# calls' returns, their sockets' TCP_INFO), exactly.

load helpers/common

setup_file() {
	helper_prog byteswl || true
}

setup() {
	common_setup
	BW="$BATS_FILE_TMPDIR/byteswl"
	need_built "$BW"
	need_tracing "the sock events"
	[ -d /sys/kernel/tracing/events/sock/sock_send_length ] ||
		skip_kernel "no sock:sock_send_length (Linux before 6.3)"
	SHM=$(mktemp -d /dev/shm/ktop-conn.XXXXXX)
}

teardown() {
	common_teardown
	[ -n "${SHM:-}" ] && rm -rf "$SHM"
	return 0
}

# conn_run CMD...: ktop's Connections view as CSV ($OUT) over the intervals
# CMD (byteswl tcp, its report $SHM/tcp) runs in, until both ends of its
# connection have closed (an interval without sockets has no line to wait for)
conn_run() {
	local i port
	KTOP_STATS=1 "$KTOP" -b --csv -d 0.5 --view connections >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	kpid=$!
	track "$kpid"
	ktop_started "$kpid"
	# past the baseline interval (its rows are not shown)
	sleep 1.2
	"$@"
	port=$(awk '/^server /{print $5}' "$SHM/tcp")
	for ((i = 0; i < 200; i++)); do
		[ "$(grep -E -c ",127\.0\.0\.1:$port,127\.0\.0\.1:[0-9]+,CLOSE,|,127\.0\.0\.1:[0-9]+,127\.0\.0\.1:$port,CLOSE," "$OUT")" -ge 2 ] && break
		sleep 0.1
	done
	kill -TERM "$kpid"
	wait "$kpid"
	grep -o ' lost=[0-9]*\|sockets=.*' "$OUT.err"
}

# conn_sum CSV PID PORT SIDE: the rows of PID's socket whose SIDE (local or
# remote) ends in :PORT, the other side not 0.0.0.0:0 (a listener): their
# tx_bytes, rx_bytes and retrans summed, the rows, the last tx_total,
# rx_total, retrans_total, state and opened
conn_sum() {
	awk -F, -v pid="$2" -v port="$3" -v side="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["pid"] == pid && $col[side] ~ (":" port "$") &&
		$col["local"] != "0.0.0.0:0" && $col["remote"] != "0.0.0.0:0" {
			rows++; tx += $col["tx_bytes"]; rx += $col["rx_bytes"]; re += $col["retrans"]
			last = $col["tx_total"] " " $col["rx_total"] " " $col["retrans_total"] " " \
			       $col["state"] " " $col["opened"]
		}
		END { printf "tx=%d rx=%d retrans=%d rows=%d last=%s\n", tx, rx, re, rows, last }' "$1"
}

@test "conn: TCP on 127.0.0.1, 10,000,000 bytes sent and 1,000,000 answered: the pair's rows, with the port, exact" {
	conn_run "$BW" tcp 10000000 1000000 "$SHM/tcp"
	cat "$SHM/tcp"
	read -r _ spid stx srx port sre < <(grep '^server ' "$SHM/tcp")
	read -r _ cpid ctx crx _ cre < <(grep '^client ' "$SHM/tcp")
	[ "$ctx" -eq 10000000 ] && [ "$crx" -eq 1000000 ] && [ "$stx" -eq 1000000 ] && [ "$srx" -eq 10000000 ]
	# the client's connection to the server's port; the server's accepted one
	# on it; their retransmits (a busy loopback has some): skbs, at most
	# TCP_INFO's segments (the next test has them equal)
	run conn_sum "$OUT" "$cpid" "$port" remote
	echo "client $cpid, TCP_INFO total_retrans $cre: $output"
	[[ "$output" == "tx=10000000 rx=1000000 retrans="*" rows="*" last=10000000 1000000 "*" CLOSE seen" ]]
	re=${output#*retrans=}
	[ "${re%% *}" -le "$cre" ] && { [ "$cre" -eq 0 ] || [ "${re%% *}" -gt 0 ]; }
	run conn_sum "$OUT" "$spid" "$port" local
	echo "server $spid, TCP_INFO total_retrans $sre: $output"
	[[ "$output" == "tx=1000000 rx=10000000 retrans="*" rows="*" last=1000000 10000000 "*" CLOSE seen" ]]
	re=${output#*retrans=}
	[ "${re%% *}" -le "$sre" ] && { [ "$sre" -eq 0 ] || [ "${re%% *}" -gt 0 ]; }
	# named as processes, addresses and protocol as the kernel has them
	grep -q ",$cpid,byteswl,tcp,127\.0\.0\.1:[0-9]*,127\.0\.0\.1:$port," "$OUT"
	grep -q ",$spid,byteswl,tcp,127\.0\.0\.1:$port,127\.0\.0\.1:[0-9]*," "$OUT"
	# and the listener, with its state
	grep -q ",$spid,byteswl,tcp,127\.0\.0\.1:$port,0\.0\.0\.0:0,\(LISTEN\|CLOSE\)," "$OUT"
}

@test "conn: retransmits under 20% loss of the connection's data segments: each side's count is its socket's TCP_INFO total" {
	need_program nft nftables
	need_program unshare util-linux
	# In a network namespace of its own, whose lo loses 20% of the TCP data
	# segments arriving (a drop on the way out is no retransmit: the sender
	# sees it fail and sends again); only data: a FIN lost after TCP_INFO
	# was read would be counted by ktop alone. Nothing outside it is touched,
	# and the rule goes with the namespace. One segment a packet (lo's
	# gso_max_segs 1): the kernel's event is one per retransmitted skb,
	# TCP_INFO counts segments, so they are equal only then.
	cat >"$SHM/lossy" <<-'EOF'
		ip link set lo up || exit 3
		ip link set lo gso_max_segs 1 || exit 3
		nft add table inet loss || exit 3
		nft 'add chain inet loss in { type filter hook input priority 0 ; }' || exit 3
		nft add rule inet loss in meta l4proto tcp meta length gt 200 numgen random mod 5 eq 0 counter drop ||
			exit 3
		"$@" || exit
		nft list chain inet loss in | grep -o 'packets [0-9]*'
	EOF
	unshare -n sh "$SHM/lossy" true || skip_kernel "no network namespace with nftables here"
	conn_run unshare -n sh "$SHM/lossy" "$BW" tcp 2000000 1000000 "$SHM/tcp"
	cat "$SHM/tcp"
	read -r _ spid _ _ port sre < <(grep '^server ' "$SHM/tcp")
	read -r _ cpid _ _ _ cre < <(grep '^client ' "$SHM/tcp")
	# 20% of ~50 data segments lost: some retransmitted, surely
	[ "$((sre + cre))" -gt 0 ]
	run conn_sum "$OUT" "$cpid" "$port" remote
	echo "client $cpid, TCP_INFO total_retrans $cre: $output"
	[[ "$output" == "tx=2000000 rx=1000000 retrans=$cre rows="*" last=2000000 1000000 $cre CLOSE seen" ]]
	run conn_sum "$OUT" "$spid" "$port" local
	echo "server $spid, TCP_INFO total_retrans $sre: $output"
	[[ "$output" == "tx=1000000 rx=2000000 retrans=$sre rows="*" last=1000000 2000000 $sre CLOSE seen" ]]
}

@test "conn: UDP sockets (no addresses in the events): protocol and bytes; replay gives the view byte for byte (CSV, JSON, text)" {
	local f
	for f in --csv --json ""; do
		rm -f "$BATS_TEST_TMPDIR"/r.db*
		"$KTOP" -b -d 0.4 -n 7 -w "$BATS_TEST_TMPDIR/r.db" --view connections $f \
			--output "$OUT.live" 2>"$OUT.err" </dev/null 3>&- &
		kpid=$!
		track "$kpid"
		ktop_started "$kpid"
		sleep 1
		"$BW" tcp 1000000 100000 "$SHM/tcp"
		"$BW" udp 100 1000 "$SHM/udp"
		wait "$kpid"
		run -0 "$KTOP" -r "$BATS_TEST_TMPDIR/r.db" -b --view connections $f --output "$OUT.replay"
		cmp "$OUT.live" "$OUT.replay"
		grep -q byteswl "$OUT.live"
		[ "$f" = --csv ] || continue
		cat "$SHM/udp"
		read -r _ rpid _ rrx _ < <(grep '^receiver ' "$SHM/udp")
		read -r _ spid stx _ _ < <(grep '^sender ' "$SHM/udp")
		grep ",byteswl,udp," "$OUT.live"
		# each side: one socket, its bytes what its calls returned (peeks not counted)
		[ "$(awk -F, -v p="$spid" '$3 == p && $5 == "udp" && $6 == "-" { s += $10 } END { print s + 0 }' "$OUT.live")" -eq "$stx" ]
		[ "$(awk -F, -v p="$rpid" '$3 == p && $5 == "udp" && $6 == "-" { s += $11 } END { print s + 0 }' "$OUT.live")" -eq "$rrx" ]
	done
}

# udp_sum CSV PID: PID's UDP rows in the Connections view's CSV: their
# tx_bytes and rx_bytes summed, the rows, the last tx_total and rx_total
udp_sum() {
	awk -F, -v pid="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["pid"] == pid && $col["proto"] == "udp" {
			rows++; tx += $col["tx_bytes"]; rx += $col["rx_bytes"]
			last = $col["tx_total"] " " $col["rx_total"]
		}
		END { printf "tx=%d rx=%d rows=%d last=%s\n", tx, rx, rows, last }' "$1"
}

# net_sum CSV PID: PID's net_tx_bytes and net_rx_bytes summed over the process table's CSV
net_sum() {
	awk -F, -v pid="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["pid"] == pid { tx += $col["net_tx_bytes"]; rx += $col["net_rx_bytes"] }
		END { printf "tx=%d rx=%d\n", tx, rx }' "$1"
}

@test "conn: a UDP socket freed and made again at its address by another process is another row, each with its own bytes; the processes' rows as before; replay byte for byte" {
	local i
	"$KTOP" -b --csv -d 0.3 -w "$BATS_TEST_TMPDIR/r.db" --view connections \
		--output "$OUT" 2>"$OUT.err" </dev/null 3>&- &
	kpid=$!
	track "$kpid"
	ktop_started "$kpid"
	# past the baseline interval (its rows are not shown)
	sleep 1
	# the second sender's socket is where the first's was (/proc/net/udp's pointer)
	"$BW" udp-reuse 20 1000 "$SHM/reuse"
	cat "$SHM/reuse"
	read -r _ rpid _ rrx _ < <(grep '^receiver ' "$SHM/reuse")
	# until the receiver's interval is written (its socket's bytes, all of them)
	for ((i = 0; i < 200; i++)); do
		[[ "$(udp_sum "$OUT" "$rpid")" == "tx=0 rx=$rrx "* ]] && break
		sleep 0.05
	done
	kill -TERM "$kpid"
	wait "$kpid"
	read -r _ fpid ftx _ _ fptr < <(grep '^first ' "$SHM/reuse")
	read -r _ spid stx _ _ sptr _ < <(grep '^second ' "$SHM/reuse")
	[ "$fptr" = "$sptr" ] && [ "$fpid" != "$spid" ]
	[ "$ftx" -eq 20000 ] && [ "$stx" -eq 21021 ] && [ "$rrx" -eq 41021 ]
	grep ",udp," "$OUT"
	# each its own row: its bytes, and its totals only its own (not the other's)
	run udp_sum "$OUT" "$fpid"
	echo "first $fpid sent $ftx: $output"
	[[ "$output" == "tx=$ftx rx=0 rows="*" last=$ftx 0" ]]
	run udp_sum "$OUT" "$spid"
	echo "second $spid sent $stx: $output"
	[[ "$output" == "tx=$stx rx=0 rows="*" last=$stx 0" ]]
	run udp_sum "$OUT" "$rpid"
	echo "receiver $rpid received $rrx: $output"
	[[ "$output" == "tx=0 rx=$rrx rows="*" last=0 $rrx" ]]
	# the processes' own counts (per thread, sockev.c) are the same numbers
	run -0 "$KTOP" -r "$BATS_TEST_TMPDIR/r.db" -b --csv -o pid,comm,net_tx_bytes,net_rx_bytes \
		--output "$OUT.procs"
	[ "$(net_sum "$OUT.procs" "$fpid")" = "tx=$ftx rx=0" ]
	[ "$(net_sum "$OUT.procs" "$spid")" = "tx=$stx rx=0" ]
	[ "$(net_sum "$OUT.procs" "$rpid")" = "tx=0 rx=$rrx" ]
	run -0 "$KTOP" -r "$BATS_TEST_TMPDIR/r.db" -b --csv --view connections --output "$OUT.replay"
	cmp "$OUT" "$OUT.replay"
}

@test "conn: recordings older than format 9 (without sockets) replay, and the Connections view says they are not recorded in them" {
	local f=tests/fuzz/corpus/replay/procs-keyframes-f5
	[ "$(sqlite3 "file:$f?immutable=1" 'PRAGMA user_version')" = 5 ]
	run --separate-stderr "$KTOP" -r "$f" -b --view connections
	[ "$status" -eq 0 ]
	[ "$stderr" = "ktop: the connections view: the sockets are not recorded in this file (format 5; ktop records them from format 9)" ]
	[ "$(grep -c '^Connections: not recorded in this file (format 5' <<<"$output")" -eq "$(grep -c '^ktop - ' <<<"$output")" ]
	# format 8 (the Disks view's): a recording without a socket in it is one
	"$KTOP" -b --no-trace -d 0.2 -n 3 -w "$BATS_TEST_TMPDIR/f8.db" >/dev/null 2>&1 </dev/null 3>&-
	sqlite3 "$BATS_TEST_TMPDIR/f8.db" 'PRAGMA user_version=8'
	run -0 --separate-stderr "$KTOP" -r "$BATS_TEST_TMPDIR/f8.db" -b --json --view connections
	[ "$(jq -s 'length' <<<"$output")" -eq 3 ]
	jq -e -s 'all(.[]; .connections == "not recorded in this file (format 8; ktop records them from format 9)" and .rows == [])' <<<"$output"
	# the processes of both files are there as before
	run -0 --separate-stderr "$KTOP" -r "$f" -b --csv
	[ "${#lines[@]}" -ge 3 ]
	run -0 --separate-stderr "$KTOP" -r "$BATS_TEST_TMPDIR/f8.db" -b --csv
	[ "${#lines[@]}" -ge 3 ]
}
