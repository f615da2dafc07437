#!/usr/bin/env python3
# bench/ttybytes.py - bytes a live monitor writes to its terminal per refresh.
#
# Starts each program (ktop, htop, top) at the same time, each in a pseudo-
# terminal of its own of the given size, all refreshing once per DELAY seconds,
# and records every byte they write. The first WARMUP seconds (start-up, the
# first full paint, the first rates) are left out; over the next SECONDS the
# bytes are counted, and split into refreshes: a refresh is a burst of output
# separated from the next by more than a third of the delay. Reports, per
# program: refreshes seen, median and mean bytes per refresh, and the largest.
# Running them side by side means all see the same system at the same time.
#
# Usage: ttybytes.py [--size 80x24] [--seconds 20] [--warmup 4] [--delay 1]
#                    [--term xterm-256color] [--keep DIR] NAME=CMD... 
# CMD is split on spaces; {delay} and {tenths} are replaced. Example:
#   ttybytes.py --size 200x50 ktop='./ktop -d {delay}' htop='htop -d {tenths}'
# HOME and XDG_CONFIG_HOME point to an empty temporary directory, so no one's
# settings change what is drawn (and htop does not write its rc file into $HOME).
import argparse
import fcntl
import os
import pty
import select
import shutil
import signal
import statistics
import struct
import sys
import tempfile
import termios
import time


def spawn(cmd, cols, rows, env):
    pid, fd = pty.fork()
    if pid == 0:
        try:
            os.execvpe(cmd[0], cmd, env)
        finally:
            os._exit(127)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    os.kill(pid, signal.SIGWINCH)
    return pid, fd


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="80x24")
    ap.add_argument("--seconds", type=float, default=20)
    ap.add_argument("--warmup", type=float, default=4)
    ap.add_argument("--delay", type=float, default=1)
    ap.add_argument("--term", default="xterm-256color")
    ap.add_argument("--keep", help="write each program's raw output here")
    ap.add_argument("progs", nargs="+")
    args = ap.parse_args()
    cols, rows = (int(v) for v in args.size.split("x"))
    home = tempfile.mkdtemp(prefix="ttybytes.")
    env = dict(os.environ, TERM=args.term, HOME=home, XDG_CONFIG_HOME=home,
               LINES=str(rows), COLUMNS=str(cols))
    env.pop("NO_COLOR", None)

    procs = []
    for spec in args.progs:
        name, _, cmd = spec.partition("=")
        cmd = cmd.format(delay=args.delay, tenths=int(round(args.delay * 10)))
        pid, fd = spawn(cmd.split(), cols, rows, env)
        procs.append({"name": name, "pid": pid, "fd": fd, "chunks": [], "raw": bytearray()})

    t0 = time.monotonic()
    end = t0 + args.warmup + args.seconds
    fds = {p["fd"]: p for p in procs}
    while fds and time.monotonic() < end:
        r, _, _ = select.select(list(fds), [], [], 0.05)
        now = time.monotonic()
        for fd in r:
            p = fds[fd]
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            if not data:
                del fds[fd]
                continue
            p["raw"] += data
            if now - t0 >= args.warmup:
                p["chunks"].append((now, len(data)))
            # Answer terminal queries (cursor position) as a terminal would.
            if b"\x1b[6n" in data:
                os.write(fd, b"\x1b[%d;1R" % rows)
    for p in procs:
        try:
            os.kill(p["pid"], signal.SIGTERM)
        except ProcessLookupError:
            pass
    for p in procs:
        # Drain so the program is not blocked writing its exit sequence.
        deadline = time.monotonic() + 2
        while time.monotonic() < deadline:
            r, _, _ = select.select([p["fd"]], [], [], 0.1)
            if not r:
                continue
            try:
                if not os.read(p["fd"], 65536):
                    break
            except OSError:
                break
        os.waitpid(p["pid"], 0)
        os.close(p["fd"])

    gap = args.delay / 3
    print(f"# {cols}x{rows} TERM={args.term} delay {args.delay} s, "
          f"{args.seconds:g} s measured after {args.warmup:g} s")
    print(f"{'program':<8} {'refreshes':>9} {'median B':>9} {'mean B':>9} {'max B':>9} {'B/s':>9}")
    for p in procs:
        bursts = []
        last = None
        for t, n in p["chunks"]:
            if last is None or t - last > gap:
                bursts.append(0)
            bursts[-1] += n
            last = t
        total = sum(n for _, n in p["chunks"])
        if bursts:
            print(f"{p['name']:<8} {len(bursts):>9} {statistics.median(bursts):>9.0f} "
                  f"{statistics.mean(bursts):>9.0f} {max(bursts):>9} "
                  f"{total / args.seconds:>9.0f}")
        else:
            print(f"{p['name']:<8} {0:>9} {'-':>9} {'-':>9} {'-':>9} {0:>9}")
        if args.keep:
            os.makedirs(args.keep, exist_ok=True)
            with open(os.path.join(args.keep, f"{p['name']}-{cols}x{rows}.out"), "wb") as f:
                f.write(p["raw"])
    shutil.rmtree(home, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
