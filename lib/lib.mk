# SPDX-License-Identifier: GPL-2.0
#
# lib/lib.mk - libhybridnet, the user-space API of /dev/hybridnet and of
# the hybridnet generic netlink family; included from kmod/kmod.mk.
# $(O)/libhybridnet.a links statically too (the VM test programs are linked
# with -static against it); $(O)/libhybridnet.so.$(HN_VERSION) is the shared
# library that make install installs, with the soname libhybridnet.so.MAJOR.
# Both are made of the same position-independent objects.
# $(O)/libhybridnet-uninstalled.pc describes the build tree to pkg-config
# (PKG_CONFIG_PATH=$(O)), with the links a linker and the loader look for.
#
# The control plane (lib/hn_ctl*.c) is built on libnl-genl-3: a program
# that calls hn_ctl_*() links with $(HN_NL_LIBS), or, with -static, with
# $(HN_NL_STATIC_LIBS).  One that does not needs neither.

HNLIB_SRC	:= $(wildcard lib/*.c)
HNLIB_OBJ	:= $(HNLIB_SRC:lib/%.c=$(O)/lib/%.o)
# the engine's text of a configuration value (the policy's words) and its
# names of a fabric's switches and links, which the library reads and
# prints as the module does
HNLIB_CORE	:= $(O)/lib/core/cfg_text.o $(O)/lib/core/fab_name.o
HNLIB_OBJ	+= $(HNLIB_CORE)
HNLIB		:= $(O)/libhybridnet.a
HNLIB_SONAME	:= libhybridnet.so.$(firstword $(subst ., ,$(HN_VERSION)))
HNLIB_SO	:= $(O)/libhybridnet.so.$(HN_VERSION)
HNLIB_MAP	:= $(O)/lib/libhybridnet.map
HNLIB_PC_UNINST	:= $(O)/libhybridnet-uninstalled.pc

lib: $(HNLIB) $(HNLIB_SO) $(HNLIB_PC_UNINST)

# libnl's headers as system headers: -Werror is for our code
HN_NL_CFLAGS	:= $(patsubst -I%,-isystem %,$(or \
		   $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null), \
		   -I/usr/include/libnl3))
HN_NL_LIBS	:= $(or $(shell pkg-config --libs libnl-genl-3.0 2>/dev/null), \
		   -lnl-genl-3 -lnl-3)
HN_NL_STATIC_LIBS := -lnl-genl-3 -lnl-3 -lpthread -lm

HN_CTL_OBJ	:= $(filter $(O)/lib/hn_ctl%,$(HNLIB_OBJ))

$(HN_CTL_OBJ): $(O)/lib/%.o: lib/%.c lib/hn_ctl_int.h lib/libhybridnet.h \
		lib/hn_dev_int.h lib/lib.mk \
		uapi/linux/hybridnet.h $(CORE_HDR)
	@mkdir -p $(@D)
	$(CC) $(BASE) $(HN_NL_CFLAGS) $(CFLAGS) -fPIC -c $< -o $@

$(O)/lib/%.o: lib/%.c lib/libhybridnet.h lib/hn_dev_int.h \
		uapi/linux/hybridnet.h lib/lib.mk kmod/core/hn_fields.h
	@mkdir -p $(@D)
	$(CC) $(BASE) $(CFLAGS) -fPIC -c $< -o $@

$(HNLIB_CORE): $(O)/lib/core/%.o: kmod/core/%.c $(CORE_HDR) lib/lib.mk
	@mkdir -p $(@D)
	$(CC) $(BASE) $(CFLAGS) -fPIC -c $< -o $@

$(HNLIB): $(HNLIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# The shared library exports what libhybridnet.h names, and nothing of
# the helpers the library's files share (hn_ctl_int.h).
$(HNLIB_MAP): $(HNLIB_OBJ) lib/libhybridnet.h
	nm -g --defined-only $(HNLIB_OBJ) | awk 'NF == 3 { print $$3 }' | \
		sort -u > $@.defined
	grep -ow 'hn_[a-z0-9_]*' lib/libhybridnet.h | sort -u > $@.named
	{ echo 'HYBRIDNET_0 {'; echo 'global:'; \
	  comm -12 $@.defined $@.named | sed 's/.*/\t&;/'; \
	  echo 'local: *;'; echo '};'; } > $@
	rm -f $@.defined $@.named

$(HNLIB_SO): $(HNLIB_OBJ) $(HNLIB_MAP)
	$(CC) $(CFLAGS) -shared -Wl,-soname,$(HNLIB_SONAME) \
		-Wl,--version-script=$(HNLIB_MAP) -Wl,-z,defs \
		$(HNLIB_OBJ) $(HN_NL_LIBS) -o $@

# the build tree as a package: its .pc and the links -lhybridnet (the
# linker) and the soname (the loader) resolve to
$(HNLIB_PC_UNINST): dist/libhybridnet-uninstalled.pc.in $(HNLIB_SO)
	ln -sf $(notdir $(HNLIB_SO)) $(O)/$(HNLIB_SONAME)
	ln -sf $(HNLIB_SONAME) $(O)/libhybridnet.so
	sed -e 's|@SRCDIR@|$(CURDIR)|' -e 's|@LIBDIR@|$(abspath $(O))|' \
		-e 's|@VERSION@|$(HN_VERSION)|' $< > $@
