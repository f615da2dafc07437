/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_DLYAML_H
#define KTOP_DLYAML_H

/*
 * libyaml, loaded for --web-config (lib/dl.h). src/webconfig.c includes
 * this, not <yaml.h>.
 */

#include <yaml.h>

#include "dl.h"

#define DL_YAML_SYMS(X) \
	X(yaml_event_delete) X(yaml_parser_delete) X(yaml_parser_initialize) X(yaml_parser_parse) \
	X(yaml_parser_set_input_string)

struct dl_yaml { DL_YAML_SYMS(DL_FIELD) };
extern struct dl_lib dl_yaml_lib;
extern struct dl_yaml dl_yaml_fn;

/* lib/dl.c defines the tables; every other includer calls through them. */
#ifndef DL_DEFINE
#define DL_YAML(f) DL_CALL(dl_yaml_lib, dl_yaml_fn, f)
#define yaml_event_delete DL_YAML(yaml_event_delete)
#define yaml_parser_delete DL_YAML(yaml_parser_delete)
#define yaml_parser_initialize DL_YAML(yaml_parser_initialize)
#define yaml_parser_parse DL_YAML(yaml_parser_parse)
#define yaml_parser_set_input_string DL_YAML(yaml_parser_set_input_string)
#endif

#endif
