# The module's ABI fuzzed while faults run on both nodes, with the vCPUs
# in parallel (run-all.sh boots it with multi-threaded TCG): random generic
# netlink messages (every command and more, random attributes, lengths and
# types, truncated and oversized; nltest fuzz) and random writes to every
# writable sysfs file of every node (cptest sysfs-fuzz), as an
# unprivileged user and as root. A refused request changes nothing, the
# unprivileged user changes nothing at all, the kernel log stays clean
# (panic_on_warn) and every page faulted meanwhile reads zero. Booted with
# init_on_alloc=0 and hugetlb pages.
state() {
	for n in $(nodes); do
		for f in strategy_4k strategy_huge pinned_4k pinned_huge trials_4k trials_huge probe_huge gigantic_helpers; do
			printf '%s ' "$(cat $CP/node$n/$f)"
		done
	done
}

if ! load_module clearpage; then
	fail "insmod clearpage.ko"
	return 0
fi
info "vCPUs: $(nproc); strategies: $(strategies)"
set_all movnti
echo 0 > $CP/node1/pinned

# Until the fuzz is over (SIGTERM ends them).
background_faults /tmp/fz 600

count=${CPVM_FUZZ:-2500}
before=$(state)
out=$(nltest fuzz --count $count --seed 11 --uid 65534)
info "netlink fuzz as nobody: $out"
check "netlink fuzz as nobody: $count sent, no change accepted" \
	sh -c "echo '$out' | grep -q 'sent=$count acked_ok=[0-9]* errors=[0-9]* mutating_acked=0'"
out=$(cptest sysfs-fuzz --count $count --seed 12 --uid 65534)
rc=$?
info "sysfs fuzz as nobody: $out"
check "sysfs fuzz as nobody: every write refused, none changed anything" \
	sh -c "test $rc = 0 && echo '$out' | grep -q 'writes=$count accepted=0 refused=$count changed_by_refused=0'"
check "nobody changed nothing" test "$(state)" = "$before"

out=$(nltest fuzz --count $count --seed 13)
info "netlink fuzz as root: $out"
check "netlink fuzz as root: $count sent" sh -c "echo '$out' | grep -q '^sent=$count '"
out=$(cptest sysfs-fuzz --count $count --seed 14)
rc=$?
info "sysfs fuzz as root: $out"
check "sysfs fuzz as root: no refused write changed anything" \
	sh -c "test $rc = 0 && echo '$out' | grep -q 'changed_by_refused=0'"
check "sysfs fuzz as root: some writes accepted and some refused" \
	sh -c "echo '$out' | grep -Eq 'accepted=[1-9][0-9]* refused=[1-9]'"
info "state after the fuzz: $(state)"
check "the module still answers after the fuzz" sh -c "clearpagectl status --json | grep -q '\"node\":1'"
clearpagectl set all rep_stosq >/dev/null
check "the module still changes as asked after the fuzz" \
	test "$(backend_strategy 0 4k) $(backend_strategy 1 huge)" = "rep_stosq rep_stosq"

for job in $fault_jobs; do kill -TERM ${job##*:}; done
wait_jobs /tmp/fz "faults during the fuzz" $fault_jobs
info "fuzz suite checked $total_pages pages"
check "clearpagectl unload at the end" clearpagectl unload
