/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_PROCTABLE_H
#define KTOP_PROCTABLE_H

/*
 * The process table as a table of the engine (table.h): the column catalog
 * of columns.h over a rowset's rows (rows.h), one task a row.
 */

#include "rows.h"
#include "table.h"

extern const struct table_def proc_table_def;

/*
 * proc_table - @t over the rows of @rs (@rs->rows, as refreshed from @m),
 * showing @cols; sorted and filtered as @rs says.
 */
void proc_table(struct table *t, const struct model *m, const struct rowset *rs, const int *cols,
		size_t ncols);

#endif
