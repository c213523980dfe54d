// SPDX-License-Identifier: LGPL-2.1
/*
 * The text options of a trace.dat that libtracecmd parses while it opens
 * the file (handle_options(), v6 and v7 alike): TRACECLOCK, UNAME, HOOK and
 * VERSION, and the v6 "[clock]" text saved after the flyrecord CPU table.
 *
 * libtracecmd 1.3.1 takes each option as a C string whatever its declared
 * size (strdup(), strtok()), and two of its parsers dereference NULL on
 * texts trace-cmd never writes (tests/fuzz/FINDINGS.md T20, T21; `trace-cmd
 * report` dies the same way):
 *
 *  - a clock text: tracecmd_parse_trace_clock() cuts it at spaces and hands
 *    the first word that starts with '[' to extract_trace_clock(), which cuts
 *    that word at '[' and ']' (strtok_r) and sscanf()s the first piece; a
 *    word of brackets only ("[]", "[", "[[]]") has no piece: sscanf(NULL).
 *  - HOOK: tracecmd_create_event_hook() returns NULL for a text that is not
 *    "[sys:]event,match[,pid]/[sys:]event,match[,flags]", and handle_options()
 *    writes hook->next through it.
 *
 * So the same cuts are made here, on a copy, by our own tokenizer with
 * strtok()'s rules (leading delimiters skipped, a token ends at the next
 * delimiter or the end), and a text they would crash on is refused.
 */
#include <ctype.h>
#include <stdbool.h>
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

const char *gpulat__opt_text_name(unsigned int id)
{
	switch (id) {
	case GPULAT__OPT_TRACECLOCK:
		return "TRACECLOCK";
	case GPULAT__OPT_UNAME:
		return "UNAME";
	case GPULAT__OPT_HOOK:
		return "HOOK";
	case GPULAT__OPT_VERSION:
		return "VERSION";
	default:
		return NULL;
	}
}

const char *gpulat__opt_text_problem(unsigned int id, const unsigned char *d, size_t n,
				     enum gpulat__clock *clock)
{
	const char *text = (const char *)d;

	if (!gpulat__opt_text_name(id))
		return NULL;
	/*
	 * an older trace-cmd record adds TRACECLOCK as a bare flag
	 * (size 0: the clock is the text after the CPU table); an empty
	 * option has no text to check
	 */
	if (!n)
		return NULL;
	/* libtracecmd reads them as C strings: one must end inside the option */
	if (!memchr(d, '\0', n))
		return "is not a string";
	if (id == GPULAT__OPT_TRACECLOCK) {
		enum gpulat__clock c = gpulat__clock_text(text);

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
