#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documentation says what the programs and the module do, no more, no
# less: each check compares a list taken from a program (its --help, the
# metrics it writes, the module's sources) with the same list taken from
# its documentation, both ways, and names what is in one and not the
# other.
#  - clearpagectl: its commands and options, and the commands its bash
#    completion offers;
#  - clearpaged: its options, and every setting (with its section) in
#    clearpaged.conf(5);
#  - clearpage-bench: its commands, and each command's options in the
#    command's synopsis in clearpage-bench(1);
#  - the metrics, with their labels, in clearpaged.conf(5);
#  - the ABI: every sysfs file, module parameter and uevent variable of the
#    module in doc/ABI, every netlink attribute documented beside its
#    enumerator in the uapi header.
#
#   tests/doc/test-docs.sh CLEARPAGECTL CLEARPAGED CLEARPAGE_BENCH TEST_METRICS SRCDIR
set -u
ctl=$1 daemon=$2 bench=$3 metrics=$4 top=$5
man=$top/doc/man
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
passed=0 failed=0

# same NAME PROGRAM_LIST_FILE MAN_LIST_FILE
same() {
	local name=$1 only_prog only_man
	sort -u "$2" >"$out/a"
	sort -u "$3" >"$out/b"
	only_prog=$(comm -23 "$out/a" "$out/b" | tr '\n' ' ')
	only_man=$(comm -13 "$out/a" "$out/b" | tr '\n' ' ')
	if [ ! -s "$out/a" ]; then
		failed=$((failed + 1)); echo "FAIL: $name: nothing found in the program"
	elif [ -z "$only_prog$only_man" ]; then
		passed=$((passed + 1)); echo "PASS: $name ($(wc -l <"$out/a") entries)"
	else
		failed=$((failed + 1))
		echo "FAIL: $name: only in the program: ${only_prog:-none}; only in the man page: ${only_man:-none}"
	fi
}

