// SPDX-License-Identifier: GPL-2.0
/*
 * render_plot.c - tlat hist --plot: the finished histogram as an OSADL-style
 * latency plot (linear latency, log sample count, one step curve per CPU and
 * context), drawn by gnuplot so that tlat needs no graphics library.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "render.h"

extern char **environ;

/*
 * An empty bucket is drawn at this count: below the y range, which starts at
 * 0.8 as OSADL's plots do so that a single sample shows, gnuplot clips it and
 * the curve drops to the axis instead of leaving a gap (log(0) is undefined).
 */
#define PLOT_EMPTY	"0.5"
#define PLOT_GNUPLOT	"gnuplot"
/* the first line gnuplot prints on standard error is the one-line error */
#define PLOT_ERR_LEN	160

static const char *const ctx_title[TLAT_NR_CTX] = {
	[TLAT_CTX_IRQ]		= "IRQ",
	[TLAT_CTX_THREAD]	= "thread",
	[TLAT_CTX_USER]		= "user",
};

/* the contexts of a CPU share its colour and differ in dashes */
static const char *const ctx_dash[TLAT_NR_CTX] = {
	[TLAT_CTX_IRQ]		= "dt 3 lw 2",
	[TLAT_CTX_THREAD]	= "dt 1 lw 1.5",
	[TLAT_CTX_USER]		= "dt 2 lw 1.5",
};

static const char *const cpu_colour[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
};

#define NR_COLOURS	(sizeof(cpu_colour) / sizeof(cpu_colour[0]))

enum tlat_plot_format render_plot_format(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return TLAT_PLOT_NONE;
	if (!strcasecmp(dot, ".png"))
		return TLAT_PLOT_PNG;
	if (!strcasecmp(dot, ".svg"))
		return TLAT_PLOT_SVG;
	return TLAT_PLOT_NONE;
}

static bool curve_shown(const struct tlat_report *r, int cpu, int ctx)
{
	return render_cpu_shown(r, cpu) && render_ctx_shown(r, ctx);
}

/* the last bucket below over: that any curve has a sample in, or -1 */
static long plot_last_bucket(const struct tlat_report *r)
{
	long last = -1;

	for (int cpu = 0; cpu < stats_nr_cpus(r->stats); cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			if (!curve_shown(r, cpu, ctx))
				continue;
			for (long b = hist_entries(r->hist) - 1; b > last; b--)
				if (hist_bucket(r->hist, cpu, ctx, b)) {
					last = b;
					break;
				}
		}
	return last;
}

