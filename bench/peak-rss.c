// SPDX-License-Identifier: LGPL-2.1
/*
 * peak-rss - run a command and report its peak resident set size
 *
 *   peak-rss [-o FILE] [-q] [-a] -- COMMAND [ARG...]
 *	-o FILE	 write the result line to FILE instead of stderr
 *	-q	 send the command's stdout to /dev/null
 *	-a	 also sample RssAnon and RssFile of /proc/PID/status every 5 ms
 *
 * Result line: "maxrss_kb=N [anon_kb=A file_kb=F ]wall_s=S status=X" where N
 * is the child's ru_maxrss (getrusage(RUSAGE_CHILDREN) after waiting for it;
 * KiB on Linux), A and F the largest sampled anonymous and file-backed parts
 * of its RSS (libtracecmd maps the pages of an uncompressed trace: they count
 * in ru_maxrss but are clean page cache), S its wall time and X its exit
 * status (128+signal when killed).
 * The exit status of peak-rss is that of the command (or 127 if it cannot run).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/wait.h>

/* largest RssAnon / RssFile of @pid so far (KiB) */
static void sample(pid_t pid, long *anon, long *file)
{
	char path[64], line[256];
	long v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "RssAnon: %ld", &v) == 1 && v > *anon)
			*anon = v;
		else if (sscanf(line, "RssFile: %ld", &v) == 1 && v > *file)
			*file = v;
	}
	fclose(f);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	struct rusage ru;
	int quiet = 0, anon_file = 0, status, code, i;
	long anon = 0, file = 0;
	double t0, t1;
	FILE *f;
	pid_t pid;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "-q"))
			quiet = 1;
		else if (!strcmp(argv[i], "-a"))
			anon_file = 1;
		else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else
			break;
	}
	if (i >= argc || argv[i][0] == '-') {
		fprintf(stderr, "usage: %s [-o FILE] [-q] [-a] -- COMMAND [ARG...]\n", argv[0]);
		return 2;
	}

	t0 = now();
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 127;
	}
	if (!pid) {
		if (quiet) {
			int fd = open("/dev/null", O_WRONLY);

			if (fd >= 0) {
				dup2(fd, STDOUT_FILENO);
				close(fd);
			}
		}
		execvp(argv[i], argv + i);
		fprintf(stderr, "%s: cannot run %s: %s\n", argv[0], argv[i], strerror(errno));
		_exit(127);
	}
	for (;;) {
		pid_t r = waitpid(pid, &status, anon_file ? WNOHANG : 0);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR) {
			perror("waitpid");
			return 127;
		}
		if (r == 0) {
			struct timespec ts = { 0, 5 * 1000 * 1000 };

			sample(pid, &anon, &file);
			nanosleep(&ts, NULL);
		}
	}
	t1 = now();
	if (getrusage(RUSAGE_CHILDREN, &ru)) {
		perror("getrusage");
		return 127;
	}
	code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);

	f = out ? fopen(out, "w") : stderr;
	if (!f) {
		fprintf(stderr, "%s: cannot write %s: %s\n", argv[0], out, strerror(errno));
		return 127;
	}
	fprintf(f, "maxrss_kb=%ld ", ru.ru_maxrss);
	if (anon_file)
		fprintf(f, "anon_kb=%ld file_kb=%ld ", anon, file);
	fprintf(f, "wall_s=%.6f status=%d\n", t1 - t0, code);
	if (out)
		fclose(f);
	return code;
}
