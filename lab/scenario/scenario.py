"""lab/scenario/scenario.py: the scenario loader. It reads lab/scenarios/NAME (the format:
lab/scenarios/README.md), follows its base: lines, and resolves it for each kernel it boots
into one Boot: everything lab/run needs to boot that pair and decide it, and nothing of the
file's syntax. lab/scenario/resolve prints the Boots as the description lab/run reads
(lab/scenarios/README.md, "The resolved description"); lab/tests/test_scenario.py tests it.

    kernels = read_facts(text)              # kernel/build.sh facts lines (boots=yes ones)
    sc = load("pivot", "lab/scenarios", kernels, top=TOP, overrides=["userns=ok"])
    sc.kernels                              # ["stock", "nullfs", "full", "full-debug"]
    sc.boots["full-debug"].expect           # [("root_device", "ok"), ...]

A file that does not resolve raises ScenarioError, whose text is "FILE:LINE: message" (or
"FILE: message" for the file as a whole), FILE as lab/run names it (relative to the lab's
top directory when under it).
"""
import locale
import os
import re

KEYS = ("base, description, kernels, initramfs, disk, modules, scratch, timeout, kmemleak, "
        "cmdline, cmdline[KERNEL], log, nolog, sentinel, expect, drop")
ONCE = ("description", "kernels", "initramfs", "disk", "scratch", "timeout", "kmemleak")
INITRAMFS = ("yes", "no", "truncated",
             "real:itools-busybox", "real:itools-klibc", "real:dracut", "real:dracut-systemd")
DISKS = ("ext4", "none", "zeros", "truncated", "noinit")
SPACE = " \t\n\r\f\v"   # bash's [[:space:]]
S = "[ \t\n\r\f\v]"

RE_COMMENT = re.compile(S + "#.*", re.S)      # a comment after white space, to the end
RE_BASE = re.compile(r"^base:%s*(.*)$" % S, re.S)
RE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
RE_EXPECT = re.compile(r"^expect%s+(.*)$" % S, re.S)
RE_KEY = re.compile(r"^([a-z]+)(\[([^]]*)\])?:%s*(.*)$" % S, re.S)
RE_LOG = re.compile(r"^([^=\s]+)=(.+)$".replace(r"\s", SPACE), re.S)
RE_SENTINEL = re.compile(r"^([^=%s]+)=([A-Za-z_][A-Za-z0-9_]*(,[A-Za-z_][A-Za-z0-9_]*)*)$"
                         % SPACE)
RE_TEST = re.compile(r"^[A-Za-z0-9_]+$")
RE_KV = re.compile(r"^([^=]+)=(.+)$", re.S)
RE_TIMEOUT = re.compile(r"^[1-9][0-9]{0,4}$")
RE_SCRATCH = re.compile(r"^[0-4]$")


class ScenarioError(Exception):
    """A scenario that does not resolve: str() is "FILE:LINE: message"."""

    def __init__(self, loc, message):
        Exception.__init__(self, "%s: %s" % (loc, message))
        self.loc = loc
        self.message = message


class Unplaced(ScenarioError):
    """An error with no place in a file: str() is the message alone."""

    def __init__(self, message):
        Exception.__init__(self, message)
        self.loc = None
        self.message = message


class Kernel:
    """A lab kernel, as kernel/build.sh facts gives it: expect (whose expectations it follows),
    timeout (its timeout factor) and kmemleak (what the kmemleak test observes on it)."""

    def __init__(self, name, expect=None, timeout=1, kmemleak="unavailable"):
        self.name = name
        self.expect = expect or name
        self.timeout = int(timeout)
        self.kmemleak = kmemleak

    def __repr__(self):
        return "Kernel(%r, expect=%r, timeout=%r, kmemleak=%r)" % (
            self.name, self.expect, self.timeout, self.kmemleak)


def read_facts(text):
    """The kernels that boot, in order, from kernel/build.sh facts lines
    ("K expect=E timeout=N kmemleak=M boots=yes|no ...")."""
    kernels = []
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        f = dict(w.split("=", 1) for w in words[1:] if "=" in w)
        if f.get("boots") != "yes":
            continue
        kernels.append(Kernel(words[0], f.get("expect"), f.get("timeout", "1"),
                              f.get("kmemleak", "unavailable")))
    return kernels


