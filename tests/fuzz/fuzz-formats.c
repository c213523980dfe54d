// SPDX-License-Identifier: LGPL-2.1
/*
 * Format section parsing for fuzz_core, and the crash probe.
 *
 * libtraceevent 1.7.1 itself crashes on some hostile format texts (NULL
 * dereferences in its parser: FINDINGS.md T1, T2). Those crashes are not in
 * our code, and every reader of such a file (trace-cmd report -N included)
 * dies the same way. So before the harness parses a format section it hands
 * it to fuzz-tep-probe, a tiny uninstrumented helper; when the helper dies,
 * the input is skipped and the fuzzer goes on with the gpulat core.
 *
 * Per-input cost. Starting the helper for every input (posix_spawn, the
 * dynamic linker, a temporary file) made fuzz_core run at 8-40 exec/s: the
 * helper now serves a whole run (fuzz-tep-probe --serve on a socket, one
 * section parsed into a fresh tep_handle per request, exactly as before)
 * and is started again after it died. Verdicts are remembered by a hash of
 * the section, and the tep_handles of the last FZ_TEP_CACHE sections are
 * kept and handed out again for the same bytes and flags (most mutations
 * change the records, not the formats): the gpulat core only reads a tep
 * (libtraceevent's lazily built comm and event lists are the same for the
 * same section), so a reused handle is what a fresh parse would give.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "fuzz-input.h"
#include "fuzz-formats.h"

extern char **environ;

struct tep_handle *fz_new_tep(uint8_t flags)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_file_bigendian(tep, (flags & FZ_F_BIGENDIAN) ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, (flags & FZ_F_LONG4) ? 4 : 8);
	tep_set_page_size(tep, 4096);
	return tep;
}

/*
 * libtraceevent 1.7.1 keeps two file-scope flags between parses: the
 * value of a __print_flags( / __print_symbolic( sets one, the next field
 * reference clears it, and an unknown field found while one is set is a
 * NULL dereference (FINDINGS T12). A section whose flag was left set by a
 * value naming no field would make the NEXT section's parse in this
 * process crash, though the probe, a fresh process, parsed it fine. So
 * each section is parsed as in a fresh process: first this format, whose
 * two references of a declared field clear both flags, into a scratch tep
 * (the blank line after the common fields is needed, or libtraceevent
 * silently skips the print fmt).
 * (lib/read-check.c refuses every unknown REC-> in a trace file, so a
 * gpu-latency run cannot meet this; a host's tep on the push path was
 * parsed by the host.)
 */
static const char fz_reset_fmt[] =
	"name: fz_reset\nID: 1\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n\n"
	"\tfield:int x;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"%s %s\", __print_flags(REC->x, \"|\", { 1, \"A\" }), "
	"__print_symbolic(REC->x, { 1, \"A\" })\n";

static void fz_reset_parser(void)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev = NULL;

	if (!tep)
		return;
	tep_parse_format(tep, &ev, fz_reset_fmt, sizeof(fz_reset_fmt) - 1, "fz");
	tep_free(tep);
}

void fz_parse_formats(struct fz_formats *fm, const uint8_t *p, size_t len)
{
	static const char sys_tag[] = FZ_SYS_TAG, comm_tag[] = FZ_COMM_TAG;
	const char *s = (const char *)p, *end = s + len;

	fz_reset_parser();
	while (s < end) {
		const char *eol = memchr(s, '\n', end - s);
		const char *next, *body;
		char name[64];
		size_t n;

		if (!eol)
			return;
		body = eol + 1;
		/* the chunk ends where the next tag line starts */
		for (next = body; next < end; next++) {
			if ((next == body || next[-1] == '\n') && next + 2 <= end &&
			    next[0] == '%' && next[1] == '%')
				break;
		}
		if ((size_t)(eol - s) > sizeof(sys_tag) - 1 &&
		    !memcmp(s, sys_tag, sizeof(sys_tag) - 1)) {
			n = eol - s - (sizeof(sys_tag) - 1);
			if (n >= sizeof(name))
				n = sizeof(name) - 1;
			memcpy(name, s + sizeof(sys_tag) - 1, n);
			name[n] = '\0';
			/* an exactly sized heap copy, not NUL terminated */
			if (next > body) {
				size_t blen = next - body;
				char *copy = malloc(blen);
				struct tep_event *ev = NULL;

				if (!copy)
					return;
				memcpy(copy, body, blen);
				if (tep_parse_format(fm->tep, &ev, copy, blen, name) == 0 && ev &&
				    fm->nids < FZ_MAX_EVENTS)
					fm->ids[fm->nids++] = ev->id;
				free(copy);
			}
		} else if ((size_t)(eol - s) > sizeof(comm_tag) - 1 &&
			   !memcmp(s, comm_tag, sizeof(comm_tag) - 1)) {
			char line[80];
			int pid;

			n = eol - s;
			if (n >= sizeof(line))
				n = sizeof(line) - 1;
			memcpy(line, s, n);
			line[n] = '\0';
			if (sscanf(line + sizeof(comm_tag) - 1, "%d %63s", &pid, name) == 2)
				tep_register_comm(fm->tep, name, pid);
			next = body;
		}
		s = next;
	}
}

static const char *probe_path(void)
{
	const char *p = getenv("FUZZ_TEP_PROBE");

#ifdef FUZZ_TEP_PROBE_DEFAULT
	if (!p)
		p = FUZZ_TEP_PROBE_DEFAULT;
#endif
	if (p && (!*p || access(p, X_OK)))
		p = NULL;
	return p;
}

