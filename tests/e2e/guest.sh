#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The end-to-end checks, run by clearpage-e2e.service inside the booted
# Debian (systemd as PID 1, both packages installed by apt): what an
# administrator does, checked from inside. Results go to the serial console
# as PASS/FAIL/SKIP lines, then a summary; then the machine powers off.
exec >/dev/ttyS0 2>&1
passed=0 failed=0 skipped=0
CP=/sys/kernel/clearpage
pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }
skip() { skipped=$((skipped + 1)); echo "SKIP: $*"; }
info() { echo "INFO: $*"; }
check() { local name=$1; shift; if "$@"; then pass "$name"; else fail "$name"; fi; }
# clearpagectl status with its wrapped lines joined (continuations are
# indented by 8 spaces), for checks that grep a whole line.
status_text() {
	clearpagectl status "$@" | awk '/^        [^ ]/ && NR > 1 { sub(/^ +/, ""); line = line " " $0; next }
		NR > 1 { print line } { line = $0 } END { if (NR) print line }'
}
# status_has PATTERN: a line of status_text matches the grep PATTERN.
status_has() { status_text | grep -q "$1"; }
# until COMMAND... succeeds, at most $T seconds (default 60) of wall time
until_ok() {
	local end=$((SECONDS + ${T:-60}))
	while ! "$@" 2>/dev/null; do
		[ $SECONDS -ge $end ] && return 1
		sleep 0.2
	done
}
# The load below is THP faults: the huge backend decides.
current_strategy() { sed -n 's/.*\[\([a-z_]*\)\].*/\1/p' $CP/node$1/strategy_huge; }
source_of() {
	clearpagectl status --json | sed 's/{"node":/\n{"node":/g' | grep "^{\"node\":$1," |
		sed -n 's/.*"huge":{[^}]*"source":"\([a-z]*\)".*/\1/p'
}
prop() { systemctl show -P "$1" clearpaged; }
# For until_ok, which runs its arguments again and again.
daemon_set_node0() { test "$(source_of 0)" = daemon; }
journal_has() { journalctl -o json -u clearpaged --no-pager | grep -q "$1"; }
# Transparent huge page faults on node 0 until stop_load: pages to measure.
start_load() {
	(while :; do
		clearpage-bench faults --thp --sizes 64M --runs 5 --node 0 \
			--strategies current --out /tmp/bench >/dev/null 2>&1
	done) &
	load=$!
}
stop_load() {
	kill $load 2>/dev/null
	wait $load 2>/dev/null
	pkill -x clearpage-bench
}
finish() {
	echo "CPVM-SUMMARY: $passed passed, $failed failed, $skipped skipped"
	echo "CPVM-END"
	systemctl poweroff --no-block
	exit 0
}
trap finish EXIT

info "kernel $(uname -r), systemd $(systemctl --version | head -n 1), $(nproc) CPUs, nodes: $(ls -d /sys/devices/system/node/node* | tr '\n' ' ')"

# Packages: installed by apt, the module built by DKMS for this kernel.
check "clearpaged and clearpage-dkms are installed" \
	sh -c "dpkg-query -W -f '\${Status}\n' clearpaged clearpage-dkms | grep -c 'install ok installed' | grep -qx 2"
check "DKMS built and installed clearpage for $(uname -r)" \
	sh -c "dkms status clearpage 2>/dev/null | grep '$(uname -r).*installed' >/dev/null"
check "modinfo finds the DKMS module" sh -c "modinfo -n clearpage | grep -q updates/dkms"
# The upstream version (meson's, what MODULE_VERSION and the tools carry):
# the package's without a Debian revision or suffix (0.4.0-1, 0.4.0+e2e1).
pkgver=$(dpkg-query -W -f '${Version}' clearpaged)
pkgver=${pkgver%%[-+~]*}
check "the DKMS module carries the package's version ($pkgver)" \
	test "$(modinfo -F version clearpage)" = "$pkgver"
