#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that Documentation/netlink/specs/hybridnet.yaml and
uapi/linux/hybridnet.h agree: every command, attribute, statistic and enum
value the spec names has the same number in the header, and the header's
*_MAX values equal the spec's largest.  Prints TAP.

Usage: spec-check.py SPEC UAPI_DIR BUILD_DIR
"""
import os
import subprocess
import sys

import yaml


def c_name(prefix, name):
    return (prefix + name).upper().replace('-', '_')


def expected(spec):
    names = {}
    maxes = {}
    for d in spec.get('definitions', []):
        for i, e in enumerate(d['entries']):
            v = 1 << i if d['type'] == 'flags' else i
            names[c_name(d['name-prefix'], e)] = v
    for s in spec['attribute-sets']:
        if 'subset-of' in s:
            continue
        v = 0
        for a in s['attributes']:
            v = a.get('value', v + 1)
            names[c_name(s['name-prefix'], a['name'])] = v
        maxes[c_name(s['name-prefix'], 'max')] = v
    v = 0
    for op in spec['operations']['list']:
        v = op.get('value', v + 1)
        names[c_name('hybridnet-cmd-', op['name'])] = v
    maxes['HYBRIDNET_CMD_MAX'] = v
    return names, maxes


def main():
    spec_path, uapi, build = sys.argv[1:4]
    with open(spec_path) as f:
        spec = yaml.safe_load(f)
    names, maxes = expected(spec)
    want = dict(names, **maxes)
    os.makedirs(build, exist_ok=True)
    src = os.path.join(build, 'spec-check.c')
    exe = os.path.join(build, 'spec-check')
    with open(src, 'w') as f:
        f.write('#include <stdio.h>\n#include <linux/hybridnet.h>\n')
        f.write('int main(void)\n{\n')
        for n in want:
            f.write('\tprintf("%%s %%lld\\n", "%s", (long long)%s);\n'
                    % (n, n))
        f.write('\treturn 0;\n}\n')
    r = subprocess.run(['cc', '-I', uapi, src, '-o', exe],
                       capture_output=True, text=True)
    if r.returncode:
        print('not ok 1 netlink spec names exist in the uapi header')
        for line in r.stderr.splitlines():
            if 'error' in line:
                print('# ' + line)
        return 1
    print('ok 1 netlink spec names exist in the uapi header')
    out = subprocess.run([exe], capture_output=True, text=True, check=True)
    got = dict((n, int(v)) for n, v in
               (line.split() for line in out.stdout.splitlines()))
    bad = [n for n in want if got[n] != want[n]]
    for n in bad:
        print('# %s: spec %d, header %d' % (n, want[n], got[n]))
    print('%s 2 netlink spec and uapi header agree on %d numbers'
          % ('not ok' if bad else 'ok', len(want)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
