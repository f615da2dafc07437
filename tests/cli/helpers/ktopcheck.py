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
import re
import sys

COUNTERS = ("minflt", "majflt", "vcsw", "ivcsw")
EVENT_COLS = ("cpu_pct",) + COUNTERS
TRACE_COUNTS = ("syscalls", "syscall_errors", "sig_recv", "sig_sent", "lost_events")
CSV_REQUIRED = ("time", "interval_s", "pid", "ppid", "user", "comm", "state", "cpu_pct",
                "rss_kb", "minflt", "majflt", "vcsw", "ivcsw")
SYSTEM_KEYS = ("uptime_s", "load", "tasks", "running", "sleeping", "disk", "stopped",
               "zombie", "idle", "exited", "ncpu", "cpu_pct", "ctxt", "intr", "forks", "minflt",
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
            # rss_kb: empty for a row /proc never read (born and gone between
            # two refreshes, state X: its exit record has no memory; or known
            # only from its events yet, state ?), never 0
            rss_ok = is_uint(r["rss_kb"]) or (r["rss_kb"] == "" and r["state"] in ("X", "?"))
            if not is_uint(r["pid"]) or not is_uint(r["ppid"]) or not rss_ok:
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
            # process that exited meanwhile. A row that only events know (a
            # process born and gone within the interval: state X, or ? when its
            # exit is not read yet) has no /proc numbers.
            for k in ("minflt", "majflt", "cpu_pct"):
                if r[k] == "" and r.get("state") not in ("X", "?"):
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


def csv_exits(path, report, comm, user):
    """Short-lived processes (helpers/burn.c) against their own getrusage.

    @report has a line "pid cpu_us minflt majflt" per process. Each must have
    one row in state X, named @comm, of @user, whose cpu_s is its CPU time
    within a tick; over its rows (the intervals it lived in) minflt and majflt
    add up to its own counts exactly and cpu_pct to its CPU time within a tick.
    A row X after that one is only for calls read a refresh late (their CPU
    was read before they were written): with calls, and no count of an
    interval (cpu_pct, minflt, majflt empty); its cpu_s, a total, is none or
    the X row's (a process of several threads is still known then: under load
    its last threads' calls come a tick after its exit record).
    """
    header, iters = read_csv(path)
    rows = {}
    for it in iters:
        for r in it:
            rows.setdefault(r["pid"], []).append(r)
    n, cpu_k, cpu_r, flt_k, flt_r = 0, 0.0, 0.0, 0, 0
    with open(report) as f:
        for line in f:
            pid, cpu_us, minflt, majflt = line.split()
            cpu = int(cpu_us) / 1e6
            mine = rows.get(pid)
            if not mine:
                fail("pid %s: no row (it used %.3f s, %s faults)" % (pid, cpu, minflt))
            first_x = next((i for i, r in enumerate(mine) if r["state"] == "X"), len(mine))
            late = mine[first_x + 1:]
            mine = mine[:first_x + 1]
            for r in late:
                # (late is empty unless first_x is a row of mine)
                if (r["state"] != "X" or r.get("syscalls", "") in ("", "0") or
                        r["cpu_s"] not in ("", mine[first_x]["cpu_s"]) or
                        any(r[k] != "" for k in ("cpu_pct", "minflt", "majflt"))):
                    fail("pid %s: a row after its last: %r" % (pid, r))
            xs = [r for r in mine if r["state"] == "X"]
            if len(xs) != 1:
                fail("pid %s: %d rows in state X: %r" % (pid, len(xs), mine))
            x = xs[0]
            if x["comm"] != comm or x["user"] != user:
                fail("pid %s: comm %r user %r, not %r %r" % (pid, x["comm"], x["user"], comm, user))
            if x["cpu_s"] == "" or abs(float(x["cpu_s"]) - cpu) > 0.0151:
                fail("pid %s: cpu_s %r, its own %.6f s" % (pid, x["cpu_s"], cpu))
            # A row of state ? (its events read before /proc listed it, its
            # exit not yet: a loaded machine) has no /proc numbers; any other
            # row has them all.
            known = [r for r in mine if r["state"] != "?"]
            for col, want in (("minflt", int(minflt)), ("majflt", int(majflt))):
                vals = [r[col] for r in mine]
                if (not all(is_uint(r[col]) for r in known) or
                        any(r[col] != "" for r in mine if r["state"] == "?") or
                        sum(int(r[col]) for r in known) != want):
                    fail("pid %s: %s %r in states %r, its own %d"
                         % (pid, col, vals, [r["state"] for r in mine], want))
            pct = [r["cpu_pct"] for r in mine]
            if any(r["cpu_pct"] == "" for r in known):
                fail("pid %s: cpu_pct %r in states %r" % (pid, pct, [r["state"] for r in mine]))
            used = sum(float(r["cpu_pct"]) / 100 * float(r["interval_s"]) for r in known)
            if abs(used - cpu) > 0.0101 + 0.0005 * len(mine):
                fail("pid %s: cpu_pct over its rows %.4f s, its own %.6f s: %r" % (pid, used, cpu, pct))
            n += 1
            cpu_k += float(x["cpu_s"])
            cpu_r += cpu
            flt_k += sum(int(r["minflt"]) for r in known)
            flt_r += int(minflt)
    if not n:
        fail("no process reported")
    print("%d processes: cpu_s ktop %.2f, getrusage %.3f; minflt ktop %d, getrusage %d"
          % (n, cpu_k, cpu_r, flt_k, flt_r))


def csv_wait4(path, report, need_state):
    """Dead children (helpers/deadcpu.c) against what wait4 said of them.

    @report has a line "pid cpu_us" per child, its rusage utime + stime. Each
    must have a row X or Z with a cpu_s up to its first X, and each such
    cpu_s must be wait4's within 1 ms or 2% (a row X without one is for
    calls read a tick late, csv_exits; rows after it, of another process).
    With @need_state, a row of the child must be in it (Z: ktop saw it
    dead, unreaped). A child has one thread: no row of it has a cpu_pct
    above 100.
    """
    header, iters = read_csv(path)
    rows = {}
    for it in iters:
        for r in it:
            rows.setdefault(r["pid"], []).append(r)
    n, worst = 0, 0.0
    with open(report) as f:
        for line in f:
            pid, cpu_us = line.split()
            want = int(cpu_us) / 1e6
            mine = rows.get(pid, [])
            # its life's rows: up to its first X (after it, its pid is another's)
            first_x = next((i for i, r in enumerate(mine) if r["state"] == "X"), len(mine))
            mine = mine[:first_x + 1]
            dead = [r for r in mine if r["state"] in ("X", "Z") and r["cpu_s"] != ""]
            if not dead:
                fail("pid %s: no row X or Z (wait4: %.6f s): %r" % (pid, want, mine))
            if need_state and not any(r["state"] == need_state for r in mine):
                fail("pid %s: no row in state %s: %r" % (pid, need_state, mine))
            over = [r["cpu_pct"] for r in mine if r["cpu_pct"] != "" and float(r["cpu_pct"]) > 100]
            if over:
                fail("pid %s: cpu_pct %r, of one thread" % (pid, over))
            tol = max(0.001, 0.02 * want)
            for r in dead:
                if abs(float(r["cpu_s"]) - want) > tol:
                    fail("pid %s: cpu_s %r in state %s, wait4 %.6f s"
                         % (pid, r["cpu_s"], r["state"], want))
                worst = max(worst, abs(float(r["cpu_s"]) - want))
            print("pid %s: cpu_s %s, wait4 %.6f" % (pid, dead[-1]["cpu_s"], want))
            n += 1
    if not n:
        fail("no child reported")
    print("%d children: cpu_s within %.6f s of wait4" % (n, worst))


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
        # The counts and the rows are of one tick (ps's count: an X row, gone
        # since the last refresh, is in exited, not in tasks).
        if isinstance(o.get("processes"), list) and all("state" in p for p in o["processes"]):
            states = [p["state"] for p in o["processes"]]
            for k, have in (("tasks", sum(st != "X" for st in states)),
                            ("exited", states.count("X")),
                            ("running", states.count("R")), ("sleeping", states.count("S")),
                            ("disk", states.count("D")), ("zombie", states.count("Z")),
                            ("stopped", states.count("T") + states.count("t")),
                            ("idle", states.count("I"))):
                if s[k] != have:
                    fail("line %d: system.%s %r but %d such processes" % (i + 1, k, s[k], have))
        elif s["tasks"] + s["exited"] != len(o["processes"]):
            fail("line %d: system.tasks %r and exited %r but %d processes"
                 % (i + 1, s["tasks"], s["exited"], len(o["processes"])))
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
                elif v is None and k in ("minflt", "majflt") and p.get("state") not in ("X", "?"):
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


# ---------------------------------------------------------------- tracing

def csv_rows_sum(path, pid, cols):
    """Sum of each of @cols over the rows of @pid after the first iteration, the
    rows of a process born later included (an empty cell counts as an error)."""
    header, iters = read_csv(path)
    if len(iters) < 2:
        fail("fewer than 2 iterations")
    for c in cols:
        if c not in header:
            fail("no column %s in %r" % (c, header))
    tot = [0] * len(cols)
    nrows = 0
    for i, it in enumerate(iters[1:], 2):
        for r in rows_of(it, pid):
            nrows += 1
            for k, c in enumerate(cols):
                if not is_uint(r[c]):
                    fail("iteration %d: %s of %d is %r" % (i, c, pid, r[c]))
                tot[k] += int(r[c])
    if not nrows:
        fail("no row for pid %d after the first iteration" % pid)
    print(" ".join(str(v) for v in tot))


def csv_last(path, pid, col):
    """@col of the last row of @pid."""
    header, iters = read_csv(path)
    last = None
    for it in iters:
        for r in rows_of(it, pid):
            last = r[col]
    if last is None:
        fail("no row for pid %d" % pid)
    print(last)


def csv_own_syscalls(path, pid):
    """ktop's own row: syscalls 0 or empty in every iteration, while other
    processes' are counted."""
    header, iters = read_csv(path)
    others = 0
    for i, it in enumerate(iters, 1):
        rows = rows_of(it, pid)
        if len(rows) != 1:
            fail("iteration %d: %d rows for ktop's pid %d" % (i, len(rows), pid))
        for k in ("syscalls", "syscall_errors"):
            if rows[0][k] not in ("", "0"):
                fail("iteration %d: ktop counts itself: %s = %s" % (i, k, rows[0][k]))
        if i > 1:
            others += sum(int(r["syscalls"]) for r in it if is_uint(r["syscalls"]))
    if not others:
        fail("no process has any syscall counted: is tracing on?")
    print(len(iters), others)


def csv_sane(path, n_min, must):
    """Well-formed whatever the processes did (churn): every line has the header's
    fields, at least @n_min iterations, a pid once per iteration, the pids @must
    in each, counts whole numbers or empty, state one character, comm not empty."""
    header, iters = read_csv(path)
    if len(iters) < n_min:
        fail("%d iterations, at least %d expected" % (len(iters), n_min))
    rows = 0
    for i, it in enumerate(iters, 1):
        pids = [r["pid"] for r in it]
        if len(set(pids)) != len(pids):
            fail("iteration %d: a pid is listed twice" % i)
        for p in must:
            if str(p) not in pids:
                fail("iteration %d: no row for pid %s" % (i, p))
        for r in it:
            rows += 1
            if not is_uint(r["pid"]) or int(r["pid"]) <= 0:
                fail("iteration %d: pid %r" % (i, r["pid"]))
            if "state" in r and len(r["state"]) != 1:
                fail("iteration %d: state %r (pid %s)" % (i, r["state"], r["pid"]))
            if "comm" in r and not r["comm"]:
                fail("iteration %d: empty comm (pid %s)" % (i, r["pid"]))
            for k in COUNTERS + TRACE_COUNTS:
                if k in r and r[k] != "" and not is_uint(r[k]):
                    fail("iteration %d: %s %r (pid %s)" % (i, k, r[k], r["pid"]))
    print(len(iters), rows)


def csv_children(path, ppid):
    """The pids of the rows whose ppid is @ppid, once each, in order."""
    header, iters = read_csv(path)
    seen = []
    for it in iters:
        for r in it:
            if r["ppid"] == str(ppid) and r["pid"] not in seen:
                seen.append(r["pid"])
    print(" ".join(seen))


def csv_dead_children(path, n, name):
    """A loop's children: each has one row X, named @name (its last name).

    The loop is the parent most X rows have; @n of its children must have
    died, each shown once (again only for calls read a refresh late, never
    with 0 calls) and by its own name (not the loop's, which a fork applied
    after the child's exec would give it).
    """
    header, iters = read_csv(path)
    # A pid's lives: its X row a refresh after its last one is that life's
    # (read late); later, a new process with the pid (a busy machine wraps
    # pid_max within a test), a life of its own.
    per_pid, last_x, lives = {}, {}, {}
    for i, it in enumerate(iters):
        for r in it:
            if r["state"] != "X":
                continue
            p = r["pid"]
            if last_x.get(p) != i - 1:
                lives[p] = lives.get(p, 0) + 1
            per_pid.setdefault((p, lives[p]), []).append(r)
            last_x[p] = i
    # A second row X only for calls read a refresh late: never one of 0 calls.
    again = [p for p, rows in per_pid.items()
             if any(r["syscalls"] in ("", "0") for r in rows[1:])]
    if again:
        fail("%d pids with a second row X of no call, e.g. %r" % (len(again), per_pid[again[0]]))
    xs = [rows[0] for rows in per_pid.values()] + \
         [r for rows in per_pid.values() for r in rows[1:] if r["comm"] != name]
    ppids = {}
    for r in xs:
        ppids[r["ppid"]] = ppids.get(r["ppid"], 0) + 1
    loop = max(ppids, key=ppids.get)
    kids = [r for r in xs if r["ppid"] == loop]
    wrong = [r for r in kids if r["comm"] != name]
    names = {}
    for r in wrong:
        names[r["comm"]] = names.get(r["comm"], 0) + 1
    if wrong:
        fail("%d of %d children of %s not named %s: %r, e.g. %r"
             % (len(wrong), len(kids), loop, name, names, wrong[0]))
    if len(kids) != n:
        # What the missing ones had instead: rows of the loop's children never X.
        xpids = {r["pid"] for r in kids}
        other = [(i, r) for i, it in enumerate(iters) for r in it
                 if r["ppid"] == loop and r["pid"] not in xpids]
        fail("%d children of %s in state X, not %d; rows of others: %r"
             % (len(kids), loop, n, other[:5]))
    print("%d children of %s, each one row X named %s" % (len(kids), loop, name))


def csv_mass_exit(path, pidfile, sigs, name):
    """Tasks that ended at once (tests/cli/massexit.bats): each pid of @pidfile
    has rows, received @sigs signals in all (counted once, whatever the
    interval), and ends in state X, named @name ("-": any). After its first
    row X only rows X that carry what was read a refresh late (calls or
    signals: never 0 of both), as csv_dead_children allows."""
    header, iters = read_csv(path)
    pids = [p.strip() for p in open(pidfile) if p.strip()]
    if not pids:
        fail("%s lists no pid" % pidfile)
    rows = {}
    for it in iters:
        for r in it:
            rows.setdefault(r["pid"], []).append(r)

    def brief(rs):
        return " ".join("%s/%s/%s/%s" % (r["state"], r["syscalls"] or "-", r["sig_recv"] or "-",
                                          r.get("sig_sent") or "-")
                        for r in rs)
    def first_life(rs):
        # A busy machine reuses a pid within seconds: after a row X or Z, a
        # row of another name or parent is another process's (its rows end
        # there; a zombie reaped and its pid reused within one refresh never
        # gets its X row: one task per pid and interval, a known limit).
        for i in range(1, len(rs)):
            a, b = rs[i - 1], rs[i]
            if a["state"] in ("X", "Z") and (a["comm"] != b["comm"] or
                                             a.get("ppid") != b.get("ppid")):
                return rs[:i], a["state"] == "Z"
        return rs, False

    bad = []
    for p in pids:
        rs = rows.get(p)
        if not rs:
            bad.append("%s: no row" % p)
            continue
        rs, reused_as_zombie = first_life(rs)
        got = sum(int(r["sig_recv"]) for r in rs if r["sig_recv"] != "")
        xs = [i for i, r in enumerate(rs) if r["state"] == "X"]
        if reused_as_zombie and not xs:
            xs = [len(rs) - 1]
        late = rs[xs[0] + 1:] if xs else []
        if got != sigs:
            bad.append("%s: %d signals received, not %d" % (p, got, sigs))
        elif not xs:
            bad.append("%s: no row X" % p)
        elif any(r["state"] != "X" or all(r.get(c, "") in ("", "0")
                                          for c in ("syscalls", "sig_recv", "sig_sent"))
                 for r in late):
            # Only what was read a refresh late (calls or signals: its exit's
            # SIGCHLD to its parent is sent after its exit event, maybe after
            # the cut), never a row of nothing, however long /proc lists the
            # task in the kernel's exit path (D, R) or as a zombie after.
            bad.append("%s: rows after its exit" % p)
        elif name != "-" and rs[-1]["comm"] != name:
            bad.append("%s: named %s at its end, not %s" % (p, rs[-1]["comm"], name))
        else:
            continue
        bad[-1] += " (state/syscalls/sig_recv/sig_sent: %s)" % brief(rs)
    if bad:
        fail("%d of %d tasks wrong, e.g.\n  %s" % (len(bad), len(pids), "\n  ".join(bad[:5])))
    print("%d tasks, each %d signals, ending X" % (len(pids), sigs))


def read_sc_csv(path):
    """ktop --syscalls --csv: ({pid: {syscall: [calls, errors, {errno names}]}},
    {pid: ppid}, number of intervals)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f, strict=True))
    want = ["time", "interval_s", "pid", "ppid", "comm", "syscall", "subsystem", "calls",
            "errors", "last_errno", "time_ms", "p50_us", "p99_us", "max_us"]
    if not rows or rows[0] != want:
        fail("%s: header %r, expected %r" % (path, rows[:1], want))
    per = {}
    ppid = {}
    times = set()
    for n, r in enumerate(rows[1:], 2):
        if len(r) != len(want):
            fail("line %d has %d fields: %r" % (n, len(r), r))
        d = dict(zip(want, r))
        for k in ("pid", "ppid", "calls", "errors"):
            if not is_uint(d[k]):
                fail("line %d: %s %r is not a whole number" % (n, k, d[k]))
        calls, errors = int(d["calls"]), int(d["errors"])
        if calls == 0 or errors > calls:
            fail("line %d: %d calls, %d errors" % (n, calls, errors))
        if (errors > 0) != (d["last_errno"] != ""):
            fail("line %d: errors %d but last_errno %r" % (n, errors, d["last_errno"]))
        if d["interval_s"] == "":
            fail("line %d: a row of the baseline" % n)
        # durations: none when calls are not timed; percentiles only with a time
        if d["time_ms"] == "" and (d["p50_us"] or d["p99_us"] or d["max_us"]):
            fail("line %d: percentiles without a time: %r" % (n, r))
        if d["p50_us"] and float(d["p50_us"]) > float(d["p99_us"]):
            fail("line %d: p50_us above p99_us: %r" % (n, r))
        # a percentile is never above the longest call (a bucket's bound is the longest, then)
        if d["p99_us"] and float(d["p99_us"]) > float(d["max_us"]):
            fail("line %d: p99_us above max_us: %r" % (n, r))
        times.add(d["time"])
        pid = int(d["pid"])
        c = per.setdefault(pid, {}).setdefault(d["syscall"], [0, 0, set()])
        c[0] += calls
        c[1] += errors
        if d["last_errno"]:
            c[2].add(d["last_errno"])
        ppid[pid] = int(d["ppid"])
    return per, ppid, len(times)


def sc_csv_get(path, pid, name):
    """calls errors last_errno(s) of @name for @pid, summed over the intervals."""
    per, _, _ = read_sc_csv(path)
    c = per.get(pid, {}).get(name, [0, 0, set()])
    print(c[0], c[1], ",".join(sorted(c[2])) or "-")


def sc_csv_list(path, pid):
    """Every syscall of @pid: NAME CALLS ERRORS, one a line."""
    per, _, _ = read_sc_csv(path)
    for name, c in sorted(per.get(pid, {}).items()):
        print(name, c[0], c[1])


STRACE_LINE = re.compile(r"^(\d+)\s+(.*)$")
STRACE_START = re.compile(r"^([a-z_][a-z0-9_]*)\(")
STRACE_RESUMED = re.compile(r"^<\.\.\. ([a-z_][a-z0-9_]*) resumed>")
STRACE_RET = re.compile(r"^(.*)\)\s+= (-?\d+|\?|0x[0-9a-fA-F]+)(?:\s+(E[A-Z0-9_]+)\b)?")
NORETURN = ("exit", "exit_group")


def parse_strace(path):
    """`strace -f -qq -o LOG` output, call for call: (root pid,
    {pid: {syscall: [calls, errors]}}, {pid: {exit/exit_group: calls}}).

    A call counts where it ends: `PID name(...) = RET` or `PID <... name resumed>
    ...) = RET` (`PID name(... <unfinished ...>` only starts it). An error is a
    return with an errno name: `-1 ENOENT (...)`, also `? ERESTARTSYS (...)` (the
    kernel returned -512: it is restarted as a new call). `= ?` alone: the call
    never returned (exit, exit_group, or the task died in it)."""
    calls, noret, unfinished = {}, {}, {}
    root = None
    with open(path, errors="replace") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            m = STRACE_LINE.match(line)
            if not m:
                fail("%s:%d: not a `strace -f` line: %r" % (path, n, line))
            pid, rest = int(m.group(1)), m.group(2)
            if root is None:
                root = pid
            if rest.startswith(("---", "+++")):
                continue        # a signal delivered, an exit
            if rest.endswith("<unfinished ...>"):
                s = STRACE_START.match(rest)
                if not s:
                    fail("%s:%d: unfinished what? %r" % (path, n, line))
                if pid in unfinished:
                    fail("%s:%d: pid %d has two unfinished calls" % (path, n, pid))
                unfinished[pid] = s.group(1)
                continue
            s = STRACE_RESUMED.match(rest)
            if s:
                name = s.group(1)
                if unfinished.pop(pid, None) != name:
                    fail("%s:%d: %s resumed but not started: %r" % (path, n, name, line))
            else:
                s = STRACE_START.match(rest)
                if not s:
                    fail("%s:%d: cannot parse %r" % (path, n, line))
                name = s.group(1)
            r = STRACE_RET.match(rest)
            if not r:
                fail("%s:%d: no return value in %r" % (path, n, line))
            ret, err = r.group(2), r.group(3)
            if ret == "?" and not err:
                if name in NORETURN:
                    d = noret.setdefault(pid, {})
                    d[name] = d.get(name, 0) + 1
                else:
                    print("note: pid %d: %s never returned (line %d)" % (pid, name, n),
                          file=sys.stderr)
                continue
            c = calls.setdefault(pid, {}).setdefault(name, [0, 0])
            c[0] += 1
            if err:
                c[1] += 1
    if root is None:
        fail("%s: empty" % path)
    if unfinished:
        fail("%s: calls never resumed: %r" % (path, unfinished))
    return root, calls, noret


def strace_cmp(kpath, spath, max_surplus, min_pids, min_calls):
    """ktop --syscalls --csv (system-wide, around the run) against strace -f."""
    per, ppid, nint = read_sc_csv(kpath)
    root, st, noret = parse_strace(spath)
    bad = []
    total_calls = total_errors = 0
    surplus = {}
    pids = sorted(set(st) | set(noret))
    for pid in pids:
        k = per.get(pid)
        if k is None:
            bad.append("pid %d (strace: %d calls) has no row in ktop's output"
                       % (pid, sum(c[0] for c in st.get(pid, {}).values())))
            continue
        s = st.get(pid, {})
        for name in sorted(set(s) | set(k)):
            if name in NORETURN:
                continue
            kc, ke = k[name][:2] if name in k else (0, 0)
            sc, se = s.get(name, (0, 0))
            total_calls += sc
            total_errors += se
            if pid == root:
                dc, de = kc - sc, ke - se
                if dc < 0 or de < 0 or de > dc:
                    bad.append("root %d %s: ktop %d calls %d errors, strace %d calls %d errors"
                               % (pid, name, kc, ke, sc, se))
                elif dc:
                    surplus[name] = dc
            elif (kc, ke) != (sc, se):
                bad.append("pid %d %s: ktop %d calls %d errors, strace %d calls %d errors"
                           % (pid, name, kc, ke, sc, se))
        # exit and exit_group: strace logs the call (`= ?`); ktop counts it once.
        for name in NORETURN:
            kc = k[name][0] if name in k else 0
            sc = noret.get(pid, {}).get(name, 0)
            if kc != sc:
                bad.append("pid %d %s: ktop %d, strace %d" % (pid, name, kc, sc))
    # Every descendant of the root ktop saw (by its ppid column), strace saw too.
    for pid in per:
        p, seen = pid, set()
        while p in ppid and p not in seen and p != root:
            seen.add(p)
            p = ppid[p]
        if p == root and pid != root and pid not in pids:
            bad.append("pid %d, a descendant of %d for ktop, is not in strace's log"
                       % (pid, root))
    if sum(surplus.values()) > max_surplus:
        bad.append("root %d: ktop has %d calls more than strace, at most %d expected: %r"
                   % (root, sum(surplus.values()), max_surplus, surplus))
    print("strace: %d pids, %d calls, %d errors; root %d surplus %r; ktop intervals %d"
          % (len(pids), total_calls, total_errors, root, surplus, nint))
    if len(pids) < min_pids or total_calls < min_calls:
        bad.append("the workload is smaller than expected: %d pids (>= %d), %d calls (>= %d)"
                   % (len(pids), min_pids, total_calls, min_calls))
    if bad:
        for b in bad[:40]:
            print("  " + b, file=sys.stderr)
        fail("%d differences between ktop and strace" % len(bad))


def strace_sandbox(path, outputs):
    """A strace -f -y log of one ktop run: it executed nothing (the one execve
    that started it), made no process or thread, and changed nothing outside
    its own tracefs instances (ktop-PID-START, and ktop-PID-START-f of a
    process view):
    files opened for writing, directories made or removed, writes, all there or
    to @outputs (its stdout, stderr, /dev/null); removing stale ktop-<pid>[-<start>][-f]
    instances and mounting tracefs are allowed, and one child that mounts
    debugfs in a mount namespace of its own to read sched/debug. Removing a
    stale instance is writing 0 to its tracing_on, then removing it."""
    line_re = re.compile(r"^(\d+) +(\w+)\((.*)\) += (-?\d+|\?)")
    resumed_re = re.compile(r"^(\d+) +<\.\.\. (\w+) resumed>(.*)\) += (-?\d+|\?)")
    # a call another process's line interrupted: its arguments come first
    unfinished_re = re.compile(r"^(\d+) +(\w+)\((.*) <unfinished \.\.\.>$")
    pending = {}
    inst = "/sys/kernel/tracing/instances/"
    me = None
    bad, n = [], 0
    # The one child ktop may fork (collectors/clocks.c, when debugfs is not
    # mounted): in a mount namespace of its own it mounts debugfs, reads the
    # head of sched/debug into a pipe and exits; nothing else.
    probe, probe_ns = None, False
    # (a clone strace split: the child may run before it returns)
    early_probe = False

    def forks(call, args):
        return call in ("clone", "clone3", "fork") and "CLONE_VM" not in args and \
            "CLONE_THREAD" not in args
    stale_re = re.compile(re.escape(inst) + r"(ktop-\d+(-\d+)?(-f)?)/tracing_on")
    # a stale instance's tracing_on written: allowed once the instance is removed
    stale_off = {}
    for line in open(path, errors="replace"):
        u = unfinished_re.match(line.rstrip("\n"))
        if u:
            pending[(u.group(1), u.group(2))] = u.group(3)
            continue
        m = line_re.match(line)
        r = None if m else resumed_re.match(line)
        m = m or r
        if not m:
            continue
        pid, call, args, ret = m.group(1), m.group(2), m.group(3), m.group(4)
        if r:
            args = pending.pop((pid, call), "") + args
        n += 1
        if me is None:
            me = pid
            if call != "execve":
                fail("the log does not start with ktop's execve: %r" % line)
            continue
        if ret.startswith("-"):
            continue
        if pid == me and forks(call, args) and (probe is None or early_probe and r and ret == probe):
            probe, early_probe = ret, False
            continue
        if (probe is None and pid != me and
                any(k[0] == me and forks(k[1], a) for k, a in pending.items())):
            # the child's calls come before its clone's return
            probe, early_probe = pid, True
        if pid == probe:
            quoted = re.findall(r'"([^"]*)"', args)
            if call == "unshare" and "CLONE_NEWNS" in args:
                probe_ns = True
            elif call == "mount" and probe_ns and (
                    (quoted[:2] == ["none", "/"] and "MS_PRIVATE" in args) or
                    quoted[:3] == ["debugfs", "/sys/kernel/debug", "debugfs"]):
                pass
            elif call in ("openat", "open") and quoted[:1] == ["/sys/kernel/debug/sched/debug"] and \
                    "O_RDONLY" in args:
                pass
            elif call == "write" and re.match(r"\d+<pipe:", args):
                pass
            elif call in ("read", "close", "exit_group", "exit"):
                pass
            else:
                bad.append("ktop's clock probe ran: %s" % line.strip())
            continue
        # the main instance, a focus view's
        own = re.compile(re.escape(inst) + r"ktop-" + me + r"-\d+(-f)?")

        def owns(path):
            m = own.match(path)
            return bool(m) and path[m.end():].startswith("/")
        quoted = re.findall(r'"([^"]*)"', args)
        stale = stale_re.search(args) if pid == me else None
        if stale and not owns(stale.group(0)) and (
                call in ("open", "openat") and quoted[:1] == [stale.group(0)] and
                re.search(r"O_WRONLY", args) and not re.search(r"O_(CREAT|APPEND)", args) or
                call == "write" and re.match(r"\d+<" + re.escape(stale.group(0)) + r'>, "0", 1$', args)):
            stale_off.setdefault(inst + stale.group(1), []).append(line.strip())
            continue
        if pid != me:
            bad.append("another process or thread ran: %s" % line.strip())
        elif call in ("execve", "execveat", "fork", "vfork", "clone", "clone3"):
            bad.append("ktop ran %s: %s" % (call, line.strip()))
        elif call in ("open", "openat", "creat") and (
                call == "creat" or re.search(r"O_(WRONLY|RDWR|CREAT|TRUNC|APPEND)", args)):
            target = quoted[0] if quoted else ""
            if not (owns(target) or target in outputs):
                bad.append("opened for writing: %s" % line.strip())
        elif call in ("mkdir", "mkdirat"):
            if not own.fullmatch(quoted[-1]):
                bad.append("made a directory: %s" % line.strip())
        elif call in ("rmdir", "unlinkat") and "AT_REMOVEDIR" in args or call == "rmdir":
            if not re.fullmatch(re.escape(inst) + r"ktop-\d+(-\d+)?(-f)?", quoted[-1]):
                bad.append("removed a directory: %s" % line.strip())
            stale_off.pop(quoted[-1], None)
        elif call in ("unlink", "unlinkat", "rename", "renameat", "renameat2", "link",
                      "linkat", "symlink", "symlinkat", "chmod", "fchmodat", "chown",
                      "fchownat", "lchown", "truncate", "mknod", "mknodat", "utimensat"):
            bad.append("changed a file: %s" % line.strip())
        elif call == "mount":
            if not (len(quoted) >= 3 and quoted[1] == "/sys/kernel/tracing" and quoted[2] == "tracefs"):
                bad.append("mounted: %s" % line.strip())
        elif call in ("write", "pwrite64", "writev", "pwritev", "pwritev2"):
            fdpath = re.match(r"\d+<([^>]*)>", args)
            target = fdpath.group(1) if fdpath else ""
            if not (owns(target) or target in outputs or
                    target.startswith("/dev/pts/")):
                bad.append("wrote: %s" % line.strip()[:160])
    if n < 20:
        fail("only %d system calls in %s: was it traced?" % (n, path))
    if early_probe:
        bad.append("a process ran that no clone of ktop's returned: %s" % probe)
    for lines in stale_off.values():
        bad.extend("wrote in an instance it did not remove: %s" % l for l in lines)
    if bad:
        for b in bad[:20]:
            print("  " + b, file=sys.stderr)
        fail("%d system calls beyond ktop's instance and output" % len(bad))
    print("%d system calls checked" % n)


# ---------------------------------------------------------------- --summary

SUMMARY_HEADER = ["kind", "syscall", "subsystem", "calls", "errors", "timed", "total_us",
                  "avg_us", "max_us", "p50_us", "p99_us", "pct_time", "pct_calls", "last_errno"]


def near(a, b, tol):
    return abs(a - b) <= tol


def summary_check_line(where, d):
    for k in ("calls", "errors", "timed"):
        if not is_uint(d[k]):
            fail("%s: %s %r is not a whole number" % (where, k, d[k]))
    calls, errors, timed = int(d["calls"]), int(d["errors"]), int(d["timed"])
    if calls == 0 or errors > calls or timed > calls:
        fail("%s: %d calls, %d errors, %d timed" % (where, calls, errors, timed))
    total = float(d["total_us"])
    if total < 0:
        fail("%s: negative total_us" % where)
    if (d["avg_us"] == "") != (timed == 0) or (d["max_us"] == "") != (timed == 0):
        fail("%s: avg_us %r max_us %r with %d timed calls" % (where, d["avg_us"], d["max_us"], timed))
    if (d["p50_us"] == "") != (timed == 0) or (d["p99_us"] == "") != (timed == 0):
        fail("%s: p50_us %r p99_us %r with %d timed calls" % (where, d["p50_us"], d["p99_us"], timed))
    if timed:
        # log2 bucket bounds, or the longest call when less: ordered, never
        # above the longest call
        p50, p99, mx = float(d["p50_us"]), float(d["p99_us"]), float(d["max_us"])
        if p50 > p99 or p99 > mx:
            fail("%s: p50_us %g p99_us %g max_us %g" % (where, p50, p99, mx))
    if timed:
        avg, mx = float(d["avg_us"]), float(d["max_us"])
        if not near(avg, total / timed, 0.002) or mx + 0.002 < avg or mx > total + 0.002:
            fail("%s: avg_us %g, max_us %g, total_us %g over %d calls" % (where, avg, mx, total, timed))


def read_summary_csv(path):
    """ktop --summary --csv, checked for consistency: ({syscall: row}, total row,
    {subsystem: row}). Rows are dicts of the header's keys."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f, strict=True))
    if not rows or rows[0] != SUMMARY_HEADER:
        fail("%s: header %r, expected %r" % (path, rows[:1], SUMMARY_HEADER))
    sc, subs, total, stage = {}, {}, None, "syscall"
    for n, r in enumerate(rows[1:], 2):
        if len(r) != len(SUMMARY_HEADER):
            fail("line %d has %d fields: %r" % (n, len(r), r))
        d = dict(zip(SUMMARY_HEADER, r))
        kind = d["kind"]
        # the kinds come in order: syscall lines, one total, subsystem lines
        if kind == "syscall" and stage == "syscall":
            if not d["syscall"] or not d["subsystem"] or d["syscall"] in sc:
                fail("line %d: syscall %r subsystem %r" % (n, d["syscall"], d["subsystem"]))
            sc[d["syscall"]] = d
        elif kind == "total" and stage == "syscall":
            if d["syscall"] or d["subsystem"]:
                fail("line %d: the total names a syscall or subsystem" % n)
            total, stage = d, "subsystem"
        elif kind == "subsystem" and stage == "subsystem":
            if d["syscall"] or not d["subsystem"] or d["subsystem"] in subs:
                fail("line %d: subsystem line %r" % (n, r))
            subs[d["subsystem"]] = d
        else:
            fail("line %d: kind %r out of order" % (n, kind))
        summary_check_line("line %d" % n, d)
    if total is None:
        fail("%s: no total line" % path)
    for k in ("calls", "errors", "timed"):
        if sum(int(d[k]) for d in sc.values()) != int(total[k]):
            fail("the syscall lines' %s do not add up to the total's" % k)
        if sum(int(d[k]) for d in subs.values()) != int(total[k]):
            fail("the subsystem lines' %s do not add up to the total's" % k)
    for name, sd in subs.items():
        mine = [d for d in sc.values() if d["subsystem"] == name]
        if sum(int(d["calls"]) for d in mine) != int(sd["calls"]):
            fail("subsystem %s: its syscalls' calls do not add up" % name)
    tol = 0.001 * (len(sc) + 1)
    if not near(sum(float(d["total_us"]) for d in sc.values()), float(total["total_us"]), tol):
        fail("the syscall lines' total_us do not add up to the total's")
    if float(total["total_us"]) > 0:
        p = sum(float(d["pct_time"]) for d in sc.values())
        if not near(p, 100.0, 0.01 * len(sc) + 0.01):
            fail("pct_time adds up to %g" % p)
    # the order is strace's: most time first
    times = [float(d["total_us"]) for d in sc.values()]
    if times != sorted(times, reverse=True):
        fail("the syscall lines are not sorted by time")
    return sc, total, subs


# strace -c -f's heading of another personality's table -> ktop's label suffix
STRACE_PERSONALITY = {"32 bit": " (32-bit)", "x32": " (x32)"}


def parse_strace_c(path):
    """The tables of strace -c: {syscall: [calls, errors]} (exit_group and exit,
    which never return, are not in them). The calls of another personality's
    table ("System call usage summary for 32 bit mode:") are named as ktop
    labels them: "getppid (32-bit)"."""
    out, seen_total, suffix = {}, False, ""
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"System call usage summary for (.*) mode:", line)
            if m:
                suffix = STRACE_PERSONALITY.get(m.group(1), " (%s)" % m.group(1))
                continue
            t = line.split()
            if not t or t[0].startswith(("%", "-")):
                continue
            if t[-1] == "total":
                seen_total = True
                continue
            if len(t) not in (5, 6) or not t[3].isdigit():
                continue        # the traced program's own lines, if any
            out[t[-1] + suffix] = [int(t[3]), int(t[4]) if len(t) == 6 else 0]
    if not seen_total:
        fail("%s: no strace -c table" % path)
    return out


