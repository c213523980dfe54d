/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * Reader internals shared by read.c (open, validate, per-record handling)
 * and read-merge.c (the time-ordered merge and the handle reopening).
 */
#ifndef _GPULAT_READ_INT_H
#define _GPULAT_READ_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "gpulat-int.h"
#include "gpulat-tracecmd.h"
#include "gpulat-read.h"

/*
 * Ring-buffer bytes read through one libtracecmd handle before it is
 * replaced by a fresh one (read-merge.c explains why); the environment
 * variable GPULAT_REOPEN_BYTES overrides it (0: never reopen).
 */
#define GPULAT_REOPEN_BYTES	(8u << 20)

/* how libtracecmd holds the file's pages (read-drop.c) */
enum gpulat__mapped {
	GPULAT_MAP_UNKNOWN,
	GPULAT_MAP_FILE,	/* mmap of the file: pages are dropped behind */
	GPULAT_MAP_NONE,	/* malloc'ed (compressed): handles are reopened */
};

/* the part of one CPU's file mapping whose pages may still be resident */
struct gpulat__window {
	uintptr_t		start, end;	/* the mapping */
	uintptr_t		drop_from;	/* pages below were dropped */
};

struct gpulat__zfile;
struct gpulat__maps;

/* one CPU's data in a v6 file: the flyrecord CPU table (read-check.c) */
struct gpulat__cpuspan {
	uint64_t		off, size;
};

struct rfile {
	struct gpulat_reader	*r;
	int			idx;
	const char		*path;
	struct tracecmd_input	*h;		/* headers, tep and binding: kept open */
	struct tep_handle	*tep;
	struct gpulat_binding	*b;
	enum gpulat_era		era;
	int			cpus;
	int			cpu_base;
	uint64_t		*cpu_last;	/* last record ts per cpu (lost windows) */
	char			first_warn[256];
	char			*kept[8];	/* warnings before a callback was set */
	int			nkept;
	/* reading (read-merge.c) */
	struct tracecmd_input	*dh;		/* records come from here: h, then reopens */
	bool			h_data;		/* h has libtracecmd's CPU data (open_data()) */
	int			page_size;
	uint64_t		since_open;	/* ring-buffer bytes read through dh */
	double			open_cost;	/* seconds the last open of this file took */
	double			opened_at;	/* monotonic seconds when dh was opened */
	bool			no_reopen;	/* a reopen failed: go on with dh */
	uint64_t		size;		/* of the file, bytes */
	dev_t			dev;		/* the file, to recognise its mappings */
	ino_t			ino;
	enum gpulat__mapped	mapped;
	struct gpulat__zfile	*z;		/* zstd CPU data read by read-zstd.c */
	struct gpulat__cpuspan	*span;		/* v6: CPU table, else NULL */
	int			nspan;
	bool			shifts;		/* v6: options change its timestamps */
	struct gpulat__maps	*hmaps;		/* v6: what h mapped (read-unmap.c) */
	struct gpulat__maps	*dmaps;		/* v6: what dh mapped when dh != h */
	bool			ztried;		/* gpulat__reader_try_zstd() was done */
	char			*zwhy;		/* libtracecmd may not read its chunks (T15) */
};

struct gpulat_reader {
	struct rfile		*f;
	int			n;
	enum gpulat_era		era;
	bool			signals;
	bool			ran;
	uint64_t		first_ts, last_ts;
	struct gpulat_reader_counts c;
	gpulat_warn_fn		warn;
	void			*warn_data;
	uint64_t		reopen_bytes;	/* 0: never */
	unsigned int		threads;	/* -j N for one report: <= 1 one thread */
	unsigned int		threads_used;	/* by the run (read-par.c), 1: one */
	bool			no_records;	/* no hook reads record data (read-par.c) */
	bool			reopen_forced;	/* set from the environment: no cost check */
	/* during run */
	struct gpulat_tracker	*t;
	gpulat_reader_hook_fn	hook;
	void			*hook_data;
	int			stop;
	const char		*looped;	/* the file whose records ran back (F7) */
	const char		*zfailed;	/* the file whose chunk did not decompress */
};

double gpulat__now(void);
/* read-check.c: the file's structure before libtracecmd reads it; 0 or -1 + @why */
int gpulat__check_trace(const char *path, char *why, size_t whylen, struct gpulat__cpuspan **span,
			int *nspan, bool *shifts);
int gpulat__check_chunks(const char *path, char *why, size_t whylen);
bool gpulat__page_ok(struct tep_handle *tep, const void *page, int page_size);
/* an @n-byte number at @p of a file in that byte order (big-endian if @big) */
uint64_t gpulat__file_num(const unsigned char *p, int n, bool big);

