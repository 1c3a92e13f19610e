# SPDX-License-Identifier: GPL-2.0
#
# tools/hnctl/hnctl.mk - hnctl, the control tool of the hybridnet generic
# netlink family; included by the top-level Makefile (after lib/lib.mk,
# which kmod/kmod.mk includes).  It links the engine too (libhncore.a):
# a dry run (-n) checks a preload with the module's own code.
#
#   make hnctl          $(O)/hnctl, linked with the system's libnl
#   make hnctl-static   $(O)/static/hnctl, static, for the VM's initramfs
#   make check-hnctl    its user-space tests (no module needed): TAP to
#                       $(O)/tap/check-hnctl.tap; a step of "make check"

HNCTL_SRC	:= $(wildcard tools/hnctl/*.c) $(COMMON_SRC)
HNCTL_HDR	:= $(wildcard tools/hnctl/*.h) $(COMMON_HDR)
HNCTL		:= $(O)/hnctl
HNCTL_STATIC	:= $(O)/static/hnctl

.PHONY: hnctl hnctl-static check-hnctl
all: $(HNCTL)
hnctl: $(HNCTL)
hnctl-static: $(HNCTL_STATIC)

$(HNCTL): $(HNCTL_SRC) $(HNCTL_HDR) $(HNLIB) $(O)/libhncore.a \
		tools/hnctl/hnctl.mk
	$(CC) $(BASE) $(HN_NL_CFLAGS) $(CFLAGS) -Itools/hnctl $(HNCTL_SRC) \
		$(HNLIB) $(O)/libhncore.a $(HN_NL_LIBS) -o $@

# libnl's static archives come with Debian's libnl-3-dev/libnl-genl-3-dev
$(HNCTL_STATIC): $(HNCTL_SRC) $(HNCTL_HDR) $(HNLIB) $(O)/libhncore.a \
		tools/hnctl/hnctl.mk
	@mkdir -p $(@D)
	$(CC) $(BASE) $(HN_NL_CFLAGS) $(CFLAGS) -static -Itools/hnctl \
		$(HNCTL_SRC) $(HNLIB) $(O)/libhncore.a $(HN_NL_STATIC_LIBS) -o $@

CHECK_STEPS += check-hnctl

# hnsim too: the tests hold its --pretty to hnctl's
check-hnctl: $(HNCTL) $(TOOLS)
	@mkdir -p $(O)/tap
	@selftests/hnctl/test-parse.sh $(HNCTL) > $(O)/tap/check-hnctl.tap; \
	rc=$$?; cat $(O)/tap/check-hnctl.tap; exit $$rc