def summary_strace(kpath, spath, min_calls):
    """ktop --summary --csv against strace -c -f of the same command: equal,
    syscall for syscall, but exit and exit_group (strace -c leaves them out)."""
    sc, total, _ = read_summary_csv(kpath)
    st = parse_strace_c(spath)
    kt = {name: [int(d["calls"]), int(d["errors"])] for name, d in sc.items()}
    # An exec that changes the ABI: ktop counts it in the new program's (the
    # kernel reports its return so), strace may in the old one's: one line.
    for t in (kt, st):
        for name in [n for n in t if n.startswith("execve (")]:
            e = t.setdefault("execve", [0, 0])
            e[0] += t[name][0]
            e[1] += t[name][1]
            del t[name]
    bad, calls, errors = [], 0, 0
    for name in sorted(set(kt) | set(st)):
        if name.split(" (")[0] in NORETURN:
            continue
        k = kt.get(name, [0, 0])
        s = st.get(name, [0, 0])
        calls += s[0]
        errors += s[1]
        if k != s:
            bad.append("%s: ktop %d calls %d errors, strace %d calls %d errors"
                       % (name, k[0], k[1], s[0], s[1]))
    print("strace -c: %d syscalls, %d calls, %d errors" % (len(st), calls, errors))
    if calls < min_calls:
        bad.append("the workload is smaller than expected: %d calls (>= %d)" % (calls, min_calls))
    if bad:
        for b in bad[:40]:
            print("  " + b, file=sys.stderr)
        fail("%d differences between ktop --summary and strace -c -f" % len(bad))


