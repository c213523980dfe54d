// SPDX-License-Identifier: LGPL-2.1
/*
 * The options of a trace.dat that libtracecmd 1.3.1 parses while it opens
 * the file (handle_options(), v6 and v7 alike), and the v6 "[clock]" text
 * saved after the flyrecord CPU table. Its parsers trust them, and some
 * crash on texts and counts trace-cmd never writes (tests/fuzz/FINDINGS.md
 * T20-T23; `trace-cmd report` dies the same way):
 *
 *  - a clock text: tracecmd_parse_trace_clock() cuts it at spaces and hands
 *    the first word that starts with '[' to extract_trace_clock(), which cuts
 *    that word at '[' and ']' (strtok_r) and sscanf()s the first piece; a
 *    word of brackets only ("[]", "[", "[[]]") has no piece: sscanf(NULL).
 *  - HOOK: tracecmd_create_event_hook() returns NULL for a text that is not
 *    "[sys:]event,match[,pid]/[sys:]event,match[,flags]", and handle_options()
 *    writes hook->next through it.
 *  - DATE, OFFSET, UNAME, VERSION, TRACECLOCK, HOOK are C strings to it
 *    (strtoll, strdup, strtok) whatever the option's size.
 *  - CPUSTAT, PROCMAPS: buf[size - 1], an unsigned size: 0 reaches 4 GiB on.
 *  - GUEST, TIME_SHIFT: counts and CPU ids taken as they come.
 *
 * So the same cuts are made here, on a copy, by our own tokenizer with
 * strtok()'s rules (leading delimiters skipped, a token ends at the next
 * delimiter or the end), the counts are held against the option's size,
 * and what would crash or make libtracecmd allocate past the option is
 * refused.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "read-int.h"

/* strtok() on *@save: the next token of characters not in @delim, or NULL */
static char *next_tok(char **save, const char *delim)
{
	char *p = *save, *e;

	p += strspn(p, delim);
	if (!*p) {
		*save = p;
		return NULL;
	}
	e = p + strcspn(p, delim);
	if (*e)
		*e++ = '\0';
	*save = e;
	return p;
}

enum gpulat__clock gpulat__clock_text(const char *text)
{
	enum gpulat__clock ret = GPULAT__CLOCK_NONE;
	char *copy = strdup(text), *save = copy, *word, *wsave, *piece;

	if (!copy)
		return GPULAT__CLOCK_BAD;
	while ((word = next_tok(&save, " "))) {
		if (*word != '[')
			continue;
		wsave = word;
		piece = next_tok(&wsave, "[]");
		if (!piece) {
			ret = GPULAT__CLOCK_BAD;
		} else {
			/* sscanf("%ms") finds a name only past the white space */
			while (*piece && isspace((unsigned char)*piece))
				piece++;
			ret = *piece ? GPULAT__CLOCK_SET : GPULAT__CLOCK_EMPTY;
		}
		break;
	}
	free(copy);
	return ret;
}

/* the end of the token that starts at @tok of @copy, as an index into both */
static size_t tok_end(const char *copy, const char *tok)
{
	return (size_t)(tok - copy) + strlen(tok);
}

/* tracecmd_create_event_hook() accepts @arg (the same cuts, in its order) */
static bool hook_parses(const char *arg)
{
	char *copy = strdup(arg), *save = copy, *tok;
	bool ok = false;
	int side;

	if (!copy)
		return false;
	for (side = 0; side < 2; side++) {
		tok = next_tok(&save, ":,");
		if (!tok)
			goto out;
		/*
		 * "system:": libtracecmd looks at arg[strlen(tok)] for the start
		 * event (the token's length, not its end) and at the token's end
		 * for the end event
		 */
		if (arg[side ? tok_end(copy, tok) : strlen(tok)] == ':' && !next_tok(&save, ","))
			goto out;
		/* the match, then ",pid" before the '/' or ",flags" after it */
		tok = next_tok(&save, side ? "," : ",/");
		if (!tok)
			goto out;
		if (arg[tok_end(copy, tok)] == ',' && !next_tok(&save, side ? "" : "/"))
			goto out;
	}
	ok = true;
out:
	free(copy);
	return ok;
}

/*
 * GUEST (trace_guest_load()): name, u64 trace id, int vcpu count, then per
 * vcpu int id and int host pid. It stores each pid at cpu_pid[id] after
 * checking only id < count: a negative id writes before the array.
 */
static const char *guest_problem(const unsigned char *d, size_t n, bool big)
{
	const unsigned char *z = memchr(d, '\0', n);
	size_t left, i;
	int32_t count, cpu;

	if (!z)
		return "has no guest name";
	left = n - (size_t)(z + 1 - d);
	if (left < 12)
		return NULL;	/* libtracecmd drops the guest */
	d = z + 1 + 8;
	count = (int32_t)gpulat__file_num(d, 4, big);
	d += 4;
	left -= 12;
	/* calloc(count) comes first: a count the option cannot hold is a bomb */
	if (count < 0 || (uint64_t)count > left / 8)
		return "declares more guest CPUs than it holds";
	for (i = 0; i < (size_t)count; i++, d += 8) {
		cpu = (int32_t)gpulat__file_num(d, 4, big);
		if (cpu < 0)
			return "has a negative guest CPU";
	}
	return NULL;
}

