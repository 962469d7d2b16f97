// SPDX-License-Identifier: GPL-2.0
/*
 * clearpaged's configuration and CPU allowlist without root: drop-in order,
 * every error path with file:line, warnings for unknown keys, a failed load
 * leaving the configuration as it was, and allowlist matching of the shipped
 * file (path in argv[1]).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "allowlist.h"
#include "config.h"

static char warnings[4096];


static void collect_warning(const char *message, void *arg)
{
	(void)arg;
	strncat(warnings, message, sizeof(warnings) - strlen(warnings) - 2);
	strcat(warnings, "\n");
}

static void write_file(const char *root, const char *path, const char *text)
{
	char full[512], dir[512], *slash;
	FILE *f;

	snprintf(full, sizeof(full), "%s%s", root, path);
	snprintf(dir, sizeof(dir), "%s", full);
	for (slash = strchr(dir + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(dir, 0755);
		*slash = '/';
	}
	f = fopen(full, "w");
	fputs(text, f);
	fclose(f);
}

static void test_dropins(const char *root)
{
	struct daemon_config c;
	char error[512] = "";
	int err;

	write_file(root, "/usr/lib/clearpaged/clearpaged.conf",
		   "[Daemon]\nInterval=5\n[Policy]\nMargin=0.5\n");
	write_file(root, "/usr/lib/clearpaged/clearpaged.conf.d/10-vendor.conf",
		   "[Policy]\nDwellIntervals=7\nMargin=0.3\n");
	write_file(root, "/usr/lib/clearpaged/clearpaged.conf.d/30-lib.conf",
		   "[Policy]\nConfirmIntervals=9\n");
	write_file(root, "/etc/clearpaged.conf.d/20-site.conf",
		   "[Policy]\nMargin=0.2\n[Node.1]\nStrategy=movnti\nGiganticHelpers=3\n"
		   "Probe=rep_stosb,clzero\n[Node.2]\nProbe=off\n");
	write_file(root, "/etc/clearpaged.conf.d/30-lib.conf",
		   "[Policy]\nConfirmIntervals=4\n");
	write_file(root, "/etc/clearpaged.conf.d/ignored.txt", "garbage\n");
	err = config_load(&c, root, collect_warning, NULL, error, sizeof(error));
	CHECK(err == 0, "drop-ins load (%s)", error);
	CHECK(c.interval == 5 && c.policy.dwell == 7,
	      "the main file and the drop-ins all apply");
	CHECK(c.policy.margin == 0.2,
	      "drop-ins apply in lexical order, after the main file (Margin=%g)",
	      c.policy.margin);
	CHECK(c.policy.confirm == 4,
	      "an /etc drop-in replaces the /usr/lib one of the same name");
	CHECK(c.node_strategy[1] == CLEARPAGE_STRATEGY_MOVNTI &&
	      c.node_strategy[0] == -1,
	      "[Node.1] Strategy= pins node 1 only");
	CHECK(c.node_helpers[1] == 3 && c.node_helpers[0] == -1,
	      "[Node.1] GiganticHelpers= sets node 1's helpers only");
	CHECK(c.node_probe[1] == CONFIG_PROBE_ON &&
	      c.node_probe_hot[1] == CLEARPAGE_STRATEGY_REP_STOSB &&
	      c.node_probe_cold[1] == CLEARPAGE_STRATEGY_CLZERO &&
	      c.node_probe[2] == CONFIG_PROBE_OFF &&
	      c.node_probe[0] == CONFIG_PROBE_NONE,
	      "[Node.N] Probe= sets a pair, off, or leaves the node alone");

	write_file(root, "/etc/clearpaged.conf", "[Daemon]\nDryRun=yes\n");
	err = config_load(&c, root, collect_warning, NULL, error, sizeof(error));
	CHECK(err == 0 && c.dry_run && c.interval == 1,
	      "/etc/clearpaged.conf replaces the shipped main file");
}

static void test_errors(void)
{
	static const struct {
		const char *text;
		const char *message;
	} cases[] = {
		{ "[Daemon]\nInterval=0\n", "t.conf:2: Interval=0: expected a time from 0.1s to 3600s" },
		{ "[Daemon]\nInterval=fast\n", "t.conf:2: Interval=fast: expected a time" },
		{ "[Daemon]\nInterval=1 s s\n", "t.conf:2: Interval=1 s s: expected a time" },
		{ "[Daemon]\nInterval=-1s\n", "t.conf:2: Interval=-1s: expected a time" },
		{ "[Daemon]\nInterval=2h\n", "t.conf:2: Interval=2h: expected a time from 0.1s to 3600s" },
		{ "[Baseline]\nSlowerWindow=5parsecs\n", "t.conf:2: SlowerWindow=5parsecs: expected a time" },
		{ "[Daemon]\nDryRun=maybe\n", "t.conf:2: DryRun=maybe: expected yes or no" },
		{ "[Daemon]\nLogLevel=loud\n", "t.conf:2: LogLevel=loud: expected err, warning" },
		{ "[Policy]\nUpThreshold=1.5\n", "t.conf:2: UpThreshold=1.5: expected a number from 0 to 1" },
		{ "[Policy]\nDwellIntervals=2.5\n", "t.conf:2: DwellIntervals=2.5: expected a whole number from 1 to 3600" },
		{ "[Policy]\nDwellIntervals=-1\n", "t.conf:2: DwellIntervals=-1: expected a whole number" },
		{ "[Policy]\nColdStrategy=fast\n", "t.conf:2: ColdStrategy=fast: expected auto or one of" },
		{ "[CPU]\nAllowList=relative/path\n", "t.conf:2: AllowList=relative/path: expected an absolute path" },
		{ "[Node.x]\nStrategy=movq\n", "t.conf:1: [Node.x]: expected [Node.N] with N from 0 to 1023" },
		{ "[Node.1024]\n", "t.conf:1: [Node.1024]: expected [Node.N]" },
		{ "[Node.0]\nStrategy=MOVQ\n", "t.conf:2: Strategy=MOVQ: expected none or one of" },
		{ "[Node.0]\nGiganticHelpers=-1\n", "t.conf:2: GiganticHelpers=-1: expected none or a count from 0 to 31" },
		{ "[Node.0]\nGiganticHelpers=32\n", "t.conf:2: GiganticHelpers=32: expected none or a count from 0 to 31" },
		{ "[Node.0]\nGiganticHelpers=two\n", "t.conf:2: GiganticHelpers=two: expected none" },
		{ "[Node.0]\nGiganticHelpers=1.5\n", "t.conf:2: GiganticHelpers=1.5: expected none" },
		{ "[Node.0]\nGiganticHelpers=\n", "t.conf:2: GiganticHelpers=: expected none" },
		{ "[Node.0]\nProbe=rep_stosb\n", "t.conf:2: Probe=rep_stosb: expected none, off or HOT,COLD" },
		{ "[Node.0]\nProbe=rep_stosb,fast\n", "t.conf:2: Probe=rep_stosb,fast: expected none, off or HOT,COLD" },
		{ "[Node.0]\nProbe=rep_stosb,movnti,clzero\n", "t.conf:2: Probe=rep_stosb,movnti,clzero: expected none" },
		{ "[Node.0]\nProbe=,movnti\n", "t.conf:2: Probe=,movnti: expected none" },
		{ "[Node.0]\nProbe=on\n", "t.conf:2: Probe=on: expected none" },
		{ "[Policy]\nMargin\n", "t.conf:2: expected Key=Value" },
		{ "Margin=1\n", "t.conf:1: Margin= outside of a section" },
		{ "[Policy\n", "t.conf:1: expected a section header" },
		{ "# comment\n\n[Policy] x\n", "t.conf:3: expected a section header" },
	};
	struct daemon_config c;
	char error[512];
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		config_defaults(&c);
		error[0] = '\0';
		CHECK(config_parse(&c, "t.conf", cases[i].text, NULL, NULL,
				   error, sizeof(error)) == -EINVAL &&
		      !strncmp(error, cases[i].message, strlen(cases[i].message)),
		      "error with file:line: %s", error);
	}
	config_defaults(&c);
	config_parse(&c, "t.conf", "[Policy]\nUpThreshold=0.3\n", NULL, NULL,
		     error, sizeof(error));
	CHECK(config_check(&c, error, sizeof(error)) == -EINVAL &&
	      strstr(error, "DownThreshold=0.4 must be below UpThreshold=0.3"),
	      "thresholds checked across keys: %s", error);
}

/* The same settings: where each was set (for errors) aside. */
static bool same_settings(const struct daemon_config *a,
			  const struct daemon_config *b)
{
	static struct daemon_config x, y;

	x = *a;
	y = *b;
	memset(x.up_where, 0, sizeof(x.up_where));
	memset(x.down_where, 0, sizeof(x.down_where));
	memset(y.up_where, 0, sizeof(y.up_where));
	memset(y.down_where, 0, sizeof(y.down_where));
	return !memcmp(&x, &y, sizeof(x));
}