static u64 plot_over_total(const struct tlat_report *r)
{
	u64 over = 0;

	for (int cpu = 0; cpu < stats_nr_cpus(r->stats); cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			if (curve_shown(r, cpu, ctx))
				over += hist_bucket(r->hist, cpu, ctx, hist_entries(r->hist));
	return over;
}

/*
 * The x axis ends after the last sample. With samples in over:, it reaches
 * the histogram's end instead, marked by a line: they lie beyond it.
 */
static void plot_ranges(FILE *out, const struct tlat_report *r, long last, const char *unit)
{
	u64 end = (u64)hist_entries(r->hist) * r->params->hist.bucket_size;

	/* 0.8: a bucket with one sample still shows above the axis, as in OSADL's plots */
	fprintf(out, "set yrange [0.8:%s]\n", last >= 0 ? "*" : "10");
	if (!plot_over_total(r)) {
		if (last >= 0)
			fputs("set xrange [0:*]\n", out);
		else
			fprintf(out, "set xrange [0:%llu]\n", (unsigned long long)end);
		return;
	}
	fprintf(out, "set xrange [0:%llu]\n"
		"set arrow from %llu, graph 0 to %llu, graph 1 nohead dt 4 lc rgb 'gray40'\n"
		"set label \"over: %llu %s and above\" at %llu, graph 0.5 center rotate by 90 offset -1,0\n",
		(unsigned long long)(end + end / 20), (unsigned long long)end,
		(unsigned long long)end, (unsigned long long)end, unit, (unsigned long long)end);
}

/*
 * Enhanced text makes the SVG name each curve's group by its key; the title,
 * with "_" in kernel releases, is the only text that must not be enhanced.
 */
static void plot_terminal(FILE *out, enum tlat_plot_format format)
{
	if (format == TLAT_PLOT_SVG) {
		fputs("set terminal svg size 1000,600 dynamic enhanced font 'sans,10'\n", out);
		return;
	}
	/* pngcairo draws smoother lines; png (libgd) is the fallback of small builds */
	fputs("if (strstrt(GPVAL_TERMINALS, ' pngcairo ') > 0) {\n"
	      "\tset terminal pngcairo size 1000,600 enhanced font 'sans,10'\n"
	      "} else {\n"
	      "\tset terminal png size 1000,600 enhanced\n"
	      "}\n", out);
}

/*
 * Text from outside tlat goes into single quotes: gnuplot expands nothing
 * there (double quotes take escapes and `command` substitution), and a
 * quote is written twice.
 */
static void plot_quoted(FILE *out, const char *text)
{
	fputc('\'', out);
	for (const char *c = text; *c; c++)
		if (*c == '\'')
			fputs("''", out);
		else if (*c != '\n')
			fputc(*c, out);
	fputc('\'', out);
}

static void plot_labels(FILE *out, const struct tlat_report *r, const char *unit)
{
	const struct tlat_params *p = r->params;
	char duration[32], title[2 * sizeof(struct utsname) + sizeof(duration) + 64];
	const char *release = "(unknown)", *machine = "", *d = duration;
	struct utsname uts;

	render_duration(duration, sizeof(duration), r->elapsed_s);
	while (*d == ' ')
		d++;
	if (!uname(&uts)) {
		release = uts.release;
		machine = uts.machine;
	}
	snprintf(title, sizeof(title), "tlat hist: Linux %s %s, period %llu us, duration %s",
		 release, machine, (unsigned long long)p->period_us, d);
	fputs("set title ", out);
	plot_quoted(out, title);
	fputs(" noenhanced\n", out);
	if (p->hist.bucket_size > 1)
		fprintf(out, "set xlabel \"Latency (%s), buckets of %u %s\"\n", unit,
			p->hist.bucket_size, unit);
	else
		fprintf(out, "set xlabel \"Latency (%s)\"\n", unit);
	fputs("set ylabel \"Number of latency samples\"\n"
	      "set logscale y\n"
	      "set grid\n"
	      "set key top right box samplen 3\n", out);
}

static bool plot_bucket_empty(const struct tlat_report *r, long bucket)
{
	for (int cpu = 0; cpu < stats_nr_cpus(r->stats); cpu++)
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++)
			if (curve_shown(r, cpu, ctx) && hist_bucket(r->hist, cpu, ctx, bucket))
				return false;
	return true;
}

/*
 * A row per bucket up to the last non-empty one, and a row that closes it.
 * A step runs from its row to the next, so of buckets empty in every curve
 * only the first of a run needs a row: sparse tails (-E 1000000) stay small.
 */
static void plot_data(FILE *out, const struct tlat_report *r, long last)
{
	unsigned int size = r->params->hist.bucket_size;
	bool prev_empty = false, empty;

	fputs("$tlat << EOD\n", out);
	for (long b = 0; b <= last + 1; b++) {
		empty = b > last || plot_bucket_empty(r, b);
		if (empty && prev_empty)
			continue;
		prev_empty = empty;
		fprintf(out, "%lu", (unsigned long)b * size);
		for (int cpu = 0; cpu < stats_nr_cpus(r->stats); cpu++)
			for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
				u64 n = b <= last ? hist_bucket(r->hist, cpu, ctx, b) : 0;

				if (!curve_shown(r, cpu, ctx))
					continue;
				if (n)
					fprintf(out, " %llu", (unsigned long long)n);
				else
					fputs(" " PLOT_EMPTY, out);
			}
		fputc('\n', out);
	}
	fputs("EOD\n", out);
}