/* the option ids of trace-cmd's enum tracecmd_file_options that the checks read */
enum gpulat__opt {
	GPULAT__OPT_DONE		= 0,
	GPULAT__OPT_DATE		= 1,
	GPULAT__OPT_CPUSTAT		= 2,
	GPULAT__OPT_BUFFER		= 3,
	GPULAT__OPT_TRACECLOCK		= 4,
	GPULAT__OPT_UNAME		= 5,
	GPULAT__OPT_HOOK		= 6,
	GPULAT__OPT_OFFSET		= 7,
	GPULAT__OPT_CPUCOUNT		= 8,
	GPULAT__OPT_VERSION		= 9,
	GPULAT__OPT_PROCMAPS		= 10,
	GPULAT__OPT_TIME_SHIFT		= 12,
	GPULAT__OPT_GUEST		= 13,
	GPULAT__OPT_TSC2NSEC		= 14,
	GPULAT__OPT_STRINGS		= 15,
	GPULAT__OPT_HEADER_INFO		= 16,
	GPULAT__OPT_FTRACE_EVENTS	= 17,
	GPULAT__OPT_EVENT_FORMATS	= 18,
	GPULAT__OPT_KALLSYMS		= 19,
	GPULAT__OPT_PRINTK		= 20,
	GPULAT__OPT_CMDLINES		= 21,
	GPULAT__OPT_BUFFER_TEXT		= 22,
};

/* what libtracecmd makes of a "[clock]" text (read-opts.c) */
enum gpulat__clock {
	GPULAT__CLOCK_NONE,	/* no word starting with '[': the clock is left as it was */
	GPULAT__CLOCK_EMPTY,	/* a word with only white space between brackets: no clock */
	GPULAT__CLOCK_SET,	/* a clock name */
	GPULAT__CLOCK_BAD,	/* brackets only: libtracecmd 1.3.1 calls sscanf(NULL) */
};
enum gpulat__clock gpulat__clock_text(const char *text);
/* option @id makes libtracecmd correct the records' timestamps (read-opts.c) */
bool gpulat__opt_shifts(unsigned int id);
/* the name of an option read-opts.c has a rule for (libtracecmd parses it at open), else NULL */
const char *gpulat__opt_name(unsigned int id);
/*
 * why option @id's @n bytes (numbers big-endian if @big) would crash or
 * mislead libtracecmd's open, or NULL; *@clock: what a TRACECLOCK text left
 */
const char *gpulat__opt_problem(unsigned int id, const unsigned char *d, size_t n, bool big,
				enum gpulat__clock *clock);
int gpulat__pread_full(int fd, void *buf, size_t len, uint64_t off);
struct tracecmd_input *gpulat__open_trace(const char *path);
/* one record of @f: counts, lost windows, decode, tracker, hook; < 0 stops */
int gpulat__reader_record(struct gpulat_reader *r, struct rfile *f, struct tep_record *rec);
/* its parts for read-par.c, whose threads count the records and their lost windows */
void gpulat__reader_lost(struct gpulat_reader *r, int tcpu, uint64_t from,
			 const struct tep_record *rec);
/* decode (unless damaged), tracker, hook; < 0 stops */
int gpulat__reader_event(struct gpulat_reader *r, struct rfile *f, struct tep_record *rec,
			 int tcpu);
/* the same for @ev, @rec decoded already (by a binding clone); < 0 stops */
int gpulat__reader_decoded(struct gpulat_reader *r, struct rfile *f, struct tep_record *rec,
			   struct gpulat_event *ev, int tcpu);
void gpulat__drop_behind(struct rfile *f, struct gpulat__window *w, const void *data);

/* read-unmap.c: the pages libtracecmd 1.3.1 leaves mapped (FINDINGS F12) */
struct gpulat__snap;
struct gpulat__snap *gpulat__maps_snap(const struct rfile *f);
void gpulat__maps_snap_free(struct gpulat__snap *sn);
void gpulat__maps_drop_new(const struct rfile *f, struct gpulat__snap *sn);
struct gpulat__maps *gpulat__maps_new(const struct rfile *f);
void gpulat__maps_adopt(struct gpulat__maps *m, const struct rfile *f, struct gpulat__snap *sn);
void gpulat__maps_free(struct gpulat__maps *m);
void gpulat__maps_see(struct gpulat__maps *m, struct tracecmd_input *h, struct tep_record *rec);
void gpulat__maps_close(struct gpulat__maps *m, const struct rfile *f, struct tracecmd_input *h);

struct gpulat__zfile *gpulat__zfile_open(struct rfile *f);
struct tep_record *gpulat__zfile_head(struct gpulat__zfile *z, int cpu);
void gpulat__zfile_next(struct gpulat__zfile *z, int cpu);
int gpulat__zfile_result(struct gpulat_reader *r);
void gpulat__zfile_close(struct gpulat__zfile *z);
uint64_t gpulat__zfile_bytes(const struct gpulat__zfile *z, int cpu);
struct ZSTD_DCtx_s;
void gpulat__zfile_set_dctx(struct gpulat__zfile *z, int cpu, struct ZSTD_DCtx_s *dctx);
/* try_zstd() once per file (read-merge.c) */
void gpulat__reader_try_zstd(struct rfile *f);
/* every record in time order, read by @r->threads threads (read-par.c); 1: not taken */
int gpulat__reader_par(struct gpulat_reader *r);
/* drop @p from the active streams @act of both merges (read-merge.c) */
void gpulat__act_drop(void **act, int *n, const void *p);
/* every record of every file in time order; 0, -ENOMEM or a stop code */
int gpulat__reader_merge(struct gpulat_reader *r);

#endif /* _GPULAT_READ_INT_H */
