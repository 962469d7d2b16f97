// SPDX-License-Identifier: GPL-2.0
/*
 * clearpaged's configuration files on disk: reading one, the drop-in
 * directories in order, and loading them all into one configuration (the
 * parsing is config.c's); see config.h.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"

int config_read_file(const char *path, char **text)
{
	FILE *f = fopen(path, "re");
	size_t size;
	int err = 0;

	if (!f)
		return -errno;
	*text = malloc(CONFIG_FILE_MAX + 1);
	if (!*text) {
		fclose(f);
		return -ENOMEM;
	}
	/* One byte more than allowed tells a file that is too large. */
	size = fread(*text, 1, CONFIG_FILE_MAX + 1, f);
	if (ferror(f))
		err = -EIO;
	else if (size > CONFIG_FILE_MAX)
		err = -EFBIG;
	else if (memchr(*text, '\0', size))
		err = -EILSEQ;
	fclose(f);
	if (err) {
		free(*text);
		*text = NULL;
		return err;
	}
	(*text)[size] = '\0';
	return 0;
}

static const char *config_read_error(int err)
{
	switch (err) {
	case -EFBIG:
		return "larger than 1 MiB, the most a configuration file may be";
	case -EILSEQ:
		return "contains a NUL byte: not a text file";
	default:
		return strerror(-err);
	}
}

int config_read_text(const char *path, char **text, char *error,
		     size_t error_size)
{
	int err = config_read_file(path, text);

	if (err)
		snprintf(error, error_size, "%s: %s", path,
			 config_read_error(err));
	return err;
}

/* One file on top of @config; its errors added to @error (*@errors of them). */
static int apply_file(struct daemon_config *config, const char *path,
		      config_warn_fn warn, void *warn_arg, char *error,
		      size_t error_size, unsigned int *errors)
{
	char *text = NULL, message[4096] = "";
	int err = config_read_text(path, &text, message, sizeof(message));

	if (!err) {
		err = config_parse(config, path, text, warn, warn_arg, message,
				   sizeof(message));
		free(text);
	}
	if (err)
		config_add_error(error, error_size, errors, message);
	return err;
}

/* config_check() on @config, its error added to the others. */
static int check_across(const struct daemon_config *config, char *error,
			size_t error_size, unsigned int *errors)
{
	char message[2 * CONFIG_PATH_MAX + 512] = "";
	int err = config_check(config, message, sizeof(message));

	if (err)
		config_add_error(error, error_size, errors, message);
	return err;
}

