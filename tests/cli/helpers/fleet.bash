# The fleet tests' common part (fleet.bats, webconfig.bats, listen.bats):
# promq.py, a program or a skip, ktop serving, certificates and bcrypt hashes
# made for a test.

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
