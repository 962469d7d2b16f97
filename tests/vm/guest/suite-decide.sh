# clearpaged deciding and acting. The test build of the module reports a real
# CPU's calibration (an AMD EPYC's: rep_stosb 70 ns hot, 411 ns cold;
# movnti 203/206), while the emulated CPU's clears cost far more than 411 ns:
# the pages measure cold, so the daemon must switch the nodes to movnti
# through netlink and confirm; the reference frames keep saying cold, so it
# stays without probing; without them it probes rep_stosb and reverts. Then:
# an administrator's pin made while it runs is respected, CPU hotplug is
# noticed, SIGTERM returns the nodes to kernel, and a dry run changes
# nothing while it says what it would do.
DLOG=/tmp/clearpaged.log

# wait_log PATTERN [COUNT [SECONDS]]: until the log holds COUNT matching lines.
wait_log() {
	i=0
	while [ "$(grep -c -- "$1" $DLOG)" -lt "${2:-1}" ]; do
		i=$((i + 1)); [ $i -gt $((${3:-30} * 10)) ] && return 1; sleep 0.1
	done
}
json_field() {
	clearpagectl status --json | sed 's/{"node":/\n{"node":/g' |
		grep "^{\"node\":$1," | sed "s/.*\"$2\":\"\\([a-z_]*\\)\".*/\\1/"
}

if ! load_module clearpage-test sample_shift=0; then
	fail "insmod clearpage-test.ko"
	return 0
fi
info "calibration node0: $(tr '\n' ';' < $CP/node0/calibration)"
check "the test build reports the EPYC calibration" \
	grep -q "^rep_stosb 70 411" $CP/node0/calibration

mkdir -p /etc/clearpaged.conf.d
# NonTemporal=yes: the emulated CPU has no PMU to watch movnti's misses.
printf '[Daemon]\nInterval=0.2\nLogLevel=debug\n[CPU]\nAllowUnlistedCPU=yes\n[Policy]\nProbeIntervals=15\nNonTemporal=yes\n' \
	> /etc/clearpaged.conf
# Pages to clear on both nodes, all the time: transparent huge pages, which
# go through the livepatch whatever the strategy (the 4 KiB probe is armed
# only while a node runs something other than kernel).
cptest fault --kind thp --node 0 --mb 8 --seconds 600 >/tmp/load0 2>&1 &
load0=$!
cptest fault --kind thp --node 1 --mb 8 --seconds 600 >/tmp/load1 2>&1 &
load1=$!

clearpaged >$DLOG 2>&1 &
daemon=$!
check "attaches" wait_log "attached to the clearpage module"
check "says once that there are no cache-miss counters" \
	wait_log "no cache-miss counters (perf_event_open"
for n in 0 1; do
	check "node $n: switched kernel -> movnti because the pages are cold" \
		wait_log "node $n: switched kernel -> movnti: pages are mostly cold" 1 60
	check "node $n: the module says the daemon set movnti" \
		test "$(json_field $n strategy):$(json_field $n source)" = movnti:daemon
done
[ $failed = 0 ] || info "daemon log so far: $(tail -n 20 $DLOG | tr '\n' '|')"
# movnti's calibrated cost is flat; the reference frames (the kernel's
# routine, timed) keep telling the policy the pages are cold: no probe.
mark=$(wc -l < $DLOG)
sleep 5	# more than ProbeIntervals
check "on movnti the reference frames tell the cold fraction (1.00)" sh -c \
	"tail -n +$mark $DLOG | grep -q 'node 0: movnti, [0-9]* samples, .* cold 1.00,'"
check "so the policy does not probe" sh -c "! grep -q 'probing whether' $DLOG"
info "node 0 reference frames: $(grep '^reference_' $CP/node0/stats | tr '\n' ' ')"
# Without reference frames the policy has to probe.
echo 0 > /sys/module/clearpage/parameters/reference_shift
check "without reference frames a probe of rep_stosb follows" \
	wait_log "switched movnti -> rep_stosb: probing whether the pages turned hot" 1 60
check "and is reverted, the pages still being cold" \
	wait_log "reverted rep_stosb -> movnti: the switch did worse than before it" 1 60

clearpagectl pin 0
check "an administrator's pin is seen and logged" \
	wait_log "node 0 pinned to [a-z_]* by an administrator; leaving it alone"
pinned_as=$(current_strategy 0)
switches=$(grep -c "node 0: \(switched\|reverted\)" $DLOG)
sleep 6	# two probe intervals
check "the pinned node is left alone ($pinned_as)" \
	test "$(current_strategy 0):$(json_field 0 source):$(grep -c "node 0: \(switched\|reverted\)" $DLOG)" = "$pinned_as:admin:$switches"
clearpagectl unpin 0
check "the unpin is seen and logged" \
	wait_log "node 0 unpinned by an administrator; clearpaged manages it again"

echo 0 > /sys/devices/system/cpu/cpu1/online
check "CPU hotplug is noticed" wait_log "cpu1: offline; reopening the cache-miss counters"
echo 1 > /sys/devices/system/cpu/cpu1/online
check "and so is the CPU coming back" wait_log "cpu1: online; reopening the cache-miss counters"
sleep 1
check "without a PMU it says so only once per attempt" \
	test "$(grep -c "no cache-miss counters" $DLOG)" -le 3

# On stop, what the daemon set goes back to kernel; what an administrator
# set last (node 0 may still be as the pin left it) stays.
by_daemon=""
for n in 0 1; do
	[ "$(json_field $n source)" = daemon ] && by_daemon="$by_daemon $n"
done
kill -TERM $daemon
wait $daemon
check "SIGTERM stops it cleanly (exit 0)" test $? -eq 0
check "at least one node was the daemon's at stop ($by_daemon)" test -n "$by_daemon"
for n in $by_daemon; do
	check "node $n, set by the daemon, is returned to kernel on stop" \
		test "$(current_strategy $n)" = kernel
done
info "daemon log: $(grep -v ' samples, ' $DLOG | tr '\n' '|')"

DLOG=/tmp/dry.log
state_before="$(current_strategy 0):$(json_field 0 source):$(current_strategy 1):$(json_field 1 source)"
clearpaged --dry-run >$DLOG 2>&1 &
dry=$!
check "dry run: says what it would do" \
	wait_log "dry run: would switch kernel -> movnti: pages are mostly cold" 1 60
check "dry run: changes nothing ($state_before)" \
	test "$(current_strategy 0):$(json_field 0 source):$(current_strategy 1):$(json_field 1 source)" = "$state_before"
kill -TERM $dry
wait $dry
kill -TERM $load0 $load1
wait $load0 $load1
check "the load saw only zeroed pages (node 0)" grep -q "nonzero=0" /tmp/load0
check "the load saw only zeroed pages (node 1)" grep -q "nonzero=0" /tmp/load1
check "clearpagectl unload" clearpagectl unload