def summary_syscalls(kpath, spath):
    """--summary against -b --syscalls --csv of the same command, all pids summed."""
    sc, _, _ = read_summary_csv(kpath)
    per, _, _ = read_sc_csv(spath)
    sums = {}
    for calls in per.values():
        for name, c in calls.items():
            d = sums.setdefault(name, [0, 0])
            d[0] += c[0]
            d[1] += c[1]
    mine = {name: [int(d["calls"]), int(d["errors"])] for name, d in sc.items()}
    if mine != sums:
        diff = ["%s: summary %r, --syscalls %r" % (n, mine.get(n), sums.get(n))
                for n in sorted(set(mine) | set(sums)) if mine.get(n) != sums.get(n)]
        fail("--summary and --syscalls differ: " + "; ".join(diff[:20]))
    print(sum(c[0] for c in mine.values()))


def summary_get(path, name):
    """calls errors timed avg_us max_us subsystem of one syscall (or "total")."""
    sc, total, _ = read_summary_csv(path)
    d = total if name == "total" else sc.get(name)
    if d is None:
        print("0 0 0 - - -")
        return
    print(d["calls"], d["errors"], d["timed"], d["avg_us"] or "-", d["max_us"] or "-",
          (d["subsystem"] or "-").replace(" ", "_"))


