#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build everything and run every test: the unit tests, then the VM suites on
# each supported Debian kernel (6.1, 6.12 and 7.3) under QEMU.
#
#   tests/run-all.sh [--setup]
#
# --setup first installs the packages and kernels it needs (root, Debian 12).
# Logs of each VM run: build/vm-logs/<kernel>-<suite>.log.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
if [ "${1:-}" = --setup ]; then
	"$top/tests/install-deps.sh" || exit 1
fi

cd "$top" || exit 1
if [ -d "$build" ]; then
	meson setup --reconfigure "$build" >/dev/null || exit 1
else
	meson setup "$build" >/dev/null || exit 1
fi
meson compile -C "$build" || exit 1
meson test -C "$build" --print-errorlogs || exit 1

. "$top/tests/kernels.sh"
kernels=$(kernel_versions)
set -- $kernels
if [ $# -lt 3 ] && [ -z "${CLEARPAGE_TEST_KERNELS:-}" ]; then
	echo "run-all.sh: the VM tests need Debian's 6.1, 6.12 and 7.3 kernels with headers; found: ${kernels:-none}. Run tests/run-all.sh --setup as root." >&2
	exit 1
fi

logs=$build/vm-logs
rm -rf "$logs"
mkdir -p "$logs"
passed=0
failed=0
# What failed, repeated at the end: CI shows only the tail of the output.
failures=()
# failure WHAT: one more failed part, WHAT said again at the end.
failure() { failed=$((failed + 1)); failures+=("$1"); }
# fails LOG: its first three failed checks, on one line.
fails() { grep -m 3 -E '^FAIL' "$1" | tr '\n' '|'; }

# vm KERNEL SUITE MODULE CMDLINE [EXTRA run-vm.sh ARGS...]
vm() {
	local kernel=$1 suite=$2 module=$3 cmdline=$4 name=$2
	shift 4
	# CLEARPAGE_TEST_SUITES="abi stress ...": only those suites.
	case " ${CLEARPAGE_TEST_SUITES:-$suite} " in
	*" $suite "*) ;;
	*) return 0 ;;
	esac
	# A suite also booted with init_on_alloc=1 gets a log of its own.
	case "$suite:$cmdline" in
	initonalloc:* | *init_on_alloc=0*) ;;
	*) name=$suite-initonalloc ;;
	esac
	local start=$SECONDS
	echo "=== $kernel: $suite ($cmdline)"
	if "$top/tests/vm/run-vm.sh" --kernel "$kernel" --suite "$suite" \
		--module "$module" --cptest "$build/tests/cptest" \
		--bin "$build/ctl/clearpagectl" --bin "$build/tests/nltest" \
		--bin "$build/daemon/clearpaged" --bin "$build/bench/clearpage-bench" \
		--append "$cmdline" --log "$logs/$kernel-$name.log" "$@"; then
		passed=$((passed + 1))
		echo "--- $kernel/$name: passed in $((SECONDS - start)) s"
	else
		echo "FAILED: $kernel/$name after $((SECONDS - start)) s, log: $logs/$kernel-$name.log"
		local why
		why=$(fails "$logs/$kernel-$name.log")
		[ -n "$why" ] || why="no failed check; the guest did not finish or its kernel warned: $(grep -m 1 -E 'WARNING:|BUG:|Oops|Kernel panic' "$logs/$kernel-$name.log" || tail -n 1 "$logs/$kernel-$name.log")"
		failure "$kernel/$name after $((SECONDS - start)) s: $why"
	fi
}

