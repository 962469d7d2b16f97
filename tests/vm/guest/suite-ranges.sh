# The huge backend clears folios as ranges: every strategy, with the fault
# at the first, a middle, the last and a random subpage, over memory filled
# with a pattern first (a missed chunk or neighbourhood shows as non-zero
# bytes); chunk boundaries; the counters show one range operation per chunk
# and not per 4 KiB; mTHP orders (6.12); 1 GiB hugetlb pages; the chunk
# parameter; the huge calibration. Booted with init_on_alloc=0, two nodes
# of 2 GiB (room for a 1 GiB page) and 32 2 MiB hugetlb pages.
PARAM=/sys/module/clearpage/parameters/huge_chunk_kb

# huge_counts NODE STRATEGY: "pages ranges" of the huge backend, less those
# of the allocator's clear (7.x: the kernel's own allocations of 16 KiB and
# more that it zeroes go through the same strategy, at any time).
# One read of the stats file, so that the two agree.
huge_counts() {
	awk -v s=$2 '
		$1 == "pages_huge_" s { p = $2 }
		$1 == "ranges_huge_" s { r = $2 }
		$1 == "pages_huge_allocator" { pa = $2 }
		$1 == "ranges_huge_allocator" { ra = $2 }
		END { print p - pa, r - ra }' $CP/node$1/stats
}
# The kernel's own clear of a 2 MiB folio faulted in the middle: the 6.x
# walk is one operation per subpage, the 7.x extents three.
case "$(uname -r)" in
6.*) kernel_ops=512 kernel_clear="the kernel's walk" ;;
*) kernel_ops=3 kernel_clear="the kernel's three extents" ;;
esac

# reference_shift=0: every folio takes the range path, so the counts are
# exact. (Reference folios are walked as kernel walks; the stress suite
# checks their bytes with the default share.)
if ! load_module clearpage reference_shift=0; then
	fail "insmod clearpage.ko"
	return 0
fi
avail=$(strategies)
info "strategies: $avail; 2 MiB hugetlb pages: $(cat /proc/sys/vm/nr_hugepages)"

# 1. The chunk parameter.
check "huge_chunk_kb defaults to 2048" test "$(cat $PARAM)" = 2048
for bad in 0 3 6 32772 65536 x -4 ''; do
	check "huge_chunk_kb refuses '$bad'" sh -c "! echo '$bad' > $PARAM 2>/dev/null"
done
check "huge_chunk_kb kept 2048 after refused writes" test "$(cat $PARAM)" = 2048
for good in 4 32768 64; do
	check "huge_chunk_kb accepts $good" sh -c "echo $good > $PARAM && test \"\$(cat $PARAM)\" = $good"
done

# 2. Every strategy and fault position, 64 KiB chunks so that every folio
# has many chunk boundaries, then whole 2 MiB chunks.
for chunk in 64 2048; do
	echo $chunk > $PARAM
	for s in $avail; do
		set_all $s || fail "select $s"
		for at in first middle last random; do
			fault "chunk ${chunk}K $s thp, fault at $at" --kind thp --node 0 --mb 8 --dirty --fault-at $at
			fault "chunk ${chunk}K $s hugetlb, fault at $at" --kind hugetlb --node 1 --mb 8 --dirty --fault-at $at
		done
		fault "chunk ${chunk}K $s hugetlbfs fallocate" --kind hugetlbfs --node 1 --mb 8 --dirty
	done
done

