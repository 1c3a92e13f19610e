#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that Documentation/netlink/specs/hybridnet.yaml agrees with the
code:
  1, 2  uapi/linux/hybridnet.h: every command, attribute, statistic and
        enum value the spec names has the same number in the header, and
        the header's *_MAX values equal the spec's largest;
  3     the one table of configuration fields (kmod/core/hn_fields.h):
        each field is a spec attribute of the same number and type, whose
        checks (min, max; a string's min-len, max-len) are the field's
        range, whose enum's entries are
        the field's words (and its range their number), and which
        config-get's reply, config-set's request and the event carry;
  4     libhybridnet's names (lib/hn_ctl_names.c) of every attribute and
        statistic are the spec's;
  5     one vocabulary (docs/names.md): each field's spec name is its
        parameter's (module parameter, sysfs file, libhybridnet member)
        with '-' for '_', and its attribute the parameter in capitals;
        each statistic's sysfs file (kmod/hn_lists.h) is its spec name
        with '_' for '-'.
Prints TAP.

Usage: spec-check.py SPEC UAPI_DIR BUILD_DIR [CORE_DIR LIB_DIR]
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
    core = sys.argv[4] if len(sys.argv) > 4 else 'kmod/core'
    lib = sys.argv[5] if len(sys.argv) > 5 else 'lib'
    bad2 = check_table(spec, uapi, core, build)
    bad3 = check_lib(spec, uapi, core, lib, build)
    bad4 = check_vocab(spec, core)
    return 1 if bad or bad2 or bad3 or bad4 else 0


def spec_attrs(spec, set_name):
    """name -> (value, attribute) of one attribute set"""
    for s in spec['attribute-sets']:
        if s['name'] != set_name:
            continue
        out, v = {}, 0
        for a in s['attributes']:
            v = a.get('value', v + 1)
            out[a['name']] = (v, a)
        return out
    return {}


def run_c(build, name, body, includes, cflags, extra=()):
    src = os.path.join(build, name + '.c')
    exe = os.path.join(build, name)
    with open(src, 'w') as f:
        f.write('#include <stdio.h>\n')
        for i in includes:
            f.write('#include "%s"\n' % i)
        f.write('int main(void)\n{\n%s\treturn 0;\n}\n' % body)
    r = subprocess.run(['cc'] + cflags + [src] + list(extra) + ['-o', exe],
                       capture_output=True, text=True)
    if r.returncode:
        return None, r.stderr
    return subprocess.run([exe], capture_output=True, text=True,
                          check=True).stdout, None


def check_table(spec, uapi, core, build):
    body = ('#define HN_FIELD(f, A, ctl, nl, help, T, lo, hi, live, words) '
            '{ const char *const *w = HN_WORDS_##words; '
            'printf("%s %d %s %llu %llu", nl, HYBRIDNET_ATTR_##A, #T, '
            '(unsigned long long)(lo), (unsigned long long)(hi)); '
            'while (w && *w) printf(" %s", *w++); printf("\\n"); }\n'
            '#include "hn_fields.h"\n')
    out, err = run_c(build, 'spec-fields', body,
                     ['linux/hybridnet.h', 'hn_core.h'],
                     ['-I', uapi, '-I', core])
    attrs = spec_attrs(spec, 'hybridnet')
    bad = []
    if out is None:
        bad.append('the table does not compile: ' + err.splitlines()[0])
        out = ''
    enums = dict((d['name'], d['entries'])
                 for d in spec.get('definitions', []) if d['type'] == 'enum')
    carried = op_attrs(spec)
    n = 0
    for line in out.splitlines():
        name, num, typ, lo, hi = line.split()[:5]
        words = line.split()[5:]
        n += 1
        for where, names in carried.items():
            if name not in names:
                bad.append('%s: not in %s' % (name, where))
        if name not in attrs:
            bad.append('%s: not an attribute of the spec' % name)
            continue
        v, a = attrs[name]
        if v != int(num):
            bad.append('%s: spec number %d, table %s' % (name, v, num))
        if a['type'] != typ.lower():
            bad.append('%s: spec type %s, table %s' % (name, a['type'],
                                                        typ.lower()))
        checks = a.get('checks', {})
        rng = ((checks.get('min-len', 0), checks.get('max-len'))
               if typ == 'STRING' else (checks.get('min'), checks.get('max')))
        if rng != (int(lo), int(hi)):
            bad.append('%s: spec checks %s, table range %s..%s'
                       % (name, checks, lo, hi))
        entries = enums.get(a.get('enum'), [])
        if entries != words:
            bad.append('%s: spec enum %s, table words %s'
                       % (name, entries, words))
        if words and int(hi) != len(words) - 1:
            bad.append('%s: %d words, table range %s..%s'
                       % (name, len(words), lo, hi))
    for b in bad:
        print('# ' + b)
    print('%s 3 the configuration table and the spec agree on %d fields'
          % ('not ok' if bad or not n else 'ok', n))
    return bad or not n


def op_attrs(spec):
    """the attributes of config-get's reply, config-set's request and
    the event"""
    ops = dict((op['name'], op) for op in spec['operations']['list'])
    return {
        'config-get reply':
            ops['config-get']['do']['reply']['attributes'],
        'config-set request':
            ops['config-set']['do']['request']['attributes'],
        'the event': ops['event']['event']['attributes'],
    }


def check_lib(spec, uapi, core, lib, build):
    body = ('\tunsigned int i;\n'
            '\tfor (i = 0; i <= HYBRIDNET_ATTR_MAX; i++)\n'
            '\t\tprintf("attr %u %s\\n", i, hn_ctl_attr_name(i) ?: "-");\n'
            '\tfor (i = 0; i <= HYBRIDNET_STAT_MAX; i++)\n'
            '\t\tprintf("stat %u %s\\n", i, hn_ctl_stat_name(i) ?: "-");\n')
    out, err = run_c(build, 'spec-names', body, ['libhybridnet.h'],
                     ['-I', uapi, '-I', core, '-I', lib],
                     [os.path.join(lib, 'hn_ctl_names.c'),
                      os.path.join(core, 'cfg_text.c')])
    bad = []
    if out is None:
        bad.append('libhybridnet\'s names do not build: '
                   + err.splitlines()[0])
        out = ''
    sets = {'attr': spec_attrs(spec, 'hybridnet'),
            'stat': spec_attrs(spec, 'stats')}
    want = {}
    for kind, attrs in sets.items():
        for name, (v, a) in attrs.items():
            if a['type'] != 'pad':
                want[(kind, v)] = name
    n = 0
    for line in out.splitlines():
        kind, num, name = line.split()
        key = (kind, int(num))
        if key not in want:
            continue
        n += 1
        if want[key] != name:
            bad.append('%s %s: spec "%s", libhybridnet "%s"'
                       % (kind, num, want[key], name))
    for b in bad:
        print('# ' + b)
    print('%s 4 libhybridnet names %d attributes and statistics as the spec does'
          % ('not ok' if bad or not n else 'ok', n))
    return bad or not n


def hn_rows(path, macro):
    """the argument lists of every row macro(...) of a table file"""
    with open(path) as f:
        text = f.read()
    rows = []
    for part in text.split(macro + '(')[1:]:
        args = part.split(')')[0]
        if args.split(',')[0].strip() in ('f', 'field', 'file'):
            continue	# a definition or the comment's example
        rows.append([a.strip() for a in ' '.join(args.split()).split(',')])
    return rows


def check_vocab(spec, core):
    bad = []
    n = 0
    for r in hn_rows(os.path.join(core, 'hn_fields.h'), 'HN_FIELD'):
        if len(r) < 4 or not r[3].startswith('"'):
            continue
        n += 1
        field, attr, param, name = r[0], r[1], r[2], r[3].strip('"')
        if name != param.replace('_', '-'):
            bad.append('field %s: spec name %s, parameter %s'
                       % (field, name, param))
        if attr != param.upper():
            bad.append('field %s: attribute %s, parameter %s'
                       % (field, attr, param))
    stats = spec_attrs(spec, 'stats')
    lists = os.path.join(os.path.dirname(core.rstrip('/')), 'hn_lists.h')
    for macro in ('HN_GSTAT', 'HN_NSTAT'):
        for r in hn_rows(lists, macro):
            if len(r) < 2:
                continue
            n += 1
            if r[0].replace('_', '-') not in stats:
                bad.append('%s %s: no statistic %s in the spec'
                           % (macro, r[0], r[0].replace('_', '-')))
            if r[1] != r[0].upper():
                bad.append('%s %s: statistic %s' % (macro, r[0], r[1]))
    for b in bad:
        print('# ' + b)
    print('%s 5 one vocabulary: %d fields and statistics named alike '
          'everywhere' % ('not ok' if bad or n < 40 else 'ok', n))
    return bad or n < 40


if __name__ == '__main__':
    sys.exit(main())
