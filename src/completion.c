// SPDX-License-Identifier: GPL-2.0-only
/*
 * ktop --completion bash: a bash completion script made from the tables the
 * command line is parsed with (getopt's options, the columns, views, group
 * keys and --summary's orders): an option or a column added is completed
 * without anyone editing a script. The themes are listed when TAB is pressed
 * (ktop --completion themes): they are files that come and go.
 */
#include "completion.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "../lib/cgroup.h"
#include "../lib/util.h"
#include "../tables/columns.h"
#include "../tables/systable.h"
#include "options.h"
#include "themefile.h"

/* What an option's value is, where it is more than a word to type. */
static const struct {
	const char *opt;
	const char *kind;
} values[] = {
	{ "columns", "columns" }, { "sort", "sort" }, { "view", "views" },
	{ "group-by", "groups" }, { "metrics-group-by", "groups" }, { "theme", "themes" },
	{ "pid", "pids" }, { "textfile", "dirs" }, { "flight-dir", "dirs" }, { "completion", "completion" },
	{ "write", "files" }, { "read", "files" }, { "output", "files" },
	{ "web-config", "files" }, { "remote-write-password-file", "files" },
	{ "remote-write-bearer-token-file", "files" }, { "remote-write-ca", "files" },
};

static const char *value_kind(const char *opt)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(values); i++)
		if (!strcmp(values[i].opt, opt))
			return values[i].kind;
	return "none";
}

static void print_bash(FILE *f)
{
	const struct option *o;
	size_t i, n;

	fputs("# bash completion for ktop(1), made by `ktop --completion bash` from the\n"
	      "# tables ktop parses its command line with: regenerate, do not edit.\n"
	      "_ktop()\n{\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev= kind= i\n"
	      "\t(( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}\n"
	      "\t# --opt=value: bash splits at '='\n"
	      "\tif [[ $cur == = ]]; then\n"
	      "\t\tcur=\n"
	      "\telif [[ $prev == = ]] && (( COMP_CWORD > 1 )); then\n"
	      "\t\tprev=${COMP_WORDS[COMP_CWORD-2]}\n"
	      "\tfi\n"
	      "\t# After --: the command ktop runs, and its own arguments.\n"
	      "\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	      "\t\tif [[ ${COMP_WORDS[i]} == -- ]]; then\n"
	      "\t\t\t(( i + 1 == COMP_CWORD )) && COMPREPLY=($(compgen -c -- \"$cur\")) ||\n"
	      "\t\t\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
	      "\t\t\treturn\n"
	      "\t\tfi\n"
	      "\tdone\n", f);
	fputs("\tlocal opts='", f);
	for (o = options_long(), n = 0; o->name; o++)
		fprintf(f, "%s--%s", n++ ? " " : "", o->name);
	for (o = options_long(); o->name; o++)
		if (o->val > 0 && o->val < 256)
			fprintf(f, " -%c", o->val);
	fputs("'\n\tlocal columns='", f);
	for (i = 0; i < COL_NR; i++)
		fprintf(f, "%s%s", i ? " " : "", columns[i].key);
	fputs("'\n\tlocal views='", f);
	for (i = 0; i < VIEW_NAMED; i++)
		fprintf(f, "%s%s", i ? " " : "", systable_name((enum view_kind)i));
	fputs("'\n\tlocal groups='", f);
	for (i = 0; i < CGROUP_BY__COUNT; i++)
		fprintf(f, "%s%s", i ? " " : "", cgroup_group_by_name((enum cgroup_group_by)i));
	fputs("'\n\tlocal orders='", f);
	for (i = 0; options_summary_key(i); i++)
		fprintf(f, "%s%s", i ? " " : "", options_summary_key(i));
	fputs("'\n\tcase $prev in\n", f);
	for (o = options_long(); o->name; o++) {
		if (o->has_arg != required_argument)
			continue;
		fprintf(f, "\t--%s", o->name);
		if (o->val > 0 && o->val < 256)
			fprintf(f, "|-%c", o->val);
		fprintf(f, ") kind=%s ;;\n", value_kind(o->name));
	}
	fputs("\tesac\n"
	      "\tcase $kind in\n"
	      "\tcolumns)\n"
	      "\t\t# a comma-separated list: the key after the last comma\n"
	      "\t\tlocal pre=\n"
	      "\t\t[[ $cur == *,* ]] && pre=${cur%,*},\n"
	      "\t\tCOMPREPLY=($(compgen -P \"$pre\" -W \"$columns\" -- \"${cur##*,}\")) ;;\n"
	      "\tsort)\n"
	      "\t\tlocal sign=\n"
	      "\t\t[[ $cur == [+-]* ]] && sign=${cur:0:1}\n"
	      "\t\tCOMPREPLY=($(compgen -P \"$sign\" -W \"$columns $orders\" -- \"${cur#[+-]}\")) ;;\n"
	      "\tviews) COMPREPLY=($(compgen -W \"$views\" -- \"$cur\")) ;;\n"
	      "\tgroups) COMPREPLY=($(compgen -W \"$groups\" -- \"$cur\")) ;;\n"
	      "\tthemes) COMPREPLY=($(compgen -W \"$(\"${COMP_WORDS[0]}\" --completion themes 2>/dev/null)\" -- \"$cur\")) ;;\n"
	      "\tcompletion) COMPREPLY=($(compgen -W 'bash themes' -- \"$cur\")) ;;\n"
	      "\tpids) COMPREPLY=($(compgen -W \"$(cd /proc && echo [0-9]*)\" -- \"$cur\")) ;;\n"
	      "\tdirs) COMPREPLY=($(compgen -d -- \"$cur\")) ;;\n"
	      "\tfiles) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
	      "\tnone) ;;\n"
	      "\t*) [[ $cur == -* ]] && COMPREPLY=($(compgen -W \"$opts\" -- \"$cur\")) ;;\n"
	      "\tesac\n"
	      "}\n"
	      "complete -F _ktop ktop\n", f);
}

int completion_print(FILE *f, const char *what)
{
	char names[64][THEME_NAME_MAX];
	size_t i, n;

	if (!strcmp(what, "bash")) {
		print_bash(f);
		return 0;
	}
	if (!strcmp(what, "themes")) {
		n = theme_list(names, ARRAY_SIZE(names));
		for (i = 0; i < n; i++)
			fprintf(f, "%s\n", names[i]);
		return 0;
	}
	return -1;
}
