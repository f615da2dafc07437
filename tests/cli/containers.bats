#!/usr/bin/env bats
# Containers and services as the unit (root, real cgroups made by the tests
# and removed after; every process moved into them is the test's own, ended
# by pid):
#  - names: Docker and Kubernetes layouts (cgroupfs and systemd drivers, v2,
#    and a v1 pids hierarchy) with the runtimes' files written under a root
#    directory of the test's own (KTOP_HOST_ROOT): the groups are named as
#    people name them, by container, pod and namespace, and so labelled by the
#    exporter; without the files, RUNTIME:ID as before;
#  - resources, exact: the workload is frozen (cgroup.freeze) while ktop
#    takes its first and last readings, so that the sums of ktop's intervals
#    equal the cgroup files' deltas read by the test before and after: a v1
#    CPU quota's throttling, a v2 cgroup's cpu pressure (two hogs on one CPU
#    beside a third outside the group; a sleeping group shows 0), a memory
#    limit's OOM kill (the test's own child is the victim).

load helpers/common

setup() {
	common_setup
	[ "$(id -u)" -eq 0 ] || skip "needs root: makes cgroups"
	if [ -f /sys/fs/cgroup/unified/cgroup.procs ]; then
		V2=/sys/fs/cgroup/unified
	elif [ -f /sys/fs/cgroup/cgroup.controllers ]; then
		V2=/sys/fs/cgroup
	else
		skip_kernel "no cgroup v2 hierarchy"
	fi
	CGLIST="$BATS_TEST_TMPDIR/cgroups"
	: >"$CGLIST"
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
}

teardown() {
	local d i
	# a process in a frozen v1 cgroup does not die before it thaws
	if [ -f "$CGLIST" ]; then
		while read -r d; do
			[ -f "$d/freezer.state" ] && echo THAWED >"$d/freezer.state"
		done <"$CGLIST"
	fi
	common_teardown
	# the processes are gone: their cgroups empty, removed deepest first
	if [ -f "$CGLIST" ]; then
		tac "$CGLIST" | while read -r d; do
			for ((i = 0; i < 50; i++)); do
				rmdir "$d" 2>/dev/null && break
				[ -d "$d" ] || break
				sleep 0.05
			done
		done
	fi
	return 0
}

# mkcg DIR: makes DIR and the parents missing, each remembered for teardown.
mkcg() {
	local d=$1 todo=()
	while [ ! -d "$d" ]; do
		todo=("$d" "${todo[@]}")
		d=$(dirname "$d")
	done
	for d in "${todo[@]}"; do
		mkdir "$d" || return 1
		echo "$d" >>"$CGLIST"
	done
}

# in_cgroups VAR "DIR..." CMD...: CMD started inside each DIR (one per
# hierarchy), its pid in VAR once it is in all of them.
in_cgroups() {
	local var=$1 dirs=$2 pid i d ok
	shift 2
	sh -c 'for d in $1; do echo $$ >"$d/cgroup.procs" || exit 1; done; shift; exec "$@"' \
		sh "$dirs" "$@" </dev/null >/dev/null 2>&1 3>&- &
	pid=$!
	track "$pid"
	for ((i = 0; i < 100; i++)); do
		ok=1
		for d in $dirs; do
			grep -q "^[0-9]*:[^:]*:/${d#/sys/fs/cgroup/*/}\$" /proc/"$pid"/cgroup 2>/dev/null ||
			grep -q ":${d#$V2}\$" /proc/"$pid"/cgroup 2>/dev/null || { ok=0; break; }
		done
		[ "$ok" = 1 ] && { printf -v "$var" %s "$pid"; return 0; }
		sleep 0.05
	done
	echo "pid $pid did not get into $dirs" >&2
	return 1
}

hex() { printf '%s' "$1-$$" | sha256sum | cut -c1-"${2:-64}"; }
uid_of() { local h; h=$(hex "$1" 32); echo "${h:0:8}-${h:8:4}-${h:12:4}-${h:16:4}-${h:20:12}"; }

# csvcol FILE GROUP COL [sum|list|last]: a Groups CSV's column for one group.
csvcol() {
	"$PY" - "$@" <<'EOF'
import csv, sys
f, g, col, how = sys.argv[1], sys.argv[2], sys.argv[3], (sys.argv[4] if len(sys.argv) > 4 else "list")
vals = [r[col] for r in csv.DictReader(open(f)) if r["group"] == g]
if how == "sum":
    print(sum(int(float(v)) for v in vals if v != ""))
elif how == "last":
    print(vals[-1] if vals else "")
else:
    print(" ".join(v if v != "" else "-" for v in vals))
EOF
}