first=1
# The daemon's own suites (its attach and stop, the live baseline, its
# decisions) drive the module only through its ABI, the same on every
# series: they run on the newest kernel tested; the booted Debians run the
# packaged daemon on 6.1 and 7.3 besides.
newest=$(printf "%s\n" $kernels | tail -n 1)
for kernel in $kernels; do
	module_dir=$build/kmod-$kernel
	# The test build: a negative control that skips clears for one
	# process, and the calibration of a real CPU for the daemon to act on.
	test_dir=$build/kmod-test-$kernel
	if ! kernel_module "$kernel" "$module_dir" || ! kernel_module "$kernel" "$test_dir" test; then
		echo "FAILED: building clearpage.ko (and its test build) for $kernel"
		failure "building clearpage.ko (and its test build) for $kernel"
		continue
	fi
	module=$module_dir/clearpage.ko
	module_test=$test_dir/clearpage.ko
	vm "$kernel" abi "$module" "init_on_alloc=0"
	vm "$kernel" netlink "$module" "init_on_alloc=0"
	[ "$kernel" != "$newest" ] || vm "$kernel" daemon "$module" "init_on_alloc=0"
	# The stress suites with the vCPUs in parallel (--parallel:
	# multi-threaded TCG), as on every real server.
	vm "$kernel" stress "$module" "init_on_alloc=0 hugepages=64" --parallel
	# 7.x with Debian's default: THP through the allocator's clear.
	case "$kernel" in
	6.*) ;;
	*) vm "$kernel" stress "$module" "hugepages=64" --parallel ;;
	esac
	# Huge folios as ranges: 3 GiB nodes leave room for a 1 GiB page.
	vm "$kernel" ranges "$module" "init_on_alloc=0 hugepagesz=2M hugepages=32" \
		--node-mb 3072 --parallel
	vm "$kernel" initonalloc "$module" "hugepages=32" --module-test "$module_test"
	# The huge backend's probe mode, under both init_on_alloc settings.
	for cmdline in "init_on_alloc=0 hugepagesz=2M hugepages=32" "hugepagesz=2M hugepages=32"; do
		vm "$kernel" probe "$module" "$cmdline" --node-mb 3072 \
			--module-test "$module_test" --parallel
	done
	# The touch probe of non-temporal clears, pages held under a stress.
	vm "$kernel" touch "$module" "init_on_alloc=0 hugepagesz=2M hugepages=32" \
		--module-test "$module_test" --parallel
	# What a fleet meets with the probes on: a CPU without RDTSCP
	# (qemu64), pages poisoned and soft-offlined as they are cleared,
	# CPUs and a movable memory block (a DIMM on node 1) offlined in a
	# loop under faults.
	for cmdline in "init_on_alloc=0 hugepages=16 memhp_default_state=online_movable" \
		       "hugepages=16 memhp_default_state=online_movable"; do
		vm "$kernel" safety "$module" "$cmdline" --module-test "$module_test" \
			--cpu qemu64 --dimm-mb 256 --parallel
	done
	# 1 GiB pages cleared with helpers: node 1 has two CPUs and the page.
	vm "$kernel" gigantic "$module" \
		"init_on_alloc=0 hugepagesz=1G hugepages=1:1 hugepagesz=2M hugepages=32" \
		--cpus 3 --node-mb 3072 --module-test "$module_test" --parallel
	# The live baseline: without ERMS rep_stosb is really slower than
	# the kernel's routine, and clearpaged must say so and undo it.
	[ "$kernel" != "$newest" ] ||
		vm "$kernel" baseline "$module" "init_on_alloc=0" --cpu max,erms=off
	# The ABI fuzzed while both nodes fault.
	vm "$kernel" fuzz "$module" "init_on_alloc=0 hugepages=64" \
		--module-test "$module_test" --parallel
	# A livepatch in replace mode loaded over clearpage's; flips under
	# faults beside another livepatch's transitions.
	klp_dir=$build/klp-other-$kernel
	mkdir -p "$klp_dir" && cp "$top"/tests/vm/klp-other/* "$klp_dir/"
	if kernel_make "$kernel" -s M="$klp_dir" modules; then
		vm "$kernel" replace "$module" "init_on_alloc=0 hugepages=32" \
			--ko "$klp_dir/klp_other.ko" --parallel
		vm "$kernel" flip "$module" "init_on_alloc=0 hugepages=64" \
			--ko "$klp_dir/klp_other.ko" --parallel
		# The emulator's own control: the same text patching without
		# clearpage, in parallel (doc/tests.md; 6.1 WARNs there on a
		# kretprobe beside a transition, which clearpage avoids).
		case "$kernel" in
		6.12.*) vm "$kernel" textpoke "$module" "init_on_alloc=0 hugepages=64" \
			--ko "$klp_dir/klp_other.ko" --parallel ;;
		esac
	else
		echo "FAILED: building the test livepatch for $kernel"
		failure "building the test livepatch for $kernel"
	fi
	[ "$kernel" != "$newest" ] ||
		vm "$kernel" decide "$module" "init_on_alloc=0" --module-test "$module_test"
	if [ $first = 1 ]; then
		vm "$kernel" broken "$module" "init_on_alloc=0 hugepages=32" \
			--module-test "$module_test"
		first=0
	fi
done

# The dashboard's and the cookbook's queries on the metrics file clearpaged
# wrote in the daemon suite (it prints it between markers).
q_log=$logs/queries.log
daemon_log=$logs/$newest-daemon.log
if [ -f "$daemon_log" ]; then
	tr -d '\r' <"$daemon_log" | sed -n '/^CPVM-METRICS-BEGIN$/,/^CPVM-METRICS-END$/p' |
		grep -E '^(#|clearpage)' >"$logs/vm-metrics.prom"
	if "$top/tests/prometheus/test-queries.sh" "$logs/vm-metrics.prom" \
		"$top/conf/clearpage-dashboard.json" "$top/doc/monitoring.md" \
		"${CLEARPAGE_CACHE:-/var/cache/clearpage-tests}/prometheus/usr/bin" >"$q_log" 2>&1; then
		echo "PASS: the dashboard's and the cookbook's queries on a VM's metrics: $(tail -n 1 "$q_log")"
		passed=$((passed + 1))
	else
		echo "FAILED: the dashboard's and the cookbook's queries on a VM's metrics, see $q_log"
		failure "queries on a VM's metrics: $(grep -m 3 -E '^(FAIL|SKIP)' "$q_log" | tr '\n' '|')"
	fi
fi

# DKMS: the module registers, builds and is removed again for each kernel,
# those only built for included (Debian 13's own 6.12: kernel_build_only),
# which also get both variants built as the VM suites' kernels do.
dkms_log=$logs/dkms.log
dkms_passed=0 dkms_failed=0
version=$(sed -n "s/^ *version: *'\([^']*\)'.*/\1/p" "$top/meson.build" | head -n 1)
build_only=""
[ -n "${CLEARPAGE_TEST_KERNELS:-}" ] || build_only=$(kernel_build_only)
for kernel in $build_only; do
	if kernel_module "$kernel" "$build/kmod-$kernel" >>"$dkms_log" 2>&1 &&
	   kernel_module "$kernel" "$build/kmod-test-$kernel" test >>"$dkms_log" 2>&1; then
		echo "PASS: clearpage.ko and its test build build without warnings for $kernel (not booted)" | tee -a "$dkms_log"
		dkms_passed=$((dkms_passed + 1))
	else
		echo "FAIL: building clearpage.ko for $kernel, see $dkms_log" | tee -a "$dkms_log"
		dkms_failed=$((dkms_failed + 1))
	fi
