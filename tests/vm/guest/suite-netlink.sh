# clearpagectl and the generic netlink family: every command checked against
# sysfs, errors, privileges, events and uevents in order with their source,
# -EBUSY for daemon sets on pinned nodes, and a netlink fuzz.
as_nobody() { su -s /bin/sh nobody -c "$*"; }

# node_json N: node N's object from clearpagectl status --json.
node_json() { clearpagectl status --json | sed 's/{"node":/\n{"node":/g' | grep "^{\"node\":$1,"; }

# state: strategy and pin of every node's backends, from sysfs.
state() {
	for n in $(nodes); do
		echo "$n:$(backend_strategy $n 4k)/$(backend_strategy $n huge):$(cat $CP/node$n/pinned_4k)$(cat $CP/node$n/pinned_huge)"
	done | tr '\n' ' '
}

if ! load_module clearpage; then
	fail "insmod clearpage.ko"
	return 0
fi
avail=$(strategies)

# status, table and JSON, agree with sysfs.
clearpagectl status > /tmp/status.out
check "status exits 0" test $? -eq 0
check "status shows every node and backend" sh -c "grep -q '^node 0' /tmp/status.out && grep -q '^  4k    kernel, not pinned' /tmp/status.out && grep -q '^  huge  kernel, not pinned' /tmp/status.out && grep -q '^node 1' /tmp/status.out"
check "status without a command is status" sh -c "clearpagectl | grep -q '^node 1'"
# The loaded module against the tools: one version, meson's.
v=$(clearpagectl --version | cut -d' ' -f2)
check "the module carries the tools' version ($v)" test "$(cat /sys/module/clearpage/version)" = "$v"
check "status says the module is the tools' version" sh -c "clearpagectl status | grep -q '^module: clearpage $v loaded, as these tools'"
check "status --json gives the module's version" sh -c "clearpagectl status --json | grep -q '\"module\":{\"loaded\":true,\"version\":\"$v\",\"tools\":\"$v\",\"current\":true}'"
# status for people: a verdict first per node, 80 columns, status NODE.
check "status: each node's verdict first (no daemon: not managed)" \
	sh -c "test \"\$(clearpagectl status | grep -c '^node [0-9]*: not managed (clearpaged is not running): 4k kernel, huge kernel\$')\" = $(nodes | wc -w)"
check "status: every line fits 80 columns" \
	sh -c "clearpagectl status | awk 'length > 80 { print; bad = 1 } END { exit bad }'"
check "status: a legend under each table" \
	sh -c "test \"\$(clearpagectl status | grep -c '^  4, H: the 4k, huge backend.s strategy')\" = $(nodes | wc -w)"
check "status 1: node 1 alone" sh -c "out=\$(clearpagectl status 1) && echo \"\$out\" | grep -q '^node 1: ' && ! echo \"\$out\" | grep -q '^node 0'"
emit_json_of status clearpagectl status --json
emit_json_of status clearpagectl status 1 --json
emit_json_of list clearpagectl list --json
emit_json_of check clearpagectl check --json
check "status 1 --json: node 1 alone" sh -c "clearpagectl status 1 --json | grep -q '^{\"nodes\":\\[{\"node\":1,'"
check "status 9: not a node, the nodes named (exit 2)" \
	sh -c "out=\$(clearpagectl status 9 2>&1); test \$? -eq 2 && echo \"\$out\" | grep -q \"'9' is not a node .*; nodes: $(nodes | xargs)\""
check "status: times are RFC 3339 with the zone" \
	sh -c "clearpagectl status | grep -q '(last change: default, [0-9-]*T[0-9:]*[+-][0-9][0-9]:[0-9][0-9])\$'"
check "list: every strategy, kernel here" \
	sh -c "out=\$(clearpagectl list) && test \$(echo \"\$out\" | grep -cE '^[a-z_]+ +(yes|no) ') = 6 && echo \"\$out\" | grep -q '^kernel  *yes '"
check "list --json: what this CPU has" sh -c "clearpagectl list --json | grep -q '{\"name\":\"rep_stosb\",\"non_temporal\":false,\"available\":true,'"
check "help set, set --help: set's synopsis alone" \
	sh -c "test \"\$(clearpagectl help set | head -n 1)\" = 'Usage: clearpagectl set NODE|all STRATEGY [--backend 4k|huge|all]' && test \"\$(clearpagectl set --help)\" = \"\$(clearpagectl help set)\""
