/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * trace-cmd gpu-latency: private declarations shared by the tool's files.
 *
 *   gpu-latency.c   main(): options, the run order, exit codes
 *   gl-input.c      the options into a gpulat session, its results into gl_run
 *   gl-table.c      aligned text tables
 *   gl-filter.c     --dev/--ring/--pid/--comm/--start/--end option lists
 *   gl-units.c      parse and print durations and trace-cmd style timestamps
 *   gl-jobs.c       per-job rows (--jobs), streamed by the model's row writers
 *   gl-text.c       the default text report and --hist
 *   gl-textlog.c    what the report says about a text-log input
 *   gl-json.c       --json
 *   gl-csv.c        --csv
 *   gl-compare.c    --compare BASE.dat
 *   gl-gate.c       --fail-if
 *   gl-frames.c     --frames (gpulat-frames.h, a session listener), crtc gates
 *   gl-diag.c       --explain, --fence-path (gpulat-diag.h)
 *   gl-watch.c      --watch: live tracefs instance, rolling summary, saved traces
 *   gl-pf-run.c     --perfetto: one run streamed into a Perfetto trace
 *                   (gl-perfetto.h: gl-perfetto.c and gl-pf-*.c)
 *
 * Decoding, job linking and statistics are the core library's (gpulat.h);
 * what a report holds, field by field, is its report model (gpulat-report.h):
 * this tool only reads files and renders the model's rows.
 */
#ifndef _GPU_LATENCY_H
#define _GPU_LATENCY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "gpulat.h"
#include "gpulat-report.h"
#include "gpulat-session.h"

struct gpulat_session;
struct gpulat_diag;

#define GL_NAME		"trace-cmd gpu-latency"

/* exit codes (documented in --help, the man page and docs/gpu-latency.md) */
#define GL_EXIT_OK	0
#define GL_EXIT_ERROR	1
#define GL_EXIT_GATE	3

/*
 * Rows of the text report's process and client tables (--owners): a fleet
 * trace of 10^4 processes printed 20 k rows no one reads; --json and --csv
 * keep every group.
 */
#define GL_OWNERS_DEFAULT 20

enum gl_format {
	GL_FMT_TEXT = 0,
	GL_FMT_JSON,
	GL_FMT_CSV,
};

/* A list of strings from repeated or comma-separated options. */
struct gl_strlist {
	char		**v;
	size_t		n;
};

struct gl_filter {
	struct gl_strlist devs;
	struct gl_strlist rings;
	struct gl_strlist comms;
	int		*pids;
	size_t		npids;
	uint64_t	start_ns;	/* 0: from the beginning */
	uint64_t	end_ns;		/* UINT64_MAX: to the end */
};

struct gl_gate;
struct gl_pf;

struct gl_opts {
	struct gl_filter filter;
	struct gpulat_stats_opts stats;
	const char	*compare;	/* --compare BASE.dat */
	const char	**files;
	size_t		nfiles;
	struct gl_gate	**gates;
	size_t		ngates;
	enum gl_format	format;
	unsigned int	top;		/* --top */
	unsigned int owners; /* --owners: rows of the text process/client tables, 0 = all */
	bool		hist;
	bool		jobs;		/* --jobs */
	bool		quiet;		/* no warnings */
	bool		explain;	/* --explain */
	bool		fence_path;	/* --fence-path */
	int		gpu_irq;	/* --gpu-irq N, -1 = choose */
	const char	*gpu_irq_name;	/* --gpu-irq NAME */
	bool		watch;		/* --watch */
	bool		watch_text;	/* --watch -: a text log on stdin, not tracefs */
	uint64_t	interval_ns;	/* --interval */
	const char	*save_dir;	/* --save-dir */
	uint64_t	save_ns;	/* --save-seconds */
	uint64_t	duration_ns;	/* --duration (watch), 0 = until Ctrl-C */
	const char	*perfetto;	/* --perfetto OUT.pftrace */
	bool		perfetto_sched;	/* --perfetto-sched */
	bool		frames;		/* --frames */
	bool		threshold_given;	/* --threshold: no refresh-interval default */
	bool each; /* --each (gl-each.c) */
	unsigned int njobs; /* -j N: --each processes, else read threads; 0 = the CPUs */
};

/*
 * One analysis: one input set (several files merged in time), its gpulat
 * state and results. --compare makes two.
 */
struct gl_run {
	const struct gl_opts *opts;
	const char	**files;
	size_t		nfiles;
	struct gpulat_session *session;	/* the pipeline; owns the interned names */
	struct gpulat_report *rep; /* its report model (gpulat-report.h), after the read */
	const struct gpulat_stats *stats;
	struct gpulat_diag *diag;	/* --explain / --fence-path */
	struct gpulat_tracker_counters counters;
	FILE		*jobs_tmp;	/* --jobs rows, copied out at the end */
	/* the session's counts (gpulat_session_counts()), after the read */
	struct gpulat_session_counts c;
	uint64_t	jobs_rows;	/* rows written to jobs_tmp */
	struct gl_pf	*pf;		/* --perfetto: a session listener */
	struct gpulat_filter *pf_filter; /* --perfetto: the jobs filter, for events */
	struct gpulat_frames_listener *fl;	/* the frames listener of the session */
	struct gpulat_frames *frames;	/* its analysis, NULL without vblank events */
	uint64_t	stall_threshold_ns;	/* in use: --threshold, default or refresh */
	int		threshold_from_crtc;	/* the refresh of this CRTC, -1: not */
};