done
for kernel in $kernels $build_only; do
	read -r root dir < <(kernel_tree "$kernel")
	if in_root "$root" "$top/kmod/dkms-install.sh" --build-only "$kernel" "$dir" \
		>>"$dkms_log" 2>&1; then
		echo "PASS: dkms builds clearpage/$version for $kernel" | tee -a "$dkms_log"
		dkms_passed=$((dkms_passed + 1))
	else
		echo "FAIL: dkms build for $kernel, see $dkms_log" | tee -a "$dkms_log"
		dkms_failed=$((dkms_failed + 1))
	fi
	in_root "$root" dkms remove "clearpage/$version" --all >>"$dkms_log" 2>&1
done
# A series the module does not load on is skipped (BUILD_EXCLUSIVE_KERNEL).
read -r root dir < <(kernel_tree "${kernels%% *}")
if in_root "$root" "$top/kmod/dkms-install.sh" --build-only 6.6.0-untested-amd64 "$dir" \
	>"$logs/dkms-exclusive.out" 2>&1; then
	echo "FAIL: dkms built for 6.6, a series the module refuses" | tee -a "$dkms_log"
	dkms_failed=$((dkms_failed + 1))
elif grep -q "BUILD_EXCLUSIVE" "$logs/dkms-exclusive.out"; then
	echo "PASS: dkms skips a series the module does not load on (BUILD_EXCLUSIVE_KERNEL)" | tee -a "$dkms_log"
	dkms_passed=$((dkms_passed + 1))
