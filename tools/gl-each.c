// SPDX-License-Identifier: LGPL-2.1
/*
 * --each FILE...: every input reported on its own, as JSON lines (issue 20).
 *
 * One object per input file, in the order of the command line, each the
 * --json report of that file alone (gl_json_report, printed on one line),
 * so that thousands of traces from a CI farm go through one command into
 * DuckDB, Spark or BigQuery. A file that cannot be read gives
 * {"files": [FILE], "error": "..."} (and its one-line error on stderr).
 *
 * Parallel: -j N worker processes (default: the CPUs this process may run
 * on), one per file at a time. Processes, not threads: libtracecmd and
 * libtraceevent keep global state (log level, plugin lists), and a damaged
 * file can then never take the other reports with it. Each child writes its
 * line into a pipe; the parent prints the lines in input order and starts a
 * new child as one finishes, at most 4 * N files ahead of the oldest one
 * still running (what waits to be printed stays bounded).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "gpu-latency.h"

struct each_slot {
	pid_t pid;
	int fd; /* read end of the child's pipe, -1 at EOF */
	char *buf; /* its line so far */
	size_t len, cap;
	bool done; /* EOF seen and child reaped */
	int status;
};

unsigned int gl_each_default_jobs(void)
{
	cpu_set_t set;
	int n;

	if (!sched_getaffinity(0, sizeof(set), &set)) {
		n = CPU_COUNT(&set);
		if (n > 0)
			return (unsigned int)n;
	}
	n = (int)sysconf(_SC_NPROCESSORS_ONLN);
	return n > 0 ? (unsigned int)n : 1;
}

void gl_each_usage(FILE *out)
{
	fprintf(out,
		"\n"
		"Fleets:\n"
		"  --each              every input file reported on its own, as JSON lines: one\n"
		"                      --json object per file (one line each, input order; a\n"
		"                      file that cannot be read gives {\"files\", \"error\"})\n"
		"  -j N                --each: N files at once; one report: N threads decode a\n"
		"                      zstd (v7) trace.dat (default: the CPUs available)\n");
}

int gl_each_parse_jobs(const char *s, unsigned int *n)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > 1024)
		return -1;
	*n = (unsigned int)v;
	return 0;
}

/* what --each goes with: one --json report per file, nothing else */
int gl_each_check(const struct gl_opts *o, const char *outfile)
{
	if (!o->each)
		return 0;
	if (o->watch || o->compare || o->perfetto || o->jobs || o->ngates || outfile ||
	    o->format == GL_FMT_CSV) {
		fprintf(stderr,
			"%s: --each prints one JSON line per file (no --watch, --compare, "
			"--perfetto, --csv, --jobs, --fail-if, -o)\n",
			GL_NAME);
		return -1;
	}
	return 0;
}

static void put_line(int fd, const char *s)
{
	size_t len = strlen(s), off = 0;

	while (off < len) {
		ssize_t w = write(fd, s + off, len - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		off += (size_t)w;
	}
}

/* the last non-empty line of @f (the child's stderr), without its newline */
static void last_line(FILE *f, char *out, size_t len)
{
	char line[1024];

	out[0] = '\0';
	if (fseek(f, 0, SEEK_SET))
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			snprintf(out, len, "%s", line);
	}
}

static void error_line(int fd, const char *file, const char *msg)
{
	struct json_object *o = json_object_new_object();
	struct json_object *a = json_object_new_array();

	json_object_array_add(a, json_object_new_string(file));
	json_object_object_add(o, "files", a);
	json_object_object_add(o, "error", json_object_new_string(msg[0] ? msg : "failed"));
	put_line(fd, json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
							       JSON_C_TO_STRING_NOSLASHESCAPE));
	put_line(fd, "\n");
	json_object_put(o);
}

