#!/usr/bin/env bats
# Installed as a Debian package and run as a service (issue 37): `make deb` in
# a fresh clone, lintian, dpkg -i and -r, the units as systemd reads them and
# scores them, the recorder unit's command, each optional library missing,
# the bash completion against --help's tables.

load helpers/common

ROOT="$BATS_TEST_DIRNAME/../.."
UNITS="ktop-exporter.service ktop-exporter.socket ktop-record.service ktop-record.timer"

# The package is built once for the file (a minute or two): from a clone of
# the committed tree, as an operator would.
setup_file() {
	export DEB_DIR="$BATS_FILE_TMPDIR/clone"
	[ "$(id -u)" -eq 0 ] || return 0
	command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null || return 0
	# A failure is the package tests' (need_deb shows the log), not the others'.
	git clone -q "$ROOT" "$DEB_DIR" >"$BATS_FILE_TMPDIR/make-deb.log" 2>&1 &&
		make -C "$DEB_DIR" deb >>"$BATS_FILE_TMPDIR/make-deb.log" 2>&1
	return 0
}

setup() {
	common_setup
}

teardown() {
	common_teardown
}

need_deb() {
	[ "$(id -u)" -eq 0 ] || skip "needs root: dpkg -i, a private mount namespace"
	need_program dpkg-buildpackage dpkg-dev
	need_program dh debhelper
	DEB=$(ls "$DEB_DIR"/ktop_*_*.deb 2>/dev/null | head -n 1)
	[ -n "$DEB" ] || { tail -n 40 "$BATS_FILE_TMPDIR/make-deb.log" >&2; return 1; }
}

# dpkg ARGS...: dpkg, waiting (up to 2 minutes) while another apt or dpkg holds its lock.
dpkg_locked() {
	local i out
	for ((i = 0; i < 120; i++)); do
		out=$(dpkg "$@" 2>&1) && return 0
		grep -q 'lock' <<<"$out" || { echo "$out" >&2; return 1; }
		sleep 1
	done
	echo "$out" >&2
	return 1
}

@test "package: make deb in a fresh clone builds ktop_VERSION_ARCH.deb; lintian reports no error" {
	need_deb
	local version arch
	version=$(sed -n 's/^#define KTOP_VERSION "\(.*\)"/\1/p' "$ROOT/lib/util.h")
	arch=$(dpkg --print-architecture)
	[ "$(basename "$DEB")" = "ktop_${version}_${arch}.deb" ]
	need_program lintian
	run lintian --info "$DEB"
	echo "$output" >&2
	if grep -q '^E: ' <<<"$output"; then return 1; fi
	# ktop's dependencies are the libraries it links; the optional ones are recommended.
	run dpkg-deb -f "$DEB" Depends
	[[ "$output" == *libtracefs1* ]]
	[[ "$output" != *libcurl* && "$output" != *libmicrohttpd* ]]
	run dpkg-deb -f "$DEB" Recommends
	[[ "$output" == *libcurl3-gnutls* && "$output" == *libmicrohttpd12* && "$output" == *libsnappy1v5* ]]
}

@test "package: the binary, the man page, the units, /etc/default/ktop, the completion, README and copyright" {
	need_deb
	dpkg-deb -c "$DEB" | awk '{ print $NF }' >"$BATS_TEST_TMPDIR/list"
	local f
	for f in ./usr/bin/ktop ./usr/share/man/man1/ktop.1.gz ./etc/default/ktop \
		 ./usr/share/bash-completion/completions/ktop ./usr/share/doc/ktop/README.md.gz \
		 ./usr/share/doc/ktop/copyright ./usr/share/ktop/themes/light.theme $UNITS; do
		case $f in ktop-*) f="./(usr/)?lib/systemd/system/$f" ;; esac
		grep -qxE "$f" "$BATS_TEST_TMPDIR/list" || { echo "no $f in the package" >&2; return 1; }
	done
	# /etc/default/ktop is a conffile (dpkg keeps an operator's changes)
	dpkg-deb --ctrl-tarfile "$DEB" | tar -xOf - ./conffiles | grep -qx /etc/default/ktop
}

