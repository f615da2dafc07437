#!/usr/bin/env bats
# The exporter beyond one host (issue 25), against real components the tests
# start themselves: Debian's prometheus 2.42 as a remote write receiver and as
# a scraper over TLS with basic auth, a CA and certificates made by openssl,
# curl, promtool, systemd-socket-activate; and the two holes' repros
# (slowloris, unique names filling the groups). Ports are free ones picked at
# run time. A missing component skips its test and says which.

load helpers/common

setup() {
	common_setup
}

teardown() { common_teardown; }

promq() {
	"$PY" "$HELPERS/promq.py" "$@"
}

need() {
	need_program "$1" "${2:-$1}"
}

# wait_serving PORT [CURL ARGS...]: until ktop answers /metrics (200).
wait_serving() {
	local i port=$1 scheme=http
	shift
	[[ " $* " == *" --cacert "* ]] && scheme=https
	for ((i = 0; i < 100; i++)); do
		[ "$(curl -s -o /dev/null -w '%{http_code}' "$@" "$scheme://127.0.0.1:$port/metrics")" = 200 ] &&
			return 0
		sleep 0.1
	done
	echo "ktop does not serve port $port: $(cat "$OUT.err")" >&2
	return 1
}

# start_receiver [PORT]: a Prometheus with the remote write receiver, nothing
# scraped; sets PPORT and PDIR (its storage outlives a restart).
start_receiver() {
	PDIR="$BATS_TEST_TMPDIR/prometheus"
	mkdir -p "$PDIR/data"
	PPORT=${1:-$(promq freeport)}
	printf 'global:\n  scrape_interval: 1m\n' >"$PDIR/prometheus.yml"
	prometheus --config.file="$PDIR/prometheus.yml" --storage.tsdb.path="$PDIR/data" \
		--web.listen-address="127.0.0.1:$PPORT" --web.enable-remote-write-receiver \
		--log.level=warn </dev/null >>"$PDIR/log" 2>&1 3>&- &
	PROM=$!
	track "$PROM"
	promq ready "$PPORT" 30 || { cat "$PDIR/log" >&2; return 1; }
}

# kills NAME N: a process named NAME making N kill(2) calls that fail (ESRCH),
# nothing else between its gate and its end; waits for it.
kills() {
	local bin="$BATS_TEST_TMPDIR/$1"
	[ -x "$bin" ] || cp "$(command -v bash)" "$bin"
	"$bin" -c 'for ((i = 0; i < '"$2"'; i++)); do kill -0 99999999 2>/dev/null; done; exit 0' </dev/null
}

# ---------------------------------------------------------------- remote write

# KTOP_FLEET_OUTAGE: seconds the receiver is stopped (6 in make check; make
# stress runs the issue's 30).
@test "remote write: Prometheus receives 777 failed kill calls exactly once; a receiver stopped mid-run loses nothing, doubles nothing" {
	need_tracing
	need prometheus
	local q v n name="kxrw$$" g outage=${KTOP_FLEET_OUTAGE:-6} t0
	g="ktop_syscall_errors_total{comm=\"$name\",syscall=\"kill\",errno=\"ESRCH\"}"
	start_receiver
	start_ktop "$OUT" -b -d 0.5 --remote-write "http://127.0.0.1:$PPORT/api/v1/write" \
		--external-label site=test
	promq wait "$PPORT" 'ktop_refreshes_total{job="ktop",site="test"}' 2 20 >/dev/null
	# labelled as a scrape would be: instance the host name, job ktop
	[ "$(promq value "$PPORT" "ktop_refreshes_total{instance=\"$(hostname)\",job=\"ktop\",site=\"test\"}")" != absent ]
	# One failed kill first: the series exists before the work, so that
	# increase() over the whole run counts all of it.
	kills "$name" 1
	v=$(promq wait "$PPORT" "$g" 1 15)
	[ "$v" = 1 ]
	kills "$name" 777
	v=$(promq wait "$PPORT" "$g" 778 15)
	echo "before the outage: $v (want 778)" >&2
	[ "$v" = 778 ]
	# promq value fails on more than one series: exactly once (three refreshes later)
	q='ktop_refreshes_total{job="ktop",site="test"}'
	n=$(promq value "$PPORT" "$q")
	promq wait "$PPORT" "$q" $((${n%.*} + 3)) 15 >/dev/null
	[ "$(promq value "$PPORT" "$g")" = 778 ]

	# The receiver goes away for $outage s (2 refreshes a second); more work meanwhile.
	kill -TERM "$PROM"
	wait "$PROM" 2>/dev/null || true
	t0=$(date +%s.%N)
	kills "$name" 777
	sleep "$outage"
	grep -q "retrying" "$OUT.err"
	start_receiver "$PPORT"
	v=$(promq wait "$PPORT" "$g" 1555 $((20 + outage)))
	echo "after it: $v (want 1555), $(awk -v t="$t0" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - t }') s after the stop" >&2
	[ "$v" = 1555 ]
	# The queue drained: the newest sample is of the last refreshes.
	v=$(promq wait "$PPORT" 'count(timestamp(ktop_refreshes_total) > time() - 3)' 1 $((20 + outage)))
	echo "caught up $(awk -v t="$t0" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - t }') s after the stop" >&2
	[ "$v" = 1 ]
	# Every refresh's sample arrived once, the outage's too: as many samples as refreshes.
	# (one query: one evaluation time, while refreshes go on)
	q='count_over_time(ktop_refreshes_total[10m]) - (ktop_refreshes_total - min_over_time(ktop_refreshes_total[10m]) + 1)'
	n=$(promq value "$PPORT" "$q")
	echo "samples - refreshes: $n; $(promq value "$PPORT" 'count_over_time(ktop_refreshes_total[10m])') samples" >&2
	[ "$n" = 0 ]
	# The same over the refreshes' whole series: one sample per refresh, its increase.
	v=$(promq increase "$PPORT" ktop_refreshes_total)
	echo "refreshes: increase $v (samples, seconds)" >&2
	[ "$(echo "$v" | awk '{ print $1 + 1 == $2 }')" = 1 ]
	# The series never went down, and increase() over the whole run (from its
	# first sample to its last, nothing extrapolated) is the work's, exactly.
	[ "$(promq value "$PPORT" "resets($g[10m])")" = 0 ]
	v=$(promq increase "$PPORT" "$g")
	echo "increase() over the run: $v (want 1554; samples, seconds)" >&2
	[ "${v%% *}" = 1554 ]
	[ "$(promq value "$PPORT" 'ktop_remote_write_dropped_samples_total')" = 0 ]
	[ "$(promq value "$PPORT" 'ktop_lost_events_total')" = 0 ]
	[ ! -s "$OUT" ]
}

@test "remote write: a receiver black-holing connections never delays a refresh; the queue holds on" {
	need_tracing
	local port gap
	# A listener whose accept queue is full and never drained: the kernel drops
	# the SYNs of further connections, as a firewall that black-holes them.
	"$PY" - "$BATS_TEST_TMPDIR/hole" <<-'EOF' &
	import socket, sys, time
	s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(0)
	fill = []
	for i in range(4):
	    c = socket.socket(); c.setblocking(False)
	    try:
	        c.connect(s.getsockname())
	    except BlockingIOError:
	        pass
	    fill.append(c)
	open(sys.argv[1], "w").write("%d\n" % s.getsockname()[1])
	time.sleep(120)
	EOF
	track $!
	wait_for_file "$BATS_TEST_TMPDIR/hole" 10
	port=$(cat "$BATS_TEST_TMPDIR/hole")
	sleep 1
	start_ktop "$OUT" -b --csv -o pid -p 1 -d 0.2 --remote-write "http://127.0.0.1:$port/write" \
		--listen 127.0.0.1:0
	# 35 refreshes (7 s) and a connect timed out (5 s): what is checked below
	wait_for_lines "$OUT" 37 30
	wait_for_match "$OUT.err" "Connection timed out|Timeout was reached" 30
	kill -TERM "$KPID"
	wait "$KPID" || true
	# refreshes every 0.2 s while connects hang (libcurl's 5 s connect timeout)
	gap=$(awk -F, 'NR > 2 { if (p && $1 - p > m) m = $1 - p; p = $1 } NR == 2 { p = $1 }
		END { printf "%.3f\n", m }' "$OUT")
	echo "longest time between refreshes: $gap s (every 0.2 s); $(grep -c . "$OUT") rows" >&2
	awk -v g="$gap" 'BEGIN { exit !(g > 0.1 && g < 1.0) }'
	(($(grep -c . "$OUT") >= 35))
	grep -q "Connection timed out\|Timeout was reached" "$OUT.err"
}

@test "remote write: a 400 is dropped and said once, never retried; the dropped samples are counted" {
	need_tracing
	local port
	port=$(promq freeport)
	"$PY" - "$port" "$BATS_TEST_TMPDIR/reqs" <<-'EOF' &
	import http.server, sys
	class H(http.server.BaseHTTPRequestHandler):
	    def do_POST(self):
	        n = int(self.headers["Content-Length"])
	        self.rfile.read(n)
	        with open(sys.argv[2], "a") as f:
	            f.write("%s %s %s\n" % (self.headers["Content-Encoding"], self.headers["Content-Type"],
	                                    self.headers["X-Prometheus-Remote-Write-Version"]))
	        self.send_response(400)
	        self.end_headers()
	        self.wfile.write(b"bad things\n")
	    def log_message(self, *a):
	        pass
	http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H).serve_forever()
	EOF
	track $!
	sleep 0.5
	start_ktop "$OUT" -b -d 0.3 --listen "127.0.0.1:0" --remote-write "http://127.0.0.1:$port/write"
	# one request per refresh (4 of them), none retried
	wait_for_lines "$BATS_TEST_TMPDIR/reqs" 4 20
	n=$(wc -l <"$BATS_TEST_TMPDIR/reqs")
	echo "$n requests" >&2
	((n >= 4))
	[ "$(sort -u "$BATS_TEST_TMPDIR/reqs")" = "snappy application/x-protobuf 0.1.0" ]
	[ "$(grep -c 'HTTP 400' "$OUT.err")" = 1 ]
	grep -q 'not retried: bad things' "$OUT.err"
}

# rw_receiver PORT LOG [CERT KEY]: an HTTP (or HTTPS) receiver answering 204,
# one line per request in LOG: Authorization, X-Scope-OrgID, Content-Encoding;
# returns once it listens.
rw_receiver() {
	"$PY" - "$@" <<-'EOF' &
	import http.server, ssl, sys
	class H(http.server.BaseHTTPRequestHandler):
	    def do_POST(self):
	        self.rfile.read(int(self.headers["Content-Length"]))
	        with open(sys.argv[2], "a") as f:
	            f.write("%s|%s|%s\n" % (self.headers["Authorization"], self.headers["X-Scope-OrgID"],
	                                    self.headers["Content-Encoding"]))
	        self.send_response(204)
	        self.end_headers()
	    def log_message(self, *a):
	        pass
	srv = http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), H)
	if len(sys.argv) > 3:
	    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
	    ctx.load_cert_chain(sys.argv[3], sys.argv[4])
	    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
	open(sys.argv[2] + ".ready", "w").write("1\n")
	srv.serve_forever()
	EOF
	track $!
	wait_for_file "$2.ready" 10
}

