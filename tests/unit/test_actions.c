// SPDX-License-Identifier: GPL-2.0
/*
 * test_actions.c - the --on-threshold and --on-end actions: every spelling
 * rtla accepts, the one-line errors for what it does not, and running a
 * list: in order, a failing shell command or action ending it, continue
 * ending it with its verdict, signals to a pid and to the parent.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include "cmd/actions_parse.h"
#include "cmd/cli.h"
#include "run/actions.h"
#include "unit_helpers.h"

static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

/* parse one spec into a fresh list, which must then hold exactly one action */
static const struct tlat_action *parse_one(struct tlat_actions *a, const char *spec)
{
	char err[TLAT_ERR_LEN] = "";

	actions_free(a);
	if (actions_parse(a, spec, "--on-threshold", err))
		fail_msg("'%s' was refused: %s", spec, err);
	assert_int_equal(a->nr, 1);
	return &a->list[0];
}

/* the spec must be refused with one printable line that mentions needle */
static void parse_bad(const char *spec, const char *needle)
{
	struct tlat_actions a = { 0 };
	char err[TLAT_ERR_LEN] = "";

	if (actions_parse(&a, spec, "--on-end", err) != -EINVAL)
		fail_msg("'%s' was accepted", spec);
	assert_int_equal(a.nr, 0);
	for (const char *s = err; *s; s++)
		if (!isprint((unsigned char)*s))
			fail_msg("error for '%s' has a non-printable byte: '%s'", spec, err);
	if (!strstr(err, "invalid --on-end action '") || !strstr(err, needle))
		fail_msg("error '%s' for '%s' does not mention '%s'", err, spec, needle);
}

static void test_parse(void **state)
{
	struct tlat_actions a = { 0 };
	const struct tlat_action *x;

	(void)state;
	x = parse_one(&a, "trace");
	assert_int_equal(x->type, TLAT_ACTION_TRACE);
	assert_string_equal(x->arg, TLAT_DEFAULT_TRACE_FILE);
	x = parse_one(&a, "trace,file=/tmp/t.txt");
	assert_string_equal(x->arg, "/tmp/t.txt");
	x = parse_one(&a, "trace,file=a=b");
	assert_string_equal(x->arg, "a=b");

	x = parse_one(&a, "signal,num=10,pid=1234");
	assert_int_equal(x->type, TLAT_ACTION_SIGNAL);
	assert_int_equal(x->signal, 10);
	assert_int_equal(x->pid, 1234);
	x = parse_one(&a, "signal,pid=parent,num=2");
	assert_int_equal(x->signal, 2);
	assert_int_equal(x->pid, TLAT_ACTION_PARENT);
	x = parse_one(&a, "signal,num=1,pid=9,num=15");	/* as rtla: the last one counts */
	assert_int_equal(x->signal, 15);
	x = parse_one(&a, "signal,num=64,pid=1");
	assert_int_equal(x->signal, SIGRTMAX);

	x = parse_one(&a, "shell,command=echo hi");
	assert_int_equal(x->type, TLAT_ACTION_SHELL);
	assert_string_equal(x->arg, "echo hi");
	/* the rest of the spec: commas and equal signs are the command's */
	x = parse_one(&a, "shell,command=printf '%s,%s' a=1 b,c");
	assert_string_equal(x->arg, "printf '%s,%s' a=1 b,c");

	x = parse_one(&a, "continue");
	assert_int_equal(x->type, TLAT_ACTION_CONTINUE);
	actions_free(&a);

	/* a list keeps its order; -t is appended as a trace action */
	{
		char err[TLAT_ERR_LEN];

		assert_int_equal(actions_parse(&a, "shell,command=true", "--on-end", err), 0);
		assert_int_equal(actions_parse(&a, "continue", "--on-end", err), 0);
		assert_int_equal(actions_add_trace(&a, "t.txt"), 0);
		assert_int_equal(a.nr, 3);
		assert_int_equal(a.list[0].type, TLAT_ACTION_SHELL);
		assert_int_equal(a.list[1].type, TLAT_ACTION_CONTINUE);
		assert_int_equal(a.list[2].type, TLAT_ACTION_TRACE);
		assert_true(actions_have(&a, TLAT_ACTION_TRACE));
		assert_false(actions_have(&a, TLAT_ACTION_SIGNAL));
		actions_free(&a);
		assert_int_equal(a.nr, 0);
		assert_false(actions_have(&a, TLAT_ACTION_TRACE));
	}
}

static void test_parse_errors(void **state)
{
	(void)state;
	parse_bad("", "expected trace, signal, shell or continue");
	parse_bad("frob", "expected trace, signal, shell or continue");
	parse_bad("Trace", "expected trace");
	parse_bad("traces", "expected trace");
	parse_bad(",trace", "expected trace");
	parse_bad("trace,", "file=NAME");
	parse_bad("trace,file=", "file=NAME");
	parse_bad("trace,name=x", "file=NAME");
	parse_bad("trace,file=a,file=b", "one argument");
	parse_bad("signal", "both num=N and pid=PID|parent");
	parse_bad("signal,num=10", "both num=N and pid");
	parse_bad("signal,pid=1", "both num=N");
	parse_bad("signal,pid=parent", "both num=N");
	parse_bad("signal,num=0,pid=1", "num= takes a signal number");
	parse_bad("signal,num=65,pid=1", "num= takes a signal number");
	parse_bad("signal,num=USR1,pid=1", "num= takes a signal number");
	parse_bad("signal,num=10,pid=0", "pid= takes a process id or parent");
	parse_bad("signal,num=10,pid=-1", "pid= takes a process id or parent");
	parse_bad("signal,num=10,pid=12x", "pid= takes a process id");
	parse_bad("signal,num=10,pid=Parent", "pid= takes a process id");
	parse_bad("signal,num=10,pid=1,sig=3", "signal takes num=N and pid=PID|parent");
	parse_bad("signal,num=10,,pid=1", "signal takes num=N");
	parse_bad("shell", "shell takes command=CMD");
	parse_bad("shell,command=", "command=CMD");
	parse_bad("shell,cmd=ls", "command=CMD");
	parse_bad("continue,now", "continue takes no argument");
	parse_bad("continue,", "continue takes no argument");
}

