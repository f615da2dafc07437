/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KTOP_DLHTTP_H
#define KTOP_DLHTTP_H

/*
 * The exporter's libraries, loaded for --listen (lib/dl.h): libmicrohttpd,
 * GnuTLS (the peers' certificates, the keyed MAC of remembered logins, random
 * keys) and libcrypt (bcrypt). src/httpd.c includes this, not their headers.
 */

#include <crypt.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <microhttpd.h>

#include "dl.h"

#define DL_MHD_SYMS(X) \
	X(MHD_add_response_header) X(MHD_basic_auth_get_username_password) \
	X(MHD_create_response_from_buffer) \
	X(MHD_create_response_from_buffer_with_free_callback_cls) X(MHD_destroy_response) \
	X(MHD_free) X(MHD_get_connection_info) X(MHD_get_daemon_info) X(MHD_get_timeout) \
	X(MHD_lookup_connection_value) X(MHD_queue_basic_auth_fail_response) X(MHD_queue_response) \
	X(MHD_resume_connection) X(MHD_run) X(MHD_start_daemon) X(MHD_stop_daemon) \
	X(MHD_suspend_connection)
#define DL_GNUTLS_SYMS(X) \
	X(gnutls_certificate_get_peers) X(gnutls_certificate_verify_peers2) X(gnutls_hmac) \
	X(gnutls_hmac_deinit) X(gnutls_hmac_init) X(gnutls_memset) X(gnutls_rnd)
#define DL_CRYPT_SYMS(X) \
	X(crypt_rn)

struct dl_mhd { DL_MHD_SYMS(DL_FIELD) };
struct dl_gnutls { DL_GNUTLS_SYMS(DL_FIELD) };
struct dl_crypt { DL_CRYPT_SYMS(DL_FIELD) };
extern struct dl_lib dl_mhd_lib;
extern struct dl_mhd dl_mhd_fn;
extern struct dl_lib dl_gnutls_lib;
extern struct dl_gnutls dl_gnutls_fn;
extern struct dl_lib dl_crypt_lib;
extern struct dl_crypt dl_crypt_fn;

/* lib/dl.c defines the tables; every other includer calls through them. */
#ifndef DL_DEFINE
#define DL_MHD(f) DL_CALL(dl_mhd_lib, dl_mhd_fn, f)
#define MHD_add_response_header DL_MHD(MHD_add_response_header)
#define MHD_basic_auth_get_username_password DL_MHD(MHD_basic_auth_get_username_password)
#define MHD_create_response_from_buffer DL_MHD(MHD_create_response_from_buffer)
#define MHD_create_response_from_buffer_with_free_callback_cls DL_MHD(MHD_create_response_from_buffer_with_free_callback_cls)
#define MHD_destroy_response DL_MHD(MHD_destroy_response)
#define MHD_free DL_MHD(MHD_free)
#define MHD_get_connection_info DL_MHD(MHD_get_connection_info)
#define MHD_get_daemon_info DL_MHD(MHD_get_daemon_info)
#define MHD_get_timeout DL_MHD(MHD_get_timeout)
#define MHD_lookup_connection_value DL_MHD(MHD_lookup_connection_value)
#define MHD_queue_basic_auth_fail_response DL_MHD(MHD_queue_basic_auth_fail_response)
#define MHD_queue_response DL_MHD(MHD_queue_response)
#define MHD_resume_connection DL_MHD(MHD_resume_connection)
#define MHD_run DL_MHD(MHD_run)
#define MHD_start_daemon DL_MHD(MHD_start_daemon)
#define MHD_stop_daemon DL_MHD(MHD_stop_daemon)
#define MHD_suspend_connection DL_MHD(MHD_suspend_connection)
#define DL_GNUTLS(f) DL_CALL(dl_gnutls_lib, dl_gnutls_fn, f)
#define gnutls_certificate_get_peers DL_GNUTLS(gnutls_certificate_get_peers)
#define gnutls_certificate_verify_peers2 DL_GNUTLS(gnutls_certificate_verify_peers2)
#define gnutls_hmac DL_GNUTLS(gnutls_hmac)
#define gnutls_hmac_deinit DL_GNUTLS(gnutls_hmac_deinit)
#define gnutls_hmac_init DL_GNUTLS(gnutls_hmac_init)
#define gnutls_memset DL_GNUTLS(gnutls_memset)
#define gnutls_rnd DL_GNUTLS(gnutls_rnd)
#define DL_CRYPT(f) DL_CALL(dl_crypt_lib, dl_crypt_fn, f)
#define crypt_rn DL_CRYPT(crypt_rn)
#endif

#endif
