# Strategy flips under faults, beside livepatch transitions, with the
# vCPUs really in parallel (run-all.sh boots it with multi-threaded TCG):
# every node flips through every strategy every 5 ms, so the 4k backend's
# kretprobe is registered and unregistered over and over (text patching),
# while 4 KiB, THP, forked and hugetlb faults run on both nodes and another
# livepatch is loaded, disabled and removed again and again (its
# transitions, and the ftrace updates that patch and unpatch it), and
# clearpage itself is unloaded and loaded twice. Any Oops, WARN or BUG
# fails the run (panic_on_warn); every byte must read zero. Booted with
# init_on_alloc=0 and hugetlb pages.
LP=/sys/kernel/livepatch/klp_other

gone() { test ! -e $LP; }

if ! load_module clearpage; then
	fail "insmod clearpage.ko"
	return 0
fi
avail=$(strategies)
info "vCPUs: $(nproc); strategies: $avail"
check "two vCPUs online" test "$(nproc)" -ge 2

# Another livepatch present: on 6.1, whose unwinder WARNs at a kretprobe
# return address of a preempted task, the 4k backend stays off while it is
# (a write to its enabled file could start a transition at any time);
# later kernels keep it on once the other patch is applied.
set_all movq
check "another livepatch loads" insmod /modules/klp_other.ko replace=0
check "its transition completes" wait_for 30 no_transition klp_other
case "$(uname -r)" in
6.1.*) want="4k inactive: livepatch klp_other is present" ;;
*) want="4k active" ;;
esac
check "with another livepatch present: $want" wait_for 10 grep -q "^$want" $CP/backends
# The same answer whoever asks: the arming decision for a request sent
# from a mount namespace without /sys (6.1's test once looked for other
# patches in /sys/kernel/livepatch from the kernel, in the caller's
# namespace, and found none there).
set_all kernel
check "a set from a mount namespace without /sys" \
	unshare -m sh -c 'umount /sys && clearpagectl set 0 movq --backend 4k >/dev/null'
check "then too: $want" wait_for 10 grep -q "^$want" $CP/backends
set_all movq
check "the other livepatch is disabled and removed" \
	sh -c "echo 0 > $LP/enabled" && wait_for 30 gone && rmmod klp_other
check "without it: 4k active" wait_for 10 grep -qx "4k active" $CP/backends

seconds=${CPVM_SECONDS:-30}
background_faults /tmp/flip $seconds
cptest flip --nodes 0,1 --strategies "$(echo $avail | tr ' ' ',')" --interval-ms 5 --seconds $seconds >/tmp/flip/flip 2>&1 &
pid_flip=$!

# Another livepatch's transitions, over and over, for the whole run.
cycles=0 lp_failed=0
start=$(date +%s)
end=$((start + seconds - 4))
reloaded=0
# At least two cycles, however slow the emulator runs them (one in 26 s
# under a busy host): past the flips' end if need be, for at most 60 s.
while [ $(date +%s) -lt $end ] || { [ $cycles -lt 2 ] && [ $(date +%s) -lt $((end + 60)) ]; }; do
	if insmod /modules/klp_other.ko replace=0 &&
	   wait_for 30 no_transition klp_other &&
	   echo 0 > $LP/enabled && wait_for 30 gone &&
	   rmmod klp_other; then
		cycles=$((cycles + 1))
		# A while with no other livepatch: the 4k backend is armed
		# and every flip through kernel registers or unregisters it.
		sleep 0.3
	else
		lp_failed=$((lp_failed + 1))
		info "livepatch cycle failed: $(cat $LP/transition 2>/dev/null)"
		rmmod klp_other 2>/dev/null
		break
	fi
	# Twice in the run, clearpage's own transitions too.
	if [ $reloaded -lt 2 ] && [ $(date +%s) -ge $((start + seconds * (reloaded + 1) / 3)) ]; then
		reloaded=$((reloaded + 1))
		check "clearpage unloaded under load ($reloaded)" clearpagectl unload
		check "clearpage loaded again under load ($reloaded)" load_module clearpage
	fi
done
info "another livepatch loaded, disabled and removed $cycles times, $lp_failed failed"
check "another livepatch went through at least 2 load-disable-remove cycles ($cycles)" test $cycles -ge 2 -a $lp_failed = 0
wait_jobs /tmp/flip flip $fault_jobs flip:$pid_flip
check "strategies flipped while faulting" grep -Eq 'flips=[1-9][0-9][0-9]' /tmp/flip/flip
for n in $(nodes); do
	info "node$n: pages_4k_kernel $(stat_value $n pages_4k_kernel), pages_4k_movnti $(stat_value $n pages_4k_movnti), pages_huge_movnti $(stat_value $n pages_huge_movnti)"
done
info "flip suite checked $total_pages pages"
check "clearpagectl unload at the end" clearpagectl unload