/*
 * TIME_SHIFT (tsync_cpu_offsets_load(), options of 16 bytes or more): u64
 * trace id, u32 flags, int CPU count, then per CPU an int sample count and
 * three u64 arrays of that many samples. libtracecmd callocs each count
 * before it sees whether the option holds it (a 2^28 count: 8 GiB) and
 * then fails the open: counts past the option are refused first.
 */
static const char *time_shift_problem(const unsigned char *d, size_t n, bool big)
{
	size_t left;
	int32_t cpus, count, i;

	if (n < 16)
		return NULL;	/* libtracecmd ignores it */
	cpus = (int32_t)gpulat__file_num(d + 12, 4, big);
	d += 16;
	left = n - 16;
	if (cpus < 0 || (uint64_t)cpus > left / 4)
		return "declares more CPUs than it holds";
	for (i = 0; i < cpus; i++) {
		if (left < 4)
			return "is cut short";
		count = (int32_t)gpulat__file_num(d, 4, big);
		d += 4;
		left -= 4;
		if (count < 0 || (uint64_t)count > left / 24)
			return "declares more samples than it holds";
		d += (size_t)count * 24;
		left -= (size_t)count * 24;
	}
	return NULL;
}

/*
 * DATE, OFFSET, TIME_SHIFT, GUEST, TSC2NSEC: libtracecmd's timestamp_calc()
 * corrects every record's time by them; read-zstd.c's own page walk does
 * not, so a file with one is read through libtracecmd
 */
bool gpulat__opt_shifts(unsigned int id)
{
	return id == GPULAT__OPT_DATE || id == GPULAT__OPT_OFFSET || id == GPULAT__OPT_TIME_SHIFT ||
	       id == GPULAT__OPT_GUEST || id == GPULAT__OPT_TSC2NSEC;
}

const char *gpulat__opt_name(unsigned int id)
{
	switch (id) {
	case GPULAT__OPT_DATE:
		return "DATE";
	case GPULAT__OPT_CPUSTAT:
		return "CPUSTAT";
	case GPULAT__OPT_TRACECLOCK:
		return "TRACECLOCK";
	case GPULAT__OPT_UNAME:
		return "UNAME";
	case GPULAT__OPT_HOOK:
		return "HOOK";
	case GPULAT__OPT_OFFSET:
		return "OFFSET";
	case GPULAT__OPT_VERSION:
		return "VERSION";
	case GPULAT__OPT_PROCMAPS:
		return "PROCMAPS";
	case GPULAT__OPT_TIME_SHIFT:
		return "TIME_SHIFT";
	case GPULAT__OPT_GUEST:
		return "GUEST";
	default:
		return NULL;
	}
}

const char *gpulat__opt_problem(unsigned int id, const unsigned char *d, size_t n, bool big,
				enum gpulat__clock *clock)
{
	const char *text = (const char *)d;
	enum gpulat__clock c;

	switch (id) {
	case GPULAT__OPT_CPUSTAT:
	case GPULAT__OPT_PROCMAPS:
		/* buf[size - 1] with an unsigned size: 4 GiB past a 0-byte buffer (T22) */
		return n ? NULL : "is empty";
	case GPULAT__OPT_GUEST:
		return guest_problem(d, n, big);
	case GPULAT__OPT_TIME_SHIFT:
		return time_shift_problem(d, n, big);
	case GPULAT__OPT_DATE:
	case GPULAT__OPT_OFFSET:
	case GPULAT__OPT_TRACECLOCK:
	case GPULAT__OPT_UNAME:
	case GPULAT__OPT_HOOK:
	case GPULAT__OPT_VERSION:
		break;
	default:
		return NULL;
	}
	/*
	 * the rest are C strings to libtracecmd (strtoll, strdup, strtok).
	 * An older trace-cmd record adds TRACECLOCK as a bare flag (size 0:
	 * the clock is the text after the CPU table): an empty option has no
	 * text to check
	 */
	if (!n)
		return NULL;
	if (!memchr(d, '\0', n))
		return "is not a string";
	if (id == GPULAT__OPT_TRACECLOCK) {
		c = gpulat__clock_text(text);
		if (c == GPULAT__CLOCK_BAD)
			return "has a clock name of brackets only";
		/* a text without a "[clock]" word leaves the clock as it was */
		if (c != GPULAT__CLOCK_NONE && clock)
			*clock = c;
	} else if (id == GPULAT__OPT_HOOK && !hook_parses(text)) {
		return "is not a hook libtracecmd can parse";
	}
	return NULL;
}
