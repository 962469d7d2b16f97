# The touch probe: some of the pages and folios a non-temporal routine
# cleared are held for touch_delay_ms, then one line of each is loaded,
# timed, against the node's probe threshold: cached when the application
# touched it since. An emulated CPU's probe calibration cannot tell a
# cached line from memory, so there nothing may be held; the test build
# then reports a real CPU's calibration (test_probe_calibration=1) and,
# where the verdict must be known, decides it (test_touch_verdict: 1
# cached, 2 not, 3 in turn) after the load. What must hold whatever the
# timing: only non-temporal clears are held, never a hugetlb folio, every
# held page is released (probed, or skipped when the application freed it
# first, or at unload), the parameters refuse bad values, and every byte
# the application sees is zero while pages are held under a stress.
P=/sys/module/clearpage/parameters

if ! load_module clearpage-test "testing=1 reference_shift=0 test_probe_verdict=0"; then
	fail "insmod clearpage-test.ko testing=1"
	return 0
fi
avail=$(strategies)
has() { echo " $avail " | grep -q " $1 "; }
nt=movnti
has clzero && nt="movnti clzero"
info "strategies: $avail"

# touched NODE BACKEND: lines probed plus pages skipped, so far.
touched() { echo $(( $(stat_value $1 touch_probed_$2) + $(stat_value $1 touch_skipped_$2) )); }
held() { stat_value $1 touch_held; }
# released NODE: until no page of the node is held any more (at most 10 s).
none_held() { test "$(held $1)" = 0; }
released() { wait_for 10 none_held $1; }
param() { cat $P/$1; }

# 1. The parameters: defaults, and bad values refused with nothing changed.
check "touch_delay_ms is 10 at load" test "$(param touch_delay_ms)" = 10
check "touch_shift is 4 at load" test "$(param touch_shift)" = 4
for bad in 1001 -1 abc 1e3 "10 "; do
	check "touch_delay_ms refuses '$bad' (EINVAL)" \
		cptest write $P/touch_delay_ms --data "$bad" --expect EINVAL
done
for bad in 17 -1 x; do
	check "touch_shift refuses '$bad' (EINVAL)" \
		cptest write $P/touch_shift --data "$bad" --expect EINVAL
done
check "refused writes left touch_delay_ms and touch_shift as they were" \
	test "$(param touch_delay_ms)/$(param touch_shift)" = 10/4
for n in $(nodes); do
	check "node$n stats have the touch probe's counters" \
		sh -c "grep -q '^touch_probed_4k ' $CP/node$n/stats && grep -q '^touch_cached_huge ' $CP/node$n/stats && grep -q '^touch_held ' $CP/node$n/stats"
done
echo 0 > $P/touch_shift
echo 2 > $P/touch_delay_ms
for n in $(nodes); do
	echo movnti > $CP/node$n/strategy_4k
	echo movnti > $CP/node$n/strategy_huge
done

# 2. A node that cannot tell a cached line from memory holds nothing.
threshold=$(awk '$1 == "threshold_ticks" { print $2 }' $CP/node0/probe_calibration)
if [ "$threshold" = 0 ]; then
	t0=$(touched 0 4k)
	fault "movnti 4k node0, no probe threshold" --kind 4k --node 0 --mb 16 --dirty
	check "no threshold: no 4 KiB page held or probed" test "$(touched 0 4k)" = $t0 -a "$(held 0)" = 0
else
	skip "a node without a threshold: this CPU's probe calibration tells them apart (threshold $threshold ticks)"
fi

# 3. A real CPU's calibration: 4 KiB pages and THP cleared non-temporally
# are held and probed; the verdict decides cached or not.
echo 1 > $P/test_probe_calibration
for n in $(nodes); do echo 1 > $CP/node$n/calibrate; done
for s in $nt; do
	for n in $(nodes); do echo $s > $CP/node$n/strategy_4k; echo $s > $CP/node$n/strategy_huge; done
	t0=$(touched 0 4k) h0=$(touched 1 huge)
	fault "$s 4k node0 (touch probe)" --kind 4k --node 0 --mb 32 --dirty
	fault "$s thp node1 (touch probe)" --kind thp --node 1 --mb 32 --dirty --fault-at random
	released 0; released 1
	check "$s: node0's 4 KiB pages were touch-probed or skipped ($(( $(touched 0 4k) - t0 )))" \
		test $(touched 0 4k) -gt $t0
	check "$s: node1's THP were touch-probed or skipped ($(( $(touched 1 huge) - h0 )))" \
		test $(touched 1 huge) -gt $h0
done
# A process that keeps its pages: every probe loads (none skipped), and
# the verdict is what is counted. Every command of this suite faults 4 KiB
# pages on node 0 too (awk reading the counters among them), which are held
# and probed while node 0 clears non-temporally: the counters are read only
# while it clears with rep_stosb and nothing is held, so that no probe
# falls between two reads.
quiet_4k() { echo rep_stosb > $CP/node0/strategy_4k; released 0; }
for verdict in 1:all 2:none; do
	echo ${verdict%%:*} > $P/test_touch_verdict
	quiet_4k
	p0=$(stat_value 0 touch_probed_4k) c0=$(stat_value 0 touch_cached_4k)
	echo movnti > $CP/node0/strategy_4k
	fault "verdict ${verdict%%:*}: movnti 4k node0, pages kept for a while" --kind 4k --node 0 --mb 32 --rounds 4
	quiet_4k
	dp=$(( $(stat_value 0 touch_probed_4k) - p0 )) dc=$(( $(stat_value 0 touch_cached_4k) - c0 ))
	case ${verdict##*:} in
	all) check "verdict 1: every probed line counted cached ($dc of $dp)" test $dp -gt 0 -a $dc = $dp ;;
	none) check "verdict 2: no probed line counted cached ($dc of $dp)" test $dp -gt 0 -a $dc = 0 ;;
	esac
