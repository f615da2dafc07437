#!/bin/sh
# Install what ktop needs to build (and, with "test", "bench", "stress" or "deb",
# to test, measure, run tests/stress, or build the Debian package) on
# Debian/Ubuntu. As root: apt-get installs what is missing. Otherwise: print the
# exact command and fail. Idempotent: nothing happens when all is there.
set -e

# libFuzzer (tests/fuzz) is in clang's runtime package, named after the version
# "clang" depends on (clang-14 -> libclang-rt-14-dev); older releases ship it in
# libclang-common-N-dev, a dependency of clang itself.
fuzzer_runtime() {
	v=$(apt-cache depends clang 2>/dev/null | sed -n 's/^ *Depends: clang-\([0-9][0-9]*\)$/\1/p' | head -n 1)
	[ -n "$v" ] && apt-cache show "libclang-rt-$v-dev" >/dev/null 2>&1 && echo "libclang-rt-$v-dev"
	return 0
}
build="gcc make pkg-config libncurses-dev libtracefs-dev libtraceevent-dev libsqlite3-dev libmicrohttpd-dev libgnutls28-dev libcrypt-dev zlib1g-dev libyaml-dev libcurl4-gnutls-dev libsnappy-dev"
# sqlite3 reads recordings in tests; prometheus (server, promtool) and
# python3-prometheus-client (a strict OpenMetrics parser) check the exporter;
# curl and openssl (a CA and certificates made by the test) its TLS and auth.
# gcc-multilib builds the 32-bit test program (gcc -m32, summary.bats).
# `make deb` (debhelper builds the package) and its tests (tests/cli/package.bats:
# lintian, systemd-analyze, bash-completion, man -w).
# trace-cmd and libtracecmd-dev read the flight recorder's trace.dat (flight.bats).
# groff-base renders the man page (man.bats); linux-perf counts ktop's calls
# (tests/tmux/viewsload.bats); iproute2, util-linux (setpriv, unshare, taskset,
# chrt, prlimit) and git are what tests run besides; nftables loses packets in
# a network namespace for the retransmit test (conn.bats).
deb="debhelper dpkg-dev fakeroot"
test="bats tmux python3 valgrind strace procps clang sqlite3 prometheus python3-prometheus-client curl openssl gcc-multilib $deb lintian bash-completion systemd man-db trace-cmd libtracecmd-dev groff-base linux-perf iproute2 util-linux git nftables jq mount"
# atop and prometheus-process-exporter are the anchors of the recording and
# exporter benchmarks; nothing starts them but the benchmarks.
bench="procps strace bpftrace linux-perf htop atop prometheus prometheus-process-exporter"
stress="stress-ng procps"
# --list KIND: the packages of that list, one a line (debian/control's Build-Depends
# are made from "build": `make debian/control`).
if [ "$1" = --list ]; then
	eval "printf '%s\\n' \$$2"
	exit 0
fi
want="$build"
for what in "$@"; do
	case "$what" in
	test) want="$want $test $(fuzzer_runtime)" ;;
	bench) want="$want $bench" ;;
	deb) want="$want $deb" ;;
	stress) want="$want $stress" ;;
	esac
done
missing=""
for p in $want; do
	case " $missing " in *" $p "*) continue ;; esac
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed'; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
	echo "ktop: missing packages:$missing (install them with your package manager)" >&2
	exit 1
fi
if [ "$(id -u)" != 0 ]; then
	echo "ktop: missing packages. Run as root:" >&2
	echo "  apt-get update && apt-get install -y$missing" >&2
	exit 1
fi
echo "ktop: installing$missing" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq $missing >/dev/null
