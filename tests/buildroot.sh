#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A Debian 13 (trixie) build root, cached, for what the Debian 12 host cannot
# build: modules against Debian's 7.x kernel headers (their modpost and
# objtool need trixie's glibc, their Kbuild gcc-14) and the packages as
# Debian 13 builds them. debootstrap (minbase) from this machine's own
# archive, trixie and trixie-backports, then the toolchain, the project's
# build dependencies and the headers of each kernel named. Nothing is
# installed on the host itself.
#
#   tests/buildroot.sh ROOT [KERNEL_VERSION...]
#   tests/buildroot.sh --run ROOT COMMAND...
#
# --run runs COMMAND in ROOT with /proc, /sys, /dev and this checkout (its
# source and build trees) mounted at the same paths as on the host, in the
# same working directory.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/e2e/lib.sh"

packages="build-essential gcc-14 make libc6-dev kmod dkms dh-dkms debhelper
	meson ninja-build pkg-config libnl-3-dev libnl-genl-3-dev libsystemd-dev
	libudev-dev libgsl-dev libjson-c-dev systemd-dev lintian fakeroot"

# run_in ROOT DIR COMMAND...: COMMAND in ROOT, DIR bind-mounted at its own
# path, /proc, /sys and /dev mounted (objtool reads /proc), all in a mount
# namespace of its own: the mounts vanish with it, and runs side by side do
# not meet.
run_in() {
	local root=$1 dir=$2
	shift 2
	mkdir -p "$root$dir"
	unshare --mount --propagation private sh -c '
		root=$1 dir=$2 cwd=$3
		shift 3
		for m in proc sys dev; do
			mountpoint -q "$root/$m" && umount -l "$root/$m"
		done
		mount -t proc proc "$root/proc" &&
		mount -t sysfs sysfs "$root/sys" &&
		mount --rbind /dev "$root/dev" &&
		mount --bind "$dir" "$root$dir" || exit 1
		exec chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
			sh -c "cd \"\$0\" 2>/dev/null || cd /; exec \"\$@\"" "$cwd" "$@"
	' sh "$root" "$dir" "$PWD" "$@"
}

if [ "${1:-}" = --run ]; then
	root=$2
	shift 2
	top=$(cd "$here/.." && pwd)
	run_in "$root" "$top" "$@"
	exit
fi

root=$1
shift
kernels="$*"
[ "$(id -u)" = 0 ] || { echo "buildroot.sh: run as root (debootstrap, chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null ||
	{ echo "buildroot.sh: debootstrap not found (apt-get install debootstrap)" >&2; exit 1; }
mirror=$(archive_uri | head -n 1)
[ -n "$mirror" ] || { echo "buildroot.sh: no Debian archive in /etc/apt" >&2; exit 1; }

if [ ! -f "$root/.clearpage-buildroot" ]; then
	rm -rf "$root"
	mkdir -p "$(dirname "$root")"
	echo "buildroot.sh: debootstrap trixie from $mirror into $root"
	debootstrap --variant=minbase trixie "$root" "$mirror" >"$root.log" 2>&1 ||
		{ tail -n 20 "$root.log" >&2; exit 1; }
	cat > "$root/etc/apt/sources.list" <<SRC
deb $mirror trixie main
deb $mirror trixie-updates main
deb $mirror trixie-backports main
SRC
	touch "$root/.clearpage-buildroot"
fi

# The toolchain and the headers of each kernel; apt skips what is there.
wanted=$(echo $packages)
for kernel in $kernels; do
	wanted="$wanted linux-headers-$kernel"
done
installed=$(chroot "$root" dpkg-query -W -f '${Package} ${Status}\n' $wanted 2>/dev/null |
	awk '$NF == "installed" { print $1 }' | sort) || true
missing=$(echo $wanted | tr ' ' '\n' | sort | comm -23 - <(echo "$installed"))
if [ -n "$missing" ]; then
	echo "buildroot.sh: installing into $root:" $missing
	chroot_mount "$root"
	trap 'chroot_umount "$root"' EXIT
	chroot "$root" env DEBIAN_FRONTEND=noninteractive sh -c "
		apt-get update -q &&
		apt-get install -y -q --no-install-recommends $wanted &&
		apt-get clean" >>"$root.log" 2>&1 ||
		{ tail -n 30 "$root.log" >&2; exit 1; }
fi
echo "buildroot.sh: $root ready (trixie${kernels:+, headers for $kernels})"
