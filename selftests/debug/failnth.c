// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * LD_PRELOAD helper of the debug lane's failslab test: with FAIL_NTH=N in
 * the environment, the Nth fault-injection point (slab or page allocation,
 * see Documentation/fault-injection) that the process hits after it has
 * started fails: /proc/thread-self/fail-nth is set in a constructor, so the
 * allocations of execve and of the dynamic loader do not count. At exit,
 * the file FAIL_NTH_STATE says "unused" if no allocation was failed (N is
 * past the last one), else "hit".
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int nth_fd = -1;

__attribute__((constructor)) static void failnth_init(void)
{
	const char *n = getenv("FAIL_NTH");

	if (!n || !*n)
		return;
	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (nth_fd < 0 || write(nth_fd, n, strlen(n)) < 0)
		perror("failnth: /proc/thread-self/fail-nth");
}

__attribute__((destructor)) static void failnth_fini(void)
{
	const char *state = getenv("FAIL_NTH_STATE");
	char buf[32] = "";
	int unused, fd;
	ssize_t r;

	if (nth_fd < 0)
		return;
	r = pread(nth_fd, buf, sizeof(buf) - 1, 0);
	unused = r > 0 && atoi(buf) != 0;
	if (pwrite(nth_fd, "0", 1, 0) < 0)	/* disarm */
		perror("failnth: disarm");
	if (!state)
		return;
	fd = open(state, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, unused ? "unused\n" : "hit\n", unused ? 7 : 4) < 0)
			perror("failnth: state");
		close(fd);
	}
}
