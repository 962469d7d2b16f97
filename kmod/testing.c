// SPDX-License-Identifier: GPL-2.0
/*
 * Hooks of the test build only (kmod/build.sh ... test). The shipping module
 * does not compile this file; clearpage.h turns every hook into a no-op
 * there.
 *
 * A test build refuses to load unless it is given testing=1, so it can never
 * be mistaken for the real module. Its hooks, for the VM suites:
 *  - "broken": movq clears nothing for processes named cptest-victim, to
 *    prove that the zero-page checks catch a missed clear (other processes
 *    are spared so the VM keeps running); with test_break_self_test=1
 *    movq's calibration self-test skips the pool, to prove that calibration
 *    refuses such a routine;
 *  - "decide": emulated CPUs have no cache timing, so their calibration
 *    shows hot = cold and clearpaged rightly never acts; with
 *    test_calibration=1 the calibration reports figures measured on an AMD
 *    EPYC (Zen 3) instead, so the daemon's decisions can be watched;
 *  - "abi": test_kernel_version pretends to be built for another kernel
 *    series, to check that the module refuses untested kernels;
 *  - "initonalloc": test_alloc_clear_symbol names the allocator's clear
 *    function to look for (7.x), to check that a kernel without it loads
 *    with that path off and says so;
 *  - "decide", trials: test_cost_ns gives a cost per page for each
 *    strategy (0: measured), reported for every timed clear instead of the
 *    emulated CPU's meaningless timing, so that a choice made from trial
 *    frames is deterministic. Only the timing is replaced: every page is
 *    still cleared with the strategy;
 *  - "broken": test_clock_back_ns makes every timed region end before it
 *    began, as one that migrated to a CPU whose clock is behind would
 *    without a stable TSC;
 *  - "broken": test_set_wait_ms holds a strategy set between its check
 *    that the routine is usable and its lock until a calibration refused
 *    the routine (and 200 ms more), so that the race of the two is run in
 *    the order that once installed a refused routine;
 *  - "gigantic": test_helper_delay_ms queues a gigantic folio's helpers
 *    that much later, so that the faulting task has taken every range
 *    before any helper starts (a helper whose CPU is busy): the fault must
 *    complete without them and still clear every byte. With
 *    test_helpers_first=1 the faulting task waits (at most 2 s) until its
 *    helpers have started before it takes a range, so that on an emulated
 *    CPU every helper really clears a share.
 *  - "probe": an emulated CPU's cache flush does not flush, so its probe
 *    calibration cannot tell a cached line from memory and the probe mode
 *    is refused; test_probe_calibration=1 reports an Intel Xeon's figures
 *    instead, so that the mode can be turned on, and 2 figures that
 *    cannot tell, so that a recalibration's refusal does not depend on
 *    the emulator's timing. test_probe_verdict then
 *    decides for the probe, which still loads its lines: 1 every folio
 *    hot, 2 every folio cold, 3 hot and cold in turn (0: the probe's own
 *    verdict), so that both strategies clear folios deterministically.
 *    The same calibration gives the touch probe its threshold, and
 *    test_touch_verdict decides for it after its load: 1 every line
 *    cached, 2 none, 3 each in turn (0: measured).
 *  - "fuzz": a write to test_hold_locks_ms holds the locks a change and a
 *    privileged read take, so that a reader without the capability can be
 *    shown to take none of them (it answers while they are held).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <linux/version.h>

#include "clearpage.h"

static bool testing;
module_param(testing, bool, 0444);
MODULE_PARM_DESC(testing, "acknowledge that this is a test build (required)");

static bool test_broken_clear = true;
module_param(test_broken_clear, bool, 0644);
MODULE_PARM_DESC(test_broken_clear,
		 "movq clears nothing for processes named cptest-victim (default 1)");

static bool test_break_self_test;
module_param(test_break_self_test, bool, 0644);
MODULE_PARM_DESC(test_break_self_test,
		 "movq's calibration self-test leaves its pool untouched");

static bool test_calibration = true;
module_param(test_calibration, bool, 0644);
MODULE_PARM_DESC(test_calibration,
		 "report a real CPU's calibration instead of the measured one (default 1)");

static char *test_kernel_version = "";
module_param(test_kernel_version, charp, 0444);
MODULE_PARM_DESC(test_kernel_version,
		 "pretend to be built for this kernel version (MAJOR.MINOR)");

static char *test_alloc_clear_symbol = "";
module_param(test_alloc_clear_symbol, charp, 0444);
MODULE_PARM_DESC(test_alloc_clear_symbol,
		 "look for the allocator's clear under this name instead (7.x)");

static unsigned int test_cost_ns[CLEARPAGE_STRATEGY_COUNT];
module_param_array(test_cost_ns, uint, NULL, 0644);
MODULE_PARM_DESC(test_cost_ns,
		 "ns per page reported for every timed clear, per strategy in id order (0: measured)");

static unsigned long test_clock_back_ns;
module_param(test_clock_back_ns, ulong, 0644);
MODULE_PARM_DESC(test_clock_back_ns,
		 "every timed region ends this many ns before it began, as on another CPU's unsynchronised clock");

static unsigned int test_set_wait_ms;
module_param(test_set_wait_ms, uint, 0644);
MODULE_PARM_DESC(test_set_wait_ms,
		 "hold a strategy set after its usability check until the routine is refused (at most this long)");

static unsigned int test_helper_delay_ms;
module_param(test_helper_delay_ms, uint, 0644);
MODULE_PARM_DESC(test_helper_delay_ms,
		 "queue a gigantic folio's helpers this many ms late (0: at once)");

static bool test_helpers_first;
module_param(test_helpers_first, bool, 0644);
MODULE_PARM_DESC(test_helpers_first,
		 "the faulting task waits for its helpers to start (at most 2 s) before it clears");

static unsigned int test_probe_calibration;
module_param(test_probe_calibration, uint, 0644);
MODULE_PARM_DESC(test_probe_calibration,
		 "1: report a real CPU's probe calibration instead of the measured one; 2: one that cannot tell (0: the measured one)");

static unsigned int test_probe_verdict;
module_param(test_probe_verdict, uint, 0644);
MODULE_PARM_DESC(test_probe_verdict,
		 "the probe's verdict: 0 measured, 1 hot, 2 cold, 3 hot and cold in turn");

static unsigned int test_touch_verdict;
module_param(test_touch_verdict, uint, 0644);
MODULE_PARM_DESC(test_touch_verdict,
		 "the touch probe's verdict: 0 measured, 1 cached, 2 not, 3 each in turn");

/*
 * A write of N holds what a privileged reader and every change take, node
 * 0's calibration_lock and clearpage_lock (in that order, as a
 * calibration does), for N ms (at most 60 s) in the writer's context,
 * and says so in the log once they are held. (The write holds the
 * module's parameter lock too: no other parameter reads meanwhile.)
 */
