#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# clearpaged --check-config is a gate: it exits 0 on a configuration the
# daemon applies as written, lists the files it read in order, and exits 1
# with a line naming the file on everything else: an unknown key or
# section (unless --lenient), an allowlist that cannot be read or parsed,
# a file the service's own user cannot read, a MetricsFile= directory that
# is missing or that the service cannot write, a file over 1 MiB or with a
# NUL byte. AllowList= is a path under --config-root.
#
#   tests/daemon/test-check-config.sh CLEARPAGED ALLOWLIST
set -u
clearpaged=$1
allowlist=$2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
# The service's own user must be able to enter the test's directories.
chmod 755 "$out"
passed=0 failed=0

check() {
	local name=$1
	shift
	if "$@" >"$out/last.log" 2>&1; then
		passed=$((passed + 1)); echo "PASS: $name"
	else
		failed=$((failed + 1)); echo "FAIL: $name"; sed 's/^/    /' "$out/last.log"
	fi
}

# fresh: a root with the shipped allowlist where the package puts it and a
# clearpaged.conf of the given text.
fresh() {
	rm -rf "$out/root"
	mkdir -p "$out/root/usr/share/clearpaged" "$out/root/etc/clearpaged.conf.d"
	cp "$allowlist" "$out/root/usr/share/clearpaged/cpu-allowlist.conf"
	chmod 644 "$out/root/usr/share/clearpaged/cpu-allowlist.conf"
	printf "$1" > "$out/root/etc/clearpaged.conf"
	chmod 644 "$out/root/etc/clearpaged.conf"
}
run() { "$clearpaged" --check-config --config-root "$out/root" "$@" >"$out/stdout" 2>"$out/stderr"; }
# passes: exit 0, nothing on stderr.
passes() { run "$@" && ! test -s "$out/stderr"; }
# fails PATTERN: exit 1, and stderr has PATTERN.
fails() {
	local pattern=$1
	shift
	run "$@"
	test $? -eq 1 && grep -q -- "$pattern" "$out/stderr"
}

fresh '[Daemon]\nInterval=2\n'
printf '[Policy]\nMargin=0.2\n' > "$out/root/etc/clearpaged.conf.d/20-b.conf"
printf '[Policy]\nMargin=0.3\n' > "$out/root/etc/clearpaged.conf.d/10-a.conf"
chmod 644 "$out/root/etc/clearpaged.conf.d"/*.conf
check "a good configuration passes" passes
check "it lists the files read, in the order they apply" sh -c \
	"grep '^# /' '$out/stdout' | tr '\n' ' ' | grep -qx '# $out/root/etc/clearpaged.conf # $out/root/etc/clearpaged.conf.d/10-a.conf # $out/root/etc/clearpaged.conf.d/20-b.conf '"
check "and what applies: the last drop-in wins" grep -qx 'Margin=0.2' "$out/stdout"

fresh '[Policy]\nUpTreshold=0.8\n'
check "an unknown key fails, with file:line" fails "clearpaged.conf:2: unknown key 'UpTreshold'"
check "and the count of what the daemon would ignore" grep -q "1 setting the daemon would ignore" "$out/stderr"
check "--lenient accepts it with the warning" sh -c \
	"'$clearpaged' --check-config --lenient --config-root '$out/root' >/dev/null 2>'$out/len' && grep -q UpTreshold '$out/len'"
fresh '[Polcy]\nMargin=0.2\n'
check "an unknown section fails" fails "unknown section \[Polcy\]"
lenient_alone() {
	"$clearpaged" --lenient --config-root "$out/root" >/dev/null 2>"$out/err"
	test $? -eq 2 && grep -q 'only goes with --check-config' "$out/err"
}
check "--lenient without --check-config is refused" lenient_alone

fresh '[Daemon]\nInterval=2\n'
mkdir -p "$out/root/etc/clearpaged/cpu-allowlist.d"
printf 'AuthenticAMD 0x1a\n' > "$out/root/etc/clearpaged/cpu-allowlist.d/50-bad.conf"
chmod 644 "$out/root/etc/clearpaged/cpu-allowlist.d/50-bad.conf"
check "a broken allowlist drop-in fails" fails "50-bad.conf:1"
rm "$out/root/etc/clearpaged/cpu-allowlist.d/50-bad.conf"
rm "$out/root/usr/share/clearpaged/cpu-allowlist.conf"
check "a missing allowlist fails" fails "cpu-allowlist.conf"

fresh '[CPU]\nAllowList=/opt/site/allow.conf\n'
mkdir -p "$out/root/opt/site"
cp "$allowlist" "$out/root/opt/site/allow.conf"
chmod 644 "$out/root/opt/site/allow.conf"
check "AllowList= is a path under --config-root" sh -c \
	"'$clearpaged' --check-config --config-root '$out/root' >'$out/stdout' 2>'$out/stderr' && grep -qx 'AllowList=$out/root/opt/site/allow.conf' '$out/stdout'"

fresh '[Daemon]\nInterval=2\n'
chmod 600 "$out/root/etc/clearpaged.conf"
check "a file the service's user cannot read fails" fails "clearpaged.conf: mode 0600: the service's own user cannot read it"
chmod 644 "$out/root/etc/clearpaged.conf"
printf '[Policy]\nMargin=0.2\n' > "$out/root/etc/clearpaged.conf.d/10-a.conf"
chmod 644 "$out/root/etc/clearpaged.conf.d/10-a.conf"
chmod 700 "$out/root/etc/clearpaged.conf.d"
check "nor one in a directory it cannot enter" fails "cannot enter $out/root/etc/clearpaged.conf.d"
chmod 755 "$out/root/etc/clearpaged.conf.d"

fresh '[Daemon]\nMetricsFile=/var/lib/node-exporter/clearpage.prom\n'
check "a MetricsFile= directory that does not exist fails" fails "the directory $out/root/var/lib/node-exporter does not exist"
mkdir -p "$out/root/var/lib/node-exporter"
chmod 755 "$out/root/var/lib/node-exporter"
check "one only its owner may write fails" fails "cannot write to $out/root/var/lib/node-exporter (mode 0755)"
chmod 775 "$out/root/var/lib/node-exporter"
check "a group-writable one passes" passes

fresh '[Daemon]\nInterval=2\n'
{ printf '[Daemon]\n'; head -c 1048576 /dev/zero | tr '\0' '#'; printf '\nInterval=1000\n'; } > "$out/root/etc/clearpaged.conf"
check "a file over 1 MiB fails, read in no part" fails "larger than 1 MiB"
printf '[Daemon]\nInterval=1\0\nInterval=5\n' > "$out/root/etc/clearpaged.conf"
check "a file with a NUL byte fails" fails "contains a NUL byte"

echo "$passed passed, $failed failed, 0 skipped"
[ $failed = 0 ]
