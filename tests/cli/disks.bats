#!/usr/bin/env bats
# The Disks view (--view disks) and the exporter's per-device families against
# the kernel's own count: /sys/block/DEV/stat, whose reads and writes
# completed and sectors are counted at the same completions ktop reads
# (block:block_rq_complete). The device is a loop device over a file of this
# test's own (losetup), so that nothing but the test's I/O reaches it: dd with
# O_DIRECT, requests of known size and number. No losetup (or no loop
# driver): skipped, and said.

load helpers/common

setup() {
	common_setup
	need_tracing "the block devices are counted from kernel events"
	need_program losetup mount
	IMG="$BATS_TEST_TMPDIR/disk.img"
	truncate -s 32M "$IMG"
	LOOP=$(losetup --find --show "$IMG" 2>"$BATS_TEST_TMPDIR/losetup.err") ||
		skip "losetup cannot attach a loop device here: $(cat "$BATS_TEST_TMPDIR/losetup.err")"
	DEV=${LOOP#/dev/}
	# udev's probe of the new device (blkid reads it) is done before counting starts.
	command -v udevadm >/dev/null && udevadm settle -t 10 2>/dev/null
	return 0
}

teardown() {
	common_teardown
	[ -z "${LOOP:-}" ] || losetup -d "$LOOP"
}

# stat_of: reads_completed read_sectors writes_completed write_sectors of $DEV.
stat_of() {
	awk '{ print $1, $3, $5, $7 }' "/sys/block/$DEV/stat"
}

# json_sum FILE KEY: KEY summed over FILE's rows of $DEV (--json, one object per interval).
json_sum() {
	jq -s --arg d "$DEV" --arg k "$2" \
		'[.[].rows[] | select(.device == $d) | .[$k] // 0] | add // 0' "$1"
}

@test "disks: a loop device's reads, writes and their bytes are /sys/block/DEV/stat's, exactly; p50 <= p99 <= max; dd is the submitter" {
	need_program jq
	"$KTOP" -b --json --view disks -d 0.3 >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	local kp=$!
	track "$kp"
	ktop_started "$kp"
	# the baseline, then a counted interval: from now on every completion is counted
	wait_for_lines "$OUT" 2 10
	read -r r0 rs0 w0 ws0 < <(stat_of)
	dd if=/dev/zero of="$LOOP" bs=4k count=300 oflag=direct status=none
	dd if="$LOOP" of=/dev/null bs=8k count=200 iflag=direct status=none
	dd if=/dev/zero of="$LOOP" bs=64k count=7 seek=100 oflag=direct status=none
	read -r r1 rs1 w1 ws1 < <(stat_of)
	# two more intervals, and until every request is timed (a completion
	# whose issue's CPU was read late waits for it), 20 intervals at most
	local n i
	n=$(wc -l <"$OUT")
	wait_for_lines "$OUT" $((n + 2)) 10
	for ((i = 0; i < 100; i++)); do
		[ "$(json_sum "$OUT" timed 2>/dev/null)" = 507 ] && break
		[ "$(wc -l <"$OUT")" -ge $((n + 20)) ] && break
		sleep 0.1
	done
	kill -TERM "$kp"
	wait "$kp" || true

	# the kernel's count of the workload, as dd made it
	[ $((w1 - w0)) -eq 307 ] || { echo "stat: $((w1 - w0)) writes, not 307 (other I/O on $DEV?)" >&2; return 1; }
	[ $((r1 - r0)) -eq 200 ]
	[ $((ws1 - ws0)) -eq $((300 * 8 + 7 * 128)) ]
	[ $((rs1 - rs0)) -eq $((200 * 16)) ]

	local reads writes rb wb
	reads=$(json_sum "$OUT" reads)
	writes=$(json_sum "$OUT" writes)
	rb=$(json_sum "$OUT" read_bytes)
	wb=$(json_sum "$OUT" write_bytes)
	echo "ktop: reads $reads writes $writes read_bytes $rb write_bytes $wb" >&2
	echo "stat: reads $((r1 - r0)) writes $((w1 - w0)) read_bytes $(((rs1 - rs0) * 512)) write_bytes $(((ws1 - ws0) * 512))" >&2
	[ "$reads" -eq $((r1 - r0)) ]
	[ "$writes" -eq $((w1 - w0)) ]
	[ "$rb" -eq $(((rs1 - rs0) * 512)) ]
	[ "$wb" -eq $(((ws1 - ws0) * 512)) ]
	# the totals of the last interval say the same
	[ "$(jq -s --arg d "$DEV" '[.[].rows[] | select(.device == $d)] | last | .writes_total' "$OUT")" -eq 307 ]

	# every request timed (issue and completion both read), in order of percentiles
	[ "$(json_sum "$OUT" timed)" -eq 507 ]
	run jq -s --arg d "$DEV" -r '.[].rows[] | select(.device == $d and .timed > 0) |
		"\(.p50_us) \(.p99_us) \(.max_us)"' "$OUT"
	[ "$status" -eq 0 ]
	[ -n "$output" ]
	while read -r p50 p99 max; do
		[ "$p50" -le "$p99" ] && [ "$p99" -le "$max" ] ||
			{ echo "p50 $p50 p99 $p99 max $max" >&2; return 1; }
	done <<<"$output"
	# dd submitted its direct I/O itself: it is named with its bytes
	run jq -s --arg d "$DEV" -r '.[].rows[] | select(.device == $d) | .submitters' "$OUT"
	[[ "$output" == *"dd["* ]]
	# nothing in flight once idle
	[ "$(jq -s --arg d "$DEV" '[.[].rows[] | select(.device == $d)] | last | .inflight' "$OUT")" -eq 0 ]
}

@test "disks: the text view names the device and its columns; CSV's header has the view's keys" {
	"$KTOP" -b --csv --view disks -d 0.3 >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	local kp=$!
	track "$kp"
	ktop_started "$kp"
	wait_for_file "$OUT" 10
	dd if=/dev/zero of="$LOOP" bs=4k count=10 oflag=direct status=none
	local i
	# summed over the intervals: a request completed after a refresh's cut counts in the next
	sums() { awk -F, -v d="$DEV" '$3 == d { r += $4; w += $5; rb += $6; wb += $7 } END { print r + 0, w + 0, rb + 0, wb + 0 }' "$OUT"; }
	for ((i = 0; i < 100; i++)); do
		[ "$(sums)" = "0 10 0 40960" ] && break
		sleep 0.1
	done
	kill -TERM "$kp"
	wait "$kp" || true
	head -1 "$OUT" | grep -q '^time,interval_s,device,reads,writes,read_bytes,write_bytes,p50_us,p99_us,max_us,inflight,queue_avg,submitters,'
	echo "reads, writes, their bytes: $(sums)"
	[ "$(sums)" = "0 10 0 40960" ]
	run "$KTOP" -b --view disks -d 0.3 -n 2
	[ "$status" -eq 0 ]
	[[ "$output" == *"DEVICE"*"RD/s"*"WR/s"*"P99"*"AQU"*"SUBMITTERS"* ]]
}

@test "disks: the exporter's per-device counters equal /sys/block/DEV/stat's and pass promtool" {
	need_program promtool prometheus
	local kp port i
	port=$("$PY" "$HELPERS/promq.py" freeport)
	KTOP_STATS=1 "$KTOP" -b --listen "127.0.0.1:$port" -d 0.3 >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	kp=$!
	track "$kp"
	ktop_started "$kp"
	# two refreshes: past the baseline
	for ((i = 0; i < 100; i++)); do
		curl -s "http://127.0.0.1:$port/metrics" >"$OUT.prom" 2>/dev/null &&
			grep -q '^ktop_refreshes_total [2-9]' "$OUT.prom" && break
		sleep 0.1
	done
	read -r r0 rs0 w0 ws0 < <(stat_of)
	dd if=/dev/zero of="$LOOP" bs=4k count=123 oflag=direct status=none
	dd if="$LOOP" of=/dev/null bs=4k count=45 iflag=direct status=none
	read -r r1 rs1 w1 ws1 < <(stat_of)
	# until every request is timed (a completion whose issue's CPU was read
	# late waits for it some refreshes), 20 refreshes at most
	local ticks
	ticks=$(awk '/^ktop_refreshes_total/ { print $2 }' "$OUT.prom")
	val() { awk -v s="$1" '$1 == s { print $2 }' "$OUT.prom"; }
	for ((i = 0; i < 200; i++)); do
		curl -s "http://127.0.0.1:$port/metrics" >"$OUT.prom" || { sleep 0.1; continue; }
		[ "$(val "ktop_disk_device_latency_seconds_count{device=\"$DEV\"}")" = 168 ] &&
			[ "$(val ktop_refreshes_total)" -ge $((ticks + 2)) ] && break
		[ "$(val ktop_refreshes_total)" -ge $((ticks + 20)) ] && break
		sleep 0.1
	done
	kill -TERM "$kp"
	wait "$kp" || true
	grep '^ktop-stats: block_' "$OUT.err" >&2 || true
	run promtool check metrics <"$OUT.prom"
	echo "$output" >&2
	[ "$status" -eq 0 ]
	[ "$(val "ktop_disk_device_operations_total{device=\"$DEV\",direction=\"write\"}")" -eq $((w1 - w0)) ]
	[ "$(val "ktop_disk_device_operations_total{device=\"$DEV\",direction=\"read\"}")" -eq $((r1 - r0)) ]
	[ "$(val "ktop_disk_device_bytes_total{device=\"$DEV\",direction=\"write\"}")" -eq $(((ws1 - ws0) * 512)) ]
	[ "$(val "ktop_disk_device_bytes_total{device=\"$DEV\",direction=\"read\"}")" -eq $(((rs1 - rs0) * 512)) ]
	[ $((w1 - w0)) -eq 123 ] && [ $((r1 - r0)) -eq 45 ]
	[ "$(val "ktop_disk_device_latency_seconds_count{device=\"$DEV\"}")" -eq 168 ]
	[ "$(val "ktop_disk_device_latency_seconds_bucket{device=\"$DEV\",le=\"+Inf\"}")" -eq 168 ]
	grep -q '^# TYPE ktop_disk_device_latency_seconds histogram' "$OUT.prom"
	[ "$(val "ktop_disk_device_requests_in_flight{device=\"$DEV\"}")" -eq 0 ]
}

@test "disks: recorded with -w and replayed (-r -b --csv --view disks): byte for byte the live CSV, whose sums are /sys/block/DEV/stat's" {
	"$KTOP" -b --csv --view disks -d 0.3 -w "$BATS_TEST_TMPDIR/rec.db" >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	local kp=$!
	track "$kp"
	ktop_started "$kp"
	# the baseline, then a counted interval
	wait_for_lines "$OUT" 3 30
	read -r r0 rs0 w0 ws0 < <(stat_of)
	dd if=/dev/zero of="$LOOP" bs=4k count=150 oflag=direct status=none
	dd if="$LOOP" of=/dev/null bs=16k count=40 iflag=direct status=none
	read -r r1 rs1 w1 ws1 < <(stat_of)
	# two more intervals of the device: its I/O is in the ones written
	local n i
	n=$(grep -c ",$DEV," "$OUT" || true)
	for ((i = 0; i < 100; i++)); do
		[ "$(grep -c ",$DEV," "$OUT" || true)" -ge $((n + 2)) ] && break
		sleep 0.1
	done
	kill -TERM "$kp"
	wait "$kp" || true
	[ $((w1 - w0)) -eq 150 ] && [ $((r1 - r0)) -eq 40 ] ||
		{ echo "stat: $((w1 - w0)) writes, $((r1 - r0)) reads (other I/O on $DEV?)" >&2; return 1; }
	run --separate-stderr "$KTOP" -r "$BATS_TEST_TMPDIR/rec.db" -b --csv --view disks
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] || { echo "replay: $stderr" >&2; return 1; }
	printf '%s\n' "$output" >"$OUT.replay"
	diff "$OUT" "$OUT.replay" >&2
	# the same numbers as the kernel's: reads, writes, bytes of the device
	local sums
	sums=$(awk -F, -v d="$DEV" '$3 == d { r += $4; w += $5; rb += $6; wb += $7 } END { print r, w, rb, wb }' "$OUT.replay")
	echo "replay: $sums; stat: $((r1 - r0)) $((w1 - w0)) $(((rs1 - rs0) * 512)) $(((ws1 - ws0) * 512))" >&2
	[ "$sums" = "$((r1 - r0)) $((w1 - w0)) $(((rs1 - rs0) * 512)) $(((ws1 - ws0) * 512))" ]
}

@test "disks: a recording of an older format (without the devices) replays, and the Disks view says they are not recorded in it" {
	local f=tests/fuzz/corpus/replay/procs-keyframes-f5
	[ "$(sqlite3 "file:$f?immutable=1" 'PRAGMA user_version')" = 5 ]
	run --separate-stderr "$KTOP" -r "$f" -b --view disks
	[ "$status" -eq 0 ]
	[[ "$stderr" == "ktop: the disks view: the block devices are not recorded in this file (format 5; ktop records them from format "[0-9]*")" ]]
	[ "$(grep -c '^Disks: not recorded in this file (format 5' <<<"$output")" -eq "$(grep -c '^ktop - ' <<<"$output")" ]
	run --separate-stderr "$KTOP" -r "$f" -b --json --view disks
	[ "$status" -eq 0 ]
	jq -e -s 'length > 0 and all(.[]; (.disks | startswith("not recorded in this file")) and .rows == [])' <<<"$output"
	# the processes of the same file are there as before
	run -0 --separate-stderr "$KTOP" -r "$f" -b --csv
	[ "${#lines[@]}" -ge 3 ]
}

@test "disks: not root (nobody with access to tracefs): its own submitter named, root's dd counted as another user's task, not named" {
	[ "$(id -u)" -eq 0 ] || skip "needs root (to become nobody)"
	id nobody >/dev/null 2>&1 || skip "no user nobody"
	need_program setpriv util-linux
	local dir as_nobody kp i
	dir=$(mktemp -d /tmp/ktop-nobody.XXXXXX)
	chmod 755 "$dir"
	cp "$KTOP" "$dir/ktop"
	# tracefs as a tracing group would give it: CAP_DAC_OVERRIDE, nothing else
	as_nobody="setpriv --reuid=nobody --regid=$(id -gn nobody) --clear-groups --inh-caps=+dac_override --ambient-caps=+dac_override"
	$as_nobody "$dir/ktop" -b --csv --view disks -d 0.3 >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	kp=$!
	track "$kp"
	wait_for_lines "$OUT" 3 30
	# root's dd, then nobody's own (the loop device opened to it for this)
	dd if=/dev/zero of="$LOOP" bs=4k count=50 oflag=direct status=none
	chmod o+rw "$LOOP"
	# a process /proc has read as nobody's before it writes (as a row, a task
	# is known to be the user's once read; one gone before is nobody's to see)
	setpriv --reuid=nobody --regid="$(id -gn nobody)" --clear-groups sh -c \
		'sleep 1; exec dd if=/dev/zero of="$1" bs=4k count=30 seek=100 oflag=direct status=none' _ "$LOOP"
	for ((i = 0; i < 100; i++)); do
		grep -q ",$DEV,0,[1-9]" "$OUT" && [ "$(grep -c ",$DEV," "$OUT" || true)" -ge 3 ] && break
		sleep 0.1
	done
	sleep 0.7
	kill -TERM "$kp"
	wait "$kp" || true
	rm -rf "$dir"
	cat "$OUT.err" >&2
	grep ",$DEV," "$OUT" >&2
	# the device's numbers are the whole system's (80 writes), as /sys/block/DEV/stat's
	[ "$(awk -F, -v d="$DEV" '$3 == d { w += $5 } END { print w + 0 }' "$OUT")" -eq 80 ]
	# nobody's dd named with its bytes; root's not named, counted
	grep ",$DEV," "$OUT" | grep -q 'dd\[[0-9]*\] 120.0K'
	! grep ",$DEV," "$OUT" | grep -q 'dd\[[0-9]*\] 200.0K'
	grep ",$DEV," "$OUT" | grep -q "1 other users' task"
}

@test "disks: with -p the block events are off, and the view says why (text and JSON), not an empty table" {
	need_program jq
	sleep 30 &
	local sp=$!
	track "$sp"
	run -0 "$KTOP" -b --view disks -p "$sp" -d 0.2 -n 2
	[[ "$output" == *"Disks: not counted with -p or -- CMD: the kernel's pid filter would drop other tasks' completions"* ]]
	run -0 --separate-stderr "$KTOP" -b --json --view disks -p "$sp" -d 0.2 -n 2
	[[ "$stderr" == *"the block devices are not counted with -p"* ]]
	jq -e -s 'all(.[]; .disks | startswith("not counted with -p"))' <<<"$output"
	kill "$sp"
}
