# SPDX-License-Identifier: GPL-2.0
# archive_uri: the URI of this machine's bookworm archive, from deb822 or
# one-line APT sources (sourced by tests/install-deps.sh and tests/e2e/).
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
