# Booted with Debian's default init_on_alloc=1: the allocator zeroes every
# page itself. The 4k backend stays off and says why; every byte reads zero.
# 6.1 and 6.12: the huge backend skips the second clear of fresh THPs and
# counts it; hugetlb pages, recycled through the hugetlb pool, are still
# cleared.
# 7.x: THP and mTHP faults never reach folio_zero_user(); the huge backend
# clears them in the allocator (clear_highpages_kasan_tagged()) with the
# node's strategy, over garbage left in freed memory, the faulting subpage
# last for a 2 MiB THP; a test build that skips that clear is caught.
if ! load_module clearpage; then
	fail "insmod clearpage.ko"
	return 0
fi
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
check "booted with init_on_alloc on" sh -c "! grep -q 'init_on_alloc=0' /proc/cmdline"
avail=$(strategies)
alloc=0
grep -q '^huge clear_highpages_kasan_tagged patched: THP and mTHP faults' $CP/paths && alloc=1
case "$(uname -r)" in
6.*)	check "6.x: the huge folio clear covers THP, nothing patched in the allocator" \
		sh -c "grep -Eq '^huge (clear_huge_page|folio_zero_user) patched: hugetlb faults, hugetlbfs fallocate, THP and mTHP faults' $CP/paths && ! grep -q clear_highpages $CP/paths" ;;
*)	check "7.x: the allocator's clear is patched and covers THP and mTHP faults" test $alloc = 1
	check "7.x: the fault handler's address is known for 2 MiB THP" \
		grep -q 'fault locality: 2 MiB THP' $CP/paths
	check "7.x: folio_zero_user covers hugetlb only" \
		grep -qx 'huge folio_zero_user patched: hugetlb faults, hugetlbfs fallocate' $CP/paths ;;
esac
info "paths: $(tr '\n' '|' < $CP/paths)"
# clearpagectl check says which pages clearpage clears under init_on_alloc=1.
clearpagectl check > /tmp/check.out 2>&1
info "check: $(grep -E 'init_on_alloc|huge-pages' /tmp/check.out | tr '\n' '|')"
case "$(uname -r)" in
6.*)	check "check, 6.x: hugetlb pages only, THP zeroed by the allocator" sh -c \
		"grep -q '^ok    init_on_alloc 1 (the module): on 6\.[0-9]* clearpage clears hugetlb pages only' /tmp/check.out &&
		 grep -q '^ok    huge-pages    THP [a-z]* (zeroed by the allocator: init_on_alloc=1 on 6\.[0-9]*), hugetlb pages: 32 of 2 MiB\$' /tmp/check.out" ;;
*)	check "check, 7.x: huge pages, hugetlb and THP" \
		grep -q '^ok    init_on_alloc 1 (the module): clearpage clears huge pages only (hugetlb and THP)' /tmp/check.out ;;
esac

# huge_pages NODE STRATEGY: the node's huge pages cleared with STRATEGY,
# reference folios (the kernel's clear, timed) included.
huge_pages() {
	echo $(( $(stat_value $1 pages_huge_$2) + $(stat_value $1 reference_pages_huge) ))
}

for s in $avail; do
	set_all $s
	for n in $(nodes); do
		pre=$(stat_value $n pages_huge_prezeroed)
		huge=$(huge_pages $n $s)
		own=$(stat_value $n pages_huge_$s)
		ranges=$(stat_value $n ranges_huge_$s)
		out=$(cptest fault --kind thp --node $n --mb 16 --rounds 2 --dirty --fault-at middle 2>&1)
		check "$s node$n thp, fault in the middle: $out" test $? -eq 0
		skipped_now=$(( $(stat_value $n pages_huge_prezeroed) - pre ))
		cleared_now=$(( $(huge_pages $n $s) - huge ))
		if [ $s = kernel ] || [ $alloc = 1 ]; then
			check "$s node$n: THPs cleared with $s (cleared $cleared_now, skipped $skipped_now)" \
				test $skipped_now -eq 0 -a $cleared_now -ge 8192
		else
			check "$s node$n: second clear of THPs skipped and counted ($skipped_now)" \
				test $skipped_now -ge 8192
		fi
		if [ $alloc = 1 ] && [ $s != kernel ]; then
			# With the fault known a 2 MiB folio is two or three
			# ranges (the extents around the faulting subpage, which
			# comes last); without, one (huge_chunk_kb 2048).
			folios=$(( ($(stat_value $n pages_huge_$s) - own) / 512 ))
			ranges_now=$(( $(stat_value $n ranges_huge_$s) - ranges ))
			check "$s node$n: the faulting subpage cleared last ($ranges_now ranges for $folios folios)" \
				test $folios -ge 16 -a $ranges_now -ge $((2 * folios))
		fi

		huge=$(huge_pages $n $s)
		out=$(cptest fault --kind hugetlb --node $n --mb 16 --rounds 2 --dirty --dontneed 2>&1)
		check "$s node$n hugetlb: $out" test $? -eq 0
		check "$s node$n: hugetlb pages still cleared ($(( $(huge_pages $n $s) - huge )))" \
			test $(( $(huge_pages $n $s) - huge )) -ge 16384

		out=$(cptest fault --kind 4k --node $n --mb 16 --dirty --dontneed --fork 2>&1)
		check "$s node$n 4k: $out" test $? -eq 0
		check "$s node$n: the 4k backend cleared nothing" test "$(stat_value $n pages_4k_$s)" -eq 0
	done
	check "$s: 4k inactive, reason given" \
		grep -qx '4k inactive: init_on_alloc=1 (the page allocator zeroes every page; boot with init_on_alloc=0 to enable)' $CP/backends
	check "$s: no kprobe armed" sh -c "! grep -q vma_alloc_folio /sys/kernel/debug/kprobes/list"
