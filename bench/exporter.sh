#!/bin/sh
# bench/exporter.sh - the exporter's own cost: `ktop -b --listen` against
# Debian's prometheus-process-exporter (grouping by comm), both scraped every
# 5 s by the same Prometheus for the same minutes, at 1000, 2000 and 5000 idle
# processes; then the latency of ktop's /metrics at the largest count.
#
# For each process count (bench/idle.c makes them, as bench/run.sh does):
#  - ktop -b --listen (refreshing every BENCH_DELAY s, the scrape interval by
#    default: an exporter needs no faster refresh; tracing on as root) and
#    prometheus-process-exporter (the Debian package's defaults, a config that
#    groups every process by its name, {{.Comm}}) start; one Prometheus scrapes
#    both every BENCH_SCRAPE s;
#  - after BENCH_WARM s, each one's CPU time (utime+stime of /proc/PID/stat)
#    and RSS are taken, again BENCH_SECONDS later: CPU seconds per minute, RSS
#    at the end, peak RSS (VmHWM); Prometheus's own scrape_duration_seconds of
#    each job over the window (p50, p99, max) and the series per scrape.
# Then, at the largest count only (the CPU window is over), a probe scrapes
# ktop BENCH_PROBES times, one every 0.1 s (each at a random phase of ktop's
# refresh, so a request that arrives while ktop collects waits for it), with
# Prometheus's Accept header: p50, p99, max.
# The remote-write column: in the same window a second ktop (-d the same)
# pushes the same series to that Prometheus (--web.enable-remote-write-receiver)
# instead of being scraped: its CPU against the scraped ktop's is the push
# path's against the scrape path's (collection is the same in both); its
# samples per push and dropped samples are Prometheus's and its own.
# The per-interval costs, beside it: both ktops run with KTOP_STATS, whose
# CPU times (CLOCK_THREAD_CPUTIME_ID) of each scrape's rendering and gzip
# (Prometheus asks for gzip) and of each push (rendering, protobuf, snappy,
# queueing) give ms per scrape and ms per push, for the same series, without
# the collection's noise; the sending and serving (libcurl, libmicrohttpd)
# are in neither.
# Ends with PASS/FAIL at the largest count: ktop's CPU <= 0.25 x
# process-exporter's, ktop's scrape latency p99 <= 20 ms (the probe's and
# Prometheus's), the pushing ktop's CPU <= the scraped one's with nothing
# dropped, and ms per push <= ms per scrape. And a line for issue 35 at 2000
# processes: ktop's CPU <= 0.05 x process-exporter's with the disk and
# network counters (ktop_disk_bytes_total, ktop_network_bytes_total) in what
# ktop serves; their series per scrape are taken from Prometheus at each
# count (the network family needs the sock events, Linux 6.3+). Exit 0 PASS,
# 1 FAIL, 2 when it could not run.
#
# Needs root (ktop traces as root), cc, python3, prometheus and
# prometheus-process-exporter (tools/deps.sh bench). Knobs:
#   BENCH_PROCS="1000 2000 5000" BENCH_SECONDS=180 BENCH_WARM=20 BENCH_SCRAPE=5
#   BENCH_DELAY=$BENCH_SCRAPE BENCH_PROBES=600 BENCH_KEEP=1 (keep the logs)
#   BENCH_NEWPROCS=2000 the count of issue 35's line (one of BENCH_PROCS, else SKIP)
#   BENCH_BASE=PATH another ktop binary (an older build) scraped the same way in
#   the same window, as "ktop-base", with the ratio of the CPU times at the end
# A tiny run to check it works: BENCH_PROCS="50 100" BENCH_NEWPROCS=100 BENCH_SECONDS=10
#   BENCH_WARM=4 BENCH_SCRAPE=1 BENCH_PROBES=50 sh bench/exporter.sh
set -u
cd "$(dirname "$0")/.." || exit 2

PROCS=${BENCH_PROCS:-"1000 2000 5000"}
SECONDS_=${BENCH_SECONDS:-180}
WARM=${BENCH_WARM:-20}
SCRAPE=${BENCH_SCRAPE:-5}
DELAY=${BENCH_DELAY:-$SCRAPE}
PROBES=${BENCH_PROBES:-600}
CPU_TARGET=0.25
NEW_PROCS=${BENCH_NEWPROCS:-2000}	# issue 35: at this count, with the disk and network counters,
NEW_TARGET=0.05		# ktop's CPU <= this x process-exporter's
P99_TARGET_MS=20
CC=${CC:-cc}
B=build/bench
KTOP=./ktop
PE=prometheus-process-exporter
BASE=${BENCH_BASE:-}

