// SPDX-License-Identifier: GPL-2.0-only
/*
 * Replay control (-r): the recording opened at --begin, and the live view's
 * keys that move in it (one interval back or on, a jump to a time), and
 * where the interval shown is. The intervals themselves come from the
 * replay source, through collect() (sources.c) like every other interval:
 * each reaches the sinks (sinks.c) that take a replayed one.
 */
#include <stdio.h>
#include <string.h>

#include "../lib/util.h"
#include "ktop.h"
#include "timearg.h"

int replay_start(struct ktop *k)
{
	char err[320];
	double first, last, t;
	int64_t seq;
	int rc;
	/* --follow and the live view read a file that may still grow. */
	struct replay_opts ro = { .follow = k->opt.follow || k->mode->screen };

	if (replay_open(k->opt.read, &ro, &k->replay, err, sizeof(err))) {
		fprintf(stderr, "ktop: %s\n", err);
		return -1;
	}
	if (k->opt.summary && !replay_first_session(k->replay)->event_counters) {
		fprintf(stderr, "ktop: --summary counts kernel events: %s was recorded without them\n",
			k->opt.read);
		return -1;
	}
	rc = replay_range(k->replay, &first, &last, err, sizeof(err));
	if (rc <= 0) {
		fprintf(stderr, "ktop: %s\n", rc ? err : "the recording shows no interval");
		return -1;
	}
	if (k->opt.end) {
		if (time_parse(k->opt.end, first, true, &k->replay_end)) {
			fprintf(stderr, "ktop: --end: '%s' is not a time (HH:MM[:SS], "
				"YYYY-MM-DD HH:MM[:SS], seconds since 1970)\n", k->opt.end);
			return -1;
		}
	}
	if (k->opt.begin) {
		if (time_parse(k->opt.begin, first, true, &t)) {
			fprintf(stderr, "ktop: --begin: '%s' is not a time (HH:MM[:SS], "
				"YYYY-MM-DD HH:MM[:SS], seconds since 1970)\n", k->opt.begin);
			return -1;
		}
		if (t > last + 5e-7 && !k->opt.follow) {
			fprintf(stderr, "ktop: --begin: the recording ends before it\n");
			return -1;
		}
		if (t > first && (replay_find_time(k->replay, t, &seq, err, sizeof(err)) < 0 ||
				  replay_seek(k->replay, seq, err, sizeof(err)))) {
			fprintf(stderr, "ktop: %s\n", err);
			return -1;
		}
	}
	return 0;
}

/* The model shows interval @seq (a jump): its baseline, then it. */
static void replay_show(struct ktop *k, int64_t seq)
{
	struct app *a = &k->app;

	if (replay_seek(k->replay, seq, k->replay_err, sizeof(k->replay_err)))
		return;
	k->replay_past_end = false;
	k->replay_jumped = true;
	if (!collect(k) && !k->replay_err[0])
		app_message(a, "interval %lld is not there", (long long)seq);
}

void replay_step(struct ktop *k, int dir)
{
	struct app *a = &k->app;
	int64_t seq;
	int rc;

	if (dir > 0) {
		if (!collect(k) && !k->replay_err[0])
			app_message(a, k->replay_past_end ? "--end: the last interval asked for" :
				    "the end of the recording (more shows as it is written)");
		return;
	}
	rc = replay_step_seq(k->replay, replay_seq(k->replay), -1, &seq, k->replay_err,
			     sizeof(k->replay_err));
	if (rc == 0)
		app_message(a, "the first interval of the recording");
	else if (rc > 0)
		replay_show(k, seq);
}

void replay_jump(struct ktop *k, const char *when)
{
	struct app *a = &k->app;
	double t;
	int64_t seq;

	if (time_parse(when, k->model.wall_s, false, &t)) {
		app_message(a, "'%.40s' is not a time: HH:MM[:SS], YYYY-MM-DD HH:MM[:SS]", when);
		return;
	}
	if (replay_find_time(k->replay, t, &seq, k->replay_err, sizeof(k->replay_err)) > 0) {
		a->message[0] = '\0';	/* an earlier complaint is answered */
		replay_show(k, seq);
		replay_position(k);
		/* Past either end it lands on the nearest interval: say so, not silently. */
		if (t > a->replay_last_s + 5e-7)
			app_message(a, "%.40s is after the recording's end: its last interval", when);
		else if (t < a->replay_first_s - 5e-7)
			app_message(a, "%.40s is before the recording's start: its first interval", when);
	}
}

void replay_position(struct ktop *k)
{
	struct app *a = &k->app;
	double first, last;
	int64_t s0, s1;
	char err[320];

	if (!k->replay || replay_range(k->replay, &first, &last, err, sizeof(err)) <= 0 ||
	    replay_find_time(k->replay, first, &s0, err, sizeof(err)) <= 0 ||
	    replay_find_time(k->replay, last, &s1, err, sizeof(err)) <= 0)
		return;
	a->replay_first_s = first;
	a->replay_last_s = last;
	a->replay_pos = replay_seq(k->replay) - s0 + 1;
	a->replay_n = s1 - s0 + 1;
	/* The flight recorder saved a trace.dat in the interval shown: its marker. */
	if (k->model.interval_s > 0 &&
	    replay_flight(k->replay, k->model.wall_s - k->model.interval_s, k->model.wall_s,
			  err, sizeof(err))) {
		char clean[sizeof(err)];

		sanitize_text(clean, sizeof(clean), err, strlen(err), a->utf8);
		app_message(a, "flight recorder: saved here %s", clean);
	}
}
