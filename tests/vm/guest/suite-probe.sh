# The huge backend's probe mode: timed loads of a few lines of each folio
# say hot or cold, and the folio is cleared with the mode's hot or cold
# strategy. An emulated CPU's cache flush does not flush, so its own probe
# calibration cannot tell a cached line from memory: the mode must be
# refused there and change nothing. The test build then reports a real
# CPU's calibration (test_probe_calibration=1) and, where the verdict must
# be known, decides it (test_probe_verdict: 1 hot, 2 cold, 3 in turn),
# while the probe still loads its lines. Every fault is over memory filled
# with a pattern first, and every byte is checked: THP, mTHP (6.12 and
# later), 2 MiB and 1 GiB hugetlb pages, hugetlbfs fallocate, and a
# stress of faults on both nodes while the mode flips every 5 ms. Booted
# with init_on_alloc=0 and =1, two nodes of 3 GiB, 32 2 MiB hugetlb pages.
P=/sys/module/clearpage/parameters
init_on_alloc=1
grep -q 'init_on_alloc=0' /proc/cmdline && init_on_alloc=0

if ! load_module clearpage-test "testing=1 reference_shift=0"; then
	fail "insmod clearpage-test.ko testing=1"
	return 0
fi
avail=$(strategies)
has() { echo " $avail " | grep -q " $1 "; }
info "init_on_alloc=$init_on_alloc; strategies: $avail"

# probe_stat NODE KEY: one of the probe's counters.
probe_total() { echo $(( $(stat_value $1 probe_hot_huge) + $(stat_value $1 probe_cold_huge) )); }
probe_mode() { cat $CP/node$1/probe_huge; }
# said RC WANT_RC OUTPUT TEXT: the command exited WANT_RC and said TEXT.
said() { test "$1" = "$2" && echo "$3" | grep -q "$4"; }

# 1. The emulated CPU's own calibration.
for n in $(nodes); do
	info "node$n probe_calibration: $(tr '\n' ' ' < $CP/node$n/probe_calibration)"
	check "node$n probe_calibration has hot, cold and threshold ticks" \
		test "$(cut -d' ' -f1 $CP/node$n/probe_calibration | tr '\n' ' ')" = "hot_ticks cold_ticks threshold_ticks "
	check "node$n probe_huge is off at load" test "$(probe_mode $n)" = off
done
emulated=0
threshold=$(awk '$1 == "threshold_ticks" { print $2 }' $CP/node0/probe_calibration)
if [ "$threshold" = 0 ]; then
	emulated=1
	check "a node that cannot tell a cached line from memory refuses the probe (EINVAL)" \
		cptest write $CP/node0/probe_huge --data "rep_stosb movnti" --expect EINVAL
	check "the refused probe changed nothing (off, not pinned)" \
		test "$(probe_mode 0)" = off -a "$(cat $CP/node0/pinned_huge)" = 0
	out=$(clearpagectl probe 0 rep_stosb movnti 2>&1); rc=$?
	check "clearpagectl probe is refused there, exit 1, with the reason: $out" \
		said $rc 1 "$out" 'cannot tell a cached line from memory'
else
	skip "refusal on an emulated CPU: this CPU's probe calibration tells them apart (threshold $threshold ticks)"
fi

# 2. A real CPU's calibration, then bad input: nothing changes.
echo 1 > $P/test_probe_calibration
for n in $(nodes); do
	echo 1 > $CP/node$n/calibrate
	check "node$n recalibrated with a real CPU's probe figures (threshold $(awk '$1 == "threshold_ticks" { print $2 }' $CP/node$n/probe_calibration))" \
		test "$(awk '$1 == "threshold_ticks" { print $2 }' $CP/node$n/probe_calibration)" -gt 0
done
# (An empty write never reaches the file.)
for bad in "rep_stosb" "rep_stosb " " movnti" "rep_stosb  movnti" "rep_stosb movnti x" \
	   "bogus movnti" "rep_stosb bogus" "off movnti" "of" "offf"; do
	check "probe_huge refuses '$bad' (EINVAL)" \
		cptest write $CP/node0/probe_huge --data "$bad" --expect EINVAL
done
has clzero || check "probe_huge refuses clzero, which this CPU lacks (EINVAL)" \
	cptest write $CP/node0/probe_huge --data "rep_stosb clzero" --expect EINVAL
check "non-root cannot write probe_huge" \
	cptest write $CP/node0/probe_huge --data "rep_stosb movnti" --uid 65534 --expect EACCES
