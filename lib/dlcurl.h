/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_DLCURL_H
#define KTOP_DLCURL_H

/*
 * libcurl, loaded for --remote-write (lib/dl.h). src/remotewrite.c includes
 * this, not <curl/curl.h>. Without curl's type-checking macros, which are
 * named as its functions: so are ours.
 */

#define CURL_DISABLE_TYPECHECK

#include <curl/curl.h>

#include "dl.h"

#define DL_CURL_SYMS(X) \
	X(curl_easy_cleanup) X(curl_easy_getinfo) X(curl_easy_init) X(curl_easy_reset) \
	X(curl_easy_setopt) X(curl_easy_strerror) X(curl_global_cleanup) X(curl_global_init) \
	X(curl_multi_add_handle) X(curl_multi_assign) X(curl_multi_cleanup) \
	X(curl_multi_info_read) X(curl_multi_init) X(curl_multi_remove_handle) \
	X(curl_multi_setopt) X(curl_multi_socket_action) X(curl_slist_append) \
	X(curl_slist_free_all)

struct dl_curl { DL_CURL_SYMS(DL_FIELD) };
extern struct dl_lib dl_curl_lib;
extern struct dl_curl dl_curl_fn;

/* lib/dl.c defines the tables; every other includer calls through them. */
#ifndef DL_DEFINE
#undef curl_easy_getinfo
#undef curl_easy_setopt
#undef curl_multi_setopt
#define DL_CURL(f) DL_CALL(dl_curl_lib, dl_curl_fn, f)
#define curl_easy_cleanup DL_CURL(curl_easy_cleanup)
#define curl_easy_getinfo DL_CURL(curl_easy_getinfo)
#define curl_easy_init DL_CURL(curl_easy_init)
#define curl_easy_reset DL_CURL(curl_easy_reset)
#define curl_easy_setopt DL_CURL(curl_easy_setopt)
#define curl_easy_strerror DL_CURL(curl_easy_strerror)
#define curl_global_cleanup DL_CURL(curl_global_cleanup)
#define curl_global_init DL_CURL(curl_global_init)
#define curl_multi_add_handle DL_CURL(curl_multi_add_handle)
#define curl_multi_assign DL_CURL(curl_multi_assign)
#define curl_multi_cleanup DL_CURL(curl_multi_cleanup)
#define curl_multi_info_read DL_CURL(curl_multi_info_read)
#define curl_multi_init DL_CURL(curl_multi_init)
#define curl_multi_remove_handle DL_CURL(curl_multi_remove_handle)
#define curl_multi_setopt DL_CURL(curl_multi_setopt)
#define curl_multi_socket_action DL_CURL(curl_multi_socket_action)
#define curl_slist_append DL_CURL(curl_slist_append)
#define curl_slist_free_all DL_CURL(curl_slist_free_all)
#endif

#endif
