#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The replay grid: clearpage-bench replay for both backends, the hot, cold
# and mixed workloads (and interleaved ones, mixP:N), in the burst,
# sustained and loaded memory regimes, then one table of adaptive against
# the oracle, the best static arm and the kernel's own clear per cell, with
# what the module's probes judged (grid.md), each cell's files beside it.
# Each cell's ratio is of medians over the repeats; beside it the least and
# the greatest adaptive / oracle of one repeat, which shows the cell's
# noise (the oracle of a repeat is its own arms' cheapest per phase).
# Run it on a quiet machine, nothing else of ours running.
#
#   bench/replay-grid.sh [--bench PATH] [--cpu C] [--load L] [--repeats R]
#                        [--config FILE] [--backends "4k huge"]
#                        [--workloads "hot cold mixed mix50:120"] [--out DIR]
#
# --cpu (default 1) runs the measurement there, --load (default 0) the
# loaded regime's bandwidth load. --config is the policy's (default: the
# defaults, NonTemporal=auto: the replay reads no cache-miss counters, so
# movnti and clzero come only with the touch probe's share); --backends and
# --workloads limit or widen the grid (the table lists the cells there are).
set -euo pipefail
bench=clearpage-bench cpu=1 load=0 repeats=3 config= out=bench-results/grid
backends="4k huge" workloads="hot cold mixed"
while [ $# -gt 0 ]; do
	case "$1" in
	--bench) bench=$2 ;;
	--cpu) cpu=$2 ;;
	--load) load=$2 ;;
	--repeats) repeats=$2 ;;
	--config) config=$2 ;;
	--backends) backends=$2 ;;
	--workloads) workloads=$2 ;;
	--out) out=$2 ;;
	*) echo "replay-grid.sh: unknown option $1 (see the head of the script)" >&2; exit 2 ;;
	esac
	shift 2
done
mkdir -p "$out"
config_args=()
[ -n "$config" ] && config_args=(--config "$config")
for backend in $backends; do
	for workload in $workloads; do
		case $workload in
		mix[0-9]*) load_args=(--phases "$workload") ;;
		*) load_args=(--workload "$workload") ;;
		esac
		for regime in burst sustained loaded; do
			cell=$backend-${workload/:/-}-$regime
			case $regime in
			loaded) args=(--load "$load") ;;
			*) args=(--regime "$regime") ;;
			esac
			echo "=== $cell"
			"$bench" replay --backend "$backend" "${load_args[@]}" \
				--repeats "$repeats" --cpu "$cpu" "${config_args[@]}" \
				"${args[@]}" --out "$out/$cell" 2>/dev/null | tee "$out/$cell.txt"
		done
	done
done
python3 - "$out" "$backends" "$workloads" > "$out/grid.md" <<'PY'
import csv, json, os, sys
out, backends, workloads = sys.argv[1], sys.argv[2].split(), sys.argv[3].split()


def repeat_range(cell):
    """The least and greatest adaptive / oracle of one repeat, as text."""
    totals = {}
    with open(os.path.join(cell, "replay.csv")) as f:
        for row in csv.DictReader(f):
            totals[(row["arm"], row["repeat"])] = float(row["total_ms"])
    ratios = [ms / totals[("oracle", rep)] for (arm, rep), ms in totals.items()
              if arm == "adaptive" and totals.get(("oracle", rep), 0) > 0]
    return f"{min(ratios):.2f}–{max(ratios):.2f}" if ratios else "-"


print("| backend | workload | regime | NonTemporal | adaptive / oracle | one repeat's, least–greatest | adaptive / best static | adaptive / kernel | best static | switches/reverts | cost of knowing | sample right | sample cost | touch: cached / read |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for backend in backends:
    for workload in workloads:
        for regime in ("burst", "sustained", "loaded"):
            path = os.path.join(out, f"{backend}-{workload.replace(':', '-')}-{regime}", "replay.json")
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
            p = r.get("probes", {})
            judged = p.get("judged_hot", 0) + p.get("judged_cold", 0)
            lines = p.get("touch_lines", 0)
            right = f"{100 * p['judged_right'] / judged:.1f}%" if judged else "-"
            touch = (f"{100 * p['touch_cached'] / lines:.0f}% / {100 * p['touch_read_true'] / lines:.0f}%"
                     if lines else "-")
            print(f"| {backend} | {workload} | {regime} | {r['non_temporal']} | {r['adaptive_over_oracle']:.3f} | "
                  f"{repeat_range(os.path.dirname(path))} | "
                  f"{r['adaptive_over_best_static']:.3f} | "
                  f"{med['adaptive'] / med[kernel]:.3f} ({kernel}) | {r['best_static']} | "
                  f"{r['switches']}/{r['reverts']} | {100 * r['cost_of_knowing']:.1f}% | "
                  f"{right} | {100 * p.get('cost_share', 0):.2f}% | {touch} |")
PY
cat "$out/grid.md"