check "no probe_4k: only the huge backend has a probe mode" test ! -e $CP/node0/probe_4k
check "bad input left the probe off and the backend unpinned" \
	test "$(probe_mode 0)" = off -a "$(cat $CP/node0/pinned_huge)" = 0
out=$(clearpagectl probe 0 rep_stosb nosuch 2>&1); rc=$?
check "clearpagectl probe with an unknown strategy exits 2: $out" test $rc = 2
out=$(clearpagectl probe 0 rep_stosb movnti --backend 4k 2>&1); rc=$?
check "clearpagectl probe --backend 4k exits 2: $out" test $rc = 2
out=$(nltest probe 0 4k rep_stosb movnti --expect EOPNOTSUPP 2>&1); rc=$?
check "netlink: a probe for the 4k backend is EOPNOTSUPP with an extended ack: $out" \
	said $rc 0 "$out" 'only the huge backend'
out=$(nltest probe 0 huge rep_stosb - --expect EINVAL 2>&1); rc=$?
check "netlink: a hot strategy without a cold one is EINVAL: $out" \
	said $rc 0 "$out" 'or neither'
out=$(nltest probe 0 huge - movnti --expect EINVAL 2>&1); rc=$?
check "netlink: a cold strategy without a hot one is EINVAL: $out" test $rc = 0
check "bad netlink requests left the probe off and the backend unpinned" \
	test "$(probe_mode 0)" = off -a "$(cat $CP/node0/pinned_huge)" = 0

# 3. On: pinned, trials ended, shown by status; off again.
for n in $(nodes); do
	echo 0 > $CP/node$n/pinned
	echo movnti > $CP/node$n/trials_huge
	echo 0 > $CP/node$n/pinned_huge 2>/dev/null
done
check "clearpagectl probe all rep_stosb movnti" clearpagectl probe all rep_stosb movnti
for n in $(nodes); do
	check "node$n probe_huge reads 'rep_stosb movnti'" test "$(probe_mode $n)" = "rep_stosb movnti"
	check "node$n: the probe pinned the huge backend" test "$(cat $CP/node$n/pinned_huge)" = 1
	check "node$n: the probe ended the huge backend's trials" test "$(cat $CP/node$n/trials_huge)" = none
done
check "clearpagectl status shows the probe" sh -c "clearpagectl status | grep -q 'huge  probe on: hot folios rep_stosb, cold folios movnti'"
emit_json_of status clearpagectl status --json
check "clearpagectl status --json has the probe" sh -c "clearpagectl status --json | grep -q '\"probe\":{\"hot\":\"rep_stosb\",\"cold\":\"movnti\"}'"
check "probe_huge off" sh -c "echo off > $CP/node0/probe_huge && test \"\$(cat $CP/node0/probe_huge)\" = off"
check "clearpagectl probe 0 off" clearpagectl probe 0 off

# 3b. The temperature sample: outside probe mode one unit per
# 2^probe_shift pages is probed and counted, whatever strategy runs, and
# cleared with the backend's strategy all the same.
probe_4k() { echo $(( $(stat_value $1 probe_hot_4k) + $(stat_value $1 probe_cold_4k) )); }
check "probe_shift is 8 at load" test "$(cat $P/probe_shift)" = 8
for bad in 21 -1 x "8 "; do
	check "probe_shift refuses '$bad' (EINVAL)" \
		cptest write $P/probe_shift --data "$bad" --expect EINVAL
done
check "refused writes left probe_shift as it was" test "$(cat $P/probe_shift)" = 8
for n in $(nodes); do
	check "node$n stats have both backends' probe counters" \
		sh -c "grep -q '^probe_hot_4k ' $CP/node$n/stats && grep -q '^probe_cold_huge ' $CP/node$n/stats && grep -q '^probe_ns_4k ' $CP/node$n/stats && grep -q '^probe_recycled_4k ' $CP/node$n/stats && grep -q '^probe_recycled_huge ' $CP/node$n/stats"
	echo off > $CP/node$n/probe_huge
	echo movnti > $CP/node$n/strategy_4k