check "the module's man page, clearpage(4), is installed" \
	sh -c "man -w 4 clearpage >/dev/null 2>&1 || test -f /usr/share/man/man4/clearpage.4.gz"
check "the unit is installed but not enabled by the package" \
	test "$(systemctl is-enabled clearpaged 2>&1)" = disabled
check "nothing loaded the module at boot (no livepatch behind the admin's back)" \
	test ! -e $CP -a ! -e /sys/kernel/livepatch/clearpage
check "the catalog is installed in the journal's database" \
	sh -c "journalctl --list-catalog | grep -q 1e658545b6144d60b44d428c8542ff21"

# The administrator's first steps.
check "systemctl enable --now clearpaged" systemctl enable --now clearpaged
check "the unit is active" until_ok test "$(systemctl is-active clearpaged)" = active
check "the module is loaded (ExecStartPre modprobe)" test -d $CP
check "STATUS= has a part per node" until_ok sh -c "systemctl show -P StatusText clearpaged | grep -q 'node0: .*; node1: '"
info "status: $(prop StatusText)"
check "the unit is enabled for the next boot" test "$(systemctl is-enabled clearpaged)" = enabled
# README's "See that it helps".
check "README: systemctl status clearpaged" sh -c "systemctl status clearpaged --no-pager | grep -q 'Status: \".*node0: '"
check "README: clearpagectl status shows the daemon" \
	until_ok sh -c "clearpagectl status | grep -q '^clearpaged: running, pid $(prop MainPID), attached to the module'"
check "clearpagectl status: the loaded module is the tools' version" \
	sh -c "clearpagectl status | grep -q '^module: clearpage $pkgver loaded, as these tools'"
# clearpagectl check on the packaged install: what DKMS built, loaded.
clearpagectl check > /tmp/check.out; rc=$?
# The packaged tools' JSON, for the host to validate (tests/run-all.sh).
clearpagectl check --json 2>/dev/null | sed 's/^/CPVM-JSON|check|/'
clearpagectl status --json 2>/dev/null | sed 's/^/CPVM-JSON|status|/'
info "clearpagectl check (exit $rc): $(tr '\n' '|' </tmp/check.out)"
check "clearpagectl check: the headers DKMS built against" grep -q "^ok    headers       $(uname -r): installed" /tmp/check.out
check "clearpagectl check: the DKMS module in modules.dep" grep -q "^ok    module-file   $(uname -r): .*updates/dkms/clearpage.ko" /tmp/check.out
check "clearpagectl check: the module loaded, as the tools" grep -q "^ok    module        clearpage $pkgver loaded, as these tools" /tmp/check.out
check "clearpagectl check: no failure (exit 0 or 5)" sh -c "test $rc = 0 -o $rc = 5 && ! grep -q '^fail' /tmp/check.out"
check "README: journalctl -u clearpaged" sh -c "journalctl -u clearpaged --no-pager | grep -q 'attached to the clearpage module'"

# An administrator's pin is logged with its MESSAGE_ID.
clearpagectl pin 0
check "a pin is logged (MESSAGE_ID 9bced91e...)" \
	until_ok journal_has '"MESSAGE_ID":"9bced91e3cd84f84943e6abb5cb7588b"'
clearpagectl unpin 0

# Decisions need a calibration with a hot/cold difference, which an
# emulated CPU cannot measure (hot = cold, and the daemon rightly holds).
# From here the system runs the test build of the module (kmod/testing.c,
# test_calibration: an AMD EPYC's calibration, against which the
# emulated clears measure cold), as the VM suite "decide" does, so that the
# daemon decides on every run rather than when TCG's noise allows.
attached=$(journalctl -u clearpaged --no-pager | grep -c 'attached to the clearpage module')
clearpagectl unload
check "the test build loads in place of the packaged module" \
	insmod /usr/local/lib/clearpage-e2e/clearpage-test.ko testing=1
check "the daemon attaches to it without a restart" \
	until_ok sh -c "test \$(journalctl -u clearpaged --no-pager | grep -c 'attached to the clearpage module') -gt $attached"
