#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# clearpage-bench works and writes well-formed output: every subcommand runs
# briefly, exits 0, and writes JSON that parses with the fields its readers
# use, a CSV with the expected rows and an SVG. Bad input exits 2 with one
# line. Nothing here judges a number: benchmarks are not tests.
#
#   tests/bench/test-bench.sh BENCH_BINARY [CLEARPAGED_BINARY ALLOWLIST]
set -u
bench=$1
clearpaged=${2:-}
allowlist=${3:-}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# clearpaged --check-config checks that its own user could enter it.
chmod 755 "$out"
passed=0 failed=0 skipped=0

check() {
	local name=$1
	shift
	if "$@" >"$out/last.log" 2>&1; then
		passed=$((passed + 1)); echo "PASS: $name"
	else
		failed=$((failed + 1)); echo "FAIL: $name"; sed 's/^/    /' "$out/last.log"
	fi
}

# json FILE PYTHON-EXPRESSION: the expression over the parsed file 'd' is true.
json() {
	python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if ($2) else 1)" "$1"
}
svg() { head -c 512 "$1" | grep -q '<svg'; }
rows() { test "$(($(wc -l < "$1") - 1))" -eq "$2"; }

nstrat=$("$bench" strategies --pattern contiguous --sizes 16K --runs 1 --out "$out/probe" 2>/dev/null | tail -n +2 | wc -l)

# strategies
check "strategies --pattern contiguous runs" "$bench" strategies --pattern contiguous --sizes 16K,64K --runs 2 --out "$out/s"
check "strategies.json: a result per strategy, size and mode" \
	json "$out/s/strategies.json" "len(d['results']) == $nstrat * 2 * 2 and all(r['ns_per_4k_min'] <= r['ns_per_4k_median'] <= r['ns_per_4k_max'] for r in d['results']) and d['meta']['cpu_vendor']"
check "strategies.csv: the same rows" rows "$out/s/strategies.csv" $((nstrat * 4))
check "strategies.svg" svg "$out/s/strategies.svg"
# The fault-like patterns: per pattern and touch, the kernel arm (folios:
# one per kernel series, the 6.x walk and the 7.x extents, and the 7.x
# allocator's clear) and one arm per
# strategy (per chunk size for folios): 4k-cold 3 touches, 4k-hot 2, 2m-cold
# 3 with 2 chunk sizes, 2m-hot 1 with 2 chunk sizes; the sustained regime
# (4k-sustained, 2m-sustained) as the cold ones.
check "strategies (fault-like patterns) runs" "$bench" strategies --runs 2 --pool 8M --no-gigantic --chunks 64K,2M --out "$out/p"
points=$(( (3 + 2 + 3) * (1 + nstrat) + (3 + 1 + 3) * (3 + 2 * nstrat) ))
check "strategies.json: every pattern, arm, chunk and touch, each with a ratio to both kernel arms" \
	json "$out/p/strategies.json" "len(d['results']) == $points and all(r['ns_per_4k_min'] <= r['ns_per_4k_median'] <= r['ns_per_4k_max'] and r['ratio_to_kernel'] > 0 and r['ratio_to_kernel_7x'] > 0 for r in d['results']) and all(r['ratio_to_kernel'] == 1 for r in d['results'] if r['arm'] in ('kernel', 'kernel-6.x')) and all(r['ratio_to_kernel_7x'] == 1 for r in d['results'] if r['arm'] in ('kernel', 'kernel-7.x')) and {r['arm'] for r in d['results'] if r['pattern'] == '2m-cold'} >= {'kernel-6.x', 'kernel-7.x', 'kernel-alloc'} and {r['pattern'] for r in d['results']} == {'4k-cold', '4k-hot', '2m-cold', '2m-hot', '4k-sustained', '2m-sustained'}"
check "strategies.csv (fault-like patterns): the same rows" rows "$out/p/strategies.csv" $points
check "strategies --burst-only leaves the sustained regime out" "$bench" strategies --runs 1 --pool 8M --no-gigantic --chunks 2M --burst-only --out "$out/p2"
check "strategies.json (--burst-only): the burst patterns only" \
	json "$out/p2/strategies.json" "{r['pattern'] for r in d['results']} == {'4k-cold', '4k-hot', '2m-cold', '2m-hot'}"
