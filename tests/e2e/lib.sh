# SPDX-License-Identifier: GPL-2.0
# Helpers of tests/e2e/ (and tests/install-deps.sh).
#
# archive_uri: the URI of this machine's bookworm archive, from deb822 or
# one-line APT sources.
archive_uri() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '
			/^URIs:/ { uri = $2 }
			/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") found = 1 }
			/^$/ { if (found && uri) { print uri; exit } found = 0; uri = "" }
			END { if (found && uri) print uri }
		' "$f" | head -n 1
	done
	{ grep -hsE '^deb\s' /etc/apt/sources.list /etc/apt/sources.list.d/*.list || true; } |
		awk '$3 == "bookworm" { print $2 }'
}

# chroot_mount ROOT: /proc, /sys and /dev for package scripts in ROOT, and
# no service started from them. chroot_umount ROOT undoes it (also after a
# partial mount).
chroot_mount() {
	mount -t proc proc "$1/proc"
	mount -t sysfs sysfs "$1/sys"
	mount --bind /dev "$1/dev"
	mount --bind /dev/pts "$1/dev/pts"
	printf '#!/bin/sh\nexit 101\n' > "$1/usr/sbin/policy-rc.d"
	chmod +x "$1/usr/sbin/policy-rc.d"
}
chroot_umount() {
	local m
	rm -f "$1/usr/sbin/policy-rc.d"
	for m in dev/pts dev proc sys; do umount "$1/$m" 2>/dev/null || true; done
}