/*
 * Systemd time spans where a setting is a time; every error of a file in
 * one pass, each with file:line; a key in the wrong section named; the
 * cross-key error with the lines of both keys.
 */
static void test_time_spans_and_all_errors(void)
{
	static const struct {
		const char *value;
		double seconds;
	} spans[] = {
		{ "1", 1 }, { "0.5", 0.5 }, { "1s", 1 }, { "500ms", 0.5 },
		{ "2min", 120 }, { "1min 30s", 90 }, { "1h", 3600 },
		{ "1min30s", 90 }, { "250 ms", 0.25 }, { "1 sec", 1 },
		{ ".5s", 0.5 }, { "1.5min", 90 }, { "1min\t30s", 90 },
		{ "500000\xc2\xb5s", 0.5 }, { "500000us", 0.5 },
		{ " 2s ", 2 }, { "1s500ms", 1.5 }, { "100000us", 0.1 },
	};
	/* What systemd refuses; strtod() would have taken the first ones. */
	static const char *const refused[] = {
		"0x1h", "1e1s", "inf", "nan", "1 s s", "s", ".", "1..5s",
		"1sx", "", "1.", "1.s", "5.min", "-1s",
	};
	struct daemon_config c;
	char error[2048], text[128];
	size_t i;

	for (i = 0; i < sizeof(spans) / sizeof(spans[0]); i++) {
		config_defaults(&c);
		snprintf(text, sizeof(text), "[Daemon]\nInterval=%s\n",
			 spans[i].value);
		CHECK(config_parse(&c, "t.conf", text, NULL, NULL, error,
				   sizeof(error)) == 0 &&
		      fabs(c.interval - spans[i].seconds) < 1e-9,
		      "Interval=%s is %g s (%g)", spans[i].value,
		      spans[i].seconds, c.interval);
	}
	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		config_defaults(&c);
		snprintf(text, sizeof(text), "[Daemon]\nInterval=%s\n",
			 refused[i]);
		CHECK(config_parse(&c, "t.conf", text, NULL, NULL, error,
				   sizeof(error)) == -EINVAL &&
		      strstr(error, "expected a time"),
		      "Interval=%s is refused (%s)", refused[i], error);
	}
	config_defaults(&c);
	CHECK(config_parse(&c, "t.conf",
			   "[Daemon]\nInterval=fast\nDryRun=maybe\n[Node.x]\nStrategy=movq\n[Policy]\nColdStrategy=fast\n",
			   NULL, NULL, error, sizeof(error)) == -EINVAL &&
	      !strcmp(error, "t.conf:2: Interval=fast: expected a time from 0.1s to 3600s (seconds, or a span such as 500ms, 2min, 1h 30min)\n"
			     "t.conf:3: DryRun=maybe: expected yes or no\n"
			     "t.conf:4: [Node.x]: expected [Node.N] with N from 0 to 1023\n"
			     "t.conf:7: ColdStrategy=fast: expected auto or one of kernel rep_stosb rep_stosq movq movnti clzero"),
	      "every error in one pass, a bad section's keys skipped: %s", error);
	config_defaults(&c);
	warnings[0] = '\0';
	config_parse(&c, "w.conf", "[Policy]\nInterval=2\n", collect_warning,
		     NULL, error, sizeof(error));
	CHECK(strstr(warnings, "w.conf:2: unknown key 'Interval' in [Policy], ignored: it is a key of [Daemon]"),
	      "a key in the wrong section names its own: %s", warnings);
	config_defaults(&c);
	CHECK(config_parse(&c, "a.conf", "[Policy]\nUpThreshold=0.3\n\nDownThreshold=0.35\n",
			   NULL, NULL, error, sizeof(error)) == 0 &&
	      config_check(&c, error, sizeof(error)) == -EINVAL &&
	      !strcmp(error, "a.conf:4: [Policy] DownThreshold=0.35 must be below UpThreshold=0.3 (set at a.conf:2)"),
	      "the cross-key error names both lines: %s", error);
}