if [ "$(nproc)" -ge 2 ]; then
	check "strategies --load: the loaded regime, a load on CPU 0" "$bench" strategies --runs 1 --pool 8M --no-gigantic --chunks 2M --cpu 1 --load 0 --out "$out/p3"
	check "strategies.json (--load): 4k-loaded and 2m-loaded, the load's rate" \
		json "$out/p3/strategies.json" "{'4k-loaded', '2m-loaded', '4k-sustained'} <= {r['pattern'] for r in d['results']} and d['load_bytes_per_second'] >= 0"
else
	skipped=$((skipped + 1)); echo "SKIP: strategies --load needs a second CPU"
fi
check "strategies.svg (fault-like patterns)" svg "$out/p/strategies.svg"

# faults (the running kernel; without the module: the current strategy)
check "faults runs" "$bench" faults --sizes 2M,4M --runs 2 --node 0 --strategies current --out "$out/f"
check "faults.json: a result per size" \
	json "$out/f/faults.json" "len(d['results']) == 2 and d['results'][0]['strategy'] == 'current' and d['results'][0]['ns_per_fault_median'] > 0"
check "faults.csv" rows "$out/f/faults.csv" 2
check "faults.svg" svg "$out/f/faults.svg"
check "faults --thp runs" "$bench" faults --thp --sizes 4M --runs 1 --node 0 --strategies current --out "$out/t"
check "faults --thp: per 2M fault, with the THP share" \
	json "$out/t/faults.json" "d['results'][0]['page'] == '2M' and 0 <= d['results'][0]['thp_share'] <= 1"

# replay, short; MinSpread=1 so that a noisy calibration cannot refuse it
printf '[Policy]\nMinSpread=1\n' > "$out/policy.conf"
check "replay runs" "$bench" replay --phases hot:4,cold:4 --pages 256 --cold-mb 64 \
	--repeats 2 --config "$out/policy.conf" --out "$out/r"
check "replay.json: every arm, the oracle and the ratios" \
	json "$out/r/replay.json" "set(['adaptive', 'oracle', 'rep_stosq', 'movnti']) <= set(d['results']['median_total_ms']) and d['results']['adaptive_over_oracle'] > 0 and d['results']['best_static'] in d['results']['median_total_ms']"
check "replay.json: the recycled rule's reach (the LLC, or 8 MiB where CPUID names none) is not 0" \
	json "$out/r/replay.json" "d['results']['probes']['recent_reach_pages'] > 0"
check "replay.csv: a total per arm and repeat" rows "$out/r/replay.csv" $(((nstrat + 2) * 2))
check "replay-timeline.csv: one row per interval" rows "$out/r/replay-timeline.csv" 8
check "replay.svg" svg "$out/r/replay.svg"
# The arms' order: in 2n repeats of n arms each arm comes first twice and
# after every other arm twice (a Williams design), none after itself. n:
# the arms of the replay above (a kernel arm where clear_page() is not
# rep stosb).
narms=$(tail -n +2 "$out/r/replay.csv" | cut -d, -f1 | grep -vx oracle | sort -u | wc -l)
check "replay: the arms' order balanced over the repeats" "$bench" replay --phases cold:1 \
	--pages 64 --cold-mb 64 --repeats $((2 * narms)) --config "$out/policy.conf" \
	--out "$out/order"
check "replay.csv: every arm first and after every other equally often" \
	python3 - "$out/order/replay.csv" <<'PY'
import collections, csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["arm"] != "oracle"]
seq = collections.defaultdict(dict)
for r in rows:
    seq[r["repeat"]][int(r["place"])] = r["arm"]
arms = {r["arm"] for r in rows}
first = collections.Counter(s[0] for s in seq.values())
pairs = collections.Counter((s[k - 1], s[k]) for s in seq.values() for k in range(1, len(s)))
want = {(a, b) for a in arms for b in arms if a != b}
ok = (all(sorted(s) == list(range(len(arms))) for s in seq.values())
      and set(first) == arms and len(set(first.values())) == 1
      and set(pairs) == want and len(set(pairs.values())) == 1)
sys.exit(0 if ok else 1)
PY
check "replay --touch page runs" "$bench" replay --phases cold:3 --pages 128 --cold-mb 64 \
	--repeats 1 --touch page --reference-every 0 --config "$out/policy.conf" --out "$out/r2"
