// SPDX-License-Identifier: GPL-2.0
/*
 * sandbox.c - a piece of tlat in a bounded child process (see sandbox.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/err.h"
#include "core/sanitize.h"
#include "util/sandbox.h"

#ifndef TLAT_ASAN
/* the signals a crash raises; AddressSanitizer handles them itself */
static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
#endif

static void sandbox_limit(int resource, rlim_t soft, rlim_t hard)
{
	struct rlimit rl;

	/* a limit already lower stays */
	if (!getrlimit(resource, &rl) && rl.rlim_max != RLIM_INFINITY && rl.rlim_max < hard)
		return;
	rl.rlim_cur = soft;
	rl.rlim_max = hard;
	setrlimit(resource, &rl);
}

static void __attribute__((noreturn)) sandbox_child(int (*fn)(void *arg, char *err), void *arg,
						    const struct sandbox_limits *lim, int out)
{
	char err[TLAT_ERR_LEN] = "";
	int ret;

#ifndef TLAT_ASAN
	if (lim->as_bytes)
		sandbox_limit(RLIMIT_AS, lim->as_bytes, lim->as_bytes);
#endif
	/*
	 * The soft limit's SIGXCPU names the cause; the hard one, a second
	 * later, kills a child that caught it. Equal, the kernel sends SIGKILL
	 * first ("ended in Killed", seen once on a loaded machine).
	 */
	if (lim->seconds)
		sandbox_limit(RLIMIT_CPU, lim->seconds, lim->seconds + 1);
	/* a crash is reported in one line, not in a core file */
	sandbox_limit(RLIMIT_CORE, 0, 0);
#ifndef TLAT_ASAN
	/* nor by a handler the parent had: the child dies of it */
	for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		signal(fatal[i], SIG_DFL);
#endif
	ret = fn(arg, err);
	fflush(NULL);
	if (*err && write(out, err, strlen(err)) < 0)
		ret = ret ?: 1;
	_exit(ret & 0xff);
}

/* waits for the child until the deadline; returns its status, or -1 if it ran over */
static int sandbox_wait(pid_t pid, unsigned int seconds, int *status)
{
	struct timespec start, now;
	int pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	long left;

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		clock_gettime(CLOCK_MONOTONIC, &now);
		left = (long)seconds * 1000 - ((now.tv_sec - start.tv_sec) * 1000 +
					     (now.tv_nsec - start.tv_nsec) / 1000000);
		if (seconds && left <= 0) {
			kill(pid, SIGKILL);
			while (waitpid(pid, status, 0) < 0 && errno == EINTR)
				;
			if (pidfd >= 0)
				close(pidfd);
			return -1;
		}
		if (pidfd >= 0) {
			struct pollfd p = { .fd = pidfd, .events = POLLIN };

			poll(&p, 1, seconds ? (int)(left < 1000 ? left : 1000) : 1000);
		} else {
			/* kernels before 5.3 */
			usleep(10000);
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	return 0;
}

int sandbox_run(int (*fn)(void *arg, char *err), void *arg, const struct sandbox_limits *lim,
		const char *what, char *err)
{
	int fds[2], status = 0, sig;
	ssize_t n;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC)) {
		tlat_err(err, "cannot create a pipe: %s", strerror(errno));
		return SANDBOX_FAILED;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		tlat_err(err, "cannot fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return SANDBOX_FAILED;
	}
	if (!pid) {
		close(fds[0]);
		sandbox_child(fn, arg, lim, fds[1]);
	}
	close(fds[1]);
	if (sandbox_wait(pid, lim->seconds, &status)) {
		close(fds[0]);
		tlat_err(err, "%s is damaged: reading it took more than %u s", what, lim->seconds);
		return SANDBOX_FAILED;
	}
	n = read(fds[0], err, TLAT_ERR_LEN - 1);
	close(fds[0]);
	err[n > 0 ? n : 0] = '\0';
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
	if (sig == SIGXCPU)
		tlat_err(err, "%s is damaged: reading it took more than %u s of CPU",
			 what, lim->seconds);
	else
		tlat_err(err, "%s is damaged: reading it ended in %s", what,
			 sig ? strsignal(sig) : "an unknown way");
	return SANDBOX_FAILED;
}