check "it reports the EPYC calibration" grep -q '^rep_stosb 70 411' $CP/node0/calibration_huge

# A decision in dry run. NonTemporal=yes: the emulated CPU has no PMU.
mkdir -p /etc/clearpaged.conf.d
printf '[Daemon]\nDryRun=yes\nInterval=0.5\n[CPU]\nAllowUnlistedCPU=yes\n[Policy]\nNonTemporal=yes\n[Baseline]\nSummaryInterval=2\n' \
	> /etc/clearpaged.conf.d/50-e2e.conf
check "systemctl reload applies the drop-in" systemctl reload clearpaged
check "the reload is logged" until_ok journal_has '"MESSAGE":"configuration reloaded"'
start_load
T=120 check "a dry-run decision is logged (MESSAGE_ID 46255a72...)" \
	until_ok journal_has '"MESSAGE_ID":"46255a72f2b14c21ae4ac8733811607e"'
entry=$(journalctl -o json -u clearpaged --no-pager MESSAGE_ID=46255a72f2b14c21ae4ac8733811607e | head -n 1)
info "dry-run entry: $entry"
for field in CLEARPAGE_NODE CLEARPAGE_BACKEND CLEARPAGE_FROM CLEARPAGE_TO CLEARPAGE_REASON \
	CLEARPAGE_COLD_FRACTION CLEARPAGE_NS_PER_PAGE CLEARPAGE_PREDICTED_GAIN; do
	check "the entry has $field" sh -c "echo '$entry' | grep -q '\"$field\":'"
done
check "dry run changed nothing" sh -c "test \"$(current_strategy 0)\" = kernel -a \"$(source_of 0)\" != daemon"
check "journalctl --catalog explains it" \
	sh -c "journalctl -x -u clearpaged --no-pager MESSAGE_ID=46255a72f2b14c21ae4ac8733811607e | grep -q 'Subject: clearpaged'"
info "catalog: $(journalctl -x -u clearpaged --no-pager MESSAGE_ID=46255a72f2b14c21ae4ac8733811607e | grep -A2 'Subject:' | head -n 3 | tr '\n' '|')"

# Now for real: the daemon switches node 0, and stop returns it.
sed -i 's/DryRun=yes/DryRun=no/' /etc/clearpaged.conf.d/50-e2e.conf
systemctl reload clearpaged
T=120 check "the daemon switches node 0 (MESSAGE_ID 1e658545...)" \
	until_ok journal_has '"MESSAGE_ID":"1e658545b6144d60b44d428c8542ff21"'
check "the module says the daemon set node 0" until_ok daemon_set_node0
info "node 0 now: $(current_strategy 0)"
# Is it helping? The savings against the live baseline, in the journal
# (with the catalog's explanation) and in clearpagectl status.
T=60 check "a savings summary is logged (MESSAGE_ID e7db5ff9...)" \
	until_ok journal_has '"MESSAGE_ID":"e7db5ff97c4740d5a1f8a1a3de542941"'
# The message quotes "the kernel's routine": the entry goes through a file.
journalctl -o json -u clearpaged --no-pager MESSAGE_ID=e7db5ff97c4740d5a1f8a1a3de542941 CLEARPAGE_NODE=0 |
	tail -n 1 > /tmp/savings-entry.json
info "savings entry: $(cat /tmp/savings-entry.json)"
for field in CLEARPAGE_NODE CLEARPAGE_SINCE CLEARPAGE_SAVED_NS_4K CLEARPAGE_SAVED_SD_NS_4K \
	CLEARPAGE_KERNEL_NS_HUGE CLEARPAGE_SAVED_NS_HUGE CLEARPAGE_PAGES_HUGE; do
	check "the savings entry has $field" grep -q "\"$field\":" /tmp/savings-entry.json
done
check "journalctl --catalog explains the savings" \
	sh -c "journalctl -x -u clearpaged --no-pager MESSAGE_ID=e7db5ff97c4740d5a1f8a1a3de542941 | grep -q 'Subject: clearpage saved time'"
