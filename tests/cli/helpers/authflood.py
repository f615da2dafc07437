#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Guess flood against basic auth, with the rightful user scraping meanwhile.

authflood.py PORT USER RIGHT_PASSWORD [--threads N] [--seconds S] [--tries N]
             [--gap S] [--timeout S] [--guess-user NAME] [--flood-from ADDR]

N threads send GET /metrics with USER (or --guess-user) and a new wrong
password each time, over kept-alive connections (a new one when ktop closes
it), for S seconds, from 127.0.0.1 (or --flood-from, another loopback
address). Once the flood runs (0.5 s), the rightful user makes
--tries tries, each on a new connection, --gap seconds apart, each waiting at
most --timeout seconds. From 127.0.0.1.

Prints one line "key=value ..." : guesses (requests the flood made),
guesses_per_s, the flood's status counts (s401=, s429=, ...), served (the
rightful user's 200s), tries, right_codes (each try's status, 0: no
answer in time) and right_ms (how long each took).
"""
import argparse
import base64
import http.client
import threading
import time


def auth(user, password):
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


def flood(port, user, src, stop, counts, lock, tid):
    n = 0
    conn = None
    while not stop.is_set():
        if conn is None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                              source_address=(src, 0))
        n += 1
        try:
            conn.request("GET", "/metrics",
                         headers={"Authorization": auth(user, f"guess-{tid}-{n}")})
            r = conn.getresponse()
            r.read()
            code = r.status
            if r.getheader("Connection", "").lower() == "close":
                conn.close()
                conn = None
        except (OSError, http.client.HTTPException):
            code = 0
            conn.close()
            conn = None
        with lock:
            counts[code] = counts.get(code, 0) + 1
    if conn is not None:
        conn.close()


def right_try(port, user, password, timeout):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", "/metrics", headers={"Authorization": auth(user, password)})
        r = conn.getresponse()
        r.read()
        return r.status
    except (OSError, http.client.HTTPException):
        return 0
    finally:
        conn.close()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("port", type=int)
    ap.add_argument("user")
    ap.add_argument("password")
    ap.add_argument("--threads", type=int, default=4)
    ap.add_argument("--seconds", type=float, default=6)
    ap.add_argument("--tries", type=int, default=10)
    ap.add_argument("--gap", type=float, default=0.3)
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("--guess-user")
    ap.add_argument("--flood-from", default="127.0.0.1")
    a = ap.parse_args()

    stop = threading.Event()
    lock = threading.Lock()
    counts = {}
    threads = [threading.Thread(target=flood,
                                args=(a.port, a.guess_user or a.user, a.flood_from, stop, counts,
                                      lock, i))
               for i in range(a.threads)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    time.sleep(0.5)
    codes = []
    took = []
    for _ in range(a.tries):
        t = time.monotonic()
        codes.append(right_try(a.port, a.user, a.password, a.timeout))
        took.append((time.monotonic() - t) * 1000)
        time.sleep(a.gap)
    while time.monotonic() - t0 < a.seconds:
        time.sleep(0.05)
    stop.set()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - t0
    guesses = sum(counts.values())
    print(f"guesses={guesses} guesses_per_s={guesses / elapsed:.0f} seconds={elapsed:.1f} "
          + " ".join(f"s{k}={v}" for k, v in sorted(counts.items()))
          + f" served={codes.count(200)} tries={len(codes)}"
          + " right_codes=" + ",".join(str(c) for c in codes)
          + " right_ms=" + ",".join(f"{t:.0f}" for t in took))


if __name__ == "__main__":
    main()
