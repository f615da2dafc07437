#!/usr/bin/env python3
"""Checks of the exporter's expositions (tests/cli/promtext.bats).

    omcheck.py openmetrics FILE   strict OpenMetrics 1.0 parse, "# EOF" last,
                                  the hostile label values read back as written
    omcheck.py text FILE          the text format 0.0.4 (prometheus_client's
                                  parser), the same values
    omcheck.py fetch PORT PATH ACCEPT OUT
                                  GET http://127.0.0.1:PORT/PATH with that Accept
                                  (- for none): prints "STATUS CONTENT-TYPE",
                                  the body into OUT
"""
import sys
import urllib.error
import urllib.request

FFFD = "\ufffd"

# promsample.c's process names as they must read back: invalid bytes and
# control characters are U+FFFD, the rest exactly as the process named itself.
WANT_COMMS = {
    "bash", 'a"quote', "back\\slash", "new\nline", FFFD + FFFD + "bad",
    "tab" + FFFD + "here", "esc" + FFFD + "[31mred", "", "other",
    "caf\u00e9 \U0001F600", "cr" + FFFD + "x", FFFD + FFFD,
}


def families(kind, text):
    if kind == "openmetrics":
        from prometheus_client.openmetrics.parser import text_string_to_metric_families
    else:
        from prometheus_client.parser import text_string_to_metric_families
    return {f.name: f for f in text_string_to_metric_families(text)}


def check(kind, path):
    raw = open(path, "rb").read()
    text = raw.decode("utf-8")  # strict: invalid UTF-8 fails here
    if kind == "openmetrics":
        assert text.endswith("\n# EOF\n"), "no # EOF at the end"
    else:
        assert "# EOF" not in text, "# EOF in the text format"
        assert text.endswith("\n"), "no final newline"
    fams = families(kind, text)
    # The text parser names counters by their samples' name, OpenMetrics by the family.
    cpu = fams.get("ktop_cpu_seconds")
    assert cpu is not None, sorted(fams)
    assert cpu.type == "counter", cpu.type
    if kind == "openmetrics":
        assert cpu.unit == "seconds", cpu.unit
    comms = {s.labels["comm"] for s in cpu.samples}
    assert comms == WANT_COMMS, (comms ^ WANT_COMMS)
    sc = fams["ktop_syscalls"]
    assert sc.documentation == ('System calls, by group and system call. '
                                'Quote " backslash \\ newline \n end.'), repr(sc.documentation)
    other = [s for s in sc.samples if s.labels == {"comm": "other", "syscall": "other"}]
    assert len(other) == 1, other
    huge = [s for s in sc.samples if s.labels["comm"] == "huge"]
    # exact to the last digit (the text parser reads floats: check the line)
    assert huge, sc.samples
    assert 'comm="huge",syscall="read"} 18446744073709551615\n' in text
    if kind == "openmetrics":
        assert huge[0].value == 2**64 - 1, huge
    assert len(sc.samples) == 7, len(sc.samples)
    procs = fams["ktop_processes"]
    cgroups = {s.labels["cgroup"] for s in procs.samples}
    assert "/a\"b\\c" in cgroups and "other" in cgroups, cgroups
    assert len(fams["ktop_signals"].samples) == 0
    odd = {s.labels["kind"]: s.value for s in fams["ktop_odd"].samples}
    assert odd["inf"] == float("inf") and odd["-inf"] == float("-inf"), odd
    assert odd["nan"] != odd["nan"] and odd["neg"] == -2.5, odd
    assert fams["ktop_metrics_dropped_series"].samples[0].value > 0
    print(f"{kind}: {len(fams)} families, {sum(len(f.samples) for f in fams.values())} samples")


def fetch(port, path, accept, out):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}")
    if accept != "-":
        req.add_header("Accept", accept)
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            status, ctype, body = r.status, r.headers.get("Content-Type"), r.read()
    except urllib.error.HTTPError as e:
        status, ctype, body = e.code, e.headers.get("Content-Type"), e.read()
    open(out, "wb").write(body)
    print(status, ctype)


def main():
    if sys.argv[1] == "fetch":
        fetch(*sys.argv[2:6])
    else:
        check(sys.argv[1], sys.argv[2])


main()
