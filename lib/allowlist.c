// SPDX-License-Identifier: GPL-2.0
/* The CPU allowlist; see allowlist.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uapi/clearpage.h>

#include "allowlist.h"
#include "config.h"
#include "policy.h"

static int parse_number(const char *s, unsigned int *value)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s || *end || v > 0xffff)
		return -EINVAL;
	*value = v;
	return 0;
}

static int parse_range(const char *s, struct allowlist_range *range)
{
	char low[32];
	const char *dash;

	if (!strcmp(s, "*")) {
		range->low = 0;
		range->high = ~0U;
		return 0;
	}
	dash = strchr(s, '-');
	if (!dash) {
		if (parse_number(s, &range->low))
			return -EINVAL;
		range->high = range->low;
		return 0;
	}
	if ((size_t)(dash - s) >= sizeof(low))
		return -EINVAL;
	memcpy(low, s, dash - s);
	low[dash - s] = '\0';
	if (parse_number(low, &range->low) ||
	    parse_number(dash + 1, &range->high) || range->low > range->high)
		return -EINVAL;
	return 0;
}

static int strategy_bit(const char *name)
{
	int s = policy_strategy_from_name(name);

	return s < 0 ? 0 : 1 << s;
}

static int parse_line(char *line, unsigned int number,
		      struct allowlist_entry *entry, const char **problem)
{
	char *fields[4], *save, *word;
	int i, bit;

	memset(entry, 0, sizeof(*entry));
	entry->line = number;
	for (i = 0; i < 4; i++) {
		fields[i] = strtok_r(i ? NULL : line, " \t", &save);
		if (!fields[i]) {
			*problem = "expected: VENDOR FAMILY MODEL STEPPING STRATEGY...";
			return -EINVAL;
		}
	}
	if (strlen(fields[0]) >= sizeof(entry->vendor)) {
		*problem = "vendor name too long";
		return -EINVAL;
	}
	strcpy(entry->vendor, fields[0]);
	if (parse_range(fields[1], &entry->family) ||
	    parse_range(fields[2], &entry->model) ||
	    parse_range(fields[3], &entry->stepping)) {
		*problem = "family, model and stepping must be a number, LOW-HIGH or *";
		return -EINVAL;
	}
	entry->strategies = 1 << CLEARPAGE_STRATEGY_KERNEL;
	while ((word = strtok_r(NULL, " \t", &save))) {
		bit = strategy_bit(word);
		if (!bit) {
			*problem = "unknown strategy (kernel rep_stosb rep_stosq movq movnti clzero)";
			return -EINVAL;
		}
		entry->strategies |= bit;
	}
	if (entry->strategies == 1 << CLEARPAGE_STRATEGY_KERNEL) {
		*problem = "no strategy listed";
		return -EINVAL;
	}
	return 0;
}

int allowlist_parse(struct allowlist *list, const char *path, const char *text,
		    char *error, size_t error_size)
{
	char *copy = strdup(text), *line, *next, *hash;
	unsigned int number = 0;
	const char *problem;
	size_t capacity = 0;
	int err = 0;

	memset(list, 0, sizeof(*list));
	snprintf(list->path, sizeof(list->path), "%s", path);
	if (!copy)
		return -ENOMEM;
	for (line = copy; line && !err; line = next) {
		struct allowlist_entry entry;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		number++;
		hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		if (strspn(line, " \t\r") == strlen(line))
			continue;
		if (parse_line(line, number, &entry, &problem)) {
			snprintf(error, error_size, "%s:%u: %s", path, number,
				 problem);
			err = -EINVAL;
			break;
		}
		snprintf(entry.file, sizeof(entry.file), "%s", path);
		if (list->count == capacity) {
			struct allowlist_entry *grown;

			capacity = capacity ? 2 * capacity : 16;
			grown = realloc(list->entries,
					capacity * sizeof(*grown));
			if (!grown) {
				err = -ENOMEM;
				break;
			}
			list->entries = grown;
		}
		list->entries[list->count++] = entry;
	}
	free(copy);
	if (err)
		allowlist_free(list);
	return err;
}

int allowlist_load(struct allowlist *list, const char *path, char *error,
		   size_t error_size)
{
	char *text = NULL;
	int err = config_read_text(path, &text, error, error_size);

	if (err)
		return err;
	err = allowlist_parse(list, path, text, error, error_size);
	free(text);
	return err;
}


/* Move the entries of @part to the end of @list. */
static int append(struct allowlist *list, struct allowlist *part)
{
	struct allowlist_entry *grown;

	if (!part->count)
		return 0;
	grown = realloc(list->entries,
			(list->count + part->count) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	memcpy(grown + list->count, part->entries,
	       part->count * sizeof(*grown));
	list->entries = grown;
	list->count += part->count;
	allowlist_free(part);
	return 0;
}

int allowlist_load_all(struct allowlist *list, const char *dir,
		       const char *path, char *error, size_t error_size)
{
	struct allowlist part;
	char **names = NULL, file[2 * CONFIG_PATH_MAX];
	size_t count = 0, i;
	int err;

	memset(list, 0, sizeof(*list));
	snprintf(list->path, sizeof(list->path), "%s", path);
	err = config_collect_dropins(dir, &names, &count);
	for (i = 0; i < count && !err; i++) {
		snprintf(file, sizeof(file), "%s/%s", dir, names[i]);
		err = allowlist_load(&part, file, error, error_size);
		if (!err)
			err = append(list, &part);
	}
	config_free_names(names, count);
	if (!err) {
		err = allowlist_load(&part, path, error, error_size);
		if (!err)
			err = append(list, &part);
	}
	if (err)
		allowlist_free(list);
	return err;
}

void allowlist_free(struct allowlist *list)
{
	free(list->entries);
	list->entries = NULL;
	list->count = 0;
}

static bool in(const struct allowlist_range *range, unsigned int value)
{
	return value >= range->low && value <= range->high;
}

const struct allowlist_entry *allowlist_match(const struct allowlist *list,
					      const char *vendor,
					      unsigned int family,
					      unsigned int model,
					      unsigned int stepping)
{
	size_t i;

	for (i = 0; i < list->count; i++) {
		const struct allowlist_entry *e = &list->entries[i];

		if (!strcmp(e->vendor, vendor) && in(&e->family, family) &&
		    in(&e->model, model) && in(&e->stepping, stepping))
			return e;
	}
	return NULL;
}

int allowlist_cpu_from_cpuinfo(const char *path, char *vendor,
			       size_t vendor_size, unsigned int *family,
			       unsigned int *model, unsigned int *stepping)
{
	char line[512], value[64];
	FILE *f = fopen(path, "re");
	int found = 0;

	if (!f)
		return -errno;
	/* The first processor's block is enough. */
	while (found != 15 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "vendor_id : %63s", value) == 1) {
			snprintf(vendor, vendor_size, "%s", value);
			found |= 1;
		} else if (sscanf(line, "cpu family : %u", family) == 1) {
			found |= 2;
		} else if (sscanf(line, "model : %u", model) == 1) {
			found |= 4;
		} else if (sscanf(line, "stepping : %u", stepping) == 1) {
			found |= 8;
		}
	}
	fclose(f);
	return found == 15 ? 0 : -EINVAL;
}

void allowlist_format_strategies(unsigned int strategies, char *buf,
				 size_t size)
{
	size_t used = 0;
	int s;

	buf[0] = '\0';
	for (s = 1; s < CLEARPAGE_STRATEGY_COUNT && used < size; s++)
		if (strategies & (1U << s))
			used += snprintf(buf + used, size - used, "%s%s",
					 used ? " " : "",
					 policy_strategy_name(s));
}
