// SPDX-License-Identifier: GPL-2.0-only
/* Line and graph glyphs: UTF-8 box drawing and blocks, or plain ASCII. */
#include "view.h"

static const struct glyphs utf8 = {
	.tree_branch = "\u251c\u2500 ", .tree_last = "\u2514\u2500 ",
	.tree_vert = "\u2502  ", .tree_blank = "   ", .tree_vert1 = "\u2502",
	.folded = "+", .unfolded = "\u2500",
	.spark = { "\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587",
		   "\u2588" },
	.bar = "\u2588",
	.hline = "\u2500",
	.sort_desc = "\u25bd", .sort_asc = "\u25b3",
};

static const struct glyphs ascii = {
	.tree_branch = "|- ", .tree_last = "`- ", .tree_vert = "|  ", .tree_blank = "   ", .tree_vert1 = "|",
	.folded = "+", .unfolded = "-",
	.spark = { "_", ".", ",", "-", "=", "+", "*", "#" },
	.bar = "#",
	.hline = "-",
	.sort_desc = "v", .sort_asc = "^",
};

const struct glyphs *glyphs_get(const struct app *a)
{
	return a->ascii ? &ascii : &utf8;
}