# 3. One range operation per chunk. A 2 MiB folio faulted at its first
# subpage is the extent [3, 512) in chunks, then [0, 3); at subpage 257:
# [260, 512), [0, 255) and [255, 260). With 64 KiB (16-page) chunks both
# are 33 operations; with 2 MiB chunks 2 and 3. kernel: one per subpage on
# 6.x, one per extent on 7.x.
ranges_per_folio() {
	s=$1 at=$2 chunk=$3 expected=$4
	echo $chunk > $PARAM
	set_all $s
	set -- $(huge_counts 0 $s); p0=$1 r0=$2
	cptest fault --kind hugetlb --node 0 --mb 16 --fault-at $at >/dev/null
	set -- $(huge_counts 0 $s)
	folios=$((($1 - p0) / 512))
	info "$s, fault at $at, ${chunk}K chunks: $folios folios, $(($2 - r0)) range operations"
	[ $folios -eq 8 ] && [ $(($2 - r0)) -eq $((folios * expected)) ]
}
check "rep_stosb 64K chunks, fault at the first subpage: 33 operations per folio" ranges_per_folio rep_stosb first 64 33
check "rep_stosb 64K chunks, fault in the middle: 33 operations per folio" ranges_per_folio rep_stosb middle 64 33
check "rep_stosb 2M chunks, fault at the first subpage: 2 operations per folio" ranges_per_folio rep_stosb first 2048 2
check "rep_stosb 2M chunks, fault in the middle: 3 operations per folio" ranges_per_folio rep_stosb middle 2048 3
# 4 KiB chunks: [0, 509), then [509, 512), one operation per subpage.
check "movq 4K chunks, fault at the last subpage: 512 operations per folio" ranges_per_folio movq last 4 512
check "kernel keeps $kernel_clear: $kernel_ops operations per folio" ranges_per_folio kernel middle 2048 $kernel_ops
echo 2048 > $PARAM

# 4. mTHP orders (6.12): 64 KiB folios through the same path.
MTHP=/sys/kernel/mm/transparent_hugepage
if [ -d $MTHP/hugepages-64kB ]; then
	echo never > $MTHP/hugepages-2048kB/enabled
	echo always > $MTHP/hugepages-64kB/enabled
	for s in $avail; do
		set_all $s
		set -- $(huge_counts 1 $s); p0=$1 r0=$2
		fault "$s 64 KiB mTHP, fault at random" --kind thp --node 1 --mb 8 --dirty --fault-at random
		set -- $(huge_counts 1 $s)
		info "$s mTHP: pages_huge +$(($1 - p0)), ranges_huge +$(($2 - r0))"
		check "$s mTHP folios went through the huge backend" test $(($1 - p0)) -ge 1024
	done
	echo never > $MTHP/hugepages-64kB/enabled
	echo inherit > $MTHP/hugepages-2048kB/enabled
else
	skip "mTHP: this kernel has no per-order THP controls (6.1)"
fi

# 5. 1 GiB hugetlb pages: gigantic folios, cleared in 2 MiB chunks.
GIGA=/sys/kernel/mm/hugepages/hugepages-1048576kB
for n in $(nodes); do
	info "node$n: $(cat /sys/devices/system/node/node$n/hugepages/hugepages-1048576kB/nr_hugepages 2>/dev/null) 1 GiB pages"
done
# Reserved at boot where a node had a free aligned GiB then; else now.
giga_node=""
for n in $(nodes); do
	f=/sys/devices/system/node/node$n/hugepages/hugepages-1048576kB/nr_hugepages
	[ -w $f ] && [ "$(cat $f)" = 0 ] && echo 1 > $f 2>/dev/null
done
for n in $(nodes); do
	if [ "$(cat /sys/devices/system/node/node$n/hugepages/hugepages-1048576kB/free_hugepages 2>/dev/null)" -ge 1 ] 2>/dev/null; then
		giga_node=$n
		break
	fi
