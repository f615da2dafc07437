# newcomer.bats's and newcomercount.bats's common part: ktop in the pane, its
# look at a place on the screen.

KTOP="$BATS_TEST_DIRNAME/../../ktop"
S="ktop-nc-$$"

setup() { pane_setup; }
teardown() { bg_end; }

# start ARGS...: ktop in the pane, its settings in $CFG (none), UTF-8.
start() {
	keys "clear; env XDG_CONFIG_HOME='$CFG' $TERMENV LANG=C.UTF-8 $KTOP $*; echo KTOP-EXIT=\$?" Enter
	wait_for '^ +PID|^ktop REPLAY'
}

quit() {
	keys q
	wait_for 'KTOP-EXIT=0'
}

# The look (foreground, background, attributes, from the SGR sequences in
# effect) where text $1 starts in the pane's coloured capture.
look_of() {
	tmux -L "$S" capture-pane -p -e -t t | python3 -c '
import re, sys
want = sys.argv[1]
for line in sys.stdin:
    st = {"fg": "", "bg": "", "a": set()}
    i = 0
    while i < len(line):
        m = re.match(r"\x1b\[([0-9;]*)m", line[i:])
        if m:
            p = [int(x) if x else 0 for x in m.group(1).split(";")]
            k = 0
            while k < len(p):
                c = p[k]
                if c == 0: st = {"fg": "", "bg": "", "a": set()}
                elif c in (38, 48) and k + 2 < len(p) and p[k + 1] == 5:
                    st["fg" if c == 38 else "bg"] = "c%d" % p[k + 2]; k += 2
                elif 30 <= c <= 37 or 90 <= c <= 97: st["fg"] = "c%d" % c
                elif 40 <= c <= 47 or 100 <= c <= 107: st["bg"] = "c%d" % c
                elif c == 39: st["fg"] = ""
                elif c == 49: st["bg"] = ""
                elif c in (1, 2, 3, 4, 7): st["a"].add(c)
                elif c == 22: st["a"] -= {1, 2}
                elif c in (23, 24, 27): st["a"].discard(c - 20)
                k += 1
            i += m.end()
            continue
        if line.startswith(want, i):
            print(st["fg"], st["bg"], sorted(st["a"]))
            sys.exit(0)
        i += 1
sys.exit(1)' "$1"
}