die() {
	echo "bench: $*" >&2
	exit 2
}

[ -x "$KTOP" ] || die "./ktop is not built (make ktop)"
[ "$(id -u)" = 0 ] || die "needs root: ktop counts kernel events as root"
command -v python3 >/dev/null 2>&1 || die "python3 not found"
command -v prometheus >/dev/null 2>&1 || die "prometheus not found (apt-get install prometheus)"
command -v "$PE" >/dev/null 2>&1 || die "$PE not found (apt-get install prometheus-process-exporter)"
[ -z "$BASE" ] || [ -x "$BASE" ] || die "BENCH_BASE=$BASE is not an executable"
mkdir -p "$B" || die "cannot create $B"
$CC -std=gnu11 -O2 -Wall -Wextra -o "$B/idle" bench/idle.c || die "cannot build $B/idle"

. bench/procs.sh
max=0
for n in $PROCS; do [ "$n" -gt "$max" ] && max=$n; done
idle_room "$max"

T=$(mktemp -d /tmp/ktop-bench-exporter.XXXXXX) || die "mktemp failed"
HZ=$(getconf CLK_TCK)

# ktop, the exporter and Prometheus (PIDS), then the idle processes (bench/procs.sh).
cleanup() {
	trap '' INT TERM
	pids_kill
	idle_kill
	if [ "${BENCH_KEEP:-0}" = 1 ]; then
		echo "bench: logs kept in $T" >&2
	else
		rm -rf "$T"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# The Python side: free ports, Prometheus's API, the latency probe.
cat >"$T/h.py" <<'EOF'
import json, random, socket, sys, time, urllib.parse, urllib.request

def q(port, query, at=None):
    p = {"query": query}
    if at:
        p["time"] = "%.3f" % at
    u = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode(p)
    with urllib.request.urlopen(u, timeout=20) as r:
        return json.loads(r.read())["data"]["result"]

cmd = sys.argv[1]
if cmd == "port":
    s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()
elif cmd == "ready":		# PORT JOB... : until every job was scraped up
    port, jobs = sys.argv[2], sys.argv[3:]
    end = time.time() + 90
    while time.time() < end:
        try:
            if all(any(float(r["value"][1]) == 1 for r in q(port, f'up{{job="{j}"}}')) for j in jobs):
                sys.exit(0)
        except OSError:
            pass
        time.sleep(0.5)
    sys.exit(1)
elif cmd == "scrapes":		# PORT JOB WINDOW_S: p50 p99 max of scrape_duration_seconds (ms), series, scrapes
    port, job, w = sys.argv[2], sys.argv[3], int(float(sys.argv[4]))
    r = q(port, f'scrape_duration_seconds{{job="{job}"}}[{w}s]')
    v = sorted(float(x[1]) * 1000 for x in r[0]["values"]) if r else []
    s = q(port, f'scrape_samples_scraped{{job="{job}"}}')
    up = q(port, f'min_over_time(up{{job="{job}"}}[{w}s])')
    pct = lambda p: v[min(len(v) - 1, int(p * len(v)))] if v else float("nan")
    print("%.1f %.1f %.1f %s %d %s" % (pct(0.5), pct(0.99), v[-1] if v else float("nan"),
          s[0]["value"][1] if s else "0", len(v), up[0]["value"][1] if up else "0"))
elif cmd == "families":	# PORT JOB NAME...: series of each metric name in the job's last scrape
    port, job = sys.argv[2], sys.argv[3]
    out = []
    for name in sys.argv[4:]:
        r = q(port, f'count({{job="{job}",__name__="{name}"}})')
        out.append(r[0]["value"][1] if r else "0")
    print(" ".join(out))
elif cmd == "rw":		# PORT WINDOW_S: series of the last push, samples dropped (the pushing ktop's)
    port, w = sys.argv[2], int(float(sys.argv[3]))
    n = q(port, 'count({job="ktop-rw"})')
    d = q(port, 'ktop_remote_write_dropped_samples_total{job="ktop-rw"}')
    print("%s %s" % (n[0]["value"][1] if n else "0", d[0]["value"][1] if d else "-1"))
elif cmd == "probe":		# PORT N: ktop's /metrics N times, one every 0.1 s (random phase)
    port, n = sys.argv[2], int(sys.argv[3])
    acc = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
    lat, size = [], 0
    for i in range(n):
        req = urllib.request.Request(f"http://127.0.0.1:{port}/metrics", headers={"Accept": acc})
        t0 = time.monotonic()
        with urllib.request.urlopen(req, timeout=30) as r:
            size = len(r.read())
        lat.append((time.monotonic() - t0) * 1000)
        time.sleep(0.05 + random.random() * 0.1)
    lat.sort()
    pct = lambda p: lat[min(len(lat) - 1, int(p * len(lat)))]
    print("%.1f %.1f %.1f %d" % (pct(0.5), pct(0.99), lat[-1], size))
EOF
py() { python3 "$T/h.py" "$@"; }

# utime+stime (s) of PID, and its RSS and peak RSS (MB)
cpu_s() { awk -v hz="$HZ" '{ sub(/.*\) /, ""); split($0, a, " "); printf "%.2f\n", (a[12] + a[13]) / hz }' "/proc/$1/stat"; }
rss_mb() { awk -v k="$2" '$1 == k ":" { printf "%.1f\n", $2 / 1024 }' "/proc/$1/status"; }

cat >"$T/pe.yml" <<'EOF'
process_names:
  - name: "{{.Comm}}"
    cmdline:
      - '.+'
EOF

echo "exporter bench: $(nproc) CPUs, $(uname -r), ktop $($KTOP -V | cut -d' ' -f2), $($PE -version 2>&1 | head -1)"
echo "both scraped every ${SCRAPE}s by one Prometheus ($(prometheus --version 2>&1 | head -1 | cut -d' ' -f3)); ktop -b --listen -d $DELAY (tracing); $PE -config.path (group by comm; package defaults: -threads -gather-smaps)"
echo "CPU and RSS over ${SECONDS_}s after ${WARM}s of warm-up; scrape ms from Prometheus's scrape_duration_seconds"
echo "ktop remote-write: a second ktop -b -d $DELAY --remote-write to the same Prometheus, not scraped (series: pushed; up: nothing dropped)"
printf '\n%6s %-17s %10s %6s %8s %8s %8s %8s %8s %8s %6s\n' procs exporter "cpu s/min" "cpu%" "rss MB" "peak MB" "p50 ms" "p99 ms" "max ms" series up
start=$(date +%s)
: >"$T/summary"
for n in $PROCS; do
	spawn_to "$n"
	kp=$(py port)
	pp=$(py port)
	prp=$(py port)
	KTOP_STATS=1 "$KTOP" -b --listen "127.0.0.1:$kp" -d "$DELAY" >/dev/null 2>"$T/ktop.$n.err" &
	kpid=$!
	KTOP_STATS=1 "$KTOP" -b --remote-write "http://127.0.0.1:$prp/api/v1/write" -d "$DELAY" \
		--external-label job=ktop-rw >/dev/null 2>"$T/ktop-rw.$n.err" &
	rwpid=$!
	bpid= jobs="ktop process-exporter" bjob=
	if [ -n "$BASE" ]; then
		bp=$(py port)
		"$BASE" -b --listen "127.0.0.1:$bp" -d "$DELAY" >/dev/null 2>"$T/ktop-base.$n.err" &
		bpid=$!
		jobs="$jobs ktop-base"
		# spaces only: <<- strips the tabs of the text, not of what it expands
		bjob=$(printf "\n  - job_name: ktop-base\n    static_configs: [{targets: ['127.0.0.1:%s']}]" "$bp")
	fi
	"$PE" -config.path "$T/pe.yml" -web.listen-address "127.0.0.1:$pp" >"$T/pe.$n.log" 2>&1 &
	ppid=$!
	mkdir -p "$T/prom.$n"
	cat >"$T/prom.$n.yml" <<-EOF
	global:
	  scrape_interval: ${SCRAPE}s
	  scrape_timeout: ${SCRAPE}s
	scrape_configs:
	  - job_name: ktop
	    static_configs: [{targets: ['127.0.0.1:$kp']}]
	  - job_name: process-exporter
	    static_configs: [{targets: ['127.0.0.1:$pp']}]$bjob
	EOF
	prometheus --config.file="$T/prom.$n.yml" --storage.tsdb.path="$T/prom.$n" \
		--web.listen-address="127.0.0.1:$prp" --web.enable-remote-write-receiver \
		--log.level=warn >"$T/prom.$n.log" 2>&1 &
	prpid=$!
	PIDS="$kpid $rwpid $ppid $prpid $bpid"
	# shellcheck disable=SC2086
	py ready "$prp" $jobs ||
		die "Prometheus did not scrape both exporters (logs: ktop $(cat "$T/ktop.$n.err"); $(tail -3 "$T/pe.$n.log"))"
	sleep "$WARM"
	k0=$(cpu_s "$kpid")
	p0=$(cpu_s "$ppid")
	w0=$(cpu_s "$rwpid")
	[ -z "$bpid" ] || b0=$(cpu_s "$bpid")
	sleep "$SECONDS_"
	kill -0 "$kpid" 2>/dev/null || die "ktop exited: $(cat "$T/ktop.$n.err")"
	kill -0 "$rwpid" 2>/dev/null || die "ktop --remote-write exited: $(cat "$T/ktop-rw.$n.err")"
	kill -0 "$ppid" 2>/dev/null || die "$PE exited: $(tail -n 3 "$T/pe.$n.log")"
	k1=$(cpu_s "$kpid")
	p1=$(cpu_s "$ppid")
	w1=$(cpu_s "$rwpid")
	if [ -n "$bpid" ]; then
		kill -0 "$bpid" 2>/dev/null || die "ktop-base exited: $(cat "$T/ktop-base.$n.err")"
		b1=$(cpu_s "$bpid")
	fi
	for tool in $jobs; do
		case $tool in
		ktop) pid=$kpid c=$(awk -v a="$k0" -v b="$k1" 'BEGIN { print b - a }') ;;
		ktop-base) pid=$bpid c=$(awk -v a="$b0" -v b="$b1" 'BEGIN { print b - a }') ;;
		*) pid=$ppid c=$(awk -v a="$p0" -v b="$p1" 'BEGIN { print b - a }') ;;
		esac
		s=$(py scrapes "$prp" "$tool" "$SECONDS_")
		line=$(awk -v n="$n" -v t="$tool" -v c="$c" -v w="$SECONDS_" -v r="$(rss_mb "$pid" VmRSS)" \
			-v h="$(rss_mb "$pid" VmHWM)" -v s="$s" 'BEGIN {
			split(s, a, " ")
			printf "%6d %-17s %10.3f %6.2f %8.1f %8.1f %8.1f %8.1f %8.1f %8d %6s\n",
				n, t, c * 60 / w, c * 100 / w, r, h, a[1], a[2], a[3], a[4], a[6] == 1 ? "yes" : "NO"
		}')
		echo "$line"
		echo "$line" >>"$T/summary"
	done
	# Issue 35's counters in what ktop served: their series in its last scrape.
	fam=$(py families "$prp" ktop ktop_disk_bytes_total ktop_network_bytes_total)
	echo "fam $n $fam" >>"$T/summary"
	echo "$fam" | awk -v n="$n" '{ printf "%6d ktop served ktop_disk_bytes_total: %d series, ktop_network_bytes_total: %d series\n", n, $1, $2 }'
	# The pushing ktop: no scrape; samples per push and dropped from Prometheus.
	rw=$(py rw "$prp" "$SECONDS_")
	line=$(awk -v n="$n" -v c="$(awk -v a="$w0" -v b="$w1" 'BEGIN { print b - a }')" -v w="$SECONDS_" \
		-v r="$(rss_mb "$rwpid" VmRSS)" -v h="$(rss_mb "$rwpid" VmHWM)" -v s="$rw" 'BEGIN {
		split(s, a, " ")
		printf "%6d %-17s %10.3f %6.2f %8.1f %8.1f %8s %8s %8s %8d %6s\n",
			n, "ktop remote-write", c * 60 / w, c * 100 / w, r, h, "-", "-", "-", a[1],
			a[2] == 0 ? "yes" : "DROP" a[2]
	}')
	echo "$line"
	echo "$line" >>"$T/summary"
	# The latency probe, at the largest count only, after the CPU window.
	if [ "$n" = "$max" ]; then
		kill -TERM "$ppid" 2>/dev/null
		wait "$ppid" 2>/dev/null
		probe=$(py probe "$kp" "$PROBES") || die "the probe of ktop's /metrics failed"
		echo "$probe" >"$T/probe"
	fi
	pids_kill
	ls /sys/kernel/tracing/instances 2>/dev/null | grep -q "^ktop-$kpid-" &&
		echo "bench: ktop $kpid left its tracefs instance" >&2
	# Per interval, from KTOP_STATS (written as they exit): ms per scrape, ms per push.
	stat_of() { sed -n "s/.*[ :]$2=\([0-9.]*\).*/\1/p" "$1" | head -1; }
	k=$T/ktop.$n.err w=$T/ktop-rw.$n.err
	line=$(awk -v n="$n" -v r="$(stat_of "$k" scrape_renders)" -v rc="$(stat_of "$k" scrape_render_cpu_s)" \
		-v g="$(stat_of "$k" gzips)" -v gc="$(stat_of "$k" gzip_cpu_s)" \
		-v p="$(stat_of "$w" pushes)" -v pc="$(stat_of "$w" push_cpu_s)" 'BEGIN {
		if (r + 0 == 0 || p + 0 == 0) { print "perop " n " - - - - 0 0"; exit }
		gz = g > 0 ? gc / g : 0
		printf "perop %d %.3f %.3f %.3f %.3f %d %d\n", n, rc * 1000 / r, gz * 1000,
			(rc / r + gz) * 1000, pc * 1000 / p, r, p
	}')
	echo "$line" >>"$T/summary"
	echo "$line" | awk '{ printf "%6d per interval: scrape %s ms (rendering %s + gzip %s, %d scrapes), push %s ms (%d pushes)\n", $2, $5, $3, $4, $7, $6, $8 }'
