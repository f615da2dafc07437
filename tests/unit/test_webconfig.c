// SPDX-License-Identifier: GPL-2.0-only
/*
 * src/webconfig: node_exporter's --web.config.file format, strictly: what ktop
 * serves is read, paths resolved against the file's directory; anything else
 * is an error naming its line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
	/* What would serve without TLS or auth, as the toolkit takes it: refused here. */
	static const char *const none[] = {
		"", "# nothing\n", "~\n", "tls_server_config:\nbasic_auth_users: ~\n",
		"basic_auth_users: {}\n",
	};
	struct webconfig wc;
	char err[256], text[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(none); i++) {
		err[0] = '\0';
		if (!CHECK_EQ_I64(parse(none[i], &wc, err, sizeof(err)), -EINVAL) ||
		    !CHECK(strstr(err, "web.yml: asks for neither TLS nor basic auth") != NULL))
			printf("# case %zu: '%s'\n", i, err);
		CHECK(!wc.users && !wc.cert_file);
	}
	/* Either alone is enough; an empty section beside the other is fine. */
	snprintf(text, sizeof(text), "tls_server_config:\nbasic_auth_users:\n  a: %s\n", hash);
	CHECK_EQ_I64(parse(text, &wc, err, sizeof(err)), 0);
	CHECK(!wc.tls && wc.nusers == 1);
	webconfig_free(&wc);
	CHECK_EQ_I64(parse("tls_server_config:\n  cert_file: a\n  key_file: b\nbasic_auth_users: {}\n",
			   &wc, err, sizeof(err)), 0);
	CHECK(wc.tls && !wc.nusers);
	webconfig_free(&wc);
}

/* webconfig_load: the file itself must be one only ktop's user or root could write. */
static void test_trusted(void)
{
	char dir[] = "/tmp/ktop-webconfig-XXXXXX", path[64], err[512], text[256];
	struct webconfig wc;
	FILE *f;

	if (!CHECK(mkdtemp(dir) != NULL))
		return;
	snprintf(path, sizeof(path), "%s/web.yml", dir);
	snprintf(text, sizeof(text), "basic_auth_users:\n  a: %s\n", hash);
	f = fopen(path, "w");
	if (!CHECK(f != NULL))
		goto out;
	fputs(text, f);
	fclose(f);
	chmod(path, 0644);
	CHECK_EQ_I64(webconfig_load(path, &wc, err, sizeof(err)), 0);
	CHECK_EQ_U64(wc.nusers, 1);
	webconfig_free(&wc);
	chmod(path, 0666);
	CHECK_EQ_I64(webconfig_load(path, &wc, err, sizeof(err)), -EIO);
	CHECK(strstr(err, "group or others may write it (mode 0666): not read") != NULL);
	chmod(path, 0620);
	CHECK_EQ_I64(webconfig_load(path, &wc, err, sizeof(err)), -EIO);
	CHECK(strstr(err, "(mode 0620)") != NULL);
	chmod(path, 0600);
	/* Another user's (only root can give a file away). */
	if (geteuid() == 0 && !chown(path, 65534, 65534)) {
		CHECK_EQ_I64(webconfig_load(path, &wc, err, sizeof(err)), -EIO);
		CHECK(strstr(err, "owned by uid 65534, neither ktop's user (uid 0) nor root") != NULL);
	}
	unlink(path);
	/* Not a regular file. */
	if (CHECK(mkfifo(path, 0600) == 0)) {
		CHECK_EQ_I64(webconfig_load(path, &wc, err, sizeof(err)), -EIO);
		CHECK(strstr(err, "not a regular file") != NULL);
	}
	unlink(path);
	CHECK_EQ_I64(webconfig_load(path, &wc, err, sizeof(err)), -EIO);
	CHECK(strstr(err, "No such file") != NULL);
out:
	rmdir(dir);
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
	{ "webconfig: a file asking for neither TLS nor basic auth (empty) is refused", test_empty },
	{ "webconfig: a file others could write or own is refused", test_trusted },
	{ "webconfig: unknown and unsupported keys, bad values: refused with the line", test_refused },
};

int main(void)
{
	return run_tests(tests, ARRAY_SIZE(tests));
}
