# Negative control: a test build of the module whose movq strategy clears
# nothing for cptest-victim. The zero-page checks must catch it, or they
# prove nothing.
if ! load_module clearpage-test; then
	fail "insmod clearpage-test.ko"
	return 0
fi
set_all movq
for kind in 4k thp hugetlb; do
	out=$(cptest fault --kind $kind --node 0 --mb 8 --dirty --victim 2>&1)
	rc=$?
	info "broken movq $kind: $(echo "$out" | tr '\n' ' ')"
	check "the $kind check catches a missed clear" test $rc -eq 1
done
check "clearpagectl unload" clearpagectl unload