# A man page as text to grep: \- is -, font escapes gone.
text() { sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\(em/--/g' "$1"; }
# The lines of section NAME (.SH or .SS) of man page FILE.
section() { text "$1" | sed -n "/^\.S[HS] \"\?$2\"\?\$/,/^\.S[HS] /p" | sed '$d'; }
# The long options in standard input.
options() { grep -o -- '--[a-z][a-z0-9-]*[a-z0-9]' | sort -u; }
# The words that start entries (.TP then .B/.BR/.BI WORD) in standard input.
entries() { awk 'prev == ".TP" && $1 ~ /^\.B[RI]?$/ { print $2 } { prev = $1 }' | tr -d '"'; }

# clearpagectl
"$ctl" --help | sed -n '/^Commands:/,/^$/p' | awk '/^  [a-z]/ { print $1 }' >"$out/prog"
section "$man/clearpagectl.8" COMMANDS | entries >"$out/man"
same "clearpagectl: commands in --help and clearpagectl(8)" "$out/prog" "$out/man"
"$ctl" --help | options >"$out/prog"
text "$man/clearpagectl.8" | options >"$out/man"
same "clearpagectl: options in --help and clearpagectl(8)" "$out/prog" "$out/man"
sed -n 's/.*local commands="\([^"]*\)".*/\1/p' "$top/ctl/clearpagectl.bash-completion" | tr ' ' '\n' | grep -vx help >"$out/compl"
"$ctl" --help | sed -n '/^Commands:/,/^$/p' | awk '/^  [a-z]/ { print $1 }' >"$out/prog"
same "clearpagectl: commands in --help and its bash completion" "$out/prog" "$out/compl"

# clearpaged
"$daemon" --help | sed -n '1,/^Configuration:/p' | options >"$out/prog"
section "$man/clearpaged.8" OPTIONS | options >"$out/man"
same "clearpaged: options in --help and clearpaged(8) OPTIONS" "$out/prog" "$out/man"
sed -n 's/.*compgen -W "\([^"]*\)".*/\1/p' "$top/daemon/clearpaged.bash-completion" | options >"$out/compl"
same "clearpaged: options in --help and its bash completion" "$out/prog" "$out/compl"
"$daemon" --help | awk '/^\[/ { s = $1 } /^[A-Z][A-Za-z]*=/ { sub(/=.*/, "="); print s " " $0 }' |
	sed 's/\[Node\.N\]/[Node.N]/' >"$out/prog"
text "$man/clearpaged.conf.5" | awk '
	/^\.SH \[/ { s = $2 }
	prev == ".TP" && $1 ~ /^\.B[R]?$/ {
		for (i = 2; i <= NF; i++) if ($i ~ /^[A-Z][A-Za-z]*=$/) print s " " $i
	}
	{ prev = $1 }' >"$out/man"
same "clearpaged: settings in --help and clearpaged.conf(5), by section" "$out/prog" "$out/man"

# clearpage-bench
"$bench" --help | sed -n '/^Commands:/,/^$/p' | awk '/^  [a-z]/ { print $1 }' >"$out/cmds"
text "$man/clearpage-bench.1" | sed -n 's/^\.SS \([a-z]*\)$/\1/p' >"$out/man"
same "clearpage-bench: commands in --help and clearpage-bench(1)" "$out/cmds" "$out/man"
while read -r cmd; do
	"$bench" "$cmd" --help 2>&1 | options | grep -vx -- --help >"$out/prog"
	section "$man/clearpage-bench.1" SYNOPSIS |
		sed -n "/^\.B clearpage-bench $cmd\$/,/^\.br\$/p" | options >"$out/man"
	same "clearpage-bench $cmd: options in its --help and its synopsis in clearpage-bench(1)" "$out/prog" "$out/man"
done <"$out/cmds"

# Metrics: NAME{LABELS} from the program, as clearpaged.conf(5) writes them.
"$metrics" --dump | awk '
	/^# TYPE/ { want = 1; next }
	want && /^[a-z]/ { l = $1; sub(/ .*/, "", l); gsub(/="([^"\\]|\\.)*"/, "", l); print l; want = 0 }' >"$out/prog"
text "$man/clearpaged.conf.5" | grep -o 'clearpaged\?_[a-z_]*\({[a-z_,]*}\)\?' |
	grep -v '_$' >"$out/man"
same "metrics and their labels in the program and clearpaged.conf(5)" "$out/prog" "$out/man"

# The ABI, written once: doc/ABI has every sysfs file, module parameter
# and uevent variable the module has (its test hooks, testing.c, aside),
# and the uapi header documents every netlink attribute beside its
# enumerator.
abi=$top/doc/ABI/sysfs-kernel-clearpage
kmod_sources() { ls "$top"/kmod/*.c | grep -v /testing.c; }
sed -n 's/.*__ATTR_RO(\([a-z_]*\)).*/\1/p' "$top/kmod/sysfs.c" >"$out/prog"
sed -n 's/^NODE_ATTR(\([a-z_0-9]*\),.*/node\/\1/p' "$top/kmod/sysfs.c" >>"$out/prog"
sed -n 's|^What:\t*/sys/kernel/clearpage/\([a-z_]*\)$|\1|p; s|^What:\t*/sys/kernel/clearpage/nodeN/\([a-z_0-9]*\)$|node/\1|p' "$abi" >"$out/man"
same "sysfs files in kmod/sysfs.c and doc/ABI" "$out/prog" "$out/man"
# module_param(), module_param_cb(), and params.c's UINT_PARAM(name, ...).
sed -n 's/^\(module_param\(_cb\)\?\|UINT_PARAM\)(\([a-z_]*\),.*/\3/p' $(kmod_sources) >"$out/prog"
sed -n 's|^What:\t*/sys/module/clearpage/parameters/\([a-z_]*\)$|\1|p' "$abi" >"$out/man"
same "module parameters in kmod/ and doc/ABI" "$out/prog" "$out/man"
section "$man/clearpage.4" "MODULE PARAMETERS" | entries | sed 's/=.*//' >"$out/man"
same "module parameters in kmod/ and clearpage(4)" "$out/prog" "$out/man"
grep -ho '"CLEARPAGE_[A-Z]*=' $(kmod_sources) | tr -d '"' >"$out/prog"
grep -o 'CLEARPAGE_[A-Z]*=' "$abi" >"$out/man"
same "uevent variables in kmod/ and doc/ABI" "$out/prog" "$out/man"
awk '/^enum clearpage_(attr|backend_attr|strategy_attr) \{/ { e = 1; next }
	e && /^\};/ { e = 0 }
	e && /^\tCLEARPAGE_[ABS]_[A-Z0-9_]*,/ && !/_UNSPEC,/ && !/\/\*/ { print $1 }' \
	"$top/include/uapi/clearpage.h" >"$out/undocumented"
awk '/^\tCLEARPAGE_[ABS]_/ { n++ } END { print n + 0 }' "$top/include/uapi/clearpage.h" >"$out/count"
if [ "$(cat "$out/count")" -gt 30 ] && [ ! -s "$out/undocumented" ]; then
	passed=$((passed + 1)); echo "PASS: every netlink attribute documented beside its enumerator ($(cat "$out/count"))"
else
	failed=$((failed + 1))
	echo "FAIL: netlink attributes without a comment beside them: $(tr '\n' ' ' <"$out/undocumented")"
fi

# One version, meson's: the Debian package, every man page, the module
# (kmod/tree.sh hands it to Kbuild) and the programs' --version.
version=$(sed -n "s/^ *version: *'\([^']*\)'.*/\1/p" "$top/meson.build" | head -n 1)
{
	echo "debian/changelog $(sed -n '1s/^clearpage (\([^)]*\)).*/\1/p' "$top/debian/changelog")"
	for f in "$man"/*.[0-9]; do
		echo "${f#"$top"/} $(sed -n '1s/^\.TH [^ ]* [0-9] [0-9-]* "clearpage \([^"]*\)".*/\1/p' "$f")"
	done
	echo "clearpagectl $("$ctl" --version | cut -d' ' -f2)"
	echo "clearpaged $("$daemon" --version | cut -d' ' -f2)"
} | awk -v v="$version" '$2 != v { print $1 " has \"" $2 "\"" }' >"$out/stale"
if [ -n "$version" ] && [ ! -s "$out/stale" ]; then
	passed=$((passed + 1)); echo "PASS: one version ($version) in meson.build, debian/changelog, the man pages and the programs"
else
	failed=$((failed + 1))
	echo "FAIL: not meson.build's version (${version:-none}): $(tr '\n' ';' <"$out/stale")"
fi

# The allowlist: every entry rests on evidence named in the comment block
# above it, a file of doc/results that is there or a published source.
allowlist=$top/conf/cpu-allowlist.conf
awk -v top="$top" '
	/^#/ { if (/^# Evidence: /) ev = substr($0, 13); next }
	/^[ \t]*$/ { ev = ""; next }
	{
		if (ev == "")
			print FILENAME ":" FNR ": no evidence: " $0
		else if (ev ~ /^doc\/results\//) {
			f = ev; sub(/ .*/, "", f)
			if (system("test -f \"" top "/" f "\""))
				print FILENAME ":" FNR ": " f " is not there"
		} else if (ev !~ /^(published|measured for this project)/)
			print FILENAME ":" FNR ": evidence neither a doc/results file nor a source: " ev
	}' "$allowlist" >"$out/evidence"
if [ -s "$out/evidence" ]; then
	failed=$((failed + 1)); echo "FAIL: allowlist entries without their evidence: $(tr '\n' ';' <"$out/evidence")"
else
	passed=$((passed + 1)); echo "PASS: every allowlist entry names its evidence ($(grep -c '^[A-Z]' "$allowlist") entries)"
fi
# README's list of CPUs is the allowlist's: its Intel models and AMD families.
intel=$(awk '$1 == "GenuineIntel" { print $3 }' "$allowlist" | sort -u | sort | paste -sd, | sed 's/,/, /g')
amd=$(awk '$1 == "AuthenticAMD" { print $2 }' "$allowlist" | sort -u | paste -sd, | sed 's/,/, /g')
readme=$(tr '\n' ' ' <"$top/README.md" | tr -s ' ')
if [ -n "$intel" ] && [ -n "$amd" ] &&
   echo "$readme" | grep -qF "Intel family 6 models $intel " &&
   echo "$readme" | grep -qF "AMD families $amd "; then
	passed=$((passed + 1)); echo "PASS: README names the allowlist's CPUs (Intel $intel; AMD $amd)"
else
	failed=$((failed + 1))
	echo "FAIL: README does not say \"Intel family 6 models $intel\" and \"AMD families $amd\", the allowlist's CPUs"
fi
# README is the administrator's page: 200 lines at most.
lines=$(wc -l <"$top/README.md")
if [ "$lines" -le 200 ]; then
	passed=$((passed + 1)); echo "PASS: README is $lines lines (200 at most)"
else
	failed=$((failed + 1)); echo "FAIL: README is $lines lines, more than 200: move detail to doc/"
fi

# Every man page formats without a groff warning (-ww: all of them).
skipped=0
if command -v groff >/dev/null; then
	for f in "$man"/*.[0-9]; do
		if w=$(LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$f" 2>&1) && [ -z "$w" ]; then
			passed=$((passed + 1)); echo "PASS: ${f#"$top"/} formats without a warning"
		else
			failed=$((failed + 1)); echo "FAIL: ${f#"$top"/}: $(echo "$w" | head -n 3 | tr '\n' '|')"
		fi
	done
else
	skipped=$((skipped + 1)); echo "SKIP: groff is not installed: the man pages' formatting is not checked"
fi

echo "$passed passed, $failed failed, $skipped skipped"
[ $failed = 0 ]