else
	echo "FAIL: dkms refused 6.6 without naming BUILD_EXCLUSIVE_KERNEL, see $logs/dkms-exclusive.out" | tee -a "$dkms_log"
	dkms_failed=$((dkms_failed + 1))
fi
cat "$logs/dkms-exclusive.out" >>"$dkms_log"
rm -f "$logs/dkms-exclusive.out"
in_root "$root" dkms remove "clearpage/$version" --all >>"$dkms_log" 2>&1
echo "CPVM-SUMMARY: $dkms_passed passed, $dkms_failed failed, 0 skipped" >>"$dkms_log"
[ $dkms_failed = 0 ] || failure "dkms: $(fails "$dkms_log")"

# The kernel's style checker over the module and its headers.
cp_log=$logs/checkpatch.log
if "$top/tests/checkpatch.sh" >"$cp_log" 2>&1; then
	echo "PASS: checkpatch: $(tail -n 1 "$cp_log")" | tee -a "$cp_log"
	echo "CPVM-SUMMARY: 1 passed, 0 failed, 0 skipped" >>"$cp_log"
else
	echo "FAIL: checkpatch, see $cp_log" | tee -a "$cp_log"
	echo "CPVM-SUMMARY: 0 passed, 1 failed, 0 skipped" >>"$cp_log"
	failure "checkpatch: $(grep -m 3 -E 'ERROR|WARNING|checkpatch.sh:' "$cp_log" | tr '\n' '|')"
fi

# Debian packages, built from a copy of the tracked tree as a user of the
# source would, then lintian (no errors allowed).
pkg_log=$logs/packages.log
pkgdir=$build/pkg
pkg_passed=0 pkg_failed=0
pkg_check() {
	if "${@:2}" >>"$pkg_log" 2>&1; then
		echo "PASS: $1" | tee -a "$pkg_log"; pkg_passed=$((pkg_passed + 1))
	else
		echo "FAIL: $1, see $pkg_log" | tee -a "$pkg_log"; pkg_failed=$((pkg_failed + 1))
	fi
}
# source_tree DIR: the source tree as a user of the source has it, from a
# git checkout or a release tarball (meson dist) alike: everything but build
# outputs, in DIR/clearpage.
source_tree() {
	rm -rf "$1" && mkdir -p "$1/clearpage"
	tar -C "$top" --exclude=./.git --exclude='./build*' --exclude=./obj-\* \
		--exclude=./vm-cache --exclude=./bench-results --exclude=./debian/.debhelper \
		--exclude=./debian/tmp --exclude=./debian/clearpaged \
		--exclude=./debian/clearpage-dkms --exclude=./debian/clearpage-bench \
		-cf - . | tar -C "$1/clearpage" -xf -
}
# unit_packaged DIR UNIT_DIR: clearpaged's deb in DIR has its unit in
# UNIT_DIR and the maintainer scripts debhelper adds for it.
# (Whole outputs first: grep -q would end the pipe early, and pipefail
# count dpkg's broken pipe as a failure.)
unit_packaged() {
	local list postinst prerm
	list=$(dpkg -c "$1"/clearpaged_*_amd64.deb) &&
		postinst=$(dpkg-deb -I "$1"/clearpaged_*_amd64.deb postinst) &&
		prerm=$(dpkg-deb -I "$1"/clearpaged_*_amd64.deb prerm) || return 1
	grep -q " \.$2/clearpaged.service\$" <<<"$list" &&
		grep -q deb-systemd-helper <<<"$postinst" &&
		grep -q deb-systemd-invoke <<<"$prerm"
}
source_tree "$pkgdir"
pkg_check "dpkg-buildpackage -us -uc -b" sh -c "cd '$pkgdir/clearpage' && dpkg-buildpackage -us -uc -b"
pkg_check "lintian: no errors" sh -c "lintian --fail-on error --tag-display-limit 0 '$pkgdir'/clearpage_*.changes"
pkg_check "Debian 12: the unit in /lib/systemd/system, with its maintainer scripts" \
	unit_packaged "$pkgdir" /lib/systemd/system
