# Another module's livepatch beside clearpage's. A livepatch transition
# walks the stacks of tasks not running, and on 6.1 the reliable unwinder
# WARNs about a kretprobe return address on a preempted task's stack (the
# VM panics on a WARN), so no 4 KiB request may be stripped (which is what
# puts the probe's return address on a stack) while any transition runs:
#  - one started through sysfs, and one reversed, which no notifier
#    announces: the other patch is held in its unpatch transition by a
#    thread sleeping in its function while 4 KiB faults run;
#  - one started by loading a livepatch in replace mode (kpatch, a vendor's
#    cumulative patch), which also replaces clearpage's livepatch without
#    calling its unpatch callback: `backends` must say that huge folios are
#    back on the kernel's clear.
# Every page must read zero throughout. Booted with init_on_alloc=0.


if ! load_module clearpage; then
	fail "insmod clearpage.ko"
	return 0
fi
set_all movq
check "before: 4k active" grep -qx "4k active" $CP/backends
check "before: huge active" grep -qx "huge active" $CP/backends

# Transitions started and reversed through sysfs, held open while 4 KiB
# faults run: the kernel clears every page of those (nothing stripped, so
# no return address replaced), and clearpage again once they are complete.
# On 6.1 the transition's check of a task preempted in a request already
# in flight WARNs, so there the 4k backend stays off while another
# livepatch is present at all (arming.c): nothing is stripped then.
LP=/sys/kernel/livepatch/klp_other
stripped_4k() { stat_value 0 pages_4k_movq; }
stripped_since() { test "$(stripped_4k)" -gt "$1"; }
present="4k inactive: livepatch klp_other is present; on this kernel a transition it starts through sysfs could WARN at a 4 KiB request in flight (remove it to enable)"
case "$(uname -r)" in
6.1.*) off_while_present=1 ;;
*) off_while_present=0 ;;
esac
# passes_4k NAME K: 4 KiB pages go through clearpage after count K, or on
# 6.1 with the other livepatch present they do not (and backends says why).
passes_4k() {
	if [ $off_while_present = 1 ]; then
		sleep 1
		check "$1: none while the other livepatch is present (6.1)" test "$(stripped_4k)" = "$2"
		check "$1: backends says why" grep -qxF "$present" $CP/backends
	else
		check "$1" wait_for 10 stripped_since "$2"
	fi
}
check "another livepatch (not replace mode) loads beside clearpage's" \
	insmod /modules/klp_other.ko replace=0
check "its transition completes" wait_for 60 no_transition klp_other
cptest fault --kind 4k --node 0 --mb 16 --seconds 14 --dirty --dontneed >/tmp/bg-sysfs.out 2>&1 &
bg_sysfs=$!
sleep 1
k0=$(stripped_4k)
passes_4k "4 KiB pages pass through clearpage before" "$k0"
echo 1 > /sys/module/klp_other/parameters/hold
check "a thread sleeps inside the other livepatch's function" \
	wait_for 10 grep -qx Y /sys/module/klp_other/parameters/holding
check "its unpatch transition starts through sysfs" sh -c "echo 0 > $LP/enabled"
check "and is held open" test "$(cat $LP/transition)" = 1
if [ $off_while_present = 1 ]; then
	check "backends: the 4k probe stays off during it (6.1)" grep -qxF "$present" $CP/backends
else
	check "backends: the 4k probe is paused during it" \
		grep -qx "4k paused: a livepatch transition runs (4 KiB pages keep the kernel's clear until it is complete)" $CP/backends
fi
sleep 0.5
k1=$(stripped_4k)
sleep 2
check "no 4 KiB request is stripped during a transition started through sysfs ($k1 then $(stripped_4k))" \
	test "$(stripped_4k)" = "$k1"
