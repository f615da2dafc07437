#!/usr/bin/env bats
# Record (-w) and replay (-r): the replayed batch output is byte for byte what
# the recording run wrote (CSV, JSON, text, --syscalls; with and without
# tracing; from --begin to --end; across strftime files); kill -9 loses at most
# the interval being written; a full disk stops recording, not ktop; damaged,
# foreign, older and newer files are one-line errors, never a crash; --record-keep;
# a file still being written is followed; the man page's queries work.
# In a directory others write to (/tmp), nothing another user made first or
# plants meanwhile is written to, and retention counts only ktop's user's own
# blocks; a hostile recording (a view that never ends, a FIFO, a huge value,
# few bytes that stand for much: tasks sharing a command line, rows naming a
# syscall table, tests/helpers/recbomb.c) ends at once with one line, or
# replays in bounded memory.

load helpers/common

setup() {
	common_setup
	D="$BATS_TEST_TMPDIR"
}

teardown() {
	common_teardown
	if [ -n "${MNT:-}" ] && mountpoint -q "$MNT"; then
		umount "$MNT"
	fi
	if [ -n "${S:-}" ]; then
		rm -rf "$S"
	fi
	return 0
}

# A directory like /tmp that anyone may write to (sticky): $S, removed in teardown.
shared_dir() {
	S=$(mktemp -d /tmp/ktop-shared.XXXXXX)
	chmod 1777 "$S"
}

# as_nobody CMD...: CMD as the user nobody, the other user of these tests.
as_nobody() {
	setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"
}

# A mixed load while recording: short-lived commands, a failing open, a busy loop.
start_load() {
	# Each cat fails 200 opens: in the man page's top 10 of failed openat
	# whatever else fails beside it (a compiler searching its paths).
	sh -c 'f=/nonexistent-ktop-file; set -- $f $f $f $f $f $f $f $f $f $f; set -- "$@" "$@" "$@" "$@" "$@"
		set -- "$@" "$@" "$@" "$@"; while :; do cat "$@" 2>/dev/null; /bin/true; sleep 0.02; done' \
		</dev/null >/dev/null 2>&1 3>&- &
	track $!
	sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 3>&- &
	track $!
}

# wait_intervals DB N SECONDS: until the recording DB holds N intervals (a
# reader of a WAL database does not stop its writer).
wait_intervals() {
	local i n
	for ((i = 0; i < $3 * 20; i++)); do
		n=$(sqlite3 -readonly "$1" 'SELECT count(*) FROM interval' 2>/dev/null) || n=0
		[ "${n:-0}" -ge "$2" ] && return 0
		sleep 0.05
	done
	echo "timed out waiting for $2 intervals in $1" >&2
	return 1
}

trace_opt() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "--no-trace"
	fi
}

# same_replay FORMAT...: record with -b FORMAT -w, replay with -b FORMAT, compare.
same_replay() {
	local t
	t=$(trace_opt)
	run -0 "$KTOP" -b -d 0.3 -n 8 -w "$D/r.db" $t "$@" --output "$D/live.out"
	run -0 "$KTOP" -r "$D/r.db" -b "$@" --output "$D/replay.out"
	cmp "$D/live.out" "$D/replay.out"
	[ "$(wc -l <"$D/live.out")" -ge 2 ]
}

@test "replay: CSV byte for byte as recorded" {
	start_load
	same_replay --csv
}

@test "replay: JSON, text and --syscalls byte for byte as recorded" {
	start_load
	same_replay --json
	rm -f "$D"/r.db*
	same_replay -o pid,comm,state,cpu_pct,minflt,vcsw,ivcsw,syscalls,cmdline
	rm -f "$D"/r.db*
	[ "$(id -u)" -eq 0 ] || skip "--syscalls needs tracing (root)"
	same_replay --csv --syscalls
}

@test "replay: the system-wide views (syscalls, errors, subsystems, signals, groups) as recorded" {
	[ "$(id -u)" -eq 0 ] || skip "the system-wide views count kernel events (root)"
	start_load
	for v in syscalls errors subsystems signals groups; do
		rm -f "$D"/r.db*
		same_replay --csv --view "$v"
	done
}

@test "replay: /proc only and one row per thread, as recorded" {
	start_load
	run -0 "$KTOP" -b --csv --no-trace -H -d 0.3 -n 6 -w "$D/t.db" --output "$D/live.csv"
	run -0 "$KTOP" -r "$D/t.db" -b --csv --output "$D/replay.csv"
	cmp "$D/live.csv" "$D/replay.csv"
}

@test "replay: --begin and --end give the recorded lines of those intervals" {
	local t b e
	start_load
	t=$(trace_opt)
	KTOP_KEYFRAME_S=1 run -0 "$KTOP" -b --csv -d 0.3 -n 14 -w "$D/r.db" $t --output "$D/live.csv"
	# times as the CSV prints them: the 5th and the 11th interval
	b=$(cut -d, -f1 "$D/live.csv" | uniq | sed -n 6p)
	e=$(cut -d, -f1 "$D/live.csv" | uniq | sed -n 12p)
	run -0 "$KTOP" -r "$D/r.db" -b --csv --begin "$b" --end "$e" --output "$D/part.csv"
	awk -F, -v b="$b" -v e="$e" 'NR == 1 || ($1 >= b && $1 <= e)' "$D/live.csv" >"$D/want.csv"
	cmp "$D/want.csv" "$D/part.csv"
	[ "$(cut -d, -f1 "$D/part.csv" | uniq | wc -l)" -eq 8 ]
	# HH:MM:SS too: from that second on
	b=$(date -d "@${b%.*}" +%H:%M:%S)
	run -0 "$KTOP" -r "$D/r.db" -b --csv --begin "$b" -n 1
	[ "${#lines[@]}" -gt 1 ]
}

