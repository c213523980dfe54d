// SPDX-License-Identifier: LGPL-2.1
/*
 * trace-cmd front: makes `trace-cmd gpu-latency ...` work with the stock
 * trace-cmd, which has no external subcommands (3.1.6 dispatches only its
 * built-in table).
 *
 * Installed as `trace-cmd` in a directory that comes before /usr/bin on PATH:
 *
 *   trace-cmd WORD ARGS...   runs trace-cmd-WORD ARGS... when a program of that
 *                            name exists (next to this front, in the tools'
 *                            install directory, or on PATH)
 *   trace-cmd help WORD      runs trace-cmd-WORD --help when it exists
 *   anything else            execs the real trace-cmd with the arguments unchanged
 *
 * The real trace-cmd is the first `trace-cmd` on PATH (then GST_REAL_TRACE_CMD)
 * that is not this program (compared by realpath) and not another front
 * already passed through: each front adds its realpath to GST_TRACE_CMD_FRONTS
 * before it execs the next candidate, so two fronts on PATH never loop.
 *
 * Nothing of the install location is compiled in: the install prefix is found
 * from this program's own path (/proc/self/exe) and the install layout relative
 * to the prefix (GST_FRONT_REL_DIR or GST_BIN_REL_DIR), so a relocated install
 * (`cmake --install --prefix`, DESTDIR, an extracted .deb) runs its own tools.
 * Before any exec the front puts this install's libtraceevent plugin directory
 * on TRACEEVENT_PLUGIN_DIR when the variable is unset and the directory is not
 * one libtraceevent searches anyway (it would load the plugin twice). A word
 * this project installs (GST_OWN_WORDS) that is not found is an error, never a
 * silent fall-through to the real trace-cmd.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* all relative to the install prefix (the build passes GNUInstallDirs' values) */
#ifndef GST_FRONT_REL_DIR
#define GST_FRONT_REL_DIR	"libexec/gpu-sched-trace/bin"
#endif
#ifndef GST_BIN_REL_DIR
#define GST_BIN_REL_DIR		"bin"
#endif
/* may be absolute (-DGST_TEP_PLUGIN_DIR=/abs): then used as it is */
#ifndef GST_TEP_REL_DIR
#define GST_TEP_REL_DIR		"lib/x86_64-linux-gnu/traceevent/plugins"
#endif
/* libtraceevent's own directory (its libdir + /traceevent/plugins, libtraceevent 1.7) */
#ifndef GST_TEP_SYSTEM_DIR
#define GST_TEP_SYSTEM_DIR	"/usr/lib/x86_64-linux-gnu/traceevent/plugins"
#endif
#ifndef GST_REAL_TRACE_CMD
#define GST_REAL_TRACE_CMD	"/usr/bin/trace-cmd"
#endif
/* subcommands this project installs, ':'-separated */
#ifndef GST_OWN_WORDS
#define GST_OWN_WORDS		"gpu-latency"
#endif

#define FRONT_ENV	"GST_TRACE_CMD_FRONTS"
#define FRONT_MAX	16	/* fronts in a chain before giving up */

struct front {
	char	self[PATH_MAX];		/* realpath of this program */
	char	selfdir[PATH_MAX];
	char	prefix[PATH_MAX];	/* this install's prefix, "" outside an install */
	char	*visited;		/* FRONT_ENV: fronts already passed through */
};

static bool is_exec(const char *path)
{
	return access(path, X_OK) == 0;
}

/* a subcommand word: letters, digits, '-', '_' (never a path) */
static bool plain_word(const char *w)
{
	const char *p;

	if (!*w || *w == '-')
		return false;
	for (p = w; *p; p++) {
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '-' || *p == '_'))
			return false;
	}
	return true;
}

/* try DIR/NAME; on success the path is in @out */
static bool try_dir(const char *dir, size_t dlen, const char *name, char *out, size_t len)
{
	int n;

	if (!dlen) {
		dir = ".";
		dlen = 1;
	}
	n = snprintf(out, len, "%.*s/%s", (int)dlen, dir, name);
	return n > 0 && (size_t)n < len && is_exec(out);
}