def summary_json(path):
    """ktop --summary --json: one object, lines that add up; prints calls and exit_status."""
    with open(path) as f:
        text = f.read()
    if text.count("\n") != 1:
        fail("%s: not one line" % path)
    o = json.loads(text)
    for k in ("command", "elapsed_s", "processes", "lost_events", "syscalls", "total",
              "subsystems"):
        if k not in o:
            fail("key %s missing" % k)
    for k in ("calls", "errors", "timed"):
        if sum(d[k] for d in o["syscalls"]) != o["total"][k]:
            fail("syscalls' %s do not add up to the total" % k)
        if sum(d[k] for d in o["subsystems"]) != o["total"][k]:
            fail("subsystems' %s do not add up to the total" % k)
    for d in o["syscalls"]:
        if (d["avg_us"] is None) != (d["timed"] == 0):
            fail("%s: avg_us %r with %d timed" % (d["syscall"], d["avg_us"], d["timed"]))
    print(o["total"]["calls"], o.get("exit_status"))


# ---------------------------------------------------------------- --view

def view_rows(path, conds):
    """The rows of a --view CSV after the baseline whose KEY=VAL @conds hold."""
    header, iters = read_csv(path)
    want = dict(c.split("=", 1) for c in conds)
    for k in want:
        if k not in header:
            fail("no column %s in %r" % (k, header))
    out = []
    for it in iters:
        for r in it:
            if r["interval_s"] == "":
                continue
            if all(r[k] == v for k, v in want.items()):
                out.append(r)
    return header, iters, out


