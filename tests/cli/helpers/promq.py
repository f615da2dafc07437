#!/usr/bin/env python3
"""Helpers of tests/cli/exporter.bats: a real Prometheus server's HTTP API,
ktop's own CSV, and hostile HTTP clients.

    promq.py freeport                      a free TCP port on 127.0.0.1
    promq.py ready PORT SECONDS            until Prometheus answers /-/ready
    promq.py up PORT JOB SECONDS           until Prometheus scraped JOB once, up == 1
    promq.py value PORT QUERY              the instant value ("absent" if none)
    promq.py wait PORT QUERY WANT SECONDS  until the value is >= WANT: prints it
    promq.py increase PORT SERIES          increase() of SERIES (one series) over a range
                                           from its first raw sample to its last, so
                                           that nothing is extrapolated: prints the
                                           value, the samples and the span in seconds
    promq.py csv-match PORT SERIES CSV COMM SYSCALL FIELD
        Prometheus's raw samples of SERIES (a counter of ktop's) and of
        ktop_last_refresh_timestamp_seconds, scrape by scrape: the counter's
        increase between the first and the last scrape must equal the sum of
        FIELD (calls or errors) over ktop's own `-b --csv --syscalls` rows of
        COMM and SYSCALL whose time is of a refresh in between. Also compares
        Prometheus's rate() over that window with the CSV's rate (loosely:
        rate() extrapolates to the window's edges). Prints the numbers.
    promq.py attack PORT KIND SECONDS [N]  hostile clients for SECONDS:
        slowloris  256 connections from 32 loopback addresses, a header byte
                   every second, never finished
        flood      10,000 connections opened as fast as possible (all of
                   them, however long it takes), held
        huge       requests with 1 MiB of headers and with a 1 GiB body,
                   repeated (N times at least, however long it takes)
        paths      GET of wrong paths and wrong methods, repeated (N times
                   at least): each must be answered 404 or 405
    promq.py scrape PORT OUT               GET /metrics (text format): prints the
                                           time it took in ms; the body in OUT
    promq.py omcheck FILE COMM             FILE passes the strict OpenMetrics 1.0
                                           parser, ends in "# EOF", has every
                                           family of ktop's, and a group COMM
"""
import csv
import json
import resource
import socket
import sys
import time
import urllib.error
import urllib.parse
import urllib.request


def api(port, path, **params):
    url = f"http://127.0.0.1:{port}{path}"
    if params:
        url += "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def freeport():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    print(port)


def ready(port, seconds):
    end = time.time() + float(seconds)
    while time.time() < end:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/-/ready", timeout=2) as r:
                if r.status == 200:
                    return 0
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.2)
    print(f"Prometheus on port {port} not ready after {seconds} s", file=sys.stderr)
    return 1


def instant(port, query):
    res = api(port, "/api/v1/query", query=query)["data"]["result"]
    if not res:
        return None
    if len(res) > 1:
        raise SystemExit(f"{query}: {len(res)} series, expected one: {res}")
    return float(res[0]["value"][1])


def up(port, job, seconds):
    end = time.time() + float(seconds)
    while time.time() < end:
        if instant(port, f'up{{job="{job}"}}') == 1:
            return 0
        time.sleep(0.3)
    print(f"Prometheus did not scrape {job} in {seconds} s: "
          f"{api(port, '/api/v1/targets')}", file=sys.stderr)
    return 1


def value(port, query):
    v = instant(port, query)
    print("absent" if v is None else "%.17g" % v)
    return 0


def wait(port, query, want, seconds):
    end = time.time() + float(seconds)
    v = None
    while time.time() < end:
        v = instant(port, query)
        if v is not None and v >= float(want):
            break
        time.sleep(0.25)
    print("absent" if v is None else "%.17g" % v)
    return 0