@test "record: -b -w alone writes nothing on stdout; the file is a sound SQLite database" {
	run -0 "$KTOP" -b -w "$D/h.db" -n 3 -d 0.2 $(trace_opt)
	[ -z "$output" ]
	[ "$(sqlite3 "$D/h.db" 'PRAGMA integrity_check')" = ok ]
	[ "$(sqlite3 "$D/h.db" 'SELECT count(*) FROM interval')" -eq 3 ]
	[ "$(stat -c %a "$D/h.db")" = 600 ]
	# closed cleanly: no WAL left, the file alone is the recording
	[ ! -e "$D/h.db-wal" ]
}

@test "record: kill -9 loses at most the interval being written" {
	local i p n shown
	start_load
	for i in 1 2 3; do
		rm -f "$D"/k.db*
		"$KTOP" -b -w "$D/k.db" -d 0.05 $(trace_opt) </dev/null >/dev/null 2>&1 3>&- &
		p=$!
		track $p
		# 4 intervals recorded, whatever the load, then killed at a point
		# of the refresh cycle left to chance
		wait_intervals "$D/k.db" 4 30
		sleep "0.$((RANDOM % 10))$((RANDOM % 10))"
		kill -KILL $p
		wait $p || true
		[ "$(sqlite3 "$D/k.db" 'PRAGMA integrity_check')" = ok ]
		n=$(sqlite3 "$D/k.db" 'SELECT count(*) FROM interval')
		[ "$n" -gt 3 ]
		shown=$("$KTOP" -r "$D/k.db" -b | grep -c '^ktop - ')
		[ "$shown" -eq "$n" ]
		# and ktop appends to it after the crash
		run -0 "$KTOP" -b -w "$D/k.db" -n 2 -d 0.1 $(trace_opt)
		[ "$(sqlite3 "$D/k.db" 'SELECT count(*) FROM interval')" -eq $((n + 2)) ]
	done
}

@test "record: a full disk stops recording with a message; batch output goes on" {
	[ "$(id -u)" -eq 0 ] || skip "mounting a small tmpfs needs root"
	local sz n=0
	MNT="$D/small"
	mkdir "$MNT"
	# A disk that holds some of the 60 intervals, not all: how many bytes
	# that is depends on the machine's processes (samples are compact).
	for sz in 96 128 192 256 384; do
		mount -t tmpfs -o size=${sz}k tmpfs "$MNT" || skip_kernel "cannot mount a tmpfs here"
		run --separate-stderr "$KTOP" -b --csv -d 0.05 -n 60 -w "$MNT/f.db" --output "$D/out.csv"
		n=$(sqlite3 "$MNT/f.db" 'SELECT count(*) FROM interval' 2>/dev/null || echo 0)
		[ "$status" -eq 1 ] && [ "$n" -gt 0 ] && break
		umount "$MNT"
	done
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"recording stopped: "*"full"* ]]
	[ "$(cut -d, -f1 "$D/out.csv" | uniq | wc -l)" -eq 61 ]
	[ "$(sqlite3 "$MNT/f.db" 'PRAGMA integrity_check')" = ok ]
	n=$(sqlite3 "$MNT/f.db" 'SELECT count(*) FROM interval')
	[ "$n" -gt 0 ] && [ "$n" -lt 60 ]
	[ "$("$KTOP" -r "$MNT/f.db" -b | grep -c '^ktop - ')" -eq "$n" ]
}

# ktop -r FILE -b: exit 0 or a one-line error and 1; never a signal.
replay_or_error() {
	run --separate-stderr "$KTOP" -r "$1" -b --csv
	if [ "$status" -ne 0 ]; then
		[ "$status" -eq 1 ] || { echo "$1: exit $status" >&2; return 1; }
		output=
		assert_one_line_error
	fi
}

@test "replay: recordings of formats 3 (each interval deflated alone) and 4 (the tables of format 4) still replay" {
	local f v
	for v in 3 4; do
		f=tests/fuzz/corpus/replay/procs-keyframes
		[ "$v" = 3 ] || f=$f-f$v
		[ "$(sqlite3 "file:$f?immutable=1" 'PRAGMA user_version')" = "$v" ]
		cp "$f" "$D/f$v.db"
		run -0 --separate-stderr "$KTOP" -r "$D/f$v.db" -b --csv
		[[ "$stderr" != *damaged* && "$stderr" != *format* ]]
		# the header and a row of each of its intervals shown
		[ "${#lines[@]}" -ge 4 ]
		[[ "${lines[0]}" == time,* ]]
	done
}

@test "replay: foreign, newer, empty, truncated, damaged files: one line, exit 1, no crash" {
	local size off i
	run -0 "$KTOP" -b -w "$D/good.db" -n 4 -d 0.2 $(trace_opt)
	echo "just text" >"$D/text.db"
	: >"$D/empty.db"
	sqlite3 "$D/other.db" 'CREATE TABLE t(a); INSERT INTO t VALUES (1)'
	cp "$D/good.db" "$D/newer.db"
	sqlite3 "$D/newer.db" 'PRAGMA user_version = 99'
	for f in text empty other newer; do
		run -1 --separate-stderr "$KTOP" -r "$D/$f.db" -b
		assert_one_line_error
	done
	[[ "$stderr" == *"newer"* ]]
	# formats 1 and 2 stored the model's rows, not the sources' samples: refused, saying so
	cp "$D/good.db" "$D/older.db"
	sqlite3 "$D/older.db" 'PRAGMA user_version = 2'
	run -1 --separate-stderr "$KTOP" -r "$D/older.db" -b
	assert_one_line_error
	[[ "$stderr" == *"recorded in format 2 by an older ktop"* ]]
	run -1 --separate-stderr "$KTOP" -r "$D/missing.db" -b
	assert_one_line_error
	[ ! -e "$D/missing.db" ]
	size=$(stat -c %s "$D/good.db")
	for i in $(seq 1 12); do
		head -c $((size * i / 13)) "$D/good.db" >"$D/cut.db"
		replay_or_error "$D/cut.db"
	done
	for i in $(seq 1 24); do
		cp "$D/good.db" "$D/bad.db"
		off=$((RANDOM * 32768 + RANDOM))
		off=$((off % size))
		head -c $((1 + RANDOM % 200)) /dev/urandom |
			dd of="$D/bad.db" bs=1 seek="$off" conv=notrunc status=none
		replay_or_error "$D/bad.db"
	done
	# a schema damaged into control bytes: the message stays one printable line
	cp "$D/good.db" "$D/schema.db"
	off=$(grep -boa 'CREATE VIEW syscall AS' "$D/schema.db" | head -n 1 | cut -d: -f1)
	if [ -n "$off" ]; then
		printf '\033]0;x\007\n\r' | dd of="$D/schema.db" bs=1 seek=$((off + 30)) conv=notrunc status=none
		run --separate-stderr "$KTOP" -r "$D/schema.db" -b
		if [ "$status" -ne 0 ]; then
			[ "$status" -eq 1 ]
			output=
			assert_one_line_error
			if printf '%s' "$stderr" | grep -q $'[\x01-\x1f\x7f]'; then return 1; fi
		fi
	fi
}

