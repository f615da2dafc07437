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
	! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f]' "$OUT.txt"
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
