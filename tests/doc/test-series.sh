#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel series the module loads on are written in three places that
# must agree: kmod/main.c (clearpage_tested_series, and its messages),
# kmod/dkms.conf (BUILD_EXCLUSIVE_KERNEL, so DKMS builds for them only) and
# ctl/check.c (tested_series, TESTED_SERIES); clearpage(4) names them too.
#
#   test-series.sh SRCDIR
set -u
src=$1
passed=0 failed=0
pass() { passed=$((passed + 1)); echo "PASS: $*"; }
fail() { failed=$((failed + 1)); echo "FAIL: $*"; }

# The module's table: KERNEL_VERSION(a, b, 0) lines inside it.
module=$(sed -n '/clearpage_tested_series\[\] = {/,/};/p' "$src/kmod/main.c" |
	sed -n 's/.*KERNEL_VERSION(\([0-9]*\), *\([0-9]*\), *0).*/\1.\2/p' | xargs)
[ -n "$module" ] || fail "no series found in kmod/main.c's clearpage_tested_series"
check=$(sed -n '/tested_series\[\] = {/,/};/p' "$src/ctl/check.c" |
	sed -n 's/.*{ *\([0-9]*\), *\([0-9]*\) *}.*/\1.\2/p' | xargs)
dkms=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL="\^(\(.*\))\\\.".*/\1/p' "$src/kmod/dkms.conf" |
	sed 's/\\\././g; s/|/ /g')
comma=$(echo "$module" | sed 's/ /, /g')
and=$(echo "$module" | sed 's/ \([^ ]*\)$/ and \1/; s/ \([^ ]*\) and/, \1 and/g; s/\([0-9]\) \([0-9]\)/\1, \2/g')

[ "$check" = "$module" ] && pass "ctl/check.c's tested_series is the module's ($module)" ||
	fail "ctl/check.c's tested_series ($check) is not the module's ($module)"
[ "$dkms" = "$module" ] && pass "dkms.conf's BUILD_EXCLUSIVE_KERNEL names the module's series ($dkms)" ||
	fail "dkms.conf's BUILD_EXCLUSIVE_KERNEL names '$dkms', the module '$module'"
grep -q "^#define TESTED_SERIES \"$comma\"\$" "$src/ctl/check.c" &&
	pass "ctl/check.c's TESTED_SERIES text is \"$comma\"" ||
	fail "ctl/check.c's TESTED_SERIES text is not \"$comma\""
n=$(grep -c "not a tested series ($comma)" "$src/kmod/main.c")
[ "$n" = 2 ] && pass "the module's two messages name ($comma)" ||
	fail "the module's messages name ($comma) $n times, not 2"
grep -q "other than $and," "$src/kmod/main.c" &&
	pass "allow_untested_kernel's description names $and" ||
	fail "allow_untested_kernel's description does not name '$and'"
grep -q "tested on ($and)" "$src/doc/man/clearpage.4" &&
	pass "clearpage(4) names $and" || fail "clearpage(4) does not name '($and)'"

# The regex as DKMS applies it to a kernel release: each series and
# nothing beside it (a longer minor, another major).
regex=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL="\(.*\)"$/\1/p' "$src/kmod/dkms.conf")
for s in $module; do
	echo "$s.0-1-amd64" | grep -Eq "$regex" && pass "dkms builds for $s.0-1-amd64" ||
		fail "dkms.conf's regex '$regex' refuses $s.0-1-amd64"
	for other in "${s}0" "1$s" "${s%.*}.$((${s#*.} + 1))"; do
		echo "$other.0-1-amd64" | grep -Eq "$regex" &&
			fail "dkms.conf's regex '$regex' also builds for $other.0-1-amd64" ||
			pass "dkms skips $other.0-1-amd64"
	done
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
