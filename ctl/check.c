// SPDX-License-Identifier: GPL-2.0
/*
 * clearpagectl check: will clearpage act on this machine? One line per
 * thing that decides it, ok, warn or fail, each with what to do; the exit
 * status is the worst line's. Reads files only (and asks dpkg-query and
 * mokutil, where they are there); needs no module and changes nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "allowlist.h"
#include "config.h"
#include "ctl.h"

enum verdict { OK, WARN, FAIL };
static const char *const verdict_names[] = { "ok", "warn", "fail" };

struct check_line {
	enum verdict verdict;
	const char *name;
	char detail[768];
};

#define MAX_LINES 16
static struct check_line lines[MAX_LINES];
static unsigned int nr_lines;

static void add(enum verdict v, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void add(enum verdict v, const char *name, const char *fmt, ...)
{
	struct check_line *l;
	va_list ap;

	if (nr_lines == MAX_LINES)
		return;
	l = &lines[nr_lines++];
	l->verdict = v;
	l->name = name;
	va_start(ap, fmt);
	vsnprintf(l->detail, sizeof(l->detail), fmt, ap);
	va_end(ap);
}

/*
 * The kernel series the module loads on: kmod/main.c's
 * clearpage_tested_series, and the only ones kmod/dkms.conf's
 * BUILD_EXCLUSIVE_KERNEL lets DKMS build for (tests/doc/test-series.sh
 * checks that the three agree).
 */
static const struct {
	unsigned int major, minor;
} tested_series[] = {
	{ 6, 1 },
	{ 6, 12 },
	{ 7, 3 },
};
#define TESTED_SERIES "6.1, 6.12, 7.3"

/* 1: @release is of a tested series, 0: of another, -1: not a version. */
static int release_tested(const char *release, unsigned int *major,
			  unsigned int *minor)
{
	unsigned int i;

	if (sscanf(release, "%u.%u", major, minor) != 2)
		return -1;
	for (i = 0; i < sizeof(tested_series) / sizeof(tested_series[0]); i++)
		if (tested_series[i].major == *major &&
		    tested_series[i].minor == *minor)
			return 1;
	return 0;
}

/* The selected word of a sysfs choice file ("always [madvise] never"). */
static bool selected(const char *path, char *buf, size_t size)
{
	char line[128], *b, *e;

	if (!ctl_read_line(path, line, sizeof(line)) || !(b = strchr(line, '[')) ||
	    !(e = strchr(b, ']')))
		return false;
	*e = '\0';
	snprintf(buf, size, "%s", b + 1);
	return true;
}

/* A module parameter's value is true as the kernel's bool parser reads it. */
static bool param_true(const char *v)
{
	return *v == '1' || *v == 'y' || *v == 'Y';
}

/* "allow_untested_kernel=1" among the words of an options line. */
static bool options_allow(char *line)
{
	char *save = NULL, *w = strtok_r(line, " \t\n", &save);

	if (!w || strcmp(w, "options"))
		return false;
	w = strtok_r(NULL, " \t\n", &save);
	if (!w || strcmp(w, "clearpage"))
		return false;
	while ((w = strtok_r(NULL, " \t\n", &save)))
		if (!strncmp(w, "allow_untested_kernel=", 22) &&
		    param_true(w + 22))
			return true;
	return false;
}

/*
 * Whether the administrator lets the module load on an untested series:
 * the loaded module has allow_untested_kernel set, or a modprobe.d file or
 * the kernel command line sets it for the next load.
 */
static bool untested_allowed(void)
{
	static const char *const dirs[] = {
		"/etc/modprobe.d", "/run/modprobe.d", "/usr/lib/modprobe.d",
		"/lib/modprobe.d",
	};
	char line[1024], path[512], *p;
	bool allowed = false;
	struct dirent *e;
	unsigned int i;
	FILE *f;
	DIR *d;

	if (ctl_read_line("/sys/module/clearpage/parameters/allow_untested_kernel",
			  line, sizeof(line)) && param_true(line))
		return true;
	if (ctl_read_line("/proc/cmdline", line, sizeof(line)) &&
	    (p = strstr(line, "clearpage.allow_untested_kernel=")) &&
	    param_true(p + strlen("clearpage.allow_untested_kernel=")))
		return true;
	for (i = 0; !allowed && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		d = opendir(dirs[i]);
		if (!d)
			continue;
		while (!allowed && (e = readdir(d))) {
			size_t len = strlen(e->d_name);

			if (len < 6 || strcmp(e->d_name + len - 5, ".conf"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i], e->d_name);
			f = fopen(path, "re");
			if (!f)
				continue;
			while (!allowed && fgets(line, sizeof(line), f))
				allowed = options_allow(line);
			fclose(f);
		}
		closedir(d);
	}
	return allowed;
}