check "clearpagectl status shows what the daemon saved" \
	until_ok status_has '^  [a-z0-9]* *saved [-0-9.]* s .* over [0-9]* pages since '
info "clearpagectl status: $(status_text | grep 'saved' | tr '\n' '|')"
stop_load

# A killed daemon is restarted; a hung one is caught by the watchdog.
restarts=$(prop NRestarts)
pid=$(prop MainPID)
# What the daemon holds as it dies: stopped first, so that no switch it
# makes between the reading and the kill (a try's revert, a trial's
# switch) can change it.
kill -STOP "$pid"
held="$(current_strategy 0)/$(source_of 0)"
systemctl kill -s KILL clearpaged
check "a killed daemon is restarted (Restart=on-failure)" \
	until_ok sh -c "test \$(systemctl show -P NRestarts clearpaged) -gt $restarts && test \$(systemctl is-active clearpaged) = active"
case $held in
kernel/* | */admin | */default)
	skip "ExecStopPost=clearpagectl release: node 0's huge backend was $held when the daemon died, nothing to return" ;;
*)
	check "what it set ($held) went back to kernel before the restart (ExecStopPost=clearpagectl release)" \
		until_ok sh -c "journalctl -u clearpaged --no-pager | grep -q 'node 0 huge: ${held%/*} -> kernel (set by clearpaged)'" ;;
esac
mkdir -p /etc/systemd/system/clearpaged.service.d
printf '[Service]\nWatchdogSec=5s\n' > /etc/systemd/system/clearpaged.service.d/50-e2e-watchdog.conf
systemctl daemon-reload
systemctl restart clearpaged
until_ok test "$(systemctl is-active clearpaged)" = active
restarts=$(prop NRestarts)
kill -STOP "$(prop MainPID)"
T=90 check "a hung daemon is caught by the watchdog and restarted" \
	until_ok sh -c "test \$(systemctl show -P NRestarts clearpaged) -gt $restarts && test \$(systemctl is-active clearpaged) = active"
check "the journal names the watchdog" \
	sh -c "journalctl -u clearpaged --no-pager | grep -qi watchdog"
rm -r /etc/systemd/system/clearpaged.service.d
systemctl daemon-reload
systemctl restart clearpaged
until_ok test "$(systemctl is-active clearpaged)" = active

# The module goes while the daemon runs, and comes back.
clearpagectl unload
check "module removed: the unit stays active" sh -c "sleep 2; test \$(systemctl is-active clearpaged) = active"
check "and says it waits" until_ok sh -c "systemctl show -P StatusText clearpaged | grep -q 'waiting for the clearpage module'"
attached=$(journalctl -u clearpaged --no-pager | grep -c 'attached to the clearpage module')
insmod /usr/local/lib/clearpage-e2e/clearpage-test.ko testing=1
check "loaded again: the daemon resumes without a restart" \
	until_ok sh -c "test \$(journalctl -u clearpaged --no-pager | grep -c 'attached to the clearpage module') -gt $attached"

# Least privilege: the daemon that just switched node 0 through netlink
# runs as a user of its own with CAP_SYS_ADMIN and CAP_PERFMON only, and
# cannot write sysfs.
pid=$(systemctl show -P MainPID clearpaged)
info "daemon: $(grep -E '^(Uid|CapEff|CapBnd)' /proc/$pid/status | tr '\n\t' '  ')"
check "the daemon does not run as root" \
	sh -c "awk '\$1 == \"Uid:\" { exit !(\$2 != 0 && \$3 != 0) }' /proc/$pid/status"
check "but a user allocated for it (DynamicUser=, uid 61184-65519)" \
	sh -c "awk '\$1 == \"Uid:\" { exit !(\$2 >= 61184 && \$2 <= 65519) }' /proc/$pid/status"
check "its capabilities are exactly CAP_SYS_ADMIN and CAP_PERFMON" \
	sh -c "grep -qx 'CapEff:.0000004000200000' /proc/$pid/status && grep -qx 'CapBnd:.0000004000200000' /proc/$pid/status"