def view_sum(path, cols, conds):
    """Sum of each of @cols over the matching rows (an empty cell fails)."""
    header, _, rows = view_rows(path, conds)
    tot = [0] * len(cols)
    for r in rows:
        for k, c in enumerate(cols):
            if c not in header:
                fail("no column %s in %r" % (c, header))
            if not is_uint(r[c]):
                fail("%s is %r in %r" % (c, r[c], r))
            tot[k] += int(r[c])
    print(" ".join(str(v) for v in tot))


def view_max(path, col, conds):
    """The largest @col over the matching rows (a count of one interval that
    does not add up over intervals, as procs), "-" if none."""
    header, _, rows = view_rows(path, conds)
    if col not in header:
        fail("no column %s in %r" % (col, header))
    for r in rows:
        if not is_uint(r[col]):
            fail("%s is %r in %r" % (col, r[col], r))
    print(max(int(r[col]) for r in rows) if rows else "-")


def view_last(path, col, conds):
    """@col of the last matching row (a total since start), "-" if none."""
    _, _, rows = view_rows(path, conds)
    print(rows[-1][col] if rows else "-")


def view_vs_syscalls(vpath, spath):
    """The syscalls view's calls and errors, summed over the intervals, equal
    the --syscalls rows summed over the processes and intervals, syscall by
    syscall; and each interval's calls_total is the running sum."""
    _, _, rows = view_rows(vpath, [])
    per, _, _ = read_sc_csv(spath)
    view = {}
    running = {}
    for r in rows:
        c = view.setdefault(r["syscall"], [0, 0])
        c[0] += int(r["calls"])
        c[1] += int(r["errors"])
        running[r["syscall"]] = running.get(r["syscall"], 0) + int(r["calls"])
        if int(r["calls_total"]) != running[r["syscall"]]:
            fail("%s: calls_total %s, the intervals sum to %d" %
                 (r["syscall"], r["calls_total"], running[r["syscall"]]))
    procs = {}
    for pid, scs in per.items():
        for name, c in scs.items():
            p = procs.setdefault(name, [0, 0])
            p[0] += c[0]
            p[1] += c[1]
    view = {k: v for k, v in view.items() if v != [0, 0]}
    if view != procs:
        for k in sorted(set(view) | set(procs)):
            if view.get(k) != procs.get(k):
                print("%s: view %r, processes %r" % (k, view.get(k), procs.get(k)),
                      file=sys.stderr)
        fail("the syscalls view and the processes' --syscalls differ")
    print(len(view), sum(v[0] for v in view.values()))


