#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a Debian kernel under QEMU with two NUMA nodes and a busybox initramfs
# that holds clearpage.ko, the test tool and the guest scripts, run one guest
# suite, and judge the serial log.
#
#   tests/vm/run-vm.sh --kernel VERSION --suite NAME --module KO --cptest BIN
#                      [--module-test KO] [--ko KO]... [--bin PROGRAM]...
#                      [--append "ARGS"]
#                      [--log FILE] [--timeout SECONDS] [--node-mb MIB]
#                      [--cpu MODEL] [--cpus N] [--dimm-mb MIB] [--parallel]
#
# --node-mb sizes each of the two NUMA nodes (default 512; 1536 leaves room
# for a 1 GiB huge page on each).
#
# --cpus gives the guest N CPUs (default 2): node 0 has the first, node 1
# the others (the suite "gigantic" needs a node with several; node 1's
# memory lies above 4 GiB, clear of the kernel and the initrd, so it has
# free gigabytes for 1 GiB pages).
#
# --dimm-mb plugs a DIMM of MIB into node 1 besides its boot memory: its
# memory blocks are hotplugged, whole, for the guest to online in
# ZONE_MOVABLE and offline again (the suite "safety").
#
# --cpu sets QEMU's CPU model (default max; "max,erms=off" hides ERMS, so
# the guest kernel clears with rep stosq or movq and rep_stosb is slow).
#
# --parallel runs the vCPUs in parallel (multi-threaded TCG), with the
# QEMU tests/install-deps.sh unpacks from bookworm-backports into the cache:
# bookworm's QEMU 7.2 then executes kernel text another vCPU has just
# patched back, and crashes any kernel (doc/tests.md, suite textpoke).
#
# --module-test adds the test build of the module (kmod/build.sh ... test,
# which loads only with testing=1) as /modules/clearpage-test.ko.
#
# --ko copies another module into /modules (the suite "replace" loads a
# livepatch of its own).
#
# --bin copies a dynamically linked program into /bin of the initramfs with
# the shared libraries it needs.
#
# Passes only when the guest reached its end marker, reported no failed
# check, and the kernel log holds no WARN, BUG, Oops, lockdep splat or panic.
# TCG by default; CLEARPAGE_VM_KVM=1 opts into KVM (nested KVM can hang in
# early boot on some hosts).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
kernel="" suite="" module="" module_test="" cptest="" append="" log=""
bins=()
kos=()
timeout=1200
node_mb=512
cpu=max
cpus=2
dimm_mb=0
parallel=0

while [ $# -gt 0 ]; do
	case "$1" in
	--kernel) kernel=$2; shift 2 ;;
	--suite) suite=$2; shift 2 ;;
	--module) module=$2; shift 2 ;;
	--module-test) module_test=$2; shift 2 ;;
	--cptest) cptest=$2; shift 2 ;;
	--bin) bins+=("$2"); shift 2 ;;
	--ko) kos+=("$2"); shift 2 ;;
	--append) append=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--parallel) parallel=1; shift ;;
	--timeout) timeout=$2; shift 2 ;;
	--node-mb) node_mb=$2; shift 2 ;;
	--cpu) cpu=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	--dimm-mb) dimm_mb=$2; shift 2 ;;
	*) echo "run-vm.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
case "$cpus" in
''|*[!0-9]*|0|1) echo "run-vm.sh: --cpus takes a number of 2 or more" >&2; exit 2 ;;
esac
node1_cpus=1
[ "$cpus" -eq 2 ] || node1_cpus=1-$((cpus - 1))
for need in kernel suite module cptest; do
	if [ -z "${!need}" ]; then
		echo "run-vm.sh: --$need is required" >&2
		exit 2
	fi
done
. "$here/../kernels.sh"
vmlinuz=$(kernel_image "$kernel")
[ -r "$vmlinuz" ] || { echo "run-vm.sh: $vmlinuz not found (tests/install-deps.sh unpacks the test kernels)" >&2; exit 2; }
busybox=/bin/busybox
[ -x "$busybox" ] || { echo "run-vm.sh: $busybox not found (apt-get install busybox-static)" >&2; exit 2; }
qemu=$(command -v qemu-system-x86_64) || { echo "run-vm.sh: qemu-system-x86_64 not found (apt-get install qemu-system-x86)" >&2; exit 2; }
qemu_args=()
if [ $parallel = 1 ]; then
	qemu_dir=${CLEARPAGE_CACHE:-/var/cache/clearpage-tests}/qemu
	qemu=$qemu_dir/usr/bin/qemu-system-x86_64
	[ -x "$qemu" ] || { echo "run-vm.sh: --parallel needs the QEMU in $qemu_dir: run tests/install-deps.sh as root" >&2; exit 2; }
	qemu_args=(-L "$qemu_dir/usr/share/qemu" -L "$qemu_dir/usr/share/seabios")
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,tests,modules}
cp "$busybox" "$root/bin/busybox"
cp "$here/guest/init" "$root/init"
cp "$here"/guest/*.sh "$root/tests/"
cp "$cptest" "$root/bin/cptest"
cp "$module" "$root/modules/clearpage.ko"
mkdir -p "$root/usr/share/clearpaged"
cp "$top/conf/cpu-allowlist.conf" "$root/usr/share/clearpaged/"
[ -z "$module_test" ] || cp "$module_test" "$root/modules/clearpage-test.ko"
for ko in "${kos[@]}"; do
	cp "$ko" "$root/modules/"
done
for bin in "${bins[@]}"; do
	cp "$bin" "$root/bin/"
	# The libraries and the dynamic loader, at the paths ldd names.
	for lib in $(ldd "$bin" | grep -oE '/[^ ]+'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
done
chmod +x "$root/init" "$root"/tests/*.sh "$root/bin/"*
(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) > "$work/initrd.gz"

accel="-accel tcg,thread=${CLEARPAGE_VM_TCG_THREAD:-single}"
[ $parallel = 1 ] && accel="-accel tcg,thread=multi"
[ "${CLEARPAGE_VM_KVM:-0}" = 1 ] && accel="-accel kvm"
memory=$((2 * node_mb))M
dimm=()
if [ "$dimm_mb" != 0 ]; then
	memory=$memory,slots=2,maxmem=$((2 * node_mb + dimm_mb))M
	dimm=(-object memory-backend-ram,id=d0,size=${dimm_mb}M
	      -device pc-dimm,id=dimm0,memdev=d0,node=1)
fi
[ -n "$log" ] || log=$work/console.log

set +e
timeout --foreground -k 10 "$timeout" "$qemu" "${qemu_args[@]}" $accel -cpu "$cpu" -m $memory \
	-smp $cpus,sockets=$cpus,cores=1,threads=1 \
	-object memory-backend-ram,id=m0,size=${node_mb}M \
	-numa node,nodeid=0,cpus=0,memdev=m0 \
	-object memory-backend-ram,id=m1,size=${node_mb}M \
	-numa node,nodeid=1,cpus=$node1_cpus,memdev=m1 "${dimm[@]}" \
	-kernel "$vmlinuz" -initrd "$work/initrd.gz" \
	-append "console=ttyS0 panic=-1 panic_on_warn=1 oops=panic loglevel=5 cpvm_suite=$suite $append" \
	-nographic -no-reboot -monitor none -serial stdio </dev/null >"$log" 2>&1
qemu_rc=$?
set -e

. "$here/judge.sh"
judge "$log" "$kernel/$suite" "$qemu_rc"
