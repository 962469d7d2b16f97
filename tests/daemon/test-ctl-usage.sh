#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# clearpagectl checks its arguments before it asks the module anything: an
# unknown command, option, backend or strategy, a node that is neither a
# number nor "all" (a negative one included, which getopt would read as an
# option) exits 2 with one line on stderr naming the valid values. Valid
# arguments get as far as the module: without it loaded, exit 3.
#
#   tests/daemon/test-ctl-usage.sh CLEARPAGECTL
set -u
ctl=$1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
passed=0 failed=0 skipped=0

# usage NAME EXPECTED_LINE_PATTERN ARGS...: exit 2, nothing on stdout, one
# line on stderr matching the pattern.
usage() {
	local name=$1 pattern=$2 rc
	shift 2
	"$ctl" "$@" >"$out/stdout" 2>"$out/stderr"
	rc=$?
	if [ $rc = 2 ] && [ ! -s "$out/stdout" ] && [ "$(wc -l <"$out/stderr")" = 1 ] &&
	   grep -q -- "$pattern" "$out/stderr"; then
		passed=$((passed + 1)); echo "PASS: $name"
	else
		failed=$((failed + 1))
		echo "FAIL: $name (exit $rc; stderr: $(tr '\n' '|' <"$out/stderr"); stdout: $(head -c 200 "$out/stdout" | tr '\n' '|'))"
	fi
}

usage "set all fastest: an unknown strategy, the strategies named" \
	"'fastest' is not a strategy; strategies: kernel rep_stosb rep_stosq movq movnti clzero$" \
	set all fastest
usage "set -1 movnti: a negative node, not the usage" \
	"'-1' is not a node: give a node number (clearpagectl status lists them) or 'all'$" \
	set -1 movnti
usage "set node0 movq: a node that is not a number" "'node0' is not a node" set node0 movq
usage "pin 1x: trailing garbage" "'1x' is not a node" pin 1x
usage "reset -3: a negative node for reset" "'-3' is not a node" reset -3
usage "release foo" "'foo' is not a node" release foo
usage "calibrate 99999999999: beyond any node" "'99999999999' is not a node" calibrate 99999999999
usage "check --foo: an unknown long option, in one line" \
	"unknown option '--foo' (clearpagectl --help lists the options)$" check --foo
usage "-x: an unknown short option, in one line" "unknown option '-x'" -x status
usage "--count without a value" "--count wants a value" monitor --count
usage "--json=1: a flag given a value" "--json takes no value" --json=1 status
usage "-x within a cluster after a long option" "unknown option '-x'" --json -xj status
usage "--backend 2m: an unknown backend, the backends named" \
	"--backend wants 4k, huge or all, not '2m'$" --backend 2m set 0 movq
usage "an unknown command" "unknown command 'frobnicate'; see clearpagectl --help" frobnicate
usage "set with one argument: the usage line" "usage: clearpagectl set NODE|all STRATEGY" set 0
usage "--count -1 for monitor: the option's value, not a node" \
	"--count wants a non-negative number, not '-1'" monitor --count -1

if "$ctl" -V | grep -qx "clearpagectl [0-9][0-9.]*"; then
	passed=$((passed + 1)); echo "PASS: -V prints the version"
else
	failed=$((failed + 1)); echo "FAIL: -V prints the version ($("$ctl" -V 2>&1))"
fi

# Valid arguments reach the module: without it, exit 3.
if [ -e /sys/kernel/clearpage ]; then
	skipped=$((skipped + 1))
	echo "SKIP: valid arguments reach the module (the clearpage module is loaded here)"
else
	"$ctl" set all movq --backend huge >/dev/null 2>"$out/stderr"
	rc=$?
	if [ $rc = 3 ] && grep -q "the clearpage module is not loaded" "$out/stderr"; then
		passed=$((passed + 1)); echo "PASS: valid arguments reach the module (not loaded: exit 3)"
	else
		failed=$((failed + 1)); echo "FAIL: valid arguments reach the module (exit $rc: $(cat "$out/stderr"))"
	fi
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