# clearpagectl check: one line per thing, its exit status the worst line's.
clearpagectl check > /tmp/check.out; rc=$?
sed 's/^/INFO: check: /' /tmp/check.out
worst=$(awk '$1 == "fail" { w = 2 } $1 == "warn" && w < 1 { w = 1 } END { print w + 0 }' /tmp/check.out)
check "check exits with its worst line's status (rc $rc)" test "$rc" = "$(case $worst in 2) echo 1 ;; 1) echo 5 ;; *) echo 0 ;; esac)"
check "check: every line ok, warn or fail" awk '$1 != "ok" && $1 != "warn" && $1 != "fail" { exit 1 }' /tmp/check.out
check "check: the last line is the summary, with the worst verdict" \
	sh -c "tail -n 1 /tmp/check.out | grep -q '^$(echo ok warn fail | cut -d' ' -f$((worst + 1))) *summary  *clearpage '"
check "check: the kernel, tested" grep -q "^ok    kernel        $(uname -r): series [0-9.]*, tested" /tmp/check.out
check "check: the module loaded, as these tools" grep -q "^ok    module        clearpage $v loaded, as these tools" /tmp/check.out
check "check: init_on_alloc=0 from the module, so 4 KiB faults too" grep -q '^ok    init_on_alloc 0 (the module): clearpage clears 4 KiB faults and huge pages' /tmp/check.out
check "check: the CPU with family and model in hex" grep -q '^[a-z]* *cpu  *[A-Za-z]* family 0x[0-9a-f]* model 0x[0-9a-f]* stepping' /tmp/check.out
check "check --json: the same lines and the worst" sh -c "j=\$(clearpagectl check --json); echo \"\$j\" | grep -q '\"check\":\"kernel\",\"verdict\":\"ok\"' && echo \"\$j\" | grep -q '\"worst\":\"$(echo fine ok warn fail | cut -d' ' -f$((worst + 2)))\"}\$'"
# A kernel locked down loads signed modules only: check says enforced.
[ -e /sys/kernel/security/lockdown ] ||
	mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
if [ -e /sys/kernel/security/lockdown ]; then
	echo 'none [integrity] confidentiality' > /tmp/lockdown
	if mount --bind /tmp/lockdown /sys/kernel/security/lockdown; then
		check "check: lockdown=integrity enforces signatures (the module loaded: its key is enrolled)" \
			sh -c "clearpagectl check | grep -q '^ok    signatures    enforced (lockdown=integrity), and the module is loaded'"
		umount /sys/kernel/security/lockdown
	else
		fail "bind-mounting over /sys/kernel/security/lockdown"
	fi
else
	info "check: no /sys/kernel/security/lockdown on $(uname -r) (lockdown LSM not built in)"
fi
# Every hugetlb pool and the mTHP sizes on by their own setting are named.
h2m=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
if echo 3 > $h2m && [ "$(cat $h2m)" = 3 ]; then
	check "check: the 2 MiB hugetlb pool is named (3 of 2 MiB)" \
		sh -c "clearpagectl check | grep -q '^ok    huge-pages    THP .*, hugetlb pages: 3 of 2 MiB\$'"
else
	skip "check: the 2 MiB hugetlb pool: could not reserve 3 pages"
fi
echo 0 > $h2m
m64=/sys/kernel/mm/transparent_hugepage/hugepages-64kB/enabled
if [ -w $m64 ]; then
	was=$(sed 's/.*\[\(.*\)\].*/\1/' $m64)
	echo madvise > $m64
	check "check: an mTHP size on by its own setting is named (64 KiB madvise)" \
		sh -c "clearpagectl check | grep -q '^ok    huge-pages    THP [a-z]* (mTHP 64 KiB madvise), '"
	echo "$was" > $m64
else
	info "check: no 64 KiB mTHP on $(uname -r) (6.8 and later)"
fi
echo 'always madvise [never]' > /tmp/thp
if mount --bind /tmp/thp /sys/kernel/mm/transparent_hugepage/enabled; then
	check "check: THP never is named" sh -c "clearpagectl check | grep -q '^[a-z]* *huge-pages    THP never'"
	umount /sys/kernel/mm/transparent_hugepage/enabled
else
	fail "bind-mounting over /sys/kernel/mm/transparent_hugepage/enabled"
fi
check "check takes no arguments (usage, exit 2)" sh -c "clearpagectl check extra 2>/dev/null; test \$? -eq 2"
# An older module still loaded after an upgrade: its version over sysfs's.
echo 0.0.1 > /tmp/oldversion
if mount --bind /tmp/oldversion /sys/module/clearpage/version; then
	check "status says an older loaded module needs a reload" sh -c "clearpagectl status | grep -q '^module: clearpage 0.0.1 loaded, the tools are $v: reload it'"
	check "status --json marks an older module not current" sh -c "clearpagectl status --json | grep -q '\"module\":{\"loaded\":true,\"version\":\"0.0.1\",\"tools\":\"$v\",\"current\":false}'"
	umount /sys/module/clearpage/version
