#!/usr/bin/env bats
# The live view's Groups view on containers (root, cgroups made by the test
# and removed after, its own processes in them): a Docker container by its
# name from a fixture root (KTOP_HOST_ROOT), `b` to pod; a group under a v1
# CPU quota of 10% running a busy loop is counted in the header as throttled
# and its row drawn loud; the header shows the system's pressure. At 120
# columns the throttled share, the limit and the alerts are on screen, for a
# process whose cpu cgroup is not the path it is grouped by.

load helpers/tmux

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-containers-$$"

setup() {
	[ "$(id -u)" = 0 ] || skip "needs root: makes cgroups"
	[ -f /sys/fs/cgroup/unified/cgroup.procs ] && [ -f /sys/fs/cgroup/cpu/cgroup.procs ] ||
		skip_kernel "needs a hybrid host (v2 at /sys/fs/cgroup/unified, v1 cpu)"
	V2=/sys/fs/cgroup/unified
	V1=/sys/fs/cgroup/cpu
	CGS=()
	PIDS=()
	tmux -L "$S" kill-server 2>/dev/null || true
	tmux -L "$S" new-session -d -s t -x 200 -y 40 "sh"
	tmux -L "$S" set-option -g remain-on-exit on >/dev/null
	export XDG_CONFIG_HOME="$BATS_TEST_TMPDIR/config"
}

teardown() {
	local p d i
	tmux -L "$S" kill-server 2>/dev/null || true
	for p in "${PIDS[@]}"; do
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	for ((i = ${#CGS[@]} - 1; i >= 0; i--)); do
		d=${CGS[$i]}
		for _ in $(seq 50); do
			rmdir "$d" 2>/dev/null && break
			[ -d "$d" ] || break
			sleep 0.05
		done
	done
	return 0
}

mkcg() {
	[ -d "$1" ] || { mkcg "$(dirname "$1")" && mkdir "$1" && CGS+=("$1"); }
}

# into "DIR..." CMD...: CMD in the background inside each DIR, once it is in them.
into() {
	local dirs=$1
	shift
	sh -c 'for d in $1; do echo $$ >"$d/cgroup.procs" || exit 1; done; shift; exec "$@"' \
		sh "$dirs" "$@" </dev/null >/dev/null 2>&1 &
	PIDS+=($!)
	for _ in $(seq 100); do
		grep -q "/${dirs##*/}\$" /proc/$!/cgroup 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

@test "live: a container by its name, then its pod's key by b; a throttled group in the header" {
	local id name=ktoptest-thr-$$ root=$BATS_TEST_TMPDIR/root
	id=$(printf 'docker-%s' "$$" | sha256sum | cut -c1-64)
	mkcg "$V2/docker/$id"
	into "$V2/docker/$id" sleep 1000
	mkdir -p "$root/var/lib/docker/containers/$id"
	printf '{"ID":"%s","Config":{"Labels":{"com.docker.compose.project":"store","com.docker.compose.service":"web"}},"Name":"/web-1"}\n' \
		"$id" >"$root/var/lib/docker/containers/$id/config.v2.json"
	mkcg "$V2/$name" && mkcg "$V1/$name"
	echo 10000 >"$V1/$name/cpu.cfs_quota_us"
	into "$V2/$name $V1/$name" sh -c 'while :; do :; done'

	keys "clear; XDG_CONFIG_HOME=$XDG_CONFIG_HOME KTOP_HOST_ROOT=$root LANG=C.UTF-8 $KTOP --no-trace -d 0.4 --view groups --group-by container; echo KTOP-EXIT=\$?" Enter
	wait_for '^CONTAINER +PROCS'
	wait_for '^web-1 +1 '
	wait_for "PSI cpu [0-9.]+% io [0-9.]+% mem [0-9.]+%"
	# b: the menu of keys, from the current one; pod is next
	keys b
	wait_for 'Group by'
	keys Down Enter
	wait_for '^POD +PROCS'
	wait_for '^store/web +1 '
	# by cgroup: the throttled group is counted in the header
	keys b
	wait_for 'Group by'
	keys Home Down Down Enter
	wait_for '^CGROUP +PROCS'
	wait_for "^/$name +1 "
	wait_for 'cgroups: [1-9][0-9]* CPU-throttled'
	keys q
	wait_for 'KTOP-EXIT=0'
}

@test "live: at 120 columns a throttled group's THROT%, CPULIM% and ALERT are on screen, by its rows' own cpu cgroup; the header in words" {
	local name=ktoptest-thr120-$$ key hog
	# alone in a v1 cpu cgroup of 10%, its other cgroups the test's: grouped by another path
	mkcg "$V1/$name"
	echo 10000 >"$V1/$name/cpu.cfs_quota_us"
	into "$V1/$name" sh -c 'while :; do :; done'
	hog=${PIDS[-1]}
	key=$("$KTOP" -b --csv --no-trace -n 1 -p "$hog" -o cgroup | tail -n 1 | cut -d, -f3-)
	[ "$key" != "/$name" ]
	key=$(printf '%s' "${key:0:20}" | sed 's/[][\\.*^$+?(){}|]/\\&/g')
	tmux -L "$S" resize-window -t t -x 120 -y 40
	[ "$(tmux -L "$S" display -p -t t '#{pane_width}x#{pane_height}')" = 120x40 ]
	keys "clear; XDG_CONFIG_HOME=$XDG_CONFIG_HOME LANG=C.UTF-8 $KTOP --no-trace -d 0.4 --view groups --group-by cgroup; echo KTOP-EXIT=\$?" Enter
	wait_for '^CGROUP +PROCS +CPU% +THROT% +CPULIM% +ALERT +MEM%'
	# its group: throttled (a share above 0), its limit 10% of a CPU, THR
	wait_for "^$key[^ ]* +[0-9]+ +[0-9.]+ +([1-9][0-9.]*|0\.[1-9]) +10\.0 THR "
	wait_for 'cgroups: [1-9][0-9]* CPU-throttled'
	keys q
	wait_for 'KTOP-EXIT=0'
}