/* in the child: the report of @file on one line into @fd; the exit status */
static int child_report(const struct gl_opts *o, const char *file, int fd)
{
	const char *files[1] = { file };
	struct json_object *parsed;
	struct gl_run run;
	FILE *tmp, *err;
	char msg[1024];
	long len;
	char *text;
	int null, ret = GL_EXIT_ERROR;

	/* libtracecmd may printf(): nothing but our line reaches the pipe */
	null = open("/dev/null", O_WRONLY);
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		close(null);
	}
	/* keep the child's errors for the "error" member, and pass them on */
	err = tmpfile();
	if (err) {
		int saved = dup(STDERR_FILENO);

		fflush(stderr);
		dup2(fileno(err), STDERR_FILENO);
		if (saved >= 0)
			fcntl(saved, F_SETFD, FD_CLOEXEC);
		if (gl_run_init(&run, o, files, 1) < 0 || gl_run_read(&run) < 0) {
			fflush(stderr);
			last_line(err, msg, sizeof(msg));
			if (saved >= 0 && msg[0]) {
				put_line(saved, msg);
				put_line(saved, "\n");
			}
			error_line(fd, file, msg);
			gl_run_free(&run);
			return GL_EXIT_ERROR;
		}
		fflush(stderr);
		if (saved >= 0) {
			dup2(saved, STDERR_FILENO);
			close(saved);
		}
		fclose(err);
	} else if (gl_run_init(&run, o, files, 1) < 0 || gl_run_read(&run) < 0) {
		error_line(fd, file, "");
		gl_run_free(&run);
		return GL_EXIT_ERROR;
	}
	tmp = tmpfile();
	if (!tmp || gl_json_report(&run, tmp) < 0 || fflush(tmp) || (len = ftell(tmp)) < 0)
		goto out;
	text = malloc((size_t)len + 1);
	if (!text || fseek(tmp, 0, SEEK_SET) || fread(text, 1, (size_t)len, tmp) != (size_t)len) {
		free(text);
		goto out;
	}
	text[len] = '\0';
	/* the --json writer's own object, printed on one line */
	parsed = json_tokener_parse(text);
	free(text);
	if (!parsed)
		goto out;
	put_line(fd, json_object_to_json_string_ext(
			     parsed, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	put_line(fd, "\n");
	json_object_put(parsed);
	ret = GL_EXIT_OK;
out:
	if (ret != GL_EXIT_OK) {
		fprintf(stderr, "%s: %s: writing the report failed\n", GL_NAME, file);
		error_line(fd, file, "writing the report failed");
	}
	if (tmp)
		fclose(tmp);
	gl_run_free(&run);
	return ret;
}

static int start(const struct gl_opts *o, size_t i, struct each_slot *s)
{
	int p[2];

	if (pipe(p) < 0)
		return -1;
	fflush(stdout);
	fflush(stderr);
	s->pid = fork();
	if (s->pid < 0) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	if (s->pid == 0) {
		close(p[0]);
		_exit(child_report(o, o->files[i], p[1]));
	}
	close(p[1]);
	s->fd = p[0];
	s->len = 0;
	s->done = false;
	return 0;
}

/* read what slot @s has; on EOF reap its child */
static void drain(struct each_slot *s)
{
	ssize_t n;

	if (s->cap - s->len < 65536) {
		size_t cap = s->cap ? s->cap * 2 : 131072;
		char *nb = realloc(s->buf, cap);

		if (!nb)
			return; /* retried on the next poll */
		s->buf = nb;
		s->cap = cap;
	}
	n = read(s->fd, s->buf + s->len, s->cap - s->len);
	if (n < 0 && errno == EINTR)
		return;
	if (n > 0) {
		s->len += (size_t)n;
		return;
	}
	close(s->fd);
	s->fd = -1;
	while (waitpid(s->pid, &s->status, 0) < 0 && errno == EINTR)
		;
	s->done = true;
}

int gl_each_main(const struct gl_opts *o, unsigned int jobs)
{
	size_t n = o->nfiles, next = 0, printed = 0, i, window;
	struct each_slot *slots;
	struct pollfd *pfd;
	size_t *pidx;
	int ret = GL_EXIT_OK;

	if (!jobs)
		jobs = gl_each_default_jobs();
	window = (size_t)jobs * 4;
	slots = calloc(n ? n : 1, sizeof(*slots));
	pfd = calloc(n ? n : 1, sizeof(*pfd));
	pidx = calloc(n ? n : 1, sizeof(*pidx));
	if (!slots || !pfd || !pidx) {
		fprintf(stderr, "%s: %s\n", GL_NAME, strerror(ENOMEM));
		free(slots);
		free(pfd);
		free(pidx);
		return GL_EXIT_ERROR;
	}
	for (i = 0; i < n; i++)
		slots[i].fd = -1;
	while (printed < n) {
		size_t running = 0, np = 0;

		for (i = printed; i < next; i++)
			running += !slots[i].done;
		while (next < n && running < jobs && next < printed + window) {
			if (start(o, next, &slots[next]) < 0) {
				fprintf(stderr, "%s: %s: cannot start a worker: %s\n", GL_NAME,
					o->files[next], strerror(errno));
				ret = GL_EXIT_ERROR;
				slots[next].done = true;
				slots[next].status = GL_EXIT_ERROR << 8;
			} else {
				running++;
			}
			next++;
		}
		/* print, in input order, what is complete */
		while (printed < next && slots[printed].done) {
			struct each_slot *s = &slots[printed];

			if (s->len) {
				fwrite(s->buf, 1, s->len, stdout);
			} else {
				/* a worker that died before its line: the file still gets one */
				fflush(stdout);
				error_line(STDOUT_FILENO, o->files[printed], "the worker died");
			}
			if (!WIFEXITED(s->status) || WEXITSTATUS(s->status) != GL_EXIT_OK) {
				if (!WIFEXITED(s->status))
					fprintf(stderr, "%s: %s: the worker died (signal %d)\n",
						GL_NAME, o->files[printed], WTERMSIG(s->status));
				ret = GL_EXIT_ERROR;
			}
			free(s->buf);
			s->buf = NULL;
			printed++;
		}
		fflush(stdout);
		for (i = printed; i < next; i++) {
			if (slots[i].fd >= 0) {
				pfd[np].fd = slots[i].fd;
				pfd[np].events = POLLIN;
				pidx[np++] = i;
			}
		}
		if (!np)
			continue;
		if (poll(pfd, np, -1) < 0 && errno != EINTR)
			break;
		for (i = 0; i < np; i++)
			if (pfd[i].revents)
				drain(&slots[pidx[i]]);
	}
	free(slots);
	free(pfd);
	free(pidx);
	return ret;
}
