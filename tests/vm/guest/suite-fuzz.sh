# The module's ABI fuzzed while faults run on both nodes, with the vCPUs
# in parallel (run-all.sh boots it with multi-threaded TCG): generic
# netlink messages (nltest fuzz: half random - every command and more,
# random attributes, lengths and types, truncated and oversized - half
# well formed, with valid node ids and harmless values, CALIBRATE among
# them) and random writes to every writable sysfs file of every node
# (cptest sysfs-fuzz), as an unprivileged user, as root without
# CAP_SYS_ADMIN (so that the module's own capability checks are what
# refuses) and as root. Every well-formed change without the capability
# is -EPERM, nothing it sends changes anything, root's are accepted; a
# refused request changes nothing; the kernel log stays clean
# (panic_on_warn) and every page faulted meanwhile reads zero.
#
# The test build with a real CPU's probe calibration, so that the probe
# mode can be turned on and the touch probe holds pages while the fuzz
# changes strategies and modes under them. First, what a reader without
# the capability sees: the choices, never the counters, and without a
# lock that a change takes. Booted with init_on_alloc=0 and hugetlb pages.
P=/sys/module/clearpage/parameters
state() {
	for n in $(nodes); do
		for f in strategy_4k strategy_huge pinned_4k pinned_huge trials_4k trials_huge probe_huge gigantic_helpers; do
			printf '%s ' "$(cat $CP/node$n/$f)"
		done
	done
}
as_nobody() { su -s /bin/sh nobody -c "$*"; }
field() { echo "$2" | sed -n "s/.*[ ^]$1=\([0-9]*\).*/\1/p;s/^$1=\([0-9]*\).*/\1/p" | head -n 1; }

if ! load_module clearpage-test "testing=1"; then
	fail "insmod clearpage-test.ko testing=1"
	return 0
fi
echo 1 > $P/test_probe_calibration
for n in $(nodes); do echo 1 > $CP/node$n/calibrate; done
echo 0 > $P/touch_shift
echo 5 > $P/touch_delay_ms
info "vCPUs: $(nproc); strategies: $(strategies)"
check "node0's probe calibration can tell a cached line (the test calibration)" \
	test "$(awk '$1 == "threshold_ticks" { print $2 }' $CP/node0/probe_calibration)" -gt 0
check "so the probe mode can be turned on" sh -c "echo 'rep_stosb movnti' > $CP/node0/probe_huge"
echo off > $CP/node0/probe_huge
set_all movnti
echo 0 > $CP/node1/pinned

# What anyone may read, and what not.
for f in stats probe_calibration calibration_4k calibration_huge; do
	check "node0/$f is root's alone (0400)" test "$(stat -c %a $CP/node0/$f)" = 400
	check "nobody cannot read node0/$f" sh -c "! su -s /bin/sh nobody -c 'cat $CP/node0/$f' >/dev/null 2>&1"
done
for f in strategy_4k strategy_huge pinned_4k pinned_huge trials_4k probe_huge gigantic_helpers; do
	check "nobody reads node0/$f" test "$(as_nobody cat $CP/node0/$f)" = "$(cat $CP/node0/$f)"
done
as_nobody clearpagectl status >/tmp/nb-status 2>&1
rc=$?
info "clearpagectl status as nobody: $(tr '\n' '|' < /tmp/nb-status)"
check "clearpagectl status as nobody exits 0" test $rc -eq 0
check "and says what it cannot show and why" \
	grep -q 'counters and calibrations not shown: they need CAP_PERFMON or CAP_SYS_ADMIN' /tmp/nb-status
check "and shows each backend's strategy" grep -q '^  4k    movnti, not pinned' /tmp/nb-status
as_nobody clearpagectl status --json >/tmp/nb-json
clearpagectl status --json >/tmp/root-json
emit_json status /tmp/nb-json
emit_json status /tmp/root-json
check "nobody's JSON: the choices, no counter, no calibration" sh -c \
	"grep -q '\"node\":1,\"counters\":false' /tmp/nb-json && grep -q '\"strategy\":\"movnti\"' /tmp/nb-json && ! grep -Eq 'latency_ns|touch_cached|hot_ns|probe_calibration|pages_4k|reference_pages' /tmp/nb-json"
check "root's JSON: the counters and calibrations" sh -c \
	"grep -q '\"node\":1,\"counters\":true' /tmp/root-json && grep -q latency_ns /tmp/root-json && grep -q touch_cached /tmp/root-json && grep -q probe_calibration /tmp/root-json"