static void test_warnings(void)
{
	struct daemon_config c;
	char error[512];

	config_defaults(&c);
	warnings[0] = '\0';
	CHECK(config_parse(&c, "w.conf",
			   "[Policy]\nMargn=0.2\n[Extra]\nX=1\n[Node.0]\nStrategi=movq\n",
			   collect_warning, NULL, error, sizeof(error)) == 0,
	      "unknown keys and sections do not fail the load");
	CHECK(strstr(warnings, "w.conf:2: unknown key 'Margn' in [Policy], ignored") &&
	      strstr(warnings, "w.conf:3: unknown section [Extra], ignored") &&
	      strstr(warnings, "w.conf:6: unknown key 'Strategi' in [Node.0], ignored"),
	      "each unknown key or section warns with file:line");
}

static void test_failed_load_keeps_config(const char *root)
{
	struct daemon_config c, before;
	char error[512];

	config_defaults(&c);
	c.interval = 42;
	before = c;
	write_file(root, "/etc/clearpaged.conf.d/99-bad.conf",
		   "[Daemon]\nInterval=-3\n");
	CHECK(config_load(&c, root, NULL, NULL, error, sizeof(error)) == -EINVAL &&
	      !memcmp(&c, &before, sizeof(c)),
	      "a bad drop-in fails the load and changes nothing (%s)", error);
}

