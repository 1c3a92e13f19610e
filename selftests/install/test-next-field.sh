#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/install/test-next-field.sh - the next configuration field is
# a commit of the files kmod/core/hn_fields.h's head names, and nothing
# else: its row there, its HYBRIDNET_ATTR_ at the end of the uapi enum,
# its attribute in the netlink spec, its paragraph in the sysfs ABI file,
# and the engine's member of struct hn_config.  In a copy of the tree it
# adds one (next_field, 0..7, live) to exactly those five files, builds
# the module, the library, the tools and the man pages, runs the steps
# that hold every list to the table (check-spec, check-fields,
# check-man), and finds the field in each interface made from the table:
# modinfo, libhybridnet's struct, hnctl set --help, hnsim's keys and
# configuration, the man pages.  (Its sysfs file and netlink attribute
# are the VM tests' sysfs-abi.sh and the spec's.)  Prints TAP.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d /tmp/hn-next-field.XXXXXX)
trap 'rm -rf "$T"' EXIT
S=$T/src
n=0
fails=0

report() {	# report OK(0|1) TEXT [FILE with what went wrong]
	n=$((n + 1))
	if [ "$1" = 1 ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		fails=$((fails + 1))
		[ -n "${3:-}" ] && [ -s "$3" ] && sed 's/^/# /' "$3" | tail -40
	fi
	return 0
}

# the tree as it is (committed or not), as a repository of its own
mkdir -p "$S"
(cd "$ROOT" && git ls-files -co --exclude-standard -z |
	xargs -0 cp --parents -t "$S" 2>/dev/null)
git -C "$S" init -q && git -C "$S" add -A &&
	git -C "$S" -c user.name=t -c user.email=t@t commit -qm base

python3 - "$S" > "$T/edit.log" 2>&1 <<'EOF'
import glob, re, sys
s = sys.argv[1]

def edit(path, fn):
    p = f'{s}/{path}'
    old = open(p).read()
    new = fn(old)
    assert new != old, f'{path}: no place for the field'
    open(p, 'w').write(new)

# the engine's member: the end of struct hn_config
def member(t):
    a = t.index('struct hn_config {')
    b = t.index('\n};', a)
    return t[:b] + '\n\tu32 next_field;\t\t/* the next-field test */' + t[b:]
edit('kmod/core/hn_core.h', member)

edit('kmod/core/hn_fields.h', lambda t: t + (
    'HN_FIELD(next_field, NEXT_FIELD, next_field, "next-field",\n'
    '\t "a field the next-field test adds",\n'
    '\t U32, 0, 7, 1, NONE)\n'))

edit('uapi/linux/hybridnet.h', lambda t: re.sub(
    r'\n(\n\t__HYBRIDNET_ATTR_MAX,)',
    r'\n\tHYBRIDNET_ATTR_NEXT_FIELD,\t/* u32 */\n\1', t, count=1))

# the spec: an attribute at the end of the set "hybridnet", and a member
# of every list the last field is in (CONFIG_GET, CONFIG_SET, the event)
def spec(t):
    lines = t.split('\n')
    last = [l for l in open(f'{s}/kmod/core/hn_fields.h')
            if l.startswith('HN_FIELD(')][-2].split('"')[1]
    i = lines.index('    name: hybridnet')
    while lines[i + 1] != '  -' and (lines[i + 1].startswith(' ') or
                                      not lines[i + 1]):
        i += 1
    while not lines[i].strip():
        i -= 1
    lines[i + 1:i + 1] = ['      -', '        name: next-field', '        type: u32',
                  '        checks:', '          min: 0', '          max: 7',
                  '        doc: "a field the next-field test adds"']
    out = []
    for l in lines:
        out.append(l)
        if l.strip() == f'- {last}':
            out.append(l.replace(last, 'next-field'))
    return '\n'.join(out)
edit('Documentation/netlink/specs/hybridnet.yaml', spec)

abi = glob.glob(f'{s}/Documentation/ABI/testing/sysfs-*hybridnet')[0]
def para(t):
    what = re.search(r'^What:\s+(\S+/config/)\w+$', t, re.M).group(1)
    return t.rstrip('\n') + f'''

What:\t\t{what}next_field
Date:\t\tNovember 2026
KernelVersion:\t6.1
Contact:\thybridnet developers <dev@hybridnet.invalid>
Description:
\t\t(RO) A field the next-field test adds, 0..7.
'''
edit(abi[len(s) + 1:], para)
EOF
report "$( [ $? = 0 ] && echo 1 || echo 0)" \
	"the field goes into the table, the uapi enum, the spec, the ABI file and struct hn_config" \
	"$T/edit.log"
git -C "$S" diff --name-only > "$T/files"
report "$( [ "$(wc -l < "$T/files")" = 5 ] && echo 1 || echo 0)" \
	"its commit touches 5 files: $(tr '\n' ' ' < "$T/files")" "$T/files"

# everything built, and every step that holds a list to the table
make -C "$S" -j"$(nproc)" all kmod/hybridnet.ko > "$T/build.log" 2>&1
report "$( [ $? = 0 ] && echo 1 || echo 0)" \
	"the module, the library, the tools and the man pages build with it" \
	"$T/build.log"
make -C "$S" check CHECK_STEPS="check-spec check-fields check-man" \
	> "$T/check.log" 2>&1
report "$( [ $? = 0 ] && echo 1 || echo 0)" \
	"check-spec, check-fields and check-man pass with it ($(grep -a "passed," "$T/check.log" | tail -1))" \
	"$T/check.log"

B=$S/build
has() {	# has TEXT FILE|-: what an interface printed names the field
	grep -qw -- "$1" "${2:--}"
}
modinfo -F parm "$S/kmod/hybridnet.ko" 2>&1 | has next_field
report "$( [ $? = 0 ] && echo 1 || echo 0)" "modinfo lists the parameter next_field"
"$B/hnctl" set --help 2>&1 | has next-field
report "$( [ $? = 0 ] && echo 1 || echo 0)" "hnctl set --help lists next-field"
"$B/hnsim" config -s next-field=5 > "$T/cfg" 2>&1
grep -qx 'next_field=5' "$T/cfg"
report "$( [ $? = 0 ] && echo 1 || echo 0)" \
	"hnsim takes next-field=5 and prints it back" "$T/cfg"
"$B/hnsim" config -s next-field=8 > "$T/cfg" 2>&1 && echo "exit 0" >> "$T/cfg"
report "$(! grep -q 'exit 0' "$T/cfg" && grep -q '0\.\.7' "$T/cfg" &&
	echo 1 || echo 0)" \
	"and refuses 8 with the table's range" "$T/cfg"
cat > "$T/use.c" <<'EOF'
#include <libhybridnet.h>
int main(void)
{
	struct hn_ctl_config c = { .next_field = 7 };

	return c.next_field != 7;
}
EOF
cc -I"$S/lib" -I"$S/uapi" -I"$S/kmod/core" -c "$T/use.c" -o "$T/use.o" \
	$(pkg-config --cflags libnl-genl-3.0) > "$T/cc.log" 2>&1
report "$( [ $? = 0 ] && echo 1 || echo 0)" \
	"libhybridnet's struct hn_ctl_config has next_field" "$T/cc.log"
for m in "$B"/man/hybridnet.4 "$B"/man/hnctl.8 "$B"/man/hnsim.1; do
	grep -qE 'next(_|-|\\-)field' "$m"
	report "$( [ $? = 0 ] && echo 1 || echo 0)" \
		"$(basename "$m") lists it"
done
echo "1..$n"
[ "$fails" = 0 ]
