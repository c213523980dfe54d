/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat reader: trace.dat files (libtracecmd) -> binding -> tracker.
 *
 *   r = gpulat_reader_open(paths, n, err, sizeof(err));   one-line error on NULL
 *   gpulat_reader_run(r, tracker, hook, data, err, sizeof(err));
 *   gpulat_reader_span(r, &first, &last); gpulat_reader_counts(r, &c);
 *   gpulat_reader_close(r);
 *
 * Files are opened with TRACECMD_FL_LOAD_NO_PLUGINS (no plugin can change how
 * records decode). Several files are merged in time order. Streaming: memory
 * is that of libtracecmd plus the tracker's jobs in flight.
 */
#ifndef _GPULAT_READ_H
#define _GPULAT_READ_H

#include "gpulat.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gpulat_reader;
struct tracecmd_input;

/**
 * gpulat_reader_open - open and validate trace.dat files
 * @paths: file names
 * @n: how many (>= 1)
 * @err: on failure, one line naming the file and the problem (missing file,
 *	"not a trace-cmd data file", truncated/damaged, no GPU events with the
 *	gpulat_record_line() of each kernel era, unknown event layout)
 * @errlen: size of @err
 *
 * Return: the reader, or NULL with errno set and @err filled.
 */
struct gpulat_reader *gpulat_reader_open(const char **paths, int n, char *err, size_t errlen);
void gpulat_reader_close(struct gpulat_reader *r);

/*
 * A libtracecmd handle for front ends that read a file themselves (the
 * KernelShark ring helper): the same checks as gpulat_reader_open() (magic,
 * structure, page headers: lib/read-check.c) before libtracecmd reads it,
 * and no close of a half-built handle. NULL with @err set (one line).
 */
struct tracecmd_input *gpulat_trace_open(const char *path, int flags, char *err, size_t errlen);

/* warnings (binding layout problems, damaged records, era mismatch between files) */
void gpulat_reader_set_warn(struct gpulat_reader *r, gpulat_warn_fn fn, void *data);

/*
 * Called for every decoded event of ours (GPU, dma_fence, irq, sched, power)
 * after the tracker saw it. @file is the index in the paths given to open.
 * A negative return stops the iteration (gpulat_reader_run returns it).
 */
typedef int (*gpulat_reader_hook_fn)(const struct gpulat_event *ev, struct tep_record *rec,
				     int file, void *data);

/**
 * gpulat_reader_run - iterate every record of every file, merged in time order
 * @r: reader
 * @t: tracker fed with every event (may be NULL); its era and whether
 *	finished-fence signals are expected are set from the trace; it is
 *	flushed at the end
 * @hook: optional per-event hook
 * @data: its argument
 * @err: one-line error on failure (may be NULL)
 * @errlen: its size
 *
 * Lost events (ring-buffer overruns) are reported to the tracker with their
 * time window. Can be called once per reader.
 *
 * Return: 0, a negative errno, or the hook's negative return.
 */
int gpulat_reader_run(struct gpulat_reader *r, struct gpulat_tracker *t,
		      gpulat_reader_hook_fn hook, void *data, char *err, size_t errlen);

struct gpulat_reader_counts {
	uint64_t	events;		/* every record */
	uint64_t	gpu_events;	/* gpu_scheduler, gpu_sched, dma_fence, fence, amdgpu */
	uint64_t	lost_events;	/* sum of the missed-event counts */
	uint64_t	lost_gaps;	/* records preceded by a gap (count may be unknown) */
	uint64_t	damaged;	/* records never decoded (not in gpu_events) */
	/* bounded memory (lib/read-merge.c, lib/read-drop.c) */
	uint64_t	reopens;	/* libtracecmd handles replaced by fresh ones */
	uint64_t	dropped_bytes;	/* file pages given back after reading */
	uint64_t	zstd_files;	/* files whose zstd CPU data read-zstd.c read */
	uint64_t	kind[GPULAT_EV__COUNT];
};

void gpulat_reader_counts(const struct gpulat_reader *r, struct gpulat_reader_counts *c);
/* -j N: @n threads decode zstd files (lib/read-par.c); 0/1 one thread */
void gpulat_reader_set_threads(struct gpulat_reader *r, unsigned int n);
unsigned int gpulat_reader_threads(const struct gpulat_reader *r);
/* first and last timestamp of ANY record; GPULAT_NONE before run or if empty */
void gpulat_reader_span(const struct gpulat_reader *r, uint64_t *first_ts, uint64_t *last_ts);
/* era of the first file with GPU events */
enum gpulat_era gpulat_reader_era(const struct gpulat_reader *r);
/* whether dma_fence_signaled (or fence_signaled) is in the trace */
bool gpulat_reader_has_signals(const struct gpulat_reader *r);
int gpulat_reader_nfiles(const struct gpulat_reader *r);
/* CPUs of one file, or the sum over all files if @file < 0 */
int gpulat_reader_cpus(const struct gpulat_reader *r, int file);
/* tracker cpu = file's first cpu + record cpu (0 for the first file) */
int gpulat_reader_cpu_base(const struct gpulat_reader *r, int file);
struct tep_handle *gpulat_reader_tep(const struct gpulat_reader *r, int file);
struct gpulat_binding *gpulat_reader_binding(const struct gpulat_reader *r, int file);
const char *gpulat_reader_path(const struct gpulat_reader *r, int file);
/* "local", "mono", ... as recorded; NULL when unknown */
const char *gpulat_reader_trace_clock(const struct gpulat_reader *r, int file);

#ifdef __cplusplus
}
#endif

#endif /* _GPULAT_READ_H */
