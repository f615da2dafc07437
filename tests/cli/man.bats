#!/usr/bin/env bats
# The manual page man/ktop.1 against the binary: every option, column key,
# JSON system key and live-view key is documented, and groff has no warning.

load helpers/common

MAN="$BATS_TEST_DIRNAME/../../man/ktop.1"

# Rendered once for the file's tests: plain text, no overstriking, no
# hyphenation issues on long lines.
setup_file() {
	command -v groff >/dev/null || return 0
	groff -man -Tascii -P-cbou -rLL=150n "$MAN" >"$BATS_FILE_TMPDIR/ktop.txt" 2>/dev/null
}

setup() {
	common_setup
	need_program groff groff-base
	[ -f "$MAN" ]
	RENDERED="$BATS_FILE_TMPDIR/ktop.txt"
	[ -s "$RENDERED" ]
}

teardown() {
	common_teardown
}

# section NAME: the rendered text of one section (up to the next one).
section() {
	awk -v s="$1" '/^[A-Z]/ { on = ($0 == s) } on' "$RENDERED"
}

@test "man: groff -man -ww reports no warning" {
	run --separate-stderr groff -man -Tutf8 -ww -z "$MAN"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ] || { echo "$stderr" >&2; return 1; }
}

@test "man: man -l renders it, with every required section" {
	if command -v man >/dev/null; then
		run --separate-stderr env MANWIDTH=80 man -l "$MAN"
		[ "$status" -eq 0 ]
		[ -z "$stderr" ] || { echo "$stderr" >&2; return 1; }
		[[ "$output" == *"ktop - top for kernel events"* ]]
	fi
	local s
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS "BATCH OUTPUT" KEYS THEMES ENVIRONMENT \
		"EXIT STATUS" FILES EXAMPLES "SEE ALSO"; do
		grep -qx "$s" "$RENDERED" || { echo "no section $s" >&2; return 1; }
	done
}

@test "man: every long option of --help is in OPTIONS, with its short form" {
	run "$KTOP" --help
	[ "$status" -eq 0 ]
	local opts n=0 o pair
	section OPTIONS >"$BATS_TEST_TMPDIR/options.txt"
	opts=$(grep -oE -- '--[a-z][a-z-]*' <<<"$output" | sort -u)
	for o in $opts; do
		n=$((n + 1))
		grep -qE -- "(^|[^a-z-])$o([^a-z-]|\$)" "$BATS_TEST_DIRNAME/../../man/ktop.1" ||
			grep -qE -- "(^|[^a-z-])$o([^a-z-]|\$)" "$RENDERED" ||
			{ echo "$o is not in the man page" >&2; return 1; }
		grep -qE -- "^ +(-[a-zA-Z], )?$o( |\$)" "$BATS_TEST_TMPDIR/options.txt" ||
			{ echo "$o has no entry in OPTIONS" >&2; return 1; }
	done
	[ "$n" -ge 11 ]
	# "-b, --batch": the short and long forms side by side, as in --help
	while read -r pair; do
		grep -qF -- "$pair" "$BATS_TEST_TMPDIR/options.txt" ||
			{ echo "OPTIONS lacks '$pair'" >&2; return 1; }
	done < <(grep -oE -- '-[a-zA-Z], --[a-z-]+' <<<"$output")
}

@test "man: every column key of --help has an entry in BATCH OUTPUT" {
	run "$KTOP" --help
	[ "$status" -eq 0 ]
	local keys k n=0
	keys=$(sed -n '/Column keys:/,/^$/p' <<<"$output" | awk '/^  [a-z_]+ / { print $1 }')
	section "BATCH OUTPUT" >"$BATS_TEST_TMPDIR/batch.txt"
	for k in $keys; do
		n=$((n + 1))
		grep -qE "^ +$k( |\$)" "$BATS_TEST_TMPDIR/batch.txt" ||
			{ echo "column $k has no entry in BATCH OUTPUT" >&2; return 1; }
	done
	[ "$n" -ge 20 ]
	# and the two fields CSV puts first
	grep -qw time "$BATS_TEST_TMPDIR/batch.txt"
	grep -qw interval_s "$BATS_TEST_TMPDIR/batch.txt"
}