check "replay --backend huge runs" "$bench" replay --backend huge --phases hot:2,cold:3 \
	--pages 1024 --cold-mb 64 --repeats 1 --config "$out/policy.conf" --out "$out/r3"
check "replay --backend huge: both kernel arms (6.x walk, 7.x extents), the ratios to them, touch page by default" \
	json "$out/r3/replay.json" "d['results']['backend'] == 'huge' and {'kernel-6.x', 'kernel-7.x'} <= set(d['results']['median_total_ms']) and d['results']['adaptive_over_kernel'] > 0 and d['results']['adaptive_over_kernel_7x'] > 0 and d['results']['kernel_replayed'] in ('kernel-6.x', 'kernel-7.x') and d['results']['touch'] == 'page'"
check "replay --kernel 7.x replays the module on 7.x" "$bench" replay --backend huge --phases cold:2 \
	--pages 512 --cold-mb 64 --repeats 1 --kernel 7.x --config "$out/policy.conf" --out "$out/r4"
check "replay.json: kernel_replayed is kernel-7.x" \
	json "$out/r4/replay.json" "d['results']['kernel_replayed'] == 'kernel-7.x'"
check "replay --kernel 5.x is refused" sh -c "! '$bench' replay --backend huge --kernel 5.x --out '$out/r5' 2>/dev/null"
check "replay-timeline.csv (huge): one row per interval" rows "$out/r3/replay-timeline.csv" 5
check "replay.json: trials 1 in 64, the sustained regime, the cost of knowing" \
	json "$out/r/replay.json" "d['results']['trial_every'] == 64 and d['results']['regime'] == 'sustained' and 'cost_of_knowing' in d['results']"
check "replay-timeline.csv: the trial candidates of every interval, named" \
	sh -c "tail -n +2 '$out/r/replay-timeline.csv' | cut -d, -f7 | grep -qE '^(none|[a-z_]+( [a-z_]+)*)\$' && head -n 1 '$out/r/replay-timeline.csv' | grep -q ',trials,gain,'"
if [ "$(nproc)" -ge 2 ]; then
	check "replay --load runs (the loaded regime, a load on CPU 0)" "$bench" replay --phases cold:2 \
		--pages 128 --cold-mb 64 --repeats 1 --cpu 1 --load 0 --config "$out/policy.conf" --out "$out/r6"
	check "replay.json: regime loaded, the load's rate" \
		json "$out/r6/replay.json" "d['results']['regime'] == 'loaded' and d['results']['load_bytes_per_second'] >= 0"
else
	skipped=$((skipped + 1)); echo "SKIP: replay --load needs a second CPU"
fi
check "replay --regime burst runs" "$bench" replay --backend huge --phases hot:1,cold:2 \
	--pages 512 --cold-mb 64 --repeats 1 --regime burst --config "$out/policy.conf" --out "$out/r8"
check "replay.json: regime burst" json "$out/r8/replay.json" "d['results']['regime'] == 'burst'"
check "replay --trial-every 0: the calibration decides" "$bench" replay --phases cold:2 \
	--pages 128 --cold-mb 64 --repeats 1 --trial-every 0 --config "$out/policy.conf" --out "$out/r7"

# ab
check "ab runs" "$bench" ab --a true --b "sleep 0.02" --repeats 3 --out "$out/a"
check "ab.json: seconds with mean, stddev, %change, p and a verdict" \
	json "$out/a/ab.json" "d['results']['metrics'][0]['metric'] == 'seconds' and d['results']['metrics'][0]['verdict'] in ('significant', 'in the noise') and 0 <= d['results']['metrics'][0]['p_value'] <= 1 and d['results']['metrics'][0]['b_mean'] >= 0.02"
check "ab.csv: runs interleaved ABAB" sh -c "cut -d, -f1 '$out/a/ab.csv' | tail -n +2 | tr -d '\n' | grep -qx ABABAB"
check "ab.svg" svg "$out/a/ab.svg"
check "ab prints the LKP-style line" sh -c "'$bench' ab --a true --b true --repeats 2 --out '$out/a2' 2>/dev/null | grep -qE '^ +[0-9.e-]+ +[0-9.]+% +[-+][0-9.]+% +[0-9.e-]+ +[0-9.]+%  seconds '"

# advise: the figures, then either an allowlist line and policy settings
# that clearpaged accepts (its --check-config says this CPU is allowed by
# the written drop-in, ahead of the shipped list), or why there is none.
check "advise runs and writes its drop-ins" \
	sh -c "'$bench' advise --runs 1 --pool 8M --write --root '$out/root' --out '$out/adv' > '$out/adv.txt'"