check "the transition is reversed through sysfs" sh -c "echo 1 > $LP/enabled"
check "the reversal completes" wait_for 30 no_transition klp_other
passes_4k "4 KiB pages pass through clearpage again after it" "$k1"
check "a second unpatch transition starts through sysfs" sh -c "echo 0 > $LP/enabled"
sleep 0.5
k2=$(stripped_4k)
sleep 2
check "no 4 KiB request is stripped during it either ($k2 then $(stripped_4k))" \
	test "$(stripped_4k)" = "$k2"
echo 0 > /sys/module/klp_other/parameters/hold
check "released, the transition completes (the patch goes)" wait_for 30 test ! -e $LP
check "and the other livepatch is removed" wait_for 60 rmmod klp_other
check "backends: 4k active again" grep -qx "4k active" $CP/backends
wait $bg_sysfs
rc=$?
check "4k faults during the sysfs transitions read zero: $(tr '\n' ' ' </tmp/bg-sysfs.out)" test $rc -eq 0

# Faults keep coming, each page checked, while the other patch transitions.
cptest fault --kind 4k --node 0 --mb 16 --seconds 20 --dirty --dontneed >/tmp/bg-4k.out 2>&1 &
bg_4k=$!
cptest fault --kind thp --node 1 --mb 16 --seconds 20 --dirty --dontneed >/tmp/bg-thp.out 2>&1 &
bg_thp=$!
sleep 2
check "a replace-mode livepatch loads over clearpage's" insmod /modules/klp_other.ko replace=1
check "its transition completes" wait_for 60 no_transition klp_other
check "it is in effect" grep -q "klp_other is in effect" /proc/cmdline
check "clearpage disarmed the 4k probe before its transition" \
	sh -c "dmesg | grep -q 'livepatch klp_other is loading: the 4k backend is disarmed'"
check "clearpage's livepatch is gone" wait_for 30 test ! -e /sys/kernel/livepatch/clearpage
check "backends: huge folios are back on the kernel's clear, and why" \
	wait_for 10 grep -qx "huge inactive: livepatch replaced by klp_other (replace mode); reload clearpage to restore" $CP/backends
check "the kernel log says so" sh -c "dmesg | grep -q \"livepatch klp_other replaced clearpage's\""
if [ $off_while_present = 1 ]; then
	check "backends: the 4k probe stays off while the other livepatch is present (6.1)" \
		wait_for 10 grep -qxF "$present" $CP/backends
else
	check "backends: the 4k probe is armed again once no transition runs" \
		wait_for 10 grep -qx "4k active" $CP/backends
fi
wait $bg_4k
rc_4k=$?
wait $bg_thp
rc_thp=$?
check "4k faults during the replacement read zero: $(tr '\n' ' ' </tmp/bg-4k.out)" test $rc_4k -eq 0
check "THP faults during the replacement read zero: $(tr '\n' ' ' </tmp/bg-thp.out)" test $rc_thp -eq 0

# After: huge folios take the kernel's own clear, 4 KiB pages still
# clearpage's; every byte reads zero either way.
huge0=$(stat_value 1 pages_huge_movq)
fault "thp after the replacement" --kind thp --node 1 --mb 16 --dirty --dontneed
fault "hugetlb after the replacement" --kind hugetlb --node 1 --mb 8 --dirty
check "huge folios no longer pass through clearpage" test "$(stat_value 1 pages_huge_movq)" = "$huge0"
k0=$(stat_value 0 pages_4k_movq)
fault "4k after the replacement" --kind 4k --node 0 --mb 16 --dirty --dontneed
if [ $off_while_present = 1 ]; then
	check "4 KiB pages keep the kernel's clear while the other livepatch is present (6.1)" \
		test "$(stat_value 0 pages_4k_movq)" = "$k0"
else
	check "4 KiB pages still pass through clearpage" test "$(stat_value 0 pages_4k_movq)" -gt "$k0"
fi

check "clearpagectl unload removes clearpage" clearpagectl unload
check "no clearpage left" test ! -e $CP
check "the other livepatch can be disabled" sh -c "echo 0 > /sys/kernel/livepatch/klp_other/enabled"
check "and removed" wait_for 60 rmmod klp_other
