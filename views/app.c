// SPDX-License-Identifier: GPL-2.0-only
#include "app.h"

#include <stdarg.h>
#include <stdio.h>

#include "../lib/util.h"

void app_message(struct app *a, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->message, sizeof(a->message), fmt, ap);
	va_end(ap);
	a->message_until = 0;	/* shown from the next draw on (ui_draw) */
	a->message_ns = MESSAGE_NS;
}

void app_push(struct app *a, const struct view *v)
{
	if (a->depth < VIEW_STACK_MAX)
		a->stack[a->depth++] = v;
}

void app_pop(struct app *a)
{
	if (a->depth > 1)
		a->depth--;
}