# The same packages built on Debian 13, in the build root.
pkg13=$build/pkg-trixie
source_tree "$pkg13"
pkg_check "Debian 13: dpkg-buildpackage -us -uc -b" \
	in_root "$clearpage_buildroot" sh -c "cd '$pkg13/clearpage' && dpkg-buildpackage -us -uc -b"
pkg_check "Debian 13: lintian: no errors" \
	in_root "$clearpage_buildroot" sh -c "lintian --fail-on error --tag-display-limit 0 '$pkg13'/clearpage_*.changes"
pkg_check "Debian 13: the unit in /usr/lib/systemd/system, with its maintainer scripts" \
	unit_packaged "$pkg13" /usr/lib/systemd/system
pkg_check "clearpage-dkms ships the module sources and a dkms.conf with the version" \
	sh -c "dpkg-deb --fsys-tarfile '$pkgdir'/clearpage-dkms_*_all.deb | tar -xOf - ./usr/src/clearpage-$version/dkms.conf | grep -qx 'PACKAGE_VERSION=\"$version\"'"
pkg_check "clearpage-dkms: x86-64 only, and the version for MODULE_VERSION beside the sources" \
	sh -c "dpkg-deb --fsys-tarfile '$pkgdir'/clearpage-dkms_*_all.deb | tar -xOf - ./usr/src/clearpage-$version/dkms.conf | grep -qxF 'BUILD_EXCLUSIVE_ARCH=\"^x86_64\$\"' && test \"\$(dpkg-deb --fsys-tarfile '$pkgdir'/clearpage-dkms_*_all.deb | tar -xOf - ./usr/src/clearpage-$version/version)\" = '$version'"
pkg_check "clearpage-dkms ships no test hooks (no kmod/testing.c)" \
	sh -c "list=\$(dpkg -c '$pkgdir'/clearpage-dkms_*_all.deb) && echo \"\$list\" | grep -q 'usr/src/clearpage-$version/main.c' && ! echo \"\$list\" | grep -q testing.c"
pkg_check "no package loads the module at boot (no modules-load.d file)" \
	sh -c "list=\$(for deb in '$pkgdir'/*.deb; do dpkg -c \"\$deb\" || exit 1; done) && test -n \"\$list\" && ! echo \"\$list\" | grep -q modules-load.d"
pkg_check "clearpaged ships the daemon, CLI, unit, config, catalog and man pages" \
	sh -c "dpkg -c '$pkgdir'/clearpaged_*_amd64.deb | grep -c -e usr/sbin/clearpaged -e usr/sbin/clearpagectl -e clearpaged.service -e usr/lib/clearpaged/clearpaged.conf -e clearpaged.catalog -e man8/clearpaged.8 -e man5/clearpaged.conf.5 -e man4/clearpage.4 | grep -qx 8"