# edit_schema FILE TABLE FROM TO: the table's declaration edited in place (its rows as they are).
edit_schema() {
	sqlite3 "$1" "PRAGMA writable_schema = ON;
		UPDATE sqlite_master SET sql = replace(sql, '$3', '$4') WHERE name = '$2'"
}

@test "replay: a hostile schema (a view that never ends, a virtual table, columns not ktop's) ends at once, one line" {
	local f
	run -0 "$KTOP" -b -w "$D/good.db" -n 3 -d 0.2 $(trace_opt)
	# the interval table a view over an endless recursive query: it spun for ever
	cp "$D/good.db" "$D/view.db"
	sqlite3 "$D/view.db" "ALTER TABLE interval RENAME TO iv;
		CREATE VIEW interval AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)
		SELECT iv.* FROM iv, c"
	# sctab one, read after ktop blocks its signals: only SIGKILL ended it
	cp "$D/good.db" "$D/nested.db"
	sqlite3 "$D/nested.db" "CREATE VIEW forever AS WITH RECURSIVE c(x) AS
		(SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT * FROM c;
		ALTER TABLE sctab RENAME TO s0; CREATE VIEW sctab AS SELECT s0.* FROM s0, forever"
	cp "$D/good.db" "$D/vt.db"
	sqlite3 "$D/vt.db" "ALTER TABLE sctab RENAME TO s2; CREATE VIRTUAL TABLE sctab USING fts4(id, sc)"
	for f in dflt gen pk gone; do
		cp "$D/good.db" "$D/$f.db"
	done
	# a default (evaluated when a query is prepared), a generated column, a key that is not
	# ktop's, a column missing
	edit_schema "$D/dflt.db" session 'hz INTEGER' 'hz INTEGER DEFAULT (1)'
	edit_schema "$D/gen.db" interval 'samples BLOB' 'samples BLOB GENERATED ALWAYS AS (zeroblob(1000)) VIRTUAL'
	edit_schema "$D/pk.db" sctab 'id INTEGER PRIMARY KEY' 'id INTEGER'
	edit_schema "$D/gone.db" session 'pins TEXT' 'pinz TEXT'
	for f in view nested vt dflt gen pk gone; do
		run -1 --separate-stderr timeout -s KILL 30 "$KTOP" -r "$D/$f.db" -b
		assert_one_line_error
		[[ "$stderr" == *": not a ktop recording: "* ]]
	done
	run -1 --separate-stderr "$KTOP" -r "$D/view.db" -b
	[[ "$stderr" == *"interval is not a table" ]]
	run -1 --separate-stderr "$KTOP" -r "$D/gen.db" -b
	[[ "$stderr" == *"interval.samples is not ktop's column" ]]
	run -1 --separate-stderr "$KTOP" -r "$D/gone.db" -b
	[[ "$stderr" == *"session.pins is missing" ]]
}

@test "replay: a FIFO, a directory, a device: one line, exit 1, at once" {
	mkfifo "$D/fifo"
	mkdir "$D/dir"
	run -1 --separate-stderr timeout -s KILL 30 "$KTOP" -r "$D/fifo" -b
	assert_one_line_error
	[[ "$stderr" == *"fifo: not a recording: a FIFO" ]]
	run -1 --separate-stderr timeout -s KILL 30 "$KTOP" -r "$D/dir" -b
	assert_one_line_error
	[[ "$stderr" == *"dir: not a recording: a directory" ]]
	run -1 --separate-stderr timeout -s KILL 30 "$KTOP" -r /dev/null -b
	assert_one_line_error
	[[ "$stderr" == *"not a recording: a device" ]]
}

@test "replay: a 64 MB value is refused before it is read: bounded memory" {
	local res
	run -0 "$KTOP" -b -w "$D/big.db" -n 2 -d 0.2 $(trace_opt)
	sqlite3 "$D/big.db" "UPDATE interval SET samples = zeroblob(64000000)
		WHERE seq = (SELECT min(seq) FROM interval)"
	# exit status, peak RSS in KiB, stderr
	res=$("$PY" - "$KTOP" -r "$D/big.db" -b <<'EOF'
import resource, subprocess, sys
r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, r.stderr.strip())
EOF
)
	echo "$res" >&2
	[ "${res%% *}" -eq 1 ]
	[[ "$res" == *"a value longer than ktop ever writes" ]]
	# the value alone is 62,500 KiB
	res=${res#* }
	[ "${res%% *}" -lt 40000 ]
}

# replay_mem FILE ARGS...: "STATUS MAXRSS_KIB ROWS STDERR" of ktop -r FILE -b ARGS, in at
# most 3 GiB of address space (a replay that would take more fails, the machine is spared).
replay_mem() {
	"$PY" - "$KTOP" -r "$@" <<'EOF'
import resource, subprocess, sys
lim = 3 << 30
r = subprocess.run(sys.argv[1:4] + ["-b"] + sys.argv[4:], stdout=subprocess.PIPE,
                   stderr=subprocess.PIPE, text=True,
                   preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (lim, lim)))
print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
      r.stdout.count("\n"), r.stderr.strip().replace("\n", " | "))
EOF
}

RECBOMB="$BATS_TEST_DIRNAME/../../build/tests/helpers/recbomb"

