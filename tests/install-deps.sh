#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what building and testing clearpage needs on Debian 12 (bookworm),
# as root: the toolchain, meson, QEMU, busybox-static, and the three kernels
# the VM tests boot:
#   6.1 from bookworm and 6.12 from bookworm-backports (the backports suite
#   is added from the archive this machine already uses if it is not
#   configured yet): headers as packages on this machine;
#   7.3 from trixie-backports: headers in a Debian 13 build root
#   (tests/buildroot.sh), since they need trixie's toolchain.
# The kernel images are never installed: each is unpacked from its package
# into the cache ($CLEARPAGE_CACHE, default /var/cache/clearpage-tests,
# kernels/vmlinuz-VERSION), so this machine's /boot and boot loader stay as
# they were.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

if [ "$(id -u)" != 0 ]; then
	echo "install-deps.sh: run as root (it installs packages with apt-get)" >&2
	exit 1
fi

top=$(cd "$(dirname "$0")/.." && pwd)
# archive_uri: the bookworm archive this machine uses.
. "$top/tests/e2e/lib.sh"

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
# What the tests run beyond the build: a minimal Debian 12 (debootstrap
# minbase, a container image) has none of it, a full one some of it.
# pahole: Kbuild generates module BTF against the vmlinux that 6.12's
# headers ship. python3: tests/bench/test-touch.sh; python3-jsonschema:
# tests/json (clearpagectl's JSON against its schema); groff-base: the man
# pages formatted without a warning (tests/doc). xz-utils: .ci/run
# unpacks the meson dist tarball. mount, e2fsprogs, debootstrap: the build
# roots and the booted-Debian disk image. git: meson dist.
apt-get install -y -q --no-install-recommends \
	build-essential clang libclang-rt-14-dev \
	qemu-system-x86 busybox-static cpio gzip xz-utils kmod dkms pahole \
	gnuplot-nox groff-base python3 python3-jsonschema lintian debootstrap e2fsprogs mount git \
	linux-headers-amd64
# The packages' build dependencies from debian/control itself, so that the
# list above can never drift from them (on Debian 12, systemd.pc comes from
# systemd, which a container lacks); then the check dpkg-buildpackage makes.
apt-get build-dep -y -q --no-install-recommends "$top"
(cd "$top" && dpkg-checkbuilddeps) ||
	{ echo "install-deps.sh: debian/control's build dependencies are not met (above)" >&2; exit 1; }

cache=${CLEARPAGE_CACHE:-/var/cache/clearpage-tests}
mkdir -p "$cache/kernels"

# in_apt ROOT COMMAND...: an apt command on this machine (ROOT empty) or in
# the build root ROOT, in the current directory given as seen from here.
in_apt() {
	local root=$1
	shift
	if [ -n "$root" ]; then
		# In the root's own tree (a download folder), there; elsewhere
		# (this checkout, wherever it was cloned), at the root's top.
		case "$PWD/" in
		"$root"/*) chroot "$root" sh -c 'cd "$0" && exec "$@"' "${PWD#"$root"}" "$@" ;;
		*) chroot "$root" "$@" ;;
		esac
	else
		"$@"
	fi
}

# unpack_image PACKAGE [CHROOT]: the kernel image of PACKAGE, downloaded with
# apt (in CHROOT if given) and unpacked into $cache/kernels; not installed.
unpack_image() {
	local package=$1 root=${2:-} version=${1#linux-image-} tmp image=
	[ -f "$cache/kernels/vmlinuz-$version" ] && return 0
	tmp=$(mktemp -d "${root:-}/tmp/clearpage-image.XXXXXX")
	chmod 755 "$tmp"
	# The image is in the image package itself, or in the one it depends
	# on: -unsigned (6.x without signing), linux-binary-VERSION (7.x).
	for package in "$package" "$package-unsigned" "linux-binary-$version"; do
		rm -f "$tmp"/*.deb
		(cd "$tmp" && in_apt "$root" apt-get download -q "$package") || continue
		# /boot/vmlinuz-VERSION (6.x), /usr/lib/modules/VERSION/vmlinuz (7.x)
		dpkg-deb --fsys-tarfile "$tmp"/*.deb | tar -C "$tmp" -xf - \
			--wildcards ./boot/vmlinuz-\* ./usr/lib/modules/\*/vmlinuz 2>/dev/null || true
		for image in "$tmp/boot/vmlinuz-$version" "$tmp/usr/lib/modules/$version/vmlinuz" ""; do
			[ -f "$image" ] && break
		done
		[ -n "$image" ] && break
	done
	[ -n "$image" ] ||
		{ echo "install-deps.sh: no kernel image for $version in $1 or the package it depends on" >&2; exit 1; }
	mv "$image" "$cache/kernels/vmlinuz-$version"
	rm -rf "$tmp"
	echo "install-deps.sh: $cache/kernels/vmlinuz-$version (not installed in /boot)"
}

# image_of ROOT [APT_ARGS...]: the versioned image the amd64 metapackage
# names, on this machine (ROOT empty) or in the build root ROOT.
image_of() {
	local root=$1
	shift
	in_apt "$root" apt-cache "$@" depends linux-image-amd64 |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}

