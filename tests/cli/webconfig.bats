#!/usr/bin/env bats
# --web-config (issue 25): TLS, basic auth, client certificates, reloads,
# a password guess flood, files refused; against curl, openssl's certificates
# and a Prometheus scraping over TLS (fleet.bats says more).

load helpers/common
load helpers/fleet

# ---------------------------------------------------------------- --web-config

@test "web-config: TLS and basic auth: no credentials 401, wrong 401, right 200 over TLS; Prometheus scrapes it so" {
	need openssl
	need curl
	need prometheus
	local d="$BATS_TEST_TMPDIR" kp pp code
	make_certs "$d"
	cat >"$d/web.yml" <<-EOF
	tls_server_config:
	  cert_file: server.crt
	  key_file: server.key
	basic_auth_users:
	  alice: '$(bcrypt 's3cret w0rd')'
	EOF
	kp=$(promq freeport)
	start_ktop "$OUT" -b -d 0.5 --listen "127.0.0.1:$kp" --web-config "$d/web.yml"
	wait_serving "$kp" --cacert "$d/ca.crt" -u 'alice:s3cret w0rd'
	code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$d/ca.crt" "https://127.0.0.1:$kp/metrics")
	[ "$code" = 401 ]
	code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$d/ca.crt" -u alice:wrong "https://127.0.0.1:$kp/metrics")
	[ "$code" = 401 ]
	code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$d/ca.crt" -u bob:'s3cret w0rd' "https://127.0.0.1:$kp/metrics")
	[ "$code" = 401 ]
	code=$(curl -s -o "$d/page" -w '%{http_code}' --cacert "$d/ca.crt" -u 'alice:s3cret w0rd' "https://127.0.0.1:$kp/metrics")
	[ "$code" = 200 ]
	grep -q '^ktop_refreshes_total ' "$d/page"
	# plain HTTP to the TLS port is no answer at all
	code=$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$kp/metrics" || true)
	[ "$code" != 200 ]
	# a client certificate is not asked for: no CA in the file

	# Prometheus, with the same configuration from its side
	mkdir -p "$d/p/data"
	printf 's3cret w0rd' >"$d/p/pass"
	pp=$(promq freeport)
	cat >"$d/p/prometheus.yml" <<-EOF
	global:
	  scrape_interval: 1s
	  scrape_timeout: 1s
	scrape_configs:
	  - job_name: ktop
	    scheme: https
	    tls_config:
	      ca_file: $d/ca.crt
	    basic_auth:
	      username: alice
	      password_file: $d/p/pass
	    static_configs:
	      - targets: ['127.0.0.1:$kp']
	EOF
	prometheus --config.file="$d/p/prometheus.yml" --storage.tsdb.path="$d/p/data" \
		--web.listen-address="127.0.0.1:$pp" --log.level=warn </dev/null >"$d/p/log" 2>&1 3>&- &
	track $!
	promq ready "$pp" 30
	promq up "$pp" ktop 20
	[ "$(promq value "$pp" 'ktop_scrapes_total > 0')" != absent ]
}

# client_cert DIR NAME: a client certificate NAME.crt/.key signed by DIR's CA.
client_cert() {
	openssl req -newkey rsa:2048 -nodes -keyout "$1/$2.key" -out "$1/$2.csr" -subj "/CN=$2" 2>/dev/null
	openssl x509 -req -in "$1/$2.csr" -CA "$1/ca.crt" -CAkey "$1/ca.key" -CAcreateserial \
		-out "$1/$2.crt" -days 2 2>/dev/null
}