pkg_check "clearpaged ships README and the operations, monitoring, ABI and design pages in /usr/share/doc/clearpaged, the Grafana dashboard and the JSON schema" \
	sh -c "dpkg -c '$pkgdir'/clearpaged_*_amd64.deb | grep -c -e 'usr/share/doc/clearpaged/README.md' -e 'usr/share/doc/clearpaged/operations.md' -e 'usr/share/doc/clearpaged/monitoring.md' -e 'usr/share/doc/clearpaged/abi.md' -e 'usr/share/doc/clearpaged/design.md' -e 'usr/share/clearpaged/grafana/clearpage-dashboard.json' -e 'usr/share/clearpaged/clearpagectl.schema.json' | grep -qx 7"
echo "CPVM-SUMMARY: $pkg_passed passed, $pkg_failed failed, 0 skipped" >>"$pkg_log"
[ $pkg_failed = 0 ] || failure "packages: $(fails "$pkg_log")"

# End to end: the packages in a booted Debian with systemd, as each release
# builds them: Debian 13 on its backports kernel (7.3), Debian 12 on 6.1.
# CLEARPAGE_E2E lists the releases (default: "trixie bookworm").
e2e() {
	local suite=$1 kernel=$2 debs=$3
	[ -n "$kernel" ] || { echo "FAILED: e2e on $suite: no kernel of its series among: $kernels"; failure "e2e on $suite: no kernel of its series"; return; }
	echo "=== e2e: booted Debian ($suite), systemd, packages, on $kernel"
	if "$top/tests/e2e/run-e2e.sh" --suite "$suite" --debs "$debs" --kernel "$kernel" \
		--module-test "$build/kmod-test-$kernel/clearpage.ko" \
		--log "$logs/e2e-$suite-$kernel.log"; then
		passed=$((passed + 1))
	else
		echo "FAILED: e2e, log: $logs/e2e-$suite-$kernel.log"
		failure "e2e $suite on $kernel: $(fails "$logs/e2e-$suite-$kernel.log")"
	fi
}
if [ $pkg_failed = 0 ]; then
	for suite in ${CLEARPAGE_E2E-trixie bookworm}; do
		case "$suite" in
		trixie) e2e trixie "$(kernel_of_series 7.3 $kernels)" "$pkg13" ;;
		bookworm) e2e bookworm "$(kernel_of_series 6.1 $kernels)" "$pkgdir" ;;
		*) echo "FAILED: CLEARPAGE_E2E: '$suite' is not trixie or bookworm"; failure "CLEARPAGE_E2E: '$suite'" ;;
		esac
	done
fi

