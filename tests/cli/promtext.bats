#!/usr/bin/env bats
# The exporter's two formats against strict parsers, on a sample with hostile
# label values (tests/helpers/promsample.c, built by `make unit`): Prometheus's
# own `promtool check metrics` for the text format 0.0.4, and
# python3-prometheus-client's OpenMetrics parser (text_string_to_metric_families
# of prometheus_client.openmetrics.parser) for OpenMetrics 1.0.0; printed, and
# served over HTTP by src/httpd.c with the format chosen by the Accept header.

load helpers/common

PROMSAMPLE="$BATS_TEST_DIRNAME/../../build/tests/helpers/promsample"
PROM_ACCEPT='application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1'

setup() {
	need_built "$PROMSAMPLE"
	PIDFILE="$BATS_TEST_TMPDIR/pids"
	: >"$PIDFILE"
	OUT="$BATS_TEST_TMPDIR/out"
}

teardown() {
	common_teardown
}

need_promtool() {
	need_program promtool prometheus
}

need_client() {
	"$PY" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null ||
		skip_missing python3-prometheus-client "python3 module prometheus_client"
}

omcheck() {
	"$PY" "$HELPERS/omcheck.py" "$@"
}

@test "promtext: the text format passes promtool check metrics (lint included)" {
	need_promtool
	"$PROMSAMPLE" text 3 >"$OUT"
	run promtool check metrics <"$OUT"
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
}

@test "promtext: the text format reads back with prometheus_client's parser" {
	need_client
	"$PROMSAMPLE" text 3 >"$OUT"
	run omcheck text "$OUT"
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "promtext: OpenMetrics passes the strict parser, values read back, ends in # EOF" {
	need_client
	"$PROMSAMPLE" openmetrics 3 >"$OUT"
	run omcheck openmetrics "$OUT"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(tail -n 1 "$OUT")" = "# EOF" ]
	# counters: TYPE names the family, samples carry _total; UNIT in OpenMetrics only
	grep -qx '# TYPE ktop_syscalls counter' "$OUT"
	grep -qx '# UNIT ktop_cpu_seconds seconds' "$OUT"
	"$PROMSAMPLE" text 1 | grep -qx '# TYPE ktop_syscalls_total counter'
	if "$PROMSAMPLE" text 1 | grep -q '^# UNIT'; then return 1; fi
}

@test "promtext: served over HTTP, the format follows Accept" {
	need_client
	need_promtool
	"$PROMSAMPLE" serve 20 >"$BATS_TEST_TMPDIR/port" &
	track $!
	wait_for_file "$BATS_TEST_TMPDIR/port" 5
	port=$(cat "$BATS_TEST_TMPDIR/port")

	# Prometheus's Accept: OpenMetrics 1.0.0
	run omcheck fetch "$port" /metrics "$PROM_ACCEPT" "$OUT.om"
	[ "$status" -eq 0 ]
	[ "$output" = "200 application/openmetrics-text; version=1.0.0; charset=utf-8" ]
	run omcheck openmetrics "$OUT.om"
	echo "$output"
	[ "$status" -eq 0 ]

	# No Accept: the text format
	run omcheck fetch "$port" /metrics - "$OUT.txt"
	[ "$status" -eq 0 ]
	[ "$output" = "200 text/plain; version=0.0.4; charset=utf-8" ]
	run promtool check metrics <"$OUT.txt"
	echo "$output"
	[ "$status" -eq 0 ]

	run omcheck fetch "$port" /nothing - "$OUT.404"
	[ "$output" = "404 text/plain; charset=utf-8" ]
}
