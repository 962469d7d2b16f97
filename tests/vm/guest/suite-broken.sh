# Negative control: a test build of the module whose movq strategy clears
# nothing for cptest-victim, in its single-page and its range form. The
# zero-page checks must catch it, or they prove nothing. Then the
# calibration self-test must refuse a routine that leaves bytes behind.
# The test build never loads by accident: only with testing=1.
check "the test build refuses to load without testing=1" \
	sh -c "! insmod /modules/clearpage-test.ko"
check "and says why" sh -c "dmesg | grep -q 'this is a test build of clearpage.ko.*testing=1'"
# Kernel series nobody tested: refused unless the administrator says so.
check "a kernel series other than 6.1, 6.12 and 7.3 is refused" \
	sh -c "! insmod /modules/clearpage-test.ko testing=1 test_kernel_version=6.6"
check "the refusal says how to load anyway" \
	sh -c "dmesg | grep -q 'kernel 6.6 is not a tested series.*allow_untested_kernel=1'"
check "nothing left after the refusal" test ! -e $CP -a ! -e /sys/kernel/livepatch/clearpage
check "allow_untested_kernel=1 loads it" \
	load_module clearpage-test "testing=1 test_kernel_version=6.6 allow_untested_kernel=1"
check "with a warning in the kernel log" \
	sh -c "dmesg | grep -q 'loading because allow_untested_kernel=1'"
check "clearpagectl unload" clearpagectl unload
if ! load_module clearpage-test testing=1; then
	fail "insmod clearpage-test.ko"
	return 0
fi
set_all movq
for kind in 4k thp hugetlb; do
	out=$(cptest fault --kind $kind --node 0 --mb 8 --dirty --victim 2>&1)
	rc=$?
	info "broken movq $kind: $(echo "$out" | tr '\n' ' ')"
	check "the $kind check catches a missed clear" test $rc -eq 1
done
# The range form with small chunks and the fault in the middle of the folio:
# the extents left and right of it and the neighbourhood are all broken.
echo 64 > /sys/module/clearpage/parameters/huge_chunk_kb
out=$(cptest fault --kind hugetlb --node 1 --mb 8 --dirty --victim --fault-at middle 2>&1)
rc=$?
info "broken movq hugetlb, 64K chunks, fault in the middle: $(echo "$out" | tr '\n' ' ')"
check "the range check catches a missed chunk" test $rc -eq 1
echo 2048 > /sys/module/clearpage/parameters/huge_chunk_kb

# Timed regions run preemptible. Without a stable TSC one that migrated may
# end before it began (test_clock_back_ns: every one ends 1000 s early):
# no sample and no wrapped time sum, and every page still counted.
# counted_pages NODE: every page the node's stats count as cleared.
counted_pages() {
	awk '$1 ~ /^(pages|trial_pages)_(4k|huge)_/ && $1 !~ /prezeroed|allocator/ { s += $2 }
	     $1 ~ /^reference_pages_/ { s += $2 } END { printf "%d\n", s }' $CP/node$1/stats
}
before=$(counted_pages 0)
echo 0 > /sys/module/clearpage/parameters/sample_shift
echo 1000000000000 > /sys/module/clearpage/parameters/test_clock_back_ns
fault "4k, the clock behind" --kind 4k --node 0 --mb 8
fault "THP, the clock behind" --kind thp --node 0 --mb 8
echo 0 > /sys/module/clearpage/parameters/test_clock_back_ns
echo 6 > /sys/module/clearpage/parameters/sample_shift
check "a clock that went backwards wraps no time sum ($(grep -E '^(sample_ns|trial_ns|reference_sample_ns)_' $CP/node0/stats | awk '$2 > 0' | tr '\n' ' '))" \
	awk '$1 ~ /^(sample_ns|trial_ns|reference_sample_ns)_/ && $2 > 1e15 { bad = 1 } END { exit bad }' $CP/node0/stats
check "and every page is still counted ($before before, $(counted_pages 0) after)" \
	test "$(counted_pages 0)" -ge $((before + 4096))

# The self-test: movq's self-test clear now skips the pool. A set of movq
# races the calibration that refuses it: held after its check that movq is
# usable until the calibration refused it (test_set_wait_ms), it must not
# install the routine once the nodes were moved off it.
echo 1 > /sys/module/clearpage/parameters/test_break_self_test
echo 60000 > /sys/module/clearpage/parameters/test_set_wait_ms
(cptest write $CP/node1/strategy --data movq --expect EINVAL > /tmp/race.out 2>&1; echo $? > /tmp/race.rc) &
race=$!
sleep 0.5
check "calibrate still succeeds" sh -c "echo 1 > $CP/node0/calibrate"
wait $race
echo 0 > /sys/module/clearpage/parameters/test_set_wait_ms
check "movq is refused: gone from available_strategies" sh -c "! grep -qw movq $CP/available_strategies"
check "a set of movq racing its refusal is refused too ($(cat /tmp/race.out | tr '\n' ' '))" \
	test "$(cat /tmp/race.rc)" = 0
check "every node that ran movq is back on kernel" \
	test "$(current_strategy 0) $(current_strategy 1)" = "kernel kernel"
check "selecting movq is refused" cptest write $CP/node1/strategy --data movq --expect EINVAL
check "the kernel log names the refused routine" sh -c "dmesg | grep -q 'movq left [0-9]* bytes'"
check "movq is gone from calibration" sh -c "! grep -q '^movq ' $CP/node0/calibration_4k"
check "clearpagectl unload" clearpagectl unload
