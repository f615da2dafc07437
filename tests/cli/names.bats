#!/usr/bin/env bats
# Hostile command names (comm is set by the process itself, up to 15 bytes):
# parentheses and spaces (stat's field 2), newlines, CSV and JSON specials,
# terminal escapes, invalid UTF-8.

load helpers/common

setup() { common_setup; }
teardown() { common_teardown; }

# name_case NAME CSV JSON: start a process named NAME (escapes as in python),
# expect CSV (python repr after csv parsing, via json.dumps) and JSON values.
name_case() {
	start_workload name "$1"
	local pid=$WL_PID
	run timeout 10 "$KTOP" -b --csv -n 2 -d 0.1 -p "$pid" -o pid,comm,state,vcsw
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT.csv"
	check csv-pids "$OUT.csv" only vcsw "$pid" >/dev/null
	run check csv-field "$OUT.csv" "$pid" comm
	[ "$status" -eq 0 ]
	[ "$output" = "$2"$'\n'"$2" ] || { echo "CSV comm: $output, expected $2" >&2; return 1; }
	run check csv-field "$OUT.csv" "$pid" state
	[ "$output" = '"S"'$'\n''"S"' ]

	run timeout 10 "$KTOP" -b --json -n 2 -d 0.1 -p "$pid" -o pid,comm,cmdline,state
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$OUT.json"
	run check json-field "$OUT.json" "$pid" comm
	[ "$status" -eq 0 ] || { echo "$output" >&2; return 1; }
	[ "$output" = "$3"$'\n'"$3" ] || { echo "JSON comm: $output, expected $3" >&2; return 1; }

	# text: the row stays on one line, with no control character
	timeout 10 "$KTOP" -b -n 1 -p "$pid" -o pid,state,comm >"$OUT.txt"
	# the table: the header, one row, the blank line that ends it
	sed -n '/^ *PID /,$p' "$OUT.txt" >"$OUT.table"
	[ "$(wc -l <"$OUT.table")" -eq 3 ] || { echo "table:"; cat -A "$OUT.table"; return 1; } >&2
	[ "$(sed -n 3p "$OUT.table")" = "" ]
	[[ "$(sed -n 2p "$OUT.table")" == "$(printf '%7d S ' "$pid")"* ]]
	if LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$OUT.txt"; then return 1; fi
	TEXT_ROW=$(sed -n 2p "$OUT.table")
}

@test "names: 'a) (b c<newline>': CSV has '?' for the newline, JSON \\n, text one line" {
	name_case 'a) (b c\n' '"a) (b c?"' '"a) (b c\n"'
	[ "$TEXT_ROW" = "$(printf '%7d S a) (b c?' "$WL_PID")" ]
}

@test "names: ') S 1 2 3 (' cannot fool the stat parser" {
	name_case ') S 1 2 3 (' '") S 1 2 3 ("' '") S 1 2 3 ("'
	[ "$TEXT_ROW" = "$(printf '%7d S ) S 1 2 3 (' "$WL_PID")" ]
}

