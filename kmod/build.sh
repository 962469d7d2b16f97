#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Build clearpage.ko out of tree with Kbuild, in a directory of its own.
#   kmod/build.sh SOURCE_TOP OUTPUT_DIR KERNEL_BUILD_DIR [test]
# "test" makes the test build (kmod/testing.c): it loads only with
# testing=1 and is never shipped.
# The sources and shared headers are copied next to each other (the layout
# a DKMS tree has), so several kernels can be built from one checkout.
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
mkdir -p "$out/include"
# Kbuild resolves M= from the kernel tree: make it absolute.
out=$(cd "$out" && pwd)
cp -p "$top"/kmod/*.c "$top"/kmod/*.h "$top/kmod/Kbuild" "$out/"
cp -pR "$top/include/." "$out/include/"
make -s -C "$kdir" M="$out" KCFLAGS="-Werror" $test_build modules
