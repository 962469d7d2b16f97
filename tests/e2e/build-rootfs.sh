#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Debian 12 root file system for the end-to-end test, as a tarball cached
# between runs: debootstrap (minbase) plus systemd, udev, DKMS with a
# compiler, and the kernel image and headers the test boots, from this
# machine's own APT archive and sources.
#
#   tests/e2e/build-rootfs.sh KERNEL_VERSION TARBALL
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
kernel=$1 tarball=$2
. "$here/lib.sh"

[ -f "$tarball" ] && { echo "build-rootfs.sh: using the cached $tarball"; exit 0; }
command -v debootstrap >/dev/null ||
	{ echo "build-rootfs.sh: debootstrap not found (apt-get install debootstrap)" >&2; exit 1; }
mirror=$(archive_uri | head -n 1)
[ -n "$mirror" ] || { echo "build-rootfs.sh: no bookworm archive in /etc/apt" >&2; exit 1; }

root=$(mktemp -d "${TMPDIR:-/tmp}/clearpage-rootfs.XXXXXX")
cleanup() {
	chroot_umount "$root"
	rm -rf "$root"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

echo "build-rootfs.sh: debootstrap bookworm from $mirror"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
	{ tail -n 20 "$root.debootstrap.log" >&2; exit 1; }
rm -f "$root.debootstrap.log"
# The same suites as this machine (bookworm, -updates, -security), so that
# the kernel the host boots is there in the same version.
rm -f "$root/etc/apt/sources.list"
for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
	[ -f "$f" ] && grep -qs bookworm "$f" && cp "$f" "$root/etc/apt/sources.list.d/" || true
done
[ -f "$root/etc/apt/sources.list.d/sources.list" ] &&
	mv "$root/etc/apt/sources.list.d/sources.list" "$root/etc/apt/sources.list.d/host.list"
# No service starts inside the chroot.
chroot_mount "$root"
chroot "$root" env DEBIAN_FRONTEND=noninteractive sh -c "
	apt-get update -q &&
	apt-get install -y -q --no-install-recommends \
		systemd systemd-sysv udev dbus kmod procps iproute2 \
		dkms gcc make libc6-dev \
		linux-image-$kernel linux-headers-$kernel initramfs-tools \
		libnl-3-200 libnl-genl-3-200 libgsl27 libjson-c5 &&
	apt-get clean" >"$tarball.log" 2>&1 ||
	{ tail -n 30 "$tarball.log" >&2; exit 1; }
chroot_umount "$root"
mkdir -p "$(dirname "$tarball")"
tar -C "$root" -czf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
echo "build-rootfs.sh: $tarball ($(du -h "$tarball" | cut -f1))"
