#!/usr/bin/env bats
# Where the bytes go (issue 35): disk bytes per process from /proc/PID/io and,
# for the dead, their exit records; compared with what the processes
# themselves did and read of /proc/self/io (helpers/byteswl.c), exactly.

load helpers/common

setup_file() {
	local cc
	cc=$(command -v cc || command -v gcc) || return 0
	"$cc" -O2 -Wall -o "$BATS_FILE_TMPDIR/byteswl" "$BATS_TEST_DIRNAME/helpers/byteswl.c" ||
		echo "byteswl.c does not build" >&2
}

setup() {
	common_setup
	BW="$BATS_FILE_TMPDIR/byteswl"
	[ -x "$BW" ] || skip "helpers/byteswl.c was not built (no C compiler?)"
	# a disk file system: tmpfs has no block I/O to account
	DISKDIR=$(mktemp -d "${KTOP_DISK_DIR:-/var/tmp}/ktop-bytes.XXXXXX")
	case "$(stat -f -c %T "$DISKDIR")" in
	tmpfs | ramfs) skip "$DISKDIR is not on a disk file system" ;;
	esac
	[ -r /proc/self/io ] || skip "no /proc/PID/io (CONFIG_TASK_IO_ACCOUNTING)"
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

@test "bytes: 8 MiB written + fsync, 1 MiB read back, then exit: the X row's disk bytes exact (exit record)" {
	[ "$(id -u)" -eq 0 ] || skip "exit records need root (CAP_NET_ADMIN)"
	"$KTOP" -b --csv -d 1 --no-trace -o pid,state,comm,disk_read_bytes,disk_write_bytes \
		>"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	kpid=$!
	track "$kpid"
	# made before: its directory entry is not the workload's write
	: >"$DISKDIR/f"
	sync "$DISKDIR/f"
	wait_for_lines "$OUT" 3 10
	"$BW" disk-die "$DISKDIR/f" 8388608 1048576 "$SHM/report"
	read -r pid rd wr <"$SHM/report"
	echo "/proc/$pid/io at its exit: read_bytes $rd write_bytes $wr"
	[ "$wr" -eq 8388608 ]
	[ "$rd" -eq 1048576 ]
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t" 10
	kill -TERM "$kpid"
	wait "$kpid"
	grep -q ",$pid,X,byteswl," "$OUT" || { echo "no X row of $pid" >&2; cat "$OUT.err" >&2; false; }
	run sum_col "$OUT" "$pid" disk_write_bytes
	echo "write: $output"
	[[ "$output" == "8388608 "*"unknown=0"* ]]
	# within one interval (the usual case): the exit record alone, whole
	if [[ "$output" == *"rows=1 "* ]]; then [[ "$output" == *"X=8388608" ]]; fi
	run sum_col "$OUT" "$pid" disk_read_bytes
	echo "read: $output"
	[[ "$output" == "1048576 "*"unknown=0"* ]]
}

@test "bytes: a live process's disk bytes summed over the intervals equal its /proc/PID/io deltas" {
	"$KTOP" -b --csv -d 0.4 --no-trace -o pid,state,comm,disk_read_bytes,disk_write_bytes \
		>"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	kpid=$!
	track "$kpid"
	"$BW" disk-live "$DISKDIR/f" "$SHM/go" "$SHM/report" </dev/null 3>&- &
	track $!
	wait_for_file "$SHM/report" 10
	read -r pid r0 w0 <"$SHM/report"
	# ktop has read its /proc/PID/io once before it writes: a tick after its start
	t=$(date +%s.%N)
	wait_tick_after "$OUT" "$t" 10
	touch "$SHM/go"
	for ((i = 0; i < 200; i++)); do
		[ "$(wc -l <"$SHM/report")" -ge 2 ] && break
		sleep 0.05
	done
	read -r _ r1 w1 < <(tail -n 1 "$SHM/report")
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

# disk_load: a process that writes and reads back (O_DIRECT) 1 MiB a few times
disk_load() {
	"$BW" disk-live "$DISKDIR/f" "$SHM/go" "$SHM/report" </dev/null 3>&- &
	track $!
	wait_for_file "$SHM/report" 10
	touch "$SHM/go"
}

@test "bytes: replay gives the disk columns (processes, groups; CSV, JSON, text) byte for byte as recorded" {
	local f
	disk_load
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
	"$BW" disk-live "$DISKDIR/f" "$SHM/go" "$SHM/report" </dev/null 3>&- &
	track $!
	wait_for_file "$SHM/report" 10
	read -r pid r0 w0 <"$SHM/report"
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
	touch "$SHM/go"
	for ((i = 0; i < 200; i++)); do
		[ "$(wc -l <"$SHM/report")" -ge 2 ] && break
		sleep 0.05
	done
	read -r _ r1 w1 < <(tail -n 1 "$SHM/report")
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
