# The sysfs ABI of include/uapi/clearpage.h: names, modes, formats, strict
# parsing of every writable file, privilege checks, module parameters, and
# that the 4k probe is armed exactly while a node uses a strategy other than
# kernel. Booted with init_on_alloc=0.
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
KPROBES=/sys/kernel/debug/kprobes/list

probe_armed() { grep -q 'vma_alloc_folio' $KPROBES; }

if ! load_module clearpage; then
	fail "insmod clearpage.ko"
	return 0
fi
pass "clearpage.ko loaded"
check "livepatch registered and enabled" \
	test "$(cat /sys/kernel/livepatch/clearpage/enabled 2>/dev/null)" = 1

# Files and modes.
for f in available_strategies:444 cpu:444 backends:444; do
	check "mode of ${f%%:*} is ${f##*:}" test "$(stat -c %a $CP/${f%%:*})" = "${f##*:}"
done
expected_nodes=$(cat /sys/devices/system/node/has_memory)
check "one nodeN directory per node with memory ($expected_nodes)" \
	test "$(nodes | tr '\n' ' ')" = "0 1 " -a "$expected_nodes" = "0-1"
for n in $(nodes); do
	for f in strategy:644 strategy_4k:644 strategy_huge:644 pinned:644 \
		 pinned_4k:644 pinned_huge:644 stats:400 calibration_4k:400 \
		 calibration_huge:400 probe_calibration:400 calibrate:200; do
		check "mode of node$n/${f%%:*} is ${f##*:}" \
			test "$(stat -c %a $CP/node$n/${f%%:*})" = "${f##*:}"
	done
done

# Formats.
avail=$(strategies)
info "available_strategies: $avail"
check "available_strategies starts with kernel" test "${avail%% *}" = kernel
check "cpu format" sh -c "grep -Eq '^vendor=[A-Za-z]+ family=[0-9]+ model=[0-9]+ stepping=[0-9]+\$' $CP/cpu"
check "backends has one line per backend" \
	test "$(cut -d' ' -f1 $CP/backends | tr '\n' ' ')" = "huge 4k "
check "strategy lists every available name, current in brackets" \
	test "$(tr -d '[]' < $CP/node0/strategy)" = "$avail" -a "$(current_strategy 0)" = kernel
check "pinned starts at 0" test "$(cat $CP/node0/pinned)" = 0
for s in $avail; do
	for key in pages_4k_$s pages_huge_$s ranges_huge_$s samples_4k_$s \
		   sample_ns_4k_$s samples_huge_$s sample_ns_huge_$s; do
		check "stats has $key" sh -c "grep -Eq '^$key [0-9]+\$' $CP/node0/stats"
	done
done
check "stats has pages_huge_prezeroed, the allocator's share and latency buckets" \
	sh -c "grep -q '^pages_huge_prezeroed ' $CP/node1/stats && grep -q '^pages_huge_allocator ' $CP/node1/stats && grep -q '^ranges_huge_allocator ' $CP/node1/stats && test \$(grep -c '^latency_ns_' $CP/node1/stats) = 17"
for n in $(nodes); do
	for b in 4k huge; do
		for s in $avail; do
			check "node$n $b calibration of $s: hot and cold > 0" \
				awk -v s=$s '$1 == s && $2 > 0 && $3 > 0 { found = 1 } END { exit !found }' $CP/node$n/calibration_$b
		done
		check "node$n calibration_$b starts with kernel, as the kernel clears" \
			sh -c "head -n 1 $CP/node$n/calibration_$b | grep -q '^kernel '"
	done
done

# kernel everywhere: nothing armed.
check "all kernel: no kprobe armed" sh -c "! grep -q vma_alloc_folio $KPROBES"
check "all kernel: backends say why" \
	grep -q '^4k inactive: no strategy other than kernel selected' $CP/backends

# Valid writes select and pin.
for s in $avail; do
	check "write '$s' selects it" sh -c "echo $s > $CP/node1/strategy && test \"\$(sed -n 's/.*\[\([a-z_]*\)\].*/\1/p' $CP/node1/strategy)\" = $s"
	check "write '$s' without newline" cptest write $CP/node1/strategy --data "$s" --expect ok
