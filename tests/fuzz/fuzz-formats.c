// SPDX-License-Identifier: LGPL-2.1
/*
 * Format section parsing for fuzz_core, and the crash probe.
 *
 * libtraceevent 1.7.1 itself crashes on some hostile format texts (NULL
 * dereferences in its parser: FINDINGS.md T1, T2). Those crashes are not in
 * our code, and every reader of such a file (trace-cmd report -N included)
 * dies the same way. So before the harness parses a format section it hands
 * it to fuzz-tep-probe, a tiny uninstrumented helper started with
 * posix_spawn (cheap even from an ASan process, unlike fork); when the helper
 * dies, the input is skipped and the fuzzer goes on with the gpulat core.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

void fz_parse_formats(struct fz_formats *fm, const uint8_t *p, size_t len)
{
	static const char sys_tag[] = FZ_SYS_TAG, comm_tag[] = FZ_COMM_TAG;
	const char *s = (const char *)p, *end = s + len;

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

bool fz_tep_survives(uint8_t flags, const uint8_t *p, size_t len)
{
	const char *probe = probe_path();
	posix_spawn_file_actions_t fa;
	char tmpl[] = "/tmp/fuzz-tep-XXXXXX", fl[8];
	char *argv[4];
	int fd, status;
	bool ok = true;
	pid_t pid;

	if (!probe || !len)
		return true;
	/* a memfd would do too; a tmpfile keeps the helper trivially simple */
	fd = mkstemp(tmpl);
	if (fd < 0)
		return true;
	unlink(tmpl);
	if (write(fd, p, len) != (ssize_t)len || lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return true;
	}
	snprintf(fl, sizeof(fl), "%u", flags);
	argv[0] = (char *)probe;
	argv[1] = fl;
	argv[2] = NULL;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, 0);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawn(&pid, probe, &fa, NULL, argv, environ) == 0) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fd);
	return ok;
}