/* the run's side: records each trace it is asked to save, fails on request */
struct env {
	char saved[4][64];
	int nr_saved;
	int fail;		/* -errno to return */
};

static int save_trace(void *priv, const char *path, char *err)
{
	struct env *e = priv;

	if (e->fail) {
		tlat_err(err, "cannot save the trace to %s", path);
		return e->fail;
	}
	snprintf(e->saved[e->nr_saved++], sizeof(e->saved[0]), "%s", path);
	return 0;
}

/* run the specs as one list */
static int run_list(struct env *e, char *err, ...)
{
	struct actions_env env = { save_trace, e };
	struct tlat_actions a = { 0 };
	const char *spec;
	va_list ap;
	int ret;

	va_start(ap, err);
	while ((spec = va_arg(ap, const char *)))
		assert_int_equal(actions_parse(&a, spec, "--on-threshold", err), 0);
	va_end(ap);
	ret = actions_run(&a, &env, err);
	actions_free(&a);
	return ret;
}

static char *slurp(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void test_run(void **state)
{
	char dir[] = "/tmp/tlat-actions.XXXXXX";
	char out[128], cmd1[200], cmd2[200], cmd3[200];
	char err[TLAT_ERR_LEN] = "";
	struct env e = { 0 };

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(cmd1, sizeof(cmd1), "shell,command=printf 1 >> %s", out);
	snprintf(cmd2, sizeof(cmd2), "shell,command=printf 2 >> %s", out);
	snprintf(cmd3, sizeof(cmd3), "shell,command=printf 3 >> %s; exit 3", out);

	/* in order, trace actions each time they are listed */
	assert_int_equal(run_list(&e, err, "trace", cmd1, "trace,file=x.txt", cmd2, NULL),
			 ACTIONS_DONE);
	assert_string_equal(slurp(out), "12");
	assert_int_equal(e.nr_saved, 2);
	assert_string_equal(e.saved[0], TLAT_DEFAULT_TRACE_FILE);
	assert_string_equal(e.saved[1], "x.txt");

	/* a failing command ends the list, and is no error */
	unlink(out);
	assert_int_equal(run_list(&e, err, cmd1, cmd3, cmd2, "continue", NULL), ACTIONS_STOPPED);
	assert_string_equal(slurp(out), "13");
	/* so does one the shell cannot find, or one killed by a signal */
	assert_int_equal(run_list(&e, err, "shell,command=/nonexistent/cmd 2>/dev/null", NULL),
			 ACTIONS_STOPPED);
	assert_int_equal(run_list(&e, err, "shell,command=kill -9 $$", NULL), ACTIONS_STOPPED);

	/* continue ends the list with its verdict */
	unlink(out);
	assert_int_equal(run_list(&e, err, cmd1, "continue", cmd2, NULL), ACTIONS_CONTINUE);
	assert_string_equal(slurp(out), "1");

	/* an action that cannot do its job is an error, and ends the list */
	unlink(out);
	e.fail = -ENOSPC;
	assert_int_equal(run_list(&e, err, cmd1, "trace", cmd2, NULL), -ENOSPC);
	assert_string_equal(slurp(out), "1");
	assert_non_null(strstr(err, "cannot save the trace"));
	e.fail = 0;
	assert_int_equal(run_list(&e, err, "signal,num=10,pid=2147483647", cmd2, NULL), -ESRCH);
	assert_string_equal(err, "cannot send signal 10 to 2147483647: No such process");

	/* an empty list is done */
	assert_int_equal(run_list(&e, err, NULL), ACTIONS_DONE);

	unlink(out);
	rmdir(dir);
}

static void test_signal(void **state)
{
	struct sigaction sa = { .sa_handler = on_signal };
	char spec[64], err[TLAT_ERR_LEN] = "";
	struct env e = { 0 };
	int status;
	pid_t child;

	(void)state;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);

	/* to a pid: ourselves */
	got_signal = 0;
	snprintf(spec, sizeof(spec), "signal,num=%d,pid=%d", SIGUSR2, getpid());
	assert_int_equal(run_list(&e, err, spec, NULL), ACTIONS_DONE);
	assert_int_equal(got_signal, SIGUSR2);

	/* to the parent: a child of ours runs the action */
	got_signal = 0;
	snprintf(spec, sizeof(spec), "signal,num=%d,pid=parent", SIGUSR2);
	child = fork();
	assert_true(child >= 0);
	if (!child)
		_exit(run_list(&e, err, spec, NULL) == ACTIONS_DONE ? 0 : 1);
	while (waitpid(child, &status, 0) < 0 && errno == EINTR)
		;
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_int_equal(got_signal, SIGUSR2);
	signal(SIGUSR2, SIG_DFL);
}

UNIT_MAIN("actions",
	cmocka_unit_test(test_parse),
	cmocka_unit_test(test_parse_errors),
	cmocka_unit_test(test_run),
	cmocka_unit_test(test_signal),
)