# The fixtures: a docker container (compose), pods of both drivers on v2 and
# one on a v1 hierarchy, each with a sleeping process of the test's own.
make_fixtures() {
	ID1=$(hex docker) ID2=$(hex cart) ID3=$(hex api) ID4=$(hex dns)
	U2=$(uid_of cart) U3=$(uid_of api) U4=$(uid_of dns)
	local u3=${U3//-/_} pids1=/sys/fs/cgroup/pids
	C1=$V2/docker/$ID1
	C2=$V2/kubepods/burstable/pod$U2/$ID2
	C3=$V2/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod$u3.slice/cri-containerd-$ID3.scope
	mkcg "$C1" && mkcg "$C2" && mkcg "$C3" || skip_kernel "cannot make cgroups under $V2"
	in_cgroups P1 "$C1" sleep 1000
	in_cgroups P2 "$C2" sleep 1000
	in_cgroups P3 "$C3" sleep 1000
	P4=
	if [ -f $pids1/cgroup.procs ] && [ "$V2" != /sys/fs/cgroup ]; then
		C4=$pids1/kubepods/pod$U4/$ID4
		mkcg "$C4"
		in_cgroups P4 "$C4" sleep 1000
	fi
	# the runtimes' files
	mkdir -p "$ROOT/var/lib/docker/containers/$ID1" "$ROOT/var/log/pods/shop_cart-5c7d_$U2/app" \
		"$ROOT/var/log/pods/default_api-7d9f_$U3/app" "$ROOT/var/log/pods/default_api-7d9f_$U3/sidecar" \
		"$ROOT/var/log/containers" "$ROOT/var/log/pods/kube-system_dns-1_$U4/coredns"
	printf '{"ID":"%s","Config":{"Labels":{"com.docker.compose.project":"store","com.docker.compose.service":"web"}},"MountPoints":{"/d":{"Name":"vol"}},"Name":"/web-1"}\n' \
		"$ID1" >"$ROOT/var/lib/docker/containers/$ID1/config.v2.json"
	# two containers in that pod: the log link says which one this is
	ln -s "../pods/default_api-7d9f_$U3/app/0.log" "$ROOT/var/log/containers/api-7d9f_default_app-$ID3.log"
}

@test "containers: names from the node's files, by container, pod and namespace; the id one column away" {
	make_fixtures
	KTOP_HOST_ROOT=$ROOT run --separate-stderr "$KTOP" -b --csv --no-trace --view groups --group-by container -n 2 -d 0.2
	[ "$status" -eq 0 ]
	echo "$output" >"$OUT"
	[ "$(csvcol "$OUT" web-1 procs)" = "1 1" ]
	[ "$(csvcol "$OUT" shop/cart-5c7d/app procs)" = "1 1" ]
	[ "$(csvcol "$OUT" default/api-7d9f/app procs)" = "1 1" ]
	[ "$(csvcol "$OUT" web-1 id last)" = "docker:${ID1:0:12}" ]
	[ "$(csvcol "$OUT" default/api-7d9f/app id last)" = "containerd:${ID3:0:12}" ]
	if [ -n "$P4" ]; then
		[ "$(csvcol "$OUT" kube-system/dns-1/coredns procs)" = "1 1" ]
	fi
	# no RUNTIME:ID left for them
	[ -z "$(csvcol "$OUT" "docker:${ID1:0:12}" procs)" ]
	[ -z "$(csvcol "$OUT" "kubepods:${ID2:0:12}" procs)" ]

	KTOP_HOST_ROOT=$ROOT run --separate-stderr "$KTOP" -b --csv --no-trace --view groups --group-by pod -n 1
	[ "$status" -eq 0 ]
	echo "$output" >"$OUT"
	[ "$(csvcol "$OUT" shop/cart-5c7d procs)" = 1 ]
	[ "$(csvcol "$OUT" default/api-7d9f procs)" = 1 ]
	[ "$(csvcol "$OUT" store/web procs)" = 1 ]
	[ "$(csvcol "$OUT" default/api-7d9f id)" = "pod:$U3" ]

	KTOP_HOST_ROOT=$ROOT run --separate-stderr "$KTOP" -b --csv --no-trace --view groups --group-by namespace -n 1
	[ "$status" -eq 0 ]
	echo "$output" >"$OUT"
	[ "$(csvcol "$OUT" shop procs)" = 1 ]
	[ "$(csvcol "$OUT" default procs)" = 1 ]
	[ "$(csvcol "$OUT" store procs)" = 1 ]
}

@test "containers: without the runtimes' files, RUNTIME:ID and pod:UID, as before" {
	make_fixtures
	KTOP_HOST_ROOT=$BATS_TEST_TMPDIR/empty run --separate-stderr "$KTOP" -b --csv --no-trace --view groups \
		--group-by container -n 1
	[ "$status" -eq 0 ]
	echo "$output" >"$OUT"
	[ "$(csvcol "$OUT" "docker:${ID1:0:12}" procs)" = 1 ]
	[ "$(csvcol "$OUT" "kubepods:${ID2:0:12}" procs)" = 1 ]
	[ "$(csvcol "$OUT" "containerd:${ID3:0:12}" procs)" = 1 ]
	KTOP_HOST_ROOT=$BATS_TEST_TMPDIR/empty run --separate-stderr "$KTOP" -b --csv --no-trace --view groups \
		--group-by pod -n 1
	echo "$output" >"$OUT"
	[ "$(csvcol "$OUT" "pod:$U2" procs)" = 1 ]
	[ "$(csvcol "$OUT" "pod:$U3" procs)" = 1 ]
}

# names_everywhere NAME: whether NAME is in any of ktop's outputs grouped by
# container (CSV, JSON, text, the exporter's --textfile) under $ROOT; "yes" or "no".
names_everywhere() {
	local dir=$BATS_TEST_TMPDIR/tf.$RANDOM i kp
	KTOP_HOST_ROOT=$ROOT "$KTOP" -b --csv --no-trace --view groups --group-by container -n 1 \
		>"$OUT.csv" 2>/dev/null
	KTOP_HOST_ROOT=$ROOT "$KTOP" -b --json --no-trace --view groups --group-by container -n 1 \
		>"$OUT.json" 2>/dev/null
	KTOP_HOST_ROOT=$ROOT "$KTOP" -b --no-trace --view groups --group-by container -n 1 \
		>"$OUT.txt" 2>/dev/null
	mkdir "$dir"
	KTOP_HOST_ROOT=$ROOT "$KTOP" -b --no-trace --textfile "$dir" --metrics-group-by container \
		-d 0.2 >/dev/null 2>&1 </dev/null 3>&- &
	kp=$!
	track "$kp"
	for ((i = 0; i < 100; i++)); do
		grep -q 'ktop_processes{container=' "$dir/ktop.prom" 2>/dev/null && break
		sleep 0.05
	done
	cp "$dir/ktop.prom" "$OUT.prom"
	kill -TERM "$kp"
	wait "$kp" || true
	# every output was there, with the docker container in it under some name
	grep -q "docker:${ID1:0:12}" "$OUT.csv"
	grep -q 'ktop_processes{container=' "$OUT.prom"
	if grep -q -- "$1" "$OUT.csv" "$OUT.json" "$OUT.txt" "$OUT.prom"; then
		echo yes
	else
		echo no
	fi
}

@test "containers: a runtime file the runtime could not have written is not read: links, another user's, writable by others" {
	[ "$(id -u)" -eq 0 ] || skip "makes files of root and of another user"
	local cdir cfg secret=$BATS_TEST_TMPDIR/secret.json
	make_fixtures
	cdir=$ROOT/var/lib/docker/containers/$ID1
	cfg=$cdir/config.v2.json
	mv "$cfg" "$ROOT/good.json"
	# a file only root may read, outside the root, and one inside it
	printf '{"Name":"/leaked-outside"}\n' >"$secret"
	printf '{"Name":"/leaked-inside"}\n' >"$ROOT/secret.json"
	chmod 600 "$secret" "$ROOT/secret.json"

	# config.v2.json a link to them: absolute, then relative (followed, it stays in the root)
	ln -s "$secret" "$cfg"
	[ "$(names_everywhere leaked-outside)" = no ]
	rm "$cfg"
	ln -s ../../../../../secret.json "$cfg"
	[ "$(names_everywhere leaked-inside)" = no ]
	rm "$cfg"
	# a second name of the secret file (a hard link)
	ln "$ROOT/secret.json" "$cfg"
	[ "$(names_everywhere leaked-inside)" = no ]
	rm "$cfg"
	# another user's file, one others may write, one in another user's directory
	printf '{"Name":"/by-nobody"}\n' >"$cfg"
	chown nobody "$cfg"
	[ "$(names_everywhere by-nobody)" = no ]
	chown root "$cfg"
	chmod 0666 "$cfg"
	[ "$(names_everywhere by-nobody)" = no ]
	chmod 0644 "$cfg"
	chown nobody "$cdir"
	[ "$(names_everywhere by-nobody)" = no ]
	chown root "$cdir"
	chmod 0777 "$cdir"
	[ "$(names_everywhere by-nobody)" = no ]
	chmod 0755 "$cdir"
	rm "$cfg"

	# the runtime's own file: named
	cp "$ROOT/good.json" "$cfg"
	[ "$(names_everywhere web-1)" = yes ]
	# a directory on the way that is a link: resolved inside the root, never out of it
	mkdir -p "$ROOT/data" "$BATS_TEST_TMPDIR/out/var/lib"
	mv "$ROOT/var/lib/docker" "$ROOT/data/docker"
	ln -s /data/docker "$ROOT/var/lib/docker"
	[ "$(names_everywhere web-1)" = yes ]
	rm "$ROOT/var/lib/docker"
	mv "$ROOT/data/docker" "$BATS_TEST_TMPDIR/out/var/lib/docker"
	ln -s "$BATS_TEST_TMPDIR/out/var/lib/docker" "$ROOT/var/lib/docker"
	[ "$(names_everywhere web-1)" = no ]
	ln -s ../../../out/var/lib/docker "$ROOT/var/lib/docker2"
	rm "$ROOT/var/lib/docker"
	mv "$ROOT/var/lib/docker2" "$ROOT/var/lib/docker"
	[ "$(names_everywhere web-1)" = no ]
}

@test "containers: a pod directory that is a link, or of another user, names nothing" {
	[ "$(id -u)" -eq 0 ] || skip "makes files of another user"
	local pods
	make_fixtures
	pods=$ROOT/var/log/pods
	run -0 --separate-stderr env KTOP_HOST_ROOT="$ROOT" "$KTOP" -b --csv --no-trace --view groups --group-by pod -n 1
	echo "$output" >"$OUT"
	[ "$(csvcol "$OUT" shop/cart-5c7d procs)" = 1 ]
	# the pods' directory another user's: none of its names
	chown nobody "$pods"
	run -0 --separate-stderr env KTOP_HOST_ROOT="$ROOT" "$KTOP" -b --csv --no-trace --view groups --group-by pod -n 1
	echo "$output" >"$OUT"
	[ -z "$(csvcol "$OUT" shop/cart-5c7d procs)" ]
	[ "$(csvcol "$OUT" "pod:$U2" procs)" = 1 ]
	chown root "$pods"
	# a link to another directory of pods, out of the root
	mv "$pods" "$BATS_TEST_TMPDIR/pods"
	ln -s "$BATS_TEST_TMPDIR/pods" "$pods"
	run -0 --separate-stderr env KTOP_HOST_ROOT="$ROOT" "$KTOP" -b --csv --no-trace --view groups --group-by pod -n 1
	echo "$output" >"$OUT"
	[ -z "$(csvcol "$OUT" shop/cart-5c7d procs)" ]
	[ "$(csvcol "$OUT" "pod:$U2" procs)" = 1 ]
}

@test "containers: a recording keeps the names: its replay groups by container and pod as the live view did" {
	local db=$BATS_TEST_TMPDIR/rec.db
	make_fixtures
	KTOP_HOST_ROOT=$ROOT run --separate-stderr "$KTOP" -b --no-trace -w "$db" -n 3 -d 0.2
	[ "$status" -eq 0 ]
	# read back by a ktop that cannot see the runtimes' files: the names are the recording's
	KTOP_HOST_ROOT=$BATS_TEST_TMPDIR/empty run --separate-stderr "$KTOP" -r "$db" -b --csv \
		--view groups --group-by container
	[ "$status" -eq 0 ]
	echo "$output" >"$OUT"
	[ "$(csvcol "$OUT" web-1 procs)" = "1 1 1" ]
	[ "$(csvcol "$OUT" shop/cart-5c7d/app procs)" = "1 1 1" ]
	[ "$(csvcol "$OUT" default/api-7d9f/app procs)" = "1 1 1" ]
	KTOP_HOST_ROOT=$BATS_TEST_TMPDIR/empty run --separate-stderr "$KTOP" -r "$db" -b --csv \
		--view groups --group-by pod
	echo "$output" >"$OUT"
	[ "$(csvcol "$OUT" store/web procs)" = "1 1 1" ]
	[ "$(csvcol "$OUT" shop/cart-5c7d procs)" = "1 1 1" ]
	[ "$(sqlite3 "$db" "SELECT container FROM cgname WHERE path = '/docker/$ID1'")" = web-1 ]
}

@test "containers: a recording keeps the groups' resources: the replay's Groups view is the live one, byte for byte" {
	local g=ktoptest-rec-$$ dirs h1 h2 mem=/sys/fs/cgroup/memory pids=/sys/fs/cgroup/pids
	local db=$BATS_TEST_TMPDIR/res.db t
	mkcg "$V2/$g" || skip_kernel "cannot make cgroups under $V2"
	dirs="$V2/$g"
	# on a hybrid host the v1 memory and pids files at the same path: limits, current values
	if [ "$V2" = /sys/fs/cgroup/unified ]; then
		for t in $mem $pids; do
			if [ -f "$t/cgroup.procs" ]; then
				mkcg "$t/$g"
				dirs="$dirs $t/$g"
			fi
		done
		[ ! -d "$mem/$g" ] || echo $((256 << 20)) >"$mem/$g/memory.limit_in_bytes"
		[ ! -d "$pids/$g" ] || echo 64 >"$pids/$g/pids.max"
	fi
	# two hogs on one CPU: the group's cpu pressure moves every interval
	in_cgroups h1 "$dirs" taskset -c 0 sh -c 'while :; do :; done'
	in_cgroups h2 "$dirs" taskset -c 0 sh -c 'while :; do :; done'
	for t in --csv ""; do
		rm -f "$db"*
		run -0 "$KTOP" -b $t --no-trace --view groups --group-by cgroup -d 0.3 -n 5 -w "$db" \
			--output "$OUT.live"
		# the group's readings were there (live): its pressure, and with v1, its limits
		grep -q "^.*/$g[ ,]" "$OUT.live"
		run -0 "$KTOP" -r "$db" -b $t --view groups --group-by cgroup --output "$OUT.replay"
		cmp "$OUT.live" "$OUT.replay"
	done
	run -0 "$KTOP" -r "$db" -b --csv --view groups --group-by cgroup --output "$OUT.csv"
	[ "$(csvcol "$OUT.csv" "/$g" cpu_some_us sum)" -gt 0 ]
	if [ -d "$pids/$g" ] && [ "$V2" = /sys/fs/cgroup/unified ]; then
		[ "$(csvcol "$OUT.csv" "/$g" pids_max last)" = 64 ]
	fi
}

@test "containers: the exporter labels the groups by their names" {
	local dir=$BATS_TEST_TMPDIR/tf i
	make_fixtures
	mkdir "$dir"
	KTOP_HOST_ROOT=$ROOT "$KTOP" -b --no-trace --textfile "$dir" --metrics-group-by container \
		-d 0.2 >/dev/null 2>"$OUT.err" </dev/null 3>&- &
	track $!
	for ((i = 0; i < 100; i++)); do
		grep -q 'container="shop/cart-5c7d/app"' "$dir/ktop.prom" 2>/dev/null && break
		sleep 0.05
	done
	grep -q 'ktop_processes{container="web-1"} 1' "$dir/ktop.prom"
	grep -q 'ktop_processes{container="shop/cart-5c7d/app"} 1' "$dir/ktop.prom"
	grep -q 'ktop_processes{container="default/api-7d9f/app"} 1' "$dir/ktop.prom"
	run grep -c "container=\"docker:${ID1:0:12}\"" "$dir/ktop.prom"
	[ "$output" = 0 ]
	# the cgroups' families, once two readings made an interval
	for ((i = 0; i < 100; i++)); do
		grep -q 'ktop_cgroup_alerts_total{container="web-1",alert="oom_kill"} 0' "$dir/ktop.prom" &&
			grep -q '^ktop_cgroup_pressure_seconds_total{container="web-1",resource="cpu"' \
				"$dir/ktop.prom" && break
		sleep 0.05
	done
	# A sleeper's group may still have waited for a CPU on a busy machine: a number, not 0.
	grep -Eq '^ktop_cgroup_pressure_seconds_total\{container="web-1",resource="cpu",kind="some"\} [0-9.e+-]+$' \
		"$dir/ktop.prom"
	grep -q 'ktop_cgroup_alerts_total{container="shop/cart-5c7d/app",alert="throttled"} 0' \
		"$dir/ktop.prom"
	grep -q '^ktop_pressure_seconds_total{resource="cpu",kind="some"} ' "$dir/ktop.prom"
}

@test "containers: the exporter by pod" {
	local dir=$BATS_TEST_TMPDIR/tf i
	make_fixtures
	mkdir "$dir"
	KTOP_HOST_ROOT=$ROOT "$KTOP" -b --no-trace --textfile "$dir" --metrics-group-by pod \
		-d 0.2 >/dev/null 2>"$OUT.err" </dev/null 3>&- &
	track $!
	for ((i = 0; i < 100; i++)); do
		grep -q 'pod="shop/cart-5c7d"' "$dir/ktop.prom" 2>/dev/null && break
		sleep 0.05
	done
	grep -q 'ktop_processes{pod="shop/cart-5c7d"} 1' "$dir/ktop.prom"
	grep -q 'ktop_processes{pod="default/api-7d9f"} 1' "$dir/ktop.prom"
	grep -q 'ktop_processes{pod="store/web"} 1' "$dir/ktop.prom"
}

# freeze CG 0|1, and wait until the kernel says so.
freeze() {
	local i
	echo "$2" >"$1/cgroup.freeze"
	for ((i = 0; i < 100; i++)); do
		grep -q "^frozen $2\$" "$1/cgroup.events" && return 0
		sleep 0.02
	done
	echo "$1 did not freeze=$2" >&2
	return 1
}

# settle FILE: until two reads of FILE 0.25 s apart (more than a CFS period) agree.
settle() {
	local i a b
	b=$(cat "$1")
	for ((i = 0; i < 40; i++)); do
		sleep 0.25
		a=$b
		b=$(cat "$1")
		[ "$a" = "$b" ] && return 0
	done
	echo "$1 kept changing" >&2
	return 1
}

# group_lines FILE GROUP: rows of GROUP written so far.
group_lines() { grep -c ",$2," "$1" 2>/dev/null || true; }

# wait_rows FILE GROUP N: until ktop has written N rows of GROUP.
wait_rows() {
	local i
	for ((i = 0; i < 200; i++)); do
		[ "$(group_lines "$1" "$2")" -ge "$3" ] && return 0
		sleep 0.05
	done
	echo "timed out waiting for $3 rows of $2 in $1" >&2
	return 1
}

# freeze1 DIR 0|1: freeze a v1 freezer cgroup, and wait until the kernel says so.
freeze1() {
	local i want=THAWED
	[ "$2" = 1 ] && want=FROZEN
	echo "$want" >"$1/freezer.state"
	for ((i = 0; i < 100; i++)); do
		[ "$(cat "$1/freezer.state")" = "$want" ] && return 0
		sleep 0.02
	done
	echo "$1 did not get $want" >&2
	return 1
}

# run_frozen FILE GROUP CG RUN_ROWS: ktop (KTOP_ARGS) writes a row of GROUP
# with CG frozen, CG thaws for RUN_ROWS rows, freezes, two more rows; then
# ktop is stopped. BEFORE and AFTER run at the frozen ends. FREEZE: the
# function that freezes CG (freeze: v2; freeze1: a v1 freezer cgroup).
run_frozen() {
	local f=$1 g=$2 cg=$3 n=$4 k fz=${FREEZE:-freeze}
	"$KTOP" "${KTOP_ARGS[@]}" >"$f" 2>"$f.err" </dev/null 3>&- &
	KP=$!
	track "$KP"
	wait_rows "$f" "$g" 1
	before
	$fz "$cg" 0
	k=$(group_lines "$f" "$g")
	wait_rows "$f" "$g" $((k + n))
	$fz "$cg" 1
	after
	k=$(group_lines "$f" "$g")
	# the next row's reading may have been taken before the freeze: one more after it
	wait_rows "$f" "$g" $((k + 2))
	kill -TERM "$KP"
	wait "$KP" || true
}

@test "containers: a v1 CPU quota of 10%: throttled periods and time equal cpu.stat's deltas, marked THR" {
	local v1=/sys/fs/cgroup/cpu name=ktoptest-cpu-$$ hog
	[ -f $v1/cgroup.procs ] && [ "$V2" = /sys/fs/cgroup/unified ] || skip_kernel "no v1 cpu hierarchy beside v2"
	mkcg "$V2/$name" && mkcg "$v1/$name"
	echo 10000 >"$v1/$name/cpu.cfs_quota_us"
	echo 100000 >"$v1/$name/cpu.cfs_period_us"
	in_cgroups hog "$V2/$name $v1/$name" sh -c 'while :; do :; done'
	freeze "$V2/$name" 1
	# the kernel may count the throttle the freeze interrupted a period
	# later: start ktop once cpu.stat has stopped moving
	settle "$v1/$name/cpu.stat"
	before() { read -r _ _ _ N0 _ T0 _ < <(tr '\n' ' ' <"$v1/$name/cpu.stat"; echo); }
	after() { read -r _ _ _ N1 _ T1 _ < <(tr '\n' ' ' <"$v1/$name/cpu.stat"; echo); }
	KTOP_ARGS=(-b --csv --no-trace --view groups --group-by cgroup -d 0.3)
	run_frozen "$OUT" "/$name" "$V2/$name" 4
	echo "cpu.stat: $N0 -> $N1 periods, $T0 -> $T1 ns; ktop: $(csvcol "$OUT" "/$name" throttled)" >&3
	[ "$((N1 - N0))" -gt 0 ]
	[ "$(csvcol "$OUT" "/$name" throttled sum)" -eq "$((N1 - N0))" ]
	[ "$(csvcol "$OUT" "/$name" throttled_us sum)" -eq "$((T1 / 1000 - T0 / 1000))" ]
	[ "$(csvcol "$OUT" "/$name" cpu_limit_pct last)" = 10.0 ]
	csvcol "$OUT" "/$name" alerts | grep -q THR
}

# rowsum FILE PID: a process CSV's throttled time in ms, summed over its rows
# (each interval's throttled_pct of its interval_s), its largest share, the
# rows, and its cgroup column's values.
rowsum() {
	"$PY" - "$@" <<'EOF'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["pid"] == sys.argv[2]]
thr = [r for r in rows if r["throttled_pct"]]
ms = sum(float(r["throttled_pct"]) * float(r["interval_s"]) * 10 for r in thr)
print("%.1f %.1f %d %s" % (ms, max([float(r["throttled_pct"]) for r in thr] or [0]), len(thr),
                          ",".join(sorted({r.get("cgroup", "") for r in rows}))))
EOF
}