@test "man: every option of OPTIONS is in --help, and every column key of BATCH OUTPUT" {
	run "$KTOP" --help
	[ "$status" -eq 0 ]
	local o k n=0
	# OPTIONS' entries: "-b, --batch", "--csv  Batch mode..." (the tag's first long option)
	for o in $(section OPTIONS | grep -oE -- '^       (-[a-zA-Z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z-]+' | sort -u); do
		n=$((n + 1))
		grep -qE -- "(^|[^a-z-])$o([^a-z-]|\$)" <<<"$output" || { echo "$o: in OPTIONS, not in --help" >&2; return 1; }
	done
	[ "$n" -ge 30 ]
	# Column keys' entries: the tag alone on its line, or its text at the indent
	n=0
	for k in $(section "BATCH OUTPUT" | awk '/^   Column keys/ { on = 1; next } /^   [A-Z]/ { on = 0 } on' |
		awk '{ if (match($0, /^       [a-z][a-z0-9_]*( +|$)/) && (RLENGTH == 14 || RLENGTH == length($0))) print $1 }'); do
		n=$((n + 1))
		sed -n '/Column keys:/,/^$/p' <<<"$output" | grep -qE "^  $k " ||
			{ echo "column $k: in the man page, not in --help's Column keys" >&2; return 1; }
	done
	[ "$n" -ge 30 ]
}

@test "docs: README is for users (at most 16,000 bytes) and points to the rest; the man page has EXAMPLES" {
	local root="$BATS_TEST_DIRNAME/../.."
	[ "$(wc -c <"$root/README.md")" -le 16000 ]
	local f
	for f in DESIGN.md bench/README.md tests/README.md man/ktop.1; do
		grep -qF "\`$f" "$root/README.md" || grep -qF "man -l $f" "$root/README.md" ||
			{ echo "README does not point to $f" >&2; return 1; }
		[ -s "$root/$f" ]
	done
	grep -qx EXAMPLES "$RENDERED"
}