# Every clearpagectl --json document the VM suites and the e2e printed
# (CPVM-JSON|KIND|...) against doc/clearpagectl.schema.json, per kind; the
# netlink suite prints one of each kind, so none may be missing.
json_log=$logs/json.log
: >"$json_log"
json_dir=$logs/json
rm -rf "$json_dir" && mkdir -p "$json_dir"
cat "$logs"/*.log 2>/dev/null | tr -d '\r' | grep '^CPVM-JSON|' |
	awk -F'|' -v dir="$json_dir" '{ kind = $2; sub(/^CPVM-JSON\|[a-z]*\|/, ""); print > (dir "/" kind ".jsonl") }'
json_passed=0 json_failed=0
if ls "$logs"/*-netlink.log >/dev/null 2>&1; then
	for kind in status calibrate check list event; do
		if [ ! -s "$json_dir/$kind.jsonl" ]; then
			echo "FAILED: no clearpagectl $kind --json document in the VM logs"
			failure "no $kind --json document in the VM logs"
			json_failed=$((json_failed + 1))
		elif python3 "$top/tests/json/validate.py" "$top/doc/clearpagectl.schema.json" \
			"$kind" "$json_dir/$kind.jsonl" >>"$json_log" 2>&1; then
			echo "PASS: clearpagectl's $kind JSON from the VM runs matches the schema: $(tail -n 1 "$json_log")"
			passed=$((passed + 1))
			json_passed=$((json_passed + 1))
		else
			echo "FAILED: clearpagectl's $kind JSON from the VM runs, see $json_log"
			failure "$kind JSON: $(grep -m 2 '^FAIL' "$json_log" | tr '\n' '|')"
			json_failed=$((json_failed + 1))
		fi
	done
fi
# Every log here ends with its counts (the total below reads them).
echo "$json_passed passed, $json_failed failed, 0 skipped" >>"$json_log"

# The parsers of untrusted input under libFuzzer, and every unit test, in a
# clang build with AddressSanitizer and UndefinedBehaviorSanitizer
# (tests/meson.build, -Dfuzz=enabled): CLEARPAGE_FUZZ_SECONDS per target.
fuzz_log=$logs/fuzz.log
fuzz_seconds=${CLEARPAGE_FUZZ_SECONDS:-60}
fuzz_build=$build/fuzz
fuzz_ok=1
if [ ! -d "$fuzz_build" ]; then
	CC=clang meson setup "$fuzz_build" -Dfuzz=enabled -Dmodule=disabled \
		-Db_sanitize=address,undefined -Db_lundef=false \
		-Dc_args=-fno-sanitize-recover=all >"$fuzz_log" 2>&1 || fuzz_ok=0
fi
if [ $fuzz_ok = 1 ] && meson compile -C "$fuzz_build" >>"$fuzz_log" 2>&1 &&
   meson test -C "$fuzz_build" --no-rebuild --suite unit >>"$fuzz_log" 2>&1 &&
   meson test -C "$fuzz_build" --no-rebuild --suite fuzz \
	--test-args="-max_total_time=$fuzz_seconds" >>"$fuzz_log" 2>&1; then
	echo "PASS: unit tests under ASan+UBSan" | tee -a "$fuzz_log"
	# "fuzz-NAME RUNS" from libFuzzer's closing line of each target.
	awk '/^test: .*fuzz \/ fuzz-/ { name = $NF } /^Done [0-9]+ runs/ { print name, $2 }' \
		"$fuzz_build/meson-logs/testlog.txt" | while read -r name runs; do
		echo "PASS: $name: ${fuzz_seconds}s under ASan+UBSan, $runs inputs, no finding"
	done | tee -a "$fuzz_log"
	echo "CPVM-SUMMARY: 3 passed, 0 failed, 0 skipped" >>"$fuzz_log"
else
	echo "FAIL: fuzzing or the sanitizer build, see $fuzz_log and $fuzz_build/meson-logs/testlog.txt" | tee -a "$fuzz_log"
	echo "CPVM-SUMMARY: 0 passed, 1 failed, 0 skipped" >>"$fuzz_log"
	failure "fuzzing or the sanitizer build, see $fuzz_log"
fi

# One closing line over every check: unit tests and each VM suite's checks.
total_passed=0 total_failed=0 total_skipped=0
count() {
	local found=0 p f k
	while read -r p f k; do
		total_passed=$((total_passed + p))
		total_failed=$((total_failed + f))
		total_skipped=$((total_skipped + k))
		found=1
	done < <(sed -n 's/^\(CPVM-SUMMARY: \)\{0,1\}\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\2 \3 \4/p' "$1")
	[ $found = 1 ]
}
count "$build/meson-logs/testlog.txt" || total_failed=$((total_failed + 1))
for log in "$logs"/*.log; do
	count "$log" || total_failed=$((total_failed + 1))
done
echo "vm suites: $passed passed, $failed failed"
for f in "${failures[@]}"; do
	echo "FAILED: $f"
done
total_failed=$((total_failed + failed))
echo "total: $total_passed passed, $total_failed failed, $total_skipped skipped"
[ $failed = 0 ] && [ $total_failed = 0 ]