# within GOT WANT: GOT ms within 3% (and 10 ms) of WANT ms.
within() {
	"$PY" -c 'import sys; got, want = map(float, sys.argv[1:]); sys.exit(abs(got - want) > 0.03 * want + 10)' "$1" "$2"
}

@test "throttled_pct: a hog alone in a v1 cpu cgroup of 10% (grouped by its memory path): its row > 50%, its time cpu.stat's" {
	local cpu=/sys/fs/cgroup/cpu fz=/sys/fs/cgroup/freezer name=ktoptest-rowthr-$$ hog
	local ms max n cg want
	[ -f $cpu/cgroup.procs ] && [ -f $fz/cgroup.procs ] || skip_kernel "no v1 cpu and freezer hierarchies"
	mkcg "$cpu/$name" && mkcg "$fz/$name"
	echo 10000 >"$cpu/$name/cpu.cfs_quota_us"
	echo 100000 >"$cpu/$name/cpu.cfs_period_us"
	# its memory, pids and v2 cgroups stay the test's: its cgroup column is another path
	in_cgroups hog "$cpu/$name $fz/$name" sh -c 'while :; do :; done'
	freeze1 "$fz/$name" 1
	settle "$cpu/$name/cpu.stat"
	before() { T0=$(sed -n 's/^throttled_time //p' "$cpu/$name/cpu.stat"); }
	after() { T1=$(sed -n 's/^throttled_time //p' "$cpu/$name/cpu.stat"); }
	KTOP_ARGS=(-b --csv -d 0.5 -p "$hog" -o pid,throttled_pct,runq_ms,cgroup)
	FREEZE=freeze1 run_frozen "$OUT" "$hog" "$fz/$name" 4
	read -r ms max n cg < <(rowsum "$OUT" "$hog")
	want=$(((T1 - T0) / 1000000))
	echo "cpu.stat throttled_time: $T0 -> $T1 ns = $want ms; ktop: $ms ms over $n intervals, at most $max%; its cgroup column: $cg" >&3
	[ "$cg" != "/$name" ]
	[ "$want" -gt 200 ]
	"$PY" -c 'import sys; assert float(sys.argv[1]) > 50' "$max"
	within "$ms" "$want"
}

