#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Usage: sh tools/refresh-syscall-tables.sh KERNEL_SOURCE [DATADIR]
#
# Rewrites the kernel's own system call tables that ktop ships as data
# (DATADIR, default data/syscalls; tools/gen-syscalls.sh reads them) from a
# Linux source tree, offline. KERNEL_SOURCE is a directory (a git checkout, an
# unpacked tarball) or a tarball such as Debian's linux-source package
# (/usr/src/linux-source-X.Y.tar.xz); Linux 6.11 or later, which has
# scripts/syscall.tbl. It writes
#
#	x86_64.tbl	arch/x86/entry/syscalls/syscall_64.tbl
#	i386.tbl	arch/x86/entry/syscalls/syscall_32.tbl (32-bit processes
#			on x86_64, and i386 itself)
#	generic.tbl	scripts/syscall.tbl (arm64, riscv, loongarch, ...)
#	abis		which table and which of its ABI columns each machine uses:
#			x86_64 "common 64" (as the kernel's syscalltbl.sh is
#			told), x32 "common x32", i386 "i386"; the others the syscall_abis_64 of
#			scripts/Makefile.asm-headers plus their
#			arch/ARCH/kernel/Makefile.syscalls
#
# The tables keep every row's number, ABI and name, in the kernel's order;
# the entry points are left out. Each file's head records the kernel version
# (the tree's Makefile), the git commit when KERNEL_SOURCE is a checkout, and
# the source file's git blob hash, so that anyone can check it against the
# kernel's history. Review the result with git diff: a name a new kernel added
# needs its subsystem in lib/scnames.c (make unit says which).
set -eu

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
	echo "usage: sh $0 KERNEL_SOURCE [DATADIR]" >&2
	exit 2
fi
src=$1
out=${2:-data/syscalls}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ktop-syscalls.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

die() {
	echo "refresh-syscall-tables.sh: $*" >&2
	exit 1
}

# The few files this script reads, relative to the top of a tree.
FILES="Makefile arch/x86/entry/syscalls/syscall_64.tbl
arch/x86/entry/syscalls/syscall_32.tbl scripts/syscall.tbl
scripts/Makefile.asm-headers arch/arm64/kernel/Makefile.syscalls
arch/arm64/tools/syscall_64.tbl arch/riscv/kernel/Makefile.syscalls
arch/loongarch/kernel/Makefile.syscalls"
# The 64-bit machines that use scripts/syscall.tbl: compiler's name, SRCARCH.
GENERIC="aarch64:arm64 riscv64:riscv loongarch64:loongarch"

if [ -d "$src" ]; then
	tree=$src
