// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-cmd gpu-latency - GPU job latency report for trace-cmd data files
 *
 * main(): parse the options, read the input(s) and the --compare base, render
 * the report into a temporary file, and only when everything succeeded copy it
 * to stdout (or -o FILE) and check the --fail-if gates.
 *
 * Exit codes: 0 ok, 1 error (nothing on stdout), 3 a --fail-if gate failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "gpu-latency.h"
#include "gpulat-session.h"

#ifndef GST_VERSION
#define GST_VERSION "0.0"
#endif

/* the record lines of lib/hint.c, as the no-GPU-events error prints them */
static void usage_record(FILE *out)
{
	char hint[2048];

	gpulat_record_hint(hint, sizeof(hint));
	fprintf(out,
		"\nRecording (as root; COMMAND runs while recording, or stop with Ctrl-C):\n%s",
		hint);
}

/* the help text and the option table read as columns */
/* clang-format off */
static void usage(FILE *out)
{
	fprintf(out,
"usage: trace-cmd gpu-latency [OPTIONS] [trace.dat ... | LOG | -]\n"
"       trace-cmd-gpu-latency [OPTIONS] [trace.dat ... | LOG | -]\n"
"\n"
"GPU job latency report: per ring, process and client; percentiles, worst jobs\n"
"with timestamps and CPUs, dependency waits, stalls, incomplete jobs.\n"
"Reads trace.dat when no file is given; several files are merged in time.\n"
"A text log (tracefs trace / trace_pipe, trace-cmd report output) is read\n"
"too, also grep-filtered; - reads it from standard input.\n"
"\n"
"Output:\n"
"  --json              the report as JSON (stable field names, see the man page)\n"
"  --csv               the report as CSV (one row per group and metric)\n"
"  --jobs              every job with its stage timestamps (text: a table\n"
"                      after the report; --json/--csv: job rows)\n"
"  --hist              log2 histograms of wait, hw_queue, exec, total per ring\n"
"  --top N             worst jobs, stalls and incomplete jobs listed (default 10)\n"
"  --owners N          text: the N processes and N clients with the most jobs\n"
"                      (default 20; 0 = every one; --json/--csv list every one)\n"
"  --by METRIC         rank worst jobs by wait|hw_queue|exec|total|dep_wait\n"
"                      (default total)\n"
"  --threshold DUR     stall threshold (default 16.667ms, one 60 Hz frame, or\n"
"                      the measured refresh interval when the trace has\n"
"                      drm_vblank_event records); DUR like 500us, 5ms, 1.5s\n"
"                      (the unit is required)\n"
"  --frames            frames judged against the display's vblanks: per CRTC\n"
"                      refresh, VRR, missed vblanks; per client frames asked\n"
"                      for and got, frame times, late frames with their cause;\n"
"                      GPU time per vblank per process (text, --json, --csv);\n"
"                      record the vblank events too (Recording, below)\n"
"  -o FILE             write the report to FILE instead of stdout\n"
"  --perfetto OUT      write the jobs as a Perfetto trace (open it in\n"
"                      ui.perfetto.dev): per GPU its rings, the jobs with their\n"
"                      wait, hw_queue and exec stages, submissions per process,\n"
"                      dependency and submission flows, ring depth, stalls;\n"
"                      filters apply; no report is printed\n"
"  --perfetto-sched    with --perfetto: the CPU scheduling too (sched_switch,\n"
"                      sched_waking), on the same timeline\n"
"\n"
"Filters (repeatable or comma lists; jobs are linked first, then filtered):\n"
"  --dev DEV           device, e.g. 0000:03:00.0 (6.17+ traces)\n"
"  --ring RING         ring name or label, e.g. gfx or 0000:03:00.0/gfx\n"
"  --pid PID           submitting process\n"
"  --comm COMM         submitting command name\n"
"  --start SECONDS     only jobs first seen at or after this timestamp\n"
"  --end SECONDS       ... and at or before this one (timestamps as printed\n"
"                      by trace-cmd report, e.g. 1234.567890)\n"
"\n"
"Comparison and CI gates:\n"
"  --compare BASE.dat  per-ring deltas of the input(s) against BASE.dat\n"
"  --fail-if SPEC      exit 3 when SPEC holds, e.g. 'ring=gfx,p99.exec>5ms',\n"
"                      'busy>90%%', 'incomplete>0', 'p99.total>+10%%' (with\n"
"                      --compare), 'crtc=0,missed>0' (vblanks); repeatable.\n"
"                      See the man page for the grammar.\n"
"\n"
"Diagnosis:\n"
"  --explain           for every worst job and stall: what the trace shows\n"
"                      around it (CPU frequency, IRQ/softirq time, runnable but\n"
"                      not running, dma_fence waits, dependency waits), most\n"
"                      likely cause first\n"
"  --fence-path        GPU irq -> done -> fence signal -> waiter's wait_end per\n"
"                      ring with percentiles, and the IRQ load per CPU\n"
"  --gpu-irq N|NAME    the GPU interrupt (default: the irq whose handler holds\n"
"                      the most done events, else amdgpu_iv); with\n"
"                      --fence-path or --explain, an irq the trace has\n"
"\n"
"Live (needs root or tracefs access; its own tracefs instance):\n"
"  --watch             record the GPU events live and print a rolling per-ring\n"
"                      summary every interval; with --fail-if, report each\n"
"                      interval that crosses a gate (exit 3 at the end);\n"
"                      with --explain, why: the interval's worst job and\n"
"                      longest stall with their hints\n"
"  --watch -           the same over an ftrace text log on stdin, e.g.\n"
"                      cat /sys/kernel/tracing/trace_pipe | trace-cmd\n"
"                      gpu-latency --watch - (no tracefs instance; stops at\n"
"                      the end of the log)\n"
"  --interval S        seconds between summaries (default 1)\n"
"  --duration S        stop after S seconds (default: Ctrl-C / SIGTERM)\n"
"  --save-dir DIR      on an alert, save the last seconds as DIR/alert-N.dat\n"
"                      (open it in KernelShark)\n"
"  --save-seconds S    how much to keep for --save-dir (default 5)\n"
"\n"
"Other:\n"
"  -i FILE             input file (like trace-cmd report -i); repeatable\n"
"  --fields            list the report's fields (JSON members, CSV columns,\n"
"                      --fail-if quantities) with unit and meaning\n"
"  -q, --quiet         no warnings on stderr\n"
"  -V, --version       print the version\n"
"  -h, --help          this help\n"
"\n"
"Exit status: 0 ok, 1 error (one line on stderr, nothing on stdout),\n"
"3 a --fail-if gate failed (the report is still printed).\n");
	gl_each_usage(out);
	usage_record(out);
}