class Boot:
    """A scenario resolved for one kernel: the result object lab/run boots and decides by."""

    def __init__(self, scenario, kernel, **kw):
        self.scenario = scenario
        self.kernel = kernel
        self.file = kw["file"]
        self.expectations_of = kw["expectations_of"]
        self.description = kw["description"]
        self.timeout = kw["timeout"]            # seconds: the scenario's times the kernel's factor
        self.initramfs = kw["initramfs"]
        self.disk = kw["disk"]
        self.modules = kw["modules"]
        self.scratch = kw["scratch"]
        self.kmemleak = kw["kmemleak"]
        self.cmdline = kw["cmdline"]            # the words before the first "--"
        self.init_args = kw["init_args"]        # the words after it; None: no "--"
        self.expect = kw["expect"]              # [(TEST, VALUE)], in order
        self.logs = kw["logs"]                  # [(log|nolog|sentinel, K|*, FILE:LINE, TEXT)]

    def as_dict(self):
        d = dict(vars(self))
        d["expect"] = [list(e) for e in self.expect]
        d["logs"] = [dict(zip(("kind", "kernel", "where", "text"), x)) for x in self.logs]
        return d


class Scenario:
    """A loaded scenario: name, file, kernels (in order, the kernels that follow another's
    expectations last) and boots (kernel -> Boot)."""

    def __init__(self, name, file, kernels, boots):
        self.name = name
        self.file = file
        self.kernels = kernels
        self.boots = boots


def rel(path, top):
    """lab/run's rel: PATH without the leading "TOP/"."""
    if top and path.startswith(top + "/"):
        return path[len(top) + 1:]
    return path


def scenario_names(directory):
    """The scenarios of DIRECTORY (none when it is missing): its files but README.md and editor
    backups (NAME~), in the order of the locale's collation, as bash sorts a glob (lab/run's
    order; the caller sets LC_COLLATE: locale.setlocale(locale.LC_COLLATE, ""))."""
    if not os.path.isdir(directory):
        return []
    names = []
    for name in os.listdir(directory):
        if name == "README.md" or name.endswith("~"):
            continue
        if os.path.isfile(os.path.join(directory, name)):
            names.append(name)
    return sorted(names, key=locale.strxfrm)


def _words(text):
    """TEXT split as bash's read -a splits it (IFS: space, tab, newline)."""
    return [w for w in re.split("[ \t\n]+", text) if w]


def _strip(line):
    if line.endswith("\r"):
        line = line[:-1]
    line = RE_COMMENT.sub("", line, count=1)
    return line.strip(SPACE)


def _read(name, directory, top, chain, out):
    """Append (text, FILE:LINE, FILE) of NAME's setting lines to OUT, its base's first."""
    path = "%s/%s" % (directory, name)
    file = rel(path, top)
    if not os.path.isfile(path):
        raise Unplaced("no scenario file %s" % file)
    with open(path, "rb") as f:
        data = f.read().decode("utf-8", "surrogateescape")
    lines = data.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    own, base, base_loc = [], None, None
    for lineno, line in enumerate(lines, 1):
        line = _strip(line.replace("\0", ""))
        if line == "" or line.startswith("#"):
            continue
        m = RE_BASE.match(line)
        if m:
            here = "%s:%d" % (file, lineno)
            if base is not None:
                raise ScenarioError(here, "base: is given twice (first at %s)"
                                    % base_loc.rsplit(":", 1)[1])
            base, base_loc = m.group(1), here
            if not RE_NAME.match(base):
                raise ScenarioError(base_loc, "base: '%s' is not a scenario name" % base)
            if not os.path.isfile("%s/%s" % (directory, base)):
                raise ScenarioError(base_loc, "base: no scenario %s in %s"
                                    % (base, rel(directory, top)))
            if base in chain:
                raise ScenarioError(base_loc, "base: %s is based on this file (%s -> %s)"
                                    % (base, " -> ".join(chain), base))
            continue
        own.append((line, "%s:%d" % (file, lineno), file))
    if base is not None:
        _read(base, directory, top, chain + [base], out)
    out.extend(own)


