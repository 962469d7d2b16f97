# What a fleet meets every day, with the probes on (the test build's
# calibration of a real CPU: an emulated one cannot tell a cached line from
# memory, and would probe nothing):
#  1. a CPU model without RDTSCP (booted with -cpu qemu64): the module
#     loads, calibrates and times its loads with lfence; rdtsc, and every
#     strategy it offers clears every byte;
#  2. memory errors in pages the probes load: pages just cleared (the
#     touch probe may hold them) poisoned with MADV_HWPOISON and
#     soft-offlined with MADV_SOFT_OFFLINE: every one retired, nothing
#     panics, nothing stays held;
#  3. CPUs and a movable memory block offlined and onlined again in a loop
#     while faults run and the touch probe holds pages: every offline
#     succeeds, no page stays held by a CPU that is gone.
# Every byte faulted reads zero; the log must stay clean (run-vm.sh).
P=/sys/module/clearpage/parameters

check "the CPU has no rdtscp (qemu64)" sh -c "! grep -qw rdtscp /proc/cpuinfo"
if ! load_module clearpage-test "testing=1"; then
	fail "insmod clearpage-test.ko testing=1 on a CPU without rdtscp"
	return 0
fi
check "backends: no probe switched off (lfence; rdtsc times the loads)" \
	sh -c "! grep -q '^probes off' $CP/backends"
echo 1 > $P/test_probe_calibration
for n in $(nodes); do
	check "node$n recalibrated on a CPU without rdtscp" sh -c "echo 1 > $CP/node$n/calibrate"
done
echo 0 > $P/touch_shift
echo 200 > $P/touch_delay_ms
avail=$(strategies)
info "strategies: $avail; backends: $(cat $CP/backends | tr '\n' ' '); node0 probe calibration: $(cat $CP/node0/probe_calibration | tr '\n' ' ')"
check "node0 probe threshold from the test calibration" \
	test "$(awk '$1 == "threshold_ticks" { print $2 }' $CP/node0/probe_calibration)" -gt 0

# held: pages the touch probe holds on every node.
held() { h=0; for n in $(nodes); do h=$((h + $(stat_value $n touch_held))); done; echo $h; }
none_held() { test "$(held)" = 0; }
skipped() { s=0; for n in $(nodes); do s=$((s + $(stat_value $n touch_skipped_4k))); done; echo $s; }

# 1. Every strategy, both nodes, through both backends.
for s in $avail; do
	set_all $s || fail "select $s"
	for n in $(nodes); do
		fault "$s node$n 4k" --kind 4k --node $n --mb 8 --rounds 2 --dirty --dontneed
		fault "$s node$n thp" --kind thp --node $n --mb 8 --rounds 2 --dirty --dontneed
		fault "$s node$n hugetlb" --kind hugetlb --node $n --mb 8 --rounds 1 --dirty
	done
done
for n in $(nodes); do
	for s in $avail; do
		[ $s = kernel ] && continue
		check "node$n $s cleared huge pages ($(stat_value $n pages_huge_$s))" \
			test "$(stat_value $n pages_huge_$s)" -gt 0
	done
	check "node$n: the temperature probe ran ($(stat_value $n probe_hot_huge) hot, $(stat_value $n probe_cold_huge) cold)" \
		test $(( $(stat_value $n probe_hot_huge) + $(stat_value $n probe_cold_huge) )) -gt 0
done

# 2. Poisoned pages: each just cleared by movnti, so held by the touch probe
# when it is free, then retired by memory_failure() or soft offline.
set_all movnti
corrupted() { awk '$1 == "HardwareCorrupted:" { print $2 }' /proc/meminfo; }
before=$(corrupted)
skipped_before=$(skipped)
for n in $(nodes); do
	out=$(cptest poison --node $n --pages 16 2>&1)
	check "MADV_HWPOISON on node$n, pages just cleared: $(echo $out)" test $? -eq 0
	out=$(cptest poison --node $n --pages 16 --soft 2>&1)
	check "MADV_SOFT_OFFLINE on node$n, pages just cleared: $(echo $out)" test $? -eq 0
