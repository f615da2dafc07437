#!/usr/bin/env bats
# Where the bytes go (issue 35): disk bytes per process from /proc/PID/io and,
# for the dead, their exit records; network bytes from the sock events (TCP,
# UDP with peeks, sendfile, splice, in a network namespace); groups, exporter,
# replay. Compared with what the processes themselves did: their calls'
# returns and their /proc/self/io (helpers/byteswl.c), exactly.

load helpers/common

setup_file() {
	helper_prog byteswl || true
}

setup() {
	common_setup
	BW="$BATS_FILE_TMPDIR/byteswl"
	need_built "$BW"
	# a disk file system: tmpfs has no block I/O to account
	DISKDIR=$(mktemp -d "${KTOP_DISK_DIR:-/var/tmp}/ktop-bytes.XXXXXX")
	case "$(stat -f -c %T "$DISKDIR")" in
	tmpfs | ramfs) skip "$DISKDIR is not on a disk file system" ;;
	esac
	[ -r /proc/self/io ] || skip_kernel "no /proc/PID/io (CONFIG_TASK_IO_ACCOUNTING)"
	# the workloads' reports: where writing them is no disk I/O of theirs
	SHM=$(mktemp -d /dev/shm/ktop-bytes.XXXXXX)
}

teardown() {
	common_teardown
	[ -n "${DISKDIR:-}" ] && rm -rf "$DISKDIR"
	[ -n "${SHM:-}" ] && rm -rf "$SHM"
	return 0
}

# sum_col CSV PID KEY: the column KEY of PID's rows, summed over the intervals
# (empty cells are unknown: none may be); "rows N" and "X ROWVALUE" too.
sum_col() {
	awk -F, -v pid="$2" -v key="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["pid"] == pid {
			rows++
			if ($col[key] == "" && $col["interval_s"] != "") unknown++
			sum += $col[key]
			if ($col["state"] == "X") x = $col[key]
		}
		END { printf "%d rows=%d unknown=%d X=%s\n", sum, rows, unknown, x }' "$1"
}

# disk_live_start: byteswl disk-live, its pid and /proc/self/io (pid r0 w0)
disk_live_start() {
	"$BW" disk-live "$DISKDIR/f" "$SHM/go" "$SHM/report" </dev/null 3>&- &
	track $!
	wait_for_file "$SHM/report" 10
	read -r pid r0 w0 <"$SHM/report"
}

# disk_live_go: let it write and read back 3 MiB; its /proc/self/io after (r1 w1)
disk_live_go() {
	local i
	touch "$SHM/go"
	for ((i = 0; i < 200; i++)); do
		[ "$(wc -l <"$SHM/report")" -ge 2 ] && break
		sleep 0.05
	done
	read -r _ r1 w1 < <(tail -n 1 "$SHM/report")
}

@test "bytes: 8 MiB written + fsync, 1 MiB read back, then exit: the X row's disk bytes exact (exit record)" {
	[ "$(id -u)" -eq 0 ] || skip "exit records need root (CAP_NET_ADMIN)"
	"$KTOP" -b --csv -d 1 --no-trace -o pid,state,comm,disk_read_bytes,disk_write_bytes \
		>"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	kpid=$!
	track "$kpid"
	# written before, its blocks allocated: the workload writes over them, so
	# that no metadata it dirties (a directory entry, a block bitmap) counts
	head -c 8388608 /dev/zero >"$DISKDIR/f"
	sync "$DISKDIR/f"
	wait_for_lines "$OUT" 3 10
	"$BW" disk-die "$DISKDIR/f" 8388608 1048576 "$SHM/report"
	read -r pid rd wr <"$SHM/report"
	echo "/proc/$pid/io at its exit: read_bytes $rd write_bytes $wr"
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t" 10
	kill -TERM "$kpid"
	wait "$kpid"
	grep -q ",$pid,X,byteswl," "$OUT" || { echo "no X row of $pid" >&2; cat "$OUT.err" >&2; false; }
	run sum_col "$OUT" "$pid" disk_write_bytes
	echo "write: $output"
	# the kernel's own count, exactly; it is the 8 MiB written, but for a page
	# of file system metadata now and then (about 1 run in 20 here) that the
	# kernel charges to the process that dirtied it
	[[ "$output" == "$wr "*"unknown=0"* ]]
	[ "$wr" -ge 8388608 ] && [ "$wr" -le $((8388608 + 16384)) ]
	# within one interval (the usual case): the exit record alone, whole
	if [[ "$output" == *"rows=1 "* ]]; then [[ "$output" == *"X=$wr" ]]; fi
	run sum_col "$OUT" "$pid" disk_read_bytes
	echo "read: $output"
	[[ "$output" == "$rd "*"unknown=0"* ]]
	[ "$rd" -eq 1048576 ]
}