@test "package: Build-Depends are tools/deps.sh's build list (less gcc and make)" {
	local want got
	want=$(sh "$ROOT/tools/deps.sh" --list build | grep -vxE 'gcc|make' | sort)
	got=$(sed -n '/^Build-Depends:/,/^[^ B]/p' "$ROOT/debian/control" | sed '1d;$d' |
	      tr -d ' ,' | sort)
	echo "deps.sh: $want" >&2
	echo "control: $got" >&2
	[ -n "$want" ]
	[ "$want" = "$got" ]
}

@test "package: dpkg -i; ktop --version, man -w ktop, systemd-analyze verify of every unit; dpkg -r and --purge leave nothing" {
	need_deb
	need_program systemd-analyze systemd
	dpkg_locked -i "$DEB"
	# what the package put on the file system, and its conffiles
	dpkg -L ktop >"$BATS_TEST_TMPDIR/files"
	dpkg-query -W -f='${Conffiles}\n' ktop | awk 'NF { print $1 }' >"$BATS_TEST_TMPDIR/conffiles"
	run /usr/bin/ktop --version
	echo "$output" >&2
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" =~ ^ktop\ [0-9]+\.[0-9]+\.[0-9]+$ ]]
	run man -w ktop
	[ "$status" -eq 0 ]
	[[ "$output" == /usr/share/man/man1/ktop.1.gz ]]
	local u path bad=0
	for u in $UNITS; do
		path=$(grep -m1 "/systemd/system/$u\$" "$BATS_TEST_TMPDIR/files")
		[ -n "$path" ] || { echo "$u not installed" >&2; bad=1; continue; }
		# installed, not enabled
		[ ! -e "/etc/systemd/system/multi-user.target.wants/$u" ] || { echo "$u enabled" >&2; bad=1; }
		run systemd-analyze verify "$path"
		[ "$status" -eq 0 ] && [ -z "$output" ] || { echo "verify $u: $output" >&2; bad=1; }
	done
	dpkg_locked -r ktop
	local left=""
	while read -r path; do
		[ -d "$path" ] && continue	# a directory others may share (dpkg keeps it if not empty)
		grep -qxF "$path" "$BATS_TEST_TMPDIR/conffiles" && continue
		[ ! -e "$path" ] || left="$left $path"
	done <"$BATS_TEST_TMPDIR/files"
	[ -z "$left" ] || { echo "left after dpkg -r:$left" >&2; bad=1; }
	# the conffiles stay until --purge
	dpkg_locked --purge ktop
	while read -r path; do
		[ -d "$path" ] && [ -n "$(ls -A "$path" 2>/dev/null)" ] && continue
		[ ! -e "$path" ] || left="$left $path"
	done <"$BATS_TEST_TMPDIR/files"
	[ -z "$left" ] || { echo "left after dpkg --purge:$left" >&2; bad=1; }
	[ "$bad" -eq 0 ]
}

@test "units: systemd-analyze verify-ready, and security --offline scores each service 4.0 or less (OK)" {
	need_program systemd-analyze systemd
	local u score
	for u in ktop-exporter.service ktop-record.service; do
		run systemd-analyze security --offline=true --no-pager "$ROOT/contrib/$u"
		score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\) .*/\1/p' <<<"$output")
		echo "$u: $score" >&2
		[ -n "$score" ]
		awk -v s="$score" 'BEGIN { exit !(s <= 4.0) }'
	done
}