else
	fail "bind-mounting a version over /sys/module/clearpage/version"
fi
for n in $(nodes); do
	j=$(node_json $n)
	for b in 4k huge; do
		check "status --json node$n $b strategy and pin match sysfs" \
			sh -c "echo '$j' | grep -q '\"$b\":{\"strategy\":\"$(backend_strategy $n $b)\",\"pinned\":false'"
		while read -r s hot cold; do
			check "status --json node$n $s $b calibration matches sysfs ($hot/$cold)" \
				sh -c "echo '$j' | grep -q '\"name\":\"$s\"[^}]*\"hot_ns_$b\":$hot,\"cold_ns_$b\":$cold'"
		done < $CP/node$n/calibration_$b
	done
	for s in $avail; do
		check "status --json node$n lists $s" sh -c "echo '$j' | grep -q '\"name\":\"$s\",\"pages_4k\":'"
	done
done

# Changes.
check "set 0 movq" clearpagectl set 0 movq
check "set is seen in sysfs on both backends, pinned" test "$(state)" = "0:movq/movq:11 1:kernel/kernel:00 "
check "set all movnti" clearpagectl set all movnti
check "set all reaches every node" test "$(state)" = "0:movnti/movnti:11 1:movnti/movnti:11 "
check "status --json shows the admin as source" sh -c "echo '$(node_json 1)' | grep -q '\"source\":\"admin\"'"
check "unpin all" clearpagectl unpin all
check "unpin reaches sysfs" test "$(state)" = "0:movnti/movnti:00 1:movnti/movnti:00 "
check "set 0 movq --backend huge" clearpagectl set 0 movq --backend huge
check "--backend huge changes the huge backend alone" test "$(state)" = "0:movnti/movq:01 1:movnti/movnti:00 "
check "unpin 0 --backend huge" clearpagectl unpin 0 --backend huge
check "pin 1 --backend 4k" clearpagectl pin 1 --backend 4k
check "pin --backend reaches sysfs" test "$(state)" = "0:movnti/movq:00 1:movnti/movnti:10 "
check "pin 1" clearpagectl pin 1
check "pin reaches sysfs" test "$(state)" = "0:movnti/movq:00 1:movnti/movnti:11 "
check "an unknown backend exits 2" sh -c "clearpagectl set 0 movq --backend 2m 2>/dev/null; test \$? -eq 2"
out=$(clearpagectl calibrate 0)
check "calibrate 0 prints the new calibration" sh -c "echo '$out' | grep -q '^node 0' && echo '$out' | grep -q movnti"
clearpagectl calibrate 1 --json >/tmp/calibrate.json 2>/dev/null
emit_json calibrate /tmp/calibrate.json
check "calibrate --json" sh -c "grep -q '{\"nodes\":\[{\"node\":1,\"counters\":true,\"strategies\":\[{\"name\":\"kernel\",\"hot_ns_4k\":[0-9]*,\"cold_ns_4k\":[0-9]*,\"hot_ns_huge\":' /tmp/calibrate.json"
check "calibrate --json has the probe's calibration" grep -q '"probe_calibration":{"hot_ticks":[0-9]*,"cold_ticks":[0-9]*,"threshold_ticks":[0-9]*}' /tmp/calibrate.json
check "calibrate all" sh -c "clearpagectl calibrate | grep -c '^node' | grep -qx 2"

# Errors: one line naming the problem, the documented exit code, no change.
before=$(state)
expect_exit() {
	code=$1
	shift
	out=$("$@" 2>&1)
	rc=$?
	info "$*: exit $rc: $out"
	test $rc -eq $code
}
check "set on a node without memory exits 2 naming the nodes" \
	sh -c "out=\$(clearpagectl set 5 movq 2>&1); test \$? -eq 2 && echo \"\$out\" | grep -q 'nodes: 0 1'"
check "an unknown strategy exits 2 listing the strategies, before asking the module" \
	sh -c "out=\$(clearpagectl set 0 foo 2>&1); test \$? -eq 2 && echo \"\$out\" | grep -q \"'foo' is not a strategy; strategies: kernel rep_stosb rep_stosq movq movnti clzero\""
lacking=$(for s in rep_stosb rep_stosq movq movnti clzero; do echo " $avail " | grep -q " $s " || echo $s; done | head -n 1)
if [ -n "$lacking" ]; then
	check "a strategy this CPU lacks ($lacking) exits 2 listing the available ones" \
		sh -c "out=\$(clearpagectl set 0 $lacking 2>&1); test \$? -eq 2 && echo \"\$out\" | grep -q 'available: $avail'"
