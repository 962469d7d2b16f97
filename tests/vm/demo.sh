#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The main job on a machine that cannot load modules itself: build
# clearpage.ko for Debian's 6.1 kernel, boot it under QEMU with two NUMA nodes,
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
kernel=${1:-$("$top/tests/vm/kernels.sh" | awk '{ print $1 }')}
if [ -z "$kernel" ]; then
	echo "demo.sh: no Debian kernel with headers installed; run tests/vm/demo.sh --setup as root" >&2
	exit 1
fi
cd "$top"
[ -d build ] || meson setup build >/dev/null
meson compile -C build >/dev/null
"$top/kmod/build.sh" "$top" "$top/build/kmod-$kernel" "/lib/modules/$kernel/build"
mkdir -p build/vm-logs
exec "$top/tests/vm/run-vm.sh" --kernel "$kernel" --suite smoke \
	--module "build/kmod-$kernel/clearpage.ko" --cptest build/tests/cptest \
	--bin build/daemon/clearpagectl \
	--append "init_on_alloc=0 hugepages=32" --log "build/vm-logs/demo-$kernel.log"
