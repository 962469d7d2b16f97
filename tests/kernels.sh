# SPDX-License-Identifier: GPL-2.0
# Where the test kernels are (sourced by the test scripts). None of them is
# this machine's boot kernel: tests/install-deps.sh keeps them in a cache.
#   images:       $CLEARPAGE_CACHE/kernels/vmlinuz-VERSION
#   build trees:  6.1   Debian 12's headers package (/lib/modules/V/build)
#                 6.12  bookworm-backports' headers unpacked into
#                       $CLEARPAGE_CACHE/kernels/V/ (their package would pull
#                       in the kernel image)
#                 7.3   trixie-backports' headers in the Debian 13 build root
#                       $CLEARPAGE_CACHE/buildroot-trixie (tests/buildroot.sh),
#                       whose toolchain they need
#   build only:   Debian 13's own 6.12, its headers unpacked into the build
#                 root's /opt/kernels/V/ (kernel_build_only)
# The series tested, oldest first.
CLEARPAGE_SERIES="6.1 6.12 7.3"
clearpage_cache=${CLEARPAGE_CACHE:-/var/cache/clearpage-tests}
clearpage_buildroot=$clearpage_cache/buildroot-trixie
clearpage_tests=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

kernel_image() {
	echo "$clearpage_cache/kernels/vmlinuz-$1"
}

# kernel_tree VERSION: "ROOT DIR", the build tree DIR as seen from ROOT (/:
# this machine, else the build root); fails when there is none.
kernel_tree() {
	if [ -f "/lib/modules/$1/build/Makefile" ]; then
		echo "/ /lib/modules/$1/build"
	elif [ -f "$clearpage_cache/kernels/$1/usr/src/linux-headers-$1/Makefile" ]; then
		echo "/ $clearpage_cache/kernels/$1/usr/src/linux-headers-$1"
	elif [ -f "$clearpage_buildroot/usr/src/linux-headers-$1/Makefile" ]; then
		echo "$clearpage_buildroot /usr/src/linux-headers-$1"
	elif [ -f "$clearpage_buildroot/opt/kernels/$1/usr/src/linux-headers-$1/Makefile" ]; then
		echo "$clearpage_buildroot /opt/kernels/$1/usr/src/linux-headers-$1"
	else
		return 1
	fi
}

# in_root ROOT COMMAND...: COMMAND on this machine (ROOT /) or in the build
# root, with this checkout at its own path.
in_root() {
	local root=$1
	shift
	if [ "$root" = / ]; then
		"$@"
	else
		"$clearpage_tests/buildroot.sh" --run "$root" "$@"
	fi
}

# kernel_make VERSION MAKE_ARGS...: make in VERSION's build tree.
kernel_make() {
	local root dir
	read -r root dir < <(kernel_tree "$1") || return 1
	shift
	in_root "$root" make -C "$dir" "$@"
}

# kernel_module VERSION OUTPUT_DIR [test]: clearpage.ko (or its test build)
# for VERSION, built where its build tree is (kmod/build.sh).
kernel_module() {
	local root dir
	read -r root dir < <(kernel_tree "$1") || return 1
	in_root "$root" "$clearpage_tests/../kmod/build.sh" \
		"$(cd "$clearpage_tests/.." && pwd)" "$2" "$dir" ${3:-}
}

# kernel_versions: for each series, the newest version with an image and a
# build tree, or $CLEARPAGE_TEST_KERNELS.
kernel_versions() {
	local series image version
	if [ -n "${CLEARPAGE_TEST_KERNELS:-}" ]; then
		echo "$CLEARPAGE_TEST_KERNELS"
		return
	fi
	for series in $CLEARPAGE_SERIES; do
		for image in "$clearpage_cache/kernels/vmlinuz-$series".*; do
			version=${image##*/vmlinuz-}
			[ -f "$image" ] && kernel_tree "$version" >/dev/null && echo "$version"
		done | sort -V | tail -n 1
	done | tr '\n' ' '
	echo
}

# kernel_of_series SERIES VERSION...: the first VERSION of SERIES (6.1 is
# not 6.12).
kernel_of_series() {
	local series=$1 version
	shift
	for version; do
		case "$version" in
		"$series".*) echo "$version"; return ;;
		esac
	done
}

# kernel_build_only: the kernels the module is built for (and DKMS builds)
# but no VM boots: those unpacked into the build root's /opt/kernels/.
kernel_build_only() {
	local dir
	for dir in "$clearpage_buildroot"/opt/kernels/*/; do
		[ -d "$dir" ] && basename "$dir"
	done | tr '\n' ' '
	echo
}
