#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build clearpage.ko out of tree with Kbuild, in a directory of its own.
#   kmod/build.sh SOURCE_TOP OUTPUT_DIR KERNEL_BUILD_DIR [test]
# "test" makes the test build (kmod/testing.c): it loads only with
# testing=1 and is never shipped.
# The tree is kmod/tree.sh's, the one DKMS builds, in a directory per
# kernel and variant, so several kernels can be built from one checkout.
set -eu
top=$1 out=$2 kdir=$3 variant=${4:-}

case "$variant" in
"") test_build= ;;
test) test_build=CLEARPAGE_TEST=y ;;
*) echo "kmod/build.sh: unknown variant '$variant' (only \"test\")" >&2; exit 2 ;;
esac
if [ ! -f "$kdir/Makefile" ]; then
	echo "kmod/build.sh: no kernel build tree at $kdir (install linux-headers-<version>)" >&2
	exit 1
fi
"$top/kmod/tree.sh" "$top" "$out" $variant
# Kbuild resolves M= from the kernel tree: make it absolute.
out=$(cd "$out" && pwd)
# W=1: the extra warnings, all of them errors too.
make -s -C "$kdir" M="$out" W=1 KCFLAGS="-Werror" $test_build modules