check "advise.json: the fault-like patterns with ratios" \
	json "$out/adv/advise.json" "len(d['results']) > 0 and all(r['ratio_to_kernel'] > 0 for r in d['results'])"
if [ -f "$out/root/etc/clearpaged/cpu-allowlist.d/50-advise.conf" ]; then
	check "advise: the measured node's GiganticHelpers= in the policy drop-in" \
		sh -c "grep -A1 -x '\[Node.0\]' '$out/root/etc/clearpaged.conf.d/50-advise.conf' | grep -qx 'GiganticHelpers=[0-9]*'"
	# What advise prints under each drop-in's name is that file, to paste.
	for f in etc/clearpaged/cpu-allowlist.d/50-advise.conf etc/clearpaged.conf.d/50-advise.conf; do
		check "advise prints /$f as written" \
			sh -c "awk -v name='/$f:' 'p == 2 && /^\$/ { exit } p == 2 { print } p == 1 { p = 2 } index(\$0, name) { p = 1 }' '$out/adv.txt' | cmp - '$out/root/$f'"
	done
	check "advise: the allowlist drop-in names its evidence, the JSON it wrote" \
		grep -qx "# Evidence: $(realpath "$out/adv")/advise.json" "$out/root/etc/clearpaged/cpu-allowlist.d/50-advise.conf"
	check "advise --no-gigantic: no [Node.N] section" \
		sh -c "'$bench' advise --runs 1 --pool 8M --no-gigantic --write --root '$out/rng' --out '$out/advng' >/dev/null 2>&1 &&
		       ! grep -q 'Node' '$out/rng/etc/clearpaged.conf.d/50-advise.conf'"
	check "advise: the allowlist line names this CPU" \
		grep -qE "^$(sed -n 's/^vendor_id[^:]*: //p' /proc/cpuinfo | head -n 1) +0x" \
		"$out/root/etc/clearpaged/cpu-allowlist.d/50-advise.conf"
	if [ -n "$clearpaged" ]; then
		# The shipped list where the package puts it, under the root.
		mkdir -p "$out/root/usr/share/clearpaged"
		cp "$allowlist" "$out/root/usr/share/clearpaged/cpu-allowlist.conf"
		chmod 644 "$out/root/usr/share/clearpaged/cpu-allowlist.conf"
		check "clearpaged accepts the advised settings and this CPU's measured line" \
			sh -c "'$clearpaged' --check-config --config-root '$out/root' > '$out/check.txt' &&
			       grep -q '^HotStrategy=' '$out/check.txt' &&
			       grep -q '^# This CPU: .*: allowed .* by $out/root/etc/clearpaged/cpu-allowlist.d/50-advise.conf:[0-9]' '$out/check.txt'"
	fi
	# Under umask 077 the daemon's own user must still read them.
	check "advise --write under umask 077: 0644 drop-ins in 0755 directories" \
		sh -c "umask 077 && '$bench' advise --runs 1 --pool 8M --write --root '$out/r77' --out '$out/adv77' >/dev/null 2>&1 &&
		       test \"\$(stat -c %a '$out/r77/etc/clearpaged/cpu-allowlist.d/50-advise.conf' '$out/r77/etc/clearpaged.conf.d/50-advise.conf' '$out/r77/etc/clearpaged/cpu-allowlist.d' '$out/r77/etc/clearpaged.conf.d' '$out/r77/etc' | tr '\n' ' ')\" = '644 644 755 755 755 '"
	# Both or neither: the policy drop-in cannot be replaced (a directory
	# holds its name), so the allowlist drop-in is put back as it was.
	mkdir -p "$out/rfail/etc/clearpaged/cpu-allowlist.d" "$out/rfail/etc/clearpaged.conf.d/50-advise.conf"
	echo "# the admin's line" > "$out/rfail/etc/clearpaged/cpu-allowlist.d/50-advise.conf"
	check "advise --write: both drop-ins or neither" \
		sh -c "! '$bench' advise --runs 1 --pool 8M --write --root '$out/rfail' --out '$out/advf' >/dev/null 2>'$out/advf.err' &&
		       grep -q 'put back' '$out/advf.err' &&
		       test \"\$(cat '$out/rfail/etc/clearpaged/cpu-allowlist.d/50-advise.conf')\" = \"# the admin's line\" &&
		       test -z \"\$(ls -A '$out/rfail/etc/clearpaged/cpu-allowlist.d' | grep -v '^50-advise.conf\$')\""
