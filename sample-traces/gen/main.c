// SPDX-License-Identifier: LGPL-2.1
/*
 * gpu-trace-gen: command line, calibration run, real run, file output.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <getopt.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gen.h"

#ifndef GST_FORMATS_DIR
#define GST_FORMATS_DIR "data/formats"
#endif

struct gen_opts {
	const char	*scenario;
	const char	*output;
	const char	*formats;
	uint64_t	seed;
	int		file_version;
	uint64_t	events;		/* 0: the scenario as defined */
	int		event_truth;	/* -1: default */
	bool		quiet;
	const char *raw_dir; /* keep the pages and the tracing dir there */
};

static const char usage_text[] =
	"NAME\n"
	"	gpu-trace-gen - write GPU scheduler trace.dat files with exact ground truth\n"
	"\n"
	"SYNOPSIS\n"
	"	gpu-trace-gen --list | --shapes\n"
	"	gpu-trace-gen -s SCENARIO -o OUT.dat [--seed N] [--file-version 6|7]\n"
	"		      [--events N] [--no-event-truth | --event-truth] [-q]\n"
	"\n"
	"DESCRIPTION\n"
	"	Simulates the DRM GPU scheduler of one scenario (devices, rings with a\n"
	"	credit limit, processes submitting jobs with jitter, bursts, gaps and\n"
	"	cross-ring dependencies; FIFO hardware; interrupts signalling fences)\n"
	"	and writes what the kernel of the scenario's era would have traced:\n"
	"	gpu_scheduler, dma_fence and optionally amdgpu events among background\n"
	"	sched, irq and power events, as a real trace.dat file (libtracecmd\n"
	"	output API, per-CPU 4096-byte ring-buffer pages, the real or derived\n"
	"	tracefs format files of data/formats).\n"
	"\n"
	"	Next to OUT.dat it writes OUT.truth.json (docs/truth-format.md): every\n"
	"	job's stages and metrics, per-ring aggregates and every GPU event\n"
	"	written, computed from the simulation, never from the trace.\n"
	"\n"
	"OPTIONS\n"
	"	-l, --list		list the scenarios, one per line\n"
	"	    --shapes		list the benchmark shapes (bench/run-bench's\n"
	"				matrix: backlog, 64 CPUs, 10^4 processes, ...),\n"
	"				scenarios without a committed sample\n"
	"	-s, --scenario NAME	scenario to simulate\n"
	"	-o, --output FILE	trace file to write (FILE.truth.json next to it,\n"
	"				a trailing .dat is replaced)\n"
	"	    --seed N		random seed (default 1); same seed, same bytes\n"
	"	    --file-version V	6 (uncompressed) or 7 (default, zstd sections)\n"
	"	    --events N		scale the scenario's duration to about N events\n"
	"				in total (benchmarks; pages stream to disk).\n"
	"				Implies --no-event-truth.\n"
	"				One CPU holds at most 2 GiB of pages\n"
	"				(libtracecmd before 3.3 keeps its size in\n"
	"				an int): shape-dense passes it near 26 M.\n"
	"	    --no-event-truth	omit the per-event \"events\" array of the truth\n"
	"	    --event-truth	keep it even with --events\n"
	"	    --formats DIR	format files (default " GST_FORMATS_DIR ")\n"
	"	    --raw-dir DIR	keep what the trace is made of in DIR (created):\n"
	"				cpuN.raw (the per-CPU ring-buffer pages) and\n"
	"				tracing/ (a tracefs lookalike: formats,\n"
	"				header_page, saved_cmdlines), e.g. to feed a\n"
	"				live reader without tracefs\n"
	"	-q, --quiet		no summary on stderr\n"
	"	-h, --help		this text\n"
	"\n"
	"EXIT STATUS\n"
	"	0 on success, 1 on bad usage, 2 when writing failed. A failed internal\n"
	"	consistency check of the simulation aborts.\n"
	"\n"
	"EXAMPLES\n"
	"	gpu-trace-gen -s steady -o steady.dat && trace-cmd report steady.dat\n"
	"	gpu-trace-gen -s steady-617 -o big.dat --events 5000000\n";

static void list_scenarios(bool shapes)
{
	int i;

	for (i = 0; i < (shapes ? gen_shape_count() : gen_scenario_count()); i++) {
		const struct gen_scenario *sc = shapes ? gen_shape_get(i) : gen_scenario_get(i);

		printf("%-12s %-10s %s\n", sc->name, gen_era_name(sc->era), sc->desc);
	}
}

