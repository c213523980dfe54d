// SPDX-License-Identifier: LGPL-2.1
/*
 * Session input 1b: an ftrace text log given as a file (or "-" for stdin).
 * gpulat_session_run() asks here first; a text input is read by the text
 * reader (read-text.c) into the session's tracker, diagnosis and listeners
 * (records are NULL), so every report, filter, gate and export works on it
 * as on a trace.dat.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpulat-text.h"
#include "session-int.h"

static const char trace_magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };

/* is @path text? ("-" always: only text can be streamed) */
static bool is_text(const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd;

	if (!strcmp(path, "-"))
		return true;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;	/* the trace.dat reader names the problem */
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return false;
	if ((size_t)n >= sizeof(trace_magic) && !memcmp(buf, trace_magic, sizeof(trace_magic)))
		return false;
	/*
	 * Text that is no ftrace log goes to the text reader too, for its
	 * clearer error ("not a trace-cmd data file nor an ftrace text log");
	 * anything with a NUL byte is left to the trace.dat reader.
	 */
	return gpulat_text_probe(buf, (size_t)n) || !memchr(buf, '\0', (size_t)n);
}

static void close_text(struct gpulat_session *s)
{
	gpulat_text_close(s->text);
	s->text = NULL;
}

static void text_warn(const char *msg, void *data)
{
	gpulat__session_msg(data, GPULAT_MSG_WARN, "%s", msg);
}

static void text_start(enum gpulat_era era, bool signals, void *data)
{
	gpulat__session_configure(data, era, signals);
}

static int text_hook(const struct gpulat_event *ev, struct tep_record *rec, int file,
		     void *data)
{
	return gpulat__session_event(data, ev, rec, file);
}

static void hint(struct gpulat_session *s)
{
	char buf[2048];

	gpulat_record_hint(buf, sizeof(buf));
	gpulat__session_msg(s, GPULAT_MSG_HINT, "%s", buf);
}

/* the text reader's counts are the session's; no GPU job event is an error */
static int take_counts(struct gpulat_session *s, const struct gpulat_text_info *in)
{
	int k;

	s->c.events = in->events;
	s->c.gpu_events = in->gpu_events;
	memcpy(s->kind, in->kind, sizeof(s->kind));
	s->c.lost_events = in->lost_events;
	s->c.lost_gaps = in->lost_gaps;
	s->c.damaged = in->bad_args;
	s->c.first_ts = in->first_ts;
	s->c.last_ts = in->last_ts;
	s->c.cpus = in->cpus;
	s->files[0].cpus = in->cpus;
	/* the kinds that make jobs are those of the binary reader (i915 too) */
	for (k = 0; k < GPULAT_EV__COUNT && !(gpulat_kind_makes_jobs(k) && in->kind[k]); k++)
		;
	if (k == GPULAT_EV__COUNT) {
		gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s: no GPU scheduler job events in this "
				    "log (only dma_fence or other events)", s->files[0].path);
		hint(s);
		return -ENODATA;
	}
	return 0;
}

/**
 * gpulat__session_text_run - read the session's input if it is a text log
 * @s: session about to run
 *
 * Return: 1 when the inputs are no text (the trace.dat reader takes them),
 * else what gpulat_session_run() returns.
 */
int gpulat__session_text_run(struct gpulat_session *s)
{
	struct gpulat_text_info info;
	char err[1024];
	int i, k = -1, ret;

	for (i = 0; i < s->nfiles && k < 0; i++)
		if (is_text(s->files[i].path))
			k = i;
	if (k < 0)
		return 1;
	if (s->nfiles > 1) {
		/* the text input's own problem first, if it has one */
		struct gpulat_text *x = gpulat_text_open(s->files[k].path, err, sizeof(err));

		if (!x) {
			ret = -errno;
			gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s", err);
			return ret;
		}
		gpulat_text_close(x);
		gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s: a text log is read alone (trace.dat "
				    "files can be merged, text logs cannot); analyse it by itself",
				    s->files[k].path);
		return -EINVAL;
	}
	s->text = gpulat_text_open(s->files[0].path, err, sizeof(err));
	if (!s->text) {
		ret = -errno;
		gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s", err);
		return ret;
	}
	s->close_input = close_text;
	gpulat_text_set_warn(s->text, text_warn, s);
	gpulat_text_set_context(s->text, gpulat__session_wants_context(s));
	gpulat_text_set_start(s->text, text_start, s);
	ret = gpulat_text_run(s->text, s->tracker, text_hook, s, err, sizeof(err));
	if (ret < 0 || s->err) {
		if (ret < 0)
			gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s", err);
		else
			gpulat__session_msg(s, GPULAT_MSG_ERROR, "%s: %s", s->files[0].path,
					    strerror(-s->err));
		if (ret == -ENODATA && strstr(err, "no GPU scheduler events"))
			hint(s);
		return ret < 0 ? ret : s->err;
	}
	gpulat_text_info(s->text, &info);
	ret = take_counts(s, &info);
	if (ret < 0)
		return ret;
	return gpulat__session_end(s);
}

int gpulat_text_session_info(const struct gpulat_session *s, struct gpulat_text_info *info)
{
	if (!s || !s->text)
		return -ENOENT;
	gpulat_text_info(s->text, info);
	return 0;
}

const char *gpulat_text_resolution(uint64_t ns, char *buf, size_t len)
{
	if (ns >= 1000000 && ns % 1000000 == 0)
		snprintf(buf, len, "%llu ms", (unsigned long long)(ns / 1000000));
	else if (ns >= 1000 && ns % 1000 == 0)
		snprintf(buf, len, "%llu us", (unsigned long long)(ns / 1000));
	else
		snprintf(buf, len, "%llu ns", (unsigned long long)ns);
	return buf;
}