@test "throttled_pct: v2 (a fixture hierarchy: v1 holds the cpu controller here): the nearest cgroup with a cpu.max, its cpu.stat's delta" {
	local root=$BATS_TEST_TMPDIR/cg name=ktoptest-v2thr-$$ hog k i ms max n cg wrote=0 rows
	# where the process really is in v2, the fixture's files
	mkcg "$V2/$name/app" || skip_kernel "cannot make cgroups under $V2"
	in_cgroups hog "$V2/$name/app" sh -c 'while :; do :; done'
	mkdir -p "$root/$name/app"
	echo "cpu io memory pids" >"$root/cgroup.controllers"
	echo "max 100000" >"$root/$name/app/cpu.max"
	printf 'usage_usec 0\nnr_periods 0\nnr_throttled 0\nthrottled_usec 0\n' >"$root/$name/app/cpu.stat"
	echo "20000 100000" >"$root/$name/cpu.max"
	stat_at() { printf 'usage_usec 1\nuser_usec 1\nsystem_usec 0\nnr_periods %d\nnr_throttled %d\nthrottled_usec %d\nnr_bursts 0\nburst_usec 0\n' "$1" "$1" "$2" >"$root/$name/cpu.stat"; }
	stat_at 0 0
	printf 'some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n' >"$root/$name/cpu.pressure"
	echo "41 31 0:38 / $root rw,relatime - cgroup2 cgroup2 rw" >"$BATS_TEST_TMPDIR/mountinfo"
	KTOP_CGROUP_MOUNTINFO=$BATS_TEST_TMPDIR/mountinfo "$KTOP" -b --csv --no-trace -d 0.5 -p "$hog" \
		-o pid,throttled_pct,cgroup >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	KP=$!
	track "$KP"
	# after each row, 400 ms more throttled (80% of the interval) in the parent's cpu.stat
	wait_rows "$OUT" "$hog" 1
	for ((i = 1; i <= 4; i++)); do
		wrote=$((wrote + 400000))
		stat_at $((i * 4)) "$wrote"
		k=$(group_lines "$OUT" "$hog")
		wait_rows "$OUT" "$hog" $((k + 1))
	done
	kill -TERM "$KP"
	wait "$KP" || true
	read -r ms max n cg < <(rowsum "$OUT" "$hog")
	echo "fixture throttled_usec: 0 -> $wrote us; ktop: $ms ms over $n intervals, at most $max%" >&3
	[ "$n" -ge 4 ]
	within "$ms" $((wrote / 1000))
	"$PY" -c 'import sys; assert float(sys.argv[1]) > 50' "$max"
}

