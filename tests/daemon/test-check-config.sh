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
passed=0 failed=0 skipped=0

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

# A drop-in vetted before it is installed: FILE after --check-config,
# applied on top of what is installed, listed after it.
fresh '[Daemon]\nInterval=2\n'
printf '[Policy]\nMargin=0.4\n' > "$out/candidate.conf"
check "--check-config FILE: a good drop-in passes, applied last" \
	sh -c "'$clearpaged' --check-config --config-root '$out/root' '$out/candidate.conf' >'$out/stdout' 2>'$out/stderr' && ! test -s '$out/stderr' && grep -qx 'Margin=0.4' '$out/stdout' && grep -qx 'Interval=2' '$out/stdout' && grep -q '^# $out/candidate.conf (from the command line, not installed)' '$out/stdout'"
printf '[Daemon]\nInterval=fast\nDryRun=maybe\n[Policy]\nColdStrategy=fast\n' > "$out/bad.conf"
check "--check-config FILE: every error of it, each with file:line" \
	sh -c "'$clearpaged' --check-config --config-root '$out/root' '$out/bad.conf' >/dev/null 2>'$out/stderr'; test \$? -eq 1 &&
	       grep -q '^clearpaged: $out/bad.conf:2: Interval=fast: expected a time' '$out/stderr' &&
	       grep -q '^clearpaged: $out/bad.conf:3: DryRun=maybe: expected yes or no' '$out/stderr' &&
	       grep -q '^clearpaged: $out/bad.conf:5: ColdStrategy=fast: expected auto' '$out/stderr'"
config_opt() {
	timeout 10 "$clearpaged" --config "$out/root/etc/clearpaged.conf" >"$out/stdout" 2>"$out/stderr"
	test $? -eq 2 && grep -q -- "there is no --config.*--check-config $out/root/etc/clearpaged.conf vets" "$out/stderr"
}
check "--config FILE is refused (exit 2), not taken for --config-root" config_opt
check "a FILE is refused without --check-config (exit 2)" \
	sh -c "'$clearpaged' --config-root '$out/root' '$out/candidate.conf' 2>'$out/stderr'; test \$? -eq 2 && grep -q 'files go with --check-config' '$out/stderr'"
# Every error of the installed files in one pass, across files too, and
# the cross-key error with the lines of both keys.
fresh '[Daemon]\nInterval=-1\n[Policy]\nUpThreshold=0.3\n'
printf '[Policy]\nDownThreshold=0.35\nHotStrategy=hot\n' > "$out/root/etc/clearpaged.conf.d/10-a.conf"
chmod 644 "$out/root/etc/clearpaged.conf.d/10-a.conf"
check "every error of every file in one pass" fails "clearpaged.conf:2: Interval=-1: expected a time"
check "the next file's error too" grep -q "10-a.conf:3: HotStrategy=hot: expected auto" "$out/stderr"
check "the cross-key error names both keys' lines" grep -q "10-a.conf:2: \[Policy\] DownThreshold=0.35 must be below UpThreshold=0.3 (set at $out/root/etc/clearpaged.conf:4)" "$out/stderr"
# Time spans as systemd writes them.
fresh '[Daemon]\nInterval=1500ms\n[Baseline]\nSlowerWindow=2min\nSummaryInterval=1h 30min\n'
check "time spans: 1500ms, 2min, 1h 30min" passes
check "read as seconds" sh -c "grep -qx 'Interval=1.5' '$out/stdout' && grep -qx 'SlowerWindow=120' '$out/stdout' && grep -qx 'SummaryInterval=5400' '$out/stdout'"
# A key in the wrong section names its own.
fresh '[Policy]\nInterval=2\n'
check "a key in the wrong section names its section" fails "unknown key 'Interval' in \[Policy\], ignored: it is a key of \[Daemon\]"
# A node this machine does not have: a warning that fails unless --lenient.
fresh '[Node.1023]\nStrategy=movq\n'
if [ -d /sys/devices/system/node ] && [ ! -e /sys/devices/system/node/node1023 ]; then
	check "[Node.N] beyond this machine's nodes fails, naming the nodes" fails "\[Node.1023\]: this machine has no node 1023 (nodes "
	check "--lenient accepts it with the warning" sh -c \
		"'$clearpaged' --check-config --lenient --config-root '$out/root' >/dev/null 2>'$out/len' && grep -q 'no node 1023' '$out/len'"
else
	echo "SKIP: [Node.N] beyond the nodes: no /sys/devices/system/node here"
	skipped=$((skipped + 1))
fi
# The runtime drop-in directory, between /etc and /usr/lib.
fresh '[Daemon]\nInterval=2\n'
mkdir -p "$out/root/run/clearpaged.conf.d" "$out/root/usr/lib/clearpaged/clearpaged.conf.d"
printf '[Policy]\nMargin=0.7\n' > "$out/root/run/clearpaged.conf.d/30-run.conf"
printf '[Policy]\nMargin=0.9\n' > "$out/root/usr/lib/clearpaged/clearpaged.conf.d/30-run.conf"
printf '[Policy]\nFastGain=3\n' > "$out/root/usr/lib/clearpaged/clearpaged.conf.d/40-lib.conf"
chmod 644 "$out/root/run/clearpaged.conf.d"/*.conf "$out/root/usr/lib/clearpaged/clearpaged.conf.d"/*.conf
check "/run/clearpaged.conf.d: read, and over /usr/lib for the same name" \
	sh -c "'$clearpaged' --check-config --config-root '$out/root' >'$out/stdout' 2>'$out/stderr' && grep -qx 'Margin=0.7' '$out/stdout' && grep -qx 'FastGain=3' '$out/stdout' && grep -q '^# $out/root/run/clearpaged.conf.d/30-run.conf\$' '$out/stdout'"
rm -rf "$out/root/run" "$out/root/usr/lib"
# No file at all: the defaults, said so.
fresh ''
rm "$out/root/etc/clearpaged.conf"
run
check "no file: the built-in defaults, said so" grep -qx '#   none installed: the built-in defaults' "$out/stdout"

echo "$passed passed, $failed failed, ${skipped:-0} skipped"
[ $failed = 0 ]
