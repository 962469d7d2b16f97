#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# clearpagectl's --json documents against doc/clearpagectl.schema.json: the
# schema itself, the documents a VM run printed (tests/json/fixtures, one
# per line, as tests/run-all.sh collects them from every VM suite), what
# clearpagectl prints on this host (list, check, status without the
# module), and documents that break the schema, which must fail.
#
#   test-schema.sh CLEARPAGECTL SRCDIR
set -u
ctl=$1 src=$2
schema=$src/doc/clearpagectl.schema.json
validate="python3 $src/tests/json/validate.py $schema"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

if ! python3 -c 'import jsonschema' 2>/dev/null; then
	echo "SKIP: python3-jsonschema is not installed (tests/install-deps.sh installs it)"
	exit 77
fi

for kind in status calibrate check list event; do
	if out=$($validate $kind "$src/tests/json/fixtures/$kind.jsonl" 2>&1); then
		pass "a VM run's $kind documents: $out"
	else
		fail "a VM run's $kind documents: $out"
	fi
done

# On this host: no module is loaded here (status exits 3, check may warn or
# fail); the document must come all the same.
"$ctl" list --json >"$tmp/list" 2>/dev/null
"$ctl" check --json >"$tmp/check" 2>/dev/null
"$ctl" status --json >"$tmp/status" 2>/dev/null
for kind in list check status; do
	if out=$($validate $kind "$tmp/$kind" 2>&1); then
		pass "clearpagectl $kind --json here: $out"
	else
		fail "clearpagectl $kind --json here: $out"
	fi
done

# Documents the schema must refuse, each derived from a valid one.
python3 - "$src/tests/json/fixtures" "$tmp" <<'PY'
import json, sys
src, out = sys.argv[1], sys.argv[2]
first = lambda kind: json.loads(open(f"{src}/{kind}.jsonl").readline())
cases = {}
s = first("status")
d = json.loads(json.dumps(s)); d["nodes"][0]["backends"]["4k"]["spare"] = 1
cases["status-unknown-field"] = ("status", d)
d = json.loads(json.dumps(s)); d["nodes"][0]["backends"]["huge"]["strategy"] = "stosb"
cases["status-unknown-strategy"] = ("status", d)
d = json.loads(json.dumps(s)); d["nodes"][0]["backends"]["4k"]["last_change_unix_ns"] = "2026-12-07T00:00:00+00:00"
cases["status-time-as-string"] = ("status", d)
d = json.loads(json.dumps(s)); d["nodes"][0]["counters"] = False
cases["status-counters-false-with-counters"] = ("status", d)
d = json.loads(json.dumps(s)); del d["module"]
cases["status-no-module-object"] = ("status", d)
d = json.loads(json.dumps(s)); d["nodes"][0]["strategies"][0]["pages_4k"] = -1
cases["status-negative-count"] = ("status", d)
c = first("check")
d = json.loads(json.dumps(c)); d["worst"] = "error"
cases["check-unknown-verdict"] = ("check", d)
e = first("event")
d = json.loads(json.dumps(e)); d["time_unix_ns"] = "now"
cases["event-time-not-a-number"] = ("event", d)
d = json.loads(json.dumps(first("calibrate"))); d["nodes"][0]["verdict"] = "acting"
cases["calibrate-with-a-verdict"] = ("calibrate", d)
for name, (kind, doc) in cases.items():
    with open(f"{out}/bad-{name}.{kind}", "w") as f:
        f.write(json.dumps(doc) + "\n")
PY
for f in "$tmp"/bad-*; do
	name=${f##*/bad-}
	kind=${name##*.}
	if out=$($validate "$kind" "$f" 2>&1); then
		fail "the schema refuses ${name%.*}: it was accepted"
	else
		pass "the schema refuses ${name%.*}: $(echo "$out" | head -n 1 | cut -c1-120)"
	fi
done
[ -n "$(ls "$tmp"/bad-* 2>/dev/null)" ] || fail "no refused document was written"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
