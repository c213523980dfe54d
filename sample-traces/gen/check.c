// SPDX-License-Identifier: LGPL-2.1
/*
 * Self-check of the simulation, independent of the code that produced it:
 * per ring the hardware is FIFO (done in run order, never before the previous
 * done), at most `credits` jobs are on the hardware at once, every stage
 * follows the previous one and a job runs only after its dependencies ended
 * (or, on a scheduled fence, ran).
 */
#include <stdlib.h>

#include "gen.h"

static void fail(const struct gen_sim *s, int j, const char *what)
{
	fprintf(stderr, "gpu-trace-gen: self-check failed (%s): job %d ring %s\n",
		what, j, s->sc->rings[s->jobs[j].ring].name);
	abort();
}

static void check_job(const struct gen_sim *s, int j)
{
	const struct gen_job *J = &s->jobs[j];
	int i;

	if (J->queue_ts == GEN_NONE)
		fail(s, j, "no queue");
	if (J->run_ts != GEN_NONE && J->run_ts < J->queue_ts)
		fail(s, j, "run before queue");
	if (J->done_ts != GEN_NONE && (J->run_ts == GEN_NONE || J->done_ts < J->run_ts))
		fail(s, j, "done before run");
	if (J->signal_ts != GEN_NONE && J->signal_ts < J->done_ts)
		fail(s, j, "signal before done");
	for (i = 0; i < J->ndeps && J->run_ts != GEN_NONE; i++) {
		const struct gen_job *d = &s->jobs[J->deps[i]];

		/* a scheduled fence: after the producer ran; else after it ended */
		uint64_t ready = (J->dep_sched & (1u << i)) ? d->run_ts : d->done_ts;

		if (ready == GEN_NONE || ready > J->run_ts)
			fail(s, j, "ran before its dependency");
	}
}

/* walk the ring's jobs in run order: FIFO completion and the credit limit */
static void check_ring(const struct gen_sim *s, int r, int *order, int n)
{
	int credits = s->sc->rings[r].credits;
	uint64_t prev_done = 0;
	int i, k, m = 0;

	for (i = 0; i < s->njobs; i++)
		if (s->jobs[i].ring == r && s->jobs[i].run_ts != GEN_NONE)
			order[m++] = i;
	/* insertion sort by run time (already nearly sorted) */
	for (i = 1; i < m; i++)
		for (k = i; k > 0 && s->jobs[order[k]].run_ts < s->jobs[order[k - 1]].run_ts; k--) {
			int t = order[k];

			order[k] = order[k - 1];
			order[k - 1] = t;
		}
	for (i = 0; i < m; i++) {
		const struct gen_job *J = &s->jobs[order[i]];
		int on_hw = 0;

		if (J->done_ts != GEN_NONE) {
			if (J->done_ts < prev_done)
				fail(s, order[i], "hardware not FIFO");
			prev_done = J->done_ts;
		} else {
			prev_done = GEN_NONE;	/* later jobs cannot complete */
		}
		/* jobs run before J and not done when J ran, plus J */
		for (k = i; k >= 0 && k > i - 4 * credits - 4; k--) {
			const struct gen_job *P = &s->jobs[order[k]];

			if (P->done_ts == GEN_NONE || P->done_ts > J->run_ts)
				on_hw++;
		}
		if (on_hw > credits)
			fail(s, order[i], "credit limit exceeded");
	}
	(void)n;
}

void gen_sim_check(const struct gen_sim *s)
{
	int *order = malloc(sizeof(int) * (s->njobs + 1));
	int i;

	if (!order)
		abort();
	for (i = 0; i < s->njobs; i++)
		check_job(s, i);
	for (i = 0; i < s->sc->nrings; i++)
		check_ring(s, i, order, s->njobs);
	free(order);
}
