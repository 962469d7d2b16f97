#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Debian root file system for the end-to-end test, as a tarball cached
# between runs: debootstrap (minbase) plus systemd, udev, DKMS with a
# compiler, and the kernel image and headers the test boots, from this
# machine's own APT archive.
#   bookworm (Debian 12): the suites this machine uses, so that its kernel
#                         is there in the same version;
#   trixie (Debian 13):   trixie, -updates and -backports (the 7.x kernel).
#
#   tests/e2e/build-rootfs.sh SUITE KERNEL_VERSION TARBALL
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
suite=$1 kernel=$2 tarball=$3
. "$here/lib.sh"

case "$suite" in
bookworm) libs="libnl-3-200 libnl-genl-3-200 libgsl27 libjson-c5" ;;
# The backports kernel needs backports' linux-base.
trixie) libs="libnl-3-200 libnl-genl-3-200 libgsl28 libjson-c5 linux-base/trixie-backports" ;;
*) echo "build-rootfs.sh: suite '$suite' is not bookworm or trixie" >&2; exit 2 ;;
esac
[ -f "$tarball" ] && { echo "build-rootfs.sh: using the cached $tarball"; exit 0; }
command -v debootstrap >/dev/null ||
	{ echo "build-rootfs.sh: debootstrap not found (apt-get install debootstrap)" >&2; exit 1; }
mirror=$(archive_uri | head -n 1)
[ -n "$mirror" ] || { echo "build-rootfs.sh: no bookworm archive in /etc/apt" >&2; exit 1; }

root=$(mktemp -d "${TMPDIR:-/tmp}/clearpage-rootfs.XXXXXX")
cleanup() {
	remove_tree "$root"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

echo "build-rootfs.sh: debootstrap $suite from $mirror"
debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
	{ tail -n 20 "$root.debootstrap.log" >&2; exit 1; }
rm -f "$root.debootstrap.log"
rm -f "$root/etc/apt/sources.list"
if [ "$suite" = bookworm ]; then
	# The same suites as this machine (bookworm, -updates, -security).
	for f in /etc/apt/sources.list.d/*.sources /etc/apt/sources.list; do
		[ -f "$f" ] && grep -qs bookworm "$f" && cp "$f" "$root/etc/apt/sources.list.d/" || true
	done
	[ -f "$root/etc/apt/sources.list.d/sources.list" ] &&
		mv "$root/etc/apt/sources.list.d/sources.list" "$root/etc/apt/sources.list.d/host.list"
else
	printf 'deb %s %s main\n' "$mirror" "$suite" "$mirror" "$suite-updates" \
		"$mirror" "$suite-backports" > "$root/etc/apt/sources.list"
fi
# No service starts inside the chroot.
in_chroot "$root" sh -c "
	apt-get update -q &&
	apt-get install -y -q --no-install-recommends \
		systemd systemd-sysv udev dbus kmod procps iproute2 \
		dkms gcc make libc6-dev \
		linux-image-$kernel linux-headers-$kernel initramfs-tools $libs &&
	apt-get clean" >"$tarball.log" 2>&1 ||
	{ tail -n 30 "$tarball.log" >&2; exit 1; }
mkdir -p "$(dirname "$tarball")"
tar -C "$root" -czf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball"
echo "build-rootfs.sh: $tarball ($(du -h "$tarball" | cut -f1))"