static void check_kernel(const char *release)
{
	unsigned int major = 0, minor = 0;
	int tested = release_tested(release, &major, &minor);

	if (tested < 0)
		add(FAIL, "kernel", "%s: not a kernel version this module knows",
		    release);
	else if (tested)
		add(OK, "kernel", "%s: series %u.%u, tested", release, major,
		    minor);
	else if (untested_allowed())
		add(WARN, "kernel",
		    "%s: series %u.%u is not tested (" TESTED_SERIES "); allow_untested_kernel=1 is set, so a module built for it loads, but DKMS builds none for this series (BUILD_EXCLUSIVE_KERNEL): build it from the source tree (doc/operations.md) or boot a tested series",
		    release, major, minor);
	else
		add(FAIL, "kernel",
		    "%s: series %u.%u is not tested (" TESTED_SERIES "): DKMS builds no module for it and a module built by hand refuses to load; boot a kernel of a tested series (Debian 12: linux-image-amd64 is 6.1, bookworm-backports 6.12; Debian 13 trixie-backports: 7.3)",
		    release, major, minor);
}

/* Whether dpkg-query says @package is installed: 1, 0, or -1 unknown. */
static int package_installed(const char *package)
{
	char cmd[128], out[64];

	snprintf(cmd, sizeof(cmd),
		 "dpkg-query -W -f='${db:Status-Abbrev}' %s 2>/dev/null",
		 package);
	if (access("/usr/bin/dpkg-query", X_OK))
		return -1;
	if (!ctl_command_line(cmd, out, sizeof(out)))
		return 0;
	return !strncmp(out, "ii", 2);
}

/*
 * The headers metapackage of @release's flavour, as Debian names its
 * kernels: 6.1.0-28-cloud-amd64 is linux-headers-cloud-amd64,
 * 6.12.95+deb12-amd64 linux-headers-amd64.
 */
static void headers_metapackage(const char *release, char *buf, size_t size)
{
	const char *flavour = strchr(release, '-');
	size_t digits;

	if (!flavour) {
		snprintf(buf, size, "linux-headers-amd64");
		return;
	}
	flavour++;
	digits = strspn(flavour, "0123456789");
	if (digits && flavour[digits] == '-')
		flavour += digits + 1;
	snprintf(buf, size, "linux-headers-%s", flavour);
}

static void check_headers(const char *release)
{
	char path[512];
	int meta;

	snprintf(path, sizeof(path), "/lib/modules/%s/build/Makefile", release);
	if (!access(path, R_OK))
		add(OK, "headers", "%s: installed, DKMS can build the module",
		    release);
	else
		add(FAIL, "headers",
		    "%s: not installed, DKMS cannot build the module: apt-get install linux-headers-%s",
		    release, release);
	snprintf(path, sizeof(path), "linux-image-%s", release);
	meta = package_installed(path);
	if (meta < 0) {
		add(WARN, "headers-new",
		    "cannot tell (no dpkg-query): each new kernel needs its headers for DKMS to build the module");
		return;
	}
	if (!meta) {
		add(WARN, "headers-new",
		    "%s is not a Debian kernel package (no %s): install the headers of each new kernel yourself, or DKMS cannot build the module for it",
		    release, path);
		return;
	}
	headers_metapackage(release, path, sizeof(path));
	meta = package_installed(path);
	if (meta)
		add(OK, "headers-new",
		    "%s installed: each new kernel brings its headers", path);
	else
		add(WARN, "headers-new",
		    "%s not installed: a new kernel boots without the module; apt-get install %s (-t bookworm-backports or trixie-backports on a backports kernel)",
		    path, path);
}

/* The path modules.dep gives clearpage.ko for @release, or false. */
static bool module_for(const char *release, char *found, size_t size)
{
	char path[512], line[1024], *colon, *base;
	bool hit = false;
	FILE *f;

	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", release);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!hit && fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		if (!strncmp(base, "clearpage.ko", strlen("clearpage.ko"))) {
			snprintf(found, size, "%s", line);
			hit = true;
		}
	}
	fclose(f);
	return hit;
}