def increase(port, series):
    pts = sorted(raw_samples(port, f"{series}[1h]", time.time()))
    first, last = pts[0], pts[-1]
    # Prometheus 2's range is [at - range, at]: both ends are samples, no extrapolation.
    rng = int(round((last - first) * 1000))
    v = instant(port, f"increase({series}[{rng}ms] @ {last:.3f})")
    print("%s %d %.3f" % ("absent" if v is None else "%.17g" % v, len(pts), last - first))
    return 0


def raw_samples(port, query, at):
    """Raw samples of a range-vector query, {timestamp: value}."""
    res = api(port, "/api/v1/query", query=query, time="%.3f" % at)["data"]["result"]
    if len(res) != 1:
        raise SystemExit(f"{query}: {len(res)} series, expected one: {res}")
    return {float(t): float(v) for t, v in res[0]["values"]}


def csv_match(port, series, path, comm, syscall, field):
    now = time.time()
    window = 120
    cnt = raw_samples(port, f"{series}[{window}s]", now)
    ticks = raw_samples(port, f"ktop_last_refresh_timestamp_seconds[{window}s]", now)
    # One scrape gives both samples the same timestamp.
    both = sorted(t for t in cnt if t in ticks)
    if len(both) < 3:
        raise SystemExit(f"too few scrapes: {len(both)}")
    t1, t2 = both[0], both[-1]
    c1, c2 = cnt[t1], cnt[t2]
    r1, r2 = ticks[t1], ticks[t2]
    total = 0
    rows = 0
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["comm"] != comm or row["syscall"] != syscall:
                continue
            t = float(row["time"])
            # refreshes after the first scrape's, up to the last scrape's
            if r1 + 1e-4 < t <= r2 + 1e-4:
                total += int(row[field])
                rows += 1
    prom = c2 - c1
    print(f"prometheus: {series} {c1:.0f} -> {c2:.0f} = {prom:.0f} between refreshes "
          f"{r1:.6f} and {r2:.6f} ({len(both)} scrapes); ktop csv: {total} in {rows} rows")
    if prom != total:
        print("MISMATCH", file=sys.stderr)
        return 1
    # rate() over the same window, evaluated at the last scrape
    span = t2 - t1
    rate = instant(port, f"rate({series}[{int(span) + 1}s])")
    csv_rate = total / (r2 - r1) if r2 > r1 else 0
    print(f"rate(): prometheus {rate:.3f}/s, ktop csv {csv_rate:.3f}/s")
    if rate is None or csv_rate <= 0 or abs(rate - csv_rate) > 0.25 * csv_rate:
        print("rate() does not agree with the CSV within 25%", file=sys.stderr)
        return 1
    return 0


def scrape(port, out):
    t0 = time.monotonic()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as r:
        body = r.read()
    ms = (time.monotonic() - t0) * 1000
    with open(out, "wb") as f:
        f.write(body)
    print("%.1f" % ms)
    return 0


def connect_from(src, port, block=True):
    s = socket.socket()
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind((src, 0))
    if block:
        s.settimeout(5)
        s.connect(("127.0.0.1", port))
    else:
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
    return s


