# clearpaged deciding and acting, per node and backend. The test build of the
# module reports a real CPU's calibration for both backends (an AMD EPYC's:
# rep_stosb 70 ns hot, 411 ns cold; movnti 203/206), while the emulated
# CPU's clears cost far more than 411 ns: the pages measure cold, so the
# daemon must switch both backends of both nodes to movnti through netlink
# and confirm; on the 4k backend the reference frames keep saying cold, so
# it stays without probing; without them it probes rep_stosb and reverts.
# That is the policy without trials (TrialCandidates=0: the model from the
# calibration). Then: an administrator's pin made while it runs is
# respected, CPU hotplug is noticed, SIGTERM returns what it set to kernel,
# and a dry run changes nothing while it says what it would do, also after
# a reload. Last, with trials (the default): the test build reports a fixed
# cost per strategy for every timed clear (test_cost_ns), movq the
# cheapest, which the calibration ranks last on cold pages. The daemon must
# try the calibration's cheapest cold strategy on the whole node and revert
# it (it saves nothing), time its candidates on trial frames, counted per
# candidate, switch every backend to movq from them, and end the trials
# when it stops.
DLOG=/tmp/clearpaged.log

# json_field NODE BACKEND FIELD: a string field of the backend's state.
json_field() {
	clearpagectl status --json | sed 's/{"node":/\n{"node":/g' |
		grep "^{\"node\":$1," |
		sed -n "s/.*\"$2\":{[^}]*\"$3\":\"\\([a-z_]*\\)\".*/\\1/p"
}
# state: every backend's strategy and the source of its last change.
state() {
	for n in 0 1; do
		for b in 4k huge; do
			echo "$n/$b:$(backend_strategy $n $b):$(json_field $n $b source)"
		done
	done | tr '\n' ' '
}
# wait_state NODE BACKEND STRATEGY:SOURCE: until the module's status shows
# it, for at most 10 s.
wait_state() {
	i=0
	while [ "$(json_field $1 $2 strategy):$(json_field $1 $2 source)" != "$3" ]; do
		i=$((i + 1))
		[ $i -gt 100 ] && return 1
		sleep 0.1
	done
}
# decisions NODE: how many switches and reverts the log has for the node.
decisions() { grep -c "node $1 [a-z0-9]*: \(switched\|reverted\)" $DLOG; }

# reference_shift=3: one frame in 8 (a page, a folio place) a reference,
# so that every interval has enough of them under TCG (at one in 32 an
# interval with fewer than MinSamples left the cold fraction unknown and
# the policy probed the 4k backend, now and then).
if ! load_module clearpage-test "testing=1 sample_shift=0 reference_shift=3"; then
	fail "insmod clearpage-test.ko"
	return 0
fi
info "calibration node0: $(tr '\n' ';' < $CP/node0/calibration_4k)"
for b in 4k huge; do
	check "the test build reports the EPYC calibration ($b)" \
		grep -q "^rep_stosb 70 411" $CP/node0/calibration_$b
done

mkdir -p /etc/clearpaged.conf.d
# NonTemporal=yes: the emulated CPU has no PMU to watch movnti's misses.
printf '[Daemon]\nInterval=0.2\nLogLevel=debug\n[CPU]\nAllowUnlistedCPU=yes\n[Policy]\nProbeIntervals=15\nNonTemporal=yes\nTrialCandidates=0\n' \
	> /etc/clearpaged.conf
# Pages to clear on both nodes, all the time: transparent huge pages, which
# go through the huge backend whatever its strategy, and 4 KiB pages, which
# the 4k backend sees only while some node's 4k backend runs something other
# than kernel (the probe costs nothing otherwise): an administrator starts
# it on rep_stosb and hands it to the daemon.
clearpagectl set all rep_stosb --backend 4k
clearpagectl unpin all --backend 4k
cptest fault --kind thp --node 0 --mb 8 --seconds 600 >/tmp/load0 2>&1 &
load0=$!
cptest fault --kind thp --node 1 --mb 8 --seconds 600 >/tmp/load1 2>&1 &
load1=$!
cptest fault --kind 4k --node 0 --mb 4 --seconds 600 >/tmp/load2 2>&1 &
load2=$!
cptest fault --kind 4k --node 1 --mb 4 --seconds 600 >/tmp/load3 2>&1 &
load3=$!