/* The newest kernel with modules installed, by version. */
static bool newest_kernel(char *out, size_t size)
{
	struct dirent *e;
	char path[512];
	bool any = false;
	DIR *d = opendir("/lib/modules");

	if (!d)
		return false;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep",
			 e->d_name);
		if (access(path, R_OK))
			continue;
		if (!any || strverscmp(e->d_name, out) > 0) {
			snprintf(out, size, "%s", e->d_name);
			any = true;
		}
	}
	closedir(d);
	return any;
}

static void check_dkms(const char *release)
{
	char found[1024], newest[256];
	unsigned int major, minor;

	if (module_for(release, found, sizeof(found)))
		add(OK, "module-file", "%s: %s", release, found);
	else if (!access("/sys/module/clearpage", F_OK))
		add(WARN, "module-file",
		    "%s: the module is loaded but none is installed, so the next boot has none: install the clearpage-dkms package (README, Install)",
		    release);
	else if (release_tested(release, &major, &minor) == 0)
		add(FAIL, "module-file",
		    "%s: no clearpage.ko: DKMS builds none for series %u.%u (see the kernel line)",
		    release, major, minor);
	else
		add(FAIL, "module-file",
		    "%s: no clearpage.ko: install the clearpage-dkms package (README, Install), or dkms autoinstall -k %s once its headers are there",
		    release, release);
	if (!newest_kernel(newest, sizeof(newest)) || !strcmp(newest, release))
		return;
	if (module_for(newest, found, sizeof(found)))
		add(OK, "module-next", "%s (the newest kernel installed): %s",
		    newest, found);
	else if (release_tested(newest, &major, &minor) == 0)
		add(WARN, "module-next",
		    "%s (the newest kernel installed) is series %u.%u, not tested (" TESTED_SERIES "): DKMS builds no clearpage.ko for it and it boots without clearpage",
		    newest, major, minor);
	else
		add(WARN, "module-next",
		    "%s (the newest kernel installed) has no clearpage.ko and boots without it: apt-get install linux-headers-%s, then dkms autoinstall -k %s",
		    newest, newest, newest);
}

static void check_module(void)
{
	char verdict[256];
	bool current;

	if (access("/sys/module/clearpage", F_OK)) {
		add(WARN, "module", "not loaded: systemctl enable --now clearpaged loads it (or modprobe clearpage)");
		return;
	}
	current = ctl_module_verdict(verdict, sizeof(verdict));
	add(current ? OK : WARN, "module", "%s", verdict);
}

/* EFI Secure Boot: 1 on, 0 off, -1 no EFI variable to say. */
static int secure_boot(void)
{
	FILE *f = fopen("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-e0a9b0f3b94c",
			"re");
	unsigned char buf[5];
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	/* Four bytes of attributes, then the value. */
	return n == 5 ? buf[4] == 1 : -1;
}

static void check_signatures(void)
{
	char enforce[16] = "", lockdown[32] = "none", why[48], out[256];
	int sb = secure_boot();
	bool enforced;

	ctl_read_line("/sys/module/module/parameters/sig_enforce", enforce,
		  sizeof(enforce));
	/* A kernel locked down (integrity or more) loads signed modules only. */
	selected("/sys/kernel/security/lockdown", lockdown, sizeof(lockdown));
	enforced = sb == 1 || enforce[0] == 'Y' || strcmp(lockdown, "none");
	if (!enforced) {
		add(OK, "signatures", "not enforced (Secure Boot %s, sig_enforce off, no lockdown): the module loads unsigned, tainting the kernel (E)",
		    sb < 0 ? "not reported" : "off");
		return;
	}
	if (sb == 1)
		snprintf(why, sizeof(why), "Secure Boot");
	else if (strcmp(lockdown, "none"))
		snprintf(why, sizeof(why), "lockdown=%s", lockdown);
	else
		snprintf(why, sizeof(why), "sig_enforce");
	if (!access("/sys/module/clearpage", F_OK)) {
		add(OK, "signatures", "enforced (%s), and the module is loaded: its key is enrolled",
		    why);
		return;
	}
	if (access("/var/lib/dkms/mok.pub", R_OK)) {
		add(WARN, "signatures", "enforced (%s): the module loads only signed by an enrolled key; DKMS makes one (/var/lib/dkms/mok.pub) when it builds the module",
		    why);
		return;
	}
	if (ctl_command_line("mokutil --test-key /var/lib/dkms/mok.pub 2>/dev/null",
			 out, sizeof(out)) && strstr(out, "already enrolled")) {
		add(OK, "signatures", "enforced (%s), and DKMS's key is enrolled",
		    why);
		return;
	}
	add(WARN, "signatures", "enforced (%s): enroll DKMS's key, or the module does not load: apt-get install mokutil; mokutil --import /var/lib/dkms/mok.pub; reboot and confirm the key",
	    why);
}

