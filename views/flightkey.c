// SPDX-License-Identifier: GPL-2.0-only
/* The flight recorder's key, in each view that lists it (W). */
#include "view.h"

enum action key_flight(struct app *a)
{
	(void)a;
	return ACT_FLIGHT;
}