/* the key names each curve's maximum and its over: count, which the plot cannot show */
static void plot_key_title(FILE *out, const struct tlat_report *r, int cpu, int ctx,
			   const char *unit)
{
	const struct tlat_stat *st = stats_get(r->stats, cpu, ctx);
	u64 over = hist_bucket(r->hist, cpu, ctx, hist_entries(r->hist));

	fprintf(out, "title \"CPU %d %s: ", cpu, ctx_title[ctx]);
	if (st->count)
		fprintf(out, "max %llu %s", (unsigned long long)(st->max / render_divisor(r)), unit);
	else
		fputs("no samples", out);
	fprintf(out, ", over: %llu\"", (unsigned long long)over);
}

static void plot_curves(FILE *out, const struct tlat_report *r, const char *unit)
{
	int column = 2, shown = 0;
	const char *sep = "plot ";

	for (int cpu = 0; cpu < stats_nr_cpus(r->stats); cpu++) {
		if (!render_cpu_shown(r, cpu))
			continue;
		for (int ctx = 0; ctx < TLAT_NR_CTX; ctx++) {
			if (!curve_shown(r, cpu, ctx))
				continue;
			fprintf(out, "%s$tlat using 1:%d with steps lc rgb '%s' %s ", sep, column++,
				cpu_colour[shown % NR_COLOURS], ctx_dash[ctx]);
			plot_key_title(out, r, cpu, ctx, unit);
			sep = ", \\\n     ";
		}
		shown++;
	}
	if (column == 2)	/* no CPU has samples: an empty frame, not a gnuplot error */
		fputs("unset key\nset label 'no samples' at graph 0.5, 0.5 center\nplot NaN notitle",
		      out);
	fputc('\n', out);
}

int render_plot_script(FILE *out, const struct tlat_report *r, enum tlat_plot_format format)
{
	const char *unit = r->params->nano ? "ns" : "us";
	long last = plot_last_bucket(r);

	fputs("# tlat hist --plot: a latency plot, read by gnuplot from standard input\n", out);
	plot_terminal(out, format);
	plot_labels(out, r, unit);
	plot_ranges(out, r, last, unit);
	plot_data(out, r, last);
	plot_curves(out, r, unit);
	return ferror(out) ? -EIO : 0;
}

/* a file next to the plot, for gnuplot to write and rename() to publish */
static int plot_tmp_open(const char *path, char *tmp, size_t len)
{
	char *copy = strdup(path);
	int fd;

	if (!copy)
		return -ENOMEM;
	if (snprintf(tmp, len, "%s/.tlat-plot.XXXXXX", dirname(copy)) >= (int)len) {
		free(copy);
		return -ENAMETOOLONG;
	}
	free(copy);
	fd = mkostemp(tmp, O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

/* keeps the first bytes of what gnuplot says, and reads the rest to the end */
static size_t plot_read_err(int fd, char *msg, size_t size)
{
	char buf[512];
	size_t len = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (len < size - 1) {
			size_t take = (size_t)n < size - 1 - len ? (size_t)n : size - 1 - len;

			memcpy(msg + len, buf, take);
			len += take;
		}
	}
	msg[len] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
	return len;
}

/*
 * Runs gnuplot with these standard input and output, and waits for it. On
 * failure, err says why in one line, gnuplot's own first line if it had one.
 */
static int plot_gnuplot(char *const argv[], int in_fd, int out_fd, char *err)
{
	posix_spawn_file_actions_t actions;
	posix_spawnattr_t attr;
	char msg[PLOT_ERR_LEN];
	int pipefd[2], status, ret;
	sigset_t none;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC))
		return -errno;
	posix_spawn_file_actions_init(&actions);
	posix_spawn_file_actions_adddup2(&actions, in_fd, STDIN_FILENO);
	posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
	posix_spawn_file_actions_adddup2(&actions, pipefd[1], STDERR_FILENO);
	/* tlat blocks its stop signals around some calls; gnuplot must get them */
	sigemptyset(&none);
	posix_spawnattr_init(&attr);
	posix_spawnattr_setsigmask(&attr, &none);
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
	ret = posix_spawnp(&pid, argv[0], &actions, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&actions);
	close(pipefd[1]);
	if (ret) {
		close(pipefd[0]);
		snprintf(err, TLAT_ERR_LEN, "--plot needs %s (Debian: apt-get install gnuplot-nox): %s",
			 argv[0], strerror(ret));
		return -ret;
	}
	plot_read_err(pipefd[0], msg, sizeof(msg));
	close(pipefd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFSIGNALED(status))
		snprintf(err, TLAT_ERR_LEN, "%s was killed by signal %d", argv[0],
			 WTERMSIG(status));
	else
		snprintf(err, TLAT_ERR_LEN, "%s failed (exit status %d)%s%s", argv[0],
			 WEXITSTATUS(status), *msg ? ": " : "", msg);
	return -EIO;
}