@test "bytes: a live process's disk bytes summed over the intervals equal its /proc/PID/io deltas" {
	"$KTOP" -b --csv -d 0.4 --no-trace -o pid,state,comm,disk_read_bytes,disk_write_bytes \
		>"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	kpid=$!
	track "$kpid"
	disk_live_start
	# ktop has read its /proc/PID/io once before it writes: a tick after its start
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t" 10
	disk_live_go
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t" 10
	kill -TERM "$kpid"
	wait "$kpid"
	echo "/proc/$pid/io: read_bytes $r0 -> $r1, write_bytes $w0 -> $w1"
	[ "$((w1 - w0))" -ge 3145728 ]
	[ "$((r1 - r0))" -ge 6291456 ]
	run sum_col "$OUT" "$pid" disk_write_bytes
	echo "write: $output"
	[[ "$output" == "$((w1 - w0)) "*"unknown=0"* ]]
	run sum_col "$OUT" "$pid" disk_read_bytes
	echo "read: $output"
	[[ "$output" == "$((r1 - r0)) "*"unknown=0"* ]]
}

@test "bytes: replay gives the disk columns (processes, groups; CSV, JSON, text) byte for byte as recorded" {
	local f
	disk_live_start
	disk_live_go &
	"$BW" disk-die "$DISKDIR/g" 4194304 1048576 "$SHM/dies" &
	track $!
	run -0 "$KTOP" -b -d 0.3 -n 8 --no-trace -w "$BATS_TEST_TMPDIR/r.db" --csv \
		-o pid,state,comm,disk_read_bytes,disk_write_bytes --output "$OUT.live"
	run -0 "$KTOP" -r "$BATS_TEST_TMPDIR/r.db" -b --csv -o pid,state,comm,disk_read_bytes,disk_write_bytes \
		--output "$OUT.replay"
	cmp "$OUT.live" "$OUT.replay"
	# the bytes were there to be replayed
	awk -F, 'NR > 1 && $NF > 0 { n++ } END { exit !(n > 0) }' "$OUT.live"
	for f in --json "-o pid,comm,disk_read_bytes,disk_write_bytes" "--view groups --csv"; do
		rm -f "$BATS_TEST_TMPDIR"/r.db*
		# shellcheck disable=SC2086
		run -0 "$KTOP" -b -d 0.3 -n 6 --no-trace -w "$BATS_TEST_TMPDIR/r.db" $f --output "$OUT.live"
		# shellcheck disable=SC2086
		run -0 "$KTOP" -r "$BATS_TEST_TMPDIR/r.db" -b $f --output "$OUT.replay"
		cmp "$OUT.live" "$OUT.replay"
	done
	grep -q disk_write_bytes "$OUT.live"
}