done
# (node 0's movnti keeps the huge backend armed; node 1 runs kernel.)
echo movnti > $CP/node0/strategy_huge
echo kernel > $CP/node1/strategy_huge
echo 0 > $P/probe_shift
a0=$(probe_4k 0) t0=$(probe_total 1)
fault "probe_shift=0: 4k node0" --kind 4k --node 0 --mb 8 --dirty
fault "probe_shift=0: hugetlb node1 (kernel)" --kind hugetlb --node 1 --mb 8 --dirty --fault-at random
check "probe_shift=0: nothing sampled ($(( $(probe_4k 0) - a0 )) pages, $(( $(probe_total 1) - t0 )) folios)" \
	test "$(probe_4k 0)/$(probe_total 1)" = "$a0/$t0"
echo 1 > $P/probe_shift
echo 3 > $P/test_probe_verdict
a0=$(probe_4k 0) t0=$(probe_total 1) m0=$(stat_value 0 pages_4k_movnti) k0=$(stat_value 1 pages_huge_kernel)
fault "probe_shift=1: 4k node0 (movnti), the verdict in turn" --kind 4k --node 0 --mb 16 --dirty
fault "probe_shift=1: hugetlb node1 (kernel), the verdict in turn" --kind hugetlb --node 1 --mb 16 --dirty --fault-at random
if [ $init_on_alloc = 0 ]; then
	check "4 KiB pages sampled, one in two ($(( $(probe_4k 0) - a0 )) of 4096)" \
		test $(( $(probe_4k 0) - a0 )) -ge 1024
	check "the sampled pages were cleared with the backend's movnti ($(( $(stat_value 0 pages_4k_movnti) - m0 )))" \
		test $(( $(stat_value 0 pages_4k_movnti) - m0 )) -ge 4096
	check "both verdicts counted for 4 KiB pages" \
		test $(stat_value 0 probe_hot_4k) -gt 0 -a $(stat_value 0 probe_cold_4k) -gt 0
else
	skip "the 4k backend's sample: init_on_alloc=1 keeps the 4k backend off"
fi
check "every hugetlb folio sampled on kernel ($(( $(probe_total 1) - t0 )) of 8)" \
	test $(( $(probe_total 1) - t0 )) -ge 8
check "the sampled folios were cleared the kernel's way, probe mode off" \
	test $(( $(stat_value 1 pages_huge_kernel) - k0 )) -ge 4096 -a "$(probe_mode 1)" = off
echo 8 > $P/probe_shift
echo 0 > $P/test_probe_verdict
for n in $(nodes); do echo kernel > $CP/node$n/strategy_4k; done

# 4. Every pair of a hot and a cold strategy, the verdict in turn: both
# strategies clear folios, both verdicts are counted, every byte is zero.
# With init_on_alloc=1 a fresh THP on 6.x is already zeroed by the
# allocator (skipped, never probed); hugetlb and fallocate always are.
echo 3 > $P/test_probe_verdict
hots="kernel rep_stosb"
colds="movnti movq"
has clzero && colds="$colds clzero"
for hot in $hots; do
	for cold in $colds; do
		for n in $(nodes); do echo "$hot $cold" > $CP/node$n/probe_huge || fail "node$n probe_huge: $hot $cold"; done
		h0=$(stat_value 1 probe_hot_huge) c0=$(stat_value 1 probe_cold_huge)
		ph0=$(stat_value 1 pages_huge_$hot) pc0=$(stat_value 1 pages_huge_$cold)
		fault "probe $hot/$cold thp node0, fault at random" --kind thp --node 0 --mb 16 --dirty --fault-at random
		fault "probe $hot/$cold hugetlb node1, fault at random" --kind hugetlb --node 1 --mb 16 --dirty --fault-at random
		fault "probe $hot/$cold hugetlbfs fallocate node1" --kind hugetlbfs --node 1 --mb 8 --dirty
		check "probe $hot/$cold: node1 judged folios hot ($(( $(stat_value 1 probe_hot_huge) - h0 ))) and cold ($(( $(stat_value 1 probe_cold_huge) - c0 )))" \
			test $(stat_value 1 probe_hot_huge) -gt $h0 -a $(stat_value 1 probe_cold_huge) -gt $c0
		check "probe $hot/$cold: node1's hot folios cleared with $hot, cold ones with $cold" \
			test $(stat_value 1 pages_huge_$hot) -gt $ph0 -a $(stat_value 1 pages_huge_$cold) -gt $pc0
	done
