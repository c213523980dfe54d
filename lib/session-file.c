// SPDX-License-Identifier: LGPL-2.1
/*
 * Session input 1: trace.dat files, through the reader (gpulat-read.h and
 * its fast paths read-zstd.c, read-merge.c, read-drop.c, unchanged behind it).
 * The reader opens, validates and merges the files and feeds the session's
 * tracker; this file turns the reader's results into the session's counts
 * and its failures into the session's messages.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "gpulat-read.h"
#include "session-int.h"

/**
 * gpulat_session_add_file - read @path at gpulat_session_run()
 * @s: session
 * @path: a trace.dat file (copied)
 *
 * Return: 0, -EBUSY (a run or push began), -ENOMEM.
 */
int gpulat_session_add_file(struct gpulat_session *s, const char *path)
{
	struct sfile *v;

	if (!path)
		return -EINVAL;
	if (s->started || s->own_bind)
		return -EBUSY;
	v = realloc(s->files, ((size_t)s->nfiles + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->files = v;
	memset(&v[s->nfiles], 0, sizeof(v[s->nfiles]));
	v[s->nfiles].path = gpulat_session_intern(s, path);
	if (!v[s->nfiles].path)
		return -ENOMEM;
	s->nfiles++;
	return 0;
}

static void close_reader(struct gpulat_session *s)
{
	gpulat_reader_close(s->reader);
	s->reader = NULL;
}

static void reader_warn(const char *msg, void *data)
{
	gpulat__session_msg(data, GPULAT_MSG_WARN, "%s", msg);
}

static int reader_hook(const struct gpulat_event *ev, struct tep_record *rec, int file,
		       void *data)
{
	struct gpulat_session *s = data;
	int ret;

	/* listeners' event() may ask for the event's job (gpulat_session_last_job) */
	s->cur_ev = ev;
	s->have_last_ev = true;
	ret = gpulat__session_event(s, ev, rec, file);
	s->cur_ev = NULL;
	return ret;
}

static void hint(struct gpulat_session *s)
{
	char buf[2048];

	gpulat_record_hint(buf, sizeof(buf));
	gpulat__session_msg(s, GPULAT_MSG_HINT, "%s", buf);
}

/* open and check: one error line (plus the record hint) on failure */
static int open_files(struct gpulat_session *s)
{
	const char **paths;
	char err[1024];
	int i, e;

	paths = calloc((size_t)s->nfiles, sizeof(*paths));
	if (!paths)
		return -ENOMEM;
	for (i = 0; i < s->nfiles; i++)
		paths[i] = s->files[i].path;
	/* the reader keeps the paths: they are the session's interned copies */
	s->reader = gpulat_reader_open(paths, s->nfiles, err, sizeof(err));
	e = errno;
	free(paths);
	if (!s->reader) {
		if (e == ENODATA) {
			/* one short line; the record lines follow, one per era */
			char *cut = strstr(err, "; record them");

			if (cut)
				*cut = '\0';
		}
		gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s", err);
		if (e == ENODATA)
			hint(s);
		return -e;
	}
	s->close_input = close_reader;
	gpulat_reader_set_warn(s->reader, reader_warn, s);
	gpulat_reader_set_threads(s->reader, s->o.threads);
	/* the diagnosis reads context records' fields (diag-ctx.c) */
	gpulat__reader_set_records(s->reader, s->ls_records || s->diag);
	for (i = 0; i < s->nfiles; i++) {
		struct sfile *f = &s->files[i];

		f->b = gpulat_reader_binding(s->reader, i);
		f->tep = gpulat_reader_tep(s->reader, i);
		f->cpus = gpulat_reader_cpus(s->reader, i);
		f->cpu_base = gpulat_reader_cpu_base(s->reader, i);
		f->clock = gpulat_reader_trace_clock(s->reader, i);
		if (f->clock)	/* the reader's copy goes with its handle */
			f->clock = gpulat__strtab_intern(s->str, f->clock);
		gpulat_binding_set_context(f->b, gpulat__session_wants_context(s));
	}
	s->c.cpus = gpulat_reader_cpus(s->reader, -1);

	/* jobs of different event layouts cannot be linked as one trace */
	for (i = 0; i < s->nfiles; i++) {
		enum gpulat_era era = gpulat_binding_era(s->files[i].b);
		enum gpulat_era first = gpulat_reader_era(s->reader);

		if (era == GPULAT_ERA_NONE || era == first)
			continue;
		gpulat__session_msg(s, GPULAT_MSG_ERROR,
				    "%s: incompatible layout: GPU events of kernel era %s, but "
				    "the other input has era %s (analyse them one by one, or use "
				    "--compare)", s->files[i].path, gpulat_era_name(era),
				    gpulat_era_name(first));
		return -EINVAL;
	}
	return 0;
}

/* the reader's counts are the session's; an input without GPU records is an error */
static int take_counts(struct gpulat_session *s)
{
	struct gpulat_reader_counts c;
	const char *what = s->nfiles == 1 ? s->files[0].path : "(all files)";
	int k;

	gpulat_reader_counts(s->reader, &c);
	gpulat_reader_span(s->reader, &s->c.first_ts, &s->c.last_ts);
	s->c.events = c.events;
	s->c.gpu_events = c.gpu_events;
	memcpy(s->kind, c.kind, sizeof(s->kind));
	s->c.lost_events = c.lost_events;
	s->c.lost_gaps = c.lost_gaps;
	s->c.damaged = c.damaged;

	if (!s->c.events || s->c.first_ts == GPULAT_NONE) {
		gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s: the trace holds no events at all "
				    "(empty recording)", s->files[0].path);
		hint(s);
		return -ENODATA;
	}
	for (k = 0; k < GPULAT_EV__COUNT && !(gpulat_kind_makes_jobs(k) && c.kind[k]); k++)
		;
	if (k == GPULAT_EV__COUNT) {
		gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s: no GPU scheduler events were "
				    "recorded (the trace has their formats but no records)", what);
		hint(s);
		return -ENODATA;
	}
	return 0;
}

/**
 * gpulat_session_run - read every file added, then finish the session
 * @s: session with at least one file
 *
 * Return: 0, or a negative errno after an error message.
 */
int gpulat_session_run(struct gpulat_session *s)
{
	char err[1024];
	int ret;

	if (s->started)
		return -EALREADY;
	if (!s->nfiles) {
		gpulat__session_msg(s, GPULAT_MSG_ERROR, "no trace file given");
		return -EINVAL;
	}
	/* ftrace text logs (and "-") go to the text reader */
	ret = gpulat__session_text_run(s);
	if (ret != 1)
		return ret;
	ret = open_files(s);
	if (ret < 0)
		return ret;
	/* the reader sets the tracker's era and signals from the files too */
	gpulat__session_configure(s, gpulat_reader_era(s->reader),
				  gpulat_reader_has_signals(s->reader));
	ret = gpulat_reader_run(s->reader, s->tracker, reader_hook, s, err, sizeof(err));
	if (ret < 0 || s->err) {
		if (ret < 0)
			gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s", err);
		else
			gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s: %s", s->files[0].path,
					    strerror(-s->err));
		return ret < 0 ? ret : s->err;
	}
	ret = take_counts(s);
	if (ret < 0)
		return ret;
	return gpulat__session_end(s);
}
