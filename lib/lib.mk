# SPDX-License-Identifier: GPL-2.0
#
# lib/lib.mk - libhybridnet, the user-space API of /dev/hybridnet; included
# from kmod/kmod.mk.  $(O)/libhybridnet.a links statically too (the VM
# test programs are linked with -static against it).

HNLIB_SRC	:= $(wildcard lib/*.c)
HNLIB_OBJ	:= $(HNLIB_SRC:lib/%.c=$(O)/lib/%.o)
HNLIB		:= $(O)/libhybridnet.a

lib: $(HNLIB)

$(O)/lib/%.o: lib/%.c lib/libhybridnet.h uapi/linux/hybridnet.h
	@mkdir -p $(@D)
	$(CC) $(BASE) $(CFLAGS) -c $< -o $@

$(HNLIB): $(HNLIB_OBJ)
	$(AR) rcs $@ $^