else
	check "advise: no line, and it says why" \
		sh -c "'$bench' advise --runs 1 --pool 8M --out '$out/adv2' 2>/dev/null | grep -q 'No strategy beat the kernel'"
fi

# gigantic: a 1 GiB folio on 1 and all threads; the kernel arms and every
# strategy per thread count, and a helper count per regime.
ncpu=$(nproc)
gthreads=1
[ "$ncpu" -gt 1 ] && gthreads="1,2"
check "gigantic runs (burst, threads $gthreads)" \
	"$bench" gigantic --runs 1 --regime burst --threads "$gthreads" --out "$out/g"
check "gigantic.json: both kernel arms, every strategy per thread count, a helper count" \
	json "$out/g/gigantic.json" "len(d['results']) == 2 + $nstrat * len('$gthreads'.split(',')) and all(r['ms_median'] > 0 and r['speedup_over_running_kernel'] > 0 for r in d['results']) and {r['arm'] for r in d['results']} >= {'kernel-6.x', 'kernel-7.x'} and len(d['helpers']) == 1 and 0 <= d['helpers'][0]['gigantic_helpers'] < $ncpu"
check "gigantic.csv: the same rows" rows "$out/g/gigantic.csv" $((2 + nstrat * $(echo "$gthreads" | tr ',' '\n' | wc -l)))

# probe: its calibration, and per regime (2m and 4k, burst and sustained;
# loaded with --load) the probe's and the clear's time for hot and cold
# units, and how many of each were judged right.
check "probe runs" "$bench" probe --runs 1 --units 16 --pool 8M --mix 0,100 --out "$out/pr"
check "probe.json: the calibration and the four regimes without a load, every unit judged" \
	json "$out/pr/probe.json" "d['calibration']['hot_ticks'] > 0 and d['calibration']['cold_ticks'] > 0 and [r['regime'] for r in d['results']] == ['2m-burst', '2m-sustained', '4k-burst', '4k-sustained'] and all(r['hot_units'] + r['cold_units'] == 16 and 0 <= r['hot_right'] <= r['hot_units'] and 0 <= r['cold_right'] <= r['cold_units'] and r['probe_ns_hot'] > 0 and r['clear_ns_cold'] > 0 for r in d['results'])"
check "probe.json: the mix, per regime and hot share, every arm timed" \
	json "$out/pr/probe.json" "[(m['regime'], m['hot_percent']) for m in d['mix']] == [('2m-burst', 0), ('2m-burst', 100), ('2m-sustained', 0), ('2m-sustained', 100)] and all(m[a + '_ns'] > 0 for m in d['mix'] for a in ('hot', 'cold', 'probe', 'oracle')) and all(0 <= m['judged_right'] <= 1 and m['probe_to_best_static'] > 0 for m in d['mix'])"
check "probe.csv: a row per regime" rows "$out/pr/probe.csv" 4
check "probe.svg" svg "$out/pr/probe.svg"
if [ "$(nproc)" -ge 2 ]; then
	check "probe --load: the loaded regimes too" "$bench" probe --runs 1 --units 16 --pool 8M --cpu 1 --load 0 --out "$out/pr2"
	check "probe.json (--load): six regimes" \
		json "$out/pr2/probe.json" "[r['regime'] for r in d['results']] == ['2m-burst', '2m-sustained', '2m-loaded', '4k-burst', '4k-sustained', '4k-loaded']"
fi