int config_load_file(struct daemon_config *config, const char *path,
		     config_warn_fn warn, void *warn_arg, char *error,
		     size_t error_size)
{
	struct daemon_config *next = malloc(sizeof(*next));
	unsigned int errors = 0;
	int err;

	if (!next) {
		snprintf(error, error_size, "%s: %s", path, strerror(ENOMEM));
		return -ENOMEM;
	}
	*next = *config;
	err = apply_file(next, path, warn, warn_arg, error, error_size,
			 &errors);
	if (check_across(next, error, error_size, &errors) && !err)
		err = -EINVAL;
	if (!err) {
		config_finish(next);
		*config = *next;
	}
	free(next);
	return err;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int config_collect_dropins(const char *dir, char ***names, size_t *count)
{
	DIR *d = opendir(dir);
	struct dirent *entry;
	size_t i, len;
	int err = 0;

	while (d && (entry = readdir(d))) {
		char **grown;

		len = strlen(entry->d_name);
		if (len < 6 || strcmp(entry->d_name + len - 5, ".conf"))
			continue;
		for (i = 0; i < *count; i++)
			if (!strcmp((*names)[i], entry->d_name))
				break;
		if (i < *count)
			continue;
		grown = realloc(*names, (*count + 1) * sizeof(**names));
		if (grown)
			*names = grown;
		if (!grown || !(grown[*count] = strdup(entry->d_name))) {
			err = -ENOMEM;
			break;
		}
		(*count)++;
	}
	if (d)
		closedir(d);
	if (*count)	/* qsort() takes no NULL, even of nothing */
		qsort(*names, *count, sizeof(**names), compare_names);
	return err;
}

void config_free_names(char **names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int config_for_each_file(const char *root,
			 int (*fn)(const char *path, void *arg), void *arg)
{
	/* Drop-ins as systemd has them: /etc over /run over /usr/lib. */
	static const char *const dirs[] = {
		"/etc/clearpaged.conf.d", "/run/clearpaged.conf.d",
		"/usr/lib/clearpaged/clearpaged.conf.d",
	};
	char path[4 * CONFIG_PATH_MAX], dir[3][CONFIG_PATH_MAX];
	char **names = NULL;
	size_t count = 0, i, d;
	int err = 0;

	snprintf(path, sizeof(path), "%s/etc/clearpaged.conf", root);
	if (!exists(path))
		snprintf(path, sizeof(path), "%s/usr/lib/clearpaged/clearpaged.conf",
			 root);
	if (exists(path))
		err = fn(path, arg);

	/* Without memory for a name, the files listed so far still apply. */
	for (d = 0; d < 3; d++) {
		snprintf(dir[d], sizeof(dir[d]), "%s%s", root, dirs[d]);
		config_collect_dropins(dir[d], &names, &count);
	}
	for (i = 0; i < count && !err; i++) {
		for (d = 0; d < 3; d++) {
			snprintf(path, sizeof(path), "%s/%s", dir[d], names[i]);
			if (exists(path))
				break;
		}
		err = fn(path, arg);
	}
	config_free_names(names, count);
	return err;
}

struct load_args {
	struct daemon_config *config;
	config_warn_fn warn;
	void *warn_arg;
	char *error;
	size_t error_size;
	unsigned int errors;
	int err;		/* the first file's error */
};

/* Every file, whatever the one before it held: all their errors at once. */
static int load_one(const char *path, void *arg)
{
	struct load_args *a = arg;
	int err = apply_file(a->config, path, a->warn, a->warn_arg, a->error,
			     a->error_size, &a->errors);

	if (err && !a->err)
		a->err = err;
	return err == -ENOMEM ? err : 0;
}

int config_load(struct daemon_config *config, const char *root,
		config_warn_fn warn, void *warn_arg, char *error,
		size_t error_size)
{
	struct daemon_config *next = malloc(sizeof(*next));
	struct load_args args = {
		.config = next, .warn = warn, .warn_arg = warn_arg,
		.error = error, .error_size = error_size,
	};
	int err;

	if (!next) {
		snprintf(error, error_size, "configuration: %s",
			 strerror(ENOMEM));
		return -ENOMEM;
	}
	config_defaults(next);
	snprintf(next->allowlist_dir, sizeof(next->allowlist_dir),
		 "%s/etc/clearpaged/cpu-allowlist.d", root);
	err = config_for_each_file(root, load_one, &args);
	if (!err)
		err = args.err;
	/* AllowList= names a path on the machine the root stands for. */
	if (!err && root[0] && next->allowlist[0] == '/') {
		char resolved[CONFIG_PATH_MAX];

		if ((size_t)snprintf(resolved, sizeof(resolved), "%s%s", root,
				     next->allowlist) >= sizeof(resolved)) {
			snprintf(error, error_size,
				 "AllowList=%s: too long under the root %s",
				 next->allowlist, root);
			err = -ENAMETOOLONG;
		} else {
			memcpy(next->allowlist, resolved, sizeof(resolved));
		}
	}
	/* Across keys too, whatever the files held. */
	if (err != -ENOMEM && err != -ENAMETOOLONG &&
	    check_across(next, error, error_size, &args.errors) && !err)
		err = -EINVAL;
	if (!err) {
		config_finish(next);
		*config = *next;
	}
	free(next);
	return err;
}
