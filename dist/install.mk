# SPDX-License-Identifier: GPL-2.0
#
# dist/install.mk - install hybridnet as a module and a tool set; included
# by the top-level Makefile (last, so everything it installs has a rule).
#
#   make install          the tools (and hnplot), libhybridnet (.so, .a,
#                         libhybridnet.pc), the headers, the man pages, bash
#                         completion, the Wireshark dissector and the udev
#                         rule, under $(DESTDIR)$(PREFIX); iproute2's plugin
#                         for the link kind where Debian's ip loads it
#   make uninstall        remove them
#   make modules_install  kmod/hybridnet.ko into
#                         $(INSTALL_MOD_PATH)/lib/modules/KREL/extra/, then
#                         depmod, so that "modprobe hybridnet" finds it
#   make dkms-src         the module's sources and dkms.conf into
#                         $(DESTDIR)/usr/src/hybridnet-$(HN_VERSION)/, for
#                         "dkms add -m hybridnet -v $(HN_VERSION)"
#   make check-install    all of it into temporary directories (a step of
#                         make check; selftests/install/test-install.sh)
#   make check-man        the man pages (selftests/install/test-man.sh)
#   make check-dkms       a DKMS build in a private tree (test-dkms.sh)
#   make check-help       make help against the targets (test-help.sh)
#   make check-fields     every list of the configuration fields against
#                         their table (test-fields.sh)
#   make check-next-field in a copy of the tree, a field added to the five
#                         files the table names, found everywhere
#                         (test-next-field.sh)
#   make man-path         links to the built pages in $(O)/man/manN/, and
#                         the MANPATH that finds them before the system's:
#                         export MANPATH=$$(make -s man-path); man hybridnet

PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
MANDIR		?= $(PREFIX)/share/man
PKGCONFIGDIR	?= $(LIBDIR)/pkgconfig
BASHCOMPDIR	?= $(PREFIX)/share/bash-completion/completions
# Wireshark's global Lua plugins under PREFIX; Debian's Wireshark reads
# /usr/lib/x86_64-linux-gnu/wireshark/plugins (tshark -G folders)
WIRESHARKDIR	?= $(LIBDIR)/wireshark/plugins
# udev reads /etc/udev/rules.d and /usr/lib/udev/rules.d, never PREFIX
UDEVRULESDIR	?= /etc/udev/rules.d
# Debian's ip loads a link kind's plugin from its LIBDIR/ip, never PREFIX's
# (or from $$IP_LIB_DIR): /usr/lib/x86_64-linux-gnu/ip
HN_MULTIARCH	:= $(or $(shell $(CC) -print-multiarch 2>/dev/null),x86_64-linux-gnu)
IPLIBDIR	?= /usr/lib/$(HN_MULTIARCH)/ip
DKMSSRCDIR	?= /usr/src/hybridnet-$(HN_VERSION)

HN_TOOLS	:= hnctl hnsim hntraffic
# scripts, installed as they are: hnplot draws hnsim run --csv with gnuplot
HN_SCRIPTS	:= dist/hnplot
# the man pages as built: a page's line '.\" @FIELDS@' becomes its list
# of the configuration fields, made from the one table by man-fields.c,
# as module parameters and hnsim keys (param) or as hnctl's keys (hnctl)
HN_MANS		:= $(O)/man/hnctl.8 $(O)/man/hnsim.1 $(O)/man/hntraffic.1 \
		   $(O)/man/hybridnet.4 $(O)/man/hnplot.1
