# SPDX-License-Identifier: GPL-2.0
#
# dist/iproute2/iproute2.mk - iproute2's plugin for the link kind
# hybridnet, $(O)/link_hybridnet.so ("ip link add NAME type hybridnet
# node N"); included by the top-level Makefile, built by make, installed
# by make install (dist/install.mk) where Debian's ip looks for it.  It
# takes the functions it calls from ip itself (undefined here).

HN_IPLINK	:= $(O)/link_hybridnet.so

all: $(HN_IPLINK)

$(HN_IPLINK): dist/iproute2/link_hybridnet.c uapi/linux/hybridnet.h \
		dist/iproute2/iproute2.mk
	@mkdir -p $(@D)
	$(CC) $(BASE) $(CFLAGS) -fPIC -shared $< -o $@