@test "containers: the process table's container column names it as the Groups view does, the id one column away" {
	make_fixtures
	KTOP_HOST_ROOT=$ROOT run --separate-stderr "$KTOP" -b --csv --no-trace -n 2 -d 0.2 \
		-p "$P1,$P2" -o pid,container,container_id
	[ "$status" -eq 0 ]
	echo "$output" >&3
	[[ "$output" == *$'\n'*",$P1,web-1,docker:${ID1:0:12}"* ]]
	[[ "$output" == *$'\n'*",$P2,shop/cart-5c7d/app,kubepods:${ID2:0:12}"* ]]
	# the text batch likewise
	KTOP_HOST_ROOT=$ROOT run --separate-stderr "$KTOP" -b --no-trace -n 1 -p "$P1" -o pid,container
	[[ "$output" == *"$P1 web-1"* ]]
	[[ "$output" != *"docker:"* ]]
}

@test "groups: the processes whose cgroup was not read (exited before) are named so, not ?" {
	sh -c 'while :; do /bin/true; done' </dev/null >/dev/null 2>&1 3>&- &
	track $!
	run --separate-stderr "$KTOP" -b --csv --no-trace --view groups --group-by cgroup -n 4 -d 0.3
	[ "$status" -eq 0 ]
	echo "$output" >"$OUT"
	[ -n "$(csvcol "$OUT" "(exited before read)" procs)" ]
	[ -z "$(csvcol "$OUT" "?" procs)" ]
}

