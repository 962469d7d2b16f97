# Zero-page stress, booted with hugetlb pages reserved: every byte of every
# page faulted through every strategy on both nodes must read zero. Memory
# is filled with a pattern and freed before each round so recycled pages
# carry garbage: a missed clear shows as non-zero bytes. Booted with
# init_on_alloc=0 every backend is used; with init_on_alloc=1 (on 7.x: THP
# through the allocator's clear) the 4k backend must stay unused.

if ! load_module clearpage; then
	fail "insmod clearpage.ko"
	return 0
fi
avail=$(strategies)
init_on_alloc=1
grep -q 'init_on_alloc=0' /proc/cmdline && init_on_alloc=0
info "init_on_alloc=$init_on_alloc; strategies: $avail; hugetlb pages: $(cat /proc/sys/vm/nr_hugepages)"

# 1. Every strategy, every node, every kind of fault.
for s in $avail; do
	set_all $s || fail "select $s"
	for n in $(nodes); do
		fault "$s node$n 4k+dontneed" --kind 4k --node $n --mb ${CPVM_MB:-24} --rounds 2 --dirty --dontneed
		fault "$s node$n thp+dontneed" --kind thp --node $n --mb ${CPVM_MB:-24} --rounds 2 --dirty --dontneed
		fault "$s node$n hugetlb+dontneed" --kind hugetlb --node $n --mb 16 --rounds 2 --dirty --dontneed
		fault "$s node$n hugetlbfs fallocate" --kind hugetlbfs --node $n --mb 8 --rounds 2 --dirty
		fault "$s node$n 4k in a forked child" --kind 4k --node $n --mb 8 --dirty --fork
		fault "$s node$n thp in a forked child" --kind thp --node $n --mb 8 --dirty --fork
	done
done

# 2. The counters prove every strategy went through both backends on both
# nodes.
for n in $(nodes); do
	for s in $avail; do
		p4k=$(stat_value $n pages_4k_$s)
		phuge=$(stat_value $n pages_huge_$s)
		info "node$n $s: pages_4k=$p4k pages_huge=$phuge ranges_huge=$(stat_value $n ranges_huge_$s) samples_4k=$(stat_value $n samples_4k_$s) samples_huge=$(stat_value $n samples_huge_$s)"
		if [ $s = kernel ]; then
			# With every node on kernel no probe is armed: the
			# allocator zeroed these pages, not the module.
			check "node$n kernel armed no 4k probe (pages_4k_kernel=0)" test "$p4k" -eq 0
		elif [ $init_on_alloc = 1 ]; then
			check "node$n $s: the 4k backend stayed off (init_on_alloc=1)" test "$p4k" -eq 0
		else
			check "node$n $s cleared 4 KiB pages through the 4k backend" test "$p4k" -gt 0
		fi
		check "node$n $s cleared huge pages through the huge backend" test "$phuge" -ge 4096
	done
done
for n in $(nodes); do
	[ $init_on_alloc = 1 ] && b=huge || b=4k
	check "node$n: reference frames were cleared by the kernel's routine beside the strategies ($b: $(stat_value $n reference_pages_$b))" \
		test "$(stat_value $n reference_pages_$b)" -gt 0
done
info "node0 latency histogram: $(grep '^latency_ns_' $CP/node0/stats | awk '$2 > 0' | tr '\n' ' ')"

# 2b. Trials (after the counts above: beside kernel they arm the 4k
# probe): beside kernel and beside movnti, each backend clears one frame
# (folio position) in 8 with every other strategy as a candidate.
echo 3 > /sys/module/clearpage/parameters/trial_shift
for s in kernel movnti; do
	set_all $s || fail "select $s"
	others=$(echo $(for x in $avail; do [ $x = kernel ] || [ $x = $s ] || echo $x; done))
	for n in $(nodes); do
		echo 0 > $CP/node$n/pinned
		for b in 4k huge; do
			echo "$others" > $CP/node$n/trials_$b || fail "node$n trials_$b: $others"
		done
		fault "$s with trials ($others) node$n 4k+dontneed" --kind 4k --node $n --mb ${CPVM_MB:-24} --rounds 2 --dirty --dontneed
		fault "$s with trials node$n thp+dontneed" --kind thp --node $n --mb ${CPVM_MB:-24} --rounds 2 --dirty --dontneed
		fault "$s with trials node$n hugetlb+dontneed" --kind hugetlb --node $n --mb 16 --rounds 2 --dirty --dontneed
		fault "$s with trials node$n 4k in a forked child" --kind 4k --node $n --mb 8 --dirty --fork
	done
done
for n in $(nodes); do
	[ $init_on_alloc = 1 ] && b=huge || b=4k
	for x in $(echo $avail | tr ' ' '\n' | grep -vx kernel); do
		info "node$n trials of $x: 4k $(stat_value $n trial_pages_4k_$x), huge $(stat_value $n trial_pages_huge_$x)"
	done
	check "node$n: trial frames were cleared by the candidates ($b, movnti: $(stat_value $n trial_pages_${b}_movnti), rep_stosb: $(stat_value $n trial_pages_${b}_rep_stosb))" \
		test "$(stat_value $n trial_pages_${b}_movnti)" -gt 0 -a "$(stat_value $n trial_pages_${b}_rep_stosb)" -gt 0
	for b in 4k huge; do echo none > $CP/node$n/trials_$b; done
done
echo 6 > /sys/module/clearpage/parameters/trial_shift

# 3. Concurrent faulting processes while strategies flip every 3 ms, and the
# module is unloaded and loaded again in the middle.
seconds=${CPVM_SECONDS:-24}
set_all movnti
mkdir -p /tmp/stress
cptest fault --kind 4k --node 0 --mb 16 --seconds $seconds --dirty --dontneed >/tmp/stress/a 2>&1 &
pid_a=$!
cptest fault --kind thp --node 0 --mb 16 --seconds $seconds --dirty >/tmp/stress/b 2>&1 &
pid_b=$!
cptest fault --kind 4k --node 1 --mb 16 --seconds $seconds --dirty --fork >/tmp/stress/c 2>&1 &
pid_c=$!
cptest fault --kind hugetlb --node 1 --mb 8 --seconds $seconds --dirty >/tmp/stress/d 2>&1 &
pid_d=$!
cptest flip --nodes 0,1 --strategies "$(echo $avail | tr ' ' ',')" --interval-ms 3 --seconds $seconds >/tmp/stress/flip 2>&1 &
pid_flip=$!
for cycle in 1 2; do
	sleep $((seconds / 3))
	check "unload $cycle under load" clearpagectl unload
	check "no probe or patch left after unload $cycle" \
		test ! -e /sys/kernel/livepatch/clearpage -a ! -e $CP
	check "load again $cycle under load" load_module clearpage
	set_all movnti
done
wait_jobs /tmp/stress concurrent a:$pid_a b:$pid_b c:$pid_c d:$pid_d flip:$pid_flip
check "strategies flipped while faulting" grep -Eq 'flips=[1-9]' /tmp/stress/flip

info "zero-page stress checked $total_pages pages"
check "at least 200000 pages checked ($total_pages)" test $total_pages -ge 200000
check "clearpagectl unload at the end" clearpagectl unload
