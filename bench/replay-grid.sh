#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The replay grid: clearpage-bench replay for both backends, the hot, cold
# and mixed workloads, in the burst, sustained and loaded memory regimes,
# then one table of adaptive against the oracle and the kernel's own clear
# per cell (grid.md), each cell's files beside it. Run it on a quiet
# machine, nothing else of ours running.
#
#   bench/replay-grid.sh [--bench PATH] [--cpu C] [--load L] [--repeats R]
#                        [--config FILE] [--backends "4k huge"] [--out DIR]
#
# --cpu (default 1) runs the measurement there, --load (default 0) the
# loaded regime's bandwidth load. --config (default: NonTemporal=yes, as
# the replay reads no cache-miss counters) is the policy's; --backends
# limits the grid (the table lists the cells there are).
set -euo pipefail
bench=clearpage-bench cpu=1 load=0 repeats=3 config= out=bench-results/grid
backends="4k huge"
while [ $# -gt 0 ]; do
	case "$1" in
	--bench) bench=$2 ;;
	--cpu) cpu=$2 ;;
	--load) load=$2 ;;
	--repeats) repeats=$2 ;;
	--config) config=$2 ;;
	--backends) backends=$2 ;;
	--out) out=$2 ;;
	*) echo "replay-grid.sh: unknown option $1 (see the head of the script)" >&2; exit 2 ;;
	esac
	shift 2
done
mkdir -p "$out"
if [ -z "$config" ]; then
	config=$out/policy.conf
	printf '[Policy]\nNonTemporal=yes\n' > "$config"
fi
for backend in $backends; do
	for workload in hot cold mixed; do
		for regime in burst sustained loaded; do
			cell=$backend-$workload-$regime
			case $regime in
			loaded) args=(--load "$load") ;;
			*) args=(--regime "$regime") ;;
			esac
			echo "=== $cell"
			"$bench" replay --backend "$backend" --workload "$workload" \
				--repeats "$repeats" --cpu "$cpu" --config "$config" \
				"${args[@]}" --out "$out/$cell" 2>/dev/null | tee "$out/$cell.txt"
		done
	done
done
python3 - "$out" > "$out/grid.md" <<'PY'
import json, os, sys
out = sys.argv[1]
print("| backend | workload | regime | NonTemporal | adaptive / oracle | adaptive / kernel | best static | switches | cost of knowing |")
print("|---|---|---|---|---|---|---|---|---|")
for backend in ("4k", "huge"):
    for workload in ("hot", "cold", "mixed"):
        for regime in ("burst", "sustained", "loaded"):
            path = os.path.join(out, f"{backend}-{workload}-{regime}", "replay.json")
            if not os.path.exists(path):
                continue
            r = json.load(open(path))["results"]
            med = r["median_total_ms"]
            if backend == "huge":
                kernel = r["kernel_replayed"]
            else:
                # 4 KiB faults: the kernel's clear_page() is rep stosb
                # (ERMS), else the kernel arm.
                kernel = "kernel" if "kernel" in med else "rep_stosb"
            print(f"| {backend} | {workload} | {regime} | {r['non_temporal']} | {r['adaptive_over_oracle']:.3f} | "
                  f"{med['adaptive'] / med[kernel]:.3f} ({kernel}) | {r['best_static']} | "
                  f"{r['switches']} | {100 * r['cost_of_knowing']:.1f}% |")
PY
cat "$out/grid.md"