@test "names: comma, quote and an escape: CSV quoted, JSON escaped, no ESC in text" {
	name_case 'e,"f\x1b[2J' '"e,\"f?[2J"' '"e,\"f\u001b[2J"'
	[ "$TEXT_ROW" = "$(printf '%7d S e,"f?[2J' "$WL_PID")" ]
}

@test "names: valid UTF-8 is kept in CSV, JSON and text" {
	name_case 'caf\xc3\xa9' '"caf\u00e9"' '"caf\u00e9"'
	[ "$TEXT_ROW" = "$(printf '%7d S caf\xc3\xa9' "$WL_PID")" ]
}

@test "names: invalid UTF-8 is '?' in CSV and text, U+FFFD in JSON" {
	name_case '\xff\xfeok' '"??ok"' '"\ufffd\ufffdok"'
	[ "$TEXT_ROW" = "$(printf '%7d S ??ok' "$WL_PID")" ]
}

@test "names: invalid UTF-8 before a quote or a backslash still makes valid JSON" {
	name_case '\xff"ab' '"?\"ab"' '"\ufffd\"ab"'
	name_case '\xf0\\abc' '"?\\abc"' '"\ufffd\\abc"'
}

@test "names: CJK, emoji, combining marks, a ZWJ, a bidi override: text columns line up by display width, invisible ones are '?' in text and CSV" {
	local n pids=() list
	# 日本語の名 (15 bytes, 10 cells), three emoji (6 cells), éée with combining
	# acute accents (3 cells), a<ZWJ>b<ZWJ>c, x<RLO>abc (would show reversed).
	for n in '\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe3\x81\xae\xe5\x90\x8d' \
		'\xf0\x9f\x98\x80\xf0\x9f\x98\x80\xf0\x9f\x98\x80' 'e\xcc\x81e\xcc\x81e\xcc\x81' \
		'a\xe2\x80\x8db\xe2\x80\x8dc' 'x\xe2\x80\xaeabc'; do
		start_workload name "$n"
		pids+=("$WL_PID")
	done
	list=$(IFS=,; echo "${pids[*]}")
	LANG=C.UTF-8 timeout 10 "$KTOP" -b -n 1 -p "$list" -o comm,pid,user >"$OUT.txt"
	# Every line of the table ends its PID column at the same display column.
	"$PY" - "$OUT.txt" <<'PY'
import sys, unicodedata
def width(s):
    w = 0
    for ch in s:
        if unicodedata.combining(ch) or unicodedata.category(ch) == "Cf":
            continue
        w += 2 if unicodedata.east_asian_width(ch) in "WF" else 1
    return w
text = open(sys.argv[1], encoding="utf-8").read()	# strict: valid UTF-8
rows = text.split("\n\n", 1)[1].strip("\n").split("\n")
ends = set()
for r in rows:
    if any(unicodedata.category(ch) == "Cf" for ch in r):
        sys.exit("an invisible code point reached the text: %r" % r)
    head = r.split("PID")[0] + "PID" if r.startswith("COMMAND") else r[: r.index(r.split()[-2]) + len(r.split()[-2])]
    ends.add(width(head))
if len(ends) != 1:
    sys.exit("PID ends at display columns %s:\n%s" % (sorted(ends), "\n".join(rows)))
PY
	grep -q 'a?b?c' "$OUT.txt"
	grep -q 'x?abc' "$OUT.txt"
	# CSV: as text shows them; the other characters' bytes whole.
	LANG=C.UTF-8 timeout 10 "$KTOP" -b --csv -n 1 -p "$list" -o pid,comm >"$OUT.csv"
	grep -q 'x?abc' "$OUT.csv"
	grep -q 'a?b?c' "$OUT.csv"
	grep -q $'\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e' "$OUT.csv"
	# -o cmdline cut to its column: valid UTF-8, at a character boundary.
	LANG=C.UTF-8 timeout 10 "$KTOP" -b -n 1 -p "$list" -o cmdline,pid >"$OUT.cmd"
	"$PY" -c 'import sys; open(sys.argv[1], encoding="utf-8").read()' "$OUT.cmd"
}

# no_invisible FILE: no Unicode format character (Cf: bidi controls, zero-width
# characters, ...) nor U+2028/9 in FILE's text.
no_invisible() {
	"$PY" - "$1" <<'PY'
import sys, unicodedata
text = open(sys.argv[1], encoding="utf-8").read()
bad = sorted({"U+%04X" % ord(ch) for ch in text
              if unicodedata.category(ch) in ("Cf", "Zl", "Zp")})
if bad:
    sys.exit("%s: %s" % (sys.argv[1], ", ".join(bad)))
PY
}

@test "names: a bidi override (U+202E) and other invisible characters are '?' in CSV, /metrics and --textfile as in text; \\u202e in JSON" {
	local pids=() list port dir=$BATS_TEST_TMPDIR/tf i n kp
	# x<RLO>abc (would show "xcba"), <ZWSP>zw<BOM>, <LRI>iso<PDI>, ma<MVS>n<ALM>
	for n in 'x\xe2\x80\xaeabc' '\xe2\x80\x8bzw\xef\xbb\xbf' '\xe2\x81\xa6iso\xe2\x81\xa9' \
		'ma\xe1\xa0\x8en\xd8\x9c'; do
		start_workload name "$n"
		pids+=("$WL_PID")
	done
	list=$(IFS=,; echo "${pids[*]}")
	mkdir "$dir"
	port=$("$PY" "$HELPERS/promq.py" freeport)
	"$KTOP" -b --csv -d 0.3 -o pid,comm --no-trace --listen "127.0.0.1:$port" --textfile "$dir" \
		--output "$OUT.csv" </dev/null >/dev/null 2>"$OUT.err" 3>&- &
	kp=$!
	track "$kp"
	for ((i = 0; i < 100; i++)); do
		curl -sf "http://127.0.0.1:$port/metrics" -o "$OUT.prom" 2>/dev/null &&
			grep -q 'comm="x?abc"' "$OUT.prom" && [ -s "$dir/ktop.prom" ] && break
		sleep 0.1
	done
	curl -sf -H 'Accept: application/openmetrics-text;version=1.0.0' \
		"http://127.0.0.1:$port/metrics" -o "$OUT.om"
	cp "$dir/ktop.prom" "$OUT.tf"
	kill -TERM "$kp"
	wait_exit "$kp" 10
	[ "$ST" -eq 0 ]
	# /metrics (both formats) and --textfile: the label values as text shows the names
	for f in "$OUT.prom" "$OUT.om" "$OUT.tf"; do
		grep -q '^ktop_processes{comm="x?abc"} 1$' "$f"
		grep -q '^ktop_processes{comm="?zw?"} 1$' "$f"
		grep -q '^ktop_processes{comm="?iso?"} 1$' "$f"
		grep -q '^ktop_processes{comm="ma?n?"} 1$' "$f"
		no_invisible "$f"
	done
	# CSV
	for p in "${pids[@]}"; do grep -q "^[0-9.]*,[0-9.]*,$p," "$OUT.csv"; done
	grep -q ',x?abc$' "$OUT.csv"
	grep -q ',?zw?$' "$OUT.csv"
	grep -q ',?iso?$' "$OUT.csv"
	grep -q ',ma?n?$' "$OUT.csv"
	no_invisible "$OUT.csv"
	# text: '?' as before; JSON: escaped, the name whole for programs
	timeout 10 "$KTOP" -b -n 1 -p "$list" -o pid,comm --no-trace >"$OUT.txt"
	grep -q ' x?abc$' "$OUT.txt"
	no_invisible "$OUT.txt"
	timeout 10 "$KTOP" -b --json -n 1 -p "$list" -o pid,comm --no-trace >"$OUT.json"
	grep -qF '"comm":"x\u202eabc"' "$OUT.json"
	grep -qF '"comm":"\u200bzw\ufeff"' "$OUT.json"
	no_invisible "$OUT.json"
}
