/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_LAUNCH_H
#define KTOP_LAUNCH_H

/*
 * ktop -- CMD: the command's process, from fork to reaping. Process plumbing
 * only; what is traced is the caller's business.
 *
 * The child stops itself (SIGSTOP) before it executes CMD, so the caller can
 * arm tracing for its pid first; launch_release lets it go on to execve(2),
 * which is then the first system call the trace sees. CMD stays in ktop's
 * process group: a Ctrl-C on the terminal reaches it as it would from a shell.
 */

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* CMD's output, kept while the screen is ktop's: the last LAUNCH_TAIL bytes. */
#define LAUNCH_TAIL (64 * 1024)

struct launch {
	pid_t pid;		/* 0: none */
	pid_t was_pid;		/* its pid, kept after launch_reap */
	int pidfd;		/* readable when CMD has exited; -1 */
	int out_fd;		/* capture: read end of CMD's stdout and stderr; -1 */
	int err_fd;		/* exec failure report (errno), closed on success; -1 */
	char *path;		/* the file executed; malloc'ed */
	char *const *argv;
	bool exited;
	int status;		/* wait status, once exited */
	char *tail;		/* capture: ring of the last LAUNCH_TAIL bytes */
	size_t tail_start, tail_len;
	unsigned long long dropped;	/* bytes of output no longer kept */
	char last_line[128];	/* the last complete line of output, sanitized later */
	size_t line_len;
	char line_buf[128];	/* the line being read */
};

/*
 * launch_start - fork CMD's process and leave it stopped before execve
 * @argv: the command and its arguments (NULL-terminated); kept, not copied
 * @capture: CMD's stdin from /dev/null, its stdout and stderr into a pipe
 *           read with launch_read_output (the live view); otherwise CMD keeps
 *           ktop's standard descriptors
 * @err: on failure, "CMD: command not found" and the like
 *
 * Returns 0; -ENOENT (exit 127, like a shell), -EACCES (126: found but not
 * executable) or another -errno with @err filled. Call before ktop blocks
 * signals or ignores SIGPIPE: CMD inherits both.
 */
int launch_start(struct launch *l, char *const argv[], bool capture, char *err, size_t errsz);

/*
 * launch_release - let the stopped CMD execute
 *
 * Returns 0 once execve succeeded, or -errno of the failed execve (the child
 * has then exited) with @err filled.
 */
int launch_release(struct launch *l, char *err, size_t errsz);

/*
 * launch_poll_exit - has CMD exited? (Its pidfd was readable.) On the first
 * true, l->status holds its wait status. The process stays a zombie until
 * launch_reap, so /proc still describes it while the last events are counted.
 */
bool launch_poll_exit(struct launch *l);
/* Reap CMD once it has exited (l->exited) and close its descriptors. */
void launch_reap(struct launch *l);
/* Send @sig to CMD if it still runs. */
void launch_signal(struct launch *l, int sig);
/* Kill CMD (SIGKILL) if it still runs, reap it, free everything. */
void launch_free(struct launch *l);

/* Capture: read what CMD wrote (non-blocking). Returns false at end of file. */
bool launch_read_output(struct launch *l);
/* Capture: write the kept output to @fd (after the screen is restored). */
void launch_write_output(const struct launch *l, int fd);

/* The shell's exit status of a wait status: the code, or 128 + signal. */
int launch_exit_code(int status);
/* "exited with status 3", "killed by SIGTERM (core dumped)". */
void launch_describe(int status, char *buf, size_t n);

#endif
