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
# With --runs N (more than 1) every cell is replayed N times, each a
# process of its own with its own calibration (RUN/ beside the cell), and
# the table gives the median of the runs' ratios with the least and the
# greatest run, and the switches and reverts summed over the runs.
# Run it on a quiet machine, nothing else of ours running.
#
#   bench/replay-grid.sh [--bench PATH] [--cpu C] [--load L] [--repeats R]
#                        [--runs N] [--config FILE] [--backends "4k huge"]
#                        [--workloads "hot cold mixed mix50:120"]
#                        [--regimes "burst sustained loaded"] [--out DIR]
#
# --cpu (default 1) runs the measurement there, --load (default 0) the
# loaded regime's bandwidth load. --config is the policy's (default: the
# defaults, NonTemporal=auto: the replay reads no cache-miss counters, so
# movnti and clzero come only with the touch probe's share); --backends and
# --workloads limit or widen the grid (the table lists the cells there are).
set -euo pipefail
set -f	# the lists below are split on blanks, never globbed
bench=clearpage-bench cpu=1 load=0 repeats=3 runs=1 config= out=bench-results/grid
backends="4k huge" workloads="hot cold mixed" regimes="burst sustained loaded"
while [ $# -gt 0 ]; do
	case "$1" in
	--bench) bench=$2 ;;
	--cpu) cpu=$2 ;;
	--load) load=$2 ;;
	--repeats) repeats=$2 ;;
	--runs) runs=$2 ;;
	--regimes) regimes=$2 ;;
	--config) config=$2 ;;
	--backends) backends=$2 ;;
	--workloads) workloads=$2 ;;
	--out) out=$2 ;;
	*) echo "replay-grid.sh: unknown option $1 (see the head of the script)" >&2; exit 2 ;;
	esac
	shift 2
done
case $runs in
''|*[!0-9]*) runs_given=$runs runs=0 ;;
*) runs_given=$runs runs=$((10#$runs)) ;;
esac
if [ "$runs" -lt 1 ]; then
	echo "replay-grid.sh: --runs takes a count of 1 or more, not '$runs_given'" >&2
	exit 2
fi
for regime in $regimes; do
	case $regime in
	burst|sustained|loaded) ;;
	*) echo "replay-grid.sh: unknown regime '$regime' (burst, sustained or loaded)" >&2; exit 2 ;;
	esac
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
		for regime in $regimes; do
			cell=$backend-${workload/:/-}-$regime
			case $regime in
			loaded) args=(--load "$load") ;;
			*) args=(--regime "$regime") ;;
			esac
			for run in $(seq 1 "$runs"); do
				dir=$out/$cell txt=$out/$cell.txt
				if [ "$runs" -gt 1 ]; then
					dir=$out/$cell/$run txt=$out/$cell/$run.txt
					mkdir -p "$out/$cell"
				fi
				echo "=== $cell, run $run of $runs"
				"$bench" replay --backend "$backend" "${load_args[@]}" \
					--repeats "$repeats" --cpu "$cpu" "${config_args[@]}" \
					"${args[@]}" --out "$dir" 2>/dev/null | tee "$txt"
			done
		done
	done
done
python3 - "$out" "$backends" "$workloads" "$regimes" "$runs" > "$out/grid.md" <<'PY'
import csv, json, os, statistics, sys
out, backends, workloads, regimes = sys.argv[1], sys.argv[2].split(), sys.argv[3].split(), sys.argv[4].split()
runs = int(sys.argv[5])


def repeat_ratios(cell):
    """Each repeat's adaptive / oracle (its own arms' cheapest per phase)."""
    totals = {}
    with open(os.path.join(cell, "replay.csv")) as f:
        for row in csv.DictReader(f):
            totals[(row["arm"], row["repeat"])] = float(row["total_ms"])
    return [ms / totals[("oracle", rep)] for (arm, rep), ms in totals.items()
            if arm == "adaptive" and totals.get(("oracle", rep), 0) > 0]


def spread(values):
    return f"{min(values):.2f}–{max(values):.2f}" if values else "-"


def cell_line(backend, workload, regime, dirs):
    results = [json.load(open(os.path.join(d, "replay.json")))["results"] for d in dirs]
    r = results[0]
    over_oracle = [x["adaptive_over_oracle"] for x in results]
    over_static = [x["adaptive_over_best_static"] for x in results]
    if backend == "huge":
        kernel = r["kernel_replayed"]
    else:
        # 4 KiB faults: the kernel's clear_page() is rep stosb (ERMS),
        # else the kernel arm.
        kernel = "kernel" if "kernel" in r["median_total_ms"] else "rep_stosb"
    over_kernel = [x["median_total_ms"]["adaptive"] / x["median_total_ms"][kernel] for x in results]
    best = sorted({x["best_static"] for x in results})
    probes = [x.get("probes", {}) for x in results]
    judged = sum(p.get("judged_hot", 0) + p.get("judged_cold", 0) for p in probes)
    right = sum(p.get("judged_right", 0) for p in probes)
    lines = sum(p.get("touch_lines", 0) for p in probes)
    cached = sum(p.get("touch_cached", 0) for p in probes)
    read = sum(p.get("touch_read_true", 0) for p in probes)
    cost_share = statistics.median(p.get("cost_share", 0) for p in probes)
    if runs > 1:
        # The median run and the least and greatest run.
        first = f"{statistics.median(over_oracle):.3f} | {spread(over_oracle)}"
        static = f"{statistics.median(over_static):.3f} ({spread(over_static)})"
    else:
        first = f"{over_oracle[0]:.3f} | {spread(repeat_ratios(dirs[0]))}"
        static = f"{over_static[0]:.3f}"
    print(f"| {backend} | {workload} | {regime} | {r['non_temporal']} | {first} | {static} | "
          f"{statistics.median(over_kernel):.3f} ({kernel}) | {' '.join(best)} | "
          f"{sum(x['switches'] for x in results)}/{sum(x['reverts'] for x in results)} | "
          f"{100 * statistics.median(x['cost_of_knowing'] + x.get('cost_of_knowing_reads', 0) for x in results):.1f}% | "
          f"{f'{100 * right / judged:.1f}%' if judged else '-'} | {100 * cost_share:.2f}% | "
          f"{f'{100 * cached / lines:.0f}% / {100 * read / lines:.0f}%' if lines else '-'} |")


spread_head = "the least–greatest run" if runs > 1 else "one repeat's, least–greatest"
print(f"| backend | workload | regime | NonTemporal | adaptive / oracle | {spread_head} | adaptive / best static | adaptive / kernel | best static | switches/reverts | cost of knowing (clears and reads) | sample right | sample cost | touch: cached / read |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for backend in backends:
    for workload in workloads:
        for regime in regimes:
            cell = os.path.join(out, f"{backend}-{workload.replace(':', '-')}-{regime}")
            dirs = [os.path.join(cell, str(n)) for n in range(1, runs + 1)] if runs > 1 else [cell]
            dirs = [d for d in dirs if os.path.exists(os.path.join(d, "replay.json"))]
            if dirs:
                cell_line(backend, workload, regime, dirs)
PY
cat "$out/grid.md"