done
read -r pp50 pp99 pmax psize <"$T/probe"
echo
echo "probe at $max processes: $PROBES scrapes of ktop's /metrics ($psize bytes, OpenMetrics), one every 0.1 s: p50 $pp50 ms, p99 $pp99 ms, max $pmax ms"
verdict=$(awk -v n="$max" -v ct="$CPU_TARGET" -v lt="$P99_TARGET_MS" -v pp99="$pp99" '
	$1 == n && $2 == "ktop" && $3 != "remote-write" { k = $3; kp99 = $8 }
	$1 == n && $2 == "process-exporter" { p = $3 }
	$1 == n && $2 == "ktop" && $3 == "remote-write" { w = $4; wok = $NF == "yes" }
	$1 == "perop" && $2 == n { sms = $5; pms = $6; opok = $6 != "-" && $6 + 0 <= $5 + 0 }
	END {
		r = p > 0 ? k / p : 1e9
		rwok = wok && w <= k
		ok = r <= ct && pp99 <= lt && kp99 <= lt && rwok && opok
		printf "%s at %d processes: ktop CPU %.3f / process-exporter %.3f = %.3fx (target <= %.2fx: %s); ktop scrape p99 probe %.1f ms, Prometheus %.1f ms (target <= %d ms: %s); push CPU %.3f vs scraped %.3f, nothing dropped (%s); per interval push %s ms vs scrape %s ms (%s)",
			ok ? "PASS" : "FAIL", n, k, p, r, ct, r <= ct ? "ok" : "missed", pp99, kp99, lt,
			pp99 <= lt && kp99 <= lt ? "ok" : "missed", w, k, rwok ? "ok" : "missed",
			pms, sms, opok ? "ok" : "missed"
	}' "$T/summary")
echo "$verdict"
# Issue 35: at NEW_PROCS, with the disk and network counters served.
netev=1
[ -d /sys/kernel/tracing/events/sock/sock_send_length ] || netev=0
nverdict=$(awk -v n="$NEW_PROCS" -v ct="$NEW_TARGET" -v netev="$netev" '
	$1 == n && $2 == "ktop" && $3 != "remote-write" { k = $3; seen = 1 }
	$1 == n && $2 == "process-exporter" { p = $3 }
	$1 == "fam" && $2 == n { d = $3; w = $4 }
	END {
		if (!seen) { printf "SKIP at %d processes: not measured (BENCH_PROCS)", n; exit }
		r = p > 0 ? k / p : 1e9
		famok = d > 0 && (w > 0 || !netev)
		why = d > 0 ? "" : " ktop_disk_bytes_total not served;"
		if (w == 0)
			why = why (netev ? " ktop_network_bytes_total not served;" : " no sock events on this kernel: no ktop_network_bytes_total;")
		sub(/;$/, "", why)
		printf "%s at %d processes, with the disk and network counters (%d and %d series;%s): ktop CPU %.3f / process-exporter %.3f = %.3fx (target <= %.2fx: %s)",
			r <= ct && famok ? "PASS" : "FAIL", n, d, w, why == "" ? " served" : why, k, p, r, ct,
			r <= ct ? "ok" : "missed"
	}' "$T/summary")
echo "$nverdict"
[ -z "$BASE" ] || awk '$2 == "ktop" && $3 != "remote-write" { k[$1] = $3 }
	$2 == "ktop-base" { b[$1] = $3 }
	END { for (n in k) if (b[n] > 0) printf "at %d processes: ktop CPU %.3f / ktop-base %.3f = %.3fx\n", n, k[n], b[n], k[n] / b[n] }' "$T/summary"
echo "bench time: $(($(date +%s) - start)) s"
case $verdict in PASS*) ;; *) exit 1 ;; esac
case $nverdict in FAIL*) exit 1 ;; esac
exit 0