/* gl-frames.c */
struct json_object;
int gl_frames_attach(struct gl_run *r);
void gl_frames_collect(struct gl_run *r);
void gl_frames_free(struct gl_run *r);
void gl_frames_header(const struct gl_run *r, FILE *out);
int gl_frames_text(const struct gl_run *r, FILE *out);
void gl_frames_json(const struct gl_run *r, struct json_object *root);
int gl_frames_csv(const struct gl_run *r, FILE *out);

/* gl-input.c */
int gl_run_init(struct gl_run *r, const struct gl_opts *o, const char **files, size_t n);
/* the session options of the command line that a file run and --watch share */
void gl_session_opts(const struct gl_opts *o, struct gpulat_session_opts *so);
/* one message of the session's error channel on stderr (warnings unless -q) */
void gl_msg_print(const struct gl_opts *o, enum gpulat_msg_level level, const char *text);
int gl_run_read(struct gl_run *r);

/* gl-each.c: --each FILE...: one JSON line per file, -j N at once */
void gl_each_usage(FILE *out);
int gl_each_parse_jobs(const char *s, unsigned int *n);
int gl_each_check(const struct gl_opts *o, const char *outfile);
int gl_each_main(const struct gl_opts *o, unsigned int jobs);
unsigned int gl_each_default_jobs(void);
void gl_run_free(struct gl_run *r);
const char *gl_run_label(const struct gl_run *r, char *buf, size_t len);

/* gl-filter.c */
int gl_strlist_add(struct gl_strlist *l, const char *csv);
void gl_strlist_free(struct gl_strlist *l);
void gl_filter_init(struct gl_filter *f);
void gl_filter_free(struct gl_filter *f);
int gl_filter_add_pids(struct gl_filter *f, const char *csv);
bool gl_filter_active(const struct gl_filter *f);
struct gpulat_session_opts;
void gl_filter_session_opts(const struct gl_filter *f, struct gpulat_session_opts *so);
struct gl_run;
bool gl_filter_miss(const struct gl_run *r, char *buf, size_t len);

/* gl-units.c */
int gl_parse_duration(const char *s, uint64_t *ns);
int gl_parse_seconds(const char *s, uint64_t *ns);
const char *gl_fmt_ts(char *buf, size_t len, uint64_t ts);
const char *gl_fmt_ts_cpu(char *buf, size_t len, uint64_t ts, int cpu);
int gl_cmp_stall(const void *a, const void *b);	/* gl-text.c */
const char *gl_fmt_dur(char *buf, size_t len, uint64_t ns);
const char *gl_ring_label(const struct gl_run *r, int file, const char *dev, const char *ring,
			  char *buf, size_t len);

/* gl-jobs.c */
int gl_jobs_open(struct gl_run *r);
int gl_jobs_write(struct gl_run *r, const struct gpulat_job *job);
int gl_jobs_copy(const struct gl_run *r, FILE *out);

/* gl-csv.c */
void gl_csv_str(FILE *out, const char *s);
void gl_csv_u64(FILE *out, uint64_t v);

/* renderers: each writes the whole report to @out */
int gl_text_report(const struct gl_run *r, FILE *out);
int gl_text_hist(const struct gl_run *r, FILE *out);
int gl_json_report(const struct gl_run *r, FILE *out);
int gl_csv_report(const struct gl_run *r, FILE *out);
void gl_csv_header(FILE *out);
int gl_compare_report(const struct gl_run *base, const struct gl_run *cur, FILE *out);
const struct gpulat_group *gl_find_ring(const struct gl_run *r, const struct gpulat_group *g,
					bool *by_name);

/* gl-gate.c */
struct gl_gate *gl_gate_parse(const char *spec, char *err, size_t errlen);
void gl_gate_free(struct gl_gate *g);
bool gl_gate_needs_base(const struct gl_gate *g);
/* Return: number of failed conditions (each printed to @msg), or -1 on error */
int gl_gate_check(const struct gl_gate *g, const struct gl_run *r,
		  const struct gl_run *base, FILE *msg);

/* gl-json.c, used by gl-compare.c too */
struct json_object;
struct json_object *gl_json_run(const struct gl_run *r);
struct json_object *gl_json_summary(const struct gpulat_summary *s);
struct json_object *gl_json_row(enum gpulat_row row, const void *obj);
int gl_json_print(const struct gl_run *r, struct json_object *o, FILE *out);

/* gl-textlog.c: nothing for a trace.dat */
struct json_object;
void gl_textlog_header(const struct gl_run *r, FILE *out);
void gl_textlog_json(const struct gl_run *r, struct json_object *o);

/* gl-diag.c */
int gl_diag_text(const struct gl_run *r, FILE *out);
void gl_diag_json(const struct gl_run *r, struct json_object *o);

/* gl-watch.c: the whole --watch run; returns the exit code */
int gl_watch_main(const struct gl_opts *o);

/* gl-pf-run.c (built with protobuf-c only): the --perfetto session listener
 * (added by gl_run_init()) and the whole --perfetto run */
#ifdef GST_PERFETTO
int gl_pf_attach(struct gl_run *r, const struct gpulat_session_opts *so);
void gl_pf_detach(struct gl_run *r);
int gl_pf_main(struct gl_run *r);
#endif

#endif /* _GPU_LATENCY_H */
