// SPDX-License-Identifier: GPL-2.0-only
/*
 * src/webconfig: node_exporter's --web.config.file format, strictly: what ktop
 * serves is read, paths resolved against the file's directory; anything else
 * is an error naming its line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../src/webconfig.h"
#include "test.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char hash[] = "$2y$10$abcdefghijklmnopqrstuOuQKjjb3wSb0uRo28Tx7RG3hObdtWfUu";

static int parse(const char *text, struct webconfig *wc, char *err, size_t len)
{
	return webconfig_parse(text, strlen(text), "web.yml", "/etc/ktop", wc, err, len);
}

static void test_full(void)
{
	char text[512], err[256] = "";
	struct webconfig wc;

	snprintf(text, sizeof(text),
		 "# node_exporter's example\n"
		 "tls_server_config:\n"
		 "  cert_file: server.crt\n"
		 "  key_file: /abs/server.key\n"
		 "  client_ca_file: \"ca.crt\"\n"
		 "basic_auth_users:\n"
		 "  alice: %s\n"
		 "  bob: '%s'\n", hash, hash);
	if (!CHECK_EQ_I64(parse(text, &wc, err, sizeof(err)), 0)) {
		printf("# %s\n", err);
		return;
	}
	CHECK(wc.tls);
	CHECK_STR(wc.cert_file, "/etc/ktop/server.crt");
	CHECK_STR(wc.key_file, "/abs/server.key");
	CHECK_STR(wc.client_ca_file, "/etc/ktop/ca.crt");
	/* A CA and no type: RequireAndVerifyClientCert, as the toolkit. */
	CHECK_EQ_I64(wc.client_auth, WC_REQUIRE_AND_VERIFY);
	CHECK_EQ_U64(wc.nusers, 2);
	if (wc.nusers == 2) {
		CHECK_STR(wc.users[0].name, "alice");
		CHECK_STR(wc.users[1].hash, hash);
	}
	webconfig_free(&wc);
}

static void test_empty(void)
{
	static const char *const ok[] = { "", "# nothing\n", "tls_server_config:\nbasic_auth_users: ~\n" };
	struct webconfig wc;
	char err[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		CHECK_EQ_I64(parse(ok[i], &wc, err, sizeof(err)), 0);
		CHECK(!wc.tls && !wc.nusers);
		webconfig_free(&wc);
	}
}

static void test_refused(void)
{
	static const struct {
		const char *text, *why;
	} bad[] = {
		{ "tls_server_config:\n  cert_file: a\n  key_file: b\n  min_version: TLS13\n",
		  "web.yml:4: 'min_version' is not supported by ktop" },
		{ "basic_auth_users:\n  a: x\n", "web.yml:2: user 'a': a bcrypt hash" },
		{ "tls_server_config:\n  cert_file: a\n", "web.yml:3: tls_server_config needs both" },
		{ "http_server_config:\n  http2: false\n", "web.yml:1: 'http_server_config' is not supported" },
		{ "tls_srever_config:\n  cert_file: a\n", "web.yml:1: unknown key 'tls_srever_config'" },
		{ "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: Sometimes\n",
		  "web.yml:4: client_auth_type 'Sometimes'" },
		{ "tls_server_config:\n  cert_file: a\n  key_file: b\n  client_auth_type: RequireAnyClientCert\n",
		  "needs client_ca_file" },
		{ "- a\n- b\n", "web.yml:1: a mapping is expected" },
		{ "tls_server_config: *x\n", "web.yml:1: aliases" },
		{ "basic_auth_users: [\n", "web.yml:" },
	};
	struct webconfig wc;
	char err[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		if (!CHECK(parse(bad[i].text, &wc, err, sizeof(err)) == -EINVAL) ||
		    !CHECK(strstr(err, bad[i].why) != NULL))
			printf("# case %zu: '%s'\n", i, err);
		CHECK(!wc.users && !wc.cert_file);
	}
}

static const struct test tests[] = {
	{ "webconfig: TLS, client CA and users; relative paths", test_full },
	{ "webconfig: empty sections and files", test_empty },
	{ "webconfig: unknown and unsupported keys, bad values: refused with the line", test_refused },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
