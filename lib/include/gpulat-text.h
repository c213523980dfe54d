/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat text reader: ftrace text logs -> the same struct gpulat_event stream
 * the trace.dat reader produces.
 *
 * Accepted: the tracefs `trace` / `trace_pipe` layout (with or without the
 * "# tracer:" header, with or without the irq-info columns, the TGID column,
 * `latency-format`), and `trace-cmd report` output (with or without our
 * plugin loaded; -t nanosecond timestamps), also cut down by grep.
 *
 *   x = gpulat_text_open("trace.log", err, sizeof(err));     "-" is stdin
 *   gpulat_text_run(x, tracker, hook, data, err, sizeof(err));
 *   gpulat_text_info(x, &info);
 *   gpulat_text_close(x);
 *
 * Streaming: memory is a read buffer, a bounded look-ahead (the era is
 * decided from the first GPU events) and the tracker's jobs in flight.
 */
#ifndef _GPULAT_TEXT_H
#define _GPULAT_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpulat.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gpulat_text;
struct tep_record;

enum gpulat_text_layout {
	GPULAT_TEXT_UNKNOWN = 0,
	GPULAT_TEXT_TRACEFS,	/* tracefs trace / trace_pipe */
	GPULAT_TEXT_LATENCY,	/* tracefs with the latency-format option */
	GPULAT_TEXT_REPORT,	/* trace-cmd report */
};

/**
 * gpulat_text_probe - does this look like an ftrace text log?
 * @buf: the first bytes of the input
 * @len: how many (a few KiB are enough)
 *
 * Return: true for ftrace / trace-cmd report text. A trace.dat is not text.
 */
bool gpulat_text_probe(const void *buf, size_t len);

/**
 * gpulat_text_open - open a text log
 * @path: the file, "-" for standard input
 * @err: on failure one line naming the file and the problem: not an ftrace
 *	text log, a log of another tracer (function_graph), unreadable
 * @errlen: its size
 *
 * Return: the reader, or NULL with errno set and @err filled.
 */
struct gpulat_text *gpulat_text_open(const char *path, char *err, size_t errlen);
/* the same on an open descriptor (not closed by gpulat_text_close()) */
struct gpulat_text *gpulat_text_open_fd(int fd, const char *label, char *err, size_t errlen);
/*
 * A live stream (a pipe from trace_pipe or `trace-cmd stream`): the same, but
 * decided on the first complete lines instead of the first 64 KiB, so a slow
 * stream is not waited for. Blocks until those lines came.
 */
struct gpulat_text *gpulat_text_open_stream(int fd, const char *label, char *err, size_t errlen);
void gpulat_text_close(struct gpulat_text *x);

void gpulat_text_set_warn(struct gpulat_text *x, gpulat_warn_fn fn, void *data);
/* decode the irq/sched/power context events (default) or skip them (faster) */
void gpulat_text_set_context(struct gpulat_text *x, bool on);
/* index put into gpulat_event.file (several inputs), default 0 */
void gpulat_text_set_file_index(struct gpulat_text *x, int file);

/*
 * Called once, before the first event is delivered, with the era and
 * whether finished-fence signals are in the log (decided from its first GPU
 * events), after the tracker given to gpulat_text_run() was set up with them.
 */
typedef void (*gpulat_text_start_fn)(enum gpulat_era era, bool signals, void *data);
void gpulat_text_set_start(struct gpulat_text *x, gpulat_text_start_fn fn, void *data);

/* same signature as gpulat_reader_hook_fn; @rec is always NULL */
typedef int (*gpulat_text_hook_fn)(const struct gpulat_event *ev, struct tep_record *rec,
				   int file, void *data);

/**
 * gpulat_text_run - parse every line and feed the events to @t
 * @x: reader
 * @t: tracker (may be NULL); its era and whether finished-fence signals are
 *	expected are set from the first GPU events; flushed at the end
 * @hook: optional, called for every event of ours after the tracker saw it
 * @data: its argument
 * @err: one line on failure (no GPU scheduler events, read error)
 * @errlen: its size
 *
 * Lines that are neither events, headers nor known markers are counted
 * (never silently skipped) and reported with the first one's line number.
 *
 * Return: 0, a negative errno, or the hook's negative return.
 */
