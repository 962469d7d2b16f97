#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job on a machine that cannot load modules itself: build
# clearpage.ko for Debian 13's backports kernel (7.3; any tested one by
# name), boot it under QEMU with two NUMA nodes,
# show the knob (strategies, backends, calibration per node), and fault pages
# through every strategy on both nodes, checking every byte.
#
#   tests/vm/demo.sh [--setup] [KERNEL_VERSION]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${1:-}" = --setup ]; then
	"$top/tests/install-deps.sh"
	shift
fi
. "$top/tests/kernels.sh"
kernel=${1:-$(kernel_versions | awk '{ print $NF }')}
if [ -z "$kernel" ] || ! kernel_tree "$kernel" >/dev/null; then
	echo "demo.sh: no test kernel with headers in $clearpage_cache; run tests/vm/demo.sh --setup as root" >&2
	exit 1
fi
cd "$top"
[ -d build ] || meson setup build >/dev/null
meson compile -C build >/dev/null
kernel_module "$kernel" "$top/build/kmod-$kernel"
mkdir -p build/vm-logs
exec "$top/tests/vm/run-vm.sh" --kernel "$kernel" --suite smoke \
	--module "build/kmod-$kernel/clearpage.ko" --cptest build/tests/cptest \
	--bin build/ctl/clearpagectl \
	--append "init_on_alloc=0 hugepages=32" --log "build/vm-logs/demo-$kernel.log"
