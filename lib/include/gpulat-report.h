/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * gpulat report model: what a finished session found, as rows of a few row
 * types, and ONE table of fields per row type. Every writer (text, JSON, CSV),
 * the --fail-if gates and --compare read a value through the table, so a field
 * is named, given a unit and documented once (docs/gpu-latency.md's field
 * list is generated from it: trace-cmd gpu-latency --fields).
 *
 *   rep = gpulat_report_new(session);          after gpulat_session_run/finish
 *   for (i = 0; i < gpulat_report_nrows(rep, GPULAT_ROW_RING); i++) {
 *           const void *ring = gpulat_report_row(rep, GPULAT_ROW_RING, i);
 *           for (k = 0; (f = gpulat_field_at(GPULAT_ROW_RING, k)); k++) {
 *                   struct gpulat_value v = { .sz = sizeof(v) };
 *
 *                   gpulat_field_get(f, ring, &v);
 *                   ... gpulat_field_name(f), gpulat_field_unit(f), v ...
 *           }
 *   }
 *   gpulat_report_free(rep);
 *
 * Row objects: a ring, process, client and device row is a struct
 * gpulat_group, a job row a struct gpulat_job, a stall a struct gpulat_stall,
 * a dependency-wait row a struct gpulat_depwait, a job's dependency a struct
 * gpulat_dep, one metric's statistics a struct gpulat_summary, and the trace
 * row the report itself. The table never changes the order of its fields;
 * new fields are added at the end of a row type or flagged (ABI: fields are
 * opaque handles, the value a sized struct that only gains types and
 * members at its end).
 */
#ifndef _GPULAT_REPORT_H
#define _GPULAT_REPORT_H

#include <stdio.h>

#include "gpulat.h"