/* trace-cmd-WORD next to this program, in this install's bindir, or on PATH */
static bool find_subcommand(const struct front *f, const char *word, char *out, size_t len)
{
	const char *path = getenv("PATH");
	char name[NAME_MAX + 1];
	const char *p;
	int n;

	n = snprintf(name, sizeof(name), "trace-cmd-%s", word);
	if (n < 0 || (size_t)n >= sizeof(name))
		return false;
	if (*f->selfdir && try_dir(f->selfdir, strlen(f->selfdir), name, out, len))
		return true;
	if (*f->prefix) {
		char bindir[PATH_MAX];

		n = snprintf(bindir, sizeof(bindir), "%s/%s", f->prefix, GST_BIN_REL_DIR);
		if (n > 0 && (size_t)n < sizeof(bindir) &&
		    try_dir(bindir, (size_t)n, name, out, len))
			return true;
	}
	for (p = path; p && *p; ) {
		const char *end = strchrnul(p, ':');

		if (try_dir(p, (size_t)(end - p), name, out, len))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

static bool was_visited(const struct front *f, const char *real)
{
	const char *p = f->visited;
	size_t len = strlen(real);

	if (!strcmp(real, f->self))
		return true;
	while (p && *p) {
		const char *end = strchrnul(p, ':');

		if ((size_t)(end - p) == len && !strncmp(p, real, len))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

/* a trace-cmd candidate: executable, not this front, not a visited front */
static bool good_candidate(const struct front *f, const char *cand)
{
	char real[PATH_MAX];

	if (!is_exec(cand) || !realpath(cand, real))
		return false;
	return !was_visited(f, real);
}

static bool find_real(const struct front *f, char *out, size_t len)
{
	const char *path = getenv("PATH");
	const char *p;

	for (p = path; p && *p; ) {
		const char *end = strchrnul(p, ':');

		if (try_dir(p, (size_t)(end - p), "trace-cmd", out, len) &&
		    good_candidate(f, out))
			return true;
		p = *end ? end + 1 : end;
	}
	if (good_candidate(f, GST_REAL_TRACE_CMD)) {
		snprintf(out, len, "%s", GST_REAL_TRACE_CMD);
		return true;
	}
	return false;
}

static int count_visited(const char *v)
{
	int n = 0;

	for (; v && *v; v++) {
		if (*v == ':')
			n++;
	}
	return v ? n + 1 : 0;
}

/* remember this front for the next one in the chain */
static int mark_visited(struct front *f)
{
	const char *old = f->visited;
	char *v;

	if (old && *old) {
		if (asprintf(&v, "%s:%s", old, f->self) < 0)
			return -1;
	} else {
		v = strdup(f->self);
		if (!v)
			return -1;
	}
	if (setenv(FRONT_ENV, v, 1) < 0) {
		free(v);
		return -1;
	}
	free(v);
	return 0;
}

/* @dir ends with "/" @rel: cut it off (the rest is the prefix) */
static bool strip_rel(char *dir, const char *rel)
{
	size_t dl = strlen(dir), rl = strlen(rel);

	if (!rl || rl >= dl || strcmp(dir + dl - rl, rel) || dir[dl - rl - 1] != '/')
		return false;
	dir[dl - rl - 1] = '\0';
	if (!*dir)
		snprintf(dir, PATH_MAX, "/");
	return true;
}

/* the prefix of the install this front belongs to: libexec copy, then bindir copy */
static void find_prefix(struct front *f)
{
	snprintf(f->prefix, sizeof(f->prefix), "%s", f->selfdir);
	if (strip_rel(f->prefix, GST_FRONT_REL_DIR))
		return;
	snprintf(f->prefix, sizeof(f->prefix), "%s", f->selfdir);
	if (strip_rel(f->prefix, GST_BIN_REL_DIR))
		return;
	f->prefix[0] = '\0';	/* not installed (the build tree) */
}

static bool same_dir(const char *a, const char *b)
{
	char ra[PATH_MAX], rb[PATH_MAX];

	return realpath(a, ra) && realpath(b, rb) && !strcmp(ra, rb);
}

/*
 * TRACEEVENT_PLUGIN_DIR = this install's plugin directory, unless the user set
 * it or libtraceevent searches that directory anyway (its own directory and
 * ~/.local/lib/traceevent/plugins, libtraceevent 1.7): loading the same plugin
 * from two directories registers it twice.
 */
static void set_plugin_dir(const struct front *f)
{
	char dir[PATH_MAX], real[PATH_MAX], user[PATH_MAX];
	const char *home = getenv("HOME");
	int n;

	if (getenv("TRACEEVENT_PLUGIN_DIR") || !*f->prefix)
		return;
	if (GST_TEP_REL_DIR[0] == '/')
		n = snprintf(dir, sizeof(dir), "%s", GST_TEP_REL_DIR);
	else
		n = snprintf(dir, sizeof(dir), "%s/%s", f->prefix, GST_TEP_REL_DIR);
	if (n < 0 || (size_t)n >= sizeof(dir) || !realpath(dir, real))
		return;
	if (same_dir(real, GST_TEP_SYSTEM_DIR))
		return;
	if (home) {
		n = snprintf(user, sizeof(user), "%s/.local/lib/traceevent/plugins", home);
		if (n > 0 && (size_t)n < sizeof(user) && same_dir(real, user))
			return;
	}
	setenv("TRACEEVENT_PLUGIN_DIR", real, 1);
}

/* one of the subcommands this project installs */
static bool own_word(const char *word)
{
	const char *p = GST_OWN_WORDS;
	size_t len = strlen(word);

	while (*p) {
		const char *end = strchrnul(p, ':');

		if ((size_t)(end - p) == len && !strncmp(p, word, len))
			return true;
		p = *end ? end + 1 : end;
	}
	return false;
}

static void run_subcommand(const char *prog, const char *word, int argc, char **argv,
			   bool help)
{
	char **nargv = calloc((size_t)argc + 2, sizeof(*nargv));
	char *name;
	int i, n = 0;

	if (!nargv || asprintf(&name, "trace-cmd-%s", word) < 0)
		return;
	nargv[n++] = name;
	if (help)
		nargv[n++] = "--help";
	for (i = help ? 3 : 2; i < argc; i++)
		nargv[n++] = argv[i];
	nargv[n] = NULL;
	execv(prog, nargv);
	fprintf(stderr, "trace-cmd: %s: %s\n", prog, strerror(errno));
	exit(126);
}

int main(int argc, char **argv)
{
	char prog[PATH_MAX];
	struct front f = { 0 };
	char *slash;

	if (!realpath("/proc/self/exe", f.self) && !realpath(argv[0], f.self))
		snprintf(f.self, sizeof(f.self), "%s", argv[0]);
	snprintf(f.selfdir, sizeof(f.selfdir), "%s", f.self);
	slash = strrchr(f.selfdir, '/');
	if (slash)
		*slash = '\0';
	else
		f.selfdir[0] = '\0';
	f.visited = getenv(FRONT_ENV);
	find_prefix(&f);
	set_plugin_dir(&f);

	if (argc >= 2 && plain_word(argv[1]) && find_subcommand(&f, argv[1], prog, sizeof(prog)))
		run_subcommand(prog, argv[1], argc, argv, false);
	if (argc >= 3 && !strcmp(argv[1], "help") && plain_word(argv[2]) &&
	    find_subcommand(&f, argv[2], prog, sizeof(prog)))
		run_subcommand(prog, argv[2], argc, argv, true);
	if (argc >= 2 && own_word(argv[1])) {
		fprintf(stderr,
			"trace-cmd: trace-cmd-%s not found next to %s%s%s%s or on PATH "
			"(a broken install of gpu-sched-trace?)\n",
			argv[1], f.selfdir, *f.prefix ? ", in " : "", f.prefix,
			*f.prefix ? "/" GST_BIN_REL_DIR : "");
		return 127;
	}

	if (count_visited(f.visited) >= FRONT_MAX) {
		fprintf(stderr, "trace-cmd: too many trace-cmd fronts on PATH (%s=%s)\n",
			FRONT_ENV, f.visited);
		return 127;
	}
	if (!find_real(&f, prog, sizeof(prog))) {
		fprintf(stderr, "trace-cmd: the real trace-cmd was not found on PATH or at %s "
			"(install trace-cmd)\n", GST_REAL_TRACE_CMD);
		return 127;
	}
	if (mark_visited(&f) < 0) {
		fprintf(stderr, "trace-cmd: %s\n", strerror(errno));
		return 127;
	}
	execv(prog, argv);
	fprintf(stderr, "trace-cmd: %s: %s\n", prog, strerror(errno));
	return 126;
}