info "its mount namespace: $(readlink /proc/$pid/ns/mnt) (ours $(readlink /proc/self/ns/mnt)); mounts: $(awk '$5 ~ /^\/(sys|usr)?$/ { print $5, $6 }' /proc/$pid/mountinfo | tr '\n' ';')"
# What it could do to sysfs, tried as it: its uid, in its mount namespace.
# systemd 252 also mounts /sys read-only there (ProtectKernelTunables=);
# 257 leaves it read-write, and file permissions alone keep it out.
uid=$(awk '$1 == "Uid:" { print $2 }' /proc/$pid/status)
as_daemon() {
	nsenter -t $pid -m -- setpriv --reuid=$uid --regid=$uid --clear-groups \
		--inh-caps=-all sh -c "$1" 2>&1
}
runtime_writable() {
	local out
	out=$(as_daemon 'echo x > /run/clearpaged/e2e-probe && rm /run/clearpaged/e2e-probe') &&
		[ -z "$out" ]
}
sysfs_refused() {
	as_daemon 'echo 0 > /sys/kernel/clearpage/node0/pinned_huge' |
		grep -Eq 'Permission denied|Read-only file system'
}
check "as it, its runtime directory is writable (the probe works)" runtime_writable
check "as it, a sysfs write is refused (uid $uid, its mount namespace)" sysfs_refused
case "$(systemctl --version | awk 'NR == 1 { print $2 }')" in
25[0-5])
	check "sysfs is read-only for it (systemd before 256)" \
		sh -c "awk '\$5 == \"/sys\" { print \$6 }' /proc/$pid/mountinfo | grep -q '^ro'" ;;
esac
check "no writable path under /sys/kernel/clearpage in the unit" \
	sh -c "! systemctl show -P ReadWritePaths clearpaged | grep -q /sys/kernel/clearpage"

# Stop returns what the daemon changed to the default.
start_load
T=120 check "the daemon switches node 0 again" until_ok daemon_set_node0
info "before stop: node 0 $(current_strategy 0) ($(source_of 0))"
stop_load
check "systemctl stop" systemctl stop clearpaged
check "stop returned node 0 to kernel" test "$(current_strategy 0)" = kernel

check "systemd-analyze security: exposure at most 1.5" sh -c \
	"systemd-analyze security clearpaged.service | tee /tmp/security.txt | tail -n 1 | awk '{ for (i = 1; i <= NF; i++) if (\$i ~ /^[0-9.]+\$/) v = \$i } END { exit !(v <= 1.5) }'"
info "security: $(tail -n 1 /tmp/security.txt)"
# README's "Upgrade", "Undo" and "Removed", in that order, on the running
# service: a newer clearpaged over the running daemon, clearpagectl reset,
# disable --now and unload, then purge. What the administrator wrote stays.
printf '[Daemon]\nLogLevel=info\n' > /etc/clearpaged.conf.d/50-admin.conf
systemctl start clearpaged
until_ok test "$(systemctl is-active clearpaged)" = active
pid_before=$(prop MainPID)
restarted() { test "$(systemctl is-active clearpaged)" = active && test "$(prop MainPID)" != "$pid_before"; }
check "upgrade: apt installs a newer clearpaged over the running daemon" \
	sh -c "apt-get install -y -q --no-install-recommends /usr/local/lib/clearpage-e2e/upgrade/clearpaged_*.deb >/tmp/upgrade.log 2>&1"
check "upgrade: the new version is installed ($(dpkg-query -W -f '${Version}' clearpaged))" \
	sh -c "dpkg-query -W -f '\${Version}' clearpaged | grep -q '+e2e1\$'"