else
	skip "a strategy this CPU lacks: this CPU has every one ($avail)"
fi
check "a bad node argument exits 2" expect_exit 2 clearpagectl pin 0x
check "a missing argument exits 2" expect_exit 2 clearpagectl set 0
check "an unknown command exits 2" expect_exit 2 clearpagectl frobnicate
check "--help exits 0" expect_exit 0 clearpagectl --help
check "non-root set exits 4 and says so" \
	sh -c "out=\$(su -s /bin/sh nobody -c 'clearpagectl set 0 movq' 2>&1); test \$? -eq 4 && echo \"\$out\" | grep -q 'needs CAP_SYS_ADMIN'"
check "non-root pin exits 4" sh -c "su -s /bin/sh nobody -c 'clearpagectl unpin 1' 2>/dev/null; test \$? -eq 4"
check "non-root calibrate exits 4" sh -c "su -s /bin/sh nobody -c 'clearpagectl calibrate 0' 2>/dev/null; test \$? -eq 4"
check "non-root may read status" sh -c "su -s /bin/sh nobody -c 'clearpagectl status --json' | grep -q '\"node\":1'"
check "nothing changed by refused commands" test "$(state)" = "$before"

# The daemon's path: -EBUSY on a pinned node, accepted otherwise, unpinned.
check "daemon set on pinned node 1 is EBUSY" nltest set 1 movq daemon --expect EBUSY
check "EBUSY changed nothing" test "$(state)" = "$before"
check "daemon set on unpinned node 0 is accepted" nltest set 0 rep_stosq daemon --expect ok
check "daemon set does not pin" test "$(state)" = "0:rep_stosq/rep_stosq:00 1:movnti/movnti:11 "
echo 1 > $CP/node0/pinned_huge
check "daemon set on both backends with one pinned is EBUSY and changes nothing" \
	sh -c "nltest set 0 movq daemon --expect EBUSY && test \"\$(sed -n 's/.*\[\([a-z_]*\)\].*/\1/p' $CP/node0/strategy_4k)\" = rep_stosq"
check "daemon set on the unpinned backend is accepted" nltest set 0 rep_stosq daemon --expect ok --backend 4k
check "a backend id beyond the known ones is ERANGE" nltest set 0 movq admin --expect ERANGE --backend 2
echo 0 > $CP/node0/pinned_huge
check "status shows the daemon as source" sh -c "echo '$(node_json 0)' | grep -q '\"source\":\"daemon\"'"
check "get of an absent node is ENODEV" nltest get 7 --expect ENODEV
check "get of node 0 is ok" nltest get 0 --expect ok
if ! echo "$avail" | grep -qw clzero; then
	check "a strategy this CPU lacks is EOPNOTSUPP" nltest set 0 clzero admin --expect EOPNOTSUPP
fi

# Events and uevents: every change, in order, with its source.
clearpagectl monitor --json --count 8 --timeout 60 >/tmp/events 2>/tmp/events.err &
monitor=$!
nltest uevents --count 8 --timeout 60 >/tmp/uevents 2>/tmp/uevents.err &
uevents=$!
i=0
while ! grep -q monitoring /tmp/events.err || ! grep -q listening /tmp/uevents.err; do
	i=$((i + 1)); [ $i -gt 100 ] && break; sleep 0.1
done
echo 0 > $CP/node0/pinned_4k
echo movq > $CP/node0/strategy_huge
clearpagectl unpin 0 --backend huge
nltest set 0 rep_stosq daemon --expect ok --backend 4k >/dev/null
clearpagectl set 1 movnti
echo 1 > $CP/node0/pinned
wait $monitor
check "monitor received 8 events" test $? -eq 0
emit_json event /tmp/events
wait $uevents
check "uevents received 8 change events" test $? -eq 0
got=$(sed 's/.*"node":\([0-9]*\),"backend":"\([a-z0-9]*\)","old":"\([a-z_]*\)","new":"\([a-z_]*\)","pinned":\([a-z]*\),"source":"\([a-z]*\)".*/\1 \2 \3>\4 \5 \6/' /tmp/events | tr '\n' ';')
want="0 4k rep_stosq>rep_stosq false admin;0 huge rep_stosq>movq true admin;0 huge movq>movq false admin;0 4k rep_stosq>rep_stosq false daemon;1 4k movnti>movnti true admin;1 huge movnti>movnti true admin;0 4k rep_stosq>rep_stosq true admin;0 huge movq>movq true admin;"
info "events: $got"
check "events in order with backend, old, new, pin and source" test "$got" = "$want"
got=$(awk '{ print $3, $4, $5, $6, $7, $8 }' /tmp/uevents | tr '\n' ';')
want="node0 node=0 backend=4k strategy=rep_stosq source=admin pinned=0;node0 node=0 backend=huge strategy=movq source=admin pinned=1;node0 node=0 backend=huge strategy=movq source=admin pinned=0;node0 node=0 backend=4k strategy=rep_stosq source=daemon pinned=0;node1 node=1 backend=4k strategy=movnti source=admin pinned=1;node1 node=1 backend=huge strategy=movnti source=admin pinned=1;node0 node=0 backend=4k strategy=rep_stosq source=admin pinned=1;node0 node=0 backend=huge strategy=movq source=admin pinned=1;"
info "uevents: $got"
check "uevents in order with backend, strategy, source and pin" test "$got" = "$want"
check "uevents are change events" sh -c "test \$(grep -c '^uevent change ' /tmp/uevents) -eq 8"

