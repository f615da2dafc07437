#!/usr/bin/env python3
"""Checks of ktop's batch output (CSV, JSON) and of /proc, for the CLI tests.

    ktopcheck.py COMMAND ARGS...

Every check prints what is wrong and exits 1; queries print their answer.
"""
import csv
import glob
import json
import math
import os
import sys

COUNTERS = ("minflt", "majflt", "vcsw", "ivcsw")
EVENT_COLS = ("cpu_pct",) + COUNTERS
CSV_REQUIRED = ("time", "interval_s", "pid", "ppid", "user", "comm", "state", "cpu_pct",
                "rss_kb", "minflt", "majflt", "vcsw", "ivcsw")
SYSTEM_KEYS = ("uptime_s", "load", "tasks", "running", "sleeping", "disk", "stopped",
               "zombie", "idle", "ncpu", "cpu_pct", "ctxt", "intr", "forks", "minflt",
               "majflt")
SYSTEM_COUNTS = ("ctxt", "intr", "forks", "minflt", "majflt")


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def is_uint(s):
    return s.isdigit()


# ---------------------------------------------------------------- CSV

def read_csv(path):
    """(header, [iteration, ...]) where an iteration is a list of dict rows."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f, strict=True))
    if not rows:
        fail("%s: empty" % path)
    header = rows[0]
    if len(set(header)) != len(header):
        fail("duplicate columns in the header: %r" % header)
    if header[:2] != ["time", "interval_s"]:
        fail("the header does not start with time,interval_s: %r" % header)
    iters, last_time = [], None
    for n, r in enumerate(rows[1:], 2):
        if len(r) != len(header):
            fail("line %d has %d fields, the header %d: %r" % (n, len(r), len(header), r))
        d = dict(zip(header, r))
        if d["time"] != last_time:
            iters.append([])
            last_time = d["time"]
        iters[-1].append(d)
    return header, iters


def rows_of(it, pid):
    return [r for r in it if r["pid"] == str(pid)]


def csv_format(path, n_iter, dmin, dmax):
    header, iters = read_csv(path)
    for k in CSV_REQUIRED:
        if k not in header:
            fail("column %s missing from the header %r" % (k, header))
    if len(iters) != n_iter:
        fail("%d iterations, expected %d" % (len(iters), n_iter))
    prev_t = None
    for i, it in enumerate(iters):
        t = float(it[0]["time"])
        if not math.isfinite(t) or t < 1e9:
            fail("iteration %d: time %r is not a Unix time" % (i + 1, it[0]["time"]))
        if prev_t is not None and t <= prev_t:
            fail("iteration %d: time %f does not increase (previous %f)" % (i + 1, t, prev_t))
        prev_t = t
        if not rows_of(it, 1):
            fail("iteration %d: no row for pid 1" % (i + 1))
        pids = [r["pid"] for r in it]
        if len(set(pids)) != len(pids):
            fail("iteration %d: a pid is listed twice" % (i + 1))
        for r in it:
            if not is_uint(r["pid"]) or not is_uint(r["ppid"]) or not is_uint(r["rss_kb"]):
                fail("iteration %d: pid/ppid/rss_kb not whole numbers: %r" % (i + 1, r))
            if len(r["state"]) != 1:
                fail("iteration %d: state %r is not one character" % (i + 1, r["state"]))
            if i == 0:
                if r["interval_s"] != "":
                    fail("first iteration: interval_s %r is not empty" % r["interval_s"])
                for k in EVENT_COLS:
                    if r[k] != "":
                        fail("first iteration: %s is %r, not empty (pid %s)" % (k, r[k], r["pid"]))
                continue
            iv = float(r["interval_s"])
            if not dmin <= iv <= dmax:
                fail("iteration %d: interval_s %f not in [%g, %g]" % (i + 1, iv, dmin, dmax))
            for k in COUNTERS:
                if r[k] != "" and not is_uint(r[k]):
                    fail("iteration %d: %s %r is not a non-negative integer (pid %s)"
                         % (i + 1, k, r[k], r["pid"]))
            if r["cpu_pct"] != "" and float(r["cpu_pct"]) < 0:
                fail("iteration %d: negative cpu_pct %r" % (i + 1, r["cpu_pct"]))
            # stat is read for every row: its counts are always there after the
            # first iteration; status (switches) may be missing only for a
            # process that exited meanwhile.
            for k in ("minflt", "majflt", "cpu_pct"):
                if r[k] == "":
                    fail("iteration %d: %s empty for pid %s" % (i + 1, k, r["pid"]))
            if os.path.exists("/proc/%s" % r["pid"]):
                for k in ("vcsw", "ivcsw"):
                    if r[k] == "":
                        fail("iteration %d: %s empty for pid %s, still running"
                             % (i + 1, k, r["pid"]))
        if i and not all(r["interval_s"] == it[0]["interval_s"] for r in it):
            fail("iteration %d: rows with different interval_s" % (i + 1))
    # pid 1 never ran backwards: its counts are small, not wrapped-around numbers.
    for it in iters[1:]:
        for r in rows_of(it, 1):
            for k in COUNTERS:
                if int(r[k]) > 10**7:
                    fail("pid 1 %s = %s in one interval" % (k, r[k]))


def csv_sum(path, pid, col, by_tgid=False):
    """Sum of @col over the iterations after the first, for @pid (or its threads)."""
    header, iters = read_csv(path)
    if len(iters) < 2:
        fail("fewer than 2 iterations")
    total = 0
    for i, it in enumerate(iters):
        rows = [r for r in it if r["tgid" if by_tgid else "pid"] == str(pid)]
        if not rows:
            fail("iteration %d: no row for %s %d" % (i + 1, "tgid" if by_tgid else "pid", pid))
        if i == 0:
            continue
        for r in rows:
            if not is_uint(r[col]):
                fail("iteration %d: %s of %s is %r" % (i + 1, col, r["pid"], r[col]))
            total += int(r[col])
    print(total)


def csv_pids(path, pids, only, nonempty):
    header, iters = read_csv(path)
    want = set(str(p) for p in pids)
    if not iters:
        fail("no rows")
    for i, it in enumerate(iters):
        have = set(r["pid"] for r in it)
        missing = want - have
        if missing:
            fail("iteration %d: %d of the pids missing, e.g. %s"
                 % (i + 1, len(missing), sorted(missing)[:5]))
        if only and have - want:
            fail("iteration %d: unexpected pids %s" % (i + 1, sorted(have - want)[:5]))
        if i == 0:
            continue
        for col in nonempty:
            empty = [r["pid"] for r in it if r["pid"] in want and not is_uint(r[col])]
            if empty:
                fail("iteration %d: %s empty for %d pids, e.g. %s"
                     % (i + 1, col, len(empty), empty[:5]))
    print(len(iters))


def csv_threads(path, tgid, nthreads):
    header, iters = read_csv(path)
    if len(iters) < 2:
        fail("fewer than 2 iterations")
    for i, it in enumerate(iters):
        if len(it) != nthreads:
            fail("iteration %d: %d rows, expected %d: %r" % (i + 1, len(it), nthreads, it))
        if any(r["tgid"] != str(tgid) for r in it):
            fail("iteration %d: a row with another tgid: %r" % (i + 1, it))
        pids = [r["pid"] for r in it]
        if len(set(pids)) != nthreads or str(tgid) not in pids:
            fail("iteration %d: the tids are not %d distinct ones with the leader: %r"
                 % (i + 1, nthreads, pids))
        want = set(os.path.basename(p) for p in glob.glob("/proc/%d/task/*" % tgid))
        if set(pids) != want:
            fail("iteration %d: tids %s, /proc says %s" % (i + 1, sorted(pids), sorted(want)))


def csv_order(path, col, direction):
    header, iters = read_csv(path)
    for i, it in enumerate(iters):
        # an unknown value (empty cell) sorts lowest
        v = [float(r[col]) if r[col] != "" else -math.inf for r in it]
        if v != sorted(v, reverse=direction == "desc"):
            fail("iteration %d: %s not in %s order: %r" % (i + 1, col, direction, v[:20]))


def csv_field(path, pid, col):
    header, iters = read_csv(path)
    for it in iters:
        rows = rows_of(it, pid)
        if len(rows) != 1:
            fail("%d rows for pid %d in an iteration" % (len(rows), pid))
        print(json.dumps(rows[0][col]))


def csv_header(path):
    header, iters = read_csv(path)
    print(",".join(header))


# ---------------------------------------------------------------- JSON

def read_json(path):
    objs = []
    with open(path, "rb") as f:
        for n, line in enumerate(f, 1):
            try:
                objs.append(json.loads(line.decode("utf-8")))
            except UnicodeDecodeError as e:
                fail("line %d is not UTF-8 (%s)" % (n, e))
            except ValueError as e:
                at = getattr(e, "pos", 0) or 0
                fail("line %d is not JSON (%s), near: %r" % (n, e, line[max(0, at - 60):at + 40]))
    return objs


def json_format(path, n_iter, dmin, dmax, cols):
    objs = read_json(path)
    if len(objs) != n_iter:
        fail("%d lines, expected %d" % (len(objs), n_iter))
    # the highest CPU number of /proc/stat, plus one (an offline CPU leaves a gap)
    ncpu = 1 + max(int(l.split()[0][3:]) for l in open("/proc/stat")
                   if l[:3] == "cpu" and l[3:4].isdigit())
    prev_t = None
    for i, o in enumerate(objs):
        for k in ("time", "interval_s", "system", "processes"):
            if k not in o:
                fail("line %d: no %s" % (i + 1, k))
        if prev_t is not None and o["time"] <= prev_t:
            fail("line %d: time does not increase" % (i + 1))
        prev_t = o["time"]
        s = o["system"]
        for k in SYSTEM_KEYS:
            if k not in s:
                fail("line %d: system has no %s" % (i + 1, k))
        if s["ncpu"] != ncpu:
            fail("line %d: ncpu %r, /proc/stat lists %d" % (i + 1, s["ncpu"], ncpu))
        if not isinstance(s["load"], list) or len(s["load"]) != 3:
            fail("line %d: load %r" % (i + 1, s["load"]))
        if s["tasks"] != len(o["processes"]):
            fail("line %d: system.tasks %r but %d processes" % (i + 1, s["tasks"], len(o["processes"])))
        if not isinstance(o["processes"], list) or not o["processes"]:
            fail("line %d: processes is not a non-empty list" % (i + 1))
        if i == 0:
            if o["interval_s"] is not None:
                fail("first line: interval_s %r, not null" % o["interval_s"])
            for k in SYSTEM_COUNTS:
                if s[k] is not None:
                    fail("first line: system %s %r, not null" % (k, s[k]))
        else:
            if not isinstance(o["interval_s"], float) or not dmin <= o["interval_s"] <= dmax:
                fail("line %d: interval_s %r not in [%g, %g]" % (i + 1, o["interval_s"], dmin, dmax))
            for k in SYSTEM_COUNTS:
                if not isinstance(s[k], int) or s[k] < 0:
                    fail("line %d: system %s %r" % (i + 1, k, s[k]))
        if not any(p.get("pid") == 1 for p in o["processes"]):
            fail("line %d: no pid 1" % (i + 1))
        for p in o["processes"]:
            if cols and list(p.keys()) != cols:
                fail("line %d: keys %r, expected %r" % (i + 1, list(p.keys()), cols))
            for k in COUNTERS:
                if k not in p:
                    continue
                v = p[k]
                if i == 0:
                    if v is not None:
                        fail("first line: %s %r for pid %r, not null" % (k, v, p.get("pid")))
                elif v is not None and (not isinstance(v, int) or v < 0):
                    fail("line %d: %s %r for pid %r" % (i + 1, k, v, p.get("pid")))
                elif v is None and k in ("minflt", "majflt"):
                    fail("line %d: %s null for pid %r" % (i + 1, k, p.get("pid")))


def json_field(path, pid, key):
    for o in read_json(path):
        rows = [p for p in o["processes"] if p.get("pid") == pid]
        if len(rows) != 1:
            fail("%d processes with pid %d" % (len(rows), pid))
        print(json.dumps(rows[0][key]))


# ---------------------------------------------------------------- /proc

def snap(pid):
    """minflt majflt vcsw ivcsw of @pid now: stat, and status summed over threads."""
    with open("/proc/%d/stat" % pid) as f:
        rest = f.read().rsplit(")", 1)[1].split()
    minflt, majflt = int(rest[7]), int(rest[9])
    vcsw = ivcsw = 0
    for st in glob.glob("/proc/%d/task/*/status" % pid):
        with open(st) as f:
            for line in f:
                if line.startswith("voluntary_ctxt_switches:"):
                    vcsw += int(line.split()[1])
                elif line.startswith("nonvoluntary_ctxt_switches:"):
                    ivcsw += int(line.split()[1])
    print(minflt, majflt, vcsw, ivcsw)


def main():
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == "csv-format":
        csv_format(a[0], int(a[1]), float(a[2]), float(a[3]))
    elif cmd == "csv-sum":
        csv_sum(a[0], int(a[1]), a[2])
    elif cmd == "csv-sum-tgid":
        csv_sum(a[0], int(a[1]), a[2], by_tgid=True)
    elif cmd == "csv-pids":
        # csv-pids FILE only|any COL1,COL2|- PID...
        csv_pids(a[0], [int(p) for p in a[3:]], a[1] == "only",
                 [] if a[2] == "-" else a[2].split(","))
    elif cmd == "csv-threads":
        csv_threads(a[0], int(a[1]), int(a[2]))
    elif cmd == "csv-order":
        csv_order(a[0], a[1], a[2])
    elif cmd == "csv-field":
        csv_field(a[0], int(a[1]), a[2])
    elif cmd == "csv-header":
        csv_header(a[0])
    elif cmd == "json-format":
        json_format(a[0], int(a[1]), float(a[2]), float(a[3]),
                    a[4].split(",") if len(a) > 4 else None)
    elif cmd == "json-field":
        json_field(a[0], int(a[1]), a[2])
    elif cmd == "snap":
        snap(int(a[0]))
    else:
        fail("unknown command " + cmd)


if __name__ == "__main__":
    main()