# replay_rows FILE ROWS RSS_KIB ARGS...: ktop -r FILE -b --csv ARGS writes ROWS lines
# (the header's included), in less than RSS_KIB of memory.
replay_rows() {
	local res st rss rows
	res=$(replay_mem "$1" --csv "${@:4}")
	echo "$1: $res" >&2
	read -r st rss rows _ <<<"$res"
	[ "$st" -eq 0 ]
	[ "$rows" -eq "$2" ]
	[ "$rss" -lt "$3" ]
}

# replay_refused FILE RSS_KIB WHAT: ktop -r FILE -b ends with status 1 and the one
# line "ktop: FILE: interval WHAT" (a pattern), in less than RSS_KIB of memory.
replay_refused() {
	local res rss
	res=$(replay_mem "$1")
	echo "$res" >&2
	[ "${res%% *}" -eq 1 ]
	[[ "$res" == *" ktop: $1: interval "$3 ]]
	[[ "$res" != *"|"* ]]	# that line alone
	read -r _ rss _ <<<"$res"
	[ "$rss" -lt "$2" ]
}

@test "replay: tasks that take the one before's 64 KiB command line (5,000; 262,143) hold one copy" {
	need_built "$RECBOMB"
	# a byte or two a task: the files are their schema's pages
	"$RECBOMB" "$D/b5k.db" 5000
	"$RECBOMB" "$D/b262k.db" 262143
	[ "$(stat -c %s "$D/b5k.db")" -lt 100000 ]
	[ "$(stat -c %s "$D/b262k.db")" -lt 100000 ]
	# 5,000 copies were 660 MB; one is 64 KiB, beside 5,000 tasks' rows
	replay_rows "$D/b5k.db" 5001 65536
	# 262,143 ran out of memory (16 GiB of copies); now the tasks alone, ~1.6 KiB each
	replay_rows "$D/b262k.db" 262144 786432
}

@test "replay: tasks whose own command lines would take more than 256 MiB: refused, one line, bounded memory" {
	need_built "$RECBOMB"
	# 9 intervals each adding 500 tasks of their own 64 KiB: 281 MiB at the 9th, in a 430 kB file
	"$RECBOMB" -d -i 9 "$D/own.db" 500
	replay_refused "$D/own.db" 409600 \
		"9 would need 281.3 MiB for its tasks' strings, over the replay's limit of 256 MiB"
	# 8 intervals (250 MiB) replay
	"$RECBOMB" -d -i 8 "$D/own8.db" 500
	replay_rows "$D/own8.db" $((1 + 500 * (1 + 2 + 3 + 4 + 5 + 6 + 7 + 8))) 409600
}

@test "replay: an interval's tasks in several samples, 1,000,000 in all: past 262,144 refused, one line" {
	need_built "$RECBOMB"
	# four samples of 250,000 (each under a sample's limit), the model has them all: 1.2 GB
	"$RECBOMB" -p 4 -l 10 "$D/parts.db" 1000000
	replay_refused "$D/parts.db" 614400 \
		"1 gives 500000 readings of tasks, over the replay's limit of 262144"
	# 240,000 in three
	"$RECBOMB" -p 3 -l 10 "$D/parts3.db" 240000
	replay_rows "$D/parts3.db" 240001 614400 -o pid
}

@test "replay: rows that each name one syscall table of 400 calls: copies past 1 GiB refused, one line" {
	need_built "$RECBOMB"
	# 10,000 rows, 3 bytes each, a 270 KiB copy each (2.8 GB were taken)
	"$RECBOMB" -s 400 -l 10 "$D/sc.db" 10000
	[ "$(stat -c %s "$D/sc.db")" -lt 100000 ]
	replay_refused "$D/sc.db" 102400 \
		"1 would need *.* MiB for its rows' syscall tables, over the replay's limit of 1024 MiB"
	# 150 such rows, then 300 (the first interval is the baseline): every call counted
	"$RECBOMB" -i 2 -s 400 -l 10 "$D/sc300.db" 150
	run -0 "$KTOP" -r "$D/sc300.db" -b --csv -o pid,syscalls --output "$D/sc300.csv"
	[ "$(grep -c ',1\.000000,[0-9]*,400$' "$D/sc300.csv")" -eq 300 ]
}

@test "replay: a recording whose writer stopped mid-transaction is read as it is, nothing beside it touched" {
	local line before
	run -0 "$KTOP" -b -w "$D/w.db" -n 3 -d 0.2 $(trace_opt)
	# a transaction left open: its -journal, pages of it already in the file
	coproc SQ { sqlite3 "$D/w.db"; }
	echo "PRAGMA cache_size = 1; BEGIN; UPDATE life SET pid = pid + 1; SELECT 'ready';" >&"${SQ[1]}"
	read -r -t 30 line <&"${SQ[0]}"
	[ "$line" = ready ]
	cp "$D/w.db" "$D/hot.db"
	cp "$D/w.db-journal" "$D/hot.db-journal"
	exec {SQ[1]}>&-
	wait "$SQ_PID" || true
	before=$(md5sum "$D"/hot.db*)
	# read immutable: no lock, no rollback asked of a read-only reader
	run -0 "$KTOP" -r "$D/hot.db" -b --csv
	[ "${#lines[@]}" -gt 3 ]
	[ "$(md5sum "$D"/hot.db*)" = "$before" ]
	[ "$(ls "$D"/hot.db* | wc -l)" -eq 2 ]
}

@test "record: refuses a file that is not ktop's, and a file another ktop records to" {
	local p
	sqlite3 "$D/other.db" 'CREATE TABLE t(a); INSERT INTO t VALUES (1)'
	cp "$D/other.db" "$D/other.copy"
	run -1 --separate-stderr "$KTOP" -b -w "$D/other.db" -n 1
	assert_one_line_error
	cmp "$D/other.db" "$D/other.copy"
	"$KTOP" -b -w "$D/busy.db" -d 0.2 $(trace_opt) </dev/null >/dev/null 2>&1 3>&- &
	p=$!
	track $p
	wait_for_file "$D/busy.db"
	sleep 0.5
	run -1 --separate-stderr "$KTOP" -b -w "$D/busy.db" -n 1
	assert_one_line_error
	[[ "$stderr" == *"another ktop"* ]]
}