# bad input: exit 2, one line naming the problem
expect2() {
	local pattern=$1
	shift
	"$@" >/dev/null 2>"$out/err"
	test $? -eq 2 && grep -q -- "$pattern" "$out/err" &&
		test "$(wc -l < "$out/err")" -eq 1
}
check "unknown command" expect2 "unknown command" "$bench" nosuch
check "a size that is not a multiple of 4K" expect2 "--sizes" "$bench" strategies --pattern contiguous --sizes 3K
check "--sizes without --pattern contiguous" expect2 "--sizes" "$bench" strategies --sizes 16K
check "an unknown pattern" expect2 "--pattern" "$bench" strategies --pattern sequential
check "a chunk larger than a folio" expect2 "--chunks" "$bench" strategies --chunks 4M
check "an unknown strategy" expect2 "unknown strategy" "$bench" strategies --strategies fast
check "bad phases" expect2 "--phases" "$bench" replay --phases warm:3
check "an unknown backend" expect2 "--backend" "$bench" replay --backend 2m
check "--touch folio without huge" expect2 "--touch folio" "$bench" replay --touch folio
check "trials without a frame for every candidate" expect2 "--trial-every" "$bench" replay --trial-every 4
check "a load on the measured CPU" expect2 "--load" "$bench" replay --cpu 1 --load 1
check "a load without --cpu" expect2 "--load" "$bench" replay --load 1
check "touch: a share above 100" expect2 "--read" "$bench" touch --read 50,101
check "touch: an unknown order" expect2 "--order" "$bench" touch --order diagonal
check "touch: an unknown seed" expect2 "--seed" "$bench" touch --seed random
check "touch: --every 0" expect2 "--every" "$bench" touch --every 0
check "an unknown regime" expect2 "--regime" "$bench" replay --regime idle
check "probe: fewer than 2 units" expect2 "--units" "$bench" probe --units 1
check "probe: a pool of less than two folios" expect2 "--pool" "$bench" probe --pool 2M
check "probe: a hot share over 100" expect2 "--mix" "$bench" probe --mix 50,101
check "probe: a pair of one strategy" expect2 "--pair" "$bench" probe --pair rep_stosb
check "burst and a load at once" expect2 "--load" "$bench" replay --regime burst --cpu 1 --load 0
check "strategies: a load on the measured CPU" expect2 "--load" "$bench" strategies --cpu 1 --load 1
check "huge pages that are not whole folios" expect2 "whole 2 MiB folios" "$bench" replay --backend huge --pages 100
check "a bad --config is refused with file:line" \
	sh -c "printf '[Policy]\nMargin=-1\n' > '$out/bad.conf'; '$bench' replay --config '$out/bad.conf' 2>&1 >/dev/null | grep -q 'bad.conf:2'"
check "advise with a bad pool" expect2 "--pool" "$bench" advise --pool 3K
check "ab without both arms" expect2 "both --a and --b" "$bench" ab --a true
check "ab with one run per arm" expect2 "--repeats: '1' is not a number from 2" "$bench" ab --a true --b true --repeats 1
# Zero counts, and a CPU or node that is not there, before any work.
check "strategies --runs 0" expect2 "--runs: '0' is not a number from 1" "$bench" strategies --runs 0
check "faults --runs 0" expect2 "--runs: '0' is not a number from 1" "$bench" faults --runs 0
check "advise --runs 0" expect2 "--runs: '0' is not a number from 1" "$bench" advise --runs 0
check "replay --repeats 0" expect2 "--repeats: '0' is not a number from 1" "$bench" replay --repeats 0
check "replay --pages 0" expect2 "--pages: '0' is not a number from 1" "$bench" replay --pages 0
check "replay --cpu 999" expect2 "--cpu: CPU 999 is not one this process can run on" "$bench" replay --cpu 999
check "strategies --cpu 999" expect2 "--cpu: CPU 999 is not one" "$bench" strategies --cpu 999
check "advise --load 999" expect2 "--load: CPU 999 is not one" "$bench" advise --cpu 0 --load 999
check "faults --node 1000" expect2 "--node: node 1000 is not online" "$bench" faults --node 1000
check "strategies --node 1000" expect2 "--node: node 1000 is not online" "$bench" strategies --node 1000
check "replay --node 1000" expect2 "--node: node 1000 is not online" "$bench" replay --node 1000
check "gigantic: more threads than the node's CPUs" expect2 "--threads" "$bench" gigantic --threads 1,4096
check "gigantic: an unknown regime" expect2 "--regime" "$bench" gigantic --regime idle
check "gigantic: loaded without --load" expect2 "--load" "$bench" gigantic --regime loaded
check "gigantic: a chunk that is not whole pages" expect2 "--chunk" "$bench" gigantic --chunk 3K
check "gigantic --runs 0" expect2 "--runs: '0' is not a number from 1" "$bench" gigantic --runs 0
check "a failing workload fails the run" sh -c "! '$bench' ab --a true --b false --repeats 2 --out '$out/a3' 2>/dev/null"

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