def load(name, directory, kernels, top=None, overrides=()):
    """Scenario NAME of DIRECTORY resolved for KERNELS (a list of Kernel: the lab's kernels
    that boot); OVERRIDES: "TEST=VALUE" strings (lab/run --expect), for every kernel."""
    all_names = [k.name for k in kernels]
    facts = {k.name: k for k in kernels}
    file = rel("%s/%s" % (directory, name), top)
    desc, initramfs, disk, timeout, kmemleak = "", "yes", "ext4", 60, "yes"
    modules, scratch = "no", 0
    skernels = []
    cmdline, cmd_file = [], None
    kcmd, kcmd_loc, kcmd_file = {}, {}, {}
    logs = []
    exps = []               # [text, loc, test, file]
    once = {}
    lines = []
    _read(name, directory, top, [name], lines)

    for line, here, lfile in lines:
        def err(msg):
            raise ScenarioError(here, msg)
        m = RE_EXPECT.match(line)
        if m:
            text = m.group(1)
            t = (_words(text) or [""])[0]
            replaced = False
            for e in exps:
                if e[2] != t:
                    continue
                if e[3] != lfile:
                    # a base's line: replaced in place
                    e[0], e[1], e[3] = text, here, lfile
                    replaced = True
                # (the same file twice: _parse_expect says so)
                break
            if not replaced:
                exps.append([text, here, t, lfile])
            continue
        m = RE_KEY.match(line)
        if not m:
            err("cannot read '%s' (want 'key: value' or 'expect TEST KERNEL=VALUE...')" % line)
        key, bracket, kern, value = m.group(1), m.group(2), m.group(3), m.group(4)
        if bracket and key != "cmdline":
            err("only cmdline takes a [KERNEL]")
        if key in ONCE:
            if (lfile, key) in once:
                err("%s: is given twice (first at line %s)" % (key, once[(lfile, key)]))
            once[(lfile, key)] = here.rsplit(":", 1)[1]
        if key == "description":
            desc = value
        elif key == "kernels":
            skernels = _words(value)
            if not skernels:
                err("kernels: names no kernel")
            if skernels == ["all"]:
                # every kernel held to its own expectations; their variants follow below
                skernels = [k.name for k in kernels if k.expect == k.name]
            seen = set()
            for k in skernels:
                if k not in all_names:
                    err("unknown kernel '%s' (the kernels are: %s, or all)"
                        % (k, " ".join(all_names)))
                if k in seen:
                    err("kernel %s is listed twice" % k)
                seen.add(k)
        elif key == "initramfs":
            if value not in INITRAMFS:
                err("initramfs: '%s' is not yes, no, truncated or real:KIND (KIND: "
                    "itools-busybox, itools-klibc, dracut, dracut-systemd)" % value)
            initramfs = value
        elif key == "disk":
            if value not in DISKS:
                err("disk: '%s' is not ext4, none, zeros, truncated or noinit" % value)
            disk = value
        elif key in ("log", "nolog"):
            m = RE_LOG.match(value)
            if not m:
                err("%s: '%s' is not KERNEL=TEXT or *=TEXT" % (key, value))
            logs.append((key, m.group(1), here, m.group(2)))
        elif key == "sentinel":
            # kept with the log: lines (same kernels, same inheritance); logcheck checks it
            m = RE_SENTINEL.match(value)
            if not m:
                err("sentinel: '%s' is not KERNEL=CALLER[,CALLER...] (C function names)" % value)
            logs.append((key, m.group(1), here, m.group(2)))
        elif key == "modules":
            if value not in ("yes", "no"):
                err("modules: '%s' is not yes or no" % value)
            modules = value
        elif key == "scratch":
            if not RE_SCRATCH.match(value):
                err("scratch: '%s' is not a number of disks from 0 to 4" % value)
            scratch = int(value)
        elif key == "kmemleak":
            if value not in ("yes", "no"):
                err("kmemleak: '%s' is not yes or no" % value)
            kmemleak = value
        elif key == "timeout":
            if not RE_TIMEOUT.match(value):
                err("timeout: '%s' is not a number of seconds" % value)
            timeout = int(value)
        elif key == "cmdline":
            words = _words(value)
            for w in words:
                if '"' in w:
                    err("cmdline: the word '%s' has a '\"'" % w)
                if w.startswith("lab.expect.") or w.startswith("lab.scenario="):
                    err("cmdline: '%s' comes from the runner (use an expect line)" % w)
            if bracket:
                if not kern:
                    err("cmdline[]: name a kernel")
                # a file's cmdline[K]: lines replace those of its base
                if kcmd_file.get(kern) != lfile:
                    kcmd[kern], kcmd_loc[kern], kcmd_file[kern] = [], here, lfile
                kcmd[kern] += words
            else:
                # a file's cmdline: lines replace those of its base
                if cmd_file != lfile:
                    cmdline, cmd_file = [], lfile
                cmdline += words
        elif key == "drop":
            words = _words(value)
            if not words:
                err("drop: names no test")
            for t in words:
                for i, e in enumerate(exps):
                    if e[2] == t and e[3] != lfile:
                        del exps[i]
                        break
                else:
                    err("drop: the base has no test %s (or it is dropped twice)" % t)
        else:
            err("unknown key '%s' (the keys are %s)" % (key, KEYS))

    if not skernels:
        raise ScenarioError(file, "no 'kernels:' line")
    for k in list(kcmd_loc):
        if k in skernels:
            continue
        if kcmd_file[k] != file:
            del kcmd[k]     # a base's cmdline[K] for a kernel this scenario does not boot
            continue
        raise ScenarioError(kcmd_loc[k], "cmdline[%s]: %s is not in this scenario's kernels (%s)"
                            % (k, k, " ".join(skernels)))
    if not exps:
        raise ScenarioError(file, "no 'expect' line")
    kept = []
    for kind, k, loc, text in logs:
        if k == "*" or k in skernels:
            kept.append((kind, k, loc, text))
        elif loc.rsplit(":", 1)[0] == file:
            raise ScenarioError(loc, "%s: kernel %s is not in this scenario's kernels (%s)"
                                % (kind, k, " ".join(skernels)))
    logs = kept
    tests, expect = [], {}
    for text, loc, _, efile in exps:
        _parse_expect(loc, text, efile == file, skernels, tests, expect)

    # A kernel that follows another's expectations (kernel/kernels: full-debug expect=full)
    # boots wherever that one does, with its values, cmdline[K] words and log lines.
    for d in kernels:
        base = d.expect
        if base == d.name or base not in skernels or d.name in skernels:
            continue
        skernels.append(d.name)
        for t in tests:
            expect[(t, d.name)] = expect[(t, base)]
        if base in kcmd:
            kcmd[d.name] = kcmd[base]
        logs += [(kind, d.name, loc, text) for kind, k, loc, text in list(logs) if k == base]
    # every boot ends with the init's kmemleak test, unless the file has its own line
    if "kmemleak" not in tests and kmemleak == "yes":
        tests.append("kmemleak")
        for k in skernels:
            expect[("kmemleak", k)] = facts[k].kmemleak
    for o in overrides:
        t, v = o.split("=", 1)
        if t not in tests:
            raise Unplaced("--expect %s: %s has no test %s" % (o, file, t))
        for k in skernels:
            expect[(t, k)] = v

    boots = {}
    for k in skernels:
        pre, post, dashes = [], [], 0
        for words in (cmdline, kcmd.get(k, [])):
            after = False
            for w in words:
                if not after and w == "--":
                    after, dashes = True, dashes + 1
                elif not after:
                    pre.append(w)
                else:
                    post.append(w)
        boots[k] = Boot(name, k, file=file, expectations_of=facts[k].expect, description=desc,
                        timeout=timeout * facts[k].timeout, initramfs=initramfs, disk=disk,
                        modules=modules, scratch=scratch, kmemleak=kmemleak, cmdline=pre,
                        init_args=post if dashes else None,
                        expect=[(t, expect[(t, k)]) for t in tests],
                        logs=[x for x in logs if x[1] in ("*", k)])
    return Scenario(name, file, skernels, boots)