int render_plot_check(const char *path, char *err)
{
	char tmp[PATH_MAX];
	struct stat st;
	int fd, null_fd, ret;

	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		snprintf(err, TLAT_ERR_LEN, "cannot write the plot to %s: %s", path,
			 strerror(EISDIR));
		return -EISDIR;
	}
	/* a real file in the directory: access() would not see a read-only file system */
	fd = plot_tmp_open(path, tmp, sizeof(tmp));
	if (fd < 0) {
		snprintf(err, TLAT_ERR_LEN, "cannot write the plot to %s: %s", path, strerror(-fd));
		return fd;
	}
	close(fd);
	unlink(tmp);
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0) {
		snprintf(err, TLAT_ERR_LEN, "cannot open /dev/null: %s", strerror(errno));
		return -errno;
	}
	ret = plot_gnuplot((char *[]){ PLOT_GNUPLOT, "--version", NULL }, null_fd, null_fd, err);
	close(null_fd);
	return ret;
}

/* the plot file gets the mode any new file of the user would have */
static int plot_publish(int fd, const char *tmp, const char *path)
{
	mode_t mask = umask(0);
	struct stat st;

	umask(mask);
	if (fstat(fd, &st))
		return -errno;
	if (!st.st_size)
		return -ENODATA;	/* gnuplot succeeded but drew nothing */
	if (fchmod(fd, 0666 & ~mask) || rename(tmp, path))
		return -errno;
	return 0;
}

int render_plot(const struct tlat_report *r, char *err)
{
	const char *path = r->params->hist.plot_file;
	char tmp[PATH_MAX];
	FILE *script;
	int out_fd, ret;

	/* unlinked already: nothing is left behind, whatever ends tlat */
	script = tmpfile();
	if (!script) {
		snprintf(err, TLAT_ERR_LEN, "cannot create the plot's script: %s", strerror(errno));
		return -errno;
	}
	ret = render_plot_script(script, r, render_plot_format(path));
	if (!ret && (fflush(script) || fseek(script, 0, SEEK_SET)))
		ret = -errno;
	if (ret) {
		snprintf(err, TLAT_ERR_LEN, "cannot write the plot's script: %s", strerror(-ret));
		fclose(script);
		return ret;
	}
	out_fd = plot_tmp_open(path, tmp, sizeof(tmp));
	if (out_fd < 0) {
		snprintf(err, TLAT_ERR_LEN, "cannot write the plot to %s: %s", path,
			 strerror(-out_fd));
		fclose(script);
		return out_fd;
	}
	ret = plot_gnuplot((char *[]){ PLOT_GNUPLOT, NULL }, fileno(script), out_fd, err);
	if (!ret) {
		ret = plot_publish(out_fd, tmp, path);
		if (ret)
			snprintf(err, TLAT_ERR_LEN, "cannot write the plot to %s: %s", path,
				 strerror(-ret));
	}
	if (ret)
		unlink(tmp);
	close(out_fd);
	fclose(script);
	return ret;
}
