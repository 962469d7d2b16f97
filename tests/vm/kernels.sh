#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the kernel versions the VM tests boot (tests/kernels.sh): the newest
# 6.1, 6.12 and 7.3 with an image in the cache and a build tree, or the
# versions in $CLEARPAGE_TEST_KERNELS.
. "$(dirname "$0")/../kernels.sh"
kernel_versions
