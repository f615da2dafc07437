# Shared by the CLI, tmux and stress tests (sourced).

# inst_dir PID [-f]: the tracefs instance of ktop PID, ktop-PID-START (START:
# its start time in clock ticks since boot), or its focus view's ktop-PID-START-f.
# Found by name, so it works once PID has exited too; a path that does not
# exist when there is none.
inst_dir() {
	local i=/sys/kernel/tracing/instances d
	for d in "$i/ktop-$1-"[0-9]*"${2:-}"; do
		[ -z "${2:-}" ] && [[ $d == *-f ]] && continue
		[ -d "$d" ] && { echo "$d"; return 0; }
	done
	echo "$i/ktop-$1-none${2:-}"
}