#ifdef __cplusplus
extern "C" {
#endif

struct gpulat_session;
struct gpulat_report;
struct gpulat_field;

enum gpulat_row {
	GPULAT_ROW_TRACE = 0, /* the whole input (struct gpulat_report) */
	GPULAT_ROW_RING, /* struct gpulat_group of GPULAT_G_RING */
	GPULAT_ROW_PROCESS, /* ... GPULAT_G_PROCESS */
	GPULAT_ROW_CLIENT, /* ... GPULAT_G_CLIENT (jobs with a client id only) */
	GPULAT_ROW_DEVICE, /* ... GPULAT_G_DEVICE */
	GPULAT_ROW_SUMMARY, /* struct gpulat_summary: one metric of a group */
	GPULAT_ROW_JOB, /* struct gpulat_job */
	GPULAT_ROW_DEP, /* struct gpulat_dep: one dependency of a job */
	GPULAT_ROW_STALL, /* struct gpulat_stall */
	GPULAT_ROW_DEPWAIT, /* struct gpulat_depwait: waiting ring -> producer */
	GPULAT_ROW__COUNT,
};

/* "trace", "ring", "process", "client", "device", "summary", "job", ... */
const char *gpulat_row_name(enum gpulat_row row);

enum gpulat_unit {
	GPULAT_UNIT_NONE = 0, /* a name, a label, an identifier */
	GPULAT_UNIT_COUNT, /* a number of things */
	GPULAT_UNIT_NS, /* a duration in nanoseconds */
	GPULAT_UNIT_TS, /* a trace timestamp in nanoseconds */
	GPULAT_UNIT_CPU, /* a CPU number */
	GPULAT_UNIT_PCT, /* a percentage */
	GPULAT_UNIT_RATIO, /* a plain number (average depth) */
	GPULAT_UNIT_ADDR, /* a kernel address, "0x..." */
	GPULAT_UNIT_BOOL,
};

/* "", "count", "ns", "ts", "cpu", "%", "number", "address", "bool" */
const char *gpulat_unit_name(enum gpulat_unit unit);

enum gpulat_vtype {
	GPULAT_V_NULL = 0, /* the value does not exist (JSON null, CSV empty) */
	GPULAT_V_U64,
	GPULAT_V_I64,
	GPULAT_V_DOUBLE,
	GPULAT_V_STR, /* @s */
	GPULAT_V_BOOL, /* @b */
	GPULAT_V_LIST, /* names joined by '|' in @s ("" for none) */
	GPULAT_V_ROWS, /* @n rows of type @rows: gpulat_value_row() */
};

/*
 * A field's value, filled by gpulat_field_get() into the caller's struct.
 * Set @sz first: struct gpulat_value v = { .sz = sizeof(v) }; fields added
 * later go at the end and a getter writes only the @sz bytes the caller has
 * (a @sz smaller than this first layout gets a GPULAT_V_NULL value).
 *
 * Strings (GPULAT_V_STR, GPULAT_V_LIST): read them with gpulat_value_str(),
 * there is no string member to read. A getter may build the string in the
 * value's own @buf (an address, a job identity, a joined list), so it lives
 * as long as this struct AND the row: a function that returns it must copy
 * it into storage of its caller. A copy of the struct is a value of its own
 * (gpulat_value_str() of the copy reads the copy's @buf), so copying is safe.
 */
struct gpulat_value {
	size_t sz;
	enum gpulat_vtype type;
	enum gpulat_row rows; /* GPULAT_V_ROWS */
	uint64_t u;
	int64_t i;
	double d;
	const char *sref_; /* private: a string the row owns, NULL: in @buf */
	bool b;
	size_t n; /* GPULAT_V_ROWS */
	const void *p;
	size_t stride;
	char buf[64]; /* private: storage for a string the getter builds */
};

/* the string of a GPULAT_V_STR / GPULAT_V_LIST value, NULL for other types */
const char *gpulat_value_str(const struct gpulat_value *v);
/* row @i of a GPULAT_V_ROWS value */
const void *gpulat_value_row(const struct gpulat_value *v, size_t i);

/* gpulat_field_flags() */
enum {
	GPULAT_FIELD_NO_CSV = 1 << 0, /* not a CSV column */
	GPULAT_FIELD_OPTIONAL = 1 << 1, /* JSON: left out when null */
	GPULAT_FIELD_GATE = 1 << 2, /* a --fail-if quantity (by name or alias) */
	GPULAT_FIELD_TOP = 1 << 3, /* trace row: a top-level JSON member,
						 * not one of "counts" */
	GPULAT_FIELD_LIST = 1 << 4, /* a GPULAT_V_LIST: CSV puts it last */
};

/* field @i of @row type in table order, NULL past the last */
const struct gpulat_field *gpulat_field_at(enum gpulat_row row, size_t i);
/* the field of @row named @name (or with that alias), NULL if none */
const struct gpulat_field *gpulat_field_find(enum gpulat_row row, const char *name);

const char *gpulat_field_name(const struct gpulat_field *f); /* JSON member, CSV column */
const char *gpulat_field_alias(const struct gpulat_field *f); /* gate spelling, or NULL */
const char *gpulat_field_label(const struct gpulat_field *f); /* text column header */
const char *gpulat_field_doc(const struct gpulat_field *f); /* one sentence */
enum gpulat_unit gpulat_field_unit(const struct gpulat_field *f);
unsigned int gpulat_field_flags(const struct gpulat_field *f);
/* whether @f belongs to @row (group fields are shared by the group rows) */
bool gpulat_field_in(const struct gpulat_field *f, enum gpulat_row row);
/* the value of @f in @obj (a row object of a row type @f belongs to) */
void gpulat_field_get(const struct gpulat_field *f, const void *obj, struct gpulat_value *v);
/* the value as a double (durations in ns), false when null or not a number */
bool gpulat_value_number(const struct gpulat_value *v, double *d);

/* ------------------------------------------------------------------------ */
/* The report of a finished session                                           */

/*
 * Return: the report (it points into @s: free it before the session), or
 * NULL with errno set (EINVAL: no statistics, ENOMEM).
 */
struct gpulat_report *gpulat_report_new(struct gpulat_session *s);
void gpulat_report_free(struct gpulat_report *r);

/*
 * Rows in report order: rings, processes, devices as the statistics sort
 * them; clients only with a client id; GPULAT_ROW_JOB: the worst jobs;
 * GPULAT_ROW_STALL: the kept stalls in time order; GPULAT_ROW_DEPWAIT.
 */
size_t gpulat_report_nrows(const struct gpulat_report *r, enum gpulat_row row);
const void *gpulat_report_row(const struct gpulat_report *r, enum gpulat_row row, size_t i);
/* the kept incomplete / lost / orphan jobs (at most top_n) */
size_t gpulat_report_nkept(const struct gpulat_report *r);
const struct gpulat_job *gpulat_report_kept(const struct gpulat_report *r, size_t i);
/* one metric's statistics of a group row */
const struct gpulat_summary *gpulat_report_summary(const struct gpulat_group *g,
						   enum gpulat_metric m);

/*
 * The span of the report: the first and last timestamp of any record,
 * clipped to the session's start_ns/end_ns window. The one definition the
 * CLI header, JSON first_ts/last_ts, busy % and the plugin summary use.
 */
void gpulat_report_span(const struct gpulat_report *r, uint64_t *first, uint64_t *last);
const struct gpulat_session *gpulat_report_session(const struct gpulat_report *r);

/*
 * The identity of a job as `trace-cmd report` (the gpu_sched plugin) prints
 * it and KernelShark labels it, so one grep finds the job: "fence=CTX:SEQNO"
 * when the finished fence is known (6.17+, or dma_fence events), else the
 * pointer eras' "job=RING#ID fence=HHHH.N" (gpulat_fence_handle()), "-" when
 * nothing identifies it. Unique within a trace file. Return: @buf.
 */
char *gpulat_job_identity(char *buf, size_t len, const struct gpulat_job *job);
/*
 * The pointer eras' identity from its parts, for a host that keeps a job
 * its own way (the plugin, KernelShark): "job=RING#ID fence=HHHH.N" as
 * gpulat_job_identity() names a job with these gpulat_job fields, or
 * "fence=HHHH.N" when @id is GPULAT_NONE. Return: @buf.
 */
char *gpulat_ptr_job_identity(char *buf, size_t len, const char *ring, uint64_t id,
			      uint64_t fence_ptr, uint32_t ptr_gen);
/*
 * The same identity of the job that ended a stall (gpulat_stall.job_*: the
 * submission at end_ts of a submit gap, the job that started at end_ts of a
 * ring idle gap). Return: @buf.
 */
char *gpulat_stall_identity(char *buf, size_t len, const struct gpulat_stall *st);
/*
 * The pointer eras' fence handle of a job, "HHHH.N": gpulat_ptr_handle() of
 * its finished-fence pointer and gpulat_job.ptr_gen, the how-many-th job of
 * the file with that handle (kernels reuse a freed fence's address for the
 * next job, and 16-bit handles of two pointers may collide: the pair names
 * one job). "HHHH" alone when the job was not counted. Return: @buf.
 */
char *gpulat_fence_handle(char *buf, size_t len, const struct gpulat_job *job);
/*
 * The headline of a ring that stopped completing (gpulat_group.stopped_ns):
 * "gfx: 18 jobs pending after 124.252075, nothing completed for 224ms";
 * "" for another ring. Return: @buf.
 */
char *gpulat_ring_headline(char *buf, size_t len, const struct gpulat_group *g);
/*
 * The mark of an approximate quantile (p50, p90, p99, p999 of @s): "~" when
 * they come from the histogram (more than GPULAT_EXACT_MAX values, each
 * within GPULAT_REL_ERROR), "" when exact. Every front end that prints a
 * quantile puts this in front of it, and gpulat_quantile_legend() (one line,
 * no line end) under a table that has one. Return: @buf.
 */
const char *gpulat_quantile_mark(const struct gpulat_summary *s);
char *gpulat_quantile_legend(char *buf, size_t len);
/* the 4-hex-digit handle the plugin prints for a pointer (fence=b2f8) */
unsigned int gpulat_ptr_handle(uint64_t ptr);

/* ------------------------------------------------------------------------ */
/* Row writers of the table (no allocation; for streaming every job)          */

/*
 * CSV columns of @row, comma-separated, without a line end: every field
 * without GPULAT_FIELD_NO_CSV, lists ('|'-separated) last. The four group
 * rows share their columns (a column of another group row is empty), so
 * rings, processes, clients and devices fit one CSV table.
 */
int gpulat_report_csv_header(FILE *out, enum gpulat_row row);
int gpulat_report_csv_row(FILE *out, enum gpulat_row row, const void *obj);
/* a compact JSON object of the row ({"index":0,...}), nested rows included */
int gpulat_report_json_row(FILE *out, enum gpulat_row row, const void *obj);
/* the JSON form of one field's value in @obj (null when it has none) */
int gpulat_report_json_value(FILE *out, const struct gpulat_field *f, const void *obj);
/* the field table as Markdown (docs/gpu-latency.md's field list) */
int gpulat_report_fields_doc(FILE *out);
/* RFC 4180 CSV string (quoted when it holds a comma, quote or line break) */
void gpulat_csv_str(FILE *out, const char *s);

#ifdef __cplusplus
}
#endif

#endif /* _GPULAT_REPORT_H */