@test "bytes: the exporter's ktop_disk_bytes_total of a command grows by its /proc/PID/io" {
	local port=$((20000 + RANDOM % 20000)) before after
	"$KTOP" -b --listen "127.0.0.1:$port" -d 0.4 --no-trace --metrics-group-by comm \
		>"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	kpid=$!
	track "$kpid"
	disk_live_start
	metric() {
		curl -s "127.0.0.1:$port/metrics" |
			awk -v d="$1" '$1 == "ktop_disk_bytes_total{comm=\"byteswl\",direction=\"" d "\"}" { print $2 }'
	}
	for ((i = 0; i < 100; i++)); do
		before=$(metric write)
		[ -n "$before" ] && break
		sleep 0.1
	done
	[ -n "$before" ]
	rbefore=$(metric read)
	disk_live_go
	# two refreshes later (0.4 s each) the counter holds all of it
	for ((i = 0; i < 100; i++)); do
		after=$(metric write)
		[ "$((after - before))" -ge "$((w1 - w0))" ] && break
		sleep 0.1
	done
	rafter=$(metric read)
	echo "exporter write $before -> $after, /proc/$pid/io $w0 -> $w1; read $rbefore -> $rafter, $r0 -> $r1"
	[ "$((after - before))" -eq "$((w1 - w0))" ]
	[ "$((rafter - rbefore))" -eq "$((r1 - r0))" ]
}

# net_run CMD...: ktop's CSV ($OUT) of the intervals CMD runs in (traced).
net_run() {
	"$KTOP" -b --csv -d 0.5 -o pid,state,comm,net_tx_bytes,net_rx_bytes \
		>"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	kpid=$!
	track "$kpid"
	ktop_started "$kpid"
	wait_for_lines "$OUT" 3 10
	sleep 0.6
	"$@"
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t" 10
	wait_tick_after "$OUT" "$(tail -n 1 "$OUT" | cut -d, -f1)" 10
	kill -TERM "$kpid"
	wait "$kpid"
}

# need_sock_events: tracing, and a kernel with the sock events (6.3+)
need_sock_events() {
	need_tracing "the sock events"
	[ -d /sys/kernel/tracing/events/sock/sock_send_length ] ||
		skip_kernel "no sock:sock_send_length (Linux before 6.3)"
}

# tcp_and_udp: byteswl tcp (10,000,000 bytes, 1,000,000 answered) and udp
# (1,000 datagrams of 1,000 bytes, each peeked first); reports in $SHM
tcp_and_udp() {
	"$BW" tcp 10000000 1000000 "$SHM/tcp"
	"$BW" udp 1000 1000 "$SHM/udp"
}

# net_check REPORT ROLE: ROLE's sums in $OUT are what its calls returned
net_check() {
	local role pid tx rx
	read -r role pid tx rx _ < <(grep "^$2 " "$1")
	run sum_col "$OUT" "$pid" net_tx_bytes
	echo "$role $pid sent $tx: ktop $output"
	[[ "$output" == "$tx "*"unknown=0"* ]]
	run sum_col "$OUT" "$pid" net_rx_bytes
	echo "$role $pid received $rx: ktop $output"
	[[ "$output" == "$rx "*"unknown=0"* ]]
}

@test "bytes: TCP on 127.0.0.1, 10,000,000 bytes sent and 1,000,000 answered: the four sums exact" {
	need_sock_events
	net_run tcp_and_udp
	cat "$SHM/tcp"
	[ "$(grep -c '^server .* 1000000 10000000 ' "$SHM/tcp")" -eq 1 ]
	[ "$(grep -c '^client .* 10000000 1000000 ' "$SHM/tcp")" -eq 1 ]
	net_check "$SHM/tcp" server
	net_check "$SHM/tcp" client
}

@test "bytes: UDP, 1,000 datagrams of 1,000 bytes, each peeked (MSG_PEEK) then read: counted once" {
	need_sock_events
	net_run tcp_and_udp
	cat "$SHM/udp"
	# the receiver peeked 1,000,000 bytes (its fifth field) and read as many
	[ "$(grep -c '^receiver .* 0 1000000 [0-9]* 1000000$' "$SHM/udp")" -eq 1 ]
	net_check "$SHM/udp" receiver
	net_check "$SHM/udp" sender
}

