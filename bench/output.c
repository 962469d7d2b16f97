// SPDX-License-Identifier: GPL-2.0
/* clearpage-bench: the JSON, CSV and SVG output; see bench.h. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

static json_object *meta_object(int argc, char **argv)
{
	json_object *meta = json_object_new_object(), *args;
	char model[256] = "unknown", line[512], date[64];
	struct utsname u;
	time_t now = time(NULL);
	FILE *f = fopen("/proc/cpuinfo", "re");
	int i;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
			snprintf(model, sizeof(model), "%s", strchr(line, ':') + 2);
			model[strcspn(model, "\n")] = '\0';
			break;
		}
	if (f)
		fclose(f);
	uname(&u);
	strftime(date, sizeof(date), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	json_object_object_add(meta, "cpu_model", json_object_new_string(model));
	json_object_object_add(meta, "cpu_vendor",
			       json_object_new_string(bench_cpu.vendor));
	json_object_object_add(meta, "cpu_family",
			       json_object_new_int((int)bench_cpu.family));
	json_object_object_add(meta, "cpu_model_number",
			       json_object_new_int((int)bench_cpu.model));
	json_object_object_add(meta, "kernel", json_object_new_string(u.release));
	json_object_object_add(meta, "llc_bytes",
			       json_object_new_int64((int64_t)bench_llc_bytes()));
	json_object_object_add(meta, "date", json_object_new_string(date));
	args = json_object_new_array();
	for (i = 0; i < argc; i++)
		json_object_array_add(args, json_object_new_string(argv[i]));
	json_object_object_add(meta, "argv", args);
	return meta;
}

const char *bench_out_path(const struct bench_out *out, const char *suffix,
			   char *buf, size_t size)
{
	snprintf(buf, size, "%s/%s%s", out->dir, out->name, suffix);
	return buf;
}

static int make_dirs(const char *dir)
{
	char path[512];
	char *p;

	snprintf(path, sizeof(path), "%s", dir);
	for (p = path + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(path, 0755) && errno != EEXIST)
				return -errno;
			*p = '/';
		}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int bench_out_open(struct bench_out *out, const char *dir, const char *name,
		   int argc, char **argv, const char *csv_header)
{
	char path[600];
	int err;

	memset(out, 0, sizeof(*out));
	snprintf(out->dir, sizeof(out->dir), "%s", dir);
	snprintf(out->name, sizeof(out->name), "%s", name);
	err = make_dirs(dir);
	if (err) {
		bench_error("cannot create %s: %s", dir, strerror(-err));
		return err;
	}
	out->csv = fopen(bench_out_path(out, ".csv", path, sizeof(path)), "we");
	if (!out->csv) {
		err = -errno;
		bench_error("cannot write %s: %s", path, strerror(errno));
		return err;
	}
	fprintf(out->csv, "%s\n", csv_header);
	out->root = json_object_new_object();
	json_object_object_add(out->root, "benchmark",
			       json_object_new_string(name));
	json_object_object_add(out->root, "meta", meta_object(argc, argv));
	return 0;
}

void bench_out_csv(struct bench_out *out, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(out->csv, fmt, ap);
	va_end(ap);
	fputc('\n', out->csv);
}

int bench_out_plot(struct bench_out *out, const char *script)
{
	static bool said;
	char csv[600], svg[600], gp[600];
	FILE *f;
	pid_t pid;
	int status;

	fflush(out->csv);
	bench_out_path(out, ".csv", csv, sizeof(csv));
	bench_out_path(out, ".svg", svg, sizeof(svg));
	bench_out_path(out, ".gp", gp, sizeof(gp));
	f = fopen(gp, "we");
	if (!f)
		return -errno;
	fprintf(f, "csv = '%s'\nsvg = '%s'\nset datafile separator ','\n"
		   "set terminal svg size 900,540 dynamic noenhanced background rgb 'white'\n"
		   "set output svg\n%s", csv, svg, script);
	fclose(f);
	pid = fork();
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", gp, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return -errno;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		if (!said)
			bench_error("gnuplot not found: no SVG written (apt-get install gnuplot-nox)");
		said = true;
		return -ENOENT;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		bench_error("gnuplot failed on %s", gp);
		return -EIO;
	}
	return 0;
}

int bench_out_close(struct bench_out *out)
{
	char path[600];
	int err = 0;

	if (out->csv && fclose(out->csv))
		err = -errno;
	out->csv = NULL;
	if (out->root) {
		bench_out_path(out, ".json", path, sizeof(path));
		if (json_object_to_file_ext(path, out->root,
					    JSON_C_TO_STRING_PRETTY |
					    JSON_C_TO_STRING_NOSLASHESCAPE)) {
			bench_error("cannot write %s", path);
			err = -EIO;
		}
		json_object_put(out->root);
		out->root = NULL;
	}
	return err;
}