done
check "an admin write pins the node" test "$(cat $CP/node1/pinned)" = 1
echo movnti > $CP/node0/strategy
check "a node on movnti arms the 4k probe" probe_armed
check "backends report both active" test "$(cat $CP/backends | tr '\n' ' ')" = "huge active 4k active "
echo kernel > $CP/node0/strategy
echo kernel > $CP/node1/strategy
check "back to kernel everywhere disarms the 4k probe" sh -c "! grep -q vma_alloc_folio $KPROBES"

# A strategy per backend.
echo 0 > $CP/node0/pinned
echo movnti > $CP/node0/strategy_huge
check "strategy_huge selects the huge backend alone" \
	test "$(backend_strategy 0 huge):$(backend_strategy 0 4k)" = movnti:kernel
check "a strategy on the huge backend alone arms no 4k probe" sh -c "! grep -q vma_alloc_folio $KPROBES"
check "backends: huge active, 4k inactive" test "$(cat $CP/backends | cut -d' ' -f1-2 | tr '\n' ' ')" = "huge active 4k inactive: "
check "nodeN/strategy brackets nothing while the backends differ" sh -c "! grep -q '\[' $CP/node0/strategy"
check "an admin write to strategy_huge pins the huge backend only" \
	test "$(cat $CP/node0/pinned_huge):$(cat $CP/node0/pinned_4k):$(cat $CP/node0/pinned)" = 1:0:1
echo rep_stosq > $CP/node0/strategy_4k
check "strategy_4k selects the 4k backend and arms the probe" \
	sh -c "test \"\$(sed -n 's/.*\[\([a-z_]*\)\].*/\1/p' $CP/node0/strategy_4k)\" = rep_stosq && grep -q vma_alloc_folio $KPROBES"
check "the huge backend kept its strategy" test "$(backend_strategy 0 huge)" = movnti
echo 0 > $CP/node0/pinned
check "pinned 0 unpins both backends" test "$(cat $CP/node0/pinned_huge):$(cat $CP/node0/pinned_4k)" = 0:0
echo 1 > $CP/node0/pinned_4k
check "pinned_4k pins the 4k backend alone" test "$(cat $CP/node0/pinned_huge):$(cat $CP/node0/pinned_4k):$(cat $CP/node0/pinned)" = 0:1:1
echo movq > $CP/node0/strategy
check "writing strategy selects both backends" \
	test "$(backend_strategy 0 4k):$(backend_strategy 0 huge):$(current_strategy 0)" = movq:movq:movq
for f in strategy_4k strategy_huge; do
	check "$f refuses an unknown name" cptest write $CP/node0/$f --data foo --expect EINVAL
	check "non-root cannot write $f" cptest write $CP/node0/$f --data movnti --uid 65534 --expect EACCES
done
for f in pinned_4k pinned_huge; do
	check "$f refuses 2" cptest write $CP/node0/$f --data 2 --expect EINVAL
done
check "refused per-backend writes changed nothing" \
	test "$(backend_strategy 0 4k):$(backend_strategy 0 huge)" = movq:movq
echo kernel > $CP/node0/strategy
echo 0 > $CP/node0/pinned

# Bad input is refused and changes nothing.
echo movq > $CP/node0/strategy
echo 0 > $CP/node0/pinned
before="$(cat $CP/node0/strategy) $(cat $CP/node0/pinned)"
bad_strategy() {
	check "strategy refuses $1" cptest write $CP/node0/strategy --data "$2" --expect EINVAL
}
bad_strategy "a lone newline" '\n'
bad_strategy "an unknown name" 'foo'
bad_strategy "wrong case MOVQ" 'MOVQ'
bad_strategy "wrong case Kernel" 'Kernel'
bad_strategy "trailing garbage" 'movq x'
bad_strategy "a name with a suffix" 'movqq'
bad_strategy "a prefix of a name" 'mov'
bad_strategy "two newlines" 'movq\n\n'
bad_strategy "a leading space" ' movq'
bad_strategy "a trailing space" 'movq '
bad_strategy "an embedded NUL" 'movq\0'
bad_strategy "two names" 'movq movnti'
if ! echo "$avail" | grep -qw clzero; then
	bad_strategy "clzero on a CPU without it" 'clzero'
fi
check "strategy refuses a 5000-byte write" \
	cptest write $CP/node0/strategy --repeat 5000 --expect EINVAL
check "strategy: an empty write changes nothing" \
	cptest write $CP/node0/strategy --data '' --expect ok,EINVAL
for v in 2 01 yes '1 ' ' 1' '1\n\n' '\n' -1; do
	check "pinned refuses '$v'" cptest write $CP/node0/pinned --data "$v" --expect EINVAL
