# Gigantic folios cleared by the node's CPUs (nodeN/gigantic_helpers):
# bad settings refused and nothing changed; a 1 GiB page per strategy
# faulted mid-page over garbage with a helper, every byte zero, the helper
# counted and its share cleared; hugetlbfs fallocate of 1 GiB pages; 2 MiB
# folios and the kernel strategy never helped; a fault whose helper never
# starts (the test build queues it late) completes without it, every byte
# zero; a helper CPU gone offline only shrinks the helpers. Booted with
# three CPUs (node 0: CPU 0; node 1: CPUs 1 and 2), a 1 GiB page reserved
# on node 1, init_on_alloc=0, and the test build of the module.
HELP=$CP/node1/gigantic_helpers
HELP0=$CP/node0/gigantic_helpers
P=/sys/module/clearpage/parameters

if ! load_module clearpage-test "testing=1 reference_shift=0"; then
	fail "insmod clearpage-test.ko testing=1"
	return 0
fi
avail=$(strategies)
info "strategies: $avail; node0 CPUs $(cat /sys/devices/system/node/node0/cpulist), node1 CPUs $(cat /sys/devices/system/node/node1/cpulist)"

# 1. The setting: 0 by default; refused beyond the node's CPUs less one,
# negative, not a number; nothing changed by a refused write.
check "node1 gigantic_helpers defaults to 0" test "$(cat $HELP)" = 0
for bad in -1 x '' 2 31 32 1.5 1x 0x1; do
	check "node1 gigantic_helpers refuses '$bad' (2 CPUs: 1 helper at most)" \
		sh -c "! echo '$bad' > $HELP 2>/dev/null"
done
check "node1 gigantic_helpers kept 0 after refused writes" test "$(cat $HELP)" = 0
check "node0 (one CPU) refuses a helper" sh -c "! echo 1 > $HELP0 2>/dev/null"
check "node0 accepts 0" sh -c "echo 0 > $HELP0"
check "node1 accepts 1" sh -c "echo 1 > $HELP && test \"\$(cat $HELP)\" = 1"
check "clearpagectl helpers refuses 2 on node1, naming the limit" \
	sh -c "! clearpagectl helpers 1 2 2>/tmp/h.err && grep -q 'online CPUs' /tmp/h.err"
info "clearpagectl helpers 1 2: $(cat /tmp/h.err)"
usage_error() { "$@" 2>/dev/null; test $? -eq 2; }
check "clearpagectl helpers refuses -1 before any request (exit 2)" usage_error clearpagectl helpers 1 -1
check "clearpagectl helpers refuses x before any request (exit 2)" usage_error clearpagectl helpers 1 x
check "clearpagectl helpers refuses 32 before any request (exit 2)" usage_error clearpagectl helpers 1 32
check "node1 gigantic_helpers still 1" test "$(cat $HELP)" = 1
check "clearpagectl helpers 1 0 and 1 again" \
	sh -c "clearpagectl helpers 1 0 && test \"\$(cat $HELP)\" = 0 && clearpagectl helpers 1 1 && test \"\$(cat $HELP)\" = 1"
check "clearpagectl status shows the helpers" sh -c "clearpagectl status | grep -q 'gigantic helpers 1'"

# A 1 GiB page on node 1: reserved at boot, else now.
giga=/sys/devices/system/node/node1/hugepages/hugepages-1048576kB
info "node1 1 GiB pages at boot: $(cat $giga/nr_hugepages 2>/dev/null), free $(cat $giga/free_hugepages 2>/dev/null)"
[ "$(cat $giga/nr_hugepages 2>/dev/null)" -ge 1 ] 2>/dev/null || echo 1 > $giga/nr_hugepages 2>/dev/null
if [ "$(cat $giga/free_hugepages 2>/dev/null)" -ge 1 ] 2>/dev/null; then
	have_giga=1
else
	have_giga=0
	skip "1 GiB pages: node 1 could not allocate one (no free, aligned GiB of memory)"
