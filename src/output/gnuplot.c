// SPDX-License-Identifier: GPL-2.0
/*
 * gnuplot.c - what tlat's plots share: the terminal, quoting, colours, and
 * gnuplot run on a script into a file published only once drawn.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/array.h"
#include "core/err.h"
#include "output/gnuplot.h"
#include "util/publish.h"
#include "util/spawn.h"

#define PLOT_GNUPLOT	"gnuplot"
/* the first line gnuplot prints on standard error is the one-line error */
#define PLOT_ERR_LEN	160

static const char *const colours[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
};

const char *gnuplot_colour(unsigned int n)
{
	return colours[n % ARRAY_SIZE(colours)];
}

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

/*
 * Enhanced text makes the SVG name each curve's group by its key; the title,
 * with "_" in kernel releases, is the only text that must not be enhanced.
 */
void gnuplot_terminal(FILE *out, enum tlat_plot_format format)
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
void gnuplot_quoted(FILE *out, const char *text)
{
	fputc('\'', out);
	for (const char *c = text; *c; c++)
		if (*c == '\'')
			fputs("''", out);
		else if (*c != '\n')
			fputc(*c, out);
	fputc('\'', out);
}

/*
 * Runs gnuplot with these standard input and output, and waits for it. On
 * failure, err says why in one line, gnuplot's own first line if it had one.
 */
static int plot_gnuplot(char *const argv[], int in_fd, int out_fd, char *err)
{
	char msg[PLOT_ERR_LEN];
	int status = spawn_wait(argv, &(struct spawn_io){
		.in = in_fd,
		.out = out_fd,
		.err_line = msg,
		.err_line_len = sizeof(msg),
	});

	if (status < 0) {
		tlat_err(err, "--plot needs %s (Debian: apt-get install gnuplot-nox): %s",
			 argv[0], strerror(-status));
		return status;
	}
	if (!status)
		return 0;
	if (status >= SPAWN_KILLED)
		tlat_err(err, "%s was killed by signal %d", argv[0], status - SPAWN_KILLED);
	else
		tlat_err(err, "%s failed (exit status %d)%s%s", argv[0], status,
			 *msg ? ": " : "", msg);
	return -EIO;
}

/*
 * The file gnuplot writes, renamed to the plot's name once drawn. It gets
 * the mode any new file of the user would have.
 */
static int plot_file_open(struct publish *plot, const char *path, char *err)
{
	mode_t mask = umask(0);
	int ret;

	umask(mask);
	ret = publish_open(plot, path, 0666 & ~mask);
	if (ret)
		tlat_err(err, "cannot write the plot to %s: %s", path, strerror(-ret));
	return ret;
}

/* before measuring: the name, the directory and gnuplot are usable; changes nothing */
int gnuplot_check(const char *path, char *err)
{
	struct publish plot;
	struct stat st;
	int null_fd, ret;

	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		tlat_err(err, "cannot write the plot to %s: %s", path,
			 strerror(EISDIR));
		return -EISDIR;
	}
	/* a real file in the directory: access() would not see a read-only file system */
	ret = plot_file_open(&plot, path, err);
	if (ret)
		return ret;
	publish_abort(&plot);
	null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null_fd < 0) {
		tlat_err(err, "cannot open /dev/null: %s", strerror(errno));
		return -errno;
	}
	ret = plot_gnuplot((char *[]){ PLOT_GNUPLOT, "--version", NULL }, null_fd, null_fd, err);
	close(null_fd);
	return ret;
}

/* gnuplot succeeded: the file it wrote takes the plot's name, or goes */
static int plot_publish(struct publish *plot)
{
	struct stat st;
	int ret = 0;

	if (fstat(plot->fd, &st))
		ret = -errno;
	else if (!st.st_size)
		ret = -ENODATA;	/* gnuplot succeeded but drew nothing */
	if (ret) {
		publish_abort(plot);
		return ret;
	}
	return publish_commit(plot);
}

/* gnuplot draws the script into path; on error path is left as it was */
int gnuplot_draw(const char *path, FILE *script, char *err)
{
	struct publish plot;
	int ret;

	ret = plot_file_open(&plot, path, err);
	if (ret)
		return ret;
	ret = plot_gnuplot((char *[]){ PLOT_GNUPLOT, NULL }, fileno(script), plot.fd, err);
	if (ret) {
		publish_abort(&plot);
	} else {
		ret = plot_publish(&plot);
		if (ret)
			tlat_err(err, "cannot write the plot to %s: %s", path,
				 strerror(-ret));
	}
	return ret;
}

int gnuplot_render(const char *path, gnuplot_script_fn script_fn, const void *data, char *err)
{
	FILE *script;
	int ret;

	/* unlinked already: nothing is left behind, whatever ends tlat */
	script = tmpfile();
	if (!script) {
		tlat_err(err, "cannot create the plot's script: %s", strerror(errno));
		return -errno;
	}
	ret = script_fn(script, data, render_plot_format(path));
	if (!ret && (fflush(script) || fseek(script, 0, SEEK_SET)))
		ret = -errno;
	if (ret)
		tlat_err(err, "cannot write the plot's script: %s", strerror(-ret));
	else
		ret = gnuplot_draw(path, script, err);
	fclose(script);
	return ret;
}