enum {
	OPT_JSON = 256, OPT_CSV, OPT_JOBS, OPT_HIST, OPT_TOP, OPT_BY, OPT_THRESHOLD,
	OPT_DEV, OPT_RING, OPT_PID, OPT_COMM, OPT_START, OPT_END, OPT_COMPARE,
	OPT_FAIL_IF, OPT_EXPLAIN, OPT_FENCE_PATH, OPT_GPU_IRQ, OPT_WATCH, OPT_INTERVAL,
	OPT_DURATION, OPT_SAVE_DIR, OPT_SAVE_SECONDS, OPT_PERFETTO, OPT_PERFETTO_SCHED,
	OPT_FRAMES, OPT_FIELDS,
	OPT_EACH, OPT_OWNERS,
};

static const struct option long_opts[] = {
	{ "json",	no_argument,		NULL, OPT_JSON },
	{ "csv",	no_argument,		NULL, OPT_CSV },
	{ "jobs",	no_argument,		NULL, OPT_JOBS },
	{ "hist",	no_argument,		NULL, OPT_HIST },
	{ "top",	required_argument,	NULL, OPT_TOP },
	{ "owners",	required_argument,	NULL, OPT_OWNERS },
	{ "by",		required_argument,	NULL, OPT_BY },
	{ "threshold",	required_argument,	NULL, OPT_THRESHOLD },
	{ "dev",	required_argument,	NULL, OPT_DEV },
	{ "ring",	required_argument,	NULL, OPT_RING },
	{ "pid",	required_argument,	NULL, OPT_PID },
	{ "comm",	required_argument,	NULL, OPT_COMM },
	{ "start",	required_argument,	NULL, OPT_START },
	{ "end",	required_argument,	NULL, OPT_END },
	{ "compare",	required_argument,	NULL, OPT_COMPARE },
	{ "fail-if",	required_argument,	NULL, OPT_FAIL_IF },
	{ "explain",	no_argument,		NULL, OPT_EXPLAIN },
	{ "fence-path",	no_argument,		NULL, OPT_FENCE_PATH },
	{ "gpu-irq",	required_argument,	NULL, OPT_GPU_IRQ },
	{ "watch",	no_argument,		NULL, OPT_WATCH },
	{ "interval",	required_argument,	NULL, OPT_INTERVAL },
	{ "duration",	required_argument,	NULL, OPT_DURATION },
	{ "save-dir",	required_argument,	NULL, OPT_SAVE_DIR },
	{ "save-seconds", required_argument,	NULL, OPT_SAVE_SECONDS },
	{ "perfetto",	required_argument,	NULL, OPT_PERFETTO },
	{ "perfetto-sched", no_argument,	NULL, OPT_PERFETTO_SCHED },
	{ "frames",	no_argument,		NULL, OPT_FRAMES },
	{ "fields",	no_argument,		NULL, OPT_FIELDS },
	{ "each",	no_argument,		NULL, OPT_EACH },
	{ "quiet",	no_argument,		NULL, 'q' },
	{ "version",	no_argument,		NULL, 'V' },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL,		0,			NULL, 0 },
};

