# The flip suite's load without clearpage: is a crash there clearpage's,
# or the emulator's? With clearpage never loaded, a kretprobe on the same
# allocation function is registered and unregistered through tracefs
# every few ms (the same kprobe-on-ftrace text patching as the 4k
# backend's arming), another livepatch is loaded, disabled and removed
# over and over (its transitions patch every cond_resched() call site and
# its function's ftrace site), and 4 KiB, THP, forked and hugetlb faults
# run on both nodes. Meant for multi-threaded TCG, where the two vCPUs run
# in parallel: any Oops fails the run, as in every suite.
# cpvm_textpoke=probe or =livepatch on the kernel command line runs only
# that source of text patching (default: both).
LP=/sys/kernel/livepatch/klp_other
T=/sys/kernel/tracing

gone() { test ! -e $LP; }

check "clearpage is not loaded" test ! -e $CP
[ -e $T/kprobe_events ] || mount -t tracefs nodev $T
symbol=vma_alloc_folio_noprof
grep -q " $symbol\$" /proc/kallsyms || symbol=vma_alloc_folio
info "vCPUs: $(nproc); kretprobe on $symbol"
check "a kretprobe on $symbol can be defined through tracefs" \
	sh -c "echo 'r:cpflip $symbol' > $T/kprobe_events && echo '-:cpflip' >> $T/kprobe_events"

what=both
for word in $(cat /proc/cmdline); do
	case "$word" in cpvm_textpoke=*) what=${word#cpvm_textpoke=} ;; esac
done
info "text patching from: $what"
seconds=${CPVM_SECONDS:-30}
background_faults /tmp/tp $seconds
# The kretprobe armed and disarmed, as the 4k backend's flips do.
(
	n=0 end=$(($(date +%s) + seconds - 2))
	[ $what = livepatch ] && end=0 n=1
	while [ $(date +%s) -lt $end ]; do
		echo "r:cpflip $symbol" > $T/kprobe_events &&
			echo 1 > $T/events/kprobes/cpflip/enable &&
			usleep 5000 &&
			echo 0 > $T/events/kprobes/cpflip/enable &&
			echo '-:cpflip' >> $T/kprobe_events && n=$((n + 1))
		usleep 5000
	done
	echo "armed=$n"
) >/tmp/tp/probe 2>&1 &
pid_probe=$!

cycles=0 lp_failed=0
end=$(($(date +%s) + seconds - 4))
[ $what = probe ] && cycles=1 && sleep $((seconds - 2))
[ $what = probe ] && end=0
while [ $(date +%s) -lt $end ]; do
	if insmod /modules/klp_other.ko replace=0 && wait_for 30 no_transition klp_other &&
	   echo 0 > $LP/enabled && wait_for 30 gone && rmmod klp_other; then
		cycles=$((cycles + 1))
		sleep 0.3
	else
		lp_failed=$((lp_failed + 1))
		rmmod klp_other 2>/dev/null
		break
	fi
done
check "another livepatch went through at least one load-disable-remove cycle ($cycles)" test $cycles -ge 1 -a $lp_failed = 0
wait_jobs /tmp/tp textpoke $fault_jobs probe:$pid_probe
check "the kretprobe was armed and disarmed at least once" \
	sh -c "test \$(sed -n 's/armed=//p' /tmp/tp/probe) -ge 1"
info "textpoke suite checked $total_pages pages"