@test "record: a file, -wal, -shm or -journal another user made first is refused, left as it was" {
	[ "$(id -u)" -eq 0 ] || skip "makes files as another user (root)"
	local nb f x
	nb=$(id -u nobody)
	shared_dir
	# 0666, as a user who wants to read what root records would make them
	as_nobody sh -c "umask 0; : >'$S/a.db'; : >'$S/b.db-wal'; : >'$S/c.db-shm'; : >'$S/d.db-journal'"
	for f in a b c d; do
		run -1 --separate-stderr "$KTOP" -b -w "$S/$f.db" -n 1 --no-trace
		assert_one_line_error
		[[ "$stderr" == *"owned by uid $nb, not by ktop's user"*"not written to"* ]]
	done
	for x in a.db b.db-wal c.db-shm d.db-journal; do
		[ "$(stat -c %u:%a:%s "$S/$x")" = "$nb:666:0" ]
	done
	# nothing made beside them
	[ "$(ls -A "$S" | wc -l)" -eq 4 ]
}

@test "record: a -journal another user plants while ktop records is not taken over" {
	[ "$(id -u)" -eq 0 ] || skip "makes files as another user (root)"
	local nb p
	nb=$(id -u nobody)
	shared_dir
	"$KTOP" -b -w "$S/g.db" -d 0.1 --no-trace </dev/null >/dev/null 2>&1 3>&- &
	p=$!
	track $p
	# recording in WAL mode: no -journal until the end switches back to one
	wait_for_file "$S/g.db-wal"
	as_nobody sh -c "umask 0; : >'$S/g.db-journal'"
	kill -TERM $p
	wait $p
	# SQLite's open of it was refused: not used, not made root's, not removed
	[ "$(stat -c %u:%a:%s "$S/g.db-journal")" = "$nb:666:0" ]
	[ "$(stat -c %u:%a "$S/g.db")" = "0:600" ]
	[ "$(sqlite3 "$S/g.db" 'PRAGMA integrity_check')" = ok ]
	[ "$(sqlite3 "$S/g.db" 'SELECT count(*) > 0 FROM interval')" = 1 ]
}

@test "record: a device, a file with two names, one others may write, a symbolic link: refused, one line" {
	[ "$(id -u)" -eq 0 ] || skip "mknod needs root"
	# -w /dev/null made /dev/null-journal, root's and 0666: a device of its own here
	mknod "$D/null" c 1 3
	chmod 0666 "$D/null"
	run -1 --separate-stderr "$KTOP" -b -w "$D/null" -n 1 --no-trace
	assert_one_line_error
	[[ "$stderr" == *"not a regular file (a character device)"* ]]
	[ "$(ls -A "$D" | grep -c null)" -eq 1 ]
	run -0 "$KTOP" -b -w "$D/h.db" -n 1 --no-trace
	ln "$D/h.db" "$D/h2.db"
	run -1 --separate-stderr "$KTOP" -b -w "$D/h.db" -n 1 --no-trace
	assert_one_line_error
	[[ "$stderr" == *"has 2 hard links"* ]]
	rm "$D/h2.db"
	chmod 0666 "$D/h.db"
	run -1 --separate-stderr "$KTOP" -b -w "$D/h.db" -n 1 --no-trace
	assert_one_line_error
	[[ "$stderr" == *"group or others may write it (mode 0666)"* ]]
	chmod 0600 "$D/h.db"
	ln -s h.db "$D/l.db"
	run -1 --separate-stderr "$KTOP" -b -w "$D/l.db" -n 1 --no-trace
	assert_one_line_error
	run -0 "$KTOP" -b -w "$D/h.db" -n 1 --no-trace
	[ "$(sqlite3 "$D/h.db" 'SELECT count(*) FROM interval')" -eq 2 ]
}

@test "record: a directory others may write to without the sticky bit is refused" {
	local m
	mkdir "$D/open"
	for m in 0777 0770 0730; do
		chmod "$m" "$D/open"
		run -1 --separate-stderr "$KTOP" -b -w "$D/open/r.db" -n 1 --no-trace
		assert_one_line_error
		[[ "$stderr" == *"no sticky bit"* ]]
		[ -z "$(ls -A "$D/open")" ]
	done
	chmod 1777 "$D/open"
	run -0 "$KTOP" -b -w "$D/open/r.db" -n 1 --no-trace
	[ "$(stat -c %a "$D/open/r.db")" = 600 ]
}

@test "record: --record-max-size counts the blocks of ktop's user's own recordings, never another user's" {
	[ "$(id -u)" -eq 0 ] || skip "makes files as another user (root)"
	local base d f
	shared_dir
	run -0 "$KTOP" -b -w "$S/cap-%Y%m%d%H%M%S.db" -n 1 --no-trace
	base=$(ls "$S"/cap-*.db)
	# root's: two old recordings of 2 MiB (written), one of a terabyte (sparse: no room)
	for d in 1 2 3; do
		f="$S/cap-2000010${d}000000.db"
		cp "$base" "$f"
		if [ "$d" -eq 3 ]; then
			truncate -s 1T "$f"
		else
			head -c 2M /dev/zero >>"$f"
		fi
		touch -d "2000-01-0$d" "$f"
	done
	# nobody's: the oldest, 5 MiB written, and the newest, a recording's header and a
	# terabyte of nothing (the issue's), both matching the pattern
	f="$S/cap-19990101000000.db"
	head -c 5M /dev/zero | cat "$base" - | as_nobody sh -c "cat >'$f'"
	f="$S/cap-20000104000000.db"
	head -c 100 "$base" | as_nobody sh -c "cat >'$f' && truncate -s 1T '$f'"
	touch -d 1999-01-01 "$S/cap-19990101000000.db"
	touch -d 2000-01-04 "$S/cap-20000104000000.db"
	rm -f "$base"
	run -0 "$KTOP" -b -w "$S/cap-%Y%m%d%H%M%S.db" --record-max-size 8M -n 1 --no-trace
	for d in 19990101 20000101 20000102 20000103 20000104; do
		[ -e "$S/cap-${d}000000.db" ]
	done
	# 3 MiB: root's oldest goes, nothing of nobody's
	run -0 "$KTOP" -b -w "$S/cap-%Y%m%d%H%M%S.db" --record-max-size 3M -n 1 --no-trace
	[ ! -e "$S/cap-20000101000000.db" ]
	for d in 19990101 20000102 20000103 20000104; do
		[ -e "$S/cap-${d}000000.db" ]
	done
}