@test "bytes: sendfile(2) and splice(2) of a file to a TCP socket, io_uring's sends: counted, exactly" {
	need_sock_events
	head -c 10000000 /dev/zero >"$SHM/file"
	files() {
		"$BW" tcp 10000000 1000000 "$SHM/sendfile" sendfile "$SHM/file"
		"$BW" tcp 10000000 1000000 "$SHM/splice" splice "$SHM/file"
		if [ "$(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0)" != 2 ]; then
			"$BW" tcp 10000000 1000000 "$SHM/uring" uring -
		fi
	}
	net_run files
	net_check "$SHM/sendfile" client
	net_check "$SHM/sendfile" server
	net_check "$SHM/splice" client
	net_check "$SHM/splice" server
	[ -f "$SHM/uring" ] || skip_kernel "io_uring is disabled here (kernel.io_uring_disabled = 2)"
	net_check "$SHM/uring" client
	net_check "$SHM/uring" server
}

@test "bytes: TCP inside a network namespace of its own (as in a container): the same four sums" {
	need_sock_events
	need_program unshare util-linux
	need_program ip iproute2
	unshare -n true 2>/dev/null || skip_kernel "cannot make a network namespace here"
	in_netns() {
		unshare -n sh -c 'ip link set lo up && exec "$0" "$@"' "$BW" tcp 10000000 1000000 "$SHM/tcp"
	}
	net_run in_netns
	net_check "$SHM/tcp" server
	net_check "$SHM/tcp" client
}

@test "bytes: the groups view and the exporter's ktop_network_bytes_total grow by the same bytes" {
	need_sock_events
	local port=$((20000 + RANDOM % 20000)) tx rx i
	"$KTOP" -b --csv --view groups --group-by comm -d 0.5 --listen "127.0.0.1:$port" \
		>"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	kpid=$!
	track "$kpid"
	ktop_started "$kpid"
	wait_for_lines "$OUT" 3 10
	metric() {
		curl -s "127.0.0.1:$port/metrics" |
			awk -v d="$1" '$1 == "ktop_network_bytes_total{comm=\"byteswl\",direction=\"" d "\"}" { print $2 }'
	}
	# no byteswl yet: no series
	[ -z "$(metric transmit)" ]
	tcp_and_udp
	for ((i = 0; i < 100; i++)); do
		tx=$(metric transmit)
		rx=$(metric receive)
		[ "${tx:-0}" -ge 12000000 ] && [ "${rx:-0}" -ge 12000000 ] && break
		sleep 0.1
	done
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t" 10
	kill -TERM "$kpid"
	wait "$kpid"
	echo "exporter: transmit $tx receive $rx"
	[ "$tx" -eq 12000000 ]
	[ "$rx" -eq 12000000 ]
	run awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["group"] == "byteswl" { tx += $col["net_tx_bytes"]; rx += $col["net_rx_bytes"] }
		END { print tx, rx }' "$OUT"
	echo "groups view: $output"
	[ "$output" = "12000000 12000000" ]
}

@test "bytes: replay gives the network columns byte for byte as recorded" {
	need_tracing "the sock events"
	"$KTOP" -b -d 0.3 -n 8 -w "$BATS_TEST_TMPDIR/r.db" --csv \
		-o pid,state,comm,net_tx_bytes,net_rx_bytes --output "$OUT.live" </dev/null 3>&- &
	kpid=$!
	track "$kpid"
	ktop_started "$kpid"
	wait_for_lines "$OUT.live" 3 10
	tcp_and_udp
	wait "$kpid"
	run -0 "$KTOP" -r "$BATS_TEST_TMPDIR/r.db" -b --csv -o pid,state,comm,net_tx_bytes,net_rx_bytes \
		--output "$OUT.replay"
	cmp "$OUT.live" "$OUT.replay"
	# the bytes were there to be replayed
	grep -q ',byteswl,[1-9][0-9]*,' "$OUT.live"
}