def main():
    cmd, a = sys.argv[1], sys.argv[2:]
    if cmd == "csv-format":
        csv_format(a[0], int(a[1]), float(a[2]), float(a[3]))
    elif cmd == "csv-sum":
        csv_sum(a[0], int(a[1]), a[2])
    elif cmd == "csv-sum-tgid":
        csv_sum(a[0], int(a[1]), a[2], by_tgid=True)
    elif cmd == "csv-dead-children":
        csv_dead_children(a[0], int(a[1]), a[2])
    elif cmd == "csv-mass-exit":
        # csv-mass-exit FILE PIDFILE SIGNALS NAME|-
        csv_mass_exit(a[0], a[1], int(a[2]), a[3])
    elif cmd == "csv-exits":
        csv_exits(a[0], a[1], a[2], a[3])
    elif cmd == "csv-wait4":
        # csv-wait4 FILE REPORT [STATE]: a row of each child in STATE
        csv_wait4(a[0], a[1], a[2] if len(a) > 2 else None)
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
    elif cmd == "csv-rows-sum":
        # csv-rows-sum FILE PID COL[,COL...]: sums over the rows of PID, in order
        csv_rows_sum(a[0], int(a[1]), a[2].split(","))
    elif cmd == "csv-last":
        csv_last(a[0], int(a[1]), a[2])
    elif cmd == "csv-sane":
        # csv-sane FILE MIN-ITERATIONS [PID...]: PIDs (default 1) in every one
        csv_sane(a[0], int(a[1]), a[2:] or ["1"])
    elif cmd == "csv-children":
        csv_children(a[0], int(a[1]))
    elif cmd == "csv-own-syscalls":
        csv_own_syscalls(a[0], int(a[1]))
    elif cmd == "sc-get":
        # sc-get SYSCALLS-CSV PID NAME: "calls errors errno-names|-"
        sc_csv_get(a[0], int(a[1]), a[2])
    elif cmd == "sc-list":
        sc_csv_list(a[0], int(a[1]))
    elif cmd == "view-sum":
        # view-sum VIEW-CSV COL[,COL...] [KEY=VAL...]: sums after the baseline
        view_sum(a[0], a[1].split(","), a[2:])
    elif cmd == "view-max":
        # view-max VIEW-CSV COL [KEY=VAL...]: the largest COL of the matching rows
        view_max(a[0], a[1], a[2:])
    elif cmd == "view-last":
        # view-last VIEW-CSV COL [KEY=VAL...]: the last matching row's COL
        view_last(a[0], a[1], a[2:])
    elif cmd == "view-vs-syscalls":
        # view-vs-syscalls SYSCALLS-VIEW-CSV SYSCALLS-CSV
        view_vs_syscalls(a[0], a[1])
    elif cmd == "strace-sandbox":
        # strace-sandbox LOG OUTPUT-PATH...: what ktop may write besides its instance
        strace_sandbox(a[0], a[1:])
    elif cmd == "strace-cmp":
        # strace-cmp SYSCALLS-CSV STRACE-LOG MAX-ROOT-SURPLUS MIN-PIDS MIN-CALLS
        strace_cmp(a[0], a[1], int(a[2]), int(a[3]), int(a[4]))
    elif cmd == "summary-csv":
        # summary-csv FILE: checks it; prints "calls errors" of the total
        _, total, _ = read_summary_csv(a[0])
        print(total["calls"], total["errors"])
    elif cmd == "summary-strace":
        # summary-strace SUMMARY-CSV STRACE-C-OUTPUT MIN-CALLS
        summary_strace(a[0], a[1], int(a[2]))
    elif cmd == "summary-syscalls":
        # summary-syscalls SUMMARY-CSV SYSCALLS-CSV: prints the calls
        summary_syscalls(a[0], a[1])
    elif cmd == "summary-get":
        summary_get(a[0], a[1])
    elif cmd == "summary-json":
        summary_json(a[0])
    else:
        fail("unknown command " + cmd)


if __name__ == "__main__":
    main()