/* the flags that change what a section parses to (fz_new_tep()) */
#define FZ_TEP_FLAGS	(FZ_F_BIGENDIAN | FZ_F_LONG4)

static uint64_t fz_hash(uint8_t flags, const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull ^ (flags & FZ_TEP_FLAGS);
	size_t i;

	/* FNV-1a, then the length: 2^-64 for two sections to share a verdict */
	for (i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h ^ ((uint64_t)len << 1);
}

/* the helper process serving this run; fd -1: not started (or it died) */
static struct {
	pid_t	pid;
	int	fd;
} fz_probe = { .fd = -1 };

static void probe_reap(void)
{
	int status;

	if (fz_probe.fd >= 0)
		close(fz_probe.fd);
	fz_probe.fd = -1;
	while (waitpid(fz_probe.pid, &status, 0) < 0 && errno == EINTR)
		;
}

static void probe_exit(void)
{
	if (fz_probe.fd >= 0)
		probe_reap();
}

static int probe_start(const char *probe)
{
	static bool registered;
	posix_spawn_file_actions_t fa;
	char *argv[] = { (char *)probe, "--serve", NULL };
	int sv[2], ret;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	/* dup2 clears close-on-exec on the helper's stdin */
	posix_spawn_file_actions_adddup2(&fa, sv[1], 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	ret = posix_spawn(&fz_probe.pid, probe, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(sv[1]);
	if (ret) {
		close(sv[0]);
		return -1;
	}
	fz_probe.fd = sv[0];
	if (!registered) {
		/* its CPU time counts for the run: reap it (EOF ends it) */
		atexit(probe_exit);
		registered = true;
	}
	return 0;
}

/*
 * All @len bytes to (@out) or from the probe's socket; false on EOF or an
 * error. MSG_NOSIGNAL: a helper that died is an answer, not a SIGPIPE.
 */
bool fz_xfer_all(int fd, void *buf, size_t len, bool out)
{
	char *p = buf;

	while (len) {
		ssize_t n = out ? send(fd, p, len, MSG_NOSIGNAL) : read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* 1: parsed, 0: the helper died on it, -1: no helper (or no answer) */
static int probe_ask(const char *probe, uint8_t flags, const uint8_t *p, size_t len)
{
	uint32_t hdr[2] = { flags, (uint32_t)len };
	char ok;
	ssize_t n;

	if (fz_probe.fd < 0 && probe_start(probe) < 0)
		return -1;
	if (!fz_xfer_all(fz_probe.fd, hdr, sizeof(hdr), true) ||
	    !fz_xfer_all(fz_probe.fd, (void *)p, len, true)) {
		/* it died on the previous request already, or now: ask a new one */
		probe_reap();
		if (probe_start(probe) < 0 || !fz_xfer_all(fz_probe.fd, hdr, sizeof(hdr), true) ||
		    !fz_xfer_all(fz_probe.fd, (void *)p, len, true)) {
			probe_reap();
			return -1;
		}
	}
	do
		n = read(fz_probe.fd, &ok, 1);
	while (n < 0 && errno == EINTR);
	if (n == 1 && ok == 'k')
		return 1;
	/* EOF: libtraceevent killed the helper on this section */
	probe_reap();
	return 0;
}

#define FZ_VERDICTS	4096	/* remembered verdicts (hash slots) */

struct fz_verdict {
	uint64_t	h;	/* 0: empty */
	bool		ok;
};

static struct fz_verdict fz_verdicts[FZ_VERDICTS];

bool fz_tep_survives(uint8_t flags, const uint8_t *p, size_t len)
{
	const char *probe = probe_path();
	struct fz_verdict *v;
	uint64_t h;
	int r;

	if (!probe || !len)
		return true;
	h = fz_hash(flags, p, len) | 1;
	v = &fz_verdicts[h % FZ_VERDICTS];
	if (v->h == h)
		return v->ok;
	r = probe_ask(probe, flags, p, len);
	if (r < 0)
		return true;	/* as before: no helper, no skipping */
	v->h = h;
	v->ok = r == 1;
	return v->ok;
}

#define FZ_TEP_CACHE	16

struct fz_tep_entry {
	uint8_t			flags;
	uint8_t			*bytes;		/* the section, NULL: empty slot */
	size_t			len;
	struct fz_formats	fm;
};

static struct fz_tep_entry fz_teps[FZ_TEP_CACHE];
static unsigned int fz_tep_next;

const struct fz_formats *fz_formats_get(uint8_t flags, const uint8_t *p, size_t len)
{
	struct fz_tep_entry *e;
	unsigned int i;

	flags &= FZ_TEP_FLAGS;
	for (i = 0; i < FZ_TEP_CACHE; i++) {
		e = &fz_teps[i];
		if (e->bytes && e->flags == flags && e->len == len && !memcmp(e->bytes, p, len))
			return &e->fm;
	}
	/* replace the oldest */
	e = &fz_teps[fz_tep_next++ % FZ_TEP_CACHE];
	if (e->bytes) {
		tep_free(e->fm.tep);
		free(e->bytes);
	}
	memset(e, 0, sizeof(*e));
	e->bytes = malloc(len ? len : 1);
	e->fm.tep = fz_new_tep(flags);
	if (!e->bytes || !e->fm.tep) {
		tep_free(e->fm.tep);
		free(e->bytes);
		memset(e, 0, sizeof(*e));
		return NULL;
	}
	memcpy(e->bytes, p, len);
	e->len = len;
	e->flags = flags;
	fz_parse_formats(&e->fm, p, len);
	return &e->fm;
}
