// SPDX-License-Identifier: GPL-2.0
/*
 * clearpagectl unload: disable clearpage's livepatch, wait until its
 * transition has finished, and remove the module. Before the transition
 * starts the module stops its 4 KiB backend and drains it; the kernel is
 * left as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ctl.h"

#define LIVEPATCH "/sys/kernel/livepatch/clearpage"

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static int disable_livepatch(void)
{
	char state = '0';
	int fd = open(LIVEPATCH "/enabled", O_RDWR);

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (read(fd, &state, 1) == 1 && state == '1' &&
	    pwrite(fd, "0", 1, 0) != 1) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return 0;
}

int cmd_unload(int argc, char **argv, const struct ctl_options *o)
{
	long timeout_ms = (o->timeout >= 0 ? o->timeout : 60) * 1000, waited;
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	int err;

	(void)argv;
	if (argc) {
		fprintf(stderr, "clearpagectl: usage: clearpagectl unload [--timeout S]\n");
		return EXIT_USAGE;
	}
	if (!exists("/sys/module/clearpage")) {
		printf("clearpage is not loaded\n");
		return EXIT_OK;
	}
	err = disable_livepatch();
	if (err == -EACCES || err == -EPERM) {
		fprintf(stderr, "clearpagectl: unloading needs root\n");
		return EXIT_PERMISSION;
	}
	if (err) {
		fprintf(stderr, "clearpagectl: cannot disable %s: %s (see %s/transition)\n",
			LIVEPATCH, strerror(-err), LIVEPATCH);
		return EXIT_FAILED;
	}
	/*
	 * The livepatch directory goes once the transition is complete; the
	 * module reference is dropped right after, so removal is retried.
	 */
	for (waited = 0;; waited += 100) {
		/* One look at the directory per try: errno must be the
		 * removal's, not that of a stat that raced the transition. */
		if (!exists(LIVEPATCH)) {
			if (syscall(SYS_delete_module, "clearpage", O_NONBLOCK) == 0)
				break;
			if (errno != EAGAIN && errno != EBUSY &&
			    errno != EWOULDBLOCK) {
				fprintf(stderr, "clearpagectl: removing clearpage: %s\n",
					strerror(errno));
				return errno == EPERM ? EXIT_PERMISSION : EXIT_FAILED;
			}
		}
		if (waited >= timeout_ms) {
			fprintf(stderr, "clearpagectl: the livepatch transition has not finished after %lds; a task may sleep in a patched function (see %s/transition); try again later\n",
				timeout_ms / 1000, LIVEPATCH);
			return EXIT_FAILED;
		}
		nanosleep(&pause, NULL);
	}
	printf("clearpage removed\n");
	return EXIT_OK;
}
