# Booted with Debian's default init_on_alloc=1: the allocator zeroes every
# page itself. The 4k backend stays off and says why; the huge backend skips
# the second clear of fresh THPs and counts it; hugetlb pages, recycled through
# the hugetlb pool, are still cleared; every byte reads zero.
if ! load_module clearpage; then
	fail "insmod clearpage.ko"
	return 0
fi
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
check "booted with init_on_alloc on" sh -c "! grep -q 'init_on_alloc=0' /proc/cmdline"
avail=$(strategies)

for s in $avail; do
	set_all $s
	for n in $(nodes); do
		pre=$(stat_value $n pages_huge_prezeroed)
		huge=$(stat_value $n pages_huge_$s)
		out=$(cptest fault --kind thp --node $n --mb 16 --rounds 2 --dirty 2>&1)
		check "$s node$n thp: $out" test $? -eq 0
		skipped_now=$(( $(stat_value $n pages_huge_prezeroed) - pre ))
		cleared_now=$(( $(stat_value $n pages_huge_$s) - huge ))
		if [ $s = kernel ]; then
			check "kernel node$n: THPs cleared as the kernel does (cleared $cleared_now, skipped $skipped_now)" \
				test $skipped_now -eq 0 -a $cleared_now -ge 8192
		else
			check "$s node$n: second clear of THPs skipped and counted ($skipped_now)" \
				test $skipped_now -ge 8192
		fi

		huge=$(stat_value $n pages_huge_$s)
		out=$(cptest fault --kind hugetlb --node $n --mb 16 --rounds 2 --dirty --dontneed 2>&1)
		check "$s node$n hugetlb: $out" test $? -eq 0
		check "$s node$n: hugetlb pages still cleared ($(( $(stat_value $n pages_huge_$s) - huge )))" \
			test $(( $(stat_value $n pages_huge_$s) - huge )) -ge 16384

		out=$(cptest fault --kind 4k --node $n --mb 16 --dirty --dontneed --fork 2>&1)
		check "$s node$n 4k: $out" test $? -eq 0
		check "$s node$n: the 4k backend cleared nothing" test "$(stat_value $n pages_4k_$s)" -eq 0
	done
	check "$s: 4k inactive, reason given" \
		grep -qx '4k inactive: init_on_alloc=1 (the page allocator zeroes every page; boot with init_on_alloc=0 to enable)' $CP/backends
	check "$s: no kprobe armed" sh -c "! grep -q vma_alloc_folio /sys/kernel/debug/kprobes/list"
done
check "clearpagectl unload" clearpagectl unload
