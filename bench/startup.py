#!/usr/bin/env python3
"""ktop's start, side by side: time to the first line of output and to the exit.

    python3 bench/startup.py RUNS 'A COMMAND' 'B COMMAND'

Runs A and B in turn (A B A B ...), RUNS times each after one warm-up of each,
stdout a pipe: the time from the fork to the first line read, and to the exit
(wait4). Prints the medians and the median of the ratios A/B pair by pair (a
pair shares the machine's load of its moment). The load average is printed
before and after: on a shared machine the ratio is what holds.
"""
import os
import shlex
import statistics
import subprocess
import sys
import time


def once(argv):
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    p.stdout.readline()
    t1 = time.perf_counter()
    p.stdout.read()
    p.wait()
    t2 = time.perf_counter()
    return t1 - t0, t2 - t0


def main():
    runs, a, b = int(sys.argv[1]), shlex.split(sys.argv[2]), shlex.split(sys.argv[3])
    print("load average before: %s" % open("/proc/loadavg").read().split(" ", 3)[:3])
    once(a), once(b)
    res = {"A": [], "B": []}
    for _ in range(runs):
        res["A"].append(once(a))
        res["B"].append(once(b))
    print("load average after:  %s" % open("/proc/loadavg").read().split(" ", 3)[:3])
    for i, what in enumerate(("first line", "exit")):
        ma = statistics.median(x[i] for x in res["A"])
        mb = statistics.median(x[i] for x in res["B"])
        ratio = statistics.median(x[i] / y[i] for x, y in zip(res["A"], res["B"]))
        print("%-10s  A median %7.1f ms  B median %7.1f ms  A/B median of pairs %.3f" %
              (what, ma * 1e3, mb * 1e3, ratio))


if __name__ == "__main__":
    main()
