// SPDX-License-Identifier: GPL-2.0
/* clearpaged's savings file; see savings-file.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <uapi/clearpage.h>

#include "clearpage-client.h"
#include "savings-file.h"

#define HEADER "# node backend since saved_ns uncertainty_ns kernel_ns pages unestimated_pages last_saved_ns\n"

int cp_file_replace(const char *path, void (*fill)(FILE *f, const void *arg),
		    const void *arg)
{
	char tmp[4096];
	const char *slash = strrchr(path, '/');
	int fd, err = 0;
	FILE *f;

	if (!slash || (size_t)snprintf(tmp, sizeof(tmp), "%.*s/.%s.XXXXXX",
				       (int)(slash - path), path, slash + 1) >=
			      sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		unlink(tmp);
		return err;
	}
	fill(f, arg);
	if (fchmod(fd, 0644) || fflush(f))
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	if (err)
		unlink(tmp);
	return err;
}

struct savings_list {
	const struct cp_savings *entries;
	int count;
};

static void fill_savings(FILE *f, const void *arg)
{
	const struct savings_list *list = arg;
	int i;

	fputs(HEADER, f);
	for (i = 0; i < list->count; i++) {
		const struct cp_savings *e = &list->entries[i];

		fprintf(f, "%u %s %lld %.0f %.0f %.0f %llu %llu %.0f\n", e->node,
			cp_backend_name(e->backend), e->since, e->saved_ns,
			e->uncertainty_ns < 0 ? -1 : e->uncertainty_ns,
			e->kernel_ns, (unsigned long long)e->pages,
			(unsigned long long)e->unestimated_pages,
			e->last_saved_ns);
	}
}

int cp_savings_write(const char *path, const struct cp_savings *entries,
		     int count)
{
	struct savings_list list = { entries, count };

	return cp_file_replace(path, fill_savings, &list);
}

int cp_savings_read(const char *path, struct cp_savings *entries, int max)
{
	char line[512], backend[16];
	unsigned long long pages, unestimated;
	FILE *f = fopen(path, "re");
	int count = 0, err = 0;

	if (!f)
		return -errno;
	if (!fgets(line, sizeof(line), f) || strcmp(line, HEADER)) {
		fclose(f);
		return -EINVAL;
	}
	while (fgets(line, sizeof(line), f)) {
		struct cp_savings e;

		if (count >= max)
			break;
		if (sscanf(line, "%u %15s %lld %lf %lf %lf %llu %llu %lf", &e.node,
			   backend, &e.since, &e.saved_ns, &e.uncertainty_ns,
			   &e.kernel_ns, &pages, &unestimated,
			   &e.last_saved_ns) != 9 ||
		    (e.backend = cp_backend_from_name(backend)) < 0) {
			err = -EINVAL;
			break;
		}
		e.pages = pages;
		e.unestimated_pages = unestimated;
		entries[count++] = e;
	}
	fclose(f);
	return err ? err : count;
}