@test "bytes: without the sock events (a kernel before 6.3): the network columns empty, the header says which are missing" {
	need_sock_events
	need_program unshare util-linux
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	# an empty directory over events/sock: as on Debian 12's 6.1, no sock_*_length
	run --separate-stderr unshare -m --propagation private sh -c \
		'mount --bind "$1" /sys/kernel/tracing/events/sock &&
		"$0" -b -n 2 -d 0.3 && "$0" -b --csv -n 3 -d 0.3 -o pid,comm,syscalls,net_tx_bytes,net_rx_bytes' \
		"$KTOP" "$BATS_TEST_TMPDIR/empty"
	[ "$status" -eq 0 ] || { echo "$stderr" >&2; return 1; }
	grep -q '^Events/s: .*events missing here: sock:sock_send_length sock:sock_recv_length sock:inet_sock_set_state; ' <<<"$output"
	# syscalls counted, the bytes unknown (empty), never 0
	grep '^[0-9.]*,[0-9.]*,[0-9]*,' <<<"$output" >"$OUT.csv"
	awk -F, '$2 != "" { rows++; if ($6 != "" || $7 != "") bad++; if ($5 > 0) sc++ }
		END { exit !(rows > 10 && !bad && sc > 0) }' "$OUT.csv"
}

@test "bytes: a recording made without the disk columns replays them (the recorder reads /proc/PID/io)" {
	disk_live_start
	# -b -w alone: the headless recorder, no column asked for
	"$KTOP" -b -d 0.3 -n 10 --no-trace -w "$BATS_TEST_TMPDIR/r.db" </dev/null >/dev/null 2>&1 3>&- &
	kpid=$!
	track "$kpid"
	for ((i = 0; i < 100; i++)); do
		[ "$(sqlite3 -readonly "$BATS_TEST_TMPDIR/r.db" 'SELECT count(*) FROM interval' 2>/dev/null ||
			echo 0)" -ge 2 ] && break
		sleep 0.05
	done
	disk_live_go
	wait "$kpid"
	"$KTOP" -r "$BATS_TEST_TMPDIR/r.db" -b --csv -o pid,state,comm,disk_read_bytes,disk_write_bytes >"$OUT"
	run sum_col "$OUT" "$pid" disk_write_bytes
	echo "its /proc/self/io: write_bytes $w0 -> $w1; replayed: $output"
	[[ "$output" == "$((w1 - w0)) "*"unknown=0"* ]]
	[ "$((w1 - w0))" -ge 3145728 ]
}

@test "bytes: ktop run by another user: its own processes' disk bytes, root's unknown (empty), never 0" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to run ktop as nobody"
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	cp "$KTOP" "$SHM/ktop"
	chmod 755 "$SHM" "$SHM/ktop"
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups sleep 30 </dev/null 3>&- &
	mine=$!
	track "$mine"
	# until setpriv has become nobody's sleep (before, the pid is root's setpriv)
	for _ in $(seq 100); do
		[ "$(cat /proc/$mine/comm 2>/dev/null)" = sleep ] && break
		sleep 0.05
	done
	[ "$(stat -c %U /proc/$mine)" = nobody ]
	run -0 setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups \
		"$SHM/ktop" -b --csv -n 3 -d 0.3 -p "1,$mine" -o pid,user,disk_read_bytes,disk_write_bytes
	echo "$output"
	# pid 1 is root's: /proc/1/io needs ptrace access; nobody's sleep is read
	awk -F, -v mine="$mine" '$2 != "" && $3 == 1 { one++; if ($5 != "" || $6 != "") bad++ }
		$2 != "" && $3 == mine { own++; if ($5 != "0" || $6 != "0") bad++ }
		END { exit !(one == 2 && own == 2 && !bad) }' <<<"$output"
}