fi

# huge_pages STRATEGY: node 1's pages_huge_STRATEGY less the allocator's
# clear (7.x: the kernel's own zeroed allocations of 16 KiB and more go
# through the same strategy, at any time), from one read of the stats.
huge_pages() {
	awk -v s=$1 '$1 == "pages_huge_" s { p = $2 }
		$1 == "pages_huge_allocator" { pa = $2 }
		END { print p - pa }' $CP/node1/stats
}

# counts: "helped_folios helper_pages started not_started" of node 1.
counts() {
	echo $(stat_value 1 gigantic_helped_folios) $(stat_value 1 gigantic_helper_pages) \
		$(stat_value 1 gigantic_helpers_started) $(stat_value 1 gigantic_helpers_not_started)
}

if [ $have_giga = 1 ]; then
	# 2. Every strategy with a helper that starts before the faulting task
	# clears (test_helpers_first), faulted mid-page over garbage: both
	# clears of each run (the garbage's page, then the checked one) are
	# helped, each helper started and cleared a share.
	echo 1 > $P/test_helpers_first
	for s in $avail; do
		[ $s = kernel ] && continue
		set_all $s
		set -- $(counts); f0=$1 hp0=$2 st0=$3 ns0=$4
		p0=$(huge_pages $s)
		fault "$s 1 GiB hugetlb page with a helper, fault in the middle" \
			--kind hugetlb --gigantic --node 1 --mb 1024 --dirty --fault-at middle
		set -- $(counts)
		info "$s: helped folios +$(($1 - f0)), helper pages +$(($2 - hp0)), started +$(($3 - st0)), not started +$(($4 - ns0)), pages_huge_$s +$(($(huge_pages $s) - p0))"
		check "$s: both 1 GiB clears helped" test $(($1 - f0)) -eq 2
		check "$s: one helper per clear, each started" \
			test $(($3 - st0)) -eq 2 -a $(($4 - ns0)) -eq 0
		check "$s: the helper cleared a share, not all" \
			test $(($2 - hp0)) -gt 0 -a $(($2 - hp0)) -lt 524288
		check "$s: every page counted as $s's" \
			test $(($(huge_pages $s) - p0)) -eq 524288
	done
	# hugetlbfs fallocate of a 1 GiB page: the same path.
	s=$(echo $avail | awk '{ print $NF }')
	set_all $s
	set -- $(counts); f0=$1
	if [ -d /dev/hugepages-1G ] && mount | grep -q hugepages-1G; then
		fault "$s hugetlbfs fallocate of a 1 GiB page with a helper" \
			--kind hugetlbfs --gigantic --node 1 --mb 1024 --dirty
		set -- $(counts)
		check "$s: fallocate's 1 GiB clears helped ($(($1 - f0)))" test $(($1 - f0)) -eq 2
	else
		skip "hugetlbfs with 1 GiB pages: not mounted"
	fi
	echo 0 > $P/test_helpers_first

	# 3. kernel keeps the kernel's own clear: no helper.
	set_all kernel
	set -- $(counts); f0=$1
	fault "kernel 1 GiB hugetlb page, helpers set" \
		--kind hugetlb --gigantic --node 1 --mb 1024 --dirty --fault-at middle
	set -- $(counts)
	check "kernel: no helped clear" test $(($1 - f0)) -eq 0

	# 4. A helper that never starts: queued 60 s late, so the faulting
	# task takes every range; the fault completes without it.
	s=rep_stosb
	echo "$avail" | grep -qw $s || s=movq
	set_all $s
	echo 60000 > $P/test_helper_delay_ms
	set -- $(counts); f0=$1 hp0=$2 st0=$3 ns0=$4
	fault "$s 1 GiB page, its helper stalled" \
		--kind hugetlb --gigantic --node 1 --mb 1024 --dirty --fault-at last
	set -- $(counts)
	info "stalled: helped folios +$(($1 - f0)), helper pages +$(($2 - hp0)), started +$(($3 - st0)), not started +$(($4 - ns0))"
	check "stalled: the faults completed, their helpers never started" \
		test $(($1 - f0)) -eq 2 -a $(($4 - ns0)) -eq 2 -a $(($3 - st0)) -eq 0
	check "stalled: no page cleared by a helper" test $(($2 - hp0)) -eq 0
	echo 0 > $P/test_helper_delay_ms

	# 5. The helper's CPU offline: the setting stays, the clear, faulted
	# on the node's last CPU, finds no helper and clears alone.
	if [ -w /sys/devices/system/cpu/cpu2/online ] && taskset -c 1 true 2>/dev/null; then
		check "CPU 2 goes offline" sh -c "echo 0 > /sys/devices/system/cpu/cpu2/online"
		set -- $(counts); f0=$1
		out=$(taskset -c 1 cptest fault --kind hugetlb --gigantic --node 1 --mb 1024 \
			--dirty --fault-at first 2>&1)
		rc=$?
		check "$s 1 GiB page faulted on CPU 1, the helper's CPU offline: $(echo $out)" \
			test $rc -eq 0
		set -- $(counts)
		check "CPU offline: cleared alone" test $(($1 - f0)) -eq 0
		check "CPU offline: node1 refuses a helper now" sh -c "! echo 1 > $HELP 2>/dev/null"
		check "CPU offline: the setting kept" test "$(cat $HELP)" = 1
		check "CPU 2 back online" sh -c "echo 1 > /sys/devices/system/cpu/cpu2/online"
	else
		skip "CPU hotplug: cpu2 has no online file, or no taskset"
	fi