HN_MAN_FIELDS_hnctl.8	  := hnctl
HN_MAN_FIELDS_hnsim.1	  := param
HN_MAN_FIELDS_hybridnet.4 := param
HN_UDEV		:= dist/60-hybridnet.rules
HN_LUA		:= dist/wireshark/hybridnet.lua
# what make install puts in place, and make uninstall removes
HN_INSTALLED	:= $(HN_TOOLS:%=$(BINDIR)/%) \
		   $(HN_SCRIPTS:dist/%=$(BINDIR)/%) \
		   $(LIBDIR)/libhybridnet.so.$(HN_VERSION) \
		   $(LIBDIR)/$(HNLIB_SONAME) $(LIBDIR)/libhybridnet.so \
		   $(LIBDIR)/libhybridnet.a $(PKGCONFIGDIR)/libhybridnet.pc \
		   $(INCLUDEDIR)/libhybridnet.h $(INCLUDEDIR)/hn_fields.h \
		   $(INCLUDEDIR)/linux/hybridnet.h \
		   $(foreach m,$(HN_MANS),$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m))) \
		   $(HN_TOOLS:%=$(BASHCOMPDIR)/%) \
		   $(WIRESHARKDIR)/$(notdir $(HN_LUA)) \
		   $(UDEVRULESDIR)/$(notdir $(HN_UDEV)) \
		   $(IPLIBDIR)/$(notdir $(HN_IPLINK))

all: $(HN_MANS)

$(O)/man-fields: man/man-fields.c $(O)/libhncore.a $(CORE_HDR)
	$(CC) $(BASE) $(CFLAGS) $< $(O)/libhncore.a -o $@

$(O)/man/%: man/% $(O)/man-fields dist/install.mk
	@mkdir -p $(@D)
	awk -v gen='$(O)/man-fields $(HN_MAN_FIELDS_$*)' \
		'/^\.\\" @FIELDS@$$/ { fflush(); if (system(gen)) exit 1; next } \
		 { print }' $< > $@.tmp && mv $@.tmp $@

.PHONY: install uninstall modules_install dkms-src man-path
.PHONY: check-install check-man check-dkms check-help check-fields \
	check-next-field
CHECK_STEPS += check-help check-man check-fields check-next-field \
	check-install check-dkms

# libhybridnet.pc's directories, relative to ${prefix} when they are
# under PREFIX, so that pkg-config --define-prefix can move the tree
HN_PC_LIBDIR	 = $(patsubst $(PREFIX)/%,$${prefix}/%,$(LIBDIR))
HN_PC_INCLUDEDIR = $(patsubst $(PREFIX)/%,$${prefix}/%,$(INCLUDEDIR))

install: $(HN_TOOLS:%=$(O)/%) $(HNLIB) $(HNLIB_SO) $(HN_MANS) $(HN_IPLINK)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(LIBDIR) \
		$(DESTDIR)$(PKGCONFIGDIR) $(DESTDIR)$(INCLUDEDIR)/linux \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(UDEVRULESDIR) \
		$(DESTDIR)$(WIRESHARKDIR) $(DESTDIR)$(IPLIBDIR) \
		$(sort $(foreach m,$(HN_MANS),$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(m)))))
	install -m 0755 $(HN_TOOLS:%=$(O)/%) $(HN_SCRIPTS) $(DESTDIR)$(BINDIR)/
	install -m 0755 $(HNLIB_SO) $(DESTDIR)$(LIBDIR)/
	ln -sf libhybridnet.so.$(HN_VERSION) $(DESTDIR)$(LIBDIR)/$(HNLIB_SONAME)
	ln -sf $(HNLIB_SONAME) $(DESTDIR)$(LIBDIR)/libhybridnet.so
	install -m 0644 $(HNLIB) $(DESTDIR)$(LIBDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(HN_PC_LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(HN_PC_INCLUDEDIR)|' \
		-e 's|@VERSION@|$(HN_VERSION)|' \
		dist/libhybridnet.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/libhybridnet.pc
	install -m 0644 lib/libhybridnet.h kmod/core/hn_fields.h \
		$(DESTDIR)$(INCLUDEDIR)/
	install -m 0644 uapi/linux/hybridnet.h $(DESTDIR)$(INCLUDEDIR)/linux/
	$(foreach m,$(HN_MANS),install -m 0644 $(m) \
		$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(m)))/ &&) true
	$(foreach t,$(HN_TOOLS),install -m 0644 dist/bash-completion/$(t) \
		$(DESTDIR)$(BASHCOMPDIR)/ &&) true
	install -m 0644 $(HN_LUA) $(DESTDIR)$(WIRESHARKDIR)/
	install -m 0644 $(HN_UDEV) $(DESTDIR)$(UDEVRULESDIR)/
	install -m 0644 $(HN_IPLINK) $(DESTDIR)$(IPLIBDIR)/
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then \
		ldconfig; \
		udevadm control --reload 2>/dev/null || true; \
	fi

