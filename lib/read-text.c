// SPDX-License-Identifier: LGPL-2.1
/*
 * Text reader: ftrace text logs -> struct gpulat_event -> tracker.
 *
 * One pass over the input, one line at a time, in a fixed read buffer. Each
 * line is one of: an event ("comm-pid [cpu] flags ts: name: args", or the
 * latency-format "comm-pid cpu#flags tsus : name: args"), a header or
 * comment ('#'), a marker (lost events, "CPU N is empty", our plugin's
 * summary), or something else, which is counted and reported. The
 * arguments of our events are parsed by text-formats.c from the events'
 * print formats.
 *
 * The tracker's era must be known before its first event, and a text log
 * has no format section: the first GPU events (a bounded look-ahead) decide
 * it, as the formats present decide it for a trace.dat (bind.c).
 */
#define _GNU_SOURCE	/* memmem */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpulat-text.h"
#include "text-int.h"

#define BUF_SIZE	(1u << 20)	/* read buffer; a longer line is cut */
#define PROBE_SIZE	(64u << 10)
/* look-ahead: until this many GPU job events, or this many events of ours */
#define LA_JOB_EVENTS	2048
#define LA_MAX		16384
#define MAX_CPUS	8192
#define NAME_SLOTS	256		/* event name hash table, power of two */
#define COMM_CACHE	256

struct evname {
	const char	*name;
	size_t		len;
	enum gpulat_kind kind;
	int		fam;
	unsigned int	cache;		/* format that matched last */
	uint64_t	bad;
};

struct la_item {
	struct gpulat_event	ev;
	bool			lost;	/* a lost-events marker, not an event */
	uint64_t		lost_from, lost_count;
};

struct commcache {
	int		pid;
	const char	*s;
	size_t		len;
};

/* one parsed line context */
struct lctx {
	const char	*comm;
	size_t		comm_len;
	int		pid;
	int		cpu;
	uint64_t	ts;
	unsigned int	flags;
	const char	*name;
	size_t		name_len;
	const char	*args;
	bool		event;		/* has an event name (else a function line) */
	int		frac;		/* fractional digits of the timestamp, -1: integer */
	bool		irq_info;
};

struct gpulat_text {
	char			*path;
	int			fd;
	bool			own_fd;
	int			file;
	struct gpulat__strtab	*strs;
	struct gpulat__tfmt_ctx	fc;
	gpulat_warn_fn		warn;
	void			*warn_data;
	bool			context;	/* decode irq/sched/power lines */
	bool			ran;

	char			*buf;
	size_t			len, off;	/* bytes in buf, start of the next line */
	bool			eof;

	struct evname		names[NAME_SLOTS];
	struct commcache	comms[COMM_CACHE];

	/* look-ahead */
	struct la_item		*la;
	size_t			nla;
	bool			deciding;
	uint64_t		la_jobs;
	bool			seen617, seen_run_old, seen_old, seen_done_old, seen_amd, seen_i915;
	bool			ring_ptr;

	/* per cpu: last timestamp, pending lost events */
	uint64_t		*cpu_last;
	uint64_t		*lost_pending;	/* count + 1, 0: none */
	int			ncpu;

	struct gpulat_tracker	*t;
	gpulat_text_start_fn	start;		/* told the era before the first event */
	void			*start_data;
	gpulat_text_hook_fn	hook;
	void			*hook_data;
	int			stop;

	bool			raw_ptr;	/* a %p printed as 0x... (libtraceevent) */
	bool			summary;	/* inside our plugin's summary block */
	int			min_frac;	/* coarsest timestamp seen */
	uint64_t		overwritten;	/* entries-written - entries-in-buffer */
	struct gpulat_text_info	info;
	char			tracer[32];
};

