# SPDX-License-Identifier: GPL-2.0
#
# lib/lib.mk - libhybridnet, the user-space API of /dev/hybridnet and of
# the hybridnet generic netlink family; included from kmod/kmod.mk.
# $(O)/libhybridnet.a links statically too (the VM test programs are linked
# with -static against it).
#
# The control plane (lib/hn_ctl*.c) is built on libnl-genl-3: a program
# that calls hn_ctl_*() links with $(HN_NL_LIBS), or, with -static, with
# $(HN_NL_STATIC_LIBS).  One that does not needs neither.

HNLIB_SRC	:= $(wildcard lib/*.c)
HNLIB_OBJ	:= $(HNLIB_SRC:lib/%.c=$(O)/lib/%.o)
HNLIB		:= $(O)/libhybridnet.a

lib: $(HNLIB)

# libnl's headers as system headers: -Werror is for our code
HN_NL_CFLAGS	:= $(patsubst -I%,-isystem %,$(or \
		   $(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null), \
		   -I/usr/include/libnl3))
HN_NL_LIBS	:= $(or $(shell pkg-config --libs libnl-genl-3.0 2>/dev/null), \
		   -lnl-genl-3 -lnl-3)
HN_NL_STATIC_LIBS := -lnl-genl-3 -lnl-3 -lpthread -lm

HN_CTL_OBJ	:= $(filter $(O)/lib/hn_ctl%,$(HNLIB_OBJ))

$(HN_CTL_OBJ): $(O)/lib/%.o: lib/%.c lib/hn_ctl_int.h lib/libhybridnet.h \
		uapi/linux/hybridnet.h kmod/core/hn_fields.h
	@mkdir -p $(@D)
	$(CC) $(BASE) $(HN_NL_CFLAGS) $(CFLAGS) -c $< -o $@

$(O)/lib/%.o: lib/%.c lib/libhybridnet.h uapi/linux/hybridnet.h
	@mkdir -p $(@D)
	$(CC) $(BASE) $(CFLAGS) -c $< -o $@

$(HNLIB): $(HNLIB_OBJ)
	$(AR) rcs $@ $^
