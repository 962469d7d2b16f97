#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# End-to-end test on a real systemd: a Debian 12 or 13 root file system
# (cached, tests/e2e/build-rootfs.sh) gets the clearpaged, clearpage-dkms and
# clearpage-bench packages installed with apt, as an administrator would
# (DKMS builds the module against the installed headers), then boots under
# QEMU with two NUMA nodes and systemd as PID 1, and tests/e2e/guest.sh
# checks the service from inside.
#
#   tests/e2e/run-e2e.sh --debs DIR --kernel VERSION --module-test KO
#                        [--suite bookworm|trixie] [--cache DIR] [--log FILE]
#
# --suite: the Debian release booted (default bookworm); --debs must hold
# the packages as that release builds them.
#
# --module-test: the test build of the module (kmod/build.sh ... test) for
# VERSION. An emulated CPU measures no
# hot/cold difference, so the guest loads it in place of the packaged module
# for the checks where the daemon must decide.
#
# Passes when the guest reached its end marker with no failed check and the
# console shows no kernel warning.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/lib.sh"
debs="" kernel="" cache="" log="" timeout=1800 module_test="" suite=bookworm
while [ $# -gt 0 ]; do
	case "$1" in
	--debs) debs=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--module-test) module_test=$2; shift 2 ;;
	--suite) suite=$2; shift 2 ;;
	--cache) cache=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	*) echo "run-e2e.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -n "$debs" ] && [ -n "$kernel" ] && [ -n "$module_test" ] ||
	{ echo "run-e2e.sh: --debs, --kernel and --module-test are required" >&2; exit 2; }
# Shared by every checkout and build (a release tarball's pass too).
cache=${cache:-${CLEARPAGE_CACHE:-/var/cache/clearpage-tests}/e2e}
mkdir -p "$cache"
base=$cache/rootfs-$suite-$kernel.tar.gz
"$here/build-rootfs.sh" "$suite" "$kernel" "$base"

work=$(mktemp -d "${TMPDIR:-/tmp}/clearpage-e2e.XXXXXX")
root=$work/root
cleanup() {
	remove_tree "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
mkdir -p "$root"
tar -C "$root" -xzf "$base"
log=${log:-$work/console.log}

# Install the packages as an administrator would: apt with the local files
# (their dependencies are in the image already), DKMS building the module
# for the kernel whose headers are installed.
mkdir -p "$root/tmp/debs"
cp "$debs"/clearpaged_*.deb "$debs"/clearpage-dkms_*.deb "$debs"/clearpage-bench_*.deb "$root/tmp/debs/"
if ! in_chroot "$root" sh -c \
	'apt-get install -y -q --no-install-recommends /tmp/debs/*.deb' >"$work/apt.log" 2>&1; then
	tail -n 40 "$work/apt.log" >&2
	echo "run-e2e.sh: installing the packages failed" >&2
	exit 1
fi
grep -E "Building|DKMS|dkms|Error" "$work/apt.log" | head -n 20 || true
rm -rf "$root/tmp/debs"

# The upgrade the guest installs over the running daemon: the same
# clearpaged package with a later version.
upgrade=$root/usr/local/lib/clearpage-e2e/upgrade
mkdir -p "$upgrade" "$work/deb"
dpkg-deb -R "$(ls "$debs"/clearpaged_*.deb | head -n 1)" "$work/deb"
sed -i 's/^Version: .*/&+e2e1/' "$work/deb/DEBIAN/control"
dpkg-deb -b -Zxz "$work/deb" "$upgrade/" >/dev/null

# The test as a service that runs once the system is up.
mkdir -p "$root/usr/local/lib/clearpage-e2e"
cp "$here/guest.sh" "$root/usr/local/lib/clearpage-e2e/"
cp "$module_test" "$root/usr/local/lib/clearpage-e2e/clearpage-test.ko"
cat > "$root/etc/systemd/system/clearpage-e2e.service" <<UNIT
[Unit]
Description=clearpage end-to-end checks
After=multi-user.target
[Service]
Type=oneshot
ExecStart=/usr/local/lib/clearpage-e2e/guest.sh
TimeoutStartSec=1500
[Install]
WantedBy=multi-user.target
UNIT
ln -sf /etc/systemd/system/clearpage-e2e.service \
	"$root/etc/systemd/system/multi-user.target.wants/clearpage-e2e.service"
ln -sf /dev/null "$root/etc/systemd/system/serial-getty@ttyS0.service"
ln -sf /dev/null "$root/etc/systemd/system/getty@tty1.service"
echo "/dev/vda / ext4 defaults 0 1" > "$root/etc/fstab"
echo clearpage-e2e > "$root/etc/hostname"
# Boot quietly: the console carries the test's lines.
mkdir -p "$root/etc/systemd/system.conf.d"
printf '[Manager]\nShowStatus=no\n' > "$root/etc/systemd/system.conf.d/quiet.conf"

# /boot/vmlinuz-VERSION (6.x), /usr/lib/modules/VERSION/vmlinuz (7.x).
vmlinuz=$root/boot/vmlinuz-$kernel
[ -f "$vmlinuz" ] || vmlinuz=$root/usr/lib/modules/$kernel/vmlinuz
cp "$vmlinuz" "$work/vmlinuz" && vmlinuz=$work/vmlinuz
cp "$root/boot/initrd.img-$kernel" "$work/initrd.img"
size=$(( $(du -sm "$root" | cut -f1) + 1024 ))
mkfs.ext4 -q -F -L root -d "$root" "$work/disk.img" "${size}M"

accel="-accel tcg,thread=${CLEARPAGE_VM_TCG_THREAD:-single}"
[ "${CLEARPAGE_VM_KVM:-0}" = 1 ] && accel="-accel kvm"
set +e
timeout --foreground -k 10 "$timeout" qemu-system-x86_64 $accel -cpu max -m 2G \
	-smp 2,sockets=2,cores=1,threads=1 \
	-object memory-backend-ram,id=m0,size=1G \
	-numa node,nodeid=0,cpus=0,memdev=m0 \
	-object memory-backend-ram,id=m1,size=1G \
	-numa node,nodeid=1,cpus=1,memdev=m1 \
	-kernel "$vmlinuz" -initrd "$work/initrd.img" \
	-drive file="$work/disk.img",format=raw,if=virtio \
	-append "root=/dev/vda rw console=ttyS0 panic=-1 panic_on_warn=1 oops=panic init_on_alloc=0 loglevel=4" \
	-nographic -no-reboot -monitor none -serial stdio </dev/null >"$log" 2>&1
qemu_rc=$?
set -e
. "$here/../vm/judge.sh"
judge "$log" "e2e $kernel" "$qemu_rc"
