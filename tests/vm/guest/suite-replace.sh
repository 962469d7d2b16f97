# A livepatch in replace mode (kpatch, a vendor's cumulative patch) loaded
# after clearpage: it replaces clearpage's livepatch without calling its
# unpatch callback. The 4k backend's kretprobe must be disarmed for the
# other patch's transition (on 6.1 the reliable unwinder WARNs about a
# kretprobe return address on a task stack, and the VM panics on a WARN),
# `backends` must say that huge folios are back on the kernel's clear, and
# every page must still read zero. Booted with init_on_alloc=0.

# wait_for SECONDS COMMAND...: until COMMAND succeeds.
wait_for() {
	t=$(($1 * 10))
	shift
	while ! "$@" 2>/dev/null; do
		t=$((t - 1))
		[ $t -gt 0 ] || return 1
		sleep 0.1
	done
}
no_transition() { test "$(cat /sys/kernel/livepatch/$1/transition)" = 0; }

if ! load_module clearpage; then
	fail "insmod clearpage.ko"
	return 0
fi
set_all movq
check "before: 4k active" grep -qx "4k active" $CP/backends
check "before: huge active" grep -qx "huge active" $CP/backends

# Faults keep coming, each page checked, while the other patch transitions.
cptest fault --kind 4k --node 0 --mb 16 --seconds 20 --dirty --dontneed >/tmp/bg-4k.out 2>&1 &
bg_4k=$!
cptest fault --kind thp --node 1 --mb 16 --seconds 20 --dirty --dontneed >/tmp/bg-thp.out 2>&1 &
bg_thp=$!
sleep 2
check "a replace-mode livepatch loads over clearpage's" insmod /modules/klp_replace.ko
check "its transition completes" wait_for 60 no_transition klp_replace
check "it is in effect" grep -q "klp_replace is in effect" /proc/cmdline
check "clearpage disarmed the 4k probe before its transition" \
	sh -c "dmesg | grep -q 'livepatch klp_replace is loading: the 4k backend is disarmed'"
check "clearpage's livepatch is gone" wait_for 30 test ! -e /sys/kernel/livepatch/clearpage
check "backends: huge folios are back on the kernel's clear, and why" \
	wait_for 10 grep -qx "huge inactive: livepatch replaced by klp_replace (replace mode); reload clearpage to restore" $CP/backends
check "the kernel log says so" sh -c "dmesg | grep -q \"livepatch klp_replace replaced clearpage's\""
check "backends: the 4k probe is armed again once no transition runs" \
	wait_for 10 grep -qx "4k active" $CP/backends
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
check "4 KiB pages still pass through clearpage" test "$(stat_value 0 pages_4k_movq)" -gt "$k0"

check "clearpagectl unload removes clearpage" clearpagectl unload
check "no clearpage left" test ! -e $CP
check "the other livepatch can be disabled" sh -c "echo 0 > /sys/kernel/livepatch/klp_replace/enabled"
check "and removed" wait_for 60 rmmod klp_replace