static int parse_opts(int argc, char **argv, struct gen_opts *o)
{
	static const struct option lo[] = { { "list", no_argument, NULL, 'l' },
					    { "shapes", no_argument, NULL, 'H' },
					    { "scenario", required_argument, NULL, 's' },
					    { "output", required_argument, NULL, 'o' },
					    { "seed", required_argument, NULL, 'S' },
					    { "file-version", required_argument, NULL, 'V' },
					    { "events", required_argument, NULL, 'E' },
					    { "no-event-truth", no_argument, NULL, 'n' },
					    { "event-truth", no_argument, NULL, 't' },
					    { "formats", required_argument, NULL, 'F' },
					    { "raw-dir", required_argument, NULL, 'R' },
					    { "quiet", no_argument, NULL, 'q' },
					    { "help", no_argument, NULL, 'h' },
					    { NULL, 0, NULL, 0 } };
	int c;

	while ((c = getopt_long(argc, argv, "ls:o:qh", lo, NULL)) != -1) {
		switch (c) {
		case 'l':
			list_scenarios(false);
			exit(0);
		case 'H':
			list_scenarios(true);
			exit(0);
		case 's': o->scenario = optarg; break;
		case 'o': o->output = optarg; break;
		case 'S': o->seed = strtoull(optarg, NULL, 0); break;
		case 'V': o->file_version = atoi(optarg); break;
		case 'E': o->events = strtoull(optarg, NULL, 0); break;
		case 'n': o->event_truth = 0; break;
		case 't': o->event_truth = 1; break;
		case 'F': o->formats = optarg; break;
		case 'R':
			o->raw_dir = optarg;
			break;
		case 'q': o->quiet = true; break;
		case 'h': fputs(usage_text, stdout); exit(0);
		default: return -1;
		}
	}
	if (!o->scenario || !o->output || optind != argc ||
	    (o->file_version != 6 && o->file_version != 7))
		return -1;
	if (o->event_truth < 0)
		o->event_truth = o->events == 0;
	return 0;
}

/*
 * Calibration: a dry run without background events and without output gives
 * the GPU event rate; background events (about 2.3 per group) are then added
 * at bg_ratio_pct of that, and --events scales the duration.
 */
static void calibrate(struct gen_scenario *sc, const struct gen_formats *f,
		      uint64_t seed, uint64_t events, uint64_t *bg_mean)
{
	struct gen_sim s = { .sc = sc, .fmts = f };
	double groups, gpu;

	rng_seed(&s.rng, seed);
	gen_sim_run(&s);
	gpu = (double)s.gpu_events;
	gen_sim_free(&s);
	if (gpu < 1)
		gpu = 1;
	if (events) {
		double total = gpu * (1.0 + sc->bg_ratio_pct / 100.0);

		sc->duration = (uint64_t)((double)sc->duration * events / total);
		gpu *= events / total;
	}
	groups = gpu * sc->bg_ratio_pct / 100.0 / 2.3;
	*bg_mean = groups > 0 ? (uint64_t)((double)(sc->duration + sc->tail) *
					   sc->cpus / groups) : 0;
}

static char *truth_path(const char *out)
{
	size_t n = strlen(out);
	char *p;

	if (n > 4 && !strcmp(out + n - 4, ".dat")) {
		if (asprintf(&p, "%.*s.truth.json", (int)(n - 4), out) < 0)
			return NULL;
	} else if (asprintf(&p, "%s.truth.json", out) < 0) {
		return NULL;
	}
	return p;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	return remove(path);
}

static int write_files(struct gen_sim *s, const struct gen_opts *o, const char *tmp)
{
	struct gen_run_info ri = {
		.scenario = s->sc->name, .seed = o->seed,
		.file_version = o->file_version, .event_truth = o->event_truth,
	};
	char *fakedir = NULL, *events = NULL, *cmdlines = NULL, *truth = NULL;
	int ret = -ENOMEM;

	if (asprintf(&fakedir, "%s/tracing", tmp) < 0 ||
	    asprintf(&events, "%s/events.jsonl", tmp) < 0)
		goto out;
	ri.events_path = events;
	if (mkdir(fakedir, 0755) && errno != EEXIST) /* --raw-dir again */
		goto out;
	cmdlines = bg_cmdlines(s);
	truth = truth_path(o->output);
	if (!cmdlines || !truth)
		goto out;
	ret = gen_fakedir_create(s->fmts, fakedir, cmdlines);
	if (!ret)
		ret = gen_write_dat(o->output, fakedir, s->sc->cpus, o->file_version, tmp);
	if (!ret)
		ret = gen_truth_write(truth, s, &ri);
out:
	free(fakedir);
	free(events);
	free(cmdlines);
	free(truth);
	return ret;
}

