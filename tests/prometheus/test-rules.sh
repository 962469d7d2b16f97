#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The shipped Prometheus rules: promtool check rules, then promtool test
# rules with the unit tests beside this script. SKIP (exit 77) without
# promtool (tests/install-deps.sh extracts it).
#   test-rules.sh RULES [PROMTOOL_DIR]
rules=$1
here=$(cd "$(dirname "$0")" && pwd)
PATH="${2:-}:$PATH"
if ! command -v promtool >/dev/null; then
	echo "SKIP: promtool not found (tests/install-deps.sh extracts it)"
	echo "0 passed, 0 failed, 1 skipped"
	exit 77
fi
passed=0 failed=0
if promtool check rules "$rules"; then
	echo "PASS: promtool check rules $rules"; passed=$((passed + 1))
else
	echo "FAIL: promtool check rules $rules"; failed=$((failed + 1))
fi
if (cd "$here" && promtool test rules clearpage.rules.test.yml); then
	echo "PASS: promtool test rules (recording rules and the alert)"; passed=$((passed + 1))
else
	echo "FAIL: promtool test rules"; failed=$((failed + 1))
fi
echo "$passed passed, $failed failed, 0 skipped"
[ $failed = 0 ]