@test "record: a strftime name starts a new file; each replays its own intervals" {
	run -0 "$KTOP" -b --csv -d 0.3 -n 10 -w "$D/rot-%H%M%S.db" $(trace_opt) --output "$D/live.csv"
	n=$(ls "$D"/rot-*.db | wc -l)
	[ "$n" -ge 3 ]
	for f in "$D"/rot-*.db; do
		"$KTOP" -r "$f" -b --csv | tail -n +2
	done >"$D/replayed.csv"
	tail -n +2 "$D/live.csv" | cmp - "$D/replayed.csv"
}

@test "record: a zombie listed across a new file: the new file replays its row as it was live" {
	# A child that exits while ktop records and is reaped only 3 s later:
	# its exit record is applied in one file, its Z rows go on in the next.
	"$KTOP" -b --csv -d 0.3 -n 12 -w "$D/zr-%H%M%S.db" $(trace_opt) --output "$D/live.csv" &
	local k=$!
	echo "$k" >>"$PIDFILE"
	wait_for_lines "$D/live.csv" 2
	"$PY" -c 'import os, time
if os.fork() == 0:
    os.execv("/bin/true", ["true"])
time.sleep(3)' &
	echo $! >>"$PIDFILE"
	wait "$k"
	[ "$(ls "$D"/zr-*.db | wc -l)" -ge 3 ]
	grep -q ',true,Z,' "$D/live.csv"
	for f in "$D"/zr-*.db; do
		"$KTOP" -r "$f" -b --csv | tail -n +2
	done >"$D/replayed.csv"
	diff <(tail -n +2 "$D/live.csv" | grep ',true,[ZX],') <(grep ',true,[ZX],' "$D/replayed.csv")
}

@test "record: a jump past a keyframe to a zombie's interval replays its row with the exit record, as it was live" {
	# Keyframes every 0.5 s: the child's exit record is given intervals before
	# the keyframe a jump to its last Z interval decodes from.
	KTOP_KEYFRAME_S=0.5 "$KTOP" -b --csv -d 0.3 -n 14 -w "$D/zj.db" $(trace_opt) --output "$D/live.csv" &
	local k=$! t
	echo "$k" >>"$PIDFILE"
	wait_for_lines "$D/live.csv" 2
	"$PY" -c 'import os, time
if os.fork() == 0:
    os.execv("/bin/true", ["true"])
time.sleep(3)' &
	echo $! >>"$PIDFILE"
	wait "$k"
	[ "$(grep -c ',true,Z,' "$D/live.csv")" -ge 5 ]
	t=$(grep ',true,Z,' "$D/live.csv" | tail -n 1 | cut -d, -f1)
	"$KTOP" -r "$D/zj.db" -b --csv --begin "$t" | grep ',true,[ZX],' >"$D/replayed.csv"
	[ -s "$D/replayed.csv" ]
	diff <(grep ',true,[ZX],' "$D/live.csv" | awk -F, -v t="$t" '$1 >= t') "$D/replayed.csv"
}

@test "record: a name another user planted for a strftime pattern is skipped for the next free one, said once, counted" {
	[ "$(id -u)" -eq 0 ] || skip "makes files as another user (root)"
	local y nb
	shared_dir
	y=$(date +%Y)
	nb=$(id -u nobody)
	# this year's name taken by nobody, its first next name a link nobody made
	as_nobody sh -c "umask 0; : >'$S/s_$y.db'; ln -s /etc/passwd '$S/s_$y.1.db'"
	KTOP_STATS=1 run -0 --separate-stderr "$KTOP" -b -d 0.2 -n 3 --no-trace -w "$S/s_%Y.db"
	[ "$(grep -c '^ktop: ' <<<"$stderr")" -eq 2 ]
	grep -qx "ktop: $S/s_$y.db: owned by uid $nb, not by ktop's user (uid 0): not written to; trying $S/s_$y.1.db" <<<"$stderr"
	grep -q "^ktop: cannot write $S/s_$y.1.db: .*; recording to $S/s_$y.2.db\$" <<<"$stderr"
	grep -q ' record_refused=2 record_unrecorded=0$' <<<"$stderr"
	[ "$(sqlite3 "$S/s_$y.2.db" 'SELECT count(*) FROM interval')" -eq 3 ]
	[ "$(stat -c %u:%a:%s "$S/s_$y.db")" = "$nb:666:0" ]
	[ "$(readlink "$S/s_$y.1.db")" = /etc/passwd ]
	# a second run appends to the file of its own it finds, saying the same
	run -0 --separate-stderr "$KTOP" -b -d 0.2 -n 2 --no-trace -w "$S/s_%Y.db"
	[ "$(grep -c '^ktop: ' <<<"$stderr")" -eq 2 ]
	[ "$(sqlite3 "$S/s_$y.2.db" 'SELECT count(*) FROM interval')" -eq 5 ]
	# every name taken: not recording, one line, exit 1, nothing made
	rm -f "$S/s_$y.2.db"*
	as_nobody sh -c "umask 0; for i in 2 3 4 5 6 7 8 9; do : >'$S/s_$y.'\$i.db; done"
	run -1 --separate-stderr "$KTOP" -b -d 0.2 -n 2 --no-trace -w "$S/s_%Y.db"
	assert_one_line_error
	[[ "$stderr" == "ktop: $S/s_$y.db: owned by uid $nb"*"so were its next names, up to $S/s_$y.9.db: not recording" ]]
	[ -z "$(find "$S" -mindepth 1 -user root)" ]
}