done
info "HardwareCorrupted: $before kB before, $(corrupted) kB after; touch_skipped_4k $skipped_before before, $(skipped) after"
check "the poisoned and offlined pages were retired (HardwareCorrupted +$(( $(corrupted) - before )) kB)" \
	test $(( $(corrupted) - before )) -ge $((4 * 4 * 16))
# (Back on kernel first: every fork of this shell clears pages too, and
# with movnti they would be held.)
set_all kernel
check "no page held once the touch delay is over" wait_for 10 none_held
set_all movnti
fault "movnti after the poisoning, node0" --kind 4k --node 0 --mb 8 --rounds 2 --dirty --dontneed

# 3. CPU 1 and a movable memory block offline and online again, in a loop,
# while both nodes fault and the touch probe holds pages.
seconds=${CPVM_SECONDS:-30}
mkdir -p /tmp/safety
cptest fault --kind 4k --node 0 --mb 16 --seconds $seconds --dirty --dontneed >/tmp/safety/a 2>&1 &
pid_a=$!
cptest fault --kind thp --node 1 --mb 16 --seconds $seconds --dirty --dontneed >/tmp/safety/b 2>&1 &
pid_b=$!
# The DIMM run-vm.sh plugs into node 1 (--dimm-mb): its blocks, online
# in ZONE_MOVABLE (memhp_default_state=online_movable, or onlined so
# here), where faults on node 1 land and the offline must move them out.
for b in /sys/devices/system/memory/memory*; do
	[ "$(cat $b/state 2>/dev/null)" = offline ] &&
		echo online_movable > $b/state 2>/dev/null
done
blocks=""
for b in /sys/devices/system/memory/memory*; do
	[ "$(cat $b/state 2>/dev/null)" = online ] || continue
	grep -qx Movable $b/valid_zones 2>/dev/null && blocks="$blocks ${b##*/}"
done
block=${blocks##* }
info "movable memory blocks:$blocks; cycling ${block:-none}"
cpu_off=0 cpu_fail=0 mem_off=0 mem_fail=0 cpu_held=0
end=$(($(date +%s) + seconds - 4))
while [ "$(date +%s)" -lt $end ]; do
	if echo 0 > /sys/devices/system/cpu/cpu1/online; then
		cpu_off=$((cpu_off + 1))
		# Whatever CPU 1 held is released, and stays so while it is gone.
		sleep 0.3
		cpu_held=$((cpu_held + $(held)))
		echo 1 > /sys/devices/system/cpu/cpu1/online || cpu_fail=$((cpu_fail + 1))
	else
		cpu_fail=$((cpu_fail + 1))
	fi
	if [ -n "$block" ]; then
		if timeout 20 sh -c "echo offline > /sys/devices/system/memory/$block/state"; then
			mem_off=$((mem_off + 1))
			echo online_movable > /sys/devices/system/memory/$block/state ||
				echo online > /sys/devices/system/memory/$block/state ||
				mem_fail=$((mem_fail + 1))
		else
			mem_fail=$((mem_fail + 1))
		fi
	fi
	sleep 0.5
done
wait_jobs /tmp/safety "faults during hotplug" a:$pid_a b:$pid_b
info "CPU 1 offlined $cpu_off times ($cpu_fail failed); memory block ${block:-none} offlined $mem_off times ($mem_fail failed)"
check "CPU 1 went offline and online again, every time ($cpu_off, $cpu_fail failed)" \
	test $cpu_off -ge 3 -a $cpu_fail = 0
# Node 0's pages may be held by CPU 0 meanwhile: what counts is that all of
# them go once the faults stop.
set_all kernel
check "nothing held once faults stop and CPU 1 is back" wait_for 10 none_held
if [ -n "$block" ]; then
	check "memory block $block went offline and online again, every time ($mem_off, $mem_fail failed)" \
		test $mem_off -ge 2 -a $mem_fail = 0
else
	fail "no movable memory block to offline (run-vm.sh --dimm-mb plugs one)"
fi
info "pages held summed at each CPU offline: $cpu_held"

info "safety checked $total_pages pages"
check "clearpagectl unload at the end" clearpagectl unload