clearpaged >$DLOG 2>&1 &
daemon=$!
check "attaches" wait_log "attached to the clearpage module"
check "says once that there are no cache-miss counters" \
	wait_log "no cache-miss counters (perf_event_open"
for n in 0 1; do
	check "node $n huge: switched kernel -> movnti because the pages are cold" \
		wait_log "node $n huge: switched kernel -> movnti: pages are mostly cold" 1 60
	check "node $n 4k: switched rep_stosb -> movnti because the pages are cold" \
		wait_log "node $n 4k: switched rep_stosb -> movnti: pages are mostly cold" 1 60
	# Without trials the huge backend probes rep_stosb every 15 intervals
	# and reverts after 3: the module's state is read until it shows
	# movnti (at most 10 s), not once at a moment that may fall in a probe.
	for b in 4k huge; do
		check "node $n $b: the module says the daemon set movnti" \
			wait_state $n $b movnti:daemon
	done
done
[ $failed = 0 ] || info "daemon log so far: $(tail -n 20 $DLOG | tr '\n' '|')"
# movnti's calibrated cost is flat; the 4k backend's reference frames (the
# kernel's routine, timed) keep telling the policy the pages are cold: no
# probe.
mark=$(wc -l < $DLOG)
sleep 5	# more than ProbeIntervals
check "on movnti the reference frames tell the 4k backend the cold fraction (1.00)" sh -c \
	"tail -n +$mark $DLOG | grep -q 'node 0 4k: movnti, [0-9]* samples, .* cold 1.00,'"
check "so the policy does not probe the 4k backend" \
	sh -c "! grep -q '4k: switched movnti -> rep_stosb: probing whether' $DLOG"
info "node 0 reference frames: $(grep '^reference_' $CP/node0/stats | tr '\n' ' ')"
# Without reference frames the policy has to probe.
echo 0 > /sys/module/clearpage/parameters/reference_shift
check "without reference frames a probe of rep_stosb follows" \
	wait_log "4k: switched movnti -> rep_stosb: probing whether the pages turned hot" 1 60
check "and is reverted, the pages still being cold" \
	wait_log "4k: reverted rep_stosb -> movnti: the switch did worse than before it" 1 60

clearpagectl pin 0
check "an administrator's pin is seen and logged, per backend" \
	wait_log "node 0 pinned to [a-z_]* by an administrator; leaving it alone" 2
pinned_as="$(backend_strategy 0 4k)/$(backend_strategy 0 huge)"
switches=$(decisions 0)
sleep 6	# two probe intervals
check "the pinned node is left alone ($pinned_as)" \
	test "$(backend_strategy 0 4k)/$(backend_strategy 0 huge):$(json_field 0 4k source):$(json_field 0 huge source):$(decisions 0)" = "$pinned_as:admin:admin:$switches"
clearpagectl unpin 0
check "the unpin is seen and logged, per backend" \
	wait_log "node 0 unpinned by an administrator; clearpaged manages it again" 2

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
	for b in 4k huge; do
		[ "$(json_field $n $b source)" = daemon ] && by_daemon="$by_daemon $n/$b"
	done
done
stop_job $daemon
check "SIGTERM stops it cleanly (exit 0)" test $? -eq 0
check "node 1 was the daemon's at stop ($by_daemon)" sh -c "echo '$by_daemon' | grep -q '1/huge'"
for u in $by_daemon; do
	check "node ${u%/*} ${u#*/}, set by the daemon, is returned to kernel on stop" \
		test "$(backend_strategy ${u%/*} ${u#*/})" = kernel
done
info "daemon log: $(grep -v ' samples, ' $DLOG | tr '\n' '|')"

DLOG=/tmp/dry.log
state_before=$(state)
clearpaged --dry-run >$DLOG 2>&1 &
dry=$!
check "dry run: says what it would do" \
	wait_log "huge: dry run: would switch kernel -> movnti: pages are mostly cold" 1 60
check "dry run: changes nothing ($state_before)" test "$(state)" = "$state_before"
# A reload (systemctl reload, logrotate) re-reads the files, which do not
# say DryRun=yes: the command line's --dry-run must hold.
kill -HUP $dry
check "a reload keeps --dry-run, and says so" \
	wait_log "configuration reloaded (dry run: --dry-run on the command line)" 1 10
