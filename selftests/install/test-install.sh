#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/install/test-install.sh BUILD - make install, uninstall and
# modules_install into temporary directories: the files and where they
# go (PREFIX, DESTDIR, INSTALL_MOD_PATH), the shared library's soname and
# exports, a program built with pkg-config against the installed tree
# (dynamic and static) and run, the installed man pages and bash
# completion at work, modprobe finding the installed module.  Needs no
# module loaded and changes nothing outside its directory.  Prints TAP.
set -u
cd "$(dirname "$0")/../.."
O=${1:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
. selftests/tap.sh
VER=$(sed -n 's/^HN_VERSION := //p' Makefile)
MAJOR=${VER%%.*}
M="make -s --no-print-directory O=$O"
# where Debian's ip loads plugins from (dist/install.mk's IPLIBDIR)
IPLIB=/usr/lib/$(gcc -print-multiarch)/ip
R=$T/root
P=$R/usr/local

# ---- make install -------------------------------------------------------
check "make install DESTDIR=... (PREFIX /usr/local)" $M install DESTDIR="$R"
sort > "$T/want" <<EOF2
/etc/udev/rules.d/60-hybridnet.rules
/usr/local/bin/hnctl
/usr/local/bin/hnplot
/usr/local/bin/hnsim
/usr/local/bin/hntraffic
/usr/local/include/hn_fields.h
/usr/local/include/libhybridnet.h
/usr/local/include/linux/hybridnet.h
/usr/local/lib/libhybridnet.a
/usr/local/lib/libhybridnet.so -> libhybridnet.so.$MAJOR
/usr/local/lib/libhybridnet.so.$MAJOR -> libhybridnet.so.$VER
/usr/local/lib/libhybridnet.so.$VER
/usr/local/lib/pkgconfig/libhybridnet.pc
/usr/local/lib/wireshark/plugins/hybridnet.lua
/usr/local/share/bash-completion/completions/hnctl
/usr/local/share/bash-completion/completions/hnsim
/usr/local/share/bash-completion/completions/hntraffic
/usr/local/share/man/man1/hnplot.1
/usr/local/share/man/man1/hnsim.1
/usr/local/share/man/man1/hntraffic.1
/usr/local/share/man/man4/hybridnet.4
/usr/local/share/man/man8/hnctl.8
$IPLIB/link_hybridnet.so
EOF2
listing() {	# the files and symlinks under $1, symlinks with their target
	(cd "$1" && find . \( -type f -o -type l \) -printf '/%P%l\n' |
		sed 's/^\(.*\.so[.0-9]*\)\(libhybridnet.*\)$/\1 -> \2/') | sort
}
listing "$R" > "$T/have"
diff "$T/have" "$T/want" > "$T/diff"
report "$( [ -s "$T/diff" ] && echo 0 || echo 1)" \
	"make install installs exactly the tools, libraries, headers, pkg-config file, man pages, completions, Wireshark dissector, udev rule and ip's plugin" \
	"$T/diff"
check "the tools are executable, the rest is not" sh -c \
	"test -x $P/bin/hnctl -a -x $P/bin/hnsim -a -x $P/bin/hntraffic -a -x $P/bin/hnplot &&
	 ! find $R -type f -perm /111 | grep -v '/bin/hn\|\.so\.$VER\$' | grep ."
check "the installed hnsim and hnctl run" sh -c \
	"$P/bin/hnsim --help >/dev/null && $P/bin/hnctl -V | grep -q 'version 1'"
check "the installed hnsim run --csv | hnplot draws a PNG (hnplot(1)'s example)" sh -c \
	"PATH=$P/bin:\$PATH; hnsim run --pattern uniform,transpose -n 16 \
	 --load 0.1:0.3:0.1 --measure 20000 --no-progress --csv | hnplot -o $T/c.png &&
	 test \"\$(head -c 4 $T/c.png | od -An -c | tr -d ' ')\" = 211PNG"

# ---- the shared library -------------------------------------------------
so=$P/lib/libhybridnet.so.$VER
check "libhybridnet.so.$VER has the soname libhybridnet.so.$MAJOR and needs libnl" \
	sh -c "readelf -d $so | grep -q 'SONAME.*\[libhybridnet.so.$MAJOR\]' &&
	       readelf -d $so | grep -q 'NEEDED.*libnl-genl-3'"
# every function libhybridnet.h declares, as gcc sees the header
echo '#include <libhybridnet.h>' > "$T/decl.c"
gcc -I"$P/include" -aux-info "$T/decl.aux" -c "$T/decl.c" -o "$T/decl.o"
grep 'libhybridnet.h:' "$T/decl.aux" |
	sed -n 's/.*[ *]\(hn_[a-z0-9_]*\) (.*/\1/p' | sort -u > "$T/declared"
nm -D --defined-only "$so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' |
	sort -u > "$T/exported"
comm -23 "$T/declared" "$T/exported" > "$T/diff"
report "$( [ -s "$T/diff" ] && echo 0 || echo 1)" \
	"the .so exports every function libhybridnet.h declares ($(wc -l < "$T/declared"))" \
	"$T/diff"
comm -13 "$T/declared" "$T/exported" > "$T/diff"
report "$( [ -s "$T/diff" ] && echo 0 || echo 1)" \
	"and no other function (the library's internal helpers stay hidden)" \
	"$T/diff"

# ---- pkg-config and a program built against the installed tree ----------
# the tree as installed, moved: the .pc's prefix is where it lies
pc() { PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --define-prefix "$@"; }
check "pkg-config --modversion libhybridnet is $VER" \
	test "$(pc --modversion libhybridnet)" = "$VER"
check "pkg-config --cflags libhybridnet names the installed headers" \
	sh -c "PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --define-prefix --cflags libhybridnet | grep -q -- '^-I$P/include '"
check "pkg-config --libs libhybridnet is the installed -lhybridnet alone" \
	test "$(pc --libs libhybridnet | xargs)" = "-L$P/lib -lhybridnet"
check "pkg-config --static --libs libhybridnet adds libnl-genl-3 and libnl-3" \
	sh -c "PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --define-prefix --static --libs libhybridnet |
	       grep -q -- '^-L$P/lib -lhybridnet .*-lnl-genl-3 .*-lnl-3'"
src=selftests/install/hello.c
want="hn_open ENOENT, hn_ctl_open answered, max nodes 4096"
check "a program builds with pkg-config against the installed headers and .so" \
	sh -c "gcc -Wall -Werror $src \$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --define-prefix --cflags --libs libhybridnet) -o $T/hello"
check "it runs with the installed libhybridnet.so.$MAJOR" sh -c \
	"LD_LIBRARY_PATH=$P/lib ldd $T/hello | grep -q '^.libhybridnet.so.$MAJOR => $P/lib/' &&
	 test \"\$(LD_LIBRARY_PATH=$P/lib $T/hello)\" = '$want'"
check "a program builds -static with pkg-config --static" \
	sh -c "gcc -static -Wall -Werror $src \$(PKG_CONFIG_PATH=$P/lib/pkgconfig pkg-config --define-prefix --static --cflags --libs libhybridnet) -o $T/hello-static 2>$T/ld.out &&
	       ! readelf -l $T/hello-static | grep -q INTERP"
check "and runs" test "$("$T/hello-static")" = "$want"

# ---- man pages and completion, as installed -----------------------------
check "man finds the installed pages by name" sh -c \
	"for p in hnctl.8 hnsim.1 hntraffic.1 hybridnet.4 hnplot.1; do
		man -M $P/share/man -w \${p%.*} | grep -qx $P/share/man/man\${p##*.}/\$p || exit 1
	 done"
# complete WORDS...: what the installed completion offers for the last word
complete_words() {
	PATH=$P/bin:$PATH bash -c '
		. /usr/share/bash-completion/bash_completion
		. "$0/$1"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		f=$(complete -p "$1" | sed "s/.*-F \([^ ]*\).*/\1/")
		"$f" "$1" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
		printf "%s\n" "${COMPREPLY[@]}"' \
		"$P/share/bash-completion/completions" "$@" | sort -u | xargs
}
if [ -r /usr/share/bash-completion/bash_completion ]; then
	# hnctl's commands, from its table ("no command (show, set, ...)")
	"$P/bin/hnctl" 2>&1 | sed -n 's/.*no command (\(.*\))$/\1/p' |
		tr -d , | xargs -n 1 | { cat; echo help; } | sort | xargs \
		> "$T/cmds"
	check "completion: hnctl <TAB> offers every command" test \
		"$(complete_words hnctl '')" = "$(cat "$T/cmds")"
	check "completion: every command it offers is one hnctl takes" sh -c \
		"for c in \$(echo '$(complete_words hnctl '')'); do
			[ \$c = help ] && set -- || set -- --help
			$P/bin/hnctl \$c \"\$@\" >/dev/null || { echo \$c; exit 1; }
		 done"
	"$P/bin/hnctl" show --help | sed -n '/KEYs:/,/^$/p' | sed 's/KEYs://' |
		xargs -n 1 | grep -vx now | sort | xargs > "$T/keys"
	check "completion: hnctl set <TAB> offers every key of hnctl show --help" \
		test "$(complete_words hnctl set '')" = "$(cat "$T/keys")"
	check "completion: hnctl set nodes 8 n<TAB> offers the keys in n" test \
		"$(complete_words hnctl set nodes 8 n)" = "nic-buf-bytes nic-ns nodes"
	check "completion: hnctl set policy <TAB> offers the policy's words" test \
		"$(complete_words hnctl set policy '')" = \
		"dynamic fixed no-w preempt ses sla slot"
	# every field's words, as the table has them (hn_fields.h)
	check "completion: hnctl set nodes 8 switching <TAB> offers its words" \
		test "$(complete_words hnctl set nodes 8 switching '')" = \
		"drop saf vct wormhole"
	check "completion: hnctl set ft-sched l<TAB> offers the schedulers in l" \
		test "$(complete_words hnctl set ft-sched l)" = \
		"levelwise local-greedy local-random"
	check "completion: hnctl fabric <TAB> offers show, add and del" test \
		"$(complete_words hnctl fabric '')" = "add del show"
	check "completion: hnctl fabric add s<TAB> offers set's keys in s" test \
		"$(complete_words hnctl fabric add s)" = \
		"$(complete_words hnctl set s)"
	check "completion: hnctl set nodes <TAB> offers nothing (a number)" \
		test -z "$(complete_words hnctl set nodes '')"
	check "completion: hnsim run --pattern <TAB> offers the 18 patterns" test \
		"$(complete_words hnsim run --pattern '' | wc -w)" = 18
	check "completion: hnsim run --pattern uniform,tr<TAB> completes the list's last word" \
		test "$(complete_words hnsim run --pattern uniform,t)" = \
		"uniform,tornado uniform,transpose uniform,two-phase"
	check "completion: hnsim run --c<TAB> offers --csv" test \
		"$(complete_words hnsim run --cs)" = "--csv"
	check "completion: hnsim -s slot_<TAB> offers the slot keys" test \
		"$(complete_words hnsim -s slot_)" = "slot_p_ns= slot_w_ns="
	check "completion: hnsim -s pre<TAB> offers the module's preload too" \
		test "$(complete_words hnsim -s pre)" = \
		"predict_algo= predict_kstep= preload="
	check "completion: hnsim id<TAB> gives idem, then its options" test \
		"$(complete_words hnsim id) / $(complete_words hnsim idem --ack)" = \
		"idem / --ack-prio"
	check "completion: hntraffic --fau<TAB> gives --fault, then its kinds" test \
		"$(complete_words hntraffic --fau) / $(complete_words hntraffic --fault '')" = \
		"--fault / corrupt dup lose swap"
else
	skip "bash completion" "no /usr/share/bash-completion (make deps)"
fi
# ---- the Wireshark dissector, as installed -----------------------------
# frames of the capture interface (capture-pcap.py), decoded by tshark
# with the installed hybridnet.lua: the header's fields, the latency, an
# interface's payload through Wireshark's Ethernet and IP dissectors, the
# truncation noted
lua=$P/lib/wireshark/plugins/hybridnet.lua
if command -v tshark >/dev/null; then
	python3 selftests/install/capture-pcap.py "$T/cap.pcap"
	tshark -X lua_script:"$lua" -r "$T/cap.pcap" -T fields -E separator=' ' \
		-e hybridnet.from -e hybridnet.src -e hybridnet.dst \
		-e hybridnet.mode -e hybridnet.slot -e hybridnet.latency \
		-e hybridnet.caplen -e ip.dst -e icmp.type -e _ws.expert \
		> "$T/tshark.out" 2>"$T/tshark.err"
	cat > "$T/want" <<EOF2
0 2 5 0 1 191 5   
1 0 1 1 4 500 58 10.0.0.2 8 
2 7 3 1 4 400 0   
0 1 0 1 4 5000 16   Expert Info (Note/Undecoded): Payload cut at the capture interface's snaplen
EOF2
	diff "$T/tshark.out" "$T/want" > "$T/diff" && ! grep -qi "lua.*error" "$T/tshark.err"
	report "$( [ $? -eq 0 ] && echo 1 || echo 0)" \
		"tshark -X lua_script:hybridnet.lua decodes the capture interface's frames" \
		"$T/diff" "$T/tshark.err"
else
	skip "the Wireshark dissector decodes a capture" "no tshark (make deps installs it)"
fi
# ---- iproute2's plugin, as installed, with the system's ip ---------------
# Debian 12's ip (iproute2 6.1) loads it: its usage (struct link_util's
# print_help), and its options parsed and refused (parse_opt) before any
# request is sent; the VM's tests send them (netdev-vm.sh)
if command -v ip >/dev/null && ip -V | grep -q 'iproute2-6\.1\.'; then
	ipl() { IP_LIB_DIR=$R$IPLIB ip "$@" 2>&1; }
	check "ip link help hybridnet prints the plugin's usage" sh -c \
		"IP_LIB_DIR=$R$IPLIB ip link help hybridnet | head -n 1 |
		 grep -qx 'Usage: ip link add \[NAME\] type hybridnet \[ fabric F \] \[ node N \]'"
	check "ip link add ... type hybridnet help: the plugin's usage, nothing sent" sh -c \
		"! IP_LIB_DIR=$R$IPLIB ip link add hnx type hybridnet help 2>$T/ip.err &&
		 grep -q '^Where:	F := 0' $T/ip.err"
	check "ip link add ... type hybridnet node x: refused by the plugin" \
		test "$(ipl link add hnx type hybridnet node x)" = \
		'Error: argument "x" is wrong: node must be a number, 0..nodes-1'
	check "ip link add ... type hybridnet node 1 node 2: refused by the plugin" \
		test "$(ipl link add hnx type hybridnet node 1 node 2)" = \
		'Error: duplicate "node": "2" is the second value.'
	check "ip link add ... type hybridnet frob: refused by the plugin" sh -c \
		"IP_LIB_DIR=$R$IPLIB ip link add hnx type hybridnet frob 2>&1 |
		 grep -qx 'hybridnet: unknown option \"frob\"'"
else
	skip "Debian's ip loads the plugin" "no ip of iproute2 6.1"
fi
check "the udev rule gives /dev/hybridnet to the group hybridnet, mode 0660" \
	grep -qx 'KERNEL=="hybridnet", SUBSYSTEM=="misc", GROUP="hybridnet", MODE="0660"' \
	"$R/etc/udev/rules.d/60-hybridnet.rules"

# ---- uninstall, and another PREFIX --------------------------------------
check "make uninstall DESTDIR=... removes every file it installed" sh -c \
	"$M uninstall DESTDIR=$R && ! find $R -type f -o -type l | grep ."
R2=$T/root2
check "make install PREFIX=/opt/hn installs under /opt/hn, and the .pc says so" \
	sh -c "$M install DESTDIR=$R2 PREFIX=/opt/hn &&
	       test -x $R2/opt/hn/bin/hnctl -a -f $R2/opt/hn/share/man/man4/hybridnet.4 &&
	       grep -qx 'prefix=/opt/hn' $R2/opt/hn/lib/pkgconfig/libhybridnet.pc &&
	       grep -qx 'libdir=\${prefix}/lib' $R2/opt/hn/lib/pkgconfig/libhybridnet.pc &&
	       ! find $R2 -path $R2/opt -prune -o -path $R2/etc -prune -o -path $R2$IPLIB -prune -o -type f -print | grep ."

# ---- modules_install ----------------------------------------------------
KREL=$(modinfo -F vermagic kmod/hybridnet.ko | cut -d' ' -f1)
MP=$T/mod
check "make modules_install INSTALL_MOD_PATH=... puts hybridnet.ko in lib/modules/$KREL/extra" \
	sh -c "$M modules_install INSTALL_MOD_PATH=$MP > $T/mi.out 2>&1 &&
	       test -f $MP/lib/modules/$KREL/extra/hybridnet.ko"
check "and runs depmod there: modules.dep has it" \
	grep -q '^extra/hybridnet.ko:' "$MP/lib/modules/$KREL/modules.dep"
check "modprobe hybridnet finds it (modprobe -d ... --show-depends)" \
	sh -c "modprobe -d $MP -S $KREL --show-depends hybridnet |
	       grep -qx 'insmod $MP/lib/modules/$KREL/extra/hybridnet.ko '"
check "modinfo hybridnet finds it, with its parameters" \
	sh -c "modinfo -b $MP -k $KREL -F parm hybridnet | grep -q '^nodes:'"
# a tree seen through a directory of links to it (as check-docs runs its
# host examples) builds and installs the module by the tree's real path,
# or kmod/modules.order names that directory and a later modules_install
# in the tree fails
mkdir "$T/links"
for f in *; do ln -s "$PWD/$f" "$T/links/$f"; done
check "the module is built and installed by its real path, even through links" \
	sh -c "cd $T/links && $M -n -B kmod/hybridnet.ko modules_install \
		INSTALL_MOD_PATH=$T/mod2 | grep -o 'M=[^ ]*' | sort -u > $T/m.out &&
	       test \"\$(cat $T/m.out)\" = 'M=$PWD/kmod'"
finish