done
for v in 0 2 yes '1 '; do
	check "calibrate refuses '$v'" cptest write $CP/node0/calibrate --data "$v" --expect EINVAL
done
for f in strategy:movnti pinned:1 calibrate:1; do
	check "non-root cannot write ${f%%:*}" \
		cptest write $CP/node0/${f%%:*} --data "${f##*:}" --uid 65534 --expect EACCES
done
check "refused writes changed nothing" \
	test "$(cat $CP/node0/strategy) $(cat $CP/node0/pinned)" = "$before"
check "refused writes armed nothing new" sh -c "grep -q vma_alloc_folio $KPROBES"
for f in available_strategies cpu backends; do
	check "$f is read-only even for root" cptest write $CP/$f --data x --expect EACCES
done

# pinned and calibrate accept their values.
check "pinned accepts 1" cptest write $CP/node0/pinned --data '1\n' --expect ok
check "pinned reads 1" test "$(cat $CP/node0/pinned)" = 1
check "pinned accepts 0" cptest write $CP/node0/pinned --data 0 --expect ok
check "pinned reads 0" test "$(cat $CP/node0/pinned)" = 0
check "calibrate accepts 1" cptest write $CP/node0/calibrate --data '1\n' --expect ok
check "calibration after calibrate has every strategy" \
	test "$(cut -d' ' -f1 $CP/node0/calibration_4k | tr '\n' ' '):$(cut -d' ' -f1 $CP/node0/calibration_huge | tr '\n' ' ')" = "$avail :$avail "

# Unload leaves the kernel as it was.
check "clearpagectl unload removes the module" clearpagectl unload
check "no livepatch left" test ! -e /sys/kernel/livepatch/clearpage
check "no sysfs tree left" test ! -e $CP
check "no kprobe left" sh -c "! grep -q vma_alloc_folio $KPROBES"
check "clearpagectl unload when not loaded is harmless" clearpagectl unload

# Module parameters.
check "default_strategy=movq loads" load_module clearpage default_strategy=movq
check "the shipping build has no test hooks (no testing or test_* parameters)" \
	sh -c "ls /sys/module/clearpage/parameters >/dev/null && ! ls /sys/module/clearpage/parameters | grep -q '^test'"
check "default_strategy applies to every node, unpinned" \
	test "$(current_strategy 0) $(current_strategy 1) $(cat $CP/node0/pinned)" = "movq movq 0"
check "default_strategy=movq arms the 4k probe at load" probe_armed
check "sample_shift can be changed at run time" sh -c 'echo 0 > /sys/module/clearpage/parameters/sample_shift'
check "sample_shift refuses 21" sh -c '! echo 21 > /sys/module/clearpage/parameters/sample_shift 2>/dev/null'
check "sample_shift kept 0" test "$(cat /sys/module/clearpage/parameters/sample_shift)" = 0
# Every page cleared from now on is timed: counts grow in step. Both are
# read from one read of stats; clears by other processes may be half-counted
# at either read, hence a few pages of slack (with sample_shift=6 the
# samples would be a 64th of the pages).
# Reference frames (one in 32, below) are not movq's pages: they count
# towards the 1024 pages faulted, not towards movq's samples.
counts() { awk '$1 == "samples_4k_movq" || $1 == "samples_huge_movq" { s += $2 } $1 == "pages_4k_movq" || $1 == "pages_huge_movq" { p += $2 } $1 ~ /^reference_pages_/ { r += $2 } END { print s + 0, p + 0, r + 0 }' $CP/node0/stats; }
set -- $(counts)
samples0=$1 pages0=$2 refs0=$3
cptest fault --kind 4k --node 0 --mb 4 >/dev/null
set -- $(counts)
samples=$(($1 - samples0)) pages=$(($2 - pages0)) refs=$(($3 - refs0))
info "sample_shift=0: samples +$samples, pages +$pages, reference frames +$refs"
check "sample_shift=0 samples every clear" \
	test $((pages + refs)) -ge 1024 -a $samples -ge $((pages - 8)) -a $samples -le $((pages + 8))