/* init_on_alloc as the kernel runs it: 1, 0, or -1 unknown. */
static int init_on_alloc(const char *release, const char **how)
{
	char line[4096], path[512], *p;
	int value = -1;
	FILE *f;

	/* The module says it, loaded (/sys/kernel/clearpage/backends). */
	f = fopen("/sys/kernel/clearpage/backends", "re");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "4k ", 3))
				value = strstr(line, "init_on_alloc=1") != NULL;
		fclose(f);
		if (value >= 0) {
			*how = "the module";
			return value;
		}
	}
	if (ctl_read_line("/proc/cmdline", line, sizeof(line))) {
		for (p = strstr(line, "init_on_alloc="); p;
		     p = strstr(p + 1, "init_on_alloc="))
			if (p == line || p[-1] == ' ')
				value = p[14] == '1' || p[14] == 'y' ||
					p[14] == 'Y' || !strncmp(p + 14, "on", 2);
		if (value >= 0) {
			*how = "the command line";
			return value;
		}
	}
	snprintf(path, sizeof(path), "/boot/config-%s", release);
	f = fopen(path, "re");
	if (!f)
		return -1;
	value = 0;
	while (fgets(line, sizeof(line), f))
		if (!strcmp(line, "CONFIG_INIT_ON_ALLOC_DEFAULT_ON=y\n"))
			value = 1;
	fclose(f);
	*how = "the kernel's default";
	return value;
}

/* A page size in kB as a person writes it: 64 KiB, 2 MiB, 1 GiB. */
static void size_name(unsigned long kb, char *buf, size_t size)
{
	if (kb >= 1024 * 1024 && !(kb % (1024 * 1024)))
		snprintf(buf, size, "%lu GiB", kb / (1024 * 1024));
	else if (kb >= 1024 && !(kb % 1024))
		snprintf(buf, size, "%lu MiB", kb / 1024);
	else
		snprintf(buf, size, "%lu KiB", kb);
}

#define MAX_SIZES 16

/* The "hugepages-<N>kB" entries of @dir, by size. */
static int page_sizes(const char *dir, unsigned long *kb)
{
	struct dirent *e;
	unsigned long v, t;
	int n = 0, i, j;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((e = readdir(d)) && n < MAX_SIZES)
		if (sscanf(e->d_name, "hugepages-%lukB", &v) == 1)
			kb[n++] = v;
	closedir(d);
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && kb[j - 1] > kb[j]; j--) {
			t = kb[j];
			kb[j] = kb[j - 1];
			kb[j - 1] = t;
		}
	return n;
}

/*
 * The hugetlb pages of every pool ("32 of 2 MiB, 1 of 1 GiB", or "none")
 * into @buf; how many there are in all.
 */
static unsigned long hugetlb_pools(char *buf, size_t size)
{
	unsigned long kb[MAX_SIZES], nr, total = 0;
	char path[128], line[32], name[32];
	size_t len = 0;
	int n = page_sizes("/sys/kernel/mm/hugepages", kb), i;

	*buf = '\0';
	for (i = 0; i < n && len < size; i++) {
		snprintf(path, sizeof(path),
			 "/sys/kernel/mm/hugepages/hugepages-%lukB/nr_hugepages",
			 kb[i]);
		if (!ctl_read_line(path, line, sizeof(line)) ||
		    sscanf(line, "%lu", &nr) != 1 || !nr)
			continue;
		size_name(kb[i], name, sizeof(name));
		len += snprintf(buf + len, size - len, "%s%lu of %s",
				len ? ", " : "", nr, name);
		total += nr;
	}
	if (!total)
		snprintf(buf, size, "none");
	return total;
}

/*
 * The mTHP sizes (6.8 and later) turned on by a setting of their own, not
 * inherited ("64 KiB always, 128 KiB madvise"), into @buf; whether there
 * is one, so that THP is in use whatever the top level says.
 */