sleep 4	# 20 intervals: a live daemon would have switched by now
check "after the reload the dry run still changes nothing" test "$(state)" = "$state_before"
check "and it logged no real switch" sh -c "! grep -q ': switched ' $DLOG"
stop_job $dry

# Trials. Every backend starts on kernel, unpinned; every strategy costs
# 400 ns a page but movq, 280 (ids: kernel rep_stosb rep_stosq movq movnti
# clzero): 0.57 on the calibration's hot-cold scale of movq, between
# DownThreshold and UpThreshold, so nothing is tried from movq; and on movq
# the other candidates are 43% dearer, short of the half that rests a
# candidate from trials, so trials run until the crash below.
# trial_shift=3: candidates own 1 frame (folio position) in 8 each, so the
# few dozen folios the THP loads recycle include some; TrialCandidates=4
# times movq, which the calibration ranks last (twins never include the
# kernel, whose row may be a copy of rep_stosb's).
DLOG=/tmp/trials.log
clearpagectl set all kernel
clearpagectl unpin all
echo 400,400,400,280,400,400 > /sys/module/clearpage/parameters/test_cost_ns
echo 3 > /sys/module/clearpage/parameters/trial_shift
cptest fault --kind thp --node 0 --mb 64 --seconds 600 >/tmp/load4 2>&1 &
load4=$!
cptest fault --kind thp --node 1 --mb 64 --seconds 600 >/tmp/load5 2>&1 &
load5=$!
printf '[Daemon]\nInterval=0.2\nLogLevel=debug\n[CPU]\nAllowUnlistedCPU=yes\n[Policy]\nNonTemporal=yes\nTrialCandidates=4\n' \
	> /etc/clearpaged.conf
clearpaged >$DLOG 2>&1 &
daemon=$!
check "trials: attaches" wait_log "attached to the clearpage module"
check "trials: the daemon names candidates for every backend" \
	wait_log "node [01] [a-z0-9]*: trials 0x" 4 30
candidates=""
for n in 0 1; do
	for b in 4k huge; do
		t=$(cat $CP/node$n/trials_$b)
		candidates="$candidates $n/$b:$(echo $t | tr ' ' ,)"
		# The first candidates it named, while on kernel: the files
		# may already show those of a later strategy (movq itself is
		# no candidate of its own).
		first=$(grep -m 1 "node $n $b: trials 0x" $DLOG | sed 's/.*trials \(0x[0-9a-f]*\).*/\1/')
		check "trials: node $n $b first timed movq among its candidates (${first:-none}; now $t)" \
			test -n "$first" -a "$(( ${first:-0} & (1 << 3) ))" -ne 0
	done
done
for n in 0 1; do
	for b in 4k huge; do
		check "trials: node $n $b tried the calibration's cheapest cold strategy on the whole node" \
			wait_log "node $n $b: switched kernel -> [a-z_]*: trying the cheapest cold strategy on the whole node" 1 60
		# Whichever measure ends the try first: the node's cost
		# (no saving), the touch probe's share of a non-temporal
		# clear (not known in time on a slow host), the live
		# baseline.
		wait_log "node $n $b: reverted [a-z_]* -> kernel: \(the switch did not save the margin on the whole node\|the touch probe did not tell what the non-temporal clears cost the application\|slower than the kernel's routine\)" 1 90
		reverted=$?
		check "trials: node $n $b reverted the try, which saved nothing ($(grep -m 1 "node $n $b: reverted [a-z_]* -> kernel" $DLOG | sed 's/.*-> kernel: //'))" \
			test $reverted = 0
		check "trials: node $n $b switched kernel -> movq, measured cheaper on trial frames" \
			wait_log "node $n $b: switched kernel -> movq: measured cheaper on trial frames" 1 60
	done
