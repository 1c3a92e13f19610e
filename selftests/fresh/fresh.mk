# SPDX-License-Identifier: GPL-2.0
#
# selftests/fresh/fresh.mk - make check-fresh: the README's two commands,
# the first time, on a fresh Debian 12 (selftests/fresh/check-fresh.sh).
# Included by the top-level Makefile.
#
#   make check-fresh   a minimal Debian 12 root (debootstrap, kept in
#                      $(HN_CACHE)/fresh-KEY), a clean clone of
#                      HN_FRESH_REF (HEAD) in a copy of it, and there
#                      "make demo" and "make check CHECK_STEPS='check-unit
#                      check-vm'"; TAP to $(O)/tap/check-fresh.tap.  About
#                      11 minutes on 2 cores (a minute more the first
#                      time, for the root).  make check runs it when
#                      HN_FRESH_LANE=1 (.ci/run sets it).

HN_FRESH_REF	?= HEAD

.PHONY: check-fresh
ifeq ($(HN_FRESH_LANE),1)
CHECK_STEPS += check-fresh
endif

# the TAP as it comes (a long step), and the script's status
check-fresh:
	@mkdir -p $(O)/tap
	@{ selftests/fresh/check-fresh.sh -r $(HN_FRESH_REF) -c $(HN_CACHE) \
		-o $(O)/fresh; echo $$? > $(O)/fresh.rc; } | tee $(O)/tap/$@.tap; \
	exit $$(cat $(O)/fresh.rc)