done

# mTHP (64 KiB) through the allocator's clear, on 7.x.
MTHP=/sys/kernel/mm/transparent_hugepage
if [ $alloc = 1 ] && [ -d $MTHP/hugepages-64kB ]; then
	echo never > $MTHP/hugepages-2048kB/enabled
	echo always > $MTHP/hugepages-64kB/enabled
	for s in $avail; do
		set_all $s
		huge=$(huge_pages 1 $s)
		out=$(cptest fault --kind thp --node 1 --mb 8 --dirty --fault-at random 2>&1)
		check "$s 64 KiB mTHP: $out" test $? -eq 0
		check "$s 64 KiB mTHP cleared by the huge backend ($(( $(huge_pages 1 $s) - huge )))" \
			test $(( $(huge_pages 1 $s) - huge )) -ge 2048
	done
	echo never > $MTHP/hugepages-64kB/enabled
	echo inherit > $MTHP/hugepages-2048kB/enabled
fi
check "clearpagectl unload" clearpagectl unload

# Negative control on 7.x: a test build whose movq clears nothing for
# cptest-victim; the THP check over garbage must catch the allocator's
# clear skipped.
if [ $alloc = 1 ] && [ ! -f /modules/clearpage-test.ko ]; then
	skip "the allocator's clear skipped by a test build: no test build given (run-vm.sh --module-test)"
elif [ $alloc = 1 ]; then
	if load_module clearpage-test testing=1; then
		set_all movq
		out=$(cptest fault --kind thp --node 0 --mb 8 --dirty --victim --fault-at middle 2>&1)
		rc=$?
		info "broken movq thp, init_on_alloc=1: $(echo "$out" | tr '\n' ' ')"
		check "the THP check catches a missed clear in the allocator" test $rc -eq 1
		check "clearpagectl unload (test build)" clearpagectl unload
	else
		fail "insmod clearpage-test.ko testing=1"
	fi
fi

# A 7.x kernel without the allocator's clear function (a test build told to
# look for another name): the module loads with that path off, says so,
# and THP stay with the allocator's own clear, every byte zero.
if [ $alloc = 1 ] && [ -f /modules/clearpage-test.ko ]; then
	if load_module clearpage-test "testing=1 test_alloc_clear_symbol=clearpage_no_such_function"; then
		check "without the allocator's clear the module loads, and paths says why" \
			grep -Eqx "huge clearpage_no_such_function not found \(error -[0-9]+\): THP and mTHP faults keep the allocator's clear" $CP/paths
		set_all rep_stosb
		check "and backends says the huge backend leaves THP and mTHP to the allocator" \
			grep -Eqx "huge active: not for THP and mTHP, which the allocator clears \(clearpage_no_such_function not found, error -[0-9]+\)" $CP/backends
		check "nothing of it patched: the livepatch has only the huge folio clear" \
			test "$(ls /sys/kernel/livepatch/clearpage/vmlinux | grep -c ',')" = 1
		out=$(cptest fault --kind thp --node 0 --mb 8 --dirty --fault-at middle 2>&1)
		check "THP over garbage, the allocator's own clear: $out" test $? -eq 0
		check "no page went through an allocator's clear of clearpage's" \
			test "$(stat_value 0 pages_huge_allocator)" -eq 0
		huge=$(huge_pages 1 rep_stosb)
		out=$(cptest fault --kind hugetlb --node 1 --mb 8 --dirty 2>&1)
		check "hugetlb still through folio_zero_user: $out" test $? -eq 0
		check "hugetlb pages cleared with rep_stosb" test $(( $(huge_pages 1 rep_stosb) - huge )) -ge 2048
		check "clearpagectl unload (no allocator clear)" clearpagectl unload
	else
		fail "insmod clearpage-test.ko with test_alloc_clear_symbol"
	fi
fi