done
# A fresh THP: probed (init_on_alloc=0, or 7.x's allocator clear), or
# already zeroed and skipped (6.x with init_on_alloc=1).
t0=$(probe_total 0) z0=$(stat_value 0 pages_huge_prezeroed)
fault "probe: THP on node0" --kind thp --node 0 --mb 16 --dirty --fault-at middle
case "$init_on_alloc:$(uname -r)" in
1:6.*) check "6.x, init_on_alloc=1: fresh THP skipped as prezeroed, not probed" \
	test $(stat_value 0 pages_huge_prezeroed) -gt $z0 ;;
*) check "THP folios were probed ($(( $(probe_total 0) - t0 )))" test $(probe_total 0) -gt $t0 ;;
esac

# The verdict forced one way: only that strategy clears.
for verdict in 1:kernel 2:movnti; do
	echo ${verdict%%:*} > $P/test_probe_verdict
	for n in $(nodes); do echo "kernel movnti" > $CP/node$n/probe_huge; done
	p0=$(stat_value 1 pages_huge_${verdict##*:})
	other=movnti; [ ${verdict##*:} = movnti ] && other=kernel
	o0=$(stat_value 1 pages_huge_$other)
	fault "probe verdict ${verdict%%:*}: hugetlb node1" --kind hugetlb --node 1 --mb 16 --dirty --fault-at random
	check "probe verdict ${verdict%%:*}: every folio cleared with ${verdict##*:}, none with $other" \
		test $(stat_value 1 pages_huge_${verdict##*:}) -ge $((p0 + 8 * 512)) -a $(stat_value 1 pages_huge_$other) -eq $o0
done

# 5. mTHP (6.12 and later) and a 1 GiB hugetlb page through the probe.
echo 3 > $P/test_probe_verdict
for n in $(nodes); do echo "rep_stosb movnti" > $CP/node$n/probe_huge; done
MTHP=/sys/kernel/mm/transparent_hugepage
if [ -d $MTHP/hugepages-64kB ]; then
	echo never > $MTHP/hugepages-2048kB/enabled
	echo always > $MTHP/hugepages-64kB/enabled
	t0=$(probe_total 1) z0=$(stat_value 1 pages_huge_prezeroed)
	fault "probe: 64 KiB mTHP node1, fault at random" --kind thp --node 1 --mb 8 --dirty --fault-at random
	case "$init_on_alloc:$(uname -r)" in
	1:6.*) check "6.12, init_on_alloc=1: fresh mTHP skipped as prezeroed" \
		test $(stat_value 1 pages_huge_prezeroed) -gt $z0 ;;
	*) check "mTHP folios were probed ($(( $(probe_total 1) - t0 )))" test $(( $(probe_total 1) - t0 )) -ge 128 ;;
	esac
	echo never > $MTHP/hugepages-64kB/enabled
	echo inherit > $MTHP/hugepages-2048kB/enabled
else
	skip "mTHP: this kernel has no per-order THP controls (6.1)"
fi
giga_node=""
for n in $(nodes); do
	f=/sys/devices/system/node/node$n/hugepages/hugepages-1048576kB/nr_hugepages
	[ -w $f ] && [ "$(cat $f)" = 0 ] && echo 1 > $f 2>/dev/null
	if [ "$(cat /sys/devices/system/node/node$n/hugepages/hugepages-1048576kB/free_hugepages 2>/dev/null)" -ge 1 ] 2>/dev/null; then
		giga_node=$n
		break
	fi
done
if [ -n "$giga_node" ]; then
	t0=$(probe_total $giga_node)
	fault "probe: 1 GiB hugetlb page node$giga_node, fault in the middle" --kind hugetlb --gigantic --node $giga_node --mb 1024 --dirty --fault-at middle
	check "the 1 GiB folios were probed ($(( $(probe_total $giga_node) - t0 )))" test $(probe_total $giga_node) -ge $((t0 + 2))
else
	skip "1 GiB pages: no node could allocate one (no free, aligned GiB of memory)"
fi

# 6. The probe's own verdict: on an emulated CPU its timing means nothing,
# so only that every folio was judged one way or the other; on a CPU that
# tells them apart (KVM), a just-freed folio is hot and a fresh one cold.
echo 0 > $P/test_probe_verdict
t0=$(probe_total 1)
fault "probe's own verdict: hugetlb node1" --kind hugetlb --node 1 --mb 16 --dirty --fault-at random
check "probe's own verdict: every folio judged ($(( $(probe_total 1) - t0 )) of at least 16)" \
	test $(( $(probe_total 1) - t0 )) -ge 16
if [ $emulated = 0 ]; then
	echo 0 > $P/test_probe_calibration
	for n in $(nodes); do echo 1 > $CP/node$n/calibrate; echo "rep_stosb movnti" > $CP/node$n/probe_huge; done
	h0=$(stat_value 1 probe_hot_huge)
	for i in 1 2 3 4 5 6 7 8; do cptest fault --kind hugetlb --node 1 --mb 2 >/dev/null; done
	check "a just-freed, cached folio is judged hot ($(( $(stat_value 1 probe_hot_huge) - h0 )) of 8)" \
		test $(( $(stat_value 1 probe_hot_huge) - h0 )) -ge 4
	c0=$(stat_value 1 probe_cold_huge)
	cptest fault --kind hugetlb --node 1 --mb 32 >/dev/null
	check "fresh folios are judged cold ($(( $(stat_value 1 probe_cold_huge) - c0 )) of 16)" \
		test $(( $(stat_value 1 probe_cold_huge) - c0 )) -ge 8
else
	skip "hot and cold verdicts of the probe's own timing: an emulated CPU (its calibration could not tell them apart)"
fi

# 7. A recalibration that can no longer tell turns the probe off (its
# figures forced: an emulated CPU's own timing can happen to tell).
if [ $emulated = 1 ]; then
	echo 2 > $P/test_probe_calibration
	echo 1 > $CP/node0/calibrate
	check "a recalibration that cannot tell turned node0's probe off" test "$(probe_mode 0)" = off
	check "node1's probe stayed on" test "$(probe_mode 1)" = "rep_stosb movnti"
	echo 1 > $P/test_probe_calibration
	echo 1 > $CP/node0/calibrate
fi

# 8. clearpaged applies [Node.N] Probe= at start and at a reload; a node
# that refuses it is logged with the module's reason.
DLOG=/tmp/clearpaged.log
WAIT_LOG_SECONDS=20
for n in $(nodes); do echo off > $CP/node$n/probe_huge; done
mkdir -p /etc/clearpaged.conf.d
printf '[Daemon]\nInterval=0.5\n[Policy]\nTrialCandidates=0\n[Node.1]\nProbe=kernel,movnti\n' > /etc/clearpaged.conf
clearpaged > $DLOG 2>&1 &
daemon=$!
check "clearpaged: Probe=kernel,movnti applied to node 1" \
	wait_log "node 1 huge: probe on (hot folios kernel, cold folios movnti), pinned by Probe="
check "clearpaged: node 1's probe_huge is 'kernel movnti'" test "$(probe_mode 1)" = "kernel movnti"
check "clearpaged: node 0's probe left alone (Probe= not given)" test "$(probe_mode 0)" = off
if [ $emulated = 1 ]; then
	echo 0 > $P/test_probe_calibration
	echo 1 > $CP/node0/calibrate
	printf '[Daemon]\nInterval=0.5\n[Policy]\nTrialCandidates=0\n[Node.1]\nProbe=off\n[Node.0]\nProbe=rep_stosb,movnti\n' > /etc/clearpaged.conf
	kill -HUP $daemon
	check "clearpaged: a reload turns node 1's probe off" wait_log "node 1 huge: probe off, from Probe="
	check "clearpaged: node 0 refuses Probe= (its calibration cannot tell), logged with the reason" \
		wait_log "\\[Node.0\\] Probe=rep_stosb,movnti from the configuration: Invalid argument: the node's probe calibration cannot tell"
	check "clearpaged: node 0's probe stayed off" test "$(probe_mode 0)" = off
	echo 1 > $P/test_probe_calibration
	echo 1 > $CP/node0/calibrate
fi
kill -TERM $daemon
wait $daemon
info "daemon log: $(grep -i 'probe' $DLOG | tr '\n' '|')"

# 8b. Per folio, as clearpaged's own (PerFolio=yes, the default): the
# temperature sample counts half of node 1's hugetlb folios cold (the
# verdict in turn), so clearing each with rep_stosb or the cheapest cold
# strategy as the probe finds it is predicted cheaper than kernel for all:
# clearpaged turns the probe mode on as the daemon (not pinned). The test
# build reports a fixed cost per strategy (the pair cheaper than kernel),
# so the confirmation keeps it. Stopping clearpaged ends it.
for n in $(nodes); do
	echo off > $CP/node$n/probe_huge
	echo kernel > $CP/node$n/strategy_huge
	echo 0 > $CP/node$n/pinned_huge
done
echo 3 > $P/test_probe_verdict
echo 400,300,300,350,100,100 > $P/test_cost_ns
printf '[Daemon]\nInterval=0.5\n[Policy]\nNonTemporal=yes\nTrialCandidates=0\n[CPU]\nAllowUnlistedCPU=yes\n' > /etc/clearpaged.conf
clearpaged > $DLOG 2>&1 &
daemon=$!
cptest fault --kind hugetlb --node 1 --mb 8 --seconds 20 --dirty --fault-at random >/tmp/probe-perfolio 2>&1 &
faulter=$!
check "clearpaged: node 1's huge backend per folio, rep_stosb for hot folios" \
	wait_log "node 1 huge: switched kernel -> per folio (hot rep_stosb, cold "
mode=$(probe_mode 1)
check "clearpaged: node 1's probe_huge is the daemon's pair ($mode), not pinned" \
	test "${mode%% *}" = rep_stosb -a "$(cat $CP/node1/pinned_huge)" = 0
check "clearpagectl status: the last change is the daemon's" \
	sh -c "clearpagectl status --json | grep -q '\"huge\":{\"strategy\":\"kernel\",\"pinned\":false,\"source\":\"daemon\"'"
sleep 3
check "clearpaged: per folio kept after its confirmation (the pair cheaper)" \
	sh -c "! grep -q 'node 1 huge: reverted' $DLOG && test '$(probe_mode 1)' != off"
kill -TERM $daemon
wait $daemon
[ $failed = 0 ] || info "daemon log: $(grep 'node 1 huge' $DLOG | tail -n 12 | tr '\n' '|')"
check "clearpaged stopped: node 1's probe mode ended with its return to kernel" \
	test "$(probe_mode 1)/$(backend_strategy 1 huge)" = off/kernel
wait $faulter
check "per folio under faults: every byte zero ($(tr '\n' ' ' < /tmp/probe-perfolio))" \
	grep -q 'nonzero=0' /tmp/probe-perfolio
echo 0,0,0,0,0,0 > $P/test_cost_ns
echo 0 > $P/test_probe_verdict
rm -f /etc/clearpaged.conf
for n in $(nodes); do echo "rep_stosb movnti" > $CP/node$n/probe_huge; done

# 9. Stress: faults on both nodes while the probe flips between pairs and
# off every 5 ms, its verdict in turn; every byte zero.
echo 3 > $P/test_probe_verdict
seconds=${CPVM_SECONDS:-16}
pairs="rep_stosb movnti,off,kernel movq,rep_stosb rep_stosb"
has clzero && pairs="$pairs,kernel clzero"
mkdir -p /tmp/probe
cptest fault --kind thp --node 0 --mb 16 --seconds $seconds --dirty --fault-at random >/tmp/probe/a 2>&1 &
pid_a=$!
cptest fault --kind hugetlb --node 1 --mb 8 --seconds $seconds --dirty --fault-at random >/tmp/probe/b 2>&1 &
pid_b=$!
cptest fault --kind thp --node 1 --mb 8 --seconds $seconds --dirty --fork >/tmp/probe/c 2>&1 &
pid_c=$!
cptest flip --nodes 0,1 --file probe_huge --strategies "$pairs" --interval-ms 5 --seconds $seconds >/tmp/probe/flip 2>&1 &
pid_flip=$!
t0=$(( $(probe_total 0) + $(probe_total 1) ))
wait_jobs /tmp/probe "probe stress" a:$pid_a b:$pid_b c:$pid_c flip:$pid_flip
check "the probe flipped while faulting" grep -Eq 'flips=[1-9][0-9]* failed=0' /tmp/probe/flip
check "folios were probed during the stress ($(( $(probe_total 0) + $(probe_total 1) - t0 )))" \
	test $(( $(probe_total 0) + $(probe_total 1) )) -gt $t0
for n in $(nodes); do
	info "node$n: probe_hot_huge $(stat_value $n probe_hot_huge), probe_cold_huge $(stat_value $n probe_cold_huge), probe_ns_huge $(stat_value $n probe_ns_huge), probe_recycled_huge $(stat_value $n probe_recycled_huge)"
	for b in 4k huge; do
		check "node$n: the $b units hot only as recycled are some of those counted hot ($(stat_value $n probe_recycled_$b) of $(stat_value $n probe_hot_$b))" \
			test $(stat_value $n probe_recycled_$b) -le $(stat_value $n probe_hot_$b)
	done
done

info "probe suite checked $total_pages pages"
check "clearpagectl unload at the end" clearpagectl unload
