#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The module's source tree as Kbuild and DKMS build it: the sources, Kbuild,
# the Makefile and the shared headers side by side. The one recipe for it:
# kmod/build.sh, kmod/dkms-install.sh and debian/rules all call this.
#   kmod/tree.sh SOURCE_TOP DEST [test]
# "test" adds kmod/testing.c, the test build's hooks; a shipped tree never
# has them.
set -eu
top=$1 dest=$2 variant=${3:-}

mkdir -p "$dest/include"
for f in "$top"/kmod/*.c "$top"/kmod/*.h "$top/kmod/Kbuild" "$top/kmod/Makefile"; do
	[ "$variant" = test ] || [ "$(basename "$f")" != testing.c ] || continue
	cp -p "$f" "$dest/"
done
[ "$variant" = test ] || rm -f "$dest/testing.c"
cp -pR "$top/include/." "$dest/include/"
# The one version, meson's, for MODULE_VERSION (Kbuild): a DKMS tree has
# no meson.build beside it.
sed -n "s/^ *version: *'\([^']*\)'.*/\1/p" "$top/meson.build" | head -n 1 > "$dest/version"
[ -s "$dest/version" ] || { echo "tree.sh: no version in $top/meson.build" >&2; exit 1; }