elif [ -f "$src" ]; then
	# A tarball: only those files come out (a whole tree is 1.5 GB).
	top=$(tar -tf "$src" | head -n 1) || true
	top=${top%%/*}
	[ -n "$top" ] || die "$src: not a tarball tar can list"
	set --
	for f in $FILES; do
		set -- "$@" "$top/$f"
	done
	# Members this kernel lacks (an older arm64 has no tools/syscall_64.tbl)
	# make tar complain; the checks below say what is really missing.
	tar -xf "$src" -C "$tmp" "$@" 2>/dev/null || true
	tree=$tmp/$top
else
	die "$src: no such directory or file"
fi

for f in Makefile arch/x86/entry/syscalls/syscall_64.tbl arch/x86/entry/syscalls/syscall_32.tbl \
	scripts/Makefile.asm-headers; do
	[ -f "$tree/$f" ] || die "$src: no $f (not a Linux source tree?)"
done
[ -f "$tree/scripts/syscall.tbl" ] ||
	die "$src: no scripts/syscall.tbl: Linux 6.11 or later is needed"

# VERSION.PATCHLEVEL.SUBLEVEL EXTRAVERSION of the tree's Makefile.
version=$(awk -F' *= *' '
	$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
	$1 == "SUBLEVEL" { s = $2 } $1 == "EXTRAVERSION" { e = $2 }
	END { if (v != "" && p != "") printf "%s.%s.%s%s", v, p, (s == "" ? 0 : s), e }
' "$tree/Makefile")
[ -n "$version" ] || die "$src: no VERSION and PATCHLEVEL in its Makefile"

origin=$(basename "$src")
if [ -d "$src" ] && commit=$(git -C "$src" rev-parse HEAD 2>/dev/null); then
	origin="$origin, git commit $commit"
fi

# blob FILE: its git blob hash, or nothing without git.
blob() {
	git hash-object "$1" 2>/dev/null || true
}

# table NAME KERNEL_PATH: the table without entry points, with its head.
table() {
	h=$(blob "$tree/$2")
	{
		echo "# Linux $version's $2 without the entry points:"
		echo "# <number> <abi> <name>, the kernel's rows in its order."
		echo "# From $origin${h:+; blob $h}."
		echo "# Written by tools/refresh-syscall-tables.sh: do not edit by hand."
		echo "# linux $version"
		awk -v f="$2" '
			/^[ \t]*(#|$)/ { next }
			$1 !~ /^[0-9]+$/ || NF < 3 || $3 !~ /^[a-z0-9_]+$/ {
				print f ":" FNR ": not <number> <abi> <name>: " $0 | "cat 1>&2"
				exit 1
			}
			{ printf "%s\t%s\t%s\n", $1, $2, $3 }
		' "$tree/$2" || die "$2 has a row this script does not understand"
	} >"$tmp/$1"
}

table x86_64.tbl arch/x86/entry/syscalls/syscall_64.tbl
table i386.tbl arch/x86/entry/syscalls/syscall_32.tbl
table generic.tbl scripts/syscall.tbl

# abis_of FILE: the words of its "syscall_abis_64 +=" lines, commas split,
# on one line with single spaces.
abis_of() {
	sed -n 's/^[ \t]*syscall_abis_64[ \t]*+=//p' "$1" | tr ',' ' ' |
		awk '{ for (i = 1; i <= NF; i++) printf "%s%s", (n++ ? " " : ""), $i }'
}

base=$(abis_of "$tree/scripts/Makefile.asm-headers")
[ -n "$base" ] || die "scripts/Makefile.asm-headers: no syscall_abis_64 (the build changed?)"
{
	echo "# <machine> <table> <abis>: the table of data/syscalls each machine uses and"
	echo "# the ABI column values of its rows, from Linux $version's"
	echo "# scripts/Makefile.asm-headers and arch/*/kernel/Makefile.syscalls; i386 and"
	echo "# x32 are also the 32-bit ABIs of x86_64 processes (tools/gen-syscalls.sh)."
	echo "# Written by tools/refresh-syscall-tables.sh: do not edit by hand."
	echo "# linux $version"
	printf 'x86_64\tx86_64.tbl\tcommon 64\n'
	printf 'i386\ti386.tbl\ti386\n'
	printf 'x32\tx86_64.tbl\tcommon x32\n'
	for m in $GENERIC; do
		arch=${m#*:}
		mk=$tree/arch/$arch/kernel/Makefile.syscalls
		[ -f "$mk" ] || die "no arch/$arch/kernel/Makefile.syscalls"
		# An architecture whose own table is no longer scripts/syscall.tbl
		# (arm64's arch/arm64/tools/syscall_64.tbl links to it) needs its own
		# file here: say so rather than give it the wrong names.
		own=$(sed -n 's/^[ \t]*syscalltbl[ \t]*:*=[ \t]*//p' "$mk" | sed 's/%/64/')
		if [ -n "$own" ] && [ "$own" != "scripts/syscall.tbl" ]; then
			[ -f "$tree/$own" ] || die "$arch uses $own, which the tree lacks"
			cmp -s "$tree/$own" "$tree/scripts/syscall.tbl" ||
				die "$arch uses $own, which is not scripts/syscall.tbl: add it to this script"
		fi
		extra=$(abis_of "$mk")
		printf '%s\tgeneric.tbl\t%s\n' "${m%:*}" "$base${extra:+ $extra}"
	done
} >"$tmp/abis"

mkdir -p "$out"
for f in x86_64.tbl i386.tbl generic.tbl abis; do
	old=$(sed -n 's/^# linux //p' "$out/$f" 2>/dev/null || true)
	mv "$tmp/$f" "$out/$f"
	echo "$out/$f: Linux ${old:-(none)} -> $version"
done
