// SPDX-License-Identifier: LGPL-2.1
/*
 * hostile_stalls: --explain on a trace with more stalls than are kept.
 *
 *   hostile_stalls TRACE.dat MAX_RSS_MB
 *
 * Runs a session with GPULAT_FEAT_EXPLAIN and a 1 ns stall threshold (every
 * gap is a stall) over TRACE (a generated trace with thousands of jobs) and
 * checks: more stalls than GPULAT_STALLS_KEPT (4096) were found (else the
 * trace is too small to test anything); the cap was said in ONE warning;
 * every stall the statistics keep (the ones reports list) has its own
 * explanation; the diagnosis kept at most 4096 (gpulat_diag_stalls_dropped
 * says how many it did not); the peak RSS stays under MAX_RSS_MB (before the
 * cap: 65536 explanations of ~2.2 KB, ~140 MB, kept whatever their length).
 * MAX_RSS_MB 0 skips the memory check: under ASan the peak RSS is mostly
 * shadow memory and the allocator's quarantine, not the diagnosis.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "gpulat-diag.h"
#include "gpulat-session.h"

#define KEPT 4096

static unsigned int cap_warnings;

static void on_msg(enum gpulat_msg_level level, const char *text, void *data)
{
	(void)data;
	if (level == GPULAT_MSG_WARN && strstr(text, "stalls") && strstr(text, "explanations"))
		cap_warnings++;
	fprintf(stderr, "hostile_stalls: %s%s", text, level == GPULAT_MSG_HINT ? "" : "\n");
}

int main(int argc, char **argv)
{
	struct gpulat_session_opts o;
	const struct gpulat_stats *st;
	struct gpulat_session *s;
	struct gpulat_diag *d;
	struct rusage ru;
	size_t i, n, missing = 0;
	uint64_t total, dropped;
	long max_mb;
	int fails = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: hostile_stalls TRACE.dat MAX_RSS_MB\n");
		return 2;
	}
	max_mb = atol(argv[2]);
	gpulat_session_opts_init(&o);
	o.features = GPULAT_FEAT_EXPLAIN;
	o.stall_threshold_ns = 1;
	o.msg = on_msg;
	s = gpulat_session_new(&o);
	if (!s || gpulat_session_add_file(s, argv[1]) < 0 || gpulat_session_run(s) < 0) {
		fprintf(stderr, "hostile_stalls: %s: the session failed\n", argv[1]);
		return 1;
	}
	st = gpulat_session_stats(s);
	d = gpulat_session_diag(s);
	total = gpulat_stats_stalls_total(st);
	n = gpulat_stats_nstalls(st);
	dropped = gpulat_diag_stalls_dropped(d);
	if (total <= KEPT) {
		fprintf(stderr, "FAIL: only %" PRIu64 " stalls, the trace is too small\n", total);
		fails++;
	}
	if (n != KEPT) {
		fprintf(stderr, "FAIL: statistics keep %zu stalls, expected %d\n", n, KEPT);
		fails++;
	}
	for (i = 0; i < n; i++)
		if (!gpulat_diag_stall_explain(d, gpulat_stats_stall(st, i)))
			missing++;
	if (missing) {
		fprintf(stderr, "FAIL: %zu of the %zu listed stalls have no explanation\n", missing,
			n);
		fails++;
	}
	if (!dropped || cap_warnings != 1) {
		fprintf(stderr,
			"FAIL: %" PRIu64 " explanations dropped, %u cap warnings (want >0, 1)\n",
			dropped, cap_warnings);
		fails++;
	}
	gpulat_session_free(s);
	getrusage(RUSAGE_SELF, &ru);
	if (max_mb && ru.ru_maxrss / 1024 > max_mb) {
		fprintf(stderr, "FAIL: peak RSS %ld MB > %ld MB\n", ru.ru_maxrss / 1024, max_mb);
		fails++;
	}
	printf("hostile_stalls: %" PRIu64 " stalls, %zu listed, all explained: %s; %" PRIu64
	       " explanations not kept; peak RSS %ld MB (bound %ld)\n",
	       total, n, missing ? "no" : "yes", dropped, ru.ru_maxrss / 1024, max_mb);
	return fails ? 1 : 0;
}