/* clang-format on */

static int bad_opt(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "%s: %s '%s': %s (see --help)\n", GL_NAME, opt, val, why);
	return -1;
}

/* a decimal count of at most @max into *@v; false for anything else (empty, trailing text) */
static bool count_arg(const char *arg, unsigned long long max, unsigned int *v)
{
	unsigned long long n;
	char *end;

	n = strtoull(arg, &end, 10);
	if (!*arg || *end || n > max)
		return false;
	*v = (unsigned int)n;
	return true;
}

static int add_file(struct gl_opts *o, const char *path)
{
	const char **tmp = realloc(o->files, (o->nfiles + 1) * sizeof(*tmp));

	if (!tmp)
		return -1;
	o->files = tmp;
	o->files[o->nfiles++] = path;
	return 0;
}

static int metric_by_name(const char *s, enum gpulat_metric *m)
{
	int i;

	for (i = 0; i < GPULAT_M__COUNT; i++) {
		if (!strcmp(s, gpulat_metric_name(i))) {
			*m = i;
			return 0;
		}
	}
	return -1;
}

/* Return: 0 to go on, 1 for --help/--version done, -1 on a usage error */
static int parse_args(struct gl_opts *o, int argc, char **argv, const char **outfile)
{
	char err[512];
	int c;

	gl_filter_init(&o->filter);
	gpulat_stats_opts_init(&o->stats);
	o->top = 10;
	o->owners = GL_OWNERS_DEFAULT;
	o->gpu_irq = -1;
	o->interval_ns = 1000000000ULL;
	o->save_ns = 5000000000ULL;

	opterr = 0;	/* our own one-line messages */
	while ((c = getopt_long(argc, argv, ":i:o:j:qhV", long_opts, NULL)) != -1) {
		uint64_t v;
		char *end;

		switch (c) {
		case 'i':
			if (add_file(o, optarg) < 0)
				return -1;
			break;
		case 'o':
			*outfile = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		case 'V':
			printf("trace-cmd gpu-latency (gpu-sched-trace) %s\n", GST_VERSION);
			return 1;
		case OPT_FIELDS:
			gpulat_report_fields_doc(stdout);
			return 1;
		case OPT_JSON:
		case OPT_CSV:
			/* one output format: the later one used to win silently */
			if (o->format != GL_FMT_TEXT &&
			    o->format != (c == OPT_JSON ? GL_FMT_JSON : GL_FMT_CSV)) {
				fprintf(stderr, "%s: --json and --csv do not go together\n",
					GL_NAME);
				return -1;
			}
			o->format = c == OPT_JSON ? GL_FMT_JSON : GL_FMT_CSV;
			break;
		case OPT_JOBS:
			o->jobs = true;
			break;
		case OPT_HIST:
			o->hist = true;
			break;
		case OPT_TOP:
			if (!count_arg(optarg, 100000, &o->top))
				return bad_opt("--top", optarg, "expected a count (0-100000)");
			o->stats.top_n = o->top;
			break;
		case OPT_OWNERS:
			if (!count_arg(optarg, 100000000, &o->owners))
				return bad_opt("--owners", optarg,
					       "expected a count (0 = all, up to 100000000)");
			break;
		case OPT_BY:
			if (metric_by_name(optarg, &o->stats.worst_by) < 0)
				return bad_opt("--by", optarg,
					       "expected wait, hw_queue, exec, total or dep_wait");
			break;
		case OPT_THRESHOLD:
			/* a bare number was ns: "--threshold 5" meant 5 ms, not 5 ns */
			if (*optarg && !strpbrk(optarg, "nums"))
				return bad_opt("--threshold", optarg,
					       "needs a unit: 500us, 5ms, 1.5s");
			if (gl_parse_duration(optarg, &o->stats.stall_threshold_ns) < 0)
				return bad_opt("--threshold", optarg,
					       "expected a duration like 500us, 5ms, 1.5s");
			o->threshold_given = true;
			break;
		case OPT_FRAMES:
			o->frames = true;
			break;
		case OPT_DEV:
			if (gl_strlist_add(&o->filter.devs, optarg) < 0)
				return -1;
			break;
		case OPT_RING:
			if (gl_strlist_add(&o->filter.rings, optarg) < 0)
				return -1;
			break;
		case OPT_COMM:
			if (gl_strlist_add(&o->filter.comms, optarg) < 0)
				return -1;
			break;
		case OPT_PID:
			if (gl_filter_add_pids(&o->filter, optarg) < 0)
				return bad_opt("--pid", optarg, "expected process ids");
			break;
		case OPT_START:
			if (gl_parse_seconds(optarg, &o->filter.start_ns) < 0)
				return bad_opt("--start", optarg,
					       "expected seconds like trace-cmd report prints "
					       "them (1234.567890)");
			break;
		case OPT_END:
			if (gl_parse_seconds(optarg, &o->filter.end_ns) < 0)
				return bad_opt("--end", optarg,
					       "expected seconds like trace-cmd report prints "
					       "them (1234.567890)");
			break;
		case OPT_COMPARE:
			o->compare = optarg;
			break;
		case OPT_FAIL_IF: {
			struct gl_gate **tmp, *g;

			g = gl_gate_parse(optarg, err, sizeof(err));
			if (!g)
				return bad_opt("--fail-if", optarg, err);
			tmp = realloc(o->gates, (o->ngates + 1) * sizeof(*tmp));
			if (!tmp) {
				gl_gate_free(g);
				return -1;
			}
			o->gates = tmp;
			o->gates[o->ngates++] = g;
			break;
		}
		case OPT_EXPLAIN:
			o->explain = true;
			break;
		case OPT_FENCE_PATH:
			o->fence_path = true;
			break;
		case OPT_GPU_IRQ:
			v = strtoull(optarg, &end, 10);
			if (*optarg && !*end && v < 100000)
				o->gpu_irq = (int)v;
			else if (*optarg)
				o->gpu_irq_name = optarg;
			else
				return bad_opt("--gpu-irq", optarg, "expected an irq number or name");
			break;
		case OPT_WATCH:
			o->watch = true;
			break;
		case OPT_INTERVAL:
			if (gl_parse_seconds(optarg, &o->interval_ns) < 0 || !o->interval_ns)
				return bad_opt("--interval", optarg, "expected seconds, e.g. 1 or 0.5");
			break;
		case OPT_DURATION:
			if (gl_parse_seconds(optarg, &o->duration_ns) < 0)
				return bad_opt("--duration", optarg, "expected seconds, e.g. 10");
			break;
		case OPT_SAVE_SECONDS:
			if (gl_parse_seconds(optarg, &o->save_ns) < 0 || !o->save_ns)
				return bad_opt("--save-seconds", optarg, "expected seconds, e.g. 5");
			break;
		case OPT_SAVE_DIR:
			o->save_dir = optarg;
			break;
		case OPT_PERFETTO:
#ifndef GST_PERFETTO
			fprintf(stderr, "%s: --perfetto: this build has no protobuf-c (install "
				"libprotobuf-c-dev and protobuf-c-compiler, then rebuild)\n",
				GL_NAME);
			return -1;
#endif
			if (!*optarg)
				return bad_opt("--perfetto", optarg, "expected an output file name");
			o->perfetto = optarg;
			break;
		case OPT_PERFETTO_SCHED:
			o->perfetto_sched = true;
			break;
		case OPT_EACH: /* gl-each.c */
			o->each = true;
			break;
		case 'j':
			if (gl_each_parse_jobs(optarg, &o->njobs) < 0)
				return bad_opt("-j", optarg, "expected 1-1024");
			break;
		case ':':
			fprintf(stderr, "%s: option '%s' needs a value (see --help)\n", GL_NAME,
				argv[optind - 1]);
			return -1;
		default:
			fprintf(stderr, "%s: unknown option '%s' (see --help)\n", GL_NAME,
				argv[optind - 1]);
			return -1;
		}
	}
	for (; optind < argc; optind++) {
		if (add_file(o, argv[optind]) < 0)
			return -1;
	}
	if (o->watch) {
		/* `--watch -`: a text log on stdin (trace_pipe, trace-cmd stream) */
		if (o->nfiles == 1 && !strcmp(o->files[0], "-")) {
			o->watch_text = true;
			o->nfiles = 0;
		} else if (o->nfiles) {
			fprintf(stderr,
				"%s: --watch records live and reads no trace file (a text "
				"log on stdin: --watch -)\n",
				GL_NAME);
			return -1;
		}
		if (o->watch_text && o->save_dir) {
			fprintf(stderr,
				"%s: --save-dir saves ring-buffer pages: not with --watch - "
				"(the text log is the record)\n",
				GL_NAME);
			return -1;
		}
		if (o->compare || o->jobs || o->format != GL_FMT_TEXT) {
			fprintf(stderr, "%s: --watch prints text summaries (no --json, --csv, --jobs, "
				"--compare)\n", GL_NAME);
			return -1;
		}
	} else if (o->save_dir || o->duration_ns) {
		fprintf(stderr, "%s: --save-dir and --duration go with --watch\n", GL_NAME);
		return -1;
	}
	if (o->perfetto_sched && !o->perfetto) {
		fprintf(stderr, "%s: --perfetto-sched goes with --perfetto OUT\n", GL_NAME);
		return -1;
	}
	if (o->perfetto && (o->watch || o->compare || o->jobs || o->hist || o->ngates ||
			    o->format != GL_FMT_TEXT || *outfile)) {
		fprintf(stderr, "%s: --perfetto writes only the Perfetto trace (no --watch, "
			"--compare, --json, --csv, --jobs, --hist, --fail-if, -o)\n", GL_NAME);
		return -1;
	}
	if (!o->watch && !o->nfiles && add_file(o, "trace.dat") < 0)
		return -1;
	if (o->filter.end_ns < o->filter.start_ns) {
		fprintf(stderr, "%s: --end is before --start\n", GL_NAME);
		return -1;
	}
	if (o->format == GL_FMT_CSV && (o->hist || o->explain || o->fence_path)) {
		fprintf(stderr,
			"%s: --csv has no --hist, --explain or --fence-path (use --json "
			"or the text report)\n",
			GL_NAME);
		return -1;
	}
	/* the GPU irq only chooses the fence path's and --explain's irq */
	if ((o->gpu_irq >= 0 || o->gpu_irq_name) && !o->explain && !o->fence_path) {
		fprintf(stderr, "%s: --gpu-irq needs --fence-path or --explain\n", GL_NAME);
		return -1;
	}
	for (size_t i = 0; i < o->ngates; i++) {
		if (gl_gate_needs_base(o->gates[i]) && !o->compare) {
			fprintf(stderr, "%s: --fail-if with a relative value (+N%%) needs "
				"--compare BASE.dat\n", GL_NAME);
			return -1;
		}
	}
	if (o->frames && gl_filter_active(&o->filter)) {
		/* a client's frame is all its jobs: a filtered job would make it look on time */
		fprintf(stderr, "%s: --frames judges every job of a client; no --dev, --ring, "
			"--pid, --comm, --start or --end\n", GL_NAME);
		return -1;
	}
	if (o->frames && (o->compare || o->watch || o->jobs)) {
		fprintf(stderr, "%s: --frames does not go with --compare, --watch or --jobs\n",
			GL_NAME);
		return -1;
	}
	if (o->jobs && o->compare) {
		fprintf(stderr, "%s: --jobs and --compare do not go together\n", GL_NAME);
		return -1;
	}
	return gl_each_check(o, *outfile);
}

