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
# same working directory (tests/e2e/lib.sh in_chroot: the mounts live in a
# namespace of their own and vanish with the command).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/e2e/lib.sh"

# The toolchain the module builds with and the package checks; the
# packages' own build dependencies come from debian/control (below).
packages="build-essential gcc-14 make libc6-dev kmod dkms lintian fakeroot"

if [ "${1:-}" = --run ]; then
	root=$2
	shift 2
	top=$(cd "$here/.." && pwd)
	in_chroot "$root" --bind "$top" "$@"
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
	remove_tree "$root"
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
	in_chroot "$root" sh -c "
		apt-get update -q &&
		apt-get install -y -q --no-install-recommends $wanted &&
		apt-get clean" >>"$root.log" 2>&1 ||
		{ tail -n 30 "$root.log" >&2; exit 1; }
fi
# debian/control's Build-Depends as Debian 13 resolves them, checked the
# way dpkg-buildpackage checks them.
top=$(cd "$here/.." && pwd)
if ! in_chroot "$root" --bind "$top" sh -c "cd '$top' && dpkg-checkbuilddeps" >>"$root.log" 2>&1; then
	echo "buildroot.sh: installing debian/control's build dependencies into $root"
	in_chroot "$root" --bind "$top" sh -c "
		apt-get update -q &&
		apt-get build-dep -y -q --no-install-recommends '$top' &&
		apt-get clean &&
		cd '$top' && dpkg-checkbuilddeps" >>"$root.log" 2>&1 ||
		{ tail -n 30 "$root.log" >&2; exit 1; }
fi
echo "buildroot.sh: $root ready (trixie${kernels:+, headers for $kernels})"