@test "units: capabilities are CAP_NET_ADMIN and CAP_SYS_PTRACE only, and ktop works with exactly them" {
	need_tracing
	need_program setpriv util-linux
	local u
	for u in ktop-exporter.service ktop-record.service; do
		[ "$(grep '^CapabilityBoundingSet=' "$ROOT/contrib/$u")" = \
		  "CapabilityBoundingSet=CAP_NET_ADMIN CAP_SYS_PTRACE" ]
	done
	# root with that bounding set (what systemd gives the unit): events and exit records
	run --separate-stderr env KTOP_STATS=1 setpriv --bounding-set=-all,+net_admin,+sys_ptrace \
		--inh-caps=-all "$KTOP" -b -n 2 -d 0.3
	[ "$status" -eq 0 ]
	grep -q '^Events/s: [0-9]* syscalls' <<<"$output"
	if grep -q 'exit records off' <<<"$output"; then return 1; fi
	grep -q ' tracing=1 ' <<<"$stderr"
	# and without CAP_NET_ADMIN the exit records are off, as the unit's comment says
	run setpriv --bounding-set=-all,+sys_ptrace --inh-caps=-all "$KTOP" -b -n 1
	grep -q 'exit records off: taskstats: needs root (CAP_NET_ADMIN)' <<<"$output"
}