static void free_opts(struct gl_opts *o)
{
	size_t i;

	for (i = 0; i < o->ngates; i++)
		gl_gate_free(o->gates[i]);
	free(o->gates);
	free(o->files);
	gl_filter_free(&o->filter);
}

static int copy_out(FILE *tmp, const char *outfile)
{
	FILE *out = stdout;
	char buf[65536];
	size_t len;
	int ret = 0;

	if (fflush(tmp) || fseek(tmp, 0, SEEK_SET))
		return -1;
	if (outfile) {
		out = fopen(outfile, "w");
		if (!out) {
			fprintf(stderr, "%s: %s: %s\n", GL_NAME, outfile, strerror(errno));
			return -1;
		}
	}
	while ((len = fread(buf, 1, sizeof(buf), tmp)) > 0) {
		if (fwrite(buf, 1, len, out) != len) {
			ret = -1;
			break;
		}
	}
	if (fflush(out) || ferror(out))
		ret = -1;
	if (ret < 0)
		fprintf(stderr, "%s: %s: write error: %s\n", GL_NAME,
			outfile ? outfile : "stdout", strerror(errno));
	if (outfile && fclose(out))
		ret = -1;
	return ret;
}

/*
 * libtracecmd prints some diagnostics with printf() (e.g. "File possibly
 * truncated" for a short v6 file): while the traces are read, stdout goes to
 * /dev/null so that nothing but the finished report ever reaches it.
 */