@test "record: names planted for the next files of a daily pattern: recording goes on in other names, rows keep coming, each said once" {
	[ "$(id -u)" -eq 0 ] || skip "makes files as another user (root)"
	local now t n i x nb f planted=() all=()
	shared_dir
	nb=$(id -u nobody)
	# the next seconds' names (the pattern's "days"): one taken, one a link, then one
	# whose every next name is taken too
	now=$(($(date +%s) + 1))	# a second's margin for ktop's start
	for i in 1 2 3; do
		planted+=("k_$(date -d "@$((now + i))" +%H%M%S)")
	done
	all=("k_$(date -d "@$((now + 4))" +%H%M%S)")
	as_nobody sh -c "umask 0; : >'$S/${planted[0]}.db'; ln -s /etc/shadow '$S/${planted[1]}.db';
		: >'$S/${planted[2]}.db'; : >'$S/${planted[2]}.1.db'"
	as_nobody sh -c "umask 0; for x in '' .1 .2 .3 .4 .5 .6 .7 .8 .9; do : >'$S/${all[0]}'\$x.db; done"
	# exit 1: the intervals of the second with no name left were not recorded
	KTOP_STATS=1 run -1 --separate-stderr "$KTOP" -b --csv -d 0.25 -n 36 --no-trace \
		-w "$S/k_%H%M%S.db" --output "$D/live.csv"
	stderr=$(grep -v '^ktop: tracing off' <<<"$stderr")
	# each refused name said once
	grep -qx "ktop: $S/${planted[0]}.db: owned by uid $nb, not by ktop's user (uid 0): not written to; recording to $S/${planted[0]}.1.db" <<<"$stderr"
	grep -q "^ktop: cannot write $S/${planted[1]}.db: .*; recording to $S/${planted[1]}.1.db\$" <<<"$stderr"
	grep -qx "ktop: $S/${planted[2]}.db: owned by uid $nb, not by ktop's user (uid 0): not written to; trying $S/${planted[2]}.1.db" <<<"$stderr"
	grep -qx "ktop: $S/${planted[2]}.1.db: owned by uid $nb, not by ktop's user (uid 0): not written to; recording to $S/${planted[2]}.2.db" <<<"$stderr"
	grep -q "^ktop: $S/${all[0]}.9.db: .*; no name left: nothing recorded until the next file name\$" <<<"$stderr"
	grep -q "^ktop: recording again, to $S/k_[0-9]*\.db\$" <<<"$stderr"
	[ "$(grep -c '^ktop: ' <<<"$stderr")" -eq 15 ]
	grep -q ' record_refused=14 record_unrecorded=[1-9]' <<<"$stderr"
	# nobody's files as they were
	for f in "${planted[0]}.db" "${planted[2]}.db" "${planted[2]}.1.db" "${all[0]}.db" "${all[0]}.9.db"; do
		[ "$(stat -c %u:%s "$S/$f")" = "$nb:0" ]
	done
	[ "$(readlink "$S/${planted[1]}.db")" = /etc/shadow ]
	# recorded: the files before, in between and after the planted names, each replays
	# its own intervals; together they are the live rows but for the second of no name
	[ -s "$S/${planted[0]}.1.db" ] && [ -s "$S/${planted[1]}.1.db" ] && [ -s "$S/${planted[2]}.2.db" ]
	n=0
	for f in $(find "$S" -user root -name 'k_*.db' | sort); do
		"$KTOP" -r "$f" -b --csv | tail -n +2
		n=$((n + 1))
	done >"$D/replayed.csv"
	[ "$n" -ge 6 ]
	t=$(date -d "@$((now + 4))" +%s)
	tail -n +2 "$D/live.csv" | awk -F, -v t="$t" 'int($1) != t' | cmp - "$D/replayed.csv"
	[ "$(tail -n +2 "$D/live.csv" | awk -F, -v t="$t" 'int($1) > t' | wc -l)" -gt 0 ]
}

@test "record: --record-max-size removes the pattern's oldest recordings down to the size, nothing else" {
	run -0 "$KTOP" -b -w "$D/cap-%Y%m%d%H%M%S.db" -n 1 $(trace_opt)
	base=$(ls "$D"/cap-*.db)
	# Four old recordings of 4 MiB each (written: the disk's blocks count), one a day;
	# a foreign file and another pattern's
	for d in 1 2 3 4; do
		f="$D/cap-2000010${d}000000.db"
		cp "$base" "$f"
		head -c 4M /dev/zero >>"$f"
		touch -d "2000-01-0$d" "$f"
	done
	rm -f "$base"
	echo "not a recording" >"$D/cap-19990101000000.db"
	truncate -s 20M "$D/cap-19990101000000.db"
	cp "$D/cap-20000101000000.db" "$D/other-20000101000000.db"
	touch -d 1999-01-01 "$D/cap-19990101000000.db" "$D/other-20000101000000.db"
	# 10 MiB: the new file (far less than 2 MiB) and the two newest old ones fit
	run -0 "$KTOP" -b -w "$D/cap-%Y%m%d%H%M%S.db" --record-max-size 10M -n 1 $(trace_opt)
	[ ! -e "$D/cap-20000101000000.db" ]
	[ ! -e "$D/cap-20000102000000.db" ]
	[ -e "$D/cap-20000103000000.db" ]
	[ -e "$D/cap-20000104000000.db" ]
	[ -e "$D/cap-19990101000000.db" ]
	[ -e "$D/other-20000101000000.db" ]
	[ "$(ls "$D"/cap-2*.db | wc -l)" -eq 3 ]
	run "$KTOP" -b -w "$D/x.db" --record-max-size 12Q -n 1
	[ "$status" -eq 2 ]
	[[ "$output" == *"--record-max-size: '12Q' is not a size"* ]]
	run "$KTOP" -b -w "$D/x.db" --record-max-size 1000 -n 1
	[ "$status" -eq 2 ]
	run "$KTOP" -b --record-max-size 1G -n 1
	[ "$status" -eq 2 ]
}