static bool mthp_sizes(char *buf, size_t size)
{
	unsigned long kb[MAX_SIZES];
	char path[160], mode[32], name[32];
	size_t len = 0;
	bool on = false;
	int n = page_sizes("/sys/kernel/mm/transparent_hugepage", kb), i;

	*buf = '\0';
	for (i = 0; i < n && len < size; i++) {
		snprintf(path, sizeof(path),
			 "/sys/kernel/mm/transparent_hugepage/hugepages-%lukB/enabled",
			 kb[i]);
		if (!selected(path, mode, sizeof(mode)) ||
		    !strcmp(mode, "inherit") || !strcmp(mode, "never"))
			continue;
		size_name(kb[i], name, sizeof(name));
		len += snprintf(buf + len, size - len, "%s%s %s",
				len ? ", " : "", name, mode);
		on = true;
	}
	return on;
}

static void check_pages(const char *release)
{
	char top[32], sizes[256], thp[320], pools[256];
	unsigned int major = 0, minor = 0;
	const char *how = "";
	int ioa = init_on_alloc(release, &how);
	bool thp_off, thp_prezeroed, mthp_on;
	unsigned long hugetlb;

	/*
	 * With init_on_alloc=1 the allocator zeroes 4 KiB pages, and before
	 * 7.x THP too: the module leaves a folio already zeroed alone
	 * (backend_huge.c); 7.x's allocator clear is the module's own
	 * (backend_alloc.c). hugetlb and fallocate pages it clears on all.
	 */
	sscanf(release, "%u.%u", &major, &minor);
	thp_prezeroed = ioa == 1 && major < 7;
	if (ioa < 0)
		add(WARN, "init_on_alloc", "unknown (no module loaded, not on the command line, no /boot/config-%s): which pages clearpage clears depends on it",
		    release);
	else if (thp_prezeroed)
		add(OK, "init_on_alloc", "1 (%s): on %u.%u clearpage clears hugetlb pages only; the allocator zeroes every 4 KiB page and THP (init_on_alloc=0 on the command line lets clearpage clear those too)",
		    how, major, minor);
	else if (ioa)
		add(OK, "init_on_alloc", "1 (%s): clearpage clears huge pages only (hugetlb and THP); the allocator zeroes every 4 KiB page (init_on_alloc=0 on the command line lets clearpage clear those too)",
		    how);
	else
		add(OK, "init_on_alloc", "0 (%s): clearpage clears 4 KiB faults and huge pages",
		    how);

	if (!selected("/sys/kernel/mm/transparent_hugepage/enabled", top,
		      sizeof(top)))
		snprintf(top, sizeof(top), "not available");
	mthp_on = mthp_sizes(sizes, sizeof(sizes));
	if (*sizes)
		snprintf(thp, sizeof(thp), "%s (mTHP %s)", top, sizes);
	else
		snprintf(thp, sizeof(thp), "%s", top);
	hugetlb = hugetlb_pools(pools, sizeof(pools));
	thp_off = strcmp(top, "always") && strcmp(top, "madvise") && !mthp_on;
	if (thp_prezeroed && !hugetlb)
		add(WARN, "huge-pages",
		    "THP %s, but the allocator zeroes it here (init_on_alloc=1 on %u.%u), and no hugetlb pages (vm.nr_hugepages): clearpage does nothing here",
		    thp, major, minor);
	else if (thp_prezeroed)
		add(OK, "huge-pages",
		    "THP %s (zeroed by the allocator: init_on_alloc=1 on %u.%u), hugetlb pages: %s",
		    thp, major, minor, pools);
	else if (thp_off && !hugetlb)
		add(ioa == 0 ? OK : WARN, "huge-pages",
		    "THP %s, no hugetlb pages: no huge page to clear%s", thp,
		    ioa == 0 ? "" : ", and with init_on_alloc=1 nothing else: clearpage does nothing here");
	else
		add(OK, "huge-pages", "THP %s, hugetlb pages: %s", thp, pools);
}

/* "model name" of the first CPU in /proc/cpuinfo. */
static void cpu_name(char *buf, size_t size)
{
	char line[512], *colon;
	FILE *f = fopen("/proc/cpuinfo", "re");

	snprintf(buf, size, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10) || !(colon = strchr(line, ':')))
			continue;
		colon += 1 + (colon[1] == ' ');
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, size, "%s", colon);
		break;
	}
	fclose(f);
}

