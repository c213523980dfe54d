/* SPDX-License-Identifier: LGPL-2.1 */
/*
 * libtracecmd functions that libtracecmd.so.1 exports but declares only in
 * trace-cmd's private header: the prototypes as in lib/trace-cmd of
 * trace-cmd 3.1.6 (libtracecmd 1.3.1), unchanged up to libtracecmd 1.5.
 * One copy for the reader (lib/read*.c), --watch (tools/gl-watch.c) and the
 * trace generator (sample-traces/gen/output.c).
 */
#ifndef _GPULAT_TRACECMD_H
#define _GPULAT_TRACECMD_H

#include <stdbool.h>
#include <stddef.h>

#include <trace-cmd/trace-cmd.h>

/* ---- input ---------------------------------------------------------------- */

int tracecmd_cpus(struct tracecmd_input *handle);
int tracecmd_page_size(struct tracecmd_input *handle);
int tracecmd_long_size(struct tracecmd_input *handle);
struct tep_record *tracecmd_peek_data(struct tracecmd_input *handle, int cpu);
int tracecmd_set_cursor(struct tracecmd_input *handle, int cpu, unsigned long long offset);
int tracecmd_get_file_compress_proto(struct tracecmd_input *handle, const char **name,
				     const char **version);
size_t tracecmd_get_options_offset(struct tracecmd_input *handle);
/* the address of @record's page in the handle's memory (its mapping, for a v6 file) */
void *tracecmd_record_page(struct tracecmd_input *handle, struct tep_record *record);
/* the trace's clock as recorded ("local", "mono", ...), NULL when unknown */
const char *tracecmd_get_trace_clock(struct tracecmd_input *handle);
/* a v6 file whose clock is saved after its CPU table (a TRACECLOCK option) */
bool tracecmd_get_use_trace_clock(struct tracecmd_input *handle);

/* ---- output (what trace-cmd record and restore use) ----------------------- */

struct tracecmd_output;
struct tracecmd_option;

/* event globs to copy formats for; "all" = every events/SYS/EVENT/format */
struct tracecmd_event_list {
	struct tracecmd_event_list	*next;
	const char			*glob;
};

struct tracecmd_output *tracecmd_output_create(const char *output_file);
int tracecmd_output_set_version(struct tracecmd_output *handle, int file_version);
int tracecmd_output_set_compression(struct tracecmd_output *handle, const char *compression);
int tracecmd_output_set_trace_dir(struct tracecmd_output *handle, const char *tracing_dir);
int tracecmd_output_set_kallsyms(struct tracecmd_output *handle, const char *kallsyms);
int tracecmd_output_write_headers(struct tracecmd_output *handle,
				  struct tracecmd_event_list *list);
int tracecmd_write_cmdlines(struct tracecmd_output *handle);
int tracecmd_append_cpu_data(struct tracecmd_output *handle, int cpus,
			     char * const *cpu_data_files);
void tracecmd_output_close(struct tracecmd_output *handle);
void tracecmd_set_quiet(struct tracecmd_output *handle, bool set_quiet);
/* @id is trace-cmd's enum tracecmd_file_options: 4 = TRACECLOCK */
struct tracecmd_option *tracecmd_add_option(struct tracecmd_output *handle, unsigned short id,
					    int size, const void *data);

#endif /* _GPULAT_TRACECMD_H */
