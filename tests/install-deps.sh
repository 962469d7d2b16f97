#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what building and testing clearpage needs on Debian 12 (bookworm),
# as root: the toolchain, meson, QEMU, busybox-static, and the two kernels the
# VM tests boot with their headers: 6.1 from bookworm and the 6.12 kernel from
# bookworm-backports, which is enabled from the archive this machine already
# uses if it is not configured yet.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: run as root (it installs packages with apt-get)" >&2
	exit 1
fi

# archive_uri: the bookworm archive this machine uses.
. "$(dirname "$0")/e2e/lib.sh"

if ! grep -rqsE 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
	uri=$(archive_uri | head -n 1)
	if [ -z "$uri" ]; then
		echo "install-deps.sh: no bookworm archive configured in /etc/apt; add bookworm-backports by hand" >&2
		exit 1
	fi
	cat > /etc/apt/sources.list.d/clearpage-backports.sources <<SRC
Types: deb
URIs: $uri
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

apt-get update -q
apt-get install -y -q --no-install-recommends \
	build-essential meson ninja-build pkg-config clang libclang-rt-14-dev \
	qemu-system-x86 busybox-static cpio gzip kmod dkms \
	libnl-3-dev libnl-genl-3-dev libsystemd-dev libudev-dev \
	libgsl-dev libjson-c-dev gnuplot-nox python3 \
	debhelper dh-dkms lintian debootstrap e2fsprogs git \
	linux-image-amd64 linux-headers-amd64

# Backports' metapackage names the current 6.12 image; install that version
# beside 6.1 rather than the metapackage, which would replace 6.1's.
image_612=$(apt-cache -t bookworm-backports depends linux-image-amd64 |
	awk '/Depends: linux-image-6\.12/ { print $2; exit }')
if [ -z "$image_612" ]; then
	echo "install-deps.sh: bookworm-backports offers no 6.12 kernel image" >&2
	exit 1
fi
apt-get install -y -q --no-install-recommends -t bookworm-backports \
	"$image_612" "${image_612/linux-image/linux-headers}"

# promtool, to check clearpaged's metrics: only the binary, extracted from
# Debian's prometheus package rather than installing (and starting) the
# server.
promdir=/var/cache/clearpage-tests
if [ ! -x "$promdir/prometheus/usr/bin/promtool" ]; then
	mkdir -p "$promdir"
	(cd "$promdir" && rm -f prometheus_*.deb && apt-get download -q prometheus &&
		dpkg -x prometheus_*.deb prometheus) ||
		echo "install-deps.sh: could not extract promtool; the metrics check will say SKIP" >&2
fi
