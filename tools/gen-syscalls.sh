#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Usage: sh tools/gen-syscalls.sh CC OUTFILE [TABLEDIR]
#
# Writes OUTFILE, a C file defining
#
#	const char *const syscall_names[];	/* indexed by number, NULL for holes */
#	const unsigned syscall_names_count;
#	const char *const syscall_names_compat[], syscall_names_x32[];
#	const unsigned syscall_names_compat_count, syscall_names_x32_count;
#
# for the architecture CC compiles for. Nothing is typed by hand. The names
# come from two sources, and each number gets the newer one's:
#
# 1. The compiler's <asm/unistd.h>, preprocessed with -E -dM: every
#    object-like macro __NR_<name> (name in lower case, digits and '_') whose
#    value is an integer gives one entry. Values are evaluated a little beyond
#    plain integers so that other layouts work too:
#
#	#define __NR_read 0				x86_64 (asm/unistd_64.h)
#	#define __NR3264_fcntl 25			asm-generic (aarch64, riscv...):
#	#define __NR_fcntl __NR3264_fcntl		  aliases are resolved
#	#define __NR_read (__NR_Linux + 3)		mips, arm: "BASE + N" sums
#
#    A value that uses __X32_SYSCALL_BIT (the x32 ABI) or anything else this
#    script cannot evaluate is skipped, as are the non-syscall macros
#    __NR_syscalls and __NR_arch_specific_syscall and numbers above 65535.
#    The headers' version is <linux/version.h>'s LINUX_VERSION_CODE.
#
# 2. The kernel's own table for this machine in TABLEDIR (data/syscalls, see
#    its README.md; tools/refresh-syscall-tables.sh writes it): TABLEDIR/abis
#    names the table and the ABI column values of its rows (x86_64: common
#    64), the table's "# linux X.Y.Z" line its version. The machine is told by
#    the compiler's predefined macros, so "gcc -m32" is not x86_64.
#
# 3. The other ABIs a process of this machine can run in, from TABLEDIR
#    alone: on x86_64, i386 (a 32-bit program: the abis row "i386") as
#    syscall_names_compat and x32 (numbers with __X32_SYSCALL_BIT: the row
#    "x32") as syscall_names_x32, indexed by the number without that bit.
#    Elsewhere they are empty (count 0).
#
# A number one source lacks gets the other's name: a table newer than the
# build host's headers names the calls they lack (uretprobe on a host with
# 6.1 headers). Where both name a number differently, the newer source wins
# (the table on a tie); each such number is listed in a comment of OUTFILE.
# Without TABLEDIR or a table for this machine the headers are used alone.
# CC may carry flags that select the architecture ("gcc -m32"); it is split
# into words on purpose.
set -eu

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: sh $0 CC OUTFILE [TABLEDIR]" >&2
	exit 2
fi
cc=$1
out=$2
tables=${3:-}
tmp=$out.tmp.$$
trap 'rm -f "$tmp" "$tmp.defs"' EXIT
trap 'exit 1' HUP INT TERM

# shellcheck disable=SC2086 # CC is a command line
printf '#include <asm/unistd.h>\n#if __has_include(<linux/version.h>)\n#include <linux/version.h>\n#endif\n' |
	$cc -E -dM -x c - >"$tmp.defs"