# Reference frames, the live baseline: while a node runs any strategy but
# kernel, frames whose pfn is a multiple of 2^reference_shift are cleared
# with the kernel's routine and timed; not on kernel, not with
# reference_shift=0.
refs() { awk '$1 == "reference_pages_4k" { p = $2 } $1 == "reference_sample_ns_4k" { n = $2 } END { print p + 0, n + 0 }' $CP/node0/stats; }
movnti_pages() { awk '$1 == "pages_4k_movnti" { print $2 }' $CP/node0/stats; }
check "reference_shift defaults to 5" test "$(cat /sys/module/clearpage/parameters/reference_shift)" = 5
check "stats lists reference_pages_B and reference_sample_ns_B for 4k and huge" \
	sh -c "for b in 4k huge; do grep -q \"^reference_pages_\$b [0-9]*\$\" $CP/node0/stats && grep -q \"^reference_sample_ns_\$b [0-9]*\$\" $CP/node0/stats || exit 1; done"
echo kernel > $CP/node0/strategy_4k
echo movq > $CP/node1/strategy_4k
set -- $(refs); r0=$1
cptest fault --kind 4k --node 0 --mb 4 >/dev/null
set -- $(refs)
check "on kernel no frame is a reference frame" test "$1" = "$r0"
echo movq > $CP/node0/strategy
set -- $(refs); r0=$1
cptest fault --kind 4k --node 0 --mb 4 >/dev/null
set -- $(refs)
check "on movq frames are reference frames too" test "$1" -gt "$r0"
echo movnti > $CP/node0/strategy
set -- $(refs); r0=$1 n0=$2
m0=$(movnti_pages)
cptest fault --kind 4k --node 0 --mb 8 >/dev/null
set -- $(refs); r1=$1 n1=$2
m1=$(movnti_pages)
info "movnti, reference_shift=5: reference pages +$((r1 - r0)), movnti pages +$((m1 - m0)), reference ns +$((n1 - n0))"
check "on movnti about one frame in 32 is a reference frame, timed" \
	test $((r1 - r0)) -gt 0 -a $((r1 - r0)) -lt $(((m1 - m0) / 4)) -a $((n1 - n0)) -gt 0
check "reference_shift=0 is accepted at run time" sh -c 'echo 0 > /sys/module/clearpage/parameters/reference_shift'
check "reference_shift refuses 21" sh -c '! echo 21 > /sys/module/clearpage/parameters/reference_shift 2>/dev/null'
# The baseline after the change: the shell's own helpers fault pages too.
set -- $(refs); r1=$1
cptest fault --kind 4k --node 0 --mb 8 >/dev/null
set -- $(refs)
check "reference_shift=0: no reference frames" test "$1" = "$r1"

# Trials: the candidates a backend times on trial frames (one frame in
# 2^trial_shift each), whatever it runs.
trial_pages() { awk -v k="trial_pages_4k_$1" '$1 == k { print $2 }' $CP/node0/stats; }
check "trial_shift defaults to 6" test "$(cat /sys/module/clearpage/parameters/trial_shift)" = 6
for v in 1 2 21; do
	check "trial_shift refuses $v" sh -c "! echo $v > /sys/module/clearpage/parameters/trial_shift 2>/dev/null"
done
check "stats lists trial_pages_B_S and trial_ns_B_S, not for kernel" \
	sh -c "grep -q '^trial_pages_huge_movnti [0-9]*\$' $CP/node0/stats && grep -q '^trial_ns_4k_rep_stosb [0-9]*\$' $CP/node0/stats && ! grep -q '^trial_pages_4k_kernel' $CP/node0/stats"
for b in 4k huge; do
	check "trials_$b reads none at first" test "$(cat $CP/node0/trials_$b)" = none
done
set_all kernel
for n in $(nodes); do echo 0 > $CP/node$n/pinned; done
check "on kernel, unpinned, no trials: no 4k probe" sh -c "! grep -q vma_alloc_folio $KPROBES"
for v in kernel foo 'movnti movnti' 'movnti ' ' movnti' 'movnti  rep_stosb' 'movnti,rep_stosb' '\n' 'none movnti'; do
	check "trials_4k refuses '$v'" cptest write $CP/node0/trials_4k --data "$v" --expect EINVAL
done
if ! echo "$avail" | grep -qw clzero; then
	check "trials_4k refuses clzero on a CPU without it" cptest write $CP/node0/trials_4k --data clzero --expect EINVAL
fi
check "trials_4k: an empty write is refused or does nothing" \
	cptest write $CP/node0/trials_4k --data '' --expect ok,EINVAL
