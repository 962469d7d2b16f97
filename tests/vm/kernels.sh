#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Print the kernel versions the VM tests boot: the newest installed 6.1 and
# 6.12 kernels that have both an image in /boot and a build tree, or the
# versions in $CLEARPAGE_TEST_KERNELS.
if [ -n "${CLEARPAGE_TEST_KERNELS:-}" ]; then
	echo "$CLEARPAGE_TEST_KERNELS"
	exit 0
fi
for series in 6.1 6.12; do
	for image in /boot/vmlinuz-$series.*; do
		version=${image#/boot/vmlinuz-}
		[ -f "$image" ] && [ -f "/lib/modules/$version/build/Makefile" ] &&
			echo "$version"
	done | sort -V | tail -n 1
done | tr '\n' ' '
echo
