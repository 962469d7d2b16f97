#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Register clearpage.ko with DKMS, build it and install it for a kernel:
#   kmod/dkms-install.sh [--build-only] [KERNEL_VERSION [KERNEL_BUILD_DIR]]
# KERNEL_VERSION defaults to the running kernel, KERNEL_BUILD_DIR to
# /lib/modules/KERNEL_VERSION/build.
# The module is then rebuilt automatically for every new kernel.
# Remove with: dkms remove clearpage/<version> --all
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
build_only=0
if [ "${1:-}" = --build-only ]; then
	build_only=1
	shift
fi
kernel=${1:-$(uname -r)}
kdir=${2:-/lib/modules/$kernel/build}
version=$(sed -n "s/^ *version: *'\([^']*\)'.*/\1/p" "$top/meson.build" | head -n 1)
src=/usr/src/clearpage-$version

if ! command -v dkms >/dev/null; then
	echo "dkms-install.sh: dkms is not installed (apt-get install dkms)" >&2
	exit 1
fi
if [ ! -f "$kdir/Makefile" ]; then
	echo "dkms-install.sh: no headers for $kernel (apt-get install linux-headers-$kernel)" >&2
	exit 1
fi
rm -rf "$src"
"$top/kmod/tree.sh" "$top" "$src"
sed "s/@VERSION@/$version/" "$top/kmod/dkms.conf" > "$src/dkms.conf"

dkms status -m clearpage -v "$version" | grep -q . || dkms add -m clearpage -v "$version"
dkms build -m clearpage -v "$version" -k "$kernel" --kernelsourcedir "$kdir"
[ $build_only = 1 ] || dkms install -m clearpage -v "$version" -k "$kernel"