# Nobody's read takes no lock a change takes: it answers while the test
# hook holds node 0's calibration_lock and clearpage_lock (the log says
# when they are held), and a root reader, which takes them, waits.
echo 30000 > $P/test_hold_locks_ms &
holder=$!
if wait_for 20 sh -c "dmesg | grep -q 'test: holding calibration_lock and clearpage_lock'"; then
	clearpagectl status --json >/tmp/root-status 2>&1 &
	root_reader=$!
	as_nobody clearpagectl status --json >/tmp/nb-locked 2>&1
	rc=$?
	check "nobody's status answers while the locks are held" \
		sh -c "test $rc -eq 0 && grep -q '\"node\":1,\"counters\":false' /tmp/nb-locked"
	check "the locks were still held when it answered" kill -0 $holder
	check "and root's status, which takes them, was still waiting" kill -0 $root_reader
	wait $holder
	wait $root_reader
	check "root's status answered once they were released" \
		grep -q '"counters":true' /tmp/root-status
else
	fail "the test hook never said it held the locks"
	wait $holder
fi

# Until the fuzz is over (SIGTERM ends them).
background_faults /tmp/fz 900
touched_before=$(( $(stat_value 0 touch_probed_4k) + $(stat_value 1 touch_probed_4k) ))

count=${CPVM_FUZZ:-2500}
before=$(state)
for who in "nobody:--uid 65534" "root without CAP_SYS_ADMIN:--drop-sys-admin"; do
	whom=${who%%:*} opt=${who#*:}
	out=$(nltest fuzz --count $count --seed 11 --calibrate $count $opt)
	info "netlink fuzz as $whom: $(echo "$out" | tr '\n' ' ')"
	changes=$(field valid_changes "$out")
	check "netlink fuzz as $whom: $count sent, well-formed changes among them ($changes), CALIBRATE too" \
		sh -c "echo '$out' | grep -q '^sent=$count ' && test ${changes:-0} -gt 0 && test $(field calibrate_sent "$out") -gt 0"
	check "netlink fuzz as $whom: every well-formed change refused with EPERM, no change of any kind accepted" \
		sh -c "test $(field valid_changes_eperm "$out") = $changes && echo '$out' | grep -q 'mutating_acked=0 valid_changes=[0-9]* valid_changes_ok=0 '"
	out=$(cptest sysfs-fuzz --count $count --seed 12 $opt)
	rc=$?
	info "sysfs fuzz as $whom: $out"
	check "sysfs fuzz as $whom: every write refused, none changed anything" \
		sh -c "test $rc = 0 && echo '$out' | grep -q 'writes=$count accepted=0 refused=$count changed_by_refused=0'"
	check "nobody changed nothing" test "$(state)" = "$before"
done
check "as root without CAP_SYS_ADMIN, the module's check refused every sysfs write (EPERM)" \
	sh -c "echo '$out' | grep -q 'eperm=$count '"

out=$(nltest fuzz --count $count --seed 13 --calibrate 4)
info "netlink fuzz as root: $(echo "$out" | tr '\n' ' ')"
check "netlink fuzz as root: $count sent, 4 CALIBRATE, no EPERM" \
	sh -c "echo '$out' | grep -q '^sent=$count .*valid_changes_eperm=0 calibrate_sent=4' && ! echo '$out' | grep -q 'EPERM='"
check "netlink fuzz as root: well-formed changes accepted" \
	test "$(field valid_changes_ok "$out")" -gt 0
out=$(cptest sysfs-fuzz --count $count --seed 14)
rc=$?
info "sysfs fuzz as root: $out"
check "sysfs fuzz as root: no refused write changed anything" \
	sh -c "test $rc = 0 && echo '$out' | grep -q 'changed_by_refused=0'"
check "sysfs fuzz as root: some writes accepted and some refused, none for want of a capability" \
	sh -c "echo '$out' | grep -Eq 'accepted=[1-9][0-9]* refused=[1-9][0-9]* changed_by_refused=0 eperm=0 '"
info "state after the fuzz: $(state)"
touched=$(( $(stat_value 0 touch_probed_4k) + $(stat_value 1 touch_probed_4k) - touched_before ))
info "touch probe loads during the fuzz: $touched; held now: $(stat_value 0 touch_held) $(stat_value 1 touch_held)"
check "the touch probe ran under the fuzz" test $touched -gt 0
check "the module still answers after the fuzz" sh -c "clearpagectl status --json | grep -q '\"node\":1'"
echo off > $CP/node0/probe_huge
echo off > $CP/node1/probe_huge
clearpagectl set all rep_stosq >/dev/null
check "the module still changes as asked after the fuzz" \
	test "$(backend_strategy 0 4k) $(backend_strategy 1 huge)" = "rep_stosq rep_stosq"

for job in $fault_jobs; do kill -TERM ${job##*:}; done
wait_jobs /tmp/fz "faults during the fuzz" $fault_jobs
info "fuzz suite checked $total_pages pages"