int gpulat_text_run(struct gpulat_text *x, struct gpulat_tracker *t,
		    gpulat_text_hook_fn hook, void *data, char *err, size_t errlen);

/*
 * gpulat_text_run() in steps, for a live stream:
 *   gpulat_text_begin(x, t, hook, data, err, len);
 *   while ((ret = gpulat_text_pump(x, err, len)) > 0)   one read(2) each,
 *           gpulat_text_settle(x) now and then;         poll(2) the fd first
 *   gpulat_text_end(x, err, len);                       at end of input
 * pump returns 1 (more may come), 0 (end of input) or a negative errno;
 * settle ends the era look-ahead once a GPU job event came (a live log
 * cannot wait for thousands of them); end is run()'s end (checks, warnings,
 * tracker flush).
 */
int gpulat_text_begin(struct gpulat_text *x, struct gpulat_tracker *t, gpulat_text_hook_fn hook,
		      void *data, char *err, size_t errlen);
int gpulat_text_pump(struct gpulat_text *x, char *err, size_t errlen);
int gpulat_text_settle(struct gpulat_text *x);
int gpulat_text_end(struct gpulat_text *x, char *err, size_t errlen);

struct gpulat_text_info {
	enum gpulat_text_layout layout;
	const char	*tracer;	/* "# tracer: NAME" header, "" if none */
	bool		plugin;		/* our plugin's vocabulary was seen */
	bool		hashed;		/* %p values are hashed (tracefs) */
	bool		irq_info;	/* the irq-info flag columns were present */
	uint64_t	resolution_ns;	/* of the timestamps: 1000 = 1 us */
	bool		raw_clock;	/* timestamps are counter units, not seconds */
	enum gpulat_era	era;
	bool		era_guessed;	/* queue events only (grep): 5.7+ assumed */
	bool		signals;	/* finished-fence dma_fence_signaled present */
	int		cpus;		/* highest cpu seen + 1 (or the #P: header) */
	uint64_t	lines;
	uint64_t	events;		/* event lines (ours and others) */
	uint64_t	gpu_events;
	uint64_t	kind[GPULAT_EV__COUNT];
	uint64_t	lost_events;	/* [LOST N EVENTS] / [N EVENTS DROPPED] */
	uint64_t	lost_gaps;
	uint64_t	unparsed;	/* lines that are no event, header or marker */
	uint64_t	bad_args;	/* our events whose arguments matched no format */
	uint64_t	cut;		/* strings the kernel refused ([UNSAFE-MEMORY]) */
	uint64_t	first_unparsed_line;	/* 1-based, 0 if none */
	uint64_t	first_bad_line;
	uint64_t	first_cut_line;
	uint64_t	first_ts, last_ts;	/* of any event line, GPULAT_NONE if none */
	/* 1 << enum gpulat_stage: stages whose events are absent from the log */
	unsigned int	missing_stages;
};

void gpulat_text_info(const struct gpulat_text *x, struct gpulat_text_info *info);
const char *gpulat_text_layout_name(enum gpulat_text_layout l);
const char *gpulat_text_path(const struct gpulat_text *x);
/* intern a string in the reader's table (valid until gpulat_text_close()) */
const char *gpulat_text_intern(struct gpulat_text *x, const char *s);

/*
 * Sessions (gpulat-session.h) read a text log given to
 * gpulat_session_add_file() (or "-") through this reader. Return 0 and fill
 * @info when the session's input was text, -ENOENT otherwise.
 */
struct gpulat_session;
int gpulat_text_session_info(const struct gpulat_session *s, struct gpulat_text_info *info);
/* the "1 us" / "1 ns" / "10 us" spelling of a resolution */
const char *gpulat_text_resolution(uint64_t ns, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* _GPULAT_TEXT_H */
