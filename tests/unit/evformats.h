/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_TEST_EVFORMATS_H
#define KTOP_TEST_EVFORMATS_H

/*
 * The ring-buffer page header and the formats of the events ktop decodes, as a
 * 6.18 x86_64 kernel describes them (events/header_page, events/SYS/EV/format),
 * with that kernel's event ids. Shared by the unit tests (tests/unit) and the
 * fuzz harness of the decoder (tests/fuzz), which also takes seed pages recorded
 * on such a kernel.
 */

#include "../../collectors/trace/evdecode.h"

#define COMMON \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* events/header_page */
#define FMT_HEADER_PAGE \
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n" \
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n" \
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n" \
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n"

/* events/SYS/EV/format, one per tracepoint: the unit tests of both decoders use these. */
#define FMT_SYS_EXIT "name: sys_exit\nID: 442\nformat:\n" COMMON \
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n" \
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n\n" \
	"print fmt: \"NR %ld = %ld\", REC->id, REC->ret\n"
#define FMT_SYS_ENTER "name: sys_enter\nID: 443\nformat:\n" COMMON \
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n" \
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n" \
	"print fmt: \"NR %ld\", REC->id\n"
#define FMT_EXIT_GROUP "name: sys_enter_exit_group\nID: 216\nformat:\n" COMMON \
	"\tfield:int __syscall_nr;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:int error_code;\toffset:16;\tsize:8;\tsigned:0;\n\n" \
	"print fmt: \"error_code: 0x%08lx\", ((unsigned long)(REC->error_code))\n"
#define FMT_SWITCH "name: sched_switch\nID: 372\nformat:\n" COMMON \
	"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n" \
	"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n" \
	"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n" \
	"print fmt: \"prev_pid=%d\", REC->prev_pid\n"
#define FMT_NEWTASK "name: task_newtask\nID: 205\nformat:\n" COMMON \
	"\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:char comm[16];\toffset:12;\tsize:16;\tsigned:0;\n" \
	"\tfield:u64 clone_flags;\toffset:32;\tsize:8;\tsigned:0;\n" \
	"\tfield:short oom_score_adj;\toffset:40;\tsize:2;\tsigned:1;\n\n" \
	"print fmt: \"pid=%d\", REC->pid\n"
#define FMT_EXEC "name: sched_process_exec\nID: 365\nformat:\n" COMMON \
	"\tfield:__data_loc char[] filename;\toffset:8;\tsize:4;\tsigned:0;\n" \
	"\tfield:pid_t pid;\toffset:12;\tsize:4;\tsigned:1;\n" \
	"\tfield:pid_t old_pid;\toffset:16;\tsize:4;\tsigned:1;\n\n" \
	"print fmt: \"filename=%s\", __get_str(filename)\n"
#define FMT_PEXIT "name: sched_process_exit\nID: 369\nformat:\n" COMMON \
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n" \
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n" \
	"\tfield:bool group_dead;\toffset:32;\tsize:1;\tsigned:0;\n\n" \
	"print fmt: \"pid=%d\", REC->pid\n"
#define FMT_SIGNAL "name: signal_generate\nID: 261\nformat:\n" COMMON \
	"\tfield:int sig;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:int errno;\toffset:12;\tsize:4;\tsigned:1;\n" \
	"\tfield:int code;\toffset:16;\tsize:4;\tsigned:1;\n" \
	"\tfield:char comm[16];\toffset:20;\tsize:16;\tsigned:0;\n" \
	"\tfield:pid_t pid;\toffset:36;\tsize:4;\tsigned:1;\n" \
	"\tfield:int group;\toffset:40;\tsize:4;\tsigned:1;\n" \
	"\tfield:int result;\toffset:44;\tsize:4;\tsigned:1;\n\n" \
	"print fmt: \"sig=%d\", REC->sig\n"
#define FMT_SIGDELIVER "name: signal_deliver\nID: 260\nformat:\n" COMMON \
	"\tfield:int sig;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:int errno;\toffset:12;\tsize:4;\tsigned:1;\n" \
	"\tfield:int code;\toffset:16;\tsize:4;\tsigned:1;\n" \
	"\tfield:unsigned long sa_handler;\toffset:24;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned long sa_flags;\toffset:32;\tsize:8;\tsigned:0;\n\n" \
	"print fmt: \"sig=%d\", REC->sig\n"
#define FMT_RENAME "name: task_rename\nID: 204\nformat:\n" COMMON \
	"\tfield:pid_t pid;\toffset:8;\tsize:4;\tsigned:1;\n" \
	"\tfield:char oldcomm[16];\toffset:12;\tsize:16;\tsigned:0;\n" \
	"\tfield:char newcomm[16];\toffset:28;\tsize:16;\tsigned:0;\n" \
	"\tfield:short oom_score_adj;\toffset:44;\tsize:2;\tsigned:1;\n\n" \
	"print fmt: \"pid=%d\", REC->pid\n"
#define FMT_FAULT "name: page_fault_user\nID: 190\nformat:\n" COMMON \
	"\tfield:unsigned long address;\toffset:8;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned long ip;\toffset:16;\tsize:8;\tsigned:0;\n" \
	"\tfield:unsigned long error_code;\toffset:24;\tsize:8;\tsigned:0;\n\n" \
	"print fmt: \"address=%ps\", (void *)REC->address\n"

enum { ID_EXIT = 442, ID_SWITCH = 372, ID_NEWTASK = 205, ID_PEXIT = 369, ID_SIGNAL = 261,
       ID_EXEC = 365, ID_EXIT_GROUP = 216, ID_ENTER = 443, ID_SIGDEL = 260, ID_FAULT = 190,
       ID_RENAME = 204 };

static const char header_page[] = FMT_HEADER_PAGE;

/* The system-wide decoder's events (collectors/trace/evdecode.c). */
static const struct ev_format {
	enum ev_kind kind;
	const char *format;
} formats[] = {
	{ EV_SYS_EXIT, FMT_SYS_EXIT },
	{ EV_SYS_ENTER, FMT_SYS_ENTER },
	{ EV_EXIT_GROUP, FMT_EXIT_GROUP },
	{ EV_SWITCH, FMT_SWITCH },
	{ EV_NEWTASK, FMT_NEWTASK },
	{ EV_EXEC, FMT_EXEC },
	{ EV_PEXIT, FMT_PEXIT },
	{ EV_SIGNAL, FMT_SIGNAL },
	{ EV_RENAME, FMT_RENAME },
};

#endif
