// SPDX-License-Identifier: GPL-2.0
/*
 * spawn.c - one way to run a program and wait for it, so that each caller
 * need not get posix_spawn's file actions, the signal mask and EINTR right
 * again.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/spawn.h"

extern char **environ;

/* fd becomes the child's target fd; the same fd is simply inherited */
static void spawn_redirect(posix_spawn_file_actions_t *actions, int fd, int target, int flags)
{
	if (fd == SPAWN_DEVNULL)
		posix_spawn_file_actions_addopen(actions, target, "/dev/null", flags, 0);
	else if (fd != target)
		posix_spawn_file_actions_adddup2(actions, fd, target);
}

/* keeps the first line of what comes, and reads the rest to the end */
static void spawn_read_line(int fd, char *line, size_t size)
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

			memcpy(line + len, buf, take);
			len += take;
		}
	}
	line[len] = '\0';
	line[strcspn(line, "\n")] = '\0';
}

int spawn_wait(char *const argv[], const struct spawn_io *io)
{
	posix_spawn_file_actions_t actions;
	posix_spawnattr_t attr;
	int pipefd[2], status, ret;
	sigset_t none;
	pid_t pid;

	if (io->err_line) {
		io->err_line[0] = '\0';
		if (pipe2(pipefd, O_CLOEXEC))
			return -errno;
	}
	posix_spawn_file_actions_init(&actions);
	spawn_redirect(&actions, io->in, STDIN_FILENO, O_RDONLY);
	spawn_redirect(&actions, io->out, STDOUT_FILENO, O_WRONLY);
	spawn_redirect(&actions, io->err_line ? pipefd[1] : io->err, STDERR_FILENO, O_WRONLY);
	posix_spawnattr_init(&attr);
	/* tlat blocks its stop signals around some calls; a child must get them */
	if (!io->keep_sigmask) {
		sigemptyset(&none);
		posix_spawnattr_setsigmask(&attr, &none);
		posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK);
	}
	ret = posix_spawnp(&pid, argv[0], &actions, &attr, argv, environ);
	posix_spawnattr_destroy(&attr);
	posix_spawn_file_actions_destroy(&actions);
	if (io->err_line) {
		/* the child's copy alone is left: the read ends when the child is done */
		close(pipefd[1]);
		if (!ret)
			spawn_read_line(pipefd[0], io->err_line, io->err_line_len);
		close(pipefd[0]);
	}
	if (ret)
		return -ret;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFSIGNALED(status) ? SPAWN_KILLED + WTERMSIG(status) : WEXITSTATUS(status);
}