# The machine, by the same compiler's predefined macros (now in $tmp.defs),
# and its table and ABIs from TABLEDIR/abis: "<machine> <table> <abi>...".
machine=$(awk '
	$1 == "#define" { def[$2] = $3 }
	END {
		lp64 = !("__ILP32__" in def)
		if (("__x86_64__" in def) && lp64) print "x86_64"
		else if ("__x86_64__" in def) print "x32"
		else if ("__i386__" in def) print "i386"
		else if (("__aarch64__" in def) && lp64) print "aarch64"
		else if (def["__riscv_xlen"] == "64") print "riscv64"
		else if (("__loongarch__" in def) && def["__loongarch_grlen"] == "64") print "loongarch64"
	}' "$tmp.defs")
table=
abis=
if [ -n "$tables" ] && [ -n "$machine" ] && [ -f "$tables/abis" ]; then
	# shellcheck disable=SC2046 # the words of the machine's line
	set -- $(awk -v m="$machine" '$1 == m { $1 = ""; print; exit }' "$tables/abis")
	if [ $# -ge 2 ]; then
		table=$tables/$1
		shift
		abis="$*"
		[ -f "$table" ] || { echo "gen-syscalls.sh: $table: no such file" >&2; exit 1; }
	fi
fi

awk -v cc="$cc" -v table="$table" -v abis="$abis" '
# The integer value of an expression "A", "(A)" or "(A + B + ...)" where each
# term is a decimal, octal or hex literal or a macro with such a value;
# -1 when it is anything else.
function value(expr, depth,    terms, n, i, t, v, sum) {
	if (depth > 8)
		return -1
	gsub(/[() \t]/, "", expr)
	if (expr == "")
		return -1
	n = split(expr, terms, "+")
	sum = 0
	for (i = 1; i <= n; i++) {
		t = terms[i]
		if (t ~ /^[0-9]/)
			sub(/[uUlL]+$/, "", t)
		if (t ~ /^0[xX][0-9a-fA-F]+$/)
			v = hex(substr(t, 3))
		else if (t ~ /^0[0-7]*$/)
			v = oct(t)
		else if (t ~ /^[1-9][0-9]*$/)
			v = t + 0
		else if (t == "__X32_SYSCALL_BIT")
			return -1
		else if (t ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && (t in def))
			v = value(def[t], depth + 1)
		else
			return -1
		if (v < 0)
			return -1
		sum += v
	}
	return sum
}

function hex(s,    i, v) {
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 16 + index("0123456789abcdef", tolower(substr(s, i, 1))) - 1
	return v
}

function oct(s,    i, v) {
	v = 0
	for (i = 1; i <= length(s); i++)
		v = v * 8 + substr(s, i, 1)
	return v
}

# The kernel version X.Y.Z as LINUX_VERSION_CODE computes it.
function kversion(v,    p) {
	split(v, p, ".")
	return p[1] * 65536 + p[2] * 256 + (p[3] > 255 ? 255 : p[3])
}

function vstring(code) {
	return int(code / 65536) "." int(code / 256) % 256 "." code % 256
}

FILENAME == table {
	if ($1 == "#" && $2 == "linux")
		tver = kversion($3)
	if ($0 ~ /^[ \t]*(#|$)/ || !($2 in abi))
		next
	if (($1 in tname) && tname[$1] != $3) {
		print "gen-syscalls.sh: " table ": " $1 " is both " tname[$1] " and " $3 | "cat 1>&2"
		exit 1
	}
	tname[$1] = $3
	next
}

$1 == "#define" && NF >= 3 && $2 !~ /\(/ {
	v = $0
	sub(/^#define[ \t]+[^ \t]+[ \t]+/, "", v)
	def[$2] = v
}

BEGIN {
	n = split(abis, a, " ")
	for (i = 1; i <= n; i++)
		abi[a[i]] = 1
}

END {
	hver = ("LINUX_VERSION_CODE" in def) ? value(def["LINUX_VERSION_CODE"], 0) : 0
	for (m in def) {
		if (m !~ /^__NR_[a-z0-9_]+$/ || m == "__NR_syscalls" || m == "__NR_arch_specific_syscall")
			continue
		nr = value(def[m], 0)
		if (nr < 0 || nr > 65535)
			continue
		name = substr(m, 6)
		# Two names for one number: keep one, the same one whatever the
		# order of the macros.
		if ((nr in hname) && hname[nr] < name)
			continue
		hname[nr] = name
	}
	max = -1
	for (nr in hname) {
		names[nr] = hname[nr]
		if (nr + 0 > max)
			max = nr + 0
	}
	ndis = 0
	for (nr in tname) {
		if ((nr in hname) && hname[nr] != tname[nr]) {
			dis[++ndis] = sprintf("%d: <asm/unistd.h> (%s) %s, table (%s) %s: %s", nr,
					      vstring(hver), hname[nr], vstring(tver), tname[nr],
					      hver > tver ? "the headers are newer" : "the table is as new or newer")
			if (hver > tver)
				continue
		}
		names[nr] = tname[nr]
		if (nr + 0 > max)
			max = nr + 0
	}
	if (max < 0) {
		print "gen-syscalls.sh: no __NR_ numbers in <asm/unistd.h> of " cc " and no table" | "cat 1>&2"
		exit 1
	}
	printf "/* Generated by tools/gen-syscalls.sh from <asm/unistd.h> of %s", cc
	if (hver)
		printf " (Linux %s)", vstring(hver)
	if (table != "")
		printf "\n * and %s (Linux %s, ABIs %s)", table, vstring(tver), abis
	print ". Do not edit."
	for (i = 1; i <= ndis; i++)
		print " * Names differ, the newer kept: " dis[i]
	print " */"
	print "#include \"scnames.h\""
	print ""
	print "const char *const syscall_names[] = {"
	for (nr = 0; nr <= max; nr++)
		if (nr in names)
			printf "\t[%d] = \"%s\",\n", nr, names[nr]
	print "};"
	print ""
	print "const unsigned syscall_names_count = sizeof(syscall_names) / sizeof(syscall_names[0]);"
}
' "$tmp.defs" ${table:+"$table"} >"$tmp"

# abis_row MACHINE: "<table> <abi>..." of TABLEDIR/abis, or nothing.
abis_row() {
	[ -n "$tables" ] && [ -f "$tables/abis" ] || return 0
	awk -v m="$1" '$1 == m { $1 = ""; print; exit }' "$tables/abis"
}

# names_array NAME MACHINE: the C array NAME (and NAME_count) of the table
# TABLEDIR/abis gives MACHINE, its rows of that line's ABIs; empty without one.
names_array() {
	# shellcheck disable=SC2046 # the words of the machine's line
	set -- "$1" $(abis_row "$2")
	if [ $# -lt 3 ]; then
		printf '\nconst char *const %s[] = { 0 };\nconst unsigned %s_count = 0;\n' "$1" "$1"
		return 0
	fi
	awk -v name="$1" -v abis="$*" '
	BEGIN {
		n = split(abis, a, " ")
		for (i = 3; i <= n; i++)
			abi[a[i]] = 1
		max = -1
	}
	$0 ~ /^[ \t]*(#|$)/ || !($2 in abi) { next }
	{
		if (($1 in names) && names[$1] != $3) {
			print "gen-syscalls.sh: " FILENAME ": " $1 " is both " names[$1] " and " $3 | "cat 1>&2"
			exit 1
		}
		names[$1] = $3
		if ($1 + 0 > max)
			max = $1 + 0
	}
	END {
		printf "\n/* %s: %s, ABIs", name, FILENAME
		for (i = 3; i <= n; i++)
			printf " %s", a[i]
		print ". */"
		print "const char *const " name "[] = {"
		for (nr = 0; nr <= max; nr++)
			if (nr in names)
				printf "\t[%d] = \"%s\",\n", nr, names[nr]
		print "};"
		print "const unsigned " name "_count = sizeof(" name ") / sizeof(" name "[0]);"
	}' "$tables/$2"
}

if [ "$machine" = x86_64 ]; then
	names_array syscall_names_compat i386 >>"$tmp"
	names_array syscall_names_x32 x32 >>"$tmp"
else
	names_array syscall_names_compat "" >>"$tmp"
	names_array syscall_names_x32 "" >>"$tmp"
fi

mv "$tmp" "$out"