/*
 * A file over 1 MiB, or one holding a NUL byte, is refused whole: read in
 * part, a file of 1,048,579 bytes ending in "Interval=1000" once gave
 * Interval=1, and parsing stopped silently at a NUL.
 */
static void test_file_limits(const char *root)
{
	struct daemon_config c, before;
	char path[512], error[512], *text;
	size_t pad = CONFIG_FILE_MAX + 3 - strlen("[Daemon]\nInterval=1000\n");
	FILE *f;

	snprintf(path, sizeof(path), "%s/big.conf", root);
	f = fopen(path, "w");
	fputs("[Daemon]\n", f);
	for (size_t i = 0; i < pad; i++)
		fputc(i % 64 == 63 ? '\n' : '#', f);
	fputs("Interval=1000\n", f);
	fclose(f);
	config_defaults(&c);
	before = c;
	CHECK(config_read_file(path, &text) == -EFBIG,
	      "a file of 1 MiB and 3 bytes is too large");
	CHECK(config_load_file(&c, path, NULL, NULL, error, sizeof(error)) ==
		      -EFBIG && strstr(error, "big.conf: larger than 1 MiB") &&
		      !memcmp(&c, &before, sizeof(c)),
	      "it is refused whole, saying so, and changes nothing (%s)", error);

	snprintf(path, sizeof(path), "%s/nul.conf", root);
	f = fopen(path, "w");
	fwrite("[Daemon]\nInterval=1\0\nInterval=5\n", 1, 32, f);
	fclose(f);
	CHECK(config_load_file(&c, path, NULL, NULL, error, sizeof(error)) ==
		      -EILSEQ && strstr(error, "nul.conf: contains a NUL byte") &&
		      !memcmp(&c, &before, sizeof(c)),
	      "a NUL byte is refused, not read up to (%s)", error);

	/* Exactly 1 MiB is allowed. */
	snprintf(path, sizeof(path), "%s/max.conf", root);
	f = fopen(path, "w");
	fputs("[Daemon]\nInterval=7\n", f);
	for (size_t i = strlen("[Daemon]\nInterval=7\n"); i < CONFIG_FILE_MAX; i++)
		fputc(i % 64 == 63 ? '\n' : '#', f);
	fclose(f);
	CHECK(config_load_file(&c, path, NULL, NULL, error, sizeof(error)) == 0 &&
		      c.interval == 7,
	      "a file of exactly 1 MiB is read whole (%s)", error);
}

