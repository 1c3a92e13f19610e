#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""link-cycles.py - no two files of a group call into each other.

    link-cycles.py --cc 'CC FLAGS' --out DIR GROUP...

A GROUP is NAME:SOURCES, SOURCES being directories (their *.c) and .c
files joined by '+'.  Each source is compiled with --cc to an object in
DIR/NAME/; a file depends on another when it uses a symbol the other
defines (nm).  Every strongly connected set of more than one file is a
cycle: "not ok", with the symbols that close it.  The first test shows
the check finds a cycle made for it.  Prints TAP.
"""
import argparse
import collections
import glob
import os
import shlex
import subprocess
import sys

def objects(cc, out, name, spec):
    srcs = []
    for part in spec.split('+'):
        srcs += sorted(glob.glob(os.path.join(part, '*.c'))) \
            if os.path.isdir(part) else [part]
    objs = []
    os.makedirs(os.path.join(out, name), exist_ok=True)
    for s in srcs:
        o = os.path.join(out, name, os.path.basename(s)[:-2] + '.o')
        subprocess.run(shlex.split(cc) + ['-c', s, '-o', o], check=True)
        objs.append(o)
    return objs


def graph(objs):
    defs, uses = {}, collections.defaultdict(set)
    for o in objs:
        nm = subprocess.run(['nm', o], capture_output=True, text=True,
                            check=True).stdout
        for line in nm.splitlines():
            f = line.split()
            if len(f) == 3 and f[1] in 'TDBRVWGS':
                defs.setdefault(f[2], o)
            elif len(f) == 2 and f[0] == 'U':
                uses[o].add(f[1])
    edges = {o: {defs[s] for s in uses[o] if defs.get(s, o) != o}
             for o in objs}
    return edges, defs, uses


def cycles(edges):
    """Tarjan's strongly connected sets of more than one node."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            scc = []
            while True:
                w = stack.pop()
                on.discard(w)
                scc.append(w)
                if w == v:
                    break
            if len(scc) > 1:
                found.append(scc)

    sys.setrecursionlimit(10000)
    for v in edges:
        if v not in index:
            visit(v)
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--cc', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('groups', nargs='+')
    a = ap.parse_args()
    made = os.path.join(a.out, 'made')
    os.makedirs(made, exist_ok=True)
    for f, call in (('a', 'b'), ('b', 'a')):
        with open(os.path.join(made, f + '.c'), 'w') as out:
            out.write(f'int {call}(int x);\nint {f}(int x) '
                      f'{{ return x ? {call}(x - 1) : 0; }}\n')
    found = cycles(graph(objects(a.cc, a.out, 'made', made))[0])
    n = 1
    print(f'{"ok" if len(found) == 1 else "not ok"} 1 - a cycle made for '
          'the check is found')
    for g in a.groups:
        name, spec = g.split(':', 1)
        edges, defs, uses = graph(objects(a.cc, a.out, name, spec))
        found = cycles(edges)
        for scc in found:
            files = sorted(os.path.basename(o) for o in scc)
            n += 1
            print(f'not ok {n} - {name}: a cycle: {" ".join(files)}')
            for o in scc:
                for w in sorted(edges[o] & set(scc)):
                    syms = sorted(s for s in uses[o] if defs.get(s) == w)
                    print(f'#   {os.path.basename(o)} -> '
                          f'{os.path.basename(w)}: {" ".join(syms[:5])}')
        if not found:
            n += 1
            print(f'ok {n} - {name}: no file calls into one that calls back')
    print(f'1..{n}')


if __name__ == '__main__':
    main()