@test "remote write: HTTPS with --remote-write-ca, a header, a bearer token read at each push, basic auth; another CA is refused" {
	need_tracing
	need openssl
	local d="$BATS_TEST_TMPDIR" port i
	make_certs "$d"
	port=$(promq freeport)
	rw_receiver "$port" "$d/reqs" "$d/server.crt" "$d/server.key"
	printf 'tok-one\n' >"$d/token"
	start_ktop "$OUT" -b -d 0.3 --remote-write "https://127.0.0.1:$port/write" --remote-write-ca "$d/ca.crt" \
		--remote-write-header 'X-Scope-OrgID: tenant-1' --remote-write-bearer-token-file "$d/token"
	wait_for_file "$d/reqs" 15
	# rotated: the next pushes carry the new one
	printf 'tok-two\n' >"$d/token.new"
	mv "$d/token.new" "$d/token"
	for ((i = 0; i < 50; i++)); do
		grep -q '^Bearer tok-two|' "$d/reqs" && break
		sleep 0.1
	done
	kill -TERM "$KPID"
	wait "$KPID" || true
	cat "$d/reqs" >&2
	grep -q '^Bearer tok-one|tenant-1|snappy$' "$d/reqs"
	grep -q '^Bearer tok-two|tenant-1|snappy$' "$d/reqs"
	# never the old one after the new
	[ "$(awk -F'|' '$1 == "Bearer tok-two" { s = 1 } s && $1 != "Bearer tok-two" { n++ } END { print n + 0 }' "$d/reqs")" = 0 ]
	if grep -q 'retrying' "$OUT.err"; then cat "$OUT.err" >&2; return 1; fi

	# basic auth from a file
	: >"$d/reqs"
	printf 's3cret\n' >"$d/pass"
	start_ktop "$OUT" -b -d 0.3 --remote-write "https://127.0.0.1:$port/write" --remote-write-ca "$d/ca.crt" \
		--remote-write-user alice --remote-write-password-file "$d/pass"
	wait_for_file "$d/reqs" 15
	kill -TERM "$KPID"
	wait "$KPID" || true
	grep -q "^Basic $(printf alice:s3cret | base64)|None|snappy$" "$d/reqs"

	# a CA that did not sign the receiver's certificate: nothing sent, said, retried
	mkdir "$d/other"
	make_certs "$d/other"
	: >"$d/reqs"
	start_ktop "$OUT" -b -d 0.3 --remote-write "https://127.0.0.1:$port/write" --remote-write-ca "$d/other/ca.crt"
	for ((i = 0; i < 50; i++)); do
		grep -q "retrying" "$OUT.err" && break
		sleep 0.1
	done
	sleep 1
	kill -TERM "$KPID"
	wait "$KPID" || true
	cat "$OUT.err" >&2
	grep -q "retrying" "$OUT.err"
	grep -qi "certificate" "$OUT.err"
	[ ! -s "$d/reqs" ]
}