@test "units: the recorder's command, run by hand in a directory of its own, writes today's file and removes those past KTOP_RECORD_KEEP days" {
	need_tracing "a recording of the events"
	local unit="$ROOT/contrib/ktop-record.service" dir="$BATS_TEST_TMPDIR/log" cmd old mid
	mkdir -m 0700 "$dir"
	# Two earlier recordings of the pattern: 40 and 10 days old (by mtime, as atop's find -mtime).
	"$KTOP" -b -d 0.1 -n 2 -w "$dir/ktop_20000101.db" || return 1
	"$KTOP" -b -d 0.1 -n 2 -w "$dir/ktop_20000102.db" || return 1
	touch -d '40 days ago' "$dir/ktop_20000101.db"
	touch -d '10 days ago' "$dir/ktop_20000102.db"
	# The unit's ExecStart as systemd runs it: %% is %, ${VAR} and $VAR from its Environment=.
	cmd=$(sed -n 's/^ExecStart=//p' "$unit")
	[ -n "$cmd" ]
	cmd=${cmd//%%/%}
	cmd=${cmd//\/var\/log\/ktop/$dir}
	cmd=${cmd//\$\{KTOP_RECORD_INTERVAL\}/0.2}
	cmd=${cmd//\$\{KTOP_RECORD_KEEP\}/$(sed -n 's/^Environment=KTOP_RECORD_KEEP=//p' "$unit")}
	cmd=${cmd//\$KTOP_RECORD_ARGS/-n 3}
	cmd=${cmd/#\/usr\/local\/bin\/ktop/$KTOP}
	echo "$cmd" >&2
	[[ "$cmd" == "$KTOP -b -d 0.2 -w $dir/ktop_%Y%m%d.db --record-keep 28 -n 3" ]]
	run $cmd
	[ "$status" -eq 0 ]
	ls -l "$dir" >&2
	[ ! -e "$dir/ktop_20000101.db" ]	# 40 days: removed
	[ -f "$dir/ktop_20000102.db" ]		# 10 days: kept
	[ -f "$dir/ktop_$(date +%Y%m%d).db" ] || [ -f "$dir/ktop_$(date -d yesterday +%Y%m%d).db" ]
	run "$KTOP" -r "$dir/ktop_$(date +%Y%m%d).db" -b --csv -o pid
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -gt 2 ]
}

# without_lib SONAME CMD...: CMD where the library file SONAME is gone (a
# whiteout in an overlay of its directory, in a private mount namespace).
without_lib() {
	local so=$1 dir tmp
	shift
	dir=$(dirname "$(readlink -f "$(ldconfig -p | awk -v s="$so" '$1 == s { print $NF; exit }')")")
	[ -d "$dir" ] || { echo "no $so on this system" >&2; return 1; }
	tmp=$(mktemp -d "$BATS_TEST_TMPDIR/ovl.XXXXXX")
	unshare -m sh -c '
		mount --make-rprivate / && mount -t tmpfs tmpfs "$1" && mkdir "$1/up" "$1/work" &&
		mknod "$1/up/$2" c 0 0 &&
		mount -t overlay overlay -o "lowerdir=$3,upperdir=$1/up,workdir=$1/work" "$3" || exit 99
		shift 3
		exec "$@"' _ "$tmp" "$so" "$dir" "$@"
}

@test "optional libraries: each missing, its option fails with one line (exit 1); ktop without it runs" {
	[ "$(id -u)" -eq 0 ] || skip "needs root: a private mount namespace"
	need_program unshare util-linux
	grep -qw overlay /proc/filesystems || skip_kernel "no overlayfs"
	local wc="$BATS_TEST_TMPDIR/web.yml" spec so opt
	printf 'basic_auth_users:\n  u: %s\n' '$2y$10$abcdefghijklmnopqrstuuY2Lb1Zp2nTjx2hJ2hNn6GvTgQcY7W.e' >"$wc"
	chmod 600 "$wc"
	for spec in "libmicrohttpd.so.12 --listen" "libgnutls.so.30 --listen" "libyaml-0.so.2 --web-config" \
		    "libcrypt.so.1 --web-config" "libcurl-gnutls.so.4 --remote-write" "libsnappy.so.1 --remote-write"; do
		so=${spec% *} opt=${spec#* }
		ldconfig -p | grep -q "^[[:space:]]*$so " || { echo "# $so: not here" >&3; continue; }
		case $opt in
		--listen) run --separate-stderr without_lib "$so" "$KTOP" -b --no-trace --listen 127.0.0.1:0 -n 1 ;;
		--web-config) run --separate-stderr without_lib "$so" "$KTOP" -b --no-trace --listen 127.0.0.1:0 \
				--web-config "$wc" -n 1 ;;
		--remote-write) run --separate-stderr without_lib "$so" "$KTOP" -b --no-trace \
				--remote-write http://127.0.0.1:9/w -n 1 ;;
		esac
		echo "$so: exit $status: $stderr" >&2
		[ "$status" -eq 1 ]
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
		[[ "$stderr" == "ktop: $opt needs "*"($so: cannot open shared object file: No such file or directory)" ||
		   "$stderr" == "ktop: $opt needs $so (cannot open shared object file: No such file or directory)" ]]
		# the rest of ktop: batch output, a recording; --version names it missing
		run --separate-stderr without_lib "$so" "$KTOP" -b -n 2 -d 0.2 -o pid,comm -w "$BATS_TEST_TMPDIR/r.db"
		[ "$status" -eq 0 ]
		grep -qE '^ +PID ' <<<"$output"
		run without_lib "$so" "$KTOP" --version
		[ "$status" -eq 0 ]
		[[ "${lines[2]}" == *"$so NOT FOUND"* ]]
	done
}

@test "start: ktop loads 16 shared objects or fewer; the exporter's library only with --listen" {
	run env LD_TRACE_LOADED_OBJECTS=1 "$KTOP"
	echo "$output" >&2
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -le 16 ]
	[[ "$output" != *libcurl* && "$output" != *libmicrohttpd* && "$output" != *libgnutls* ]]
	"$KTOP" -b --no-trace --listen 127.0.0.1:0 -d 0.2 </dev/null >"$OUT" 2>&1 3>&- &
	KPID=$!
	track "$KPID"
	local i
	for ((i = 0; i < 100; i++)); do
		grep -q libmicrohttpd "/proc/$KPID/maps" && break
		sleep 0.05
	done
	grep -q libmicrohttpd "/proc/$KPID/maps"
	if grep -q libcurl "/proc/$KPID/maps"; then return 1; fi
}

@test "start: ktop -b -n 1 grows no ring buffer; the trace clock is written only when it changes" {
	need_tracing
	need_program strace
	local default
	run strace -f -qq -e trace=openat -o "$BATS_TEST_TMPDIR/st" "$KTOP" -b -n 1
	[ "$status" -eq 0 ]
	if grep -E 'ktop-[0-9]+-[0-9]+/(buffer_size_kb|buffer_subbuf_size_kb)", O_WRONLY' "$BATS_TEST_TMPDIR/st"; then
		return 1
	fi
	# -n 2 uses its events: the buffers grow (the control)
	run strace -f -qq -e trace=openat -o "$BATS_TEST_TMPDIR/st2" "$KTOP" -b -n 2 -d 0.2
	[ "$status" -eq 0 ]
	grep -qE 'ktop-[0-9]+-[0-9]+/buffer_size_kb", O_WRONLY' "$BATS_TEST_TMPDIR/st2"
	# a new instance runs the kernel's default clock: ktop writes trace_clock only for another
	default=$(sed 's/.*\[\(.*\)\].*/\1/' /sys/kernel/tracing/trace_clock)
	run --separate-stderr strace -f -qq -e trace=openat -o "$BATS_TEST_TMPDIR/st3" \
		env KTOP_TRACE_CLOCK="$default" "$KTOP" -b -n 2 -d 0.2
	[ "$status" -eq 0 ]
	if grep -E 'ktop-[0-9]+-[0-9]+/trace_clock", O_WRONLY' "$BATS_TEST_TMPDIR/st3"; then return 1; fi
	[ "$default" != mono ] || skip "the kernel's default clock is mono: no other to write"
	run strace -f -qq -e trace=openat -o "$BATS_TEST_TMPDIR/st4" env KTOP_TRACE_CLOCK=mono "$KTOP" -b -n 2 -d 0.2
	grep -qE 'ktop-[0-9]+-[0-9]+/trace_clock", O_WRONLY' "$BATS_TEST_TMPDIR/st4"
}

# complete_words WORD...: what bash completion offers for the last WORD of
# "ktop WORD..." (bash's COMP_WORDS; WORD may be "").
complete_words() {
	bash -c '
		source <("$1" --completion bash) || exit 1
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_ktop
		printf "%s\n" "${COMPREPLY[@]}"' _ "$KTOP" "$@"
}

@test "completion: complete -p ktop after sourcing; ktop -o <TAB> offers --help's column keys" {
	run bash -c 'source <("$1" --completion bash) && complete -p ktop' _ "$KTOP"
	[ "$status" -eq 0 ]
	[ "$output" = "complete -F _ktop ktop" ]
	local want got
	want=$("$KTOP" --help | sed -n '/^Column keys:/,/^$/p' | awk 'NR > 1 && NF { print $1 }' | sort)
	got=$(complete_words -o "" | sort)
	[ -n "$want" ]
	diff <(echo "$want") <(echo "$got")
	# after a comma, the keys that follow
	run complete_words --columns pid,sysc
	[ "$(echo $output)" = "pid,syscalls pid,syscall_errors" ]
}

@test "completion: the options are --help's, the views, group keys and themes are ktop's own" {
	local want got
	# every --long option --help names is offered, and nothing else
	want=$("$KTOP" --help | grep -oE '(^|[ ,])--[a-z][a-z-]*' | sed 's/^[ ,]//' | sort -u)
	got=$(complete_words -- | sort -u)
	diff <(echo "$want") <(echo "$got")
	run complete_words --view ""
	[ "$(echo $output)" = "processes syscalls errors subsystems signals groups latency connections disks" ]
	run complete_words --group-by = c
	[ "$(echo $output)" = "comm cgroup container" ]
	run complete_words --theme ""
	[[ " $(echo $output) " == *" default "*" mono "* ]]
	# after --, the command's own completion (commands, then files)
	run complete_words -b -- bash
	[[ " $(echo $output) " == *" bash "* ]]
}