# unpack_headers VERSION [ROOT]: VERSION's headers and kbuild, downloaded
# with apt (in ROOT if given) and unpacked into $cache/kernels/VERSION/, or
# ROOT/opt/kernels/VERSION/ (their packages depend on the kernel image,
# which must not be installed); the build tree's absolute reference to its
# common half made to point there, as seen from where it builds.
unpack_headers() {
	local version=$1 root=${2:-} seen tmp deb
	if [ -n "$root" ]; then
		seen=/opt/kernels/$version
	else
		seen=$cache/kernels/$version
	fi
	[ -f "$root$seen/usr/src/linux-headers-$version/Makefile" ] && return 0
	tmp=$(mktemp -d "$root/tmp/clearpage-headers.XXXXXX")
	chmod 755 "$tmp"
	set -- "linux-headers-$version" "linux-headers-${version%-amd64}-common" \
		"linux-kbuild-${version%-amd64}"
	(cd "$tmp" && in_apt "$root" apt-get download -q "$@")
	rm -rf "$root$seen" && mkdir -p "$root$seen"
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$root$seen"
	done
	rm -rf "$tmp"
	sed -i "s|^include /usr/src/|include $seen/usr/src/|" \
		"$root$seen/usr/src/linux-headers-$version/Makefile"
	echo "install-deps.sh: $root$seen/usr/src/linux-headers-$version (not installed)"
}

image_61=$(image_of "")
# Backports' metapackage names the current 6.12 image.
image_612=$(image_of "" -t bookworm-backports)
case "$image_612" in
linux-image-6.12*) ;;
*) echo "install-deps.sh: bookworm-backports offers no 6.12 kernel image" >&2; exit 1 ;;
esac
unpack_headers "${image_612#linux-image-}"
unpack_image "$image_61"
unpack_image "$image_612"

# Debian 13's backports kernel: headers in the build root, image unpacked.
root=$cache/buildroot-trixie
image_73=$(image_of "$root" -t trixie-backports 2>/dev/null) || true
if [ -z "$image_73" ]; then
	"$(dirname "$0")/buildroot.sh" "$root"
	image_73=$(image_of "$root" -t trixie-backports)
fi
case "$image_73" in
linux-image-7.3*) ;;
*) echo "install-deps.sh: trixie-backports offers no 7.3 kernel image" >&2; exit 1 ;;
esac
"$(dirname "$0")/buildroot.sh" "$root" "${image_73#linux-image-}"
unpack_image "$image_73" "$root"
# Debian 13's own 6.12, built for (module and DKMS) but not booted: the
# bookworm-backports 6.12 stands for the series in the VM suites.
headers_612=$(in_apt "$root" apt-cache -t trixie depends linux-headers-amd64 |
	awk '/Depends: linux-headers-6\.12/ { print $2; exit }')
case "$headers_612" in
linux-headers-6.12*) unpack_headers "${headers_612#linux-headers-}" "$root" ;;
*) echo "install-deps.sh: trixie offers no 6.12 headers" >&2; exit 1 ;;
esac

# The QEMU the parallel suites boot with multi-threaded TCG (run-vm.sh
# --parallel): bookworm-backports' (10.0), unpacked into the cache, not
# installed. Bookworm's own QEMU 7.2 runs the other suites; with its vCPUs
# in parallel it executes kernel text that another vCPU has just patched
# back (a kprobe, a static call, a livepatch transition): an int3 Oops or a
# jump to 0 within seconds on every kernel, clearpage loaded or not
# (doc/tests.md, the textpoke suite).
qemu_dir=$cache/qemu
if [ ! -x "$qemu_dir/usr/bin/qemu-system-x86_64" ]; then
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	(cd "$tmp" && apt-get download -q -t bookworm-backports qemu-system-x86 \
		qemu-system-common qemu-system-data seabios)
	rm -rf "$qemu_dir" && mkdir -p "$qemu_dir"
	for deb in "$tmp"/*.deb; do
		dpkg-deb -x "$deb" "$qemu_dir"
	done
	rm -rf "$tmp"
fi
"$qemu_dir/usr/bin/qemu-system-x86_64" --version | head -n 1 |
	sed "s|^|install-deps.sh: $qemu_dir (not installed): |"

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

# checkpatch.pl (and the files it reads) and the kernel's .clang-format,
# from Debian 12's kernel source package: only those files are extracted
# into the cache, nothing is installed (tests/checkpatch.sh).
cpdir=$cache/checkpatch
if [ ! -x "$cpdir/scripts/checkpatch.pl" ]; then
	tmp=$(mktemp -d)
	chmod 755 "$tmp"
	if (cd "$tmp" && apt-get download -q linux-source-6.1 &&
	    dpkg-deb --fsys-tarfile linux-source-6.1_*.deb |
	    tar -xOf - ./usr/src/linux-source-6.1.tar.xz |
	    tar -xJf - --strip-components=1 linux-source-6.1/scripts/checkpatch.pl \
		linux-source-6.1/scripts/spelling.txt \
		linux-source-6.1/scripts/const_structs.checkpatch \
		linux-source-6.1/.clang-format); then
		rm -rf "$cpdir" && mkdir -p "$cpdir/scripts"
		mv "$tmp"/scripts/* "$cpdir/scripts/" && mv "$tmp/.clang-format" "$cpdir/"
	else
		echo "install-deps.sh: could not extract checkpatch.pl from linux-source-6.1" >&2
		rm -rf "$tmp"
		exit 1
	fi
	rm -rf "$tmp"
fi