static void check_cpu(void)
{
	unsigned int family, model, stepping;
	const struct allowlist_entry *entry;
	struct daemon_config config;
	struct allowlist list;
	char vendor[64], name[128], error[512], names[128], cpu[320];

	if (allowlist_cpu_from_cpuinfo("/proc/cpuinfo", vendor, sizeof(vendor),
				       &family, &model, &stepping)) {
		add(FAIL, "cpu", "unknown (no /proc/cpuinfo): clearpaged only monitors a CPU it cannot name");
		return;
	}
	cpu_name(name, sizeof(name));
	snprintf(cpu, sizeof(cpu), "%s family 0x%x model 0x%x stepping %u (%s)",
		 vendor, family, model, stepping, name);
	if (config_load(&config, "", NULL, NULL, error, sizeof(error))) {
		add(FAIL, "cpu", "%s; the configuration does not load (%s): clearpaged --check-config names what to fix",
		    cpu, error);
		return;
	}
	if (allowlist_load_all(&list, config.allowlist_dir, config.allowlist,
			       error, sizeof(error))) {
		add(FAIL, "cpu", "%s; the allowlist cannot be read (%s): clearpaged only monitors",
		    cpu, error);
		return;
	}
	entry = allowlist_match(&list, vendor, family, model, stepping);
	if (entry) {
		allowlist_format_strategies(entry->strategies, names,
					    sizeof(names));
		add(OK, "cpu", "%s: allowed %s by %s:%u", cpu,
		    *names ? names : "kernel only", entry->file, entry->line);
	} else if (config.allow_unlisted_cpu) {
		add(OK, "cpu", "%s: not on the allowlist, but AllowUnlistedCPU=yes lets clearpaged act",
		    cpu);
	} else {
		add(WARN, "cpu", "%s: not on the allowlist, clearpaged only monitors; measure it: clearpage-bench advise --write (doc/operations.md)",
		    cpu);
	}
	allowlist_free(&list);
}

/*
 * The last line of the text: the worst verdict again, with the checks
 * that gave it, so the answer is one line away from the prompt.
 */
static void print_summary(enum verdict worst)
{
	char names[256] = "";
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < nr_lines && len < sizeof(names); i++)
		if (lines[i].verdict == worst)
			len += snprintf(names + len, sizeof(names) - len, "%s%s",
					len ? ", " : "", lines[i].name);
	if (worst == FAIL)
		printf("%-4s  %-13s clearpage will not act here until the fail lines are fixed: %s\n",
		       verdict_names[worst], "summary", names);
	else if (worst == WARN)
		printf("%-4s  %-13s clearpage can act here; read the warn lines first: %s\n",
		       verdict_names[worst], "summary", names);
	else
		printf("%-4s  %-13s clearpage can act here\n",
		       verdict_names[worst], "summary");
}

int cmd_check(int argc, char **argv, const struct ctl_options *o)
{
	enum verdict worst = OK;
	struct utsname u;
	unsigned int i;

	(void)argv;
	if (argc) {
		fprintf(stderr, "clearpagectl: check takes no arguments\n");
		return EXIT_USAGE;
	}
	if (uname(&u)) {
		fprintf(stderr, "clearpagectl: check: uname: %s\n",
			strerror(errno));
		return EXIT_FAILED;
	}
	nr_lines = 0;
	check_kernel(u.release);
	check_headers(u.release);
	check_dkms(u.release);
	check_module();
	check_signatures();
	check_pages(u.release);
	check_cpu();

	for (i = 0; i < nr_lines; i++)
		if (lines[i].verdict > worst)
			worst = lines[i].verdict;
	if (o->json) {
		struct json_object *root = ctl_json_new(), *a, *c;

		a = ctl_json_array(root, "checks");
		for (i = 0; i < nr_lines; i++) {
			c = ctl_json_append(a);
			ctl_json_string(c, "check", lines[i].name);
			ctl_json_string(c, "verdict",
					verdict_names[lines[i].verdict]);
			ctl_json_string(c, "detail", lines[i].detail);
		}
		ctl_json_string(root, "worst", verdict_names[worst]);
		if (ctl_json_print(root))
			return EXIT_FAILED;
	} else {
		for (i = 0; i < nr_lines; i++)
			printf("%-4s  %-13s %s\n",
			       verdict_names[lines[i].verdict], lines[i].name,
			       lines[i].detail);
		print_summary(worst);
	}
	return worst == FAIL ? EXIT_FAILED : worst == WARN ? EXIT_WARNINGS :
							   EXIT_OK;
}