@test "containers: cpu pressure share from cpu.pressure's total: two hogs on one CPU exact, a sleeping group 0" {
	local hot=ktoptest-psi-$$ calm=ktoptest-calm-$$ h1 h2 h3 s1 us iv pct
	mkcg "$V2/$hot" && mkcg "$V2/$calm"
	in_cgroups h1 "$V2/$hot" taskset -c 0 sh -c 'while :; do :; done'
	in_cgroups h2 "$V2/$hot" taskset -c 0 sh -c 'while :; do :; done'
	in_cgroups s1 "$V2/$calm" sleep 1000
	freeze "$V2/$hot" 1
	# the third, outside the group, on the same CPU
	taskset -c 0 sh -c 'while :; do :; done' </dev/null >/dev/null 2>&1 3>&- &
	h3=$!
	track "$h3"
	total() { sed -n 's/^some .*total=\([0-9]*\)$/\1/p' "$V2/$hot/cpu.pressure"; }
	before() { S0=$(total); }
	after() { S1=$(total); }
	KTOP_ARGS=(-b --csv --no-trace --view groups --group-by cgroup -d 0.3)
	run_frozen "$OUT" "/$hot" "$V2/$hot" 3
	kill "$h3"
	echo "cpu.pressure some total: $S0 -> $S1; ktop: $(csvcol "$OUT" "/$hot" cpu_some_us)" >&3
	[ "$((S1 - S0))" -gt 0 ]
	[ "$(csvcol "$OUT" "/$hot" cpu_some_us sum)" -eq "$((S1 - S0))" ]
	# each interval's share is its delta over its interval (the readings' own times)
	"$PY" - "$OUT" "/$hot" <<'EOF'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["group"] == sys.argv[2] and r["cpu_some_pct"]]
