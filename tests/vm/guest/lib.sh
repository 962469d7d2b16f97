# Helpers shared by the guest suites: record checks, load and unload the
# module, read sysfs.
CP=/sys/kernel/clearpage
passed=0
failed=0
skipped=0

pass() { passed=$((passed + 1)); echo "PASS: $*"; }
# A failure says when, in seconds since boot: where a suite's time went.
fail() { failed=$((failed + 1)); echo "FAIL: $* (at $(cut -d . -f 1 /proc/uptime) s)"; }
skip() { skipped=$((skipped + 1)); echo "SKIP: $*"; }
info() { echo "INFO: $*"; }
# emit_json KIND FILE: each line of FILE, a clearpagectl --json document,
# for the host to validate against doc/clearpagectl.schema.json (KIND is the
# schema's: status, calibrate, check, list, event; tests/run-all.sh).
emit_json() { sed "s/^/CPVM-JSON|$1|/" "$2"; }
# emit_json_of KIND COMMAND...: the same for a command's output.
emit_json_of() {
	kind=$1
	shift
	"$@" >/tmp/emit.json 2>/dev/null
	emit_json "$kind" /tmp/emit.json
}

# clearpagectl status with its wrapped lines joined (continuations are
# indented by 8 spaces), for checks that grep a whole line.
status_text() {
	clearpagectl status "$@" | awk '/^        [^ ]/ && NR > 1 { sub(/^ +/, ""); line = line " " $0; next }
		NR > 1 { print line } { line = $0 } END { if (NR) print line }'
}
# status_has PATTERN: a line of status_text matches the grep PATTERN.
status_has() { status_text | grep -q "$1"; }

# check NAME COMMAND...: pass when the command succeeds.
check() {
	name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}

summary() {
	echo "CPVM-SUMMARY: $passed passed, $failed failed, $skipped skipped"
	echo "CPVM-END"
}

load_module() {
	insmod /modules/${1:-clearpage}.ko $2 || return 1
	wait_livepatch
}

# Wait until the livepatch transition has finished (at most 60 s).
wait_livepatch() {
	i=0
	while [ -f /sys/kernel/livepatch/clearpage/transition ] &&
	      [ "$(cat /sys/kernel/livepatch/clearpage/transition)" = 1 ]; do
		i=$((i + 1))
		[ $i -gt 600 ] && return 1
		sleep 0.1
	done
	return 0
}

nodes() { for d in $CP/node*; do echo "${d##*/node}"; done; }
strategies() { cat $CP/available_strategies; }

# current_strategy NODE: the bracketed name in nodeN/strategy.
current_strategy() {
	sed -n 's/.*\[\([a-z_]*\)\].*/\1/p' $CP/node$1/strategy
}

# backend_strategy NODE 4k|huge: the bracketed name in nodeN/strategy_BACKEND.
backend_strategy() {
	sed -n 's/.*\[\([a-z_]*\)\].*/\1/p' $CP/node$1/strategy_$2
}

# fault NAME CPTEST-ARGS...: run one checked fault workload; the pages it
# checked add up in total_pages.
total_pages=0
fault() {
	name=$1
	shift
	out=$(cptest fault "$@" 2>&1)
	rc=$?
	pages=$(echo "$out" | sed -n 's/.*pages=\([0-9]*\).*/\1/p' | tail -n 1)
	total_pages=$((total_pages + ${pages:-0}))
	check "$name: $(echo "$out" | tr '\n' ' ')" test $rc -eq 0
}

# stat_value NODE KEY
stat_value() { awk -v k="$2" '$1 == k { print $2 }' $CP/node$1/stats; }

set_all() { for n in $(nodes); do echo "$1" > $CP/node$n/strategy || return 1; done; }

# wait_log PATTERN [COUNT [SECONDS]]: until the daemon's log $DLOG holds
# COUNT lines matching PATTERN, for at most SECONDS (default
# $WAIT_LOG_SECONDS, else 30).
wait_log() {
	# Local: a caller's loop over n (node 0 1) must survive the count.
	local i=0 n
	# A log not there yet (the daemon not started) holds nothing: no
	# empty count that ends the wait as if it held everything.
	while n=$(grep -c -- "$1" "$DLOG" 2>/dev/null); [ "${n:-0}" -lt "${2:-1}" ]; do
		i=$((i + 1))
		[ $i -gt $((${3:-${WAIT_LOG_SECONDS:-30}} * 10)) ] && return 1
		sleep 0.1
	done
}

# stop_job PID [SECONDS]: SIGTERM to a background job, then its exit
# status. One still running SECONDS later (default 30) is a failed check,
# killed (status 137): a hang is named where it happens instead of running
# the suite into the VM's timeout.
stop_job() {
	kill -TERM $1 2>/dev/null
	t=$((${2:-30} * 10))
	# Exited: gone, or a zombie until the wait below reaps it.
	while [ -d /proc/$1 ] && ! grep -q '^[0-9]* (.*) Z ' /proc/$1/stat 2>/dev/null; do
		t=$((t - 1))
		if [ $t -le 0 ]; then
			fail "pid $1 ($(tr '\0' ' ' </proc/$1/cmdline 2>/dev/null)) still running ${2:-30} s after SIGTERM: killed"
			kill -KILL $1 2>/dev/null
			wait $1
			return 137
		fi
		sleep 0.1
	done
	wait $1
}

# wait_for SECONDS COMMAND...: until COMMAND succeeds.
wait_for() {
	t=$(($1 * 10))
	shift
	while ! "$@" 2>/dev/null; do
		t=$((t - 1))
		[ $t -gt 0 ] || return 1
		sleep 0.1
	done
}

# no_transition PATCH: the livepatch PATCH is in no transition.
no_transition() { test "$(cat /sys/kernel/livepatch/$1/transition)" = 0; }

# background_faults DIR SECONDS: 4 KiB (MADV_DONTNEED again and again) and
# THP faults on node 0, forked 4 KiB and hugetlb faults on node 1, over
# memory filled with a pattern, every byte checked, for SECONDS (or until
# SIGTERM ends the round); their output in DIR/a ... DIR/d, their jobs in
# $fault_jobs for wait_jobs.
background_faults() {
	mkdir -p $1
	cptest fault --kind 4k --node 0 --mb 16 --seconds $2 --dirty --dontneed >$1/a 2>&1 &
	fault_jobs="a:$!"
	cptest fault --kind thp --node 0 --mb 16 --seconds $2 --dirty --fault-at random >$1/b 2>&1 &
	fault_jobs="$fault_jobs b:$!"
	cptest fault --kind 4k --node 1 --mb 16 --seconds $2 --dirty --fork >$1/c 2>&1 &
	fault_jobs="$fault_jobs c:$!"
	cptest fault --kind hugetlb --node 1 --mb 8 --seconds $2 --dirty --fault-at random >$1/d 2>&1 &
	fault_jobs="$fault_jobs d:$!"
}

# wait_jobs DIR WHAT NAME:PID...: wait for each job, one check of its exit
# status with its output (DIR/NAME) each; the pages it checked add up in
# total_pages.
wait_jobs() {
	dir=$1 what=$2
	shift 2
	for job in "$@"; do
		wait ${job##*:}
		rc=$?
		out=$(tr '\n' ' ' < $dir/${job%%:*})
		pages=$(echo "$out" | sed -n 's/.*pages=\([0-9]*\).*/\1/p')
		total_pages=$((total_pages + ${pages:-0}))
		check "$what ${job%%:*}: $out" test $rc -eq 0
	done
}
