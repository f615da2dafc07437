# The exporter tests' common part (exporter.bats, exportertime.bats): their
# setup (the workloads copied under names of this run's own), a Prometheus
# scraping ktop, tracewl workloads gated and released, exact values waited for.

setup_file() {
	# comm: at most 15 bytes, unique to this run
	export WLNAME="kxwl$$" SLNAME="kxsl$$"
	helper_prog tracewl "$BATS_FILE_TMPDIR/$WLNAME" || true
	helper_prog stateswl "$BATS_FILE_TMPDIR/$SLNAME" || true
}

setup() {
	common_setup
	TRACEWL="$BATS_FILE_TMPDIR/$WLNAME"
}

teardown() {
	common_teardown
	[ -z "${FLOOD:-}" ] || rm -rf "$FLOOD"
}

promq() {
	"$PY" "$HELPERS/promq.py" "$@"
}

need_tracewl() {
	need_built "$TRACEWL"
}

need_prometheus() {
	need_program prometheus
}

need_promtool() {
	need_program promtool prometheus
}

need_client() {
	"$PY" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null ||
		skip_missing python3-prometheus-client "python3 module prometheus_client"
}

# start_ktop (common.bash) with KTOP_STATS on: its counts on OUT.err at exit.
START_KTOP_STATS=1

# wait_serving PORT: until ktop answers /metrics.
wait_serving() {
	local i
	for ((i = 0; i < 100; i++)); do
		promq scrape "$1" "$BATS_TEST_TMPDIR/first.prom" >/dev/null 2>&1 && return 0
		sleep 0.1
	done
	echo "ktop does not serve port $1: $(cat "$OUT.err")" >&2
	return 1
}

# prometheus_launch DIR TARGET_PORT: a Prometheus scraping 127.0.0.1:TARGET_PORT
# every second (job "ktop"), its files in DIR, started in the background;
# sets PPORT (its port) and PROM_PID.
prometheus_launch() {
	mkdir -p "$1/data"
	PPORT=$(promq freeport)
	cat >"$1/prometheus.yml" <<-EOF
	global:
	  scrape_interval: 1s
	  scrape_timeout: 1s
	scrape_configs:
	  - job_name: ktop
	    static_configs:
	      - targets: ['127.0.0.1:$2']
	EOF
	prometheus --config.file="$1/prometheus.yml" --storage.tsdb.path="$1/data" \
		--web.listen-address="127.0.0.1:$PPORT" --log.level=warn \
		</dev/null >"$1/log" 2>&1 3>&- &
	PROM_PID=$!
}

# start_prometheus TARGET_PORT: prometheus_launch, until it has scraped
# the target once; sets PPORT.
start_prometheus() {
	local d="$BATS_TEST_TMPDIR/prometheus"
	prometheus_launch "$d" "$1"
	track "$PROM_PID"
	promq ready "$PPORT" 30 || { cat "$d/log" >&2; return 1; }
	promq up "$PPORT" ktop 20
}

# start_wl TAG MODE N: helpers/tracewl set up and blocked on its own gate;
# WL=(its pids); its files are $BATS_TEST_TMPDIR/TAG.*.
start_wl() {
	local d="$BATS_TEST_TMPDIR/$1"
	shift
	mkfifo "$d.gate"
	"$TRACEWL" "$d.ready" "$d.gate" "$@" >"$d.done" 2>"$d.err" </dev/null 3>&- &
	track $!
	wait_for_file "$d.ready" 10 || { cat "$d.err" >&2; return 1; }
	read -r -a WL <"$d.ready"
	track "${WL[@]}"
}

# run_wl TAG: release it (one byte on its gate), wait until it is done.
run_wl() {
	printf g >"$BATS_TEST_TMPDIR/$1.gate"
	wait_for_file "$BATS_TEST_TMPDIR/$1.done" 10
}

# expect_exactly QUERY N: until Prometheus has QUERY = N; stays_exact then
# checks, once for all of a test's, that none moved after (nothing more
# counted: late, twice or again).
EXACT=()
expect_exactly() {
	local v
	v=$(promq wait "$PPORT" "$1" "$2" 15)
	echo "$1 = $v (want $2)" >&2
	[ "$v" = "$2" ] || return 1
	EXACT+=("$1" "$2")
}

# stays_exact: two more refreshes and scrapes later, every expect_exactly's
# QUERY is N still.
stays_exact() {
	local i v n q='count_over_time(up{job="ktop"}[1h])'
	n=$(promq value "$PPORT" "$q")
	promq wait "$PPORT" "$q" $((${n%.*} + 2)) 15 >/dev/null
	for ((i = 0; i < ${#EXACT[@]}; i += 2)); do
		v=$(promq value "$PPORT" "${EXACT[i]}")
		[ "$v" = "${EXACT[i + 1]}" ] || { echo "then ${EXACT[i]} = $v" >&2; return 1; }
	done
}

no_lost() {
	local v
	v=$(promq value "$PPORT" 'ktop_lost_events_total')
	[ "$v" = 0 ] || { echo "the kernel dropped $v events: counts cannot be exact" >&2; return 1; }
}