def _parse_expect(loc, text, own, skernels, tests, expect):
    """One expect line: TESTS gets its test, EXPECT (TEST, K) -> VALUE for every kernel. A
    base's line may name kernels the scenario does not boot (left out); its own may not."""
    def err(msg):
        raise ScenarioError(loc, msg)
    words = _words(text)
    test = words[0] if words else ""
    if not RE_TEST.match(test):
        err("test name '%s' is not letters, digits and _" % test)
    if test in tests:
        err("expect %s: the test is given twice" % test)
    if len(words) < 2:
        err("expect %s: no KERNEL=VALUE" % test)
    given = {}
    for word in words[1:]:
        m = RE_KV.match(word)
        if not m:
            err("expect %s: '%s' is not KERNEL=VALUE" % (test, word))
        k, v = m.group(1), m.group(2)
        if k != "*" and k not in skernels:
            if not own:
                continue
            err("expect %s: kernel %s is not in this scenario's kernels (%s)"
                % (test, k, " ".join(skernels)))
        if k in given:
            err("expect %s: %s is given twice" % (test, k))
        if '"' in v:
            err("expect %s: the value '%s' has a '\"'" % (test, v))
        given[k] = v
    for k in skernels:
        if k in given:
            expect[(test, k)] = given[k]
        elif "*" in given:
            expect[(test, k)] = given["*"]
        else:
            err("expect %s: no value for kernel %s (add %s=VALUE or *=VALUE)" % (test, k, k))
    tests.append(test)


def describe(sc):
    """The resolved description of a loaded scenario (lab/scenarios/README.md): tab-separated
    lines, SCENARIO KERNEL KEY VALUE..., KERNEL "-" for the scenario as a whole."""
    out = ["%s\t-\tfile\t%s" % (sc.name, sc.file),
           "%s\t-\tkernels\t%s" % (sc.name, " ".join(sc.kernels))]
    for k in sc.kernels:
        b = sc.boots[k]
        p = "%s\t%s\t" % (sc.name, k)
        out += [p + "expectations_of\t" + b.expectations_of,
                p + "description\t" + b.description,
                p + "timeout\t%d" % b.timeout,
                p + "initramfs\t" + b.initramfs,
                p + "disk\t" + b.disk,
                p + "modules\t" + b.modules,
                p + "scratch\t%d" % b.scratch,
                p + "kmemleak\t" + b.kmemleak,
                p + "cmdline\t" + " ".join(b.cmdline)]
        if b.init_args is not None:
            out.append(p + "init_args\t" + " ".join(b.init_args))
        out += [p + "expect\t%s\t%s" % e for e in b.expect]
        out += [p + "%s\t%s\t%s\t%s" % x for x in b.logs]
    return "\n".join(out) + "\n"