@test "man: every key of the JSON system object is documented" {
	run timeout 10 "$KTOP" -b --json -n 2 -d 0.1 -p 1 -o pid
	[ "$status" -eq 0 ]
	local keys k n=0
	keys=$("$PY" -c 'import json, sys
for line in sys.stdin:
    print("\n".join(json.loads(line)["system"]))' <<<"$output" | sort -u)
	section "BATCH OUTPUT" >"$BATS_TEST_TMPDIR/batch.txt"
	for k in $keys; do
		n=$((n + 1))
		grep -qw -- "$k" "$BATS_TEST_TMPDIR/batch.txt" ||
			{ echo "system key $k is not in BATCH OUTPUT" >&2; return 1; }
	done
	[ "$n" -ge 16 ]
}

@test "man: every key of every key table (views/*.c) is in KEYS" {
	section KEYS >"$BATS_TEST_TMPDIR/keys.txt"
	# { { KEY_UP, 'k' }, "Up k", "select the row above", k_up },
	# (one python for the few hundred keys: a grep each took a minute under load)
	"$PY" - "$BATS_TEST_TMPDIR/keys.txt" "$BATS_TEST_DIRNAME"/../../views/*.c <<'PYEOF'
import re, sys
keys = open(sys.argv[1]).read().splitlines()
n = 0
for src in sys.argv[2:]:
    table = False
    for line in open(src):
        if re.search(r"_keys\[\] = \{", line):
            table = True
        if not table:
            continue
        m = re.match(r'\s*\{ \{.*\}, "([^"]*)", ".*', line)
        if m:
            n += 1
            for tok in m.group(1).split():
                tok = tok.replace("\\\\", "\\")  # the C string's "\\" is the key \
                # a key is a tag of the KEYS list: "Up, k", "PgUp, ^B", "<, ,"
                want = re.compile(r"^ +([^ ]+, )*" + re.escape(tok) + r"(,|$| )")
                if not any(want.search(k) for k in keys):
                    sys.exit("key %r (of %r in %s) is not a KEYS entry" % (tok, m.group(1), src))
        if line.startswith("};"):
            table = False
if n < 45:
    sys.exit("%d keys only" % n)
PYEOF
	# the sort menu, the help and the prompts
	grep -q "sort menu" "$BATS_TEST_TMPDIR/keys.txt"
	grep -q "Enter" "$BATS_TEST_TMPDIR/keys.txt"
	grep -q "help" "$BATS_TEST_TMPDIR/keys.txt"
	grep -q "prompt" "$BATS_TEST_TMPDIR/keys.txt"
}

@test "man: every theme element (lib/themedef.c, themes/*.theme) and theme is in THEMES" {
	local root="$BATS_TEST_DIRNAME/../.." e n=0 t
	section THEMES >"$BATS_TEST_TMPDIR/themes.txt"
	for e in $(sed -n 's/^\t\[EL_[A-Z_]*\] = { "\([a-z-]*\)".*/\1/p' "$root/lib/themedef.c") \
		$(awk '!/^#/ && NF { print $1 }' "$root"/themes/*.theme | sort -u); do
		n=$((n + 1))
		grep -qE "^ +$e( |\$)" "$BATS_TEST_TMPDIR/themes.txt" ||
			{ echo "element $e is not in THEMES" >&2; return 1; }
	done
	[ "$n" -ge 60 ]
	for t in "$root"/themes/*.theme; do
		t=$(basename "$t" .theme)
		grep -qE "^ +$t( |\$)" "$BATS_TEST_TMPDIR/themes.txt" ||
			{ echo "theme $t is not in THEMES" >&2; return 1; }
	done
}

@test "man: every setting of the settings file (src/settings.c) is in FILES" {
	local k n=0
	section FILES >"$BATS_TEST_TMPDIR/files.txt"
	grep -q "ktoprc" "$BATS_TEST_TMPDIR/files.txt"
	for k in $(grep -oE '!strcmp\(key, "[a-z]+"\)' "$BATS_TEST_DIRNAME/../../src/settings.c" | cut -d'"' -f2 | sort -u); do
		n=$((n + 1))
		grep -qE "^ +$k = " "$BATS_TEST_TMPDIR/files.txt" ||
			{ echo "setting $k is not in FILES" >&2; return 1; }
	done
	[ "$n" -ge 6 ]
}

@test "man: the version in .TH is the binary's" {
	run "$KTOP" --version
	[ "$status" -eq 0 ]
	grep -q "^\.TH KTOP 1 .*\"${lines[0]}\"" "$MAN"
}

@test "man: ENVIRONMENT, EXIT STATUS and SEE ALSO have what they must" {
	local env exit see
	env=$(section ENVIRONMENT)
	exit=$(section "EXIT STATUS")
	see=$(section "SEE ALSO")
	for k in NO_COLOR TERM LANG LC_ALL XDG_CONFIG_HOME; do
		grep -qw "$k" <<<"$env" || { echo "ENVIRONMENT lacks $k" >&2; return 1; }
	done
	for k in 0 1 2; do
		grep -qE "^ +$k( |\$)" <<<"$exit" || { echo "EXIT STATUS lacks $k" >&2; return 1; }
	done
	for k in 'top(1)' 'htop(1)' 'strace(1)' 'proc(5)'; do
		grep -qF "$k" <<<"$see" || { echo "SEE ALSO lacks $k" >&2; return 1; }
	done
}

@test "docs: the design document is in the repository, README points at it, nothing points outside" {
	local root="$BATS_TEST_DIRNAME/../.."
	[ -s "$root/DESIGN.md" ]
	grep -qF '`DESIGN.md`' "$root/README.md"
	# a user's clone has nothing beside the repository: no file may point there
	need_program git
	git -C "$root" rev-parse >/dev/null 2>&1 || skip "not a git checkout"
	run git -C "$root" grep -n '\.\./shared' -- ':!tests'
	[ "$status" -eq 1 ] || { echo "$output" >&2; return 1; }
}