# ---------------------------------------------------------------- --web-config

# make_certs DIR: a CA, and a server certificate of it for 127.0.0.1 and localhost.
make_certs() {
	local d=$1
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$d/ca.key" -out "$d/ca.crt" -days 2 \
		-subj /CN=ktop-test-ca 2>/dev/null
	openssl req -newkey rsa:2048 -nodes -keyout "$d/server.key" -out "$d/server.csr" \
		-subj /CN=localhost 2>/dev/null
	printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$d/ext"
	openssl x509 -req -in "$d/server.csr" -CA "$d/ca.crt" -CAkey "$d/ca.key" -CAcreateserial \
		-out "$d/server.crt" -days 2 -extfile "$d/ext" 2>/dev/null
}

bcrypt() {
	"$PY" -W ignore -c 'import crypt, sys
print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))' "$1"
}

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

@test "listen: an address beyond this host without --web-config is a one-line warning naming it" {
	run --separate-stderr "$KTOP" -b --no-trace -n 1 --listen 0.0.0.0:0
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"warning: --listen 0.0.0.0:0 serves the metrics beyond this host"*"--web-config"* ]]
	[ "$(printf '%s\n' "$stderr" | wc -l)" = 1 ]
	run --separate-stderr "$KTOP" -b --no-trace -n 1 --listen 127.0.0.1:0
	[ -z "$stderr" ]
}