uninstall:
	rm -f $(HN_INSTALLED:%=$(DESTDIR)%)
	-rmdir $(DESTDIR)$(INCLUDEDIR)/linux 2>/dev/null
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then ldconfig; fi

# the trailing colon: man-db appends the system's path
man-path: $(HN_MANS)
	@$(foreach m,$(HN_MANS),mkdir -p $(O)/man/man$(subst .,,$(suffix $(m))) && \
		ln -sf ../$(notdir $(m)) $(O)/man/man$(subst .,,$(suffix $(m)))/ &&) true
	@echo "$(abspath $(O))/man:"

# Kbuild's modules_install runs depmod only when the kernel tree has a
# System.map, which a headers package lacks: so depmod here.  A module
# built for another kernel than the running one goes where that kernel
# looks (HN_KREL: KDIR's release).  O= keeps our O (build/) from Kbuild,
# which reads it as its output tree.  Debian's headers lack the key
# Debian signs its modules with: Kbuild would then fail to sign, noisily
# and harmlessly; it does not try (DKMS signs with its own key).
HN_SIGN	:= $(if $(wildcard $(KDIR)/output/signing_key.pem \
			   $(KDIR)/certs/signing_key.pem),,CONFIG_MODULE_SIG_ALL=)

modules_install: $(HN_KO)
	$(MAKE) -C $(KDIR) M=$(realpath $(CURDIR)/kmod) O= $(HN_SIGN) modules_install
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) $(HN_KREL)

# What DKMS builds from: dkms.conf, kmod/ and uapi/ (kmod/Kbuild includes
# ../uapi), without build products.
dkms-src:
	install -d $(DESTDIR)$(DKMSSRCDIR)
	tar -cf - --exclude='*.o' --exclude='*.ko' --exclude='*.cmd' \
		--exclude='*.mod' --exclude='*.mod.c' --exclude='*.order' \
		--exclude='*.symvers' --exclude='kmod.mk' dkms.conf kmod uapi | \
		tar -xf - -C $(DESTDIR)$(DKMSSRCDIR)

check-install: $(HN_TOOLS:%=$(O)/%) $(HNLIB) $(HNLIB_SO) $(HN_MANS) $(HN_KO) $(HN_IPLINK)
	@mkdir -p $(O)/tap
	@selftests/install/test-install.sh $(O) > $(O)/tap/$@.tap; \
	rc=$$?; cat $(O)/tap/$@.tap; exit $$rc

check-man: $(HN_TOOLS:%=$(O)/%) $(HN_KO) $(HN_MANS)
	@mkdir -p $(O)/tap
	@selftests/install/test-man.sh $(O) > $(O)/tap/$@.tap; \
	rc=$$?; cat $(O)/tap/$@.tap; exit $$rc

check-fields: $(HN_TOOLS:%=$(O)/%) $(HN_KO) $(HN_MANS)
	@mkdir -p $(O)/tap
	@selftests/install/test-fields.sh $(O) > $(O)/tap/$@.tap; \
	rc=$$?; cat $(O)/tap/$@.tap; exit $$rc

check-next-field:
	@mkdir -p $(O)/tap
	@selftests/install/test-next-field.sh > $(O)/tap/$@.tap; \
	rc=$$?; cat $(O)/tap/$@.tap; exit $$rc

check-dkms:
	@mkdir -p $(O)/tap
	@selftests/install/test-dkms.sh $(KDIR) > $(O)/tap/$@.tap; \
	rc=$$?; cat $(O)/tap/$@.tap; exit $$rc

check-help:
	@mkdir -p $(O)/tap
	@selftests/install/test-help.sh > $(O)/tap/$@.tap; \
	rc=$$?; cat $(O)/tap/$@.tap; exit $$rc
