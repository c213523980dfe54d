// SPDX-License-Identifier: LGPL-2.1
/*
 * Row writers of the field table (gpulat-report.h): CSV cells and compact
 * JSON objects, written straight to a FILE without allocating, so a writer
 * can stream every job of a long trace (--jobs). Null values are empty CSV
 * cells and JSON null; OPTIONAL fields are left out of JSON when null.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "gpulat-escape.h"
#include "report-int.h"

/*
 * RFC 4180: quote fields with a comma, quote or line break, or a blank at
 * either end; a field a spreadsheet would run as a formula ("=cmd|...",
 * a comm or ring name from an untrusted trace) gets a leading ' (the rule
 * of GPULAT_ESC_CSV; @s is already in TEXT form, so it is not escaped again)
 */
void gpulat_csv_str(FILE *out, const char *s)
{
	size_t n;
	bool quote;

	if (!s)
		return;
	n = strlen(s);
	quote = strpbrk(s, ",\"\r\n") || (n && (s[0] == ' ' || s[n - 1] == ' '));
	if (!quote && !gpulat_esc_formula(s, n)) {
		fputs(s, out);
		return;
	}
	if (quote)
		fputc('"', out);
	if (gpulat_esc_formula(s, n))
		fputc('\'', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	if (quote)
		fputc('"', out);
}

/* the columns of @row: the group rows share the columns of all four */
static unsigned int csv_mask(enum gpulat_row row)
{
	unsigned int bit = 1u << row;

	return (bit & GPULAT__GROUP_ROWS) ? GPULAT__GROUP_ROWS : bit;
}

static bool is_list(const struct gpulat_field *f)
{
	return gpulat_field_flags(f) & GPULAT_FIELD_LIST;
}

/* each CSV column once: pass 0 the scalars, pass 1 the lists */
#define FOR_CSV(f, mask, pass, i)                                            \
	for (pass = 0; pass < 2; pass++)                                     \
		for (i = 0; (f = gpulat__field_any(mask, i)); i++)           \
			if ((gpulat_field_flags(f) & GPULAT_FIELD_NO_CSV) || \
			    is_list(f) != (pass == 1)) {                     \
			} else

int gpulat_report_csv_header(FILE *out, enum gpulat_row row)
{
	const struct gpulat_field *f;
	bool first = true;
	size_t i;
	int pass;

	FOR_CSV(f, csv_mask(row), pass, i)
	{
		fprintf(out, "%s%s", first ? "" : ",", gpulat_field_name(f));
		first = false;
	}
	return ferror(out) ? -EIO : 0;
}

/* an integer value, the same in CSV and JSON; false for other types */
static bool int_value(FILE *out, const struct gpulat_value *v)
{
	if (v->type == GPULAT_V_U64)
		fprintf(out, "%llu", (unsigned long long)v->u);
	else if (v->type == GPULAT_V_I64)
		fprintf(out, "%lld", (long long)v->i);
	else
		return false;
	return true;
}

static void csv_value(FILE *out, const struct gpulat_value *v)
{
	if (int_value(out, v))
		return;
	switch (v->type) {
	case GPULAT_V_DOUBLE:
		fprintf(out, "%.3f", v->d);
		break;
	case GPULAT_V_STR:
	case GPULAT_V_LIST:
		gpulat_csv_str(out, gpulat_value_str(v));
		break;
	case GPULAT_V_BOOL:
		fputc(v->b ? '1' : '0', out);
		break;
	default:
		break;
	}
}

int gpulat_report_csv_row(FILE *out, enum gpulat_row row, const void *obj)
{
	const struct gpulat_field *f;
	struct gpulat_value v = { .sz = sizeof(v) };
	bool first = true;
	size_t i;
	int pass;

	FOR_CSV(f, csv_mask(row), pass, i)
	{
		if (!first)
			fputc(',', out);
		first = false;
		if (!gpulat_field_in(f, row))
			continue;
		gpulat_field_get(f, obj, &v);
		csv_value(out, &v);
	}
	return ferror(out) ? -EIO : 0;
}

/* @n bytes of @s as a JSON string */
static void json_strn(FILE *out, const char *s, size_t n)
{
	fputc('"', out);
	for (; n && *s; s++, n--) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_str(FILE *out, const char *s)
{
	json_strn(out, s, strlen(s));
}

static void json_list(FILE *out, const char *s)
{
	const char *p = s;

	fputc('[', out);
	while (*p) {
		size_t n = strcspn(p, "|");

		if (p != s)
			fputc(',', out);
		json_strn(out, p, n);
		p += n;
		if (*p)
			p++;
	}
	fputc(']', out);
}

/*
 * As json-c writes a double (json_object_new_double(): "%.17g", ".0" added
 * to an integral value, NaN and Infinity spelt its way), so a document that
 * json-c assembles from these rows (tools/gl-json.c) reads the same.
 */
static void json_double(FILE *out, double d)
{
	char buf[40];

	if (isnan(d)) {
		fputs("NaN", out);
		return;
	}
	if (isinf(d)) {
		fputs(d < 0 ? "-Infinity" : "Infinity", out);
		return;
	}
	snprintf(buf, sizeof(buf), "%.17g", d);
	fprintf(out, "%s%s", buf, strpbrk(buf, ".e") ? "" : ".0");
}

static void json_value(FILE *out, const struct gpulat_value *v)
{
	size_t i;

	if (int_value(out, v))
		return;
	switch (v->type) {
	case GPULAT_V_DOUBLE:
		json_double(out, v->d);
		break;
	case GPULAT_V_STR:
		json_str(out, gpulat_value_str(v));
		break;
	case GPULAT_V_BOOL:
		fputs(v->b ? "true" : "false", out);
		break;
	case GPULAT_V_LIST:
		json_list(out, gpulat_value_str(v));
		break;
	case GPULAT_V_ROWS:
		fputc('[', out);
		for (i = 0; i < v->n; i++) {
			if (i)
				fputc(',', out);
			gpulat_report_json_row(out, v->rows, gpulat_value_row(v, i));
		}
		fputc(']', out);
		break;
	default:
		fputs("null", out);
		break;
	}
}

int gpulat_report_json_row(FILE *out, enum gpulat_row row, const void *obj)
{
	const struct gpulat_field *f;
	struct gpulat_value v = { .sz = sizeof(v) };
	bool first = true;
	size_t i;

	fputc('{', out);
	for (i = 0; (f = gpulat_field_at(row, i)); i++) {
		gpulat_field_get(f, obj, &v);
		if (v.type == GPULAT_V_NULL && (gpulat_field_flags(f) & GPULAT_FIELD_OPTIONAL))
			continue;
		fprintf(out, "%s\"%s\":", first ? "" : ",", gpulat_field_name(f));
		first = false;
		json_value(out, &v);
	}
	fputc('}', out);
	return ferror(out) ? -EIO : 0;
}

int gpulat_report_json_value(FILE *out, const struct gpulat_field *f, const void *obj)
{
	struct gpulat_value v = { .sz = sizeof(v) };

	gpulat_field_get(f, obj, &v);
	json_value(out, &v);
	return ferror(out) ? -EIO : 0;
}

/*
 * The field table as Markdown: one section per row type (the four group
 * rows share one), a line per field. docs/gpu-latency.md holds this text
 * between its "fields" markers; a test checks that they agree.
 */
int gpulat_report_fields_doc(FILE *out)
{
	static const struct {
		const char *title;
		unsigned int mask;
	} sections[] = {
		{ "trace (top-level members and `counts`)", 1u << GPULAT_ROW_TRACE },
		{ "ring, process, client, device (`rings`, `processes`, `clients`, `devices`)",
		  GPULAT__GROUP_ROWS },
		{ "summary (per metric `wait hw_queue exec total dep_wait` of a group)",
		  1u << GPULAT_ROW_SUMMARY },
		{ "job (`worst`, `incomplete`, `--jobs`)", 1u << GPULAT_ROW_JOB },
		{ "dep (a job's `deps`)", 1u << GPULAT_ROW_DEP },
		{ "stall (`stalls`)", 1u << GPULAT_ROW_STALL },
		{ "depwait (`depwaits`)", 1u << GPULAT_ROW_DEPWAIT },
	};
	const struct gpulat_field *f;
	size_t k, i;
	int row;

	for (k = 0; k < sizeof(sections) / sizeof(sections[0]); k++) {
		fprintf(out, "%s#### %s\n\n| field | in | unit | meaning |\n|---|---|---|---|\n",
			k ? "\n" : "", sections[k].title);
		for (i = 0; (f = gpulat__field_any(sections[k].mask, i)); i++) {
			unsigned int fl = gpulat_field_flags(f);
			bool first = true;

			fprintf(out, "| `%s` | ", gpulat_field_name(f));
			for (row = 0; row < GPULAT_ROW__COUNT; row++) {
				if (!gpulat_field_in(f, row))
					continue;
				fprintf(out, "%s%s", first ? "" : " ", gpulat_row_name(row));
				first = false;
			}
			fprintf(out, " | %s | %s", gpulat_unit_name(gpulat_field_unit(f)),
				gpulat_field_doc(f));
			if (fl & GPULAT_FIELD_NO_CSV)
				fputs("; not in CSV", out);
			if (fl & GPULAT_FIELD_TOP)
				fputs("; JSON: top-level", out);
			if (fl & GPULAT_FIELD_OPTIONAL)
				fputs("; JSON: only when set", out);
			if (fl & GPULAT_FIELD_GATE)
				fprintf(out, "; gate `%s`",
					gpulat_field_alias(f) ? gpulat_field_alias(f) :
								gpulat_field_name(f));
			fputs(" |\n", out);
		}
	}
	return ferror(out) ? -EIO : 0;
}