# ---------------------------------------------------------------- gzip

@test "gzip: Accept-Encoding: gzip gets the same page compressed; promtool accepts it" {
	need curl
	need promtool prometheus
	local kp d="$BATS_TEST_TMPDIR" i
	kp=$(promq freeport)
	# refreshes far apart: both requests see one model state
	start_ktop "$OUT" -b -d 30 --listen "127.0.0.1:$kp"
	wait_serving "$kp"
	for ((i = 0; i < 3; i++)); do
		curl -s -D "$d/h" -H 'Accept-Encoding: gzip' -o "$d/page.gz" "http://127.0.0.1:$kp/metrics"
		curl -s -o "$d/page" "http://127.0.0.1:$kp/metrics"
		gzip -dc <"$d/page.gz" >"$d/page.unz"
		cmp -s "$d/page" "$d/page.unz" && break
	done
	grep -qi '^content-encoding: gzip' "$d/h"
	grep -qi '^vary: accept-encoding' "$d/h"
	cmp "$d/page" "$d/page.unz"
	echo "$(stat -c %s "$d/page") bytes, gzip $(stat -c %s "$d/page.gz")" >&2
	(($(stat -c %s "$d/page.gz") * 3 < $(stat -c %s "$d/page")))
	run promtool check metrics <"$d/page.unz"
	echo "$output"
	[ "$status" -eq 0 ]
	# gzip refused by q=0: plain
	curl -s -D "$d/h2" -H 'Accept-Encoding: gzip;q=0' -o /dev/null "http://127.0.0.1:$kp/metrics"
	if grep -qi '^content-encoding' "$d/h2"; then return 1; fi
}

# ---------------------------------------------------------------- socket activation

