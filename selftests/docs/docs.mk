# SPDX-License-Identifier: GPL-2.0
#
# selftests/docs/docs.mk - make check-docs: every example of README.md
# and docs/ runs as written (selftests/docs/check-docs.py, which says how
# a document marks an example that cannot run here).  Included by the
# top-level Makefile after vm.mk and samples.mk.

HN_DOCS		:= README.md $(wildcard docs/*.md docs/results/*.md)

.PHONY: check-docs
CHECK_STEPS += check-docs

# the VM's examples in one boot of make vm-run, the host's here
check-docs: $(HN_INITRD) $(HN_VM_HOSTBIN) $(HN_SAMPLES)
	@mkdir -p $(O)/tap
	@selftests/docs/check-docs.py -O $(O) $(HN_DOCS) > $(O)/tap/$@.tap; \
	rc=$$?; cat $(O)/tap/$@.tap; exit $$rc