check "non-root cannot write trials_4k" cptest write $CP/node0/trials_4k --data movnti --uid 65534 --expect EACCES
check "refused trials changed nothing" test "$(cat $CP/node0/trials_4k)" = none
check "trials_4k accepts 'movnti rep_stosb\n'" cptest write $CP/node0/trials_4k --data 'movnti rep_stosb\n' --expect ok
check "trials_4k reads them in id order" test "$(cat $CP/node0/trials_4k)" = "rep_stosb movnti"
check "trials_huge is the huge backend's own" test "$(cat $CP/node0/trials_huge)" = none
check "trials on a kernel node arm the 4k probe" probe_armed
echo 3 > /sys/module/clearpage/parameters/trial_shift
m0=$(trial_pages movnti) r0=$(trial_pages rep_stosb) k0=$(stat_value 0 pages_4k_kernel)
cptest fault --kind 4k --node 0 --mb 8 >/dev/null
m1=$(trial_pages movnti) r1=$(trial_pages rep_stosb) k1=$(stat_value 0 pages_4k_kernel)
info "trial_shift=3: movnti trial pages +$((m1 - m0)), rep_stosb +$((r1 - r0)), kernel pages +$((k1 - k0))"
check "trial_shift=3: about one frame in 8 per candidate, the rest the kernel's" \
	test $((m1 - m0)) -gt 0 -a $((r1 - r0)) -gt 0 -a $((m1 - m0)) -lt $(((k1 - k0) / 2)) -a $((r1 - r0)) -lt $(((k1 - k0) / 2))
# A node on rep_stosb with trials: the frames of its own number are its
# control frames, timed and counted as its trial pages, every byte zero.
# (A strategy written here pins the backend, and a pinned backend takes no
# candidates: unpinned again first.)
pinned_before=$(cat $CP/node0/pinned_4k)
echo rep_stosb > $CP/node0/strategy_4k
check "a strategy written by hand pins the backend and ends its trials" \
	test "$(cat $CP/node0/pinned_4k):$(cat $CP/node0/trials_4k)" = 1:none
echo 0 > $CP/node0/pinned_4k
check "trials on rep_stosb: trials_4k takes movnti alone" \
	cptest write $CP/node0/trials_4k --data movnti --expect ok
check "trials on rep_stosb: trials_4k reads movnti" test "$(cat $CP/node0/trials_4k)" = movnti
m0=$(trial_pages movnti) r0=$(trial_pages rep_stosb) s0=$(stat_value 0 pages_4k_rep_stosb)
check "trials on rep_stosb: 8 MiB of 4 KiB faults read zero" cptest fault --kind 4k --node 0 --mb 8
m1=$(trial_pages movnti) r1=$(trial_pages rep_stosb) s1=$(stat_value 0 pages_4k_rep_stosb)
info "rep_stosb with movnti trials: control pages +$((r1 - r0)), movnti trial pages +$((m1 - m0)), own pages +$((s1 - s0))"
check "trials on rep_stosb: its control frames timed beside movnti's trial frames, both about one in 8" \
	test $((r1 - r0)) -gt 0 -a $((m1 - m0)) -gt 0 -a $((r1 - r0)) -lt $(((s1 - s0) / 2)) -a $((m1 - m0)) -lt $(((s1 - s0) / 2))
echo kernel > $CP/node0/strategy_4k
echo "$pinned_before" > $CP/node0/pinned_4k
check "trials_4k accepts none" cptest write $CP/node0/trials_4k --data none --expect ok
check "no trials, every node on kernel: the 4k probe is gone" sh -c "! grep -q vma_alloc_folio $KPROBES"
echo movnti > $CP/node0/trials_huge
echo 1 > $CP/node0/pinned_huge
check "a pin ends the backend's trials" test "$(cat $CP/node0/trials_huge)" = none
check "trials on a pinned backend: EBUSY" cptest write $CP/node0/trials_huge --data movnti --expect EBUSY
echo 0 > $CP/node0/pinned_huge
check "trial_shift=0 is accepted" sh -c 'echo 0 > /sys/module/clearpage/parameters/trial_shift'
echo 6 > /sys/module/clearpage/parameters/trial_shift
check "clearpagectl unload" clearpagectl unload
check "default_strategy=bogus is refused" sh -c '! insmod /modules/clearpage.ko default_strategy=bogus 2>/dev/null'
check "sample_shift=21 is refused" sh -c '! insmod /modules/clearpage.ko sample_shift=21 2>/dev/null'
check "nothing left after refused loads" test ! -e $CP -a ! -e /sys/kernel/livepatch/clearpage