/* "<path>: <problem>" into @err (@path NULL: no prefix) */
static void terr(const char *path, char *err, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void terr(const char *path, char *err, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!err || !len)
		return;
	if (path)
		n = snprintf(err, len, "%s: ", path);
	if (n < 0 || (size_t)n >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(err + n, len - (size_t)n, fmt, ap);
	va_end(ap);
}

static void twarn(struct gpulat_text *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void twarn(struct gpulat_text *x, const char *fmt, ...)
{
	char msg[512];
	va_list ap;
	int n;

	if (!x->warn)
		return;
	n = snprintf(msg, sizeof(msg), "%s: ", x->path);
	va_start(ap, fmt);
	vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
	va_end(ap);
	x->warn(msg, x->warn_data);
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool starts(const char *s, const char *e, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(e - s) >= n && !memcmp(s, lit, n);
}

static uint32_t name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* the event list of bind.c, by name */
static int build_names(struct gpulat_text *x)
{
	const char *sys, *name;
	enum gpulat_kind kind;
	unsigned int i;

	for (i = 0; gpulat__event_def(i, &sys, &name, &kind) == 0; i++) {
		size_t n = strlen(name);
		uint32_t h = name_hash(name, n) & (NAME_SLOTS - 1);
		int fam = gpulat__tfmt_family(name);

		if (fam < 0)
			continue;	/* no text format known: binary only */
		while (x->names[h].name && strcmp(x->names[h].name, name))
			h = (h + 1) & (NAME_SLOTS - 1);
		if (x->names[h].name)
			continue;
		x->names[h] = (struct evname){ name, n, kind, fam, 0, 0 };
	}
	return 0;
}

static struct evname *find_name(struct gpulat_text *x, const char *s, size_t n)
{
	uint32_t h = name_hash(s, n) & (NAME_SLOTS - 1);

	while (x->names[h].name) {
		if (x->names[h].len == n && !memcmp(x->names[h].name, s, n))
			return &x->names[h];
		h = (h + 1) & (NAME_SLOTS - 1);
	}
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* Line contexts                                                              */

/*
 * The decimal digits at @s (up to @e) as an int; a number too big for one
 * gives INT_MAX, never an overflow. Returns the first byte after the digits.
 */
static const char *scan_small(const char *s, const char *e, int *v)
{
	const char *p;
	int x = 0;

	for (p = s; p < e && is_digit(*p); p++)
		x = x > (INT_MAX - 9) / 10 ? INT_MAX : x * 10 + (*p - '0');
	*v = x;
	return p;
}

/* "1234.567890" / "1234.567890123" / "123456789" up to @e; NULL if not one */
static const char *scan_ts(const char *s, const char *e, uint64_t *ts, int *frac)
{
	uint64_t sec = 0, f = 0;
	const char *p = s;
	int nd = 0;

	while (p < e && is_digit(*p))
		sec = sec * 10 + (uint64_t)(*p++ - '0');
	if (p == s)
		return NULL;
	if (p < e && *p == '.') {
		const char *q = ++p;

		while (p < e && is_digit(*p) && nd < 9) {
			f = f * 10 + (uint64_t)(*p++ - '0');
			nd++;
		}
		while (p < e && is_digit(*p))
			p++;
		if (p == q)
			return NULL;
		*frac = nd;
		while (nd++ < 9)
			f *= 10;
		*ts = sec * 1000000000ULL + f;
		return p;
	}
	*frac = -1;
	*ts = sec;
	return p;
}

/* irq-info flags "d.h1." : the hardirq / softirq column (trace_print_lat_fmt()) */
static unsigned int lat_flags(const char *s, size_t n)
{
	if (n < 3)
		return 0;
	switch (s[2]) {
	case 'H':	/* hardirq inside softirq */
		return GPULAT_EVF_HARDIRQ | GPULAT_EVF_SOFTIRQ;
	case 'h':
	case 'Z':	/* NMI inside hardirq */
		return GPULAT_EVF_HARDIRQ;
	case 's':
		return GPULAT_EVF_SOFTIRQ;
	default:
		return 0;
	}
}

static bool is_flag_char(char c)
{
	return c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z');
}

/* the end of a flags column starting at @p, NULL when a character is no flag */
static const char *flags_end(const char *p, const char *e)
{
	while (p < e && *p != ' ') {
		if (!is_flag_char(*p))
			return NULL;
		p++;
	}
	return p;
}

/* "name: args" after the timestamp's ':' */
static bool parse_name(const char *p, const char *e, struct lctx *c)
{
	const char *q;

	while (p < e && *p == ' ')
		p++;
	c->name = p;
	for (q = p; q < e && *q != ':' && *q != ' '; q++)
		;
	c->event = q < e && *q == ':' && q > p;
	c->name_len = (size_t)(q - p);
	if (!c->event) {
		c->args = q;
		return true;	/* a function tracer line: "func <-parent" */
	}
	q++;
	while (q < e && *q == ' ')
		q++;
	c->args = q;
	return true;
}

/*
 * tracefs / trace-cmd report: "<comm>-<pid> [(<tgid>)] [<cpu>] [<flags>] <ts>: ..."
 * (trace_print_context()). The comm may hold blanks and dashes: the line is
 * read from the "[cpu]" bracket outwards.
 */
static bool parse_std(const char *s, const char *e, struct lctx *c)
{
	const char *b, *p, *q, *start = s;
	int cpu = 0;

	while (start < e && *start == ' ')
		start++;
	for (b = start; ; b++) {
		b = memchr(b, '[', (size_t)(e - b));
		if (!b)
			return false;
		if (b > start && b[-1] == ' ' && b + 2 < e && is_digit(b[1])) {
			p = scan_small(b + 1, e, &cpu);
			if (p < e && *p == ']' && p + 1 < e && p[1] == ' ' && cpu < MAX_CPUS)
				break;
		}
	}
	c->cpu = cpu;
	/* back from the bracket: blanks, an optional "(  tgid)", blanks, the pid */
	q = b;
	while (q > start && q[-1] == ' ')
		q--;
	if (q > start && q[-1] == ')') {
		while (q > start && q[-1] != '(')
			q--;
		if (q == start)
			return false;
		q--;
		while (q > start && q[-1] == ' ')
			q--;
	}
	p = q;
	while (q > start && is_digit(q[-1]))
		q--;
	if (q == p || q == start || q[-1] != '-')
		return false;
	scan_small(q, p, &c->pid);
	if (c->pid == INT_MAX)
		return false;
	c->comm = start;
	c->comm_len = (size_t)(q - 1 - start);

	/* after "] ": flags (irq-info) and the timestamp, which ends with ':' */
	p = b;
	while (*p != ']')
		p++;
	p++;
	while (p < e && *p == ' ')
		p++;
	q = p;
	while (q < e && *q != ' ' && *q != ':')
		q++;
	c->irq_info = false;
	if (q < e && *q == ' ') {
		/* a flags column: "d.h1." (5.13+: migrate-disable digit too) */
		if (flags_end(p, e) != q || q - p > 6)
			return false;
		c->flags = lat_flags(p, (size_t)(q - p));
		c->irq_info = true;
		p = q;
		while (p < e && *p == ' ')
			p++;
	}
	q = scan_ts(p, e, &c->ts, &c->frac);
	if (!q || q >= e || *q != ':')
		return false;
	return parse_name(q + 1, e, c);
}

/*
 * latency-format: "%8.8s-%-7d %3d" comm, pid, cpu, then the flags, then
 * " %4lldus%c: " (microseconds since the buffer started, a delay mark;
 * lat_print_generic(), lat_print_timestamp()).
 */
static bool parse_lat(const char *s, const char *e, struct lctx *c)
{
	const char *p, *q, *f;
	uint64_t v = 0;

	if (e - s < 20 || s[8] != '-' || !is_digit(s[9]))
		return false;
	c->comm = s;
	while (c->comm < s + 8 && *c->comm == ' ')
		c->comm++;
	c->comm_len = (size_t)(s + 8 - c->comm);
	p = scan_small(s + 9, e, &c->pid);
	if (c->pid == INT_MAX)
		return false;
	while (p < e && *p == ' ')
		p++;
	q = scan_small(p, e, &c->cpu);
	if (q == p || c->cpu >= MAX_CPUS)
		return false;
	f = flags_end(q, e);
	if (!f)
		return false;
	c->flags = lat_flags(q, (size_t)(f - q));
	c->irq_info = true;
	p = f;
	while (p < e && *p == ' ')
		p++;
	for (q = p; q < e && is_digit(*q); q++)
		v = v * 10 + (uint64_t)(*q - '0');
	if (q == p)
		return false;
	if (starts(q, e, "us")) {
		q += 2;
		c->ts = v * 1000;
		c->frac = 6;
	} else {
		c->ts = v;
		c->frac = -1;
	}
	/* the delay mark: one of " !#$@*+" */
	if (q < e && *q != ':')
		q++;
	if (q >= e || *q != ':')
		return false;
	return parse_name(q + 1, e, c);
}

/* ------------------------------------------------------------------------ */
/* Headers and markers                                                        */

static void header_line(struct gpulat_text *x, const char *s, const char *e)
{
	const char *p;

	if (starts(s, e, "# tracer: ")) {
		size_t n = (size_t)(e - s) - 10;

		if (n >= sizeof(x->tracer))
			n = sizeof(x->tracer) - 1;
		memcpy(x->tracer, s + 10, n);
		x->tracer[n] = '\0';
		while (n && (x->tracer[n - 1] == ' ' || x->tracer[n - 1] == '\r'))
			x->tracer[--n] = '\0';
		return;
	}
	if (e - s > 20 && memmem(s, (size_t)(e - s), "latency trace v", 15)) {
		x->info.layout = GPULAT_TEXT_LATENCY;
		return;
	}
	/* "# entries-in-buffer/entries-written: 120/300   #P:4" */
	if (starts(s, e, "# entries-in-buffer/entries-written: ")) {
		unsigned long long in = 0, wr = 0;
		int cpus = 0;

		p = s + 37;
		if (sscanf(p, "%llu/%llu", &in, &wr) == 2 && wr > in)
			x->overwritten = wr - in;
		p = memmem(s, (size_t)(e - s), "#P:", 3);
		if (p && sscanf(p + 3, "%d", &cpus) == 1 && cpus > x->info.cpus &&
		    cpus <= MAX_CPUS)
			x->info.cpus = cpus;
	}
}

/*
 * "CPU:2 [LOST 123 EVENTS]" (tracefs), "CPU:2 [123 EVENTS DROPPED]" and
 * "CPU:2 [EVENTS DROPPED]" (trace-cmd report). Return 1 and the cpu and
 * count (0 = unknown) for one, 0 otherwise.
 */
static int lost_marker(const char *s, const char *e, int *cpu, uint64_t *count)
{
	const char *p;

	while (s < e && *s == ' ')
		s++;
	if (!starts(s, e, "CPU:"))
		return 0;
	p = scan_small(s + 4, e, cpu);
	if (p == s + 4 || *cpu >= MAX_CPUS || !starts(p, e, " ["))
		return 0;
	p += 2;
	*count = 0;
	if (starts(p, e, "LOST ")) {
		p += 5;
		if (is_digit(*p))
			*count = strtoull(p, NULL, 10);
		return memmem(p, (size_t)(e - p), "EVENTS]", 7) ? 1 : 0;
	}
	if (is_digit(*p))
		*count = strtoull(p, NULL, 10);
	return memmem(p, (size_t)(e - p), "EVENTS DROPPED]", 15) ? 1 : 0;
}

/* lines trace-cmd report and tracefs print that are no event */
static bool known_line(struct gpulat_text *x, const char *s, const char *e)
{
	const char *p = s;

	if (s == e || (e - s == 1 && *s == '\r'))
		return true;
	if (*s == '#')
		return true;
	if (starts(s, e, "cpus=") || starts(s, e, "version = ")) {
		x->info.layout = GPULAT_TEXT_REPORT;
		return true;
	}
	if (starts(s, e, "trace-cmd: "))
		return true;
	while (p < e && *p == ' ')
		p++;
	/* "CPU 3 is empty", "CPU0 data recorded at offset=..." */
	if (starts(p, e, "CPU ") && memmem(p, (size_t)(e - p), "is empty", 8))
		return true;
	if (starts(p, e, "CPU") && memmem(p, (size_t)(e - p), "data recorded at", 16))
		return true;
	/* our plugin's end-of-report summary (plugin_gpu_sched.c) */
	if (starts(s, e, "gpu_sched: job latency summary")) {
		x->summary = true;
		return true;
	}
	return false;
}

/* a function_graph line: " 1)   0.123 us    |  func();" or " 1)               |  func() {" */
static bool graph_line(const char *s, const char *e)
{
	while (s < e && *s == ' ')
		s++;
	if (s >= e || !is_digit(*s))
		return false;
	while (s < e && is_digit(*s))
		s++;
	return s < e && *s == ')' && memchr(s, '|', (size_t)(e - s));
}

/* ------------------------------------------------------------------------ */
/* Events                                                                     */

static const char *comm_of(struct gpulat_text *x, const struct lctx *c)
{
	struct commcache *cc = &x->comms[(unsigned int)c->pid % COMM_CACHE];
	const char *s;

	if (cc->s && cc->pid == c->pid && cc->len == c->comm_len &&
	    !memcmp(cc->s, c->comm, c->comm_len))
		return cc->s;
	/* escaped as bind.c does; only verbatim names are cached by their raw bytes */
	s = gpulat__strtab_intern_name(x->strs, c->comm, c->comm_len);
	if (s && strlen(s) == c->comm_len && !memcmp(s, c->comm, c->comm_len)) {
		cc->pid = c->pid;
		cc->s = s;
		cc->len = c->comm_len;
	}
	return s;
}

static int grow_cpus(struct gpulat_text *x, int cpu)
{
	int n = x->ncpu ? x->ncpu : 8;
	uint64_t *a, *b;

	while (n <= cpu)
		n *= 2;
	a = realloc(x->cpu_last, (size_t)n * sizeof(*a));
	if (!a)
		return -ENOMEM;
	x->cpu_last = a;
	b = realloc(x->lost_pending, (size_t)n * sizeof(*b));
	if (!b)
		return -ENOMEM;
	x->lost_pending = b;
	memset(a + x->ncpu, 0, (size_t)(n - x->ncpu) * sizeof(*a));
	memset(b + x->ncpu, 0, (size_t)(n - x->ncpu) * sizeof(*b));
	x->ncpu = n;
	return 0;
}

static bool is_gpu(enum gpulat_kind k)
{
	return gpulat__is_gpu_kind(k);
}

static void note_era(struct gpulat_text *x, const struct evname *n, const struct gpulat_event *ev)
{
	switch (n->kind) {
	case GPULAT_EV_QUEUE:
	case GPULAT_EV_RUN:
	case GPULAT_EV_DONE:
	case GPULAT_EV_DEP:
	case GPULAT_EV_UNSCHED:
		if (!strncmp(n->name, "drm_sched_job_", 14) &&
		    strcmp(n->name, "drm_sched_job_wait_dep"))
			x->seen617 = true;
		else if (!strcmp(n->name, "drm_run_job"))
			x->seen_run_old = true;
		else
			x->seen_old = true;
		if (n->kind == GPULAT_EV_DONE && !x->seen617)
			x->seen_done_old = true;
		if (ev->flags & GPULAT_EVF_RING_PTR)
			x->ring_ptr = true;
		if (n->kind != GPULAT_EV_DEP && n->kind != GPULAT_EV_UNSCHED)
			x->la_jobs++;
		break;
	case GPULAT_EV_AMD_CS:
	case GPULAT_EV_AMD_RUN:
		x->seen_amd = true;
		x->la_jobs++;
		break;
	case GPULAT_EV_I915_ADD:
	case GPULAT_EV_I915_SUBMIT:
	case GPULAT_EV_I915_IN:
	case GPULAT_EV_I915_OUT:
	case GPULAT_EV_I915_RETIRE:
		/*
		 * i915 requests (no drm_sched), as bind.c's detect_era(): every
		 * stage that makes jobs (gpulat_kind_makes_jobs()), or a log of
		 * retires alone made jobs and then "no GPU scheduler events" (X2)
		 */
		x->seen_i915 = true;
		x->la_jobs++;
		break;
	case GPULAT_EV_FENCE_SIGNALED:
		x->info.signals = true;
		break;
	default:
		break;
	}
}

static enum gpulat_era decide_era(struct gpulat_text *x)
{
	if (x->seen617)
		return GPULAT_ERA_V617;
	if (x->seen_run_old)
		return x->ring_ptr ? GPULAT_ERA_V57 : GPULAT_ERA_V519;
	/* done events but never a run: a 4.16-5.6 kernel (no drm_run_job) */
	if (x->seen_old && x->seen_done_old)
		return GPULAT_ERA_PRE57;
	if (x->seen_old) {
		/* queue events only (a grep for one process): no way to tell */
		x->info.era_guessed = true;
		return x->ring_ptr ? GPULAT_ERA_V57 : GPULAT_ERA_V519;
	}
	if (x->seen_amd)
		return GPULAT_ERA_AMDGPU;
	if (x->seen_i915)
		return GPULAT_ERA_I915;
	return GPULAT_ERA_NONE;
}

/* one event (or lost marker) to the tracker and the hook */
static int deliver(struct gpulat_text *x, const struct la_item *it)
{
	int ret;

	if (it->lost) {
		if (x->t)
			gpulat_tracker_lost_range(x->t, it->ev.cpu, it->lost_from, it->ev.ts,
						  it->lost_count);
		return 0;
	}
	if (x->t) {
		ret = gpulat_tracker_feed(x->t, &it->ev);
		if (ret < 0)
			return x->stop = ret;
	}
	if (x->hook) {
		ret = x->hook(&it->ev, NULL, x->file, x->hook_data);
		if (ret < 0)
			return x->stop = ret;
	}
	return 0;
}

static void start_tracker(struct gpulat_text *x)
{
	x->info.era = decide_era(x);
	if (x->t) {
		gpulat_tracker_set_era(x->t, x->info.era);
		gpulat_tracker_set_signal_expected(x->t, x->info.signals);
	}
	if (x->start)
		x->start(x->info.era, x->info.signals, x->start_data);
}

/* end the look-ahead: decide the era and deliver what was kept */
static int flush_la(struct gpulat_text *x)
{
	size_t i;
	int ret;

	if (!x->deciding)
		return 0;
	x->deciding = false;
	start_tracker(x);
	for (i = 0; i < x->nla; i++) {
		ret = deliver(x, &x->la[i]);
		if (ret < 0)
			return ret;
	}
	free(x->la);
	x->la = NULL;
	x->nla = 0;
	return 0;
}

static int emit(struct gpulat_text *x, const struct la_item *it)
{
	if (!x->deciding)
		return deliver(x, it);
	x->la[x->nla++] = *it;
	if (x->nla >= LA_MAX || x->la_jobs >= LA_JOB_EVENTS)
		return flush_la(x);
	return 0;
}

static void note_first(uint64_t *first, uint64_t line)
{
	if (!*first)
		*first = line;
}

static int event_line(struct gpulat_text *x, const struct lctx *c, const char *e)
{
	struct la_item it;
	struct evname *n;
	unsigned int how = 0;
	int ret;

	x->info.events++;
	if (x->info.first_ts == GPULAT_NONE || c->ts < x->info.first_ts)
		x->info.first_ts = c->ts;
	if (x->info.last_ts == GPULAT_NONE || c->ts > x->info.last_ts)
		x->info.last_ts = c->ts;
	if (c->frac < x->min_frac)
		x->min_frac = c->frac;
	if (c->irq_info)
		x->info.irq_info = true;
	if (c->cpu >= x->ncpu && grow_cpus(x, c->cpu) < 0)
		return -ENOMEM;
	if (c->cpu + 1 > x->info.cpus)
		x->info.cpus = c->cpu + 1;

	if (x->lost_pending[c->cpu]) {
		memset(&it, 0, sizeof(it));
		it.lost = true;
		it.ev.cpu = c->cpu;
		it.ev.ts = c->ts;
		it.lost_from = x->cpu_last[c->cpu];
		it.lost_count = x->lost_pending[c->cpu] - 1;
		x->lost_pending[c->cpu] = 0;
		ret = emit(x, &it);
		if (ret < 0)
			return ret;
	}
	x->cpu_last[c->cpu] = c->ts;

	/*
	 * 6.13+ ignore_event(): an event whose %s field points outside the
	 * record is replaced by "EVENT <name>: HAS UNSAFE POINTER FIELD '<f>'"
	 */
	if ((!c->event && starts(c->name, e, "EVENT ")) ||
	    (c->event && starts(c->args, e, "EVENT ") &&
	     memmem(c->args, (size_t)(e - c->args), "HAS UNSAFE POINTER", 18))) {
		if (!x->info.cut++)
			twarn(x, "line %llu: an event the kernel refused to print (HAS UNSAFE "
			      "POINTER, 6.13+ string check); it is counted, not used",
			      (unsigned long long)x->info.lines);
		note_first(&x->info.first_cut_line, x->info.lines);
		return 0;
	}
	if (!c->event)
		return 0;
	n = find_name(x, c->name, c->name_len);
	if (!n)
		return 0;
	/* as bind.c: the irq/sched/power kinds are context, vblank ones are not */
	if (!x->context && n->kind >= GPULAT_EV_IRQ_ENTRY && n->kind <= GPULAT_EV_CPU_FREQ)
		return 0;

	memset(&it, 0, sizeof(it));
	it.ev.ts = c->ts;
	it.ev.cpu = c->cpu;
	it.ev.pid = c->pid;
	it.ev.kind = n->kind;
	it.ev.flags = c->flags;
	it.ev.dev = x->fc.empty;
	it.ev.file = x->file;
	if (gpulat__tfmt_parse(&x->fc, n->fam, n->kind, c->args, e, &it.ev, &n->cache,
			       &how) < 0) {
		x->info.bad_args++;
		note_first(&x->info.first_bad_line, x->info.lines);
		if (!n->bad++)
			twarn(x, "line %llu: %s: arguments match no known print format "
			      "(expected \"%s\"); such lines are counted, not used",
			      (unsigned long long)x->info.lines, n->name,
			      gpulat__tfmt_format(n->fam, 0));
		return 0;
	}
	if (how & GPULAT__TX_CUT) {
		if (!x->info.cut++)
			twarn(x, "line %llu: %s: the kernel refused to print a string "
			      "([UNSAFE-MEMORY] / (fault), 5.12+ string check); the ring "
			      "is taken from its pointer", (unsigned long long)x->info.lines,
			      n->name);
		note_first(&x->info.first_cut_line, x->info.lines);
	}
	if (how & GPULAT__TX_PLUGIN)
		x->info.plugin = true;
	if (how & GPULAT__TX_HASHED)
		x->info.hashed = true;
	if (how & GPULAT__TX_RAWPTR)
		x->raw_ptr = true;
	/* the kinds bind.c gives the submitter's comm */
	if (n->kind == GPULAT_EV_QUEUE || n->kind == GPULAT_EV_AMD_CS ||
	    n->kind == GPULAT_EV_I915_ADD || n->kind == GPULAT_EV_I915_QUEUE ||
	    n->kind == GPULAT_EV_I915_WAIT_BEGIN || n->kind == GPULAT_EV_I915_WAIT_END ||
	    n->kind == GPULAT_EV_XE_JOB_CREATE ||
	    n->kind == GPULAT_EV_FENCE_WAIT_START || n->kind == GPULAT_EV_FENCE_WAIT_END ||
	    n->kind == GPULAT_EV_VBLANK_QUEUED || n->kind == GPULAT_EV_VBLANK_DELIVERED)
		it.ev.comm = comm_of(x, c);
	x->info.kind[n->kind]++;
	if (is_gpu(n->kind))
		x->info.gpu_events++;
	if (x->deciding)
		note_era(x, n, &it.ev);
	else if (n->kind == GPULAT_EV_FENCE_SIGNALED)
		x->info.signals = true;
	return emit(x, &it);
}

static int line(struct gpulat_text *x, const char *s, const char *e)
{
	struct lctx c;
	uint64_t count;
	int cpu;
	bool ok;

	x->info.lines++;
	if (e > s && e[-1] == '\r')
		e--;
	if (known_line(x, s, e)) {
		if (*s == '#')
			header_line(x, s, e);
		return 0;
	}
	if (lost_marker(s, e, &cpu, &count)) {
		if (cpu >= x->ncpu && grow_cpus(x, cpu) < 0)
			return -ENOMEM;
		x->info.lost_gaps++;
		x->info.lost_events += count;
		x->lost_pending[cpu] += count + (x->lost_pending[cpu] ? 0 : 1);
		return 0;
	}
	memset(&c, 0, sizeof(c));
	if (x->info.layout == GPULAT_TEXT_LATENCY)
		ok = parse_lat(s, e, &c) || parse_std(s, e, &c);
	else
		ok = parse_std(s, e, &c) || parse_lat(s, e, &c);
	if (ok)
		return event_line(x, &c, e);
	if (x->summary)
		return 0;
	if (!x->info.unparsed++) {
		int n = (int)(e - s > 80 ? 80 : e - s);

		twarn(x, "line %llu is no ftrace event line: \"%.*s\"",
		      (unsigned long long)x->info.lines, n, s);
	}
	note_first(&x->info.first_unparsed_line, x->info.lines);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Input                                                                      */

/* read more into the buffer; 0 at end of input, < 0 on error */
static ssize_t fill(struct gpulat_text *x)
{
	ssize_t n;

	if (x->off) {
		memmove(x->buf, x->buf + x->off, x->len - x->off);
		x->len -= x->off;
		x->off = 0;
	}
	if (x->len == BUF_SIZE) {
		/* one line longer than the buffer: cut it, count it */
		x->info.unparsed++;
		note_first(&x->info.first_unparsed_line, x->info.lines + 1);
		x->len = 0;
	}
	do {
		n = read(x->fd, x->buf + x->len, BUF_SIZE - x->len);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		x->eof = true;
	x->len += (size_t)n;
	return n;
}

bool gpulat_text_probe(const void *buf, size_t len)
{
	const char *s = buf, *e = s + len, *nl;
	unsigned int lines = 0;
	struct lctx c;

	if (!len || memchr(s, '\0', len))
		return false;
	for (; s < e && lines < 64; s = nl + 1, lines++) {
		nl = memchr(s, '\n', (size_t)(e - s));
		if (!nl)
			nl = e;
		if (starts(s, nl, "# tracer: ") || starts(s, nl, "cpus=") ||
		    starts(s, nl, "version = ") || graph_line(s, nl))
			return true;
		memset(&c, 0, sizeof(c));
		if (*s != '#' && (parse_std(s, nl, &c) || parse_lat(s, nl, &c)))
			return true;
	}
	return false;
}

static struct gpulat_text *alloc_reader(const char *label)
{
	struct gpulat_text *x = calloc(1, sizeof(*x));

	if (!x)
		return NULL;
	x->fd = -1;
	x->context = true;
	x->path = strdup(label);
	x->strs = gpulat__strtab_new();
	x->buf = malloc(BUF_SIZE);
	if (!x->path || !x->strs || !x->buf)
		goto fail;
	x->fc.strs = x->strs;
	x->fc.empty = gpulat__strtab_intern(x->strs, "");
	x->fc.unknown = gpulat__strtab_intern(x->strs, "?");
	if (!x->fc.empty || !x->fc.unknown || build_names(x) < 0 || grow_cpus(x, 0) < 0)
		goto fail;
	x->info.first_ts = x->info.last_ts = GPULAT_NONE;
	x->min_frac = 9;
	return x;
fail:
	gpulat_text_close(x);
	return NULL;
}

/* check the first bytes: an ftrace text log, and not of a foreign layout */
static int check_start(struct gpulat_text *x, bool stream, char *err, size_t errlen)
{
	const char *s, *e, *nl;
	ssize_t n;

	while (!x->eof && x->len < PROBE_SIZE) {
		n = fill(x);
		if (n < 0) {
			terr(x->path, err, errlen, "%s", strerror((int)-n));
			return (int)n;
		}
		/*
		 * A live stream (trace_pipe) may take minutes to fill the probe:
		 * its complete lines so far decide as soon as they are an ftrace log.
		 */
		nl = stream ? memrchr(x->buf, '\n', x->len) : NULL;
		if (nl && gpulat_text_probe(x->buf, (size_t)(nl - x->buf) + 1))
			break;
	}
	if (!x->len) {
		terr(x->path, err, errlen, "empty input, not an ftrace text log");
		return -ENODATA;
	}
	if (!gpulat_text_probe(x->buf, x->len < PROBE_SIZE ? x->len : PROBE_SIZE)) {
		terr(x->path, err, errlen, "not a trace-cmd data file nor an ftrace text log "
		     "(no line like \"comm-pid [cpu] ts: event: ...\")");
		return -EINVAL;
	}
	/* the tracer header, and function_graph output (no events to read) */
	for (s = x->buf, e = x->buf + x->len; s < e; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(e - s));
		if (!nl)
			break;
		if (*s == '#')
			header_line(x, s, nl);
		else if (graph_line(s, nl) && !x->tracer[0])
			snprintf(x->tracer, sizeof(x->tracer), "function_graph");
		if (x->tracer[0])
			break;
	}
	if (!strcmp(x->tracer, "function_graph") || !strcmp(x->tracer, "blk") ||
	    !strcmp(x->tracer, "mmiotrace")) {
		terr(x->path, err, errlen, "a log of the %s tracer, which prints no trace events "
		     "in the event layout; record with the nop tracer and the GPU events "
		     "(echo nop > current_tracer; echo 1 > events/gpu_scheduler/enable)",
		     x->tracer);
		return -EPROTO;
	}
	return 0;
}

static struct gpulat_text *open_fd(int fd, const char *label, bool stream, char *err, size_t errlen)
{
	struct gpulat_text *x = alloc_reader(label ? label : "-");
	int ret;

	if (!x) {
		terr(label ? label : "-", err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	x->fd = fd;
	ret = check_start(x, stream, err, errlen);
	if (ret < 0) {
		gpulat_text_close(x);
		errno = -ret;
		return NULL;
	}
	return x;
}

struct gpulat_text *gpulat_text_open_fd(int fd, const char *label, char *err, size_t errlen)
{
	return open_fd(fd, label, false, err, errlen);
}

struct gpulat_text *gpulat_text_open_stream(int fd, const char *label, char *err, size_t errlen)
{
	return open_fd(fd, label, true, err, errlen);
}

struct gpulat_text *gpulat_text_open(const char *path, char *err, size_t errlen)
{
	struct gpulat_text *x;
	int fd;

	if (!path) {
		terr(NULL, err, errlen, "no input given");
		errno = EINVAL;
		return NULL;
	}
	if (!strcmp(path, "-")) {
		x = gpulat_text_open_fd(STDIN_FILENO, "(stdin)", err, errlen);
		return x;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;

		terr(path, err, errlen, "%s", strerror(e));
		errno = e;
		return NULL;
	}
	x = gpulat_text_open_fd(fd, path, err, errlen);
	if (!x) {
		int e = errno;

		close(fd);
		errno = e;
		return NULL;
	}
	x->own_fd = true;
#ifdef POSIX_FADV_SEQUENTIAL
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
	return x;
}

void gpulat_text_close(struct gpulat_text *x)
{
	if (!x)
		return;
	if (x->own_fd && x->fd >= 0)
		close(x->fd);
	gpulat__strtab_free(x->strs);
	free(x->la);
	free(x->cpu_last);
	free(x->lost_pending);
	free(x->buf);
	free(x->path);
	free(x);
}

void gpulat_text_set_warn(struct gpulat_text *x, gpulat_warn_fn fn, void *data)
{
	x->warn = fn;
	x->warn_data = data;
}

void gpulat_text_set_context(struct gpulat_text *x, bool on)
{
	x->context = on;
}

void gpulat_text_set_start(struct gpulat_text *x, gpulat_text_start_fn fn, void *data)
{
	x->start = fn;
	x->start_data = data;
}

void gpulat_text_set_file_index(struct gpulat_text *x, int file)
{
	x->file = file;
}

static unsigned int missing(const struct gpulat_text *x)
{
	const uint64_t *k = x->info.kind;
	unsigned int m = 0;

	if (!k[GPULAT_EV_QUEUE] && !k[GPULAT_EV_AMD_CS] && !k[GPULAT_EV_I915_ADD])
		m |= 1u << GPULAT_ST_QUEUE;
	if (!k[GPULAT_EV_RUN] && !k[GPULAT_EV_AMD_RUN] && !k[GPULAT_EV_I915_SUBMIT] &&
	    x->info.era != GPULAT_ERA_PRE57)
		m |= 1u << GPULAT_ST_RUN;
	/* i915: done from i915_request_out, the fence signal or the retire */
	if (!k[GPULAT_EV_DONE] && x->info.era != GPULAT_ERA_AMDGPU &&
	    x->info.era != GPULAT_ERA_I915)
		m |= 1u << GPULAT_ST_DONE;
	if (!k[GPULAT_EV_FENCE_SIGNALED])
		m |= 1u << GPULAT_ST_SIGNAL;
	return m;
}

int gpulat_text_begin(struct gpulat_text *x, struct gpulat_tracker *t, gpulat_text_hook_fn hook,
		      void *data, char *err, size_t errlen)
{
	if (x->ran) {
		terr(x->path, err, errlen, "the reader was already run");
		return -EALREADY;
	}
	x->ran = true;
	x->t = t;
	x->hook = hook;
	x->hook_data = data;
	x->la = malloc(LA_MAX * sizeof(*x->la));
	if (!x->la) {
		terr(x->path, err, errlen, "out of memory");
		return -ENOMEM;
	}
	x->deciding = true;
	if (x->info.layout == GPULAT_TEXT_UNKNOWN)
		x->info.layout = GPULAT_TEXT_TRACEFS;
	return 0;
}

/* the complete lines in the buffer; at end of input the last one too */
static int lines(struct gpulat_text *x)
{
	const char *s = x->buf + x->off, *e = x->buf + x->len, *nl;
	int ret;

	while (s < e && (nl = memchr(s, '\n', (size_t)(e - s)))) {
		ret = line(x, s, nl);
		if (ret < 0)
			return ret;
		s = nl + 1;
	}
	x->off = (size_t)(s - x->buf);
	/* a last line without newline: possibly cut (log rotated) */
	if (x->eof && x->off < x->len) {
		ret = line(x, x->buf + x->off, x->buf + x->len);
		if (ret < 0)
			return ret;
		x->off = x->len;
	}
	return 0;
}

int gpulat_text_pump(struct gpulat_text *x, char *err, size_t errlen)
{
	ssize_t n;
	int ret;

	if (!x->ran)
		return -EINVAL;
	ret = lines(x);
	if (ret < 0)
		goto stop;
	if (x->eof)
		return 0;
	n = fill(x);
	if (n < 0) {
		terr(x->path, err, errlen, "read error: %s", strerror((int)-n));
		return (int)n;
	}
	ret = lines(x);
	if (ret < 0)
		goto stop;
	return x->eof ? 0 : 1;
stop:
	if (x->stop < 0) {
		terr(x->path, err, errlen, "stopped: %s", strerror(-x->stop));
		return x->stop;
	}
	terr(x->path, err, errlen, "%s", strerror(-ret));
	return ret;
}

int gpulat_text_settle(struct gpulat_text *x)
{
	/* a live log cannot wait for LA_JOB_EVENTS: decide on what came */
	if (!x->deciding || !x->la_jobs)
		return 0;
	return flush_la(x);
}

int gpulat_text_end(struct gpulat_text *x, char *err, size_t errlen)
{
	struct gpulat_tracker *t = x->t;
	int ret;

	ret = flush_la(x);
	if (ret < 0)
		goto out;
	/* libtraceevent prints %p as 0x...; tracefs hashes it (or %px: 0x...) */
	if (x->info.layout == GPULAT_TEXT_TRACEFS && !x->tracer[0] &&
	    (x->info.plugin || (x->raw_ptr && !x->info.hashed)))
		x->info.layout = GPULAT_TEXT_REPORT;
	if (x->info.cpus < x->ncpu && x->info.cpus == 0)
		x->info.cpus = 1;
	x->info.resolution_ns = 1;
	if (x->min_frac < 0) {
		x->info.raw_clock = true;
	} else {
		int i;

		for (i = x->min_frac; i < 9; i++)
			x->info.resolution_ns *= 10;
	}
	if (x->info.lines && !x->info.events) {
		terr(x->path, err, errlen, "no ftrace event lines in %llu lines (%s)",
		       (unsigned long long)x->info.lines,
		       x->tracer[0] ? x->tracer : "not an event log");
		ret = -ENODATA;
		goto out;
	}
	if (x->info.era == GPULAT_ERA_NONE) {
		terr(x->path, err, errlen, "no GPU scheduler events in this log (%llu event lines%s%s)",
		     (unsigned long long)x->info.events, x->tracer[0] ? ", tracer " : "",
		     x->tracer);
		ret = -ENODATA;
		goto out;
	}
	if (t)
		gpulat_tracker_flush(t, x->info.last_ts == GPULAT_NONE ? 0 : x->info.last_ts);
	x->info.missing_stages = missing(x);
	if (x->overwritten)
		twarn(x, "%llu older events were overwritten in the ring buffer before the log "
		      "was read (its start differs per CPU)", (unsigned long long)x->overwritten);
	if (x->info.unparsed)
		twarn(x, "%llu lines could not be parsed (first: line %llu)",
		      (unsigned long long)x->info.unparsed,
		      (unsigned long long)x->info.first_unparsed_line);
	if (x->info.bad_args)
		twarn(x, "%llu GPU event lines match no known print format (first: line %llu)",
		      (unsigned long long)x->info.bad_args,
		      (unsigned long long)x->info.first_bad_line);
	if (x->info.cut)
		twarn(x, "%llu GPU event lines have a string the kernel refused to print "
		      "(first: line %llu)", (unsigned long long)x->info.cut,
		      (unsigned long long)x->info.first_cut_line);
	ret = 0;
out:
	if (x->stop < 0) {
		terr(x->path, err, errlen, "stopped: %s", strerror(-x->stop));
		return x->stop;
	}
	return ret;
}

int gpulat_text_run(struct gpulat_text *x, struct gpulat_tracker *t, gpulat_text_hook_fn hook,
		    void *data, char *err, size_t errlen)
{
	int ret;

	ret = gpulat_text_begin(x, t, hook, data, err, errlen);
	if (ret < 0)
		return ret;
	do
		ret = gpulat_text_pump(x, err, errlen);
	while (ret > 0);
	if (ret < 0)
		return ret;
	return gpulat_text_end(x, err, errlen);
}

void gpulat_text_info(const struct gpulat_text *x, struct gpulat_text_info *info)
{
	*info = x->info;
	info->tracer = x->tracer;
}

const char *gpulat_text_layout_name(enum gpulat_text_layout l)
{
	switch (l) {
	case GPULAT_TEXT_TRACEFS:
		return "tracefs";
	case GPULAT_TEXT_LATENCY:
		return "tracefs latency-format";
	case GPULAT_TEXT_REPORT:
		return "trace-cmd report";
	default:
		return "unknown";
	}
}

const char *gpulat_text_path(const struct gpulat_text *x)
{
	return x->path;
}

const char *gpulat_text_intern(struct gpulat_text *x, const char *s)
{
	return gpulat__strtab_intern(x->strs, s);
}
