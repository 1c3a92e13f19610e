#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""check-docs.py [-O BUILD] [--self-test] DOC... - make check-docs: every
example of the documents runs as written.  Prints TAP.

The convention (this is the one place it is written down)
=========================================================

Every code block of README.md and docs/ (indented, or fenced as sh,
shell, bash or console) is an example, run by this test, unless it is
marked otherwise.  A marker is an HTML comment, invisible once rendered,
on the line before the block (blank lines may come between; inside a list
item, indent it as the item's text):

    <!-- example: KIND ARGUMENTS [; OPTION]... -->

KIND says where the block runs:

  vm [PARAM=VALUE...]  in the VM (the default for an unmarked block), in
        the top of the tree (a RAM overlay on it: what the block writes is
        gone afterwards), as root, after "insmod kmod/hybridnet.ko PARAMS"
        (the module's defaults without PARAMS); a block that loads the
        module itself (insmod, modprobe) starts with it unloaded, and so
        does "vm unloaded".
  host  on this machine, as root, in a scratch directory that links the
        tree's top-level files and directories (build/, kmod/, ...), so
        that what the block writes stays out of the tree.
  make-n  every line is a make command: "make -n" of it must succeed
        (the targets exist and can be made), for recipes of long targets.
        It runs with MAKE=: so that no recipe's sub-make runs: make -n
        still runs those, and Kbuild's would touch kmod/hybridnet.ko
        without building it (a later check-vm would load a stale module).
  file NAME  not a command: the block is the file NAME, written to every
        example's directory before the examples run (a phase file, a trace).
  text  not a command: a synopsis, output, a shape of JSON, C.
  skip REASON  commands that cannot run here (a real host's install, a
        package manager); REASON, the rest of the marker, says why and is
        required.

Fenced blocks in another language (```c, ```yaml) are text, and so is
every block of a document whose first line says "<!-- generated" (a
program's output, as docs/results/tcp-table.md).  In a
session (below), "$ cat NAME" of a NAME the tree does not have shows a
file of the examples: the lines shown are written to NAME, as with file.

How a block runs.  A block whose lines start with "$ " is a session: each
"$ " line (with the lines it continues with a trailing backslash) is a
command, the lines up to the next "$ " its output as shown.  The command's
output (stdout and stderr) must match what is shown, line for line, with
runs of blanks equal and "..." matching any text inside a line and, alone
on a line, any number of lines; a command shown without output must print
nothing and exit 0.  A block without "$ " is a script: run whole by bash
with "set -e", it must exit 0.  sudo is "run as is" (the examples run as
root).  A block has 120 s (OPTION timeout=SECONDS).

OPTIONS: "setup=COMMANDS": a shell command line run first (it must exit
0), for what the text says comes before (make install, traffic);
"timeout=SECONDS"; "status=0,2": the exit statuses a script, or
a command shown without output, may end with (2: a run that says it
saturated, in a VM too slow for it); "tree=PATH": the output shows the tree at PATH
(e.g. /src/hybridnet), so the tree's real path is read as PATH; "loose":
a session's output is not compared, each command must exit 0 (for figures
that change from run to run).

The VM's examples run in one boot ("make vm-run", the initramfs of make
check-vm); the host's one after the other.  A broken example, an unknown
KIND, a marker that stands before no code block and a skip without a
reason fail the test.

Links.  Every relative link of a document, [text](path#anchor), must lead
to a file of the tree, and its #anchor (if any) to a heading of that
document, as a Markdown renderer names it ("## The phase file" is
#the-phase-file).
"""
import argparse
import base64
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

from markdown_it import MarkdownIt

MARK = re.compile(r"^\s*<!--\s*example:\s*(.*?)\s*-->\s*$")
ANYMARK = re.compile(r"^\s*<!--\s*example\b")
SHELL_LANGS = {"", "sh", "shell", "bash", "console"}
KINDS = {"vm", "host", "make-n", "file", "text", "skip"}
LOADS = re.compile(r"\b(insmod|modprobe)\b[^#\n]*\bhybridnet\b")
TIMEOUT = 120


class Example:
    def __init__(self, doc, line, text, kind, args, opts, prompt):
        self.doc, self.line, self.text = doc, line, text
        self.kind, self.args, self.opts, self.prompt = kind, args, opts, prompt
        self.cmds = []          # [command, expected lines or None]
        self.results = None     # [(rc, output)] per command
        self.error = None       # why it could not run at all
        self.id = None
        self.files = {}         # name: text, files the example shows
        self.secs = None        # how long it took

    def where(self):
        return "%s:%d" % (self.doc, self.line)

    def title(self):
        first = self.cmds[0][0].split("\n")[0] if self.cmds else ""
        first = re.sub(r"\s+#.*", "", first).strip()
        more = " ..." if len(self.cmds) > 1 or "\n" in self.text.strip() else ""
        kind = " ".join([self.kind] + self.args)
        took = "" if self.secs is None else ", %.0f s" % self.secs
        return "%s (%s%s): %s%s" % (self.where(), kind, took, first[:60], more)


def parse(doc, errors):
    """The examples of one document; marker problems to errors."""
    src = open(doc).read()
    lines = src.split("\n")
    used = set()
    out = []
    if lines[0].startswith("<!-- generated"):
        return out
    prev_end = 0
    for t in MarkdownIt("commonmark").parse(src):
        if t.type not in ("code_block", "fence"):
            continue
        start, end = t.map
        mark = None
        i = start - 1
        while i >= prev_end and not lines[i].strip():
            i -= 1
        if i >= prev_end and MARK.match(lines[i]):
            mark = MARK.match(lines[i]).group(1)
            used.add(i)
        prev_end = end
        info = t.info.strip().split()[0] if t.type == "fence" and t.info.strip() else ""
        line = start + 1 if t.type == "code_block" else start + 2
        text = t.content
        if mark is None:
            kind, args, opts = ("vm" if info in SHELL_LANGS else "text"), [], {}
        else:
            # a skip's REASON is the rest, whatever it holds
            clauses = [c.strip() for c in mark.split(";")]
            if mark.split()[0:1] == ["skip"]:
                clauses = [mark]
            words = clauses[0].split()
            kind, args = (words[0] if words else ""), words[1:]
            opts = {}
            for c in clauses[1:]:
                k, _, v = c.partition("=")
                opts[k.strip()] = v.strip()
        where = "%s:%d" % (doc, line)
        if kind not in KINDS:
            errors.append("%s: unknown example kind %r (%s)" % (where, kind, " ".join(sorted(KINDS))))
            continue
        if kind == "skip" and not args:
            errors.append("%s: 'skip' without a reason" % where)
        if kind == "file" and len(args) != 1:
            errors.append("%s: 'file' takes one NAME" % where)
        for k in opts:
            if k not in ("timeout", "tree", "loose", "status", "setup"):
                errors.append("%s: unknown option %r" % (where, k))
        prompt = any(l.startswith("$ ") for l in text.split("\n"))
        ex = Example(doc, line, text, kind, args, opts, prompt)
        if kind in ("vm", "host", "make-n"):
            commands(ex, errors)
        out.append(ex)
    for i, l in enumerate(lines):
        if ANYMARK.search(l) and i not in used:
            errors.append("%s:%d: a marker that stands before no code block, or malformed: %s"
                          % (doc, i + 1, l.strip()))
    return out


def commands(ex, errors):
    if not ex.prompt:
        ex.cmds = [[ex.text, None]]
        if ex.kind == "make-n":
            ex.cmds = [[l, None] for l in ex.text.split("\n")
                       if l.strip() and not l.strip().startswith("#")]
            for c in ex.cmds:
                if not re.match(r"^\s*make\b", c[0]):
                    errors.append("%s: make-n: not a make command: %s" % (ex.where(), c[0]))
        return
    cur = None
    cont = False
    for l in ex.text.rstrip("\n").split("\n"):
        if cont:
            cur[0] += "\n" + l
            cont = l.endswith("\\")
        elif l.startswith("$ "):
            cur = [l[2:], []]
            ex.cmds.append(cur)
            cont = l.endswith("\\")
        elif cur is None:
            errors.append("%s: output before the first command: %s" % (ex.where(), l))
            return
        else:
            cur[1].append(l)
    # "$ cat NAME" of a file the tree does not have shows a file of the
    # example: the lines shown are the file.  A column of --csv is taken
    # by its name (--fields): a column added before it moves its place
    for cmd, shown in ex.cmds:
        if re.search(r"--csv\b[^|]*\|\s*(cut|awk)\b", cmd):
            errors.append("%s: takes columns of --csv by their place, which a new column "
                          "moves: name them (--fields)" % ex.where())
        m = re.match(r"^cat ([\w.-]+)$", cmd.strip())
        if m and not os.path.exists(m.group(1)):
            ex.files[m.group(1)] = "\n".join(shown) + "\n"


def script(ex, path):
    """The block as a bash script: DIR (outputs) and CWD are its arguments."""
    s = ["#!/bin/bash", "# %s" % ex.where(), 'D=$1', 'cd "$2" || exit 1',
         'sudo() { "$@"; }']
    if "setup" in ex.opts:
        s.append("{\n%s\n} >\"$D/setup.out\" 2>&1 </dev/null; echo $? >\"$D/setup.rc\""
                 % ex.opts["setup"])
        s.append('[ "$(cat "$D/setup.rc")" = 0 ] || exit 1')
    for i, (cmd, _) in enumerate(ex.cmds):
        if ex.kind == "make-n":
            cmd = re.sub(r"^(\s*make)\b", r"\1 -n MAKE=:", cmd)
        if ex.prompt:
            s.append("{\n%s\n} >\"$D/%d.out\" 2>&1 </dev/null; echo $? >\"$D/%d.rc\"" % (cmd, i, i))
        else:
            s.append("( set -e\n%s\n) >\"$D/%d.out\" 2>&1 </dev/null; echo $? >\"$D/%d.rc\"" % (cmd, i, i))
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")


def pattern(line):
    """One line of shown output as a regex: blanks, '...'."""
    line = " ".join(line.split())
    parts = [re.escape(p) for p in line.split("...")]
    return re.compile("^" + ".*".join(parts) + "$")


def match(shown, got):
    """Does the output got (lines) match the lines shown?"""
    got = [" ".join(l.split()) for l in got]
    memo = {}

    def m(i, j):
        if (i, j) in memo:
            return memo[(i, j)]
        if i == len(shown):
            r = j == len(got)
        elif shown[i].strip() == "...":
            r = any(m(i + 1, k) for k in range(j, len(got) + 1))
        else:
            r = j < len(got) and bool(pattern(shown[i]).match(got[j])) and m(i + 1, j + 1)
        memo[(i, j)] = r
        return r
    return m(0, 0)


def verdict(ex, tree):
    """(ok, reasons) of an example that ran."""
    if ex.error:
        return False, [ex.error]
    if ex.results and len(ex.results[0]) == 3:
        rc, out, _ = ex.results[0]
        return False, ["setup=%s: exit status %d:\n%s" % (ex.opts["setup"], rc, out)]
    bad = []
    if ex.results is None or len(ex.results) != len(ex.cmds):
        return False, ["it did not run to its end (time-out after %s s?)"
                       % ex.opts.get("timeout", TIMEOUT)]
    status = [int(x) for x in ex.opts.get("status", "0").split(",")]
    for (cmd, shown), (rc, out) in zip(ex.cmds, ex.results):
        if "tree" in ex.opts:
            out = out.replace(tree, ex.opts["tree"])
        got = out.rstrip("\n").split("\n") if out.rstrip("\n") else []
        if shown is None or "loose" in ex.opts or (ex.prompt and not shown):
            if rc not in status and not ex.prompt and ex.kind != "make-n":
                bad.append("the block, run by bash -e, exited with status %d; its output:\n%s"
                           % (rc, out))
            elif rc not in status:
                bad.append("$ %s\nexit status %d; its output:\n%s" % (cmd, rc, out))
            elif ex.prompt and shown is not None and not shown and got and "loose" not in ex.opts:
                bad.append("$ %s\nprinted what the example does not show:\n%s" % (cmd, out))
        elif not match(shown, got):
            bad.append("$ %s\nshown:\n%s\nprinted (exit status %d):\n%s"
                       % (cmd, "\n".join(shown), rc, out))
    return not bad, bad


def run_host(ex, n, work, cwd):
    d = os.path.join(work, "out-%d" % n)
    os.makedirs(d)
    path = os.path.join(work, "ex-%d.sh" % n)
    script(ex, path)
    tmo = int(ex.opts.get("timeout", TIMEOUT))
    # as a user's shell: not a sub-make of make check-docs
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES")}
    t0 = time.time()
    p = subprocess.Popen(["timeout", "-s", "KILL", str(tmo), "bash", path, d, cwd],
                         start_new_session=True, stdin=subprocess.DEVNULL, env=env)
    p.wait()
    ex.secs = time.time() - t0
    subprocess.run(["pkill", "-KILL", "-s", str(p.pid)])
    ex.results = collect(d, len(ex.cmds))


def collect(d, count):
    res = []
    if os.path.exists(os.path.join(d, "setup.rc")):
        rc = int(open(os.path.join(d, "setup.rc")).read())
        if rc:
            return [(rc, open(os.path.join(d, "setup.out"), errors="replace").read(), "setup")]
    for i in range(count):
        try:
            rc = int(open(os.path.join(d, "%d.rc" % i)).read())
        except (OSError, ValueError):
            return res
        res.append((rc, open(os.path.join(d, "%d.out" % i), errors="replace").read()))
    return res


def run_vm(exs, work, o, tap):
    """The VM's examples in one boot: make vm-run with examples-vm.sh."""
    lst = os.path.join(work, "vm-list")
    with open(lst, "w") as f:
        for ex in exs:
            path = os.path.join(work, "ex-%d.sh" % ex.id)
            script(ex, path)
            load = "no" if ex.args == ["unloaded"] or any(LOADS.search(c) for c, _ in ex.cmds) else "yes"
            f.write("\t".join([str(ex.id), ex.opts.get("timeout", str(TIMEOUT)), load,
                               " ".join(ex.args) or "-", path, str(len(ex.cmds))]) + "\n")
    total = sum(int(ex.opts.get("timeout", TIMEOUT)) for ex in exs) + 300
    cmd = ["make", "-s", "--no-print-directory", "O=" + o, "vm-run",
           "HN_VM_TIMEOUT=%d" % total,
           "CMD=selftests/docs/examples-vm.sh %s %s" % (shlex.quote(lst), shlex.quote(work))]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       errors="replace")
    res = {}
    for l in p.stdout.split("\n"):
        w = l.strip().split(" ")
        if w[0] != "@@hn-ex":
            continue
        if w[2] == "done":
            res.setdefault(int(w[1]), {})["secs"] = int(w[3])
        elif w[2] == "load":
            res.setdefault(int(w[1]), {})["load"] = base64.b64decode(w[4] if len(w) > 4 else "").decode(errors="replace")
        elif w[2] == "setup":
            out = base64.b64decode(w[4] if len(w) > 4 else "").decode(errors="replace")
            if int(w[3]):
                res.setdefault(int(w[1]), {})["setup"] = (int(w[3]), out, "setup")
        elif w[2] != "done":
            out = base64.b64decode(w[4] if len(w) > 4 else "").decode(errors="replace")
            res.setdefault(int(w[1]), {})[int(w[2])] = (int(w[3]), out)
    for ex in exs:
        r = res.get(ex.id, {})
        ex.secs = r.get("secs")
        if "load" in r:
            ex.error = "insmod kmod/hybridnet.ko %s failed:\n%s" % (" ".join(ex.args), r["load"])
            continue
        if "setup" in r:
            ex.results = [r["setup"]]
            continue
        ex.results = []
        for i in range(len(ex.cmds)):
            if i not in r:
                break
            ex.results.append(r[i])
    vm_ok = p.returncode == 0
    with open(os.path.join(work, "vm-run.out"), "w") as f:
        f.write(p.stdout)
    return vm_ok, p.stdout


def slug(title):
    """The anchor a Markdown renderer (GitHub's) gives a heading."""
    t = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return t.replace(" ", "-")


def links(docs):
    """The relative links of the documents that lead nowhere: a file that
    is not in the tree, or a #anchor that is no heading of its document."""
    md = MarkdownIt("commonmark")
    heads = {}

    def anchors(path):
        if path not in heads:
            toks = md.parse(open(path).read())
            heads[path] = {slug(toks[i + 1].content) for i, t in enumerate(toks)
                           if t.type == "heading_open"}
        return heads[path]

    bad, n = [], 0
    for d in docs:
        todo = md.parse(open(d).read())
        while todo:
            t = todo.pop(0)
            todo[0:0] = t.children or []
            href = t.attrGet("href") if t.type == "link_open" else None
            if not href or re.match(r"^[a-z]+:", href):
                continue
            n += 1
            path, _, anchor = href.partition("#")
            target = os.path.normpath(os.path.join(os.path.dirname(d), path)) if path else d
            if not os.path.exists(target):
                bad.append("%s: link to %s: no such file" % (d, href))
            elif anchor and target.endswith(".md") and anchor not in anchors(target):
                bad.append("%s: link to %s: no such heading in %s" % (d, href, target))
    return n, bad


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def report(self, ok, desc, why=()):
        self.n += 1
        print("%s %d %s" % ("ok" if ok else "not ok", self.n, desc))
        if not ok:
            self.failed += 1
            for w in why:
                for l in w.rstrip("\n").split("\n"):
                    print("# " + l)
        sys.stdout.flush()


def check(docs, o, tap, only_host=False):
    tree = os.getcwd()
    errors = []
    exs = []
    for d in docs:
        exs += parse(d, errors)
    for i, ex in enumerate(exs):
        ex.id = i
    work = tempfile.mkdtemp(prefix="hn-docs.", dir="/tmp")
    try:
        # the host's examples' directory: the tree's top, linked; the files
        cwd = os.path.join(work, "cwd")
        os.makedirs(cwd)
        for e in os.listdir(tree):
            if e != ".git":
                os.symlink(os.path.join(tree, e), os.path.join(cwd, e))
        files = os.path.join(work, "files")
        os.makedirs(files)
        for ex in exs:
            if ex.kind == "file" and ex.args:
                ex.files[ex.args[0]] = ex.text
            for name, text in ex.files.items():
                if os.path.exists(os.path.join(files, name)):
                    errors.append("%s: file %s is given twice" % (ex.where(), name))
                with open(os.path.join(files, name), "w") as f:
                    f.write(text)
                os.symlink(os.path.join(files, name), os.path.join(cwd, name))
        notrun = [ex for ex in exs if ex.kind in ("skip", "text", "file")]
        for ex in notrun:
            if ex.kind == "skip":
                print("# %s: not run here: %s" % (ex.where(), " ".join(ex.args)))
        tap.report(not errors,
                   "every code block is an example or marked: %d examples, %d not run here, %d not commands"
                   % (len(exs) - len(notrun), sum(ex.kind == "skip" for ex in notrun),
                      sum(ex.kind in ("text", "file") for ex in notrun)), errors)
        nlinks, bad = links(docs)
        tap.report(not bad, "every link of the documents leads to a file of the tree, "
                   "and a #anchor to a heading of it (%d links)" % nlinks, bad)
        for ex in exs:
            if ex.kind in ("host", "make-n"):
                run_host(ex, ex.id, work, cwd)
                ok, why = verdict(ex, tree)
                tap.report(ok, ex.title(), why)
        vm = [ex for ex in exs if ex.kind == "vm"]
        if vm and not only_host:
            vm_ok, out = run_vm(vm, work, o, tap)
            tap.report(vm_ok, "the VM ran its %d examples (make vm-run): no kernel warning, no time-out"
                       % len(vm), [] if vm_ok else [out[-3000:]])
            for ex in vm:
                ok, why = verdict(ex, tree)
                tap.report(ok, ex.title(), why)
    finally:
        shutil.rmtree(work, ignore_errors=True)


SELF_TEST = """
A good session, and one whose output is not what it shows:

<!-- example: host -->
    $ printf 'a   b\\nc\\nd\\n'
    a b
    ...
    $ true

<!-- example: host -->
    $ echo one
    two

A script that fails, a session that prints what it does not show, a
command of make that has no target:

<!-- example: host -->
    true
    false
    true

<!-- example: host -->
    $ echo surprise

<!-- example: make-n -->
    make no-such-target-here

<!-- example: make-n -->
    make module

<!-- example: host -->
    $ echo --csv | cut -d, -f1
    --csv

A marker without a block, and an unknown kind:

<!-- example: host -->

Text.

<!-- example: nowhere -->
    true

A link to a file the tree does not have: [nothing](no-such-file.md), and
to a heading its document does not have: [nowhere](#no-such-heading).
"""


def self_test(o, tap):
    """The checker itself: what must pass passes, what must fail fails."""
    d = tempfile.mkdtemp(prefix="hn-docs-self.")
    try:
        doc = os.path.join(d, "self.md")
        open(doc, "w").write(SELF_TEST)
        t = Tap()
        old = sys.stdout
        ko = "kmod/hybridnet.ko"
        ko_before = os.stat(ko).st_mtime_ns if os.path.exists(ko) else None
        sys.stdout = open(os.path.join(d, "tap"), "w")
        try:
            check([doc], o, t, only_host=True)
        finally:
            sys.stdout.close()
            sys.stdout = old
        got = open(os.path.join(d, "tap")).read()
        ko_after = os.stat(ko).st_mtime_ns if os.path.exists(ko) else None
        want = [("not ok", "every code block"), ("ok", ":5 (host, 0 s): printf"),
                ("not ok", ":11 (host, 0 s): echo one"), ("not ok", ":18 (host, 0 s): true"),
                ("not ok", ":23 (host, 0 s): echo surprise"),
                ("not ok", ":26 (make-n, 0 s): make no-such-target-here"),
                ("ok", ":29 (make-n, 0 s): make module"),
                ("not ok", "every link of the documents")]
        # each example's seconds as any: a loaded machine is slow, not wrong
        missing = [w for w in want
                   if not re.search("^%s [0-9]+ [^\n]*%s" %
                                    (w[0], "[0-9]+ s".join(map(re.escape, w[1].split("0 s")))),
                                    got, re.M)]
        tap.report(not missing and ko_before == ko_after
                   and "unknown example kind 'nowhere'" in got
                   and "stands before no code block" in got
                   and "columns of --csv by their place" in got
                   and "no-such-file.md: no such file" in got
                   and "#no-such-heading: no such heading" in got,
                   "the checker: a good example passes; a wrong output, a failing script, "
                   "an unknown make target, a stray marker, an unknown kind, CSV columns "
                   "taken by their place and a broken link fail; make-n runs no sub-make "
                   "(the module is left as it was)",
                   ["wanted: %s" % (missing,), "module's mtime %s -> %s" % (ko_before, ko_after),
                    got])
    finally:
        shutil.rmtree(d, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("-O", default="build")
    ap.add_argument("docs", nargs="*")
    a = ap.parse_args()
    tap = Tap()
    self_test(a.O, tap)
    check(a.docs, a.O, tap)
    print("1..%d" % tap.n)
    print("# %d tests, %d failed" % (tap.n, tap.failed))
    sys.exit(1 if tap.failed else 0)


if __name__ == "__main__":
    main()