check "upgrade: the running daemon was restarted on it" until_ok restarted
info "upgrade: $(grep -v '^\(Get\|Reading\|Building\)' /tmp/upgrade.log | tail -n 6 | tr '\n' '|') daemon $(systemctl is-active clearpaged), pid $pid_before -> $(prop MainPID); journal: $(journalctl -u clearpaged -n 12 --no-pager -o cat | tr '\n' '|')"
check "upgrade: the loaded module stays loaded" test -d $CP
clearpagectl set 0 movnti --backend huge
check "README: clearpagectl reset" sh -c "clearpagectl reset >/tmp/reset.out"
all_reset() {
	test "$(grep -c -- '-> kernel, not pinned' /tmp/reset.out)" = 4 &&
		test "$(current_strategy 0)" = kernel &&
		test "$(cat $CP/node0/pinned $CP/node1/pinned)" = "$(printf '0\n0')"
}
check "reset: every backend on kernel, unpinned ($(tr '\n' '|' </tmp/reset.out))" all_reset
check "reset: the daemon leaves them alone (journal)" \
	until_ok sh -c "journalctl -u clearpaged --no-pager | grep -q 'node 0 reset to kernel by clearpagectl: leaving it alone'"
check "README: systemctl disable --now clearpaged" systemctl disable --now clearpaged
check "disabled and stopped" sh -c "test \$(systemctl is-enabled clearpaged) = disabled && ! systemctl -q is-active clearpaged"
check "its runtime state is gone (clearpagectl status: not running)" \
	sh -c "clearpagectl status | grep -q '^clearpaged: not running'"
check "README: clearpagectl unload" clearpagectl unload
check "the module and its livepatch are gone" test ! -e $CP -a ! -e /sys/kernel/livepatch/clearpage
# Purged straight from running, as README's last step also works: the
# daemon running and the module loaded.
systemctl start clearpaged
check "purge from running: the daemon runs and the module is loaded" \
	until_ok sh -c "systemctl -q is-active clearpaged && test -d $CP"
dpkg -L clearpaged clearpage-dkms clearpage-bench 2>/dev/null | while read -r f; do
	[ -f "$f" ] && echo "$f"
done >/tmp/package-files
info "the packages installed $(wc -l </tmp/package-files) files"
purge_start=$(date +%s)
check "README: apt-get purge clearpaged clearpage-dkms clearpage-bench" \
	sh -c "apt-get purge -y -q clearpaged clearpage-dkms clearpage-bench >/tmp/purge.log 2>&1"
info "purge: $(grep -iE 'remov|purg|dkms' /tmp/purge.log | head -n 8 | tr '\n' '|')"
check "purge: the daemon was stopped" sh -c "! systemctl -q is-active clearpaged"
# journald may take a moment to store the daemon's last line; look at
# everything since the purge began, not a fixed number of lines.
stopped_since() {
	journalctl -u clearpaged --no-pager -o cat --since "@$purge_start" | grep -qx stopped
}
if T=15 until_ok stopped_since; then
	pass "purge: the daemon stopped cleanly (journal)"
else
	fail "purge: the daemon stopped cleanly (journal)"
	info "purge: journal: $(journalctl -u clearpaged --no-pager -o cat --since "@$purge_start" | tail -n 12 | tr '\n' '|')"
fi
check "purge: the module was unloaded" test ! -d /sys/module/clearpage -a ! -e /sys/kernel/livepatch/clearpage
left() { while read -r f; do [ -e "$f" ] && echo "$f"; done </tmp/package-files; }
check "purge: no file the packages installed is left ($(left | head -n 5 | tr '\n' ' '))" \
	test -z "$(left)"
check "purge: no module built by DKMS is left" \
	sh -c "test -z \"\$(find /lib/modules /var/lib/dkms -name 'clearpage*' 2>/dev/null)\""
check "purge: the drop-in directories' READMEs are gone, the admin's drop-in stays" \
	test ! -e /etc/clearpaged.conf.d/README -a -f /etc/clearpaged.conf.d/50-admin.conf
check "purge: no unit, no runtime state" \
	test ! -e /lib/systemd/system/clearpaged.service -a ! -e /usr/lib/systemd/system/clearpaged.service -a ! -e /run/clearpaged

check "no kernel warning in this boot" sh -c "! journalctl -k --no-pager | grep -qE 'WARNING:|BUG:|Oops|Call Trace'"