@test "web-config: client_ca_file with RequireAndVerifyClientCert: no client certificate 403, another CA's 403, the CA's 200" {
	need openssl
	need curl
	local d="$BATS_TEST_TMPDIR" kp code
	make_certs "$d"
	client_cert "$d" alice
	mkdir "$d/other"
	make_certs "$d/other"
	client_cert "$d/other" mallory
	cat >"$d/web.yml" <<-EOF
	tls_server_config:
	  cert_file: server.crt
	  key_file: server.key
	  client_ca_file: ca.crt
	  client_auth_type: RequireAndVerifyClientCert
	EOF
	kp=$(promq freeport)
	start_ktop "$OUT" -b --no-trace -d 0.5 --listen "127.0.0.1:$kp" --web-config "$d/web.yml"
	wait_serving "$kp" --cacert "$d/ca.crt" --cert "$d/alice.crt" --key "$d/alice.key"
	code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$d/ca.crt" "https://127.0.0.1:$kp/metrics" || true)
	echo "no certificate: $code" >&2
	[ "$code" = 403 ]
	code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$d/ca.crt" --cert "$d/other/mallory.crt" \
		--key "$d/other/mallory.key" "https://127.0.0.1:$kp/metrics" || true)
	echo "another CA's: $code" >&2
	[ "$code" = 403 ]
	code=$(curl -s -o "$d/page" -w '%{http_code}' --cacert "$d/ca.crt" --cert "$d/alice.crt" \
		--key "$d/alice.key" "https://127.0.0.1:$kp/metrics")
	[ "$code" = 200 ]
	grep -q '^ktop_refreshes_total ' "$d/page"
}