def attack(port, kind, seconds, least=0):
    port = int(port)
    least = int(least)
    end = time.time() + float(seconds)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 20000)), hard))
    except (ValueError, OSError):
        pass
    socks = []
    stats = {"opened": 0, "failed": 0, "answers": {}}
    if kind == "slowloris":
        for i in range(256):
            try:
                s = connect_from(f"127.0.0.{2 + i % 32}", port, block=False)
                socks.append(s)
                stats["opened"] += 1
            except OSError:
                stats["failed"] += 1
        time.sleep(0.2)
        while time.time() < end:
            for s in socks:
                try:
                    s.send(b"G" if s.fileno() >= 0 else b"")
                except OSError:
                    pass
            time.sleep(1)
    elif kind == "flood":
        t0 = time.time()
        for i in range(10000):
            try:
                socks.append(connect_from(f"127.0.{1 + i // 250}.{2 + i % 250}", port, block=False))
                stats["opened"] += 1
            except OSError:
                stats["failed"] += 1
        stats["open_s"] = round(time.time() - t0, 2)
        while time.time() < end:
            time.sleep(0.2)
    elif kind in ("huge", "paths"):
        reqs = {
            "huge": [b"GET /metrics HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20) +
                     b"\r\n\r\n",
                     b"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 1073741824\r\n\r\n" +
                     b"b" * 65536],
            "paths": [b"GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                      b"GET /metrics/../etc/passwd HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                      b"DELETE /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                      b"GET /" + b"x" * 8000 + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"],
        }[kind]
        i = 0
        while time.time() < end or i < least:
            req = reqs[i % len(reqs)]
            i += 1
            try:
                s = connect_from(f"127.0.0.{2 + i % 32}", port)
                try:
                    s.sendall(req)
                except OSError:
                    pass
                s.settimeout(5)
                data = b""
                try:
                    while len(data) < 65536:
                        chunk = s.recv(4096)
                        if not chunk:
                            break
                        data += chunk
                        if b"\r\n\r\n" in data and kind == "huge":
                            break
                except OSError:
                    pass
                s.close()
                code = data.split(b" ", 2)[1].decode() if data.startswith(b"HTTP/") else "closed"
                stats["answers"][code] = stats["answers"].get(code, 0) + 1
            except OSError:
                stats["failed"] += 1
        if kind == "paths":
            bad = {c: n for c, n in stats["answers"].items() if c not in ("404", "405", "414", "431")}
            if bad:
                print(f"unexpected answers: {stats}", file=sys.stderr)
                return 1
    else:
        raise SystemExit(f"unknown attack {kind}")
    for s in socks:
        s.close()
    print(f"{kind}: {stats}")
    return 0


FAMILIES = {
    "ktop_syscalls": "counter", "ktop_syscall_errors": "counter",
    "ktop_context_switches": "counter", "ktop_page_faults": "counter",
    "ktop_signals": "counter", "ktop_cpu_seconds": "counter", "ktop_processes": "gauge",
    "ktop_subsystem_syscalls": "counter", "ktop_subsystem_syscall_errors": "counter",
    "ktop_lost_events": "counter", "ktop_lost_events_unknown_intervals": "counter",
    "ktop_events_decoded": "counter", "ktop_refreshes": "counter",
    "ktop_last_refresh_timestamp_seconds": "gauge", "ktop_scrapes": "counter",
    "ktop_scrape_duration_seconds": "gauge", "ktop_tracing": "gauge", "ktop_tracing_info": "gauge",
    "ktop_metrics_dropped_groups": "gauge", "ktop_metrics_dropped_series": "gauge",
}


def omcheck(path, comm):
    from prometheus_client.openmetrics.parser import text_string_to_metric_families
    text = open(path, "rb").read().decode("utf-8")  # strict: invalid UTF-8 fails here
    assert text.endswith("\n# EOF\n"), "no # EOF at the end"
    fams = {f.name: f for f in text_string_to_metric_families(text)}
    for name, typ in FAMILIES.items():
        assert name in fams, f"no family {name}: {sorted(fams)}"
        assert fams[name].type == typ, (name, fams[name].type)
        assert fams[name].documentation, f"{name} has no HELP"
    assert fams["ktop_cpu_seconds"].unit == "seconds"
    comms = {s.labels["comm"] for s in fams["ktop_processes"].samples}
    assert comm in comms, f"{comm!r} not in {sorted(comms)}"
    n = sum(len(f.samples) for f in fams.values())
    print(f"openmetrics: {len(fams)} families, {n} samples, {len(comms)} groups")
    return 0


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    fn = {"freeport": freeport, "ready": ready, "up": up, "value": value, "wait": wait,
          "increase": increase,
          "csv-match": csv_match, "attack": attack, "scrape": scrape, "omcheck": omcheck}[cmd]
    return fn(*args) or 0


if __name__ == "__main__":
    sys.exit(main())
