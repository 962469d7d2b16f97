#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own style checker, --strict, over the module, its shared
# headers and the uapi header: no error, warning or check but the
# exceptions named here.
#
#   tests/checkpatch.sh
#
# checkpatch.pl comes from Debian 12's kernel source package, extracted
# into the cache by tests/install-deps.sh (CLEARPAGE_CACHE).
#
# Exceptions, each for a reason checkpatch cannot know:
#   LINUX_VERSION_CODE, CONSTANT_COMPARISON  the module builds for several
#       kernel series out of tree (kmod/compat.h, the series check in
#       kmod/main.c): "code for the version it is merged into" does not
#       apply, and the version macros read as they do in upstream's own
#       backports;
#   STATIC_CONST_CHAR_ARRAY  the uevent's envp (kmod/sysfs.c) points at
#       buffers on the stack;
#   VOLATILE  the probe's timed load (include/clearpage/probe.h) is
#       shared with user space, which has no READ_ONCE();
#   BIT_MACRO  the same header's shifts: user space has no BIT();
#   LONG_LINE_STRING  a sysfs line kept whole, so that grep finds it (the
#       coding style's own rule for user-visible strings);
#   MACRO_ARG_REUSE  for_each_clearpage_node() names its cursor twice, as
#       every for_each_*() iterator does.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cache=${CLEARPAGE_CACHE:-/var/cache/clearpage-tests}
checkpatch=$cache/checkpatch/scripts/checkpatch.pl
if [ ! -x "$checkpatch" ]; then
	echo "checkpatch.sh: no $checkpatch; run tests/install-deps.sh as root" >&2
	exit 1
fi
cd "$top"
files=(kmod/*.c kmod/*.h include/clearpage/*.h include/uapi/clearpage.h)
"$checkpatch" --no-tree --terse --show-types --strict \
	--ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON,STATIC_CONST_CHAR_ARRAY,VOLATILE,BIT_MACRO,LONG_LINE_STRING,MACRO_ARG_REUSE \
	-f "${files[@]}"
echo "checkpatch.sh: ${#files[@]} files, no error, warning or check (--strict)"
