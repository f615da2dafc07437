#!/bin/sh
# The layout's directions, checked (make check runs this; DESIGN.md, Files):
#
#   lib/        -> nothing              containers, catalogs, text: pure, no I/O
#   model/      -> lib/                 the applied state: pure, no I/O
#   tables/     -> model/ lib/          the tables shown and written: pure, no I/O
#   store/      -> model/ lib/          the recording: format, recorder, replay
#   collectors/ -> model/ lib/          sources fill the model's types, a folder
#                                      per source (rules between them below)
#   views/      -> tables/ model/ lib/  curses screens read the model only
#   outputs/    -> tables/ model/ lib/  sinks that write read the model only
#   src/        -> everything           the program wires sources to sinks
#
# A quoted #include in a directory may name its own directory's headers and
# those the arrows allow; nothing else. The model makes no system calls that
# read or write, nor do lib/ and tables/: the few library calls they may make
# are listed below with why.
# Prints one line per breach and exits 1; prints "layout: ok" otherwise.
cd "$(dirname "$0")/.." || exit 2
bad=0

breach() {
	echo "layout: $*"
	bad=1
}

# $1: directory; $2: the other directories its files may include (space-separated).
# A path is resolved from the including file's folder (folders nest: collectors/X/).
check_includes() {
	dir=$1 allowed=$2
	find "$dir" -name '*.[ch]' | sort | while read -r f; do
		grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
		sed 's/^\([0-9]*\):.*"\(.*\)".*/\1 \2/' |
		while read -r line path; do
			case "$path" in */*) ;; *) continue ;; esac
			to=$(realpath -m --relative-to=. "$(dirname "$f")/$path")
			other=${to%%/*}
			[ "$other" = "$dir" ] && { check_folders "$f" "$line" "$path" "$to"; continue; }
			ok=0
			for a in $allowed; do
				[ "$other" = "$a" ] && ok=1
			done
			[ "$ok" = 1 ] || echo "layout: $f:$line includes \"$path\": $dir/ may include only$( [ -n "$allowed" ] && printf ' %s/' $allowed || printf ' its own headers')"
		done
	done
}

# The sources' folders (collectors/X/, one per source, DESIGN.md): each may
# include collectors/'s shared headers (source.h, clocks.h), its own folder and
# the folders listed here; the folders below a source never include it back.
#   proc   -> cgroup           /proc/PID/cgroup is the cgroup folder's
#   system -> (nothing)
#   trace  -> proc system      the counting source asks /proc, the instance its clock
#   focus  -> trace proc system  the focus's instance is read as the counting one
#   exits  -> proc
#   cgroup -> (nothing)
#   collectors/ (shared) -> proc system   clocks.c reads an ELF header, the
#                                         sched_clock file; source.h's demand
#   any X_source.c -> trace/counting.h    the tick's facts' types
folder_may() {
	case "$1" in
	proc) echo "cgroup" ;;
	trace) echo "proc system" ;;
	focus) echo "trace proc system" ;;
	exits) echo "proc" ;;
	"") echo "proc system" ;;
	*) echo "" ;;
	esac
}

# $1 file, $2 line, $3 the include as written, $4 it resolved (collectors/...).
check_folders() {
	case "$1" in collectors/*) ;; *) return ;; esac
	from=${1#collectors/}
	case "$from" in */*) from=${from%%/*} ;; *) from="" ;; esac
	to=${4#collectors/}
	case "$to" in */*) to=${to%%/*} ;; *) return ;; esac
	[ "$to" = "$from" ] && return
	# A source's operations take the tick's facts, some of whose types are
	# the counting source's (struct counting_priv): X_source.c may read them.
	case "$1:$4" in *_source.c:collectors/trace/counting.h) return ;; esac
	for a in $(folder_may "$from"); do
		[ "$a" = "$to" ] && return
	done
	echo "layout: $1:$2 includes \"$3\": collectors/${from:+$from/} may include only collectors/*.h$(for a in $(folder_may "$from"); do printf ' collectors/%s/' "$a"; done)"
}

out=$(
	check_includes lib ""
	check_includes model "lib"
	check_includes tables "model lib"
	check_includes store "model lib"
	check_includes collectors "model lib"
	check_includes views "tables model lib"
	check_includes outputs "tables model lib"
)
[ -n "$out" ] && { echo "$out"; bad=1; }

# Libraries that belong to one side only.
for f in lib/*.[ch] model/*.[ch] tables/*.[ch] store/*.[ch] collectors/*.[ch] collectors/*/*.[ch] outputs/*.[ch]; do
	grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<n?curses' "$f" &&
		breach "$f includes curses: only views/ and src/ui.c draw"
done
for f in lib/*.[ch] model/*.[ch] tables/*.[ch] store/*.[ch] views/*.[ch] outputs/*.[ch]; do
	grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<(tracefs|event-parse|kbuffer)' "$f" &&
		breach "$f includes a tracing library: only collectors/ read the kernel"
done

# The model is the program's (src/ktop.h, struct ktop): sources fill it, src/
# applies and clears it; views and outputs only read it, so they never name a
# writable model, task or focused process (model_want_task: src/modesinks.c).
grep -nE '(^|[^_[:alnum:]])struct (model|task|fproc)[[:space:]]*\*' views/*.[ch] outputs/*.[ch] 2>/dev/null |
	grep -vE 'const[[:space:]]+struct (model|task|fproc)[[:space:]]*\*' |
	grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*|//)' |
	while IFS= read -r l; do
		echo "layout: ${l%%:*}: a writable model in a sink: ${l#*:}"
	done | grep . && bad=1

# The model, lib/ and tables/ do no I/O. Allowed, with the reason:
#   util.c  fputs     the out-of-memory message before abort()
#   util.c  newlocale the C.UTF-8 locale's wcwidth (display width), loaded once
#   dl.c    fputs     a library that cannot be loaded on first use, before abort()
io='\b(open|openat|pread|pwrite|read|write|fopen|fdopen|opendir|readdir|socket|connect|send|recv|ioctl|mmap|clock_gettime|gettimeofday|time|getenv|fprintf|printf|puts|fputs|newlocale|sqlite3_[a-z_]+|MHD_[a-z_]+)\('
grep -nE "$io" lib/*.[ch] model/*.[ch] tables/*.[ch] 2>/dev/null |
grep -vE '^lib/util\.c:[0-9]+:.*\b(fputs\("ktop: out of memory|newlocale\()' |
grep -vE '^lib/dl\.c:[0-9]+:.*\bfputs\(line, stderr\)' |
grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*|//)' |
while IFS= read -r l; do
	echo "layout: ${l%%:*}: I/O in pure code: ${l#*:}"
done | grep . && bad=1

# qsort(NULL, 0, ...) is undefined (UBSan stops there, issue 20): arrays
# that can be empty are sorted with sort_array (lib/util.c), everywhere.
grep -nE '\bqsort(_r)?\(' lib/*.c model/*.c tables/*.c store/*.c collectors/*.c collectors/*/*.c views/*.c \
	outputs/*.c src/*.c 2>/dev/null | grep -v '^lib/util\.c:' |
	grep -vE '^[^:]+:[0-9]+:[[:space:]]*(\*|/\*|//)' |
	while IFS= read -r l; do
		echo "layout: ${l%%:*}: qsort: use sort_array (an empty array may be NULL): ${l#*:}"
	done | grep . && bad=1

# src/ reaches the live sources through their list (src/sourcelist.c,
# collectors/source.h): the collector functions it calls may not grow
# (issue 34: 103 before the list, 34 with the flight recorder's ring walked from src/).
if command -v ctags >/dev/null 2>&1 && command -v cpp >/dev/null 2>&1; then
	calls=$(sh tools/src-calls.sh 26) || breach "$calls, more than 26: add a source's operation (collectors/source.h) instead (sh tools/src-calls.sh -v)"
fi

# Sources write the model through their samples (model_apply), and the focus
# at event rate through model_focus_feed (model/sample.h, the one exception):
# no other model function that takes a writable model, focused process or
# task is called from collectors/ (a source's setup, once at the start, sets
# fields: source.h).
if command -v ctags >/dev/null 2>&1 && command -v cpp >/dev/null 2>&1; then
	tmp=$(mktemp -d) || exit 2
	for f in collectors/*.c; do
		cpp -fpreprocessed -P -w "$f" 2>/dev/null >"$tmp/$(basename "$f")"
	done
	ctags -x --c-kinds=p model/*.h | grep -E '[(,] *struct (model|fproc|task) \*' |
		awk '{ print $1 }' | sort -u | grep -vx model_focus_feed |
		while read -r fn; do
			files=$(cd "$tmp" && grep -lw -- "$fn" ./*.c 2>/dev/null | sed 's|^\./|collectors/|' | tr '\n' ' ' | sed 's/ $//')
			[ -z "$files" ] || echo "layout: $files: $fn writes the model: fill the sample instead (or model_focus_feed, the focus's)"
		done >"$tmp/out"
	[ -s "$tmp/out" ] && { cat "$tmp/out"; bad=1; }
	rm -rf "$tmp"
fi

# One vocabulary (issue 34): functions carry their file's name, no two source
# files share a name, header openings name paths that exist.
sh tools/check-names.sh || bad=1

[ "$bad" = 0 ] && echo "layout: ok"
exit "$bad"