static int hold_locks_set(const char *val, const struct kernel_param *kp)
{
	struct clearpage_node *node = clearpage_node_get(0);
	unsigned int ms;
	int err = kstrtouint(val, 0, &ms);

	if (err)
		return err;
	if (ms > 60000)
		return -ERANGE;
	if (node)
		mutex_lock(&node->calibration_lock);
	mutex_lock(&clearpage_lock);
	pr_info("test: holding calibration_lock and clearpage_lock for %u ms\n",
		ms);
	msleep(ms);
	/*
	 * calibration_lock first: once clearpage_lock is free, an unload
	 * waiting for it may go on to free the nodes.
	 */
	if (node)
		mutex_unlock(&node->calibration_lock);
	mutex_unlock(&clearpage_lock);
	return 0;
}

static const struct kernel_param_ops hold_locks_ops = {
	.set = hold_locks_set,
};
module_param_cb(test_hold_locks_ms, &hold_locks_ops, NULL, 0200);
MODULE_PARM_DESC(test_hold_locks_ms,
		 "hold node 0's calibration_lock and clearpage_lock this many ms (a write)");

int clearpage_test_init(void)
{
	if (!testing) {
		pr_err("this is a test build of clearpage.ko, with hooks that skip clears on purpose; it loads only with testing=1 (install the module built without \"test\" instead)\n");
		return -EPERM;
	}
	pr_warn("test build loaded: not for production use\n");
	return 0;
}

