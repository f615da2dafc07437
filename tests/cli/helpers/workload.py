#!/usr/bin/env python3
"""Processes with known kernel event counts, for the CLI tests of ktop.

    workload.py READY MODE [ARGS...]

Sets itself up, blocks SIGUSR1, writes its pid to READY, then (for the modes
that do work) waits for SIGUSR1: the test takes ktop's baseline first, then
sends the signal. After the work it writes READY.done and blocks for good (no
timer, no wake-up: its counters do not move any more) until it is killed.

Modes:
  faults PAGES       touch PAGES anonymous 4 KiB pages, each once (one minor fault each)
  sleeps N           N sleeps of 1 ms in the main thread (N voluntary switches)
  threads T N        T threads made before the baseline, each sleeps N times
  spawn T N          30 sleeps, then after the signal make T threads, each sleeps N times
  idle T             T threads in all (the main one included), nothing else
  name NAME          set the thread name (comm) to NAME (\\n, \\t, \\xHH escapes)
"""
import ctypes
import mmap
import os
import signal
import sys
import threading
import time

PAGE = mmap.PAGESIZE


def block_forever():
    threading.Event().wait()


def ready(path):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d\n" % os.getpid())
    os.rename(tmp, path)


def done(path):
    with open(path + ".done", "w") as f:
        f.write("done\n")


def wait_start():
    signal.sigwait({signal.SIGUSR1})


def sleeper(n, start, finished):
    if start is not None:
        start.wait()
    for _ in range(n):
        time.sleep(0.001)
    finished.wait()
    block_forever()


def main():
    path, mode, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    # Blocked before any thread exists, so every thread inherits the mask and
    # the signal can only be taken by sigwait.
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})

    if mode == "faults":
        pages = int(args[0])
        m = mmap.mmap(-1, pages * PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        # No transparent huge pages (of any size): one fault per 4 KiB page.
        if hasattr(mmap, "MADV_NOHUGEPAGE"):
            m.madvise(mmap.MADV_NOHUGEPAGE)
        offsets = range(0, pages * PAGE, PAGE)
        ready(path)
        wait_start()
        for off in offsets:
            m[off] = 1
        done(path)
        block_forever()
    elif mode == "sleeps":
        n = int(args[0])
        ready(path)
        wait_start()
        for _ in range(n):
            time.sleep(0.001)
        done(path)
        block_forever()
    elif mode in ("threads", "spawn"):
        t, n = int(args[0]), int(args[1])
        finished = threading.Barrier(t + 1)
        start = threading.Event()
        threads = [threading.Thread(target=sleeper, args=(n, start, finished), daemon=True)
                   for _ in range(t)]
        if mode == "threads":
            for th in threads:
                th.start()
        else:
            # a single-threaded process with switches of its own before the baseline
            for _ in range(30):
                time.sleep(0.001)
        ready(path)
        wait_start()
        if mode == "spawn":
            for th in threads:
                th.start()
        start.set()
        finished.wait()
        done(path)
        block_forever()
    elif mode == "idle":
        t = int(args[0])
        for _ in range(t - 1):
            threading.Thread(target=block_forever, daemon=True).start()
        ready(path)
        block_forever()
    elif mode == "name":
        name = args[0].encode().decode("unicode_escape").encode("latin-1")
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(15, ctypes.c_char_p(name), 0, 0, 0) != 0:  # PR_SET_NAME
            sys.exit("prctl: errno %d" % ctypes.get_errno())
        ready(path)
        block_forever()
    else:
        sys.exit("unknown mode " + mode)


if __name__ == "__main__":
    main()
