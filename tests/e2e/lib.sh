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

# in_chroot ROOT [--bind DIR] COMMAND...: COMMAND in ROOT with /proc,
# /sys and /dev mounted (package scripts and objtool need them), DIR (if
# given) bind-mounted at its own path and the working directory kept, and
# no service started by package scripts. The mounts are made in a mount
# namespace of the command's own: they vanish with it, even when it is
# killed, so nothing is left mounted under ROOT to be removed through, and
# runs side by side do not meet.
in_chroot() {
	local root=$1 dir=
	shift
	if [ "${1:-}" = --bind ]; then
		dir=$2
		shift 2
		mkdir -p "$root$dir"
	fi
	unshare --mount --propagation private sh -c '
		root=$1 dir=$2 cwd=$3
		shift 3
		for m in proc sys dev; do
			mountpoint -q "$root/$m" && umount -l "$root/$m"
		done
		mount -t proc proc "$root/proc" &&
		mount -t sysfs sysfs "$root/sys" &&
		mount --rbind /dev "$root/dev" || exit 1
		if [ -n "$dir" ]; then
			mount --bind "$dir" "$root$dir" || exit 1
		fi
		printf "#!/bin/sh\nexit 101\n" > "$root/usr/sbin/policy-rc.d"
		chmod +x "$root/usr/sbin/policy-rc.d"
		chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			HOME=/root LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
			sh -c "cd \"\$0\" 2>/dev/null || cd /; exec \"\$@\"" "$cwd" "$@"
		rc=$?
		rm -f "$root/usr/sbin/policy-rc.d"
		exit $rc
	' sh "$root" "$dir" "$PWD" "$@"
}

# remove_tree DIR...: rm -rf that never crosses into another file system
# (a mount left under a root by a killed run, /dev included).
remove_tree() {
	rm -rf --one-file-system "$@"
}