done
[ $failed = 0 ] || info "trials decisions so far: $(grep -e ': switched ' -e ': reverted ' $DLOG | tr '\n' '|')"
for c in $candidates; do
	nb=${c%%:*}
	for s in $(echo ${c#*:} | tr , ' '); do
		check "trials: node ${nb%/*} ${nb#*/}: trial frames of $s counted ($(stat_value ${nb%/*} trial_pages_${nb#*/}_$s) pages)" \
			test "$(stat_value ${nb%/*} trial_pages_${nb#*/}_$s)" -gt 0
	done
done
check "trials: on movq, the candidates are others (node 0 huge: $(cat $CP/node0/trials_huge))" \
	sh -c "! grep -qw movq $CP/node0/trials_huge"
info "node0 trials: $(grep -E '^trial_' $CP/node0/stats | awk '$2 > 0' | tr '\n' ' ')"

# source_of NODE BACKEND: who made the backend's last change.
source_of() {
	clearpagectl status --json | sed 's/{"node":/\n{"node":/g' | grep "^{\"node\":$1," |
		sed -n "s/.*\"$2\":{[^}]*\"source\":\"\([a-z]*\)\".*/\1/p"
}
# backends: every backend's strategy/source, node 0 4k first.
backends() {
	for n in 0 1; do
		for b in 4k huge; do
			printf '%s/%s ' "$(backend_strategy $n $b)" "$(source_of $n $b)"
		done
	done
}

# clearpagectl status shows the daemon: running, acting, each backend's
# last decision with its reason.
status_text >/tmp/status.out 2>&1
clearpagectl status --json >/tmp/status.json 2>/tmp/status.err
emit_json status /tmp/status.json
check "status: clearpaged running and attached ($(head -n 2 /tmp/status.out | tr '\n' '|'))" \
	grep -q "^clearpaged: running, pid $daemon, attached to the module" /tmp/status.out
check "status: acting" grep -qx "  acting: switches unpinned backends" /tmp/status.out
check "status: each backend's last decision, with its reason" \
	test "$(grep -c '^  [a-z0-9]* *last decision .*: switched kernel -> movq: measured cheaper on trial frames' /tmp/status.out)" = 4
check "status --json: the daemon" \
	grep -q "\"daemon\":{\"running\":true,\"pid\":$daemon,\"updated_unix_ns\":[0-9]*,\"attached\":true,\"dry_run\":false,\"monitor_only\":false}" /tmp/status.json
check "status --json: the last decision per backend" \
	test "$(grep -o '"held":false,"last_decision":{"time_unix_ns":[0-9]*,"action":"switched","from":"kernel","to":"movq","reason":"measured cheaper on trial frames"}' /tmp/status.json | wc -l)" = 4

# clearpagectl reset: node 0 back to kernel, unpinned, and the daemon,
# told, leaves it there (it would try and switch it again within a few
# intervals otherwise) until clearpagectl unpin hands it back; a reload
# hands back what reset node 1's huge backend.
pinned_of() {
	clearpagectl status --json | sed 's/{"node":/\n{"node":/g' | grep "^{\"node\":$1," |
		sed -n "s/.*\"$2\":{[^}]*\"pinned\":\([a-z]*\).*/\1/p"
}
node0_switches() { grep -c "node 0 [a-z0-9]*: switched" $DLOG; }
clearpagectl reset 0 >/tmp/reset.out 2>&1
check "reset: says what it did ($(tr '\n' '|' </tmp/reset.out))" \
	test "$(grep -c '^node 0 [a-z0-9]*: movq -> kernel, not pinned$' /tmp/reset.out)" = 2
check "reset: and that clearpaged leaves them" grep -q "clearpaged leaves them on kernel until 'clearpagectl unpin'" /tmp/reset.out
check "reset: node 0 on kernel, unpinned ($(backends))" \
	test "$(backend_strategy 0 4k) $(backend_strategy 0 huge) $(pinned_of 0 4k) $(pinned_of 0 huge)" = "kernel kernel false false"
for b in 4k huge; do
	check "reset: the daemon says it leaves node 0 $b alone" \
		wait_log "node 0 reset to kernel by clearpagectl: leaving it alone until clearpagectl unpin or a reload ($b backend)"
done
switches=$(node0_switches)
sleep 6
check "reset: 30 intervals later node 0 is still on kernel ($(backends)), no switch since" \
	test "$(backend_strategy 0 4k) $(backend_strategy 0 huge) $(node0_switches)" = "kernel kernel $switches"
check "reset: status says so" sh -c "clearpagectl status | grep -q '^  4k    reset by clearpagectl: clearpaged leaves it'"
check "reset: unpin hands node 0 back" clearpagectl unpin 0
check "reset: the daemon says so" \
	wait_log "node 0 handed back after clearpagectl reset: clearpaged manages it again (huge backend)"
check "reset: and switches node 0 again" \
	wait_log "node 0 [a-z0-9]*: switched kernel -> movq: measured cheaper on trial frames" 4 60
clearpagectl reset 1 --backend huge >/dev/null
check "reset: node 1 huge held" wait_log "node 1 reset to kernel by clearpagectl: leaving it alone until clearpagectl unpin or a reload (huge backend)"
kill -HUP $daemon
check "reset: a reload hands it back" \
	wait_log "node 1 handed back after clearpagectl reset: clearpaged manages it again (huge backend)" 1 20
check "reset: and the daemon switches it again" \
	wait_log "node 1 huge: switched kernel -> movq: measured cheaper on trial frames" 2 60
for n in 0 1; do
	for b in 4k huge; do
		wait_state $n $b movq:daemon
	done
done

# A crash. SIGKILL leaves what the daemon set, trials running; what the
# unit's ExecStopPost= runs then, clearpagectl release, returns to kernel
# what the daemon set and nobody pinned, and ends the trials.
all_trials() { cat $CP/node0/trials_4k $CP/node0/trials_huge $CP/node1/trials_4k $CP/node1/trials_huge | tr '\n' ' '; }
kill -KILL $daemon
wait $daemon 2>/dev/null
check "status after a crash: not running, did not stop cleanly" \
	status_has "^clearpaged: not running (pid $daemon, last update .*: it did not stop cleanly)"
check "crash: SIGKILL leaves every backend on movq, set by the daemon ($(backends))" \
	test "$(backends)" = "movq/daemon movq/daemon movq/daemon movq/daemon "
check "crash: and the trials running ($(all_trials))" test "$(all_trials)" != "none none none none "
clearpagectl set 1 rep_stosq --backend 4k >/dev/null
clearpagectl release >/tmp/release.out 2>&1
check "crash: clearpagectl release returns what the daemon set, not what an admin pinned ($(backends); $(tr '\n' '|' < /tmp/release.out))" \
	test "$(backends)" = "kernel/daemon kernel/daemon rep_stosq/admin kernel/daemon "
check "crash: it says what it returned, one line each" \
	test "$(grep -c -- '-> kernel (set by clearpaged)' /tmp/release.out)" = 3
check "crash: and the trials end" test "$(all_trials)" = "none none none none "
check "crash: release with nothing to return changes nothing" \
	sh -c "clearpagectl release && test \"\$(cat $CP/node1/strategy_4k $CP/node0/strategy_huge | sed -n 's/.*\[\([a-z_]*\)\].*/\1/p' | tr '\n' ' ')\" = 'rep_stosq kernel '"
clearpagectl set 1 kernel --backend 4k >/dev/null
clearpagectl unpin 1 --backend 4k >/dev/null

# An earlier daemon's choices, found by a new one (kill -9 outside
# systemd, or a lost event socket): adopted, guarded, returned on stop.
nltest set 0 movnti daemon --expect ok >/dev/null
nltest set 1 movnti daemon --expect ok --backend huge >/dev/null
DLOG=/tmp/adopt.log
clearpaged >$DLOG 2>&1 &
daemon=$!
check "adopt: a new clearpaged adopts node 0 4k" \
	wait_log "node 0 4k: on movnti, set by an earlier clearpaged: adopted, guarded and returned to kernel on stop"
check "adopt: and node 1 huge" \
	wait_log "node 1 huge: on movnti, set by an earlier clearpaged: adopted"
check "adopt: not node 1 4k, set by an administrator" \
	sh -c "! grep -q 'node 1 4k: on .*adopted' $DLOG"
stop_job $daemon
check "trials: SIGTERM stops it cleanly (exit 0)" test $? -eq 0
check "adopt: on stop every backend is back on kernel ($(backends))" \
	test "$(backend_strategy 0 4k) $(backend_strategy 0 huge) $(backend_strategy 1 4k) $(backend_strategy 1 huge)" = "kernel kernel kernel kernel"
check "adopt: the log says so" wait_log "node 1 huge returned to kernel"
check "status after a clean stop: not running" \
	status_has '^clearpaged: not running (systemctl start clearpaged)'
check "trials end with the daemon" test "$(all_trials)" = "none none none none "

# A reload that leaves what the daemon set unguarded returns it, saying
# why: into a dry run, and into an allowlist without the strategy. No
# trials, a dwell longer than the test: the daemon holds what it adopted
# or probes rep_stosb from it, and the allowlist allows neither.
hold_conf='[Daemon]\nInterval=0.2\nLogLevel=debug\n[CPU]\nAllowUnlistedCPU=yes\n[Policy]\nNonTemporal=yes\nTrialCandidates=0\nDwellIntervals=3600\nProbeIntervals=86400\n'
printf "$hold_conf" > /etc/clearpaged.conf
nltest set 0 movnti daemon --expect ok >/dev/null
nltest set 1 movnti daemon --expect ok --backend huge >/dev/null
DLOG=/tmp/reload-dry.log
clearpaged >$DLOG 2>&1 &
daemon=$!
check "reload: adopted before the reload" wait_log "set by an earlier clearpaged: adopted" 3
mkdir -p /etc/clearpaged.conf.d
printf '[Daemon]\nDryRun=yes\n' > /etc/clearpaged.conf.d/60-dry.conf
kill -HUP $daemon
check "reload into a dry run: reloaded" wait_log "configuration reloaded" 1 20
for nb in "0 4k" "0 huge" "1 huge"; do
	check "reload into a dry run: node $nb returned to kernel, saying why" \
		wait_log "node $nb: returned [a-z_]* to kernel: a dry run changes nothing and returns nothing on stop"
done
check "reload into a dry run: every backend on kernel ($(backends))" \
	test "$(backend_strategy 0 4k) $(backend_strategy 0 huge) $(backend_strategy 1 4k) $(backend_strategy 1 huge)" = "kernel kernel kernel kernel"
rm /etc/clearpaged.conf.d/60-dry.conf
stop_job $daemon
nltest set 0 movnti daemon --expect ok >/dev/null
DLOG=/tmp/reload-allow.log
clearpaged >$DLOG 2>&1 &
daemon=$!
check "reload: adopted again" wait_log "node 0 4k: on movnti, set by an earlier clearpaged: adopted"
eval "$(tr ' ' '\n' < $CP/cpu)"
mkdir -p /etc/clearpaged/cpu-allowlist.d
echo "$vendor $family $model * rep_stosq" > /etc/clearpaged/cpu-allowlist.d/50-test.conf
kill -HUP $daemon
check "reload into an allowlist: reloaded" wait_log "configuration reloaded" 1 20
check "reload into an allowlist: the daemon runs on" kill -0 $daemon
check "reload into an allowlist: this CPU is on it" wait_log "is on the allowlist (/etc/clearpaged/cpu-allowlist.d/50-test.conf:1)" 1 20
check "reload into an allowlist of rep_stosq only: node 0 4k returned to kernel, saying why" \
	wait_log "node 0 4k: returned [a-z_]* to kernel: the allowlist no longer allows [a-z_]* here"
check "and node 0 huge" \
	wait_log "node 0 huge: returned [a-z_]* to kernel: the allowlist no longer allows [a-z_]* here"
check "reload into an allowlist of rep_stosq only: node 0 on kernel" \
	test "$(backend_strategy 0 4k) $(backend_strategy 0 huge)" = "kernel kernel"
rm /etc/clearpaged/cpu-allowlist.d/50-test.conf
stop_job $daemon
[ $failed = 0 ] || info "reload logs: $(grep -hv ' samples, ' /tmp/reload-dry.log $DLOG | tr '\n' '|')"
for l in $load4 $load5; do stop_job $l; done
for l in 4 5; do
	check "the trials' load saw only zeroed pages ($(cat /tmp/load$l | tr '\n' ' '))" grep -q "nonzero=0" /tmp/load$l
done
for l in $load0 $load1 $load2 $load3; do stop_job $l; done
for l in 0 1 2 3; do
	check "the load saw only zeroed pages ($(cat /tmp/load$l | tr '\n' ' '))" grep -q "nonzero=0" /tmp/load$l
done
check "clearpagectl unload" clearpagectl unload