done
if [ -n "$giga_node" ]; then
	for s in $avail; do
		set_all $s
		set -- $(huge_counts $giga_node $s); p0=$1 r0=$2
		fault "$s 1 GiB hugetlb page, fault in the middle" --kind hugetlb --gigantic --node $giga_node --mb 1024 --dirty --fault-at middle
		set -- $(huge_counts $giga_node $s)
		info "$s 1 GiB: pages_huge +$(($1 - p0)), ranges_huge +$(($2 - r0))"
		check "$s cleared the whole 1 GiB page through the huge backend" test $(($1 - p0)) -ge 262144
		if [ $s != kernel ]; then
			# Right of the neighbourhood: 131069 pages, 256 chunks;
			# left: 131070 pages, 256 chunks; the neighbourhood: 1
			# (both clears, the pattern's and the checked one).
			check "$s cleared the 1 GiB page in 2 MiB chunks (513 per page)" \
				test $(($2 - r0)) -eq $(((($1 - p0) / 262144) * 513))
		fi
	done
else
	skip "1 GiB pages: no node could allocate one (no free, aligned GiB of memory)"
fi

# 6. The huge calibration: every strategy, hot and cold measured.
for n in $(nodes); do
	check "node$n calibration_huge lists every strategy, kernel first" \
		test "$(cut -d' ' -f1 $CP/node$n/calibration_huge | tr '\n' ' ')" = "$avail "
	check "node$n calibration_huge: hot and cold > 0" \
		awk '$2 <= 0 || $3 <= 0 { bad = 1 } END { exit bad }' $CP/node$n/calibration_huge
done
info "node0 calibration_huge: $(tr '\n' ';' < $CP/node0/calibration_huge)"

# 7. Measured folios: reference folios (reference_shift=1: one position in
# two) and trial folios (trial_shift=3, every other strategy a candidate)
# have only huge_measure_kb cleared the measured way and timed, the rest
# the backend's way, split on the side away from the faulting subpage:
# every fault position, a part of 4 KiB, the default 256 KiB, and the whole
# folio.
MEASURE=/sys/module/clearpage/parameters/huge_measure_kb
# measured KEY-REGEX: the sum over both nodes of the stats matching it.
measured() { cat $CP/node*/stats | awk -v k="^$1\$" '$1 ~ k { s += $2 } END { print s + 0 }'; }
P=/sys/module/clearpage/parameters
check "huge_measure_kb defaults to 256" test "$(cat $MEASURE)" = 256
for bad in 0 3 6 x ''; do
	check "huge_measure_kb refuses '$bad'" sh -c "! echo '$bad' > $MEASURE 2>/dev/null"
done
echo 1 > $P/reference_shift
echo 3 > $P/trial_shift
for measure in 4 256 2048; do
	echo $measure > $MEASURE
	for s in kernel rep_stosb movnti; do
		echo "$avail" | grep -qw $s || continue
		set_all $s
		others=$(echo $(for x in $avail; do [ $x = kernel ] || [ $x = $s ] || echo $x; done))
		for n in $(nodes); do
			echo 0 > $CP/node$n/pinned
			echo "$others" > $CP/node$n/trials_huge
		done
		r0=$(measured reference_pages_huge)
		t0=$(measured "trial_pages_huge_.*")
		for at in first middle last random; do
			fault "measured ${measure}K, $s, thp, fault at $at" --kind thp --node 0 --mb 16 --dirty --fault-at $at
			fault "measured ${measure}K, $s, hugetlb, fault at $at" --kind hugetlb --node 1 --mb 16 --dirty --fault-at $at
		done
		if [ $s != kernel ]; then
			check "measured ${measure}K, $s: reference folios measured ($(( $(measured reference_pages_huge) - r0 )) pages)" \
				test "$(measured reference_pages_huge)" -gt "$r0"
		fi
		check "measured ${measure}K, $s: trial folios measured ($(( $(measured "trial_pages_huge_.*") - t0 )) pages)" \
			test "$(measured "trial_pages_huge_.*")" -gt "$t0"
		for n in $(nodes); do echo none > $CP/node$n/trials_huge; done
	done
done
echo 256 > $MEASURE
echo 6 > $P/trial_shift
echo 0 > $P/reference_shift

info "range suite checked $total_pages pages"
check "clearpagectl unload at the end" clearpagectl unload