done
echo 0 > $P/test_touch_verdict

# 4. Only non-temporal clears are held; never a hugetlb folio.
for n in $(nodes); do echo rep_stosb > $CP/node$n/strategy_4k; echo rep_stosb > $CP/node$n/strategy_huge; done
t0=$(touched 0 4k) h0=$(touched 0 huge)
fault "rep_stosb 4k node0" --kind 4k --node 0 --mb 16 --dirty
fault "rep_stosb thp node0" --kind thp --node 0 --mb 16 --dirty
check "a temporal strategy holds nothing" test "$(touched 0 4k)/$(touched 0 huge)/$(held 0)" = "$t0/$h0/0"
# A temporal strategy with a non-temporal trial candidate: its trial
# frames are held and probed (every one while a slot is free), so that
# the candidate's cost to the application is known before any switch.
echo 3 > $P/trial_shift
echo 0 > $CP/node0/pinned
echo movnti > $CP/node0/trials_4k
echo movnti > $CP/node0/trials_huge
t0=$(touched 0 4k) h0=$(touched 0 huge)
fault "rep_stosb 4k node0, trials movnti" --kind 4k --node 0 --mb 32 --dirty
fault "rep_stosb thp node0, trials movnti" --kind thp --node 0 --mb 64 --dirty --fault-at random
released 0
check "movnti's 4 KiB trial frames touch-probed while node0 clears with rep_stosb ($(( $(touched 0 4k) - t0 )))" \
	test $(touched 0 4k) -gt $t0
check "movnti's THP trial frames touch-probed while node0 clears with rep_stosb ($(( $(touched 0 huge) - h0 )))" \
	test $(touched 0 huge) -gt $h0
echo none > $CP/node0/trials_4k
echo none > $CP/node0/trials_huge
echo 6 > $P/trial_shift
# (While a node clears non-temporally, every command of this suite faults
# pages that may be held: only now must none be.)
check "node0: every held page released once nothing clears non-temporally" none_held 0
check "node1: every held page released once nothing clears non-temporally" none_held 1
for n in $(nodes); do echo movnti > $CP/node$n/strategy_huge; done
h0=$(touched 1 huge)
fault "movnti hugetlb node1" --kind hugetlb --node 1 --mb 16 --dirty --fault-at random
check "hugetlb folios are never held" test "$(touched 1 huge)/$(held 1)" = "$h0/0"
echo 0 > $P/touch_delay_ms
for n in $(nodes); do echo movnti > $CP/node$n/strategy_4k; done
t0=$(touched 0 4k)
fault "movnti 4k node0, touch_delay_ms=0" --kind 4k --node 0 --mb 16 --dirty
check "touch_delay_ms=0: nothing held" test "$(touched 0 4k)/$(held 0)" = "$t0/0"

# 5. Pages freed before their probe: released unprobed, counted skipped.
echo 1000 > $P/touch_delay_ms
s0=$(stat_value 0 touch_skipped_4k)
fault "movnti 4k node0, freed at once" --kind 4k --node 0 --mb 8
check "pages are held for the probe ($(held 0))" test "$(held 0)" -gt 0
released 0
check "pages freed before their probe were skipped ($(( $(stat_value 0 touch_skipped_4k) - s0 )))" \
	test $(stat_value 0 touch_skipped_4k) -gt $s0
check "clearpagectl status shows the touch probe" \
	sh -c "clearpagectl status | grep -q '4k    touch probe: [0-9]* of [0-9]* lines cached'"
emit_json_of status clearpagectl status --json
check "clearpagectl status --json has the touch probe" \
	sh -c "clearpagectl status --json | grep -q '\"touch_probed\":[0-9]*,\"touch_cached\":[0-9]*,\"touch_skipped\":[0-9]*'"

# 6. Stress: faults of every kind on both nodes while the strategies flip
# every 5 ms and pages are held; every byte zero.
echo 3 > $P/test_touch_verdict
echo 1 > $P/touch_delay_ms
seconds=${CPVM_SECONDS:-16}
flips="movnti,rep_stosb,movq,kernel"
has clzero && flips="$flips,clzero"
mkdir -p /tmp/touch
t0=$(( $(touched 0 4k) + $(touched 1 4k) + $(touched 0 huge) + $(touched 1 huge) ))
background_faults /tmp/touch $seconds
cptest flip --nodes 0,1 --strategies "$flips" --interval-ms 5 --seconds $seconds >/tmp/touch/flip 2>&1 &
pid_flip=$!
wait_jobs /tmp/touch "touch stress" $fault_jobs flip:$pid_flip
check "the strategies flipped while faulting" grep -Eq 'flips=[1-9][0-9]* failed=0' /tmp/touch/flip
t1=$(( $(touched 0 4k) + $(touched 1 4k) + $(touched 0 huge) + $(touched 1 huge) ))
check "pages were held and probed during the stress ($((t1 - t0)))" test $t1 -gt $t0
for n in $(nodes); do
	released $n
	info "node$n: $(grep '^touch_' $CP/node$n/stats | tr '\n' ' ')"
done

# 7. Unloading with pages held releases them.
echo 1000 > $P/touch_delay_ms
for n in $(nodes); do echo movnti > $CP/node$n/strategy_4k; done
fault "movnti 4k node0, then unload at once" --kind 4k --node 0 --mb 32 --rounds 4
h=$(held 0)
info "held at unload: $h"
check "clearpagectl unload with pages held" clearpagectl unload
check "the module is gone" test ! -d $CP

info "touch suite checked $total_pages pages"
