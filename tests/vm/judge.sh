# SPDX-License-Identifier: GPL-2.0
# judge LOG NAME QEMU_RC: the verdict on a test VM's serial log, shared by
# tests/vm/run-vm.sh and tests/e2e/run-e2e.sh. Prints the guest's check
# lines and its summary; returns 0 only when the guest reached its end
# marker, reported no failed check, and the kernel log holds no WARN, BUG,
# Oops, lockdep splat, hung task or panic.
judge() {
	local log=$1 name=$2 qemu_rc=$3 status=0 summary

	tr -d '\r' <"$log" >"$log.clean" && mv "$log.clean" "$log"
	grep -E '^(PASS|FAIL|SKIP|INFO)' "$log" || true
	if grep -nE 'WARNING:|BUG:|Oops|Kernel panic|general protection|Call Trace|possible circular locking|INFO: task .* blocked|UBSAN|KASAN' "$log"; then
		echo "$name: the kernel log shows a warning, bug or panic (see above)" >&2
		status=1
	fi
	if ! grep -q '^CPVM-END' "$log"; then
		echo "$name: the guest did not finish (qemu exit $qemu_rc); last lines:" >&2
		tail -n 40 "$log" >&2
		status=1
	fi
	summary=$(grep -E '^CPVM-SUMMARY' "$log" | tail -n 1 || true)
	echo "$name: ${summary#CPVM-SUMMARY: }"
	if [ -z "$summary" ] || ! echo "$summary" | grep -q ' 0 failed'; then
		status=1
	fi
	return $status
}