@test "systemd: --listen systemd serves the socket passed (LISTEN_FDS), and says when there is none" {
	need systemd-socket-activate systemd
	need curl
	local kp
	kp=$(promq freeport)
	systemd-socket-activate -l "127.0.0.1:$kp" "$KTOP" -b --no-trace -d 0.3 --listen systemd \
		</dev/null >"$OUT" 2>"$OUT.err" 3>&- &
	track $!
	wait_serving "$kp"
	grep -q '^ktop_refreshes_total ' <(curl -s "http://127.0.0.1:$kp/metrics")
	run --separate-stderr "$KTOP" -b --no-trace --listen systemd
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"no socket passed"* ]]
}

# ---------------------------------------------------------------- the two holes

@test "slowloris: 8 connections trickling a header line every 8 s from one address; a scrape each second always answers" {
	need curl
	local kp i ok=0 fail=0 code
	kp=$(promq freeport)
	start_ktop "$OUT" -b --no-trace -d 0.5 --listen "127.0.0.1:$kp"
	wait_serving "$kp"
	"$PY" - "$kp" 24 <<-'EOF' &
	import socket, sys, time
	port, end = int(sys.argv[1]), time.time() + float(sys.argv[2])
	conns = []
	def opened():
	    s = socket.create_connection(("127.0.0.1", port))
	    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: x\r\n")
	    return s
	while time.time() < end:
	    conns = [c for c in conns if c.fileno() >= 0]
	    while len(conns) < 8:
	        conns.append(opened())
	    time.sleep(8)
	    for c in conns:
	        try:
	            c.sendall(b"X-Slow: 1\r\n")
	        except OSError:
	            c.close()
	EOF
	track $!
	sleep 1
	for ((i = 0; i < 20; i++)); do
		code=$(curl -s -m 2 -o /dev/null -w '%{http_code}' "http://127.0.0.1:$kp/metrics" || true)
		if [ "$code" = 200 ]; then ok=$((ok + 1)); else fail=$((fail + 1)); echo "scrape $i: $code" >&2; fi
		sleep 1
	done
	echo "$ok answered, $fail not" >&2
	[ "$fail" = 0 ]
}

@test "slots: 300 short-lived unique names with --metrics-max-series 200; a new command gets its own series within the expiry" {
	need_tracing
	need_program pgrep procps
	local kp i name="kxnew$$" v t0 gate="$BATS_TEST_TMPDIR/gate" gfd
	kp=$(promq freeport)
	start_ktop "$OUT" -b -d 0.5 --listen "127.0.0.1:$kp" --metrics-max-series 200 --metrics-expire 8
	wait_serving "$kp"
	# 300 uniquely named processes that live until the gate closes (EOF on a
	# FIFO the test holds open): every slot stays taken for as long as the
	# test looks, however slowly they start, and they all end at once.
	mkfifo "$gate"
	exec {gfd}<>"$gate"
	for ((i = 0; i < 300; i++)); do
		bash -c 'printf "u%s-%s" "$1" "$$" >/proc/$$/comm; read -r _' _ "$i" <"$gate" {gfd}>&- 3>&- &
		track $!
	done
	for ((i = 0; i < 600; i++)); do
		[ "$(pgrep -c '^u[0-9]+-[0-9]')" = 300 ] && break
		sleep 0.1
	done
	[ "$(pgrep -c '^u[0-9]+-[0-9]')" = 300 ]
	promq_metric() { awk -v m="$1" '$1 == m { print $2 }' "$BATS_TEST_TMPDIR/full.prom"; }
	for ((i = 0; i < 60; i++)); do
		curl -s "http://127.0.0.1:$kp/metrics" >"$BATS_TEST_TMPDIR/full.prom"
		v=$(promq_metric ktop_metrics_dropped_groups)
		[ "${v:-0}" -gt 0 ] && break
		sleep 0.25
	done
	bash -c 'printf "%s" "$1" >/proc/$$/comm; while :; do sleep 0.2; done' _ "$name" {gfd}>&- 3>&- &
	track $!
	# two refreshes at least: ktop has seen it
	v=$(promq_metric ktop_refreshes_total)
	for ((i = 0; i < 60; i++)); do
		curl -s "http://127.0.0.1:$kp/metrics" >"$BATS_TEST_TMPDIR/full.prom"
		(($(promq_metric ktop_refreshes_total) >= v + 3)) && break
		sleep 0.25
	done
	# The hole: every slot taken, the new command hides in other.
	v=$(promq_metric ktop_metrics_dropped_groups)
	echo "folded into other: $v" >&2
	((v > 0))
	if grep -q "^ktop_processes{comm=\"$name\"}" "$BATS_TEST_TMPDIR/full.prom"; then return 1; fi
	# The unique names end; 8 s later they expire, and the new name has a series.
	exec {gfd}>&-
	for ((i = 0; i < 100; i++)); do
		[ "$(pgrep -c '^u[0-9]+-[0-9]')" = 0 ] && break
		sleep 0.1
	done
	t0=$(date +%s.%N)
	for ((i = 0; i < 80; i++)); do
		curl -s "http://127.0.0.1:$kp/metrics" >"$BATS_TEST_TMPDIR/now.prom"
		grep -q "^ktop_processes{comm=\"$name\"} 1" "$BATS_TEST_TMPDIR/now.prom" && break
		sleep 0.25
	done
	echo "its own series $(awk -v t="$t0" -v n="$(date +%s.%N)" 'BEGIN { printf "%.1f", n - t }') s after the 300 ended (expiry 8 s)" >&2
	grep -q "^ktop_processes{comm=\"$name\"} 1" "$BATS_TEST_TMPDIR/now.prom"
	# and every one of the 300 leaves (those whose last tick came later, a little later)
	for ((i = 0; i < 20; i++)); do
		curl -s "http://127.0.0.1:$kp/metrics" >"$BATS_TEST_TMPDIR/now.prom"
		grep -q '^ktop_processes{comm="u[0-9]*-' "$BATS_TEST_TMPDIR/now.prom" || break
		sleep 0.25
	done
	if grep -q '^ktop_processes{comm="u[0-9]*-' "$BATS_TEST_TMPDIR/now.prom"; then return 1; fi
}