/* --dry-run wins over the files, at the first load and at every reload. */
static void test_overrides(const char *root)
{
	struct daemon_overrides dry = { .dry_run = true }, none = { 0 };
	struct daemon_config c;
	char error[512] = "";

	write_file(root, "/etc/clearpaged.conf.d/99-zz-live.conf",
		   "[Daemon]\nDryRun=no\n");
	config_defaults(&c);
	CHECK(config_load(&c, root, NULL, NULL, error, sizeof(error)) == 0 &&
	      !c.dry_run, "DryRun=no in a drop-in loads as live (%s)", error);
	config_apply_overrides(&c, &dry);
	CHECK(c.dry_run, "--dry-run overrides DryRun=no");
	config_apply_overrides(&c, &none);
	CHECK(c.dry_run, "no override leaves the loaded value");
	config_load(&c, root, NULL, NULL, error, sizeof(error));
	config_apply_overrides(&c, &dry);
	CHECK(c.dry_run, "--dry-run holds again after a reload");
	{
		char path[512];

		snprintf(path, sizeof(path), "%s/etc/clearpaged.conf.d/99-zz-live.conf",
			 root);
		unlink(path);
	}
}

static void test_print_round_trip(void)
{
	struct daemon_config a, b;
	char error[512], *text;
	size_t size;
	FILE *f;

	config_defaults(&a);
	a.interval = 2.5;
	a.dry_run = true;
	a.policy.cold_strategy = CLEARPAGE_STRATEGY_CLZERO;
	a.node_strategy[3] = CLEARPAGE_STRATEGY_MOVQ;
	a.node_helpers[3] = 2;
	a.node_helpers[5] = 0;
	a.node_probe[3] = CONFIG_PROBE_ON;
	a.node_probe_hot[3] = CLEARPAGE_STRATEGY_KERNEL;
	a.node_probe_cold[3] = CLEARPAGE_STRATEGY_MOVNTI;
	a.node_probe[6] = CONFIG_PROBE_OFF;
	f = open_memstream(&text, &size);
	config_print(&a, f);
	fclose(f);
	config_defaults(&b);
	CHECK(config_parse(&b, "printed", text, NULL, NULL, error,
			   sizeof(error)) == 0 && same_settings(&a, &b),
	      "the printed configuration parses back to the same");
	free(text);
}