static int quiet_stdout(void)
{
	int saved, null;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	null = open("/dev/null", O_WRONLY);
	if (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0) {
		if (null >= 0)
			close(null);
		if (saved >= 0)
			close(saved);
		return -1;
	}
	close(null);
	return saved;
}

static void restore_stdout(int saved)
{
	if (saved < 0)
		return;
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
}

static int render(const struct gl_run *run, const struct gl_run *base, FILE *tmp)
{
	if (base)
		return gl_compare_report(base, run, tmp);
	switch (run->opts->format) {
	case GL_FMT_JSON:
		return gl_json_report(run, tmp);
	case GL_FMT_CSV:
		if (run->opts->frames)
			return gl_frames_csv(run, tmp);
		return gl_csv_report(run, tmp);
	default:
		if (run->opts->frames)
			return gl_frames_text(run, tmp);
		if (gl_text_report(run, tmp) < 0 || gl_diag_text(run, tmp) < 0)
			return -1;
		return gl_jobs_copy(run, tmp);
	}
}

int main(int argc, char **argv)
{
	struct gl_run run = { 0 }, base = { 0 };
	const char *outfile = NULL;
	struct gl_opts o = { 0 };
	int ret = GL_EXIT_ERROR;
	bool have_base = false;
	int saved_stdout = -1;
	FILE *tmp = NULL;
	int failed = 0;
	size_t i;

	switch (parse_args(&o, argc, argv, &outfile)) {
	case 0:
		break;
	case 1:
		free_opts(&o);
		return GL_EXIT_OK;
	default:
		free_opts(&o);
		return GL_EXIT_ERROR;
	}
	if (o.watch) {
		ret = gl_watch_main(&o);
		free_opts(&o);
		return ret;
	}
	if (o.each) {
		tracecmd_set_loglevel(TEP_LOG_NONE);
		ret = gl_each_main(&o, o.njobs);
		free_opts(&o);
		return ret;
	}
	/* libtracecmd's own messages would break the one-line error rule */
	tracecmd_set_loglevel(TEP_LOG_NONE);
	saved_stdout = quiet_stdout();

	if (gl_run_init(&run, &o, o.files, o.nfiles) < 0) {
		fprintf(stderr, "%s: %s\n", GL_NAME, strerror(ENOMEM));
		goto out;
	}
#ifdef GST_PERFETTO
	if (o.perfetto) {
		ret = gl_pf_main(&run);
		goto out;
	}
#endif
	if (gl_run_read(&run) < 0)
		goto out;
	if (o.compare) {
		have_base = true;
		if (gl_run_init(&base, &o, &o.compare, 1) < 0) {
			fprintf(stderr, "%s: %s\n", GL_NAME, strerror(ENOMEM));
			goto out;
		}
		if (gl_run_read(&base) < 0)
			goto out;
	}
	restore_stdout(saved_stdout);
	saved_stdout = -1;

	tmp = tmpfile();
	if (!tmp) {
		fprintf(stderr, "%s: cannot create a temporary file: %s\n", GL_NAME,
			strerror(errno));
		goto out;
	}
	if (render(&run, have_base ? &base : NULL, tmp) < 0 || ferror(tmp)) {
		fprintf(stderr, "%s: writing the report failed\n", GL_NAME);
		goto out;
	}
	if (copy_out(tmp, outfile) < 0)
		goto out;

	for (i = 0; i < o.ngates; i++) {
		int n = gl_gate_check(o.gates[i], &run, have_base ? &base : NULL, stderr);

		if (n < 0)
			goto out;
		failed += n;
	}
	ret = failed ? GL_EXIT_GATE : GL_EXIT_OK;
 out:
	restore_stdout(saved_stdout);
	if (tmp)
		fclose(tmp);
	gl_run_free(&run);
	if (have_base)
		gl_run_free(&base);
	free_opts(&o);
	return ret;
}