@test "other: a process named other is [other], not the overflow" {
	need_tracing
	local kp
	kp=$(promq freeport)
	start_ktop "$OUT" -b -d 0.3 --listen "127.0.0.1:$kp"
	wait_serving "$kp"
	bash -c 'printf other >/proc/$$/comm; sleep 1; :'
	wait_refreshes 2 "http://127.0.0.1:$kp/metrics"
	curl -s "http://127.0.0.1:$kp/metrics" >"$BATS_TEST_TMPDIR/p"
	grep -q '^ktop_processes{comm="\[other\]"}' "$BATS_TEST_TMPDIR/p"
	if grep -q '{comm="other"' "$BATS_TEST_TMPDIR/p"; then return 1; fi
}

# ---------------------------------------------------------------- hidepid

@test "hidepid: an unauthenticated --listen, a --textfile or a --remote-write is refused where /proc hides pids, unless --expose-hidepid" {
	need unshare util-linux
	[ "$(id -u)" -eq 0 ] || skip "needs root: a /proc of its own in a new mount namespace"
	# A procfs instance of its own (new pid and mount namespaces): the host's is untouched.
	run --separate-stderr unshare -m -p -f sh -c 'mount -t proc -o hidepid=2 proc /proc &&
		exec "$0" -b --no-trace -n 1 --listen 127.0.0.1:0' "$KTOP"
	echo "$status $stderr"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"mounted with hidepid="*"--listen without basic auth"*"--expose-hidepid"* ]]
	run --separate-stderr unshare -m -p -f sh -c 'mount -t proc -o hidepid=2 proc /proc &&
		exec "$0" -b --no-trace -n 1 --textfile "$1"' "$KTOP" "$BATS_TEST_TMPDIR"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--textfile (0644)"* ]]
	run --separate-stderr unshare -m -p -f sh -c 'mount -t proc -o hidepid=2 proc /proc &&
		exec "$0" -b --no-trace -n 1 --remote-write http://127.0.0.1:1/write' "$KTOP"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"--remote-write would show every user"* ]]
	run --separate-stderr unshare -m -p -f sh -c 'mount -t proc -o hidepid=2 proc /proc &&
		exec "$0" -b --no-trace -n 1 --listen 127.0.0.1:0 --expose-hidepid' "$KTOP"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"mounted with hidepid="* ]]
	# without hidepid: nothing said
	run --separate-stderr "$KTOP" -b --no-trace -n 1 --listen 127.0.0.1:0
	[ -z "$stderr" ]
}