@test "web-config: a changed file is read again (new password); a bad one is said once and the one before kept" {
	need curl
	local d="$BATS_TEST_TMPDIR" kp code
	printf "basic_auth_users:\n  alice: '%s'\n" "$(bcrypt one)" >"$d/web.yml"
	kp=$(promq freeport)
	start_ktop "$OUT" -b -d 0.2 --listen "127.0.0.1:$kp" --web-config "$d/web.yml"
	wait_serving "$kp" -u alice:one
	printf "basic_auth_users:\n  alice: '%s'\n" "$(bcrypt two)" >"$d/web.yml.new"
	mv "$d/web.yml.new" "$d/web.yml"
	for ((i = 0; i < 50; i++)); do
		code=$(curl -s -o /dev/null -w '%{http_code}' -u alice:two "http://127.0.0.1:$kp/metrics")
		[ "$code" = 200 ] && break
		sleep 0.1
	done
	[ "$code" = 200 ]
	[ "$(curl -s -o /dev/null -w '%{http_code}' -u alice:one "http://127.0.0.1:$kp/metrics")" = 401 ]
	printf "basic_auth_users:\n  alice: '%s'\n  colour: blue\nhttp_server_config:\n" "$(bcrypt three)" >"$d/web.yml"
	wait_for_match "$OUT.err" 'web.yml:3'
	wait_refreshes 3 "http://127.0.0.1:$kp/metrics" -u alice:two	# said once
	[ "$(curl -s -o /dev/null -w '%{http_code}' -u alice:two "http://127.0.0.1:$kp/metrics")" = 200 ]
	[ "$(grep -c 'web.yml:3' "$OUT.err")" = 1 ]
	grep -q "the configuration before is kept" "$OUT.err"
	# TLS added: the same port serves HTTPS from then on
	command -v openssl >/dev/null || return 0
	make_certs "$d"
	printf "tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nbasic_auth_users:\n  alice: '%s'\n" \
		"$(bcrypt two)" >"$d/web.yml"
	for ((i = 0; i < 50; i++)); do
		code=$(curl -s -o /dev/null -w '%{http_code}' --cacert "$d/ca.crt" -u alice:two "https://127.0.0.1:$kp/metrics" || true)
		[ "$code" = 200 ] && break
		sleep 0.1
	done
	[ "$code" = 200 ]
	[ "$(curl -s -o /dev/null -w '%{http_code}' -u alice:two "http://127.0.0.1:$kp/metrics" || true)" != 200 ]
}

@test "web-config: a bad file at start is one line naming its line, exit 1; --web-config needs --listen" {
	local d="$BATS_TEST_TMPDIR"
	printf 'tls_server_config:\n  cert_file: a\n  key_file: b\n  cipher_suites: [x]\n' >"$d/web.yml"
	run --separate-stderr "$KTOP" -b --no-trace --listen 127.0.0.1:0 --web-config "$d/web.yml"
	[ "$status" -eq 1 ]
	[ "$stderr" = "ktop: --web-config $d/web.yml:4: 'cipher_suites' is not supported by ktop" ]
	run --separate-stderr "$KTOP" -b --no-trace --web-config "$d/web.yml"
	[ "$status" -eq 2 ]
}

# authflood PORT ARGS...: tests/cli/helpers/authflood.py's one line, in $FLOOD;
# its served= in $SERVED. ktop's CPU time meanwhile (schedstat) in $CPU_MS, the
# flood's in $WALL_MS.
authflood() {
	local a b t0 t1
	read -r a _ </proc/"$KPID"/schedstat
	t0=$(date +%s%N)
	FLOOD=$("$PY" "$HELPERS/authflood.py" "$@")
	t1=$(date +%s%N)
	read -r b _ </proc/"$KPID"/schedstat
	CPU_MS=$(((b - a) / 1000000))
	WALL_MS=$(((t1 - t0) / 1000000))
	SERVED=$(sed -n 's/.* served=\([0-9]*\) .*/\1/p' <<<"$FLOOD")
	echo "flood: $FLOOD; ktop's CPU $CPU_MS ms in $WALL_MS ms" >&3
}

@test "web-config: a password guess flood does not lock the rightful scraper out, from its address or another" {
	need curl
	local d="$BATS_TEST_TMPDIR" kp i
	# bcrypt of cost 10, as htpasswd -nBC 10 makes: about 50 ms here
	printf "basic_auth_users:\n  alice: '%s'\n" "$(bcrypt 's3cret w0rd')" >"$d/web.yml"
	kp=$(promq freeport)
	start_ktop "$OUT" -b --no-trace -d 0.5 --listen "127.0.0.1:$kp" --web-config "$d/web.yml"
	# serving (401 without credentials): alice's password not checked yet
	for ((i = 0; i < 100; i++)); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$kp/metrics")" = 401 ] && break
		sleep 0.1
	done
	# 4 clients guessing alice's password from 127.0.0.1, alice's first
	# scrapes from there too meanwhile: each try waits at most 10 s
	authflood "$kp" alice 's3cret w0rd' --threads 4 --seconds 4 --tries 10
	[ "$SERVED" -ge 9 ]
	# the guesses were answered (checked, not refused unseen)
	[[ "$FLOOD" == *" s401="* ]]
	# bcrypt took its share of ktop's loop, not the loop
	[ "$CPU_MS" -lt $((WALL_MS / 2)) ]
	# bob (and carol, to see the new file read) added, bob not seen yet
	printf "basic_auth_users:\n  alice: '%s'\n  bob: '%s'\n  carol: '%s'\n" \
		"$(grep -o '\$2[^'"'"']*' "$d/web.yml")" "$(bcrypt 'b0b')" "$(bcrypt c)" >"$d/web.yml.new"
	mv "$d/web.yml.new" "$d/web.yml"
	for ((i = 0; i < 50; i++)); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' -u carol:c "http://127.0.0.1:$kp/metrics")" = 200 ] && break
		sleep 0.1
	done
	# 16 clients guessing from 127.0.0.2, past its share of connections:
	# bob's first scrapes, from 127.0.0.1, take turns with them
	authflood "$kp" bob b0b --threads 16 --seconds 4 --tries 10 --flood-from 127.0.0.2 --guess-user alice
	[ "$SERVED" -ge 9 ]
	[ "$CPU_MS" -lt $((WALL_MS / 2)) ]
	kill -0 "$KPID"
}

# assert_one_line STRING: $stderr is that one line.
refused_at_start() {
	run --separate-stderr "$KTOP" -b --no-trace -n 1 -d 0.1 --listen 127.0.0.1:0 --web-config "$1"
	echo "status $status: $stderr" >&2
	[ "$status" -eq 1 ]
	[ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ]
	[[ "$stderr" == "ktop: --web-config $1"*"$2"* ]]
}

@test "web-config: an empty file, one others may write or one another user owns is refused at start (one line, exit 1)" {
	local d="$BATS_TEST_TMPDIR"
	: >"$d/web.yml"
	refused_at_start "$d/web.yml" ": asks for neither TLS nor basic auth (an empty file?): refused"
	printf '# TLS and users to come\n' >"$d/web.yml"
	refused_at_start "$d/web.yml" ": asks for neither TLS nor basic auth"
	printf "basic_auth_users:\n  alice: '%s'\n" "$(bcrypt one)" >"$d/web.yml"
	chmod 0666 "$d/web.yml"
	refused_at_start "$d/web.yml" ": group or others may write it (mode 0666): not read"
	chmod 0620 "$d/web.yml"
	refused_at_start "$d/web.yml" "(mode 0620)"
	chmod 0644 "$d/web.yml"
	chown nobody "$d/web.yml"
	refused_at_start "$d/web.yml" ": owned by uid $(id -u nobody), neither ktop's user (uid 0) nor root: not read"
	# a client CA others may write would let them in: the files it names too
	chown root "$d/web.yml"
	if command -v openssl >/dev/null; then
		make_certs "$d"
		printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n  client_ca_file: ca.crt\n' >"$d/web.yml"
		chmod 0666 "$d/ca.crt"
		run --separate-stderr "$KTOP" -b --no-trace -n 1 -d 0.1 --listen 127.0.0.1:0 --web-config "$d/web.yml"
		[ "$status" -eq 1 ]
		[ "$stderr" = "ktop: --web-config: client_ca_file $d/ca.crt: group or others may write it (mode 0666): not read" ]
	fi
}

# said_kept N FILE WHY: ktop said once that FILE is refused for WHY and the
# configuration before kept, its N-th line on stderr; alice:two is still
# served, nothing without it.
said_kept() {
	local i
	for ((i = 0; i < 50; i++)); do
		grep -q "$3" "$OUT.err" && break
		sleep 0.1
	done
	wait_refreshes 3 "http://127.0.0.1:$kp/metrics" -u alice:two	# said once
	cat "$OUT.err" >&2
	[ "$(grep -c "" "$OUT.err")" = "$1" ]
	[ "$(grep -c "^ktop: --web-config $2$3.*(the configuration before is kept)$" "$OUT.err")" = 1 ]
	[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$kp/metrics")" = 401 ]
	[ "$(curl -s -o /dev/null -w '%{http_code}' -u alice:two "http://127.0.0.1:$kp/metrics")" = 200 ]
}

# put FILE TEXT [MODE]: TEXT in FILE at once (renamed over it), as an editor saves.
put() {
	printf '%s\n' "$2" >"$1.new"
	chmod "${3:-0644}" "$1.new"
	mv "$1.new" "$1"
}

@test "web-config: a file that becomes empty, writable by others or another user's is refused on reload, the one before kept" {
	need curl
	local d="$BATS_TEST_TMPDIR" kp good i
	good=$(printf "basic_auth_users:\n  alice: '%s'\n" "$(bcrypt two)")
	put "$d/web.yml" "$good"
	kp=$(promq freeport)
	start_ktop "$OUT" -b --no-trace -d 0.2 --listen "127.0.0.1:$kp" --web-config "$d/web.yml"
	wait_serving "$kp" -u alice:two
	: >"$d/web.yml"
	said_kept 1 "$d/web.yml" ": asks for neither TLS nor basic auth"
	put "$d/web.yml" "$good"
	# a chmod alone is seen: a user others put in is not served
	chmod 0666 "$d/web.yml"
	said_kept 2 "$d/web.yml" ": group or others may write it (mode 0666): not read"
	put "$d/web.yml" "$(printf "%s\n  mallory: '%s'\n" "$good" "$(bcrypt m)")" 0666
	wait_refreshes 3 "http://127.0.0.1:$kp/metrics" -u alice:two
	[ "$(grep -c "" "$OUT.err")" = 2 ]
	[ "$(curl -s -o /dev/null -w '%{http_code}' -u mallory:m "http://127.0.0.1:$kp/metrics")" = 401 ]
	chown nobody "$d/web.yml"
	said_kept 3 "$d/web.yml" ": owned by uid $(id -u nobody), neither ktop's user"
	chmod 0644 "$d/web.yml"
	wait_refreshes 3 "http://127.0.0.1:$kp/metrics" -u alice:two
	[ "$(curl -s -o /dev/null -w '%{http_code}' -u mallory:m "http://127.0.0.1:$kp/metrics")" = 401 ]
	# made right again: read again, silently
	chown root "$d/web.yml"
	for ((i = 0; i < 50; i++)); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' -u mallory:m "http://127.0.0.1:$kp/metrics")" = 200 ] && break
		sleep 0.1
	done
	[ "$(grep -c "" "$OUT.err")" = 3 ]
	[ "$(curl -s -o /dev/null -w '%{http_code}' -u mallory:m "http://127.0.0.1:$kp/metrics")" = 200 ]
}
