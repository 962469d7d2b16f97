# Smoke: the module loads, shows its knob, and pages faulted through each
# strategy read as zero. This is what README's main command shows.
if ! load_module clearpage; then
	fail "insmod clearpage.ko"
	return 0
fi
pass "clearpage.ko loaded"
info "available_strategies: $(strategies)"
info "cpu: $(cat $CP/cpu)"
cat $CP/backends | while read -r line; do info "backend: $line"; done
for n in $(nodes); do
	info "node$n/strategy: $(cat $CP/node$n/strategy)"
	for b in 4k huge; do
		cat $CP/node$n/calibration_$b | while read -r line; do info "node$n $b calibration: $line"; done
	done
done
for s in $(strategies); do
	set_all "$s"
	for n in $(nodes); do
		for kind in 4k thp; do
			out=$(cptest fault --kind $kind --node $n --mb 8 --dirty 2>&1)
			check "$s node$n $kind: $out" test $? -eq 0
		done
	done
done
cat $CP/backends | while read -r line; do info "backend: $line"; done
clearpagectl status | while read -r line; do info "clearpagectl status: $line"; done
check "clearpagectl unload" clearpagectl unload