fi

# 6. 2 MiB folios are never helped.
s=$(echo $avail | awk '{ print $2 }')
set_all $s
set -- $(counts); f0=$1
fault "$s 2 MiB hugetlb pages, helpers set" --kind hugetlb --node 1 --mb 16 --dirty --fault-at middle
fault "$s THP, helpers set" --kind thp --node 1 --mb 16 --dirty --fault-at random
set -- $(counts)
check "2 MiB folios: no helped clear" test $(($1 - f0)) -eq 0

# 7. clearpaged sets GiganticHelpers= of each [Node.N] at start and at a
# reload; a count the node cannot take is logged with the module's limit.
DLOG=/tmp/clearpaged.log
WAIT_LOG_SECONDS=20
mkdir -p /etc/clearpaged.conf.d
printf '[Daemon]\nInterval=0.5\n[Policy]\nTrialCandidates=0\n[Node.1]\nGiganticHelpers=0\n[Node.0]\nGiganticHelpers=1\n' > /etc/clearpaged.conf
clearpaged > $DLOG 2>&1 &
daemon=$!
check "clearpaged: GiganticHelpers=0 applied to node 1" \
	wait_log "node 1: gigantic helpers 0, from GiganticHelpers="
check "clearpaged: node 1's gigantic_helpers is 0" test "$(cat $HELP)" = 0
check "clearpaged: node 0 refuses GiganticHelpers=1, logged with the limit" \
	wait_log "\\[Node.0\\] GiganticHelpers=1 from the configuration: Invalid argument: at most the node's online CPUs less one"
printf '[Daemon]\nInterval=0.5\n[Policy]\nTrialCandidates=0\n[Node.1]\nGiganticHelpers=1\n' > /etc/clearpaged.conf
kill -HUP $daemon
check "clearpaged: a reload applies GiganticHelpers=1 to node 1" \
	wait_log "node 1: gigantic helpers 1, from GiganticHelpers="
check "clearpaged: node 1's gigantic_helpers is 1" test "$(cat $HELP)" = 1
kill -TERM $daemon
wait $daemon
info "daemon log: $(grep -i 'gigantic' $DLOG | tr '\n' '|')"

check "clearpagectl unload at the end" clearpagectl unload