@test "record: --record-keep removes the next names a refused name was skipped for (NAME.N.EXT) too" {
	local y
	y=$(date +%Y)
	mkdir "$D/$y" "$D/1999"
	run -0 "$KTOP" -b -w "$D/1999/r.db" -n 1 $(trace_opt)
	cp "$D/1999/r.db" "$D/1999/r.3.db"
	cp "$D/1999/r.db" "$D/1999/r.x.db"
	touch -d 1999-01-01 "$D/1999/r.db" "$D/1999/r.3.db" "$D/1999/r.x.db"
	run -0 "$KTOP" -b -w "$D/%Y/r.db" --record-keep 2 -n 1 $(trace_opt)
	[ -s "$D/$y/r.db" ]
	[ ! -e "$D/1999/r.db" ]
	[ ! -e "$D/1999/r.3.db" ]
	# not a name of the pattern's
	[ -e "$D/1999/r.x.db" ]
}

@test "record: --record-keep removes the pattern's old recordings, nothing else" {
	run -0 "$KTOP" -b -w "$D/keep-%Y%m%d%H%M%S.db" -n 1 $(trace_opt)
	# a recording of the pattern from long ago (and not the name of this second)
	old="$D/keep-20000101000000.db"
	mv "$(ls "$D"/keep-*.db)" "$old"
	cp "$old" "$D/keep-19990101000000.db"
	echo "not a recording" >"$D/keep-19990101000001.db"
	cp "$old" "$D/other-19990101000000.db"
	touch -d '2000-01-01' "$D/keep-19990101000000.db" "$D/keep-19990101000001.db" \
		"$D/other-19990101000000.db" "$old"
	run -0 "$KTOP" -b -w "$D/keep-%Y%m%d%H%M%S.db" --record-keep 2 -n 1 $(trace_opt)
	[ ! -e "$D/keep-19990101000000.db" ]
	[ ! -e "$old" ]
	[ -e "$D/keep-19990101000001.db" ]
	[ -e "$D/other-19990101000000.db" ]
	[ "$(ls "$D"/keep-2*.db | wc -l)" -eq 1 ]
}

@test "replay: a file still being written is followed (--follow)" {
	local p
	"$KTOP" -b -w "$D/g.db" -d 0.3 $(trace_opt) </dev/null >/dev/null 2>&1 3>&- &
	p=$!
	track $p
	wait_for_file "$D/g.db"
	sleep 1
	n0=$(sqlite3 "$D/g.db" 'SELECT count(*) FROM interval')
	run -0 timeout 30 "$KTOP" -r "$D/g.db" -b --csv --follow -n $((n0 + 6))
	[ "$(cut -d, -f1 <<<"$output" | uniq | wc -l)" -eq $((n0 + 7)) ]
	# without --follow: what is there now, then the end
	run -0 timeout 30 "$KTOP" -r "$D/g.db" -b --csv
	[ "$(cut -d, -f1 <<<"$output" | uniq | wc -l)" -gt $((n0 + 6)) ]
}

@test "replay: --summary -r FILE -p PID sums the recorded process's syscalls" {
	[ "$(id -u)" -eq 0 ] || skip "system calls are counted with tracing (root)"
	start_load
	run -0 "$KTOP" -b --csv --syscalls -d 0.3 -n 6 -w "$D/s.db" --output "$D/sc.csv"
	pid=$(sqlite3 "$D/s.db" "SELECT p.pid FROM syscall s JOIN proc p ON p.id = s.proc
		GROUP BY p.id ORDER BY count(DISTINCT s.seq) DESC, sum(s.calls) DESC LIMIT 1")
	run -0 "$KTOP" --summary --csv -r "$D/s.db" -p "$pid"
	total=$(awk -F, '$1 == "total" { print $4 }' <<<"$output")
	want=$(awk -F, -v p="$pid" 'NR > 1 && $3 == p { s += $8 } END { print s + 0 }' "$D/sc.csv")
	[ "$total" -gt 0 ]
	[ "$total" -eq "$want" ]
	run -2 --separate-stderr "$KTOP" --summary -r "$D/s.db"
	assert_one_line_error
}

# man_query N: query N of the man page's RECORDING section, as sqlite3 reads it.
man_query() {
	sed -n "/^\\.\\\\\" query-$1-begin/,/^\\.\\\\\" query-$1-end/p" "$BATS_TEST_DIRNAME/../../man/ktop.1" |
		grep -v '^\.' | sed 's/\\-/-/g; s/\\(aq/'"'"'/g; s/\\e/\\/g'
}

@test "recording: the man page's queries run on a recording" {
	[ "$(id -u)" -eq 0 ] || skip "system calls are counted with tracing (root)"
	start_load
	run -0 "$KTOP" -b -d 0.3 -n 5 -w "$D/q.db"
	# the failed openat of cat /nonexistent-ktop-file
	q=$(man_query 1)
	[ -n "$q" ]
	run -0 sqlite3 "$D/q.db" "$q"
	[[ "$output" == *cat* ]]
	q=$(man_query 2)
	[ -n "$q" ]
	run -0 sqlite3 "$D/q.db" "$q"
	[[ "$output" == *"openat|ENOENT|"* ]]
	q=$(man_query 3)
	[ -n "$q" ]
	run -0 sqlite3 "$D/q.db" "$q"
	[ "${#lines[@]}" -ge 5 ]
	[[ "$output" == *"|root|"* ]]
}

@test "record and replay: options that do not go together" {
	run -2 --separate-stderr "$KTOP" -w a.db -r b.db
	assert_one_line_error
	run -2 --separate-stderr "$KTOP" -b --begin 10:00
	assert_one_line_error
	run -2 --separate-stderr "$KTOP" -r x.db --follow
	assert_one_line_error
	run -2 --separate-stderr "$KTOP" -b --record-keep 3
	assert_one_line_error
	run -2 --separate-stderr "$KTOP" -r x.db -b -H
	assert_one_line_error
	run -0 "$KTOP" -b -w "$D/o.db" -n 1 $(trace_opt)
	run -1 --separate-stderr "$KTOP" -r "$D/o.db" -b --begin 25:99
	assert_one_line_error
}