# Fuzz: as nobody nothing may change; as root, nothing unless a change was
# accepted. The kernel log must stay clean (checked by the harness).
before=$(state)
out=$(su -s /bin/sh nobody -c "nltest fuzz --count ${CPVM_FUZZ:-10000} --seed 1")
check "fuzz as nobody ran: $out" sh -c "echo '$out' | grep -q 'sent=${CPVM_FUZZ:-10000} acked_ok=[0-9]* errors=[0-9]* mutating_acked=0'"
check "fuzz as nobody changed nothing" test "$(state)" = "$before"
out=$(nltest fuzz --count ${CPVM_FUZZ:-10000} --seed 2)
check "fuzz as root ran: $out" sh -c "echo '$out' | grep -q '^sent=${CPVM_FUZZ:-10000} '"
if echo "$out" | grep -q 'mutating_acked=0'; then
	check "fuzz as root changed nothing (no change was accepted)" test "$(state)" = "$before"
else
	info "fuzz as root: some changes were valid and accepted: $(state)"
fi
check "the module still answers after the fuzz" sh -c "clearpagectl status --json | grep -q '\"node\":1'"

# clearpage-bench faults sets every strategy on a node through netlink and
# puts the node back as it was.
echo 1 > $CP/node0/pinned_4k
echo 0 > $CP/node0/pinned_huge
before=$(state)
check "clearpage-bench faults runs once per module strategy" sh -c \
	"clearpage-bench faults --sizes 2M --runs 1 --node 0 --out /tmp/bench >/tmp/bench.log 2>&1 && test \$((\$(wc -l < /tmp/bench/faults.csv) - 1)) -eq $(strategies | wc -w)"
info "clearpage-bench faults: $(tr '\n' '|' < /tmp/bench.log)"
check "faults --thp runs once per module strategy on the huge backend" sh -c \
	"clearpage-bench faults --thp --sizes 4M --runs 1 --node 0 --out /tmp/bench-thp >/tmp/bench-thp.log 2>&1 && test \$((\$(wc -l < /tmp/bench-thp/faults.csv) - 1)) -eq $(strategies | wc -w)"
info "clearpage-bench faults --thp: $(tr '\n' '|' < /tmp/bench-thp.log)"
check "and restores every backend's strategy and pin ($before)" test "$(state)" = "$before"

# unload, and the commands without the module.
check "clearpagectl unload removes the module" clearpagectl unload
check "nothing left after unload" test ! -e $CP -a ! -e /sys/kernel/livepatch/clearpage
check "unload when not loaded exits 0" clearpagectl unload
check "status without the module exits 3 with how to load it" \
	sh -c "out=\$(clearpagectl status 2>&1); test \$? -eq 3 && echo \"\$out\" | grep -q \"modprobe clearpage\""
check "status without the module still shows clearpaged's side and the module line" \
	sh -c "clearpagectl status 2>/dev/null | grep -q '^clearpaged: not running' && clearpagectl status 2>/dev/null | grep -q '^module: not loaded: modprobe clearpage'"
check "status --json without the module: no nodes, the module not loaded" \
	sh -c "clearpagectl status --json 2>/dev/null | grep -q '^{\"nodes\":\\[\\],\"daemon\":{\"running\":false},\"module\":{\"loaded\":false,'"
emit_json_of status clearpagectl status --json
emit_json_of list clearpagectl list --json
check "list without the module: availability unknown, exit 0" \
	sh -c "clearpagectl list | grep -q '^kernel  *? '"
check "monitor without the module exits 3" expect_exit 3 clearpagectl monitor --count 1