unsigned int clearpage_test_kernel_version(unsigned int version)
{
	unsigned int major, minor;

	if (sscanf(test_kernel_version, "%u.%u", &major, &minor) == 2)
		return KERNEL_VERSION(major, minor, 0);
	return version;
}

bool clearpage_test_skip_clear(int strategy)
{
	return READ_ONCE(test_broken_clear) &&
	       strategy == CLEARPAGE_STRATEGY_MOVQ &&
	       !strcmp(current->comm, "cptest-victim");
}

bool clearpage_test_break_self_test(int strategy)
{
	return READ_ONCE(test_break_self_test) &&
	       strategy == CLEARPAGE_STRATEGY_MOVQ;
}

void clearpage_test_calibration(struct clearpage_calibration *result)
{
	static const struct clearpage_calibration epyc[] = {
		[CLEARPAGE_STRATEGY_KERNEL] = { 70, 411 },
		[CLEARPAGE_STRATEGY_REP_STOSB] = { 70, 411 },
		[CLEARPAGE_STRATEGY_REP_STOSQ] = { 75, 420 },
		[CLEARPAGE_STRATEGY_MOVQ] = { 90, 423 },
		[CLEARPAGE_STRATEGY_MOVNTI] = { 203, 206 },
		[CLEARPAGE_STRATEGY_CLZERO] = { 175, 124 },
	};
	int strategy;

	if (!READ_ONCE(test_calibration))
		return;
	for (strategy = 0; strategy < CLEARPAGE_STRATEGY_COUNT; strategy++)
		if (result[strategy].hot_ns)
			result[strategy] = epyc[strategy];
}

u64 clearpage_test_clock(u64 now)
{
	unsigned long back = READ_ONCE(test_clock_back_ns);

	return back ? now - back : now;
}

void clearpage_test_set_delay(int strategy)
{
	unsigned int ms = READ_ONCE(test_set_wait_ms), waited = 0;

	if (!ms)
		return;
	while (clearpage_strategy_usable(strategy) && waited < ms) {
		usleep_range(10000, 11000);
		waited += 10;
	}
	/* Well after the nodes were moved off it, too. */
	msleep(200);
}

u64 clearpage_test_cost(int strategy, unsigned int nr_pages, u64 ns)
{
	unsigned int cost = READ_ONCE(test_cost_ns[strategy]);

	return cost ? (u64)cost * nr_pages : ns;
}

const char *clearpage_test_alloc_clear_symbol(const char *name)
{
	return *test_alloc_clear_symbol ? test_alloc_clear_symbol : name;
}

unsigned long clearpage_test_helper_delay(void)
{
	return msecs_to_jiffies(READ_ONCE(test_helper_delay_ms));
}

void clearpage_test_helpers_start(atomic_t *started, unsigned int queued)
{
	unsigned int waited;

	if (!READ_ONCE(test_helpers_first))
		return;
	for (waited = 0; waited < 2000 && atomic_read(started) < queued;
	     waited++)
		usleep_range(1000, 1100);
}

void clearpage_test_probe_calibration(struct clearpage_probe_calibration *result)
{
	unsigned int force = READ_ONCE(test_probe_calibration);

	if (!force)
		return;
	/*
	 * 1: measured on an Intel Xeon (family 6 model 167) KVM guest; 2: a
	 * CPU whose flush does not flush, whatever the emulator's timing did
	 * this time.
	 */
	result->hot_ticks = 54;
	result->cold_ticks = force == 1 ? 404 : 60;
	result->threshold_ticks = clearpage_probe_threshold(result->hot_ticks,
							    result->cold_ticks);
}

/* A forced verdict: 1 yes, 2 no, 3 each in turn, else @measured. */
static int forced_verdict(unsigned int force, atomic_t *turn, int measured)
{
	switch (force) {
	case 1:
		return 1;
	case 2:
		return 0;
	case 3:
		return atomic_inc_return(turn) & 1;
	default:
		return measured;
	}
}

int clearpage_test_probe_verdict(int hot)
{
	static atomic_t turn = ATOMIC_INIT(0);

	return forced_verdict(READ_ONCE(test_probe_verdict), &turn, hot);
}

int clearpage_test_touch_verdict(int cached)
{
	static atomic_t turn = ATOMIC_INIT(0);

	return forced_verdict(READ_ONCE(test_touch_verdict), &turn, cached);
}
