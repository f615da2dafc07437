#!/bin/sh
# Install what ktop needs to build (and, with "test" or "bench", to test or measure)
# on Debian/Ubuntu. As root: apt-get installs what is missing. Otherwise: print the
# exact command and fail. Idempotent: nothing happens when all is there.
set -e
build="gcc make pkg-config libncurses-dev libtracefs-dev libtraceevent-dev"
test="bats tmux python3 valgrind strace procps"
bench="procps strace bpftrace linux-perf htop"
want="$build"
for what in "$@"; do
	case "$what" in
	test) want="$want $test" ;;
	bench) want="$want $bench" ;;
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