static int simulate(struct gen_sim *s, const struct gen_opts *o, const char *tmp,
		    struct gen_pages *pages)
{
	char *events = NULL;
	int ret;

	if (gen_pages_open(pages, s->sc->cpus, tmp))
		return -EIO;
	s->pages = pages;
	if (o->event_truth) {
		if (asprintf(&events, "%s/events.jsonl", tmp) < 0)
			return -ENOMEM;
		s->ev_truth = fopen(events, "w");
		free(events);
		if (!s->ev_truth)
			return -errno;
	}
	rng_seed(&s->rng, o->seed);
	gen_sim_run(s);
	ret = gen_pages_close(pages);
	if (s->ev_truth && fclose(s->ev_truth))
		ret = -EIO;
	s->ev_truth = NULL;
	gen_sim_check(s);
	if (s->sc->no_sched)
		gen_sim_amdgpu_only(s);
	return ret;
}

static void summary(const struct gen_sim *s, const struct gen_opts *o)
{
	if (o->quiet)
		return;
	fprintf(stderr, "%s: %s (%s): %d jobs, %llu events (%llu GPU, %.1f%%), %llu lost\n",
		o->output, s->sc->name, gen_era_name(s->sc->era), s->njobs,
		(unsigned long long)s->events, (unsigned long long)s->gpu_events,
		s->events ? 100.0 * s->gpu_events / s->events : 0.0,
		(unsigned long long)s->lost_events);
}

int main(int argc, char **argv)
{
	struct gen_opts o = { .seed = 1, .file_version = 7, .event_truth = -1,
			      .formats = getenv("GST_FORMATS_DIR") };
	const struct gen_scenario *base;
	struct gen_scenario sc;
	struct gen_formats fmts;
	struct gen_pages pages;
	struct gen_sim s;
	char tmp[] = "/tmp/gpu-trace-gen.XXXXXX";
	const char *work = tmp;
	int ret;

	if (parse_opts(argc, argv, &o)) {
		fputs(usage_text, stderr);
		return 1;
	}
	base = gen_scenario_find(o.scenario);
	if (!base) {
		fprintf(stderr, "gpu-trace-gen: unknown scenario '%s' (see --list)\n", o.scenario);
		return 1;
	}
	sc = *base;
	if (gen_formats_load(&fmts, o.formats ? o.formats : GST_FORMATS_DIR, &sc))
		return 2;
	memset(&s, 0, sizeof(s));
	s.sc = &sc;
	s.fmts = &fmts;
	calibrate(&sc, &fmts, o.seed, o.events, &s.bg_mean);
	s.bg_on = s.bg_mean > 0;
	if (o.raw_dir) {
		work = o.raw_dir;
		if (mkdir(work, 0755) && errno != EEXIST) {
			fprintf(stderr, "gpu-trace-gen: %s: %s\n", work, strerror(errno));
			return 2;
		}
	} else if (!mkdtemp(tmp)) {
		perror("mkdtemp");
		return 2;
	}
	ret = simulate(&s, &o, work, &pages);
	if (!ret)
		ret = write_files(&s, &o, work);
	if (!ret)
		summary(&s, &o);
	else if (ret == -EFBIG)
		fprintf(stderr,
			"gpu-trace-gen: %s: CPU %d's data passes %llu MiB, the most libtracecmd before 3.3 writes for one CPU: use fewer --events\n",
			o.output, pages.err_cpu, (unsigned long long)(gen_pages_cpu_max() >> 20));
	else
		fprintf(stderr, "gpu-trace-gen: writing %s failed: %s\n", o.output, strerror(-ret));
	if (!o.raw_dir && !getenv("GEN_KEEP_TMP"))
		nftw(tmp, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	gen_sim_free(&s);
	gen_formats_free(&fmts);
	return ret ? 2 : 0;
}