assert rows, "no share"
assert max(float(r["cpu_some_pct"]) for r in rows) > 50, [r["cpu_some_pct"] for r in rows]
for r in rows:
    if float(r["cpu_some_us"]) == 0:
        assert float(r["cpu_some_pct"]) == 0
EOF
	[ "$(csvcol "$OUT" "/$calm" cpu_some_us sum)" -eq 0 ]
	if csvcol "$OUT" "/$calm" cpu_some_pct | grep -q '[1-9]'; then return 1; fi
}

@test "containers: a memory limit exceeded: the OOM kill counted and shown, the victim the test's own" {
	local v1=/sys/fs/cgroup/memory name=ktoptest-oom-$$ own mem k hog sl
	[ -f $v1/cgroup.procs ] && [ "$V2" = /sys/fs/cgroup/unified ] || skip_kernel "no v1 memory hierarchy beside v2"
	# under the test's own memory cgroup: whatever limits it stay
	own=$(sed -n 's/^[0-9]*:memory:\(.*\)$/\1/p' /proc/self/cgroup)
	mem=$v1${own%/}/$name
	mkcg "$V2/$name" && mkcg "$mem"
	echo $((48 << 20)) >"$mem/memory.limit_in_bytes"
	# no way out through swap
	[ -f "$mem/memory.memsw.limit_in_bytes" ] && echo $((48 << 20)) >"$mem/memory.memsw.limit_in_bytes"
	in_cgroups sl "$V2/$name $mem" sleep 1000
	KTOP_ARGS=(-b --csv --no-trace --view groups --group-by cgroup -d 0.3)
	"$KTOP" "${KTOP_ARGS[@]}" >"$OUT" 2>"$OUT.err" </dev/null 3>&- &
	KP=$!
	track "$KP"
	# and the exporter, headless, on its own
	mkdir "$BATS_TEST_TMPDIR/tf"
	"$KTOP" -b --no-trace --textfile "$BATS_TEST_TMPDIR/tf" --metrics-group-by cgroup -d 0.3 \
		>/dev/null 2>"$OUT.err2" </dev/null 3>&- &
	track $!
	for ((k = 0; k < 100; k++)); do
		grep -q "ktop_cgroup_oom_kills_total{cgroup=\"/$name\"} 0" "$BATS_TEST_TMPDIR/tf/ktop.prom" \
			2>/dev/null && break
		sleep 0.05
	done
	wait_rows "$OUT" "/$name" 2
	K0=$(sed -n 's/^oom_kill //p' "$mem/memory.oom_control")
	# The hog allocates only once the test has seen it in both cgroups (it
	# waits on a FIFO): killed at once, it was gone before in_cgroups looked.
	mkfifo "$BATS_TEST_TMPDIR/gate"
	in_cgroups hog "$V2/$name $mem" sh -c 'read -r _ <"$1" && exec "$2" -c "$3"' sh \
		"$BATS_TEST_TMPDIR/gate" "$PY" 'b = b"x" * (256 << 20); print(len(b))'
	timeout 10 sh -c 'echo go >"$1"' sh "$BATS_TEST_TMPDIR/gate"
	wait "$hog" || true
	K1=$(sed -n 's/^oom_kill //p' "$mem/memory.oom_control")
	k=$(group_lines "$OUT" "/$name")
	wait_rows "$OUT" "/$name" $((k + 2))
	kill -TERM "$KP"
	wait "$KP" || true
	echo "oom_kill: $K0 -> $K1; ktop: $(csvcol "$OUT" "/$name" oom_kills)" >&3
	[ "$((K1 - K0))" -eq 1 ]
	[ "$(csvcol "$OUT" "/$name" oom_kills sum)" -eq 1 ]
	[ "$(csvcol "$OUT" "/$name" oom_kills_total last)" -eq 1 ]
	csvcol "$OUT" "/$name" alerts | grep -q OOM
	[ "$(csvcol "$OUT" "/$name" mem_max_kb last)" -eq $((48 << 10)) ]
	for ((k = 0; k < 100; k++)); do
		grep -q "ktop_cgroup_oom_kills_total{cgroup=\"/$name\"} 1" "$BATS_TEST_TMPDIR/tf/ktop.prom" &&
			break
		sleep 0.05
	done
	grep "/$name" "$BATS_TEST_TMPDIR/tf/ktop.prom" | grep -v '^#' >&3
	grep -q "ktop_cgroup_oom_kills_total{cgroup=\"/$name\"} 1" "$BATS_TEST_TMPDIR/tf/ktop.prom"
	grep -q "ktop_cgroup_alerts_total{cgroup=\"/$name\",alert=\"oom_kill\"} 1" \
		"$BATS_TEST_TMPDIR/tf/ktop.prom"
	grep -q "ktop_cgroup_memory_limit_bytes{cgroup=\"/$name\"} $((48 << 20))" \
		"$BATS_TEST_TMPDIR/tf/ktop.prom"
}