static void test_shipped_config(const char *path)
{
	struct daemon_config shipped, defaults;
	char error[512] = "", *text = malloc(1 << 16);
	FILE *f = fopen(path, "r");
	size_t size = f ? fread(text, 1, (1 << 16) - 1, f) : 0;

	char *line, *node_example;

	if (f)
		fclose(f);
	text[size] = '\0';
	/*
	 * Each setting is documented as a commented "#Key=default" line:
	 * uncommented, they must give exactly the built-in defaults. The
	 * [Node.0] example at the end is left commented.
	 */
	node_example = strstr(text, "#[Node.0]");
	for (line = text; line && (!node_example || line < node_example);
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (line[0] == '#' && line[1] >= 'A' && line[1] <= 'Z' &&
		    strchr(line, '=') && strchr(line, '=') < strchr(line, '\n'))
			line[0] = ' ';
	config_defaults(&shipped);
	config_defaults(&defaults);
	warnings[0] = '\0';
	CHECK(size > 0 && config_parse(&shipped, path, text, collect_warning,
				       NULL, error, sizeof(error)) == 0 &&
	      !warnings[0] && same_settings(&shipped, &defaults),
	      "the shipped clearpaged.conf documents every default truly %s%s",
	      error, warnings);
	free(text);
}

static void test_allowlist(const char *shipped)
{
	const struct allowlist_entry *e;
	struct allowlist list;
	char error[512] = "";

	CHECK(allowlist_load(&list, shipped, error, sizeof(error)) == 0 &&
	      list.count >= 6,
	      "the shipped allowlist parses (%zu entries) %s", list.count, error);
	e = allowlist_match(&list, "GenuineIntel", 6, 85, 7);
	CHECK(e && (e->strategies & (1 << CLEARPAGE_STRATEGY_MOVQ)),
	      "Cascade Lake (6/0x55) may use movq");
	e = allowlist_match(&list, "GenuineIntel", 6, 0x6c, 1);
	CHECK(e != NULL, "Ice Lake-D (6/0x6c) is listed");
	e = allowlist_match(&list, "AuthenticAMD", 0x19, 1, 1);
	CHECK(e && (e->strategies & (1 << CLEARPAGE_STRATEGY_CLZERO)) &&
	      (e->strategies & (1 << CLEARPAGE_STRATEGY_KERNEL)),
	      "Zen 3 may use clzero, and kernel always");
	e = allowlist_match(&list, "GenuineIntel", 6, 0xcf, 2);
	CHECK(e && (e->strategies & (1 << CLEARPAGE_STRATEGY_MOVNTI)) &&
	      !(e->strategies & (1 << CLEARPAGE_STRATEGY_MOVQ)),
	      "Emerald Rapids (6/0xcf) may use movnti, not movq (doc/results)");
	CHECK(!allowlist_match(&list, "GenuineIntel", 6, 0x8f, 8) &&
	      !allowlist_match(&list, "AuthenticAMD", 0xf, 0x6b, 1),
	      "other CPUs are unlisted (Sapphire Rapids, not measured; TCG's)");
	allowlist_free(&list);

	CHECK(allowlist_parse(&list, "a.conf",
			      "GenuineIntel 6 0x50-0x5f * movq\nGenuineIntel 6 * * movnti\n",
			      error, sizeof(error)) == 0 &&
	      allowlist_match(&list, "GenuineIntel", 6, 0x55, 0)->line == 1 &&
	      allowlist_match(&list, "GenuineIntel", 6, 0x6a, 0)->line == 2,
	      "ranges, and the first matching line wins");
	allowlist_free(&list);
	CHECK(allowlist_parse(&list, "a.conf", "# c\nGenuineIntel 6 0x55 * movqq\n",
			      error, sizeof(error)) == -EINVAL &&
	      !strncmp(error, "a.conf:2: unknown strategy", 26),
	      "unknown strategy: %s", error);
	CHECK(allowlist_parse(&list, "a.conf", "GenuineIntel 6 0x60-0x50 * movq\n",
			      error, sizeof(error)) == -EINVAL &&
	      !strncmp(error, "a.conf:1: family, model and stepping", 36),
	      "inverted range: %s", error);
	CHECK(allowlist_parse(&list, "a.conf", "GenuineIntel 6\n", error,
			      sizeof(error)) == -EINVAL &&
	      !strncmp(error, "a.conf:1: expected: VENDOR", 26),
	      "missing fields: %s", error);
	CHECK(allowlist_parse(&list, "a.conf", "GenuineIntel 6 1 1\n", error,
			      sizeof(error)) == -EINVAL &&
	      strstr(error, "no strategy listed"),
	      "no strategies: %s", error);
}

int main(int argc, char **argv)
{
	char root[] = "/tmp/clearpaged-test-XXXXXX";

	if (argc < 3 || !mkdtemp(root)) {
		fprintf(stderr, "usage: test-config ALLOWLIST CONFIG\n");
		return 2;
	}
	test_dropins(root);
	test_errors();
	test_warnings();
	test_time_spans_and_all_errors();
	test_overrides(root);
	test_failed_load_keeps_config(root);
	test_file_limits(root);
	test_print_round_trip();
	test_allowlist(argv[1]);
	test_shipped_config(argv[2]);
	{
		char command[128];

		snprintf(command, sizeof(command), "rm -rf '%s'", root);
		if (system(command))
			fprintf(stderr, "test-config: could not remove %s\n", root);
	}
	return check_summary();
}
