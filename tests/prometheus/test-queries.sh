#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Every query of the Grafana dashboard and of doc/monitoring.md's cookbook,
# run by promtool against a metrics file clearpaged wrote: the file becomes
# the input series (a scrape every minute, for 30 minutes, instance
# "test"; counters rising to the file's values), and each query must
# evaluate and, unless the cookbook marks it "may be empty", return at
# least one series with a number (not NaN); a dashboard panel the same,
# unless its description says "may be empty". SKIP (exit 77) without
# promtool (tests/install-deps.sh extracts it) or without the file.
#   test-queries.sh METRICS_FILE DASHBOARD COOKBOOK [PROMTOOL_DIR]
metrics=$1 dashboard=$2 cookbook=$3
PATH="${4:-}:$PATH"
if ! command -v promtool >/dev/null; then
	echo "SKIP: promtool not found (tests/install-deps.sh extracts it)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 77
fi
if [ ! -s "$metrics" ]; then
	echo "SKIP: no metrics file $metrics to run the queries against"
	echo "0 passed, 0 failed, 1 skipped"
	exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The queries, one per line as "NAME<TAB>MAY_BE_EMPTY<TAB>QUERY", and a
# promtool test file with one test per query.
python3 - "$metrics" "$dashboard" "$cookbook" "$work" >"$work/queries" <<'EOF' || exit 1
import json, re, sys

metrics, dashboard, cookbook, work = sys.argv[1:5]
queries = []
for panel in json.load(open(dashboard))["panels"]:
    for target in panel.get("targets", []):
        q = target["expr"].replace('"$instance"', '".*"')
        q = q.replace("$__rate_interval", "5m")
        queries.append(("dashboard: %s %s" % (panel["title"], target["refId"]),
                        "may be empty" in panel.get("description", ""), q))
text = open(cookbook).read()
for m in re.finditer(r"((?:[^\n]+\n)+)\n```promql\n(.*?)```", text, re.S):
    said, q = m.group(1), m.group(2)
    title = said.strip().splitlines()[0]
    queries.append(("cookbook: " + title, "may be empty" in said,
                    " ".join(q.split())))
if len(queries) < 5:
    sys.exit("test-queries.sh: only %d queries found" % len(queries))

# Counters (and histograms) rise from 0 to the file's value over the 30
# minutes, so that rates, quantiles and ratios have values; gauges stay.
types, series = {}, []
for line in open(metrics):
    line = line.strip()
    if line.startswith("# TYPE "):
        _, _, family, kind = line.split()
        types[family] = kind
    if not line or line.startswith("#"):
        continue
    name, value = line.rsplit(" ", 1)
    family = name.split("{")[0]
    for suffix in ("_bucket", "_sum", "_count"):
        if family.endswith(suffix) and family[:-len(suffix)] in types:
            family = family[:-len(suffix)]
    rising = types.get(family) in ("counter", "histogram") and \
        value not in ("NaN", "+Inf", "-Inf")
    if "{" in name:
        name = name[:-1] + ',instance="test"}'
    else:
        name += '{instance="test"}'
    if rising:
        values = " ".join(repr(float(value) * i / 30) for i in range(31))
    else:
        values = " ".join([value] * 31)
    series.append({"series": name, "values": values})
if not series:
    sys.exit("test-queries.sh: no samples in " + metrics)

tests = []
for i, (title, may_be_empty, q) in enumerate(queries):
    # A series with a number (q == q drops NaN): 1. Evaluating is all a
    # "may be empty" one owes.
    expr = "(count(%s) or vector(0)) >= bool 0" % q if may_be_empty \
        else "count((%s) == (%s)) > bool 0" % (q, q)
    tests.append({"interval": "1m", "input_series": series,
                  "promql_expr_test": [{"expr": expr, "eval_time": "20m",
                                        "exp_samples": [{"labels": "{}",
                                                         "value": 1}]}]})
    print("%s\t%s" % (title, q))
for i, t in enumerate(tests):
    json.dump({"tests": [t]}, open("%s/q%d.yml" % (work, i), "w"))
EOF
passed=0 failed=0
i=0
# One promtool run per query, so that a failure names its query.
while IFS='	' read -r title query; do
	if (cd "$work" && promtool test rules "q$i.yml") >"$work/out" 2>&1; then
		echo "PASS: $title"
		passed=$((passed + 1))
	else
		echo "FAIL: $title: $query"
		sed 's/^/    /' "$work/out" | head -n 12
		failed=$((failed + 1))
	fi
	i=$((i + 1))
done <"$work/queries"
echo "$passed passed, $failed failed, 0 skipped"
[ $failed = 0 ] && [ $passed -gt 0 ]
