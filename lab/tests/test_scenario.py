#!/usr/bin/env python3
"""Tests of the scenario loader (lab/scenario/scenario.py, lab/scenario/resolve): plain files,
base: inheritance, drop:, per-kernel expect values with the * default, kernels that follow
another's expectations, log:/nolog:/sentinel:, and bad files, whose errors name the file and
line. Prints KTAP ("ok N NAME" / "not ok N NAME", then "# N passed, N failed", as
lab/tests/ktap-lib.sh does); exits 1 when a test failed.

  lab/tests/test_scenario.py
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
LAB = os.path.dirname(HERE)
sys.dont_write_bytecode = True    # no __pycache__ in the tree
sys.path.insert(0, os.path.join(LAB, "scenario"))
import scenario  # noqa: E402

# the lab's kernels as kernel/build.sh facts prints them: full-debug follows full's
FACTS = """stock expect=stock timeout=1 kmemleak=unavailable boots=yes reference=yes boot=pvh
nullfs expect=nullfs timeout=1 kmemleak=unavailable boots=yes reference=yes boot=pvh
full expect=full timeout=1 kmemleak=unavailable boots=yes reference=yes boot=pvh
full-debug expect=full timeout=4 kmemleak=0 boots=yes reference=no boot=bzimage
coverage expect=coverage timeout=1 kmemleak=unavailable boots=no reference=no boot=pvh
"""
KERNELS = scenario.read_facts(FACTS)


class Loader(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_scenario.")
        self.addCleanup(shutil.rmtree, self.dir)

    def write(self, name, text):
        with open(os.path.join(self.dir, name), "w", encoding="utf-8") as f:
            f.write(text)

    def load(self, name, overrides=()):
        return scenario.load(name, self.dir, KERNELS, top=None, overrides=overrides)

    def error(self, name, text=None, overrides=()):
        """The error of loading NAME (written from TEXT first, when given)."""
        if text is not None:
            self.write(name, text)
        with self.assertRaises(scenario.ScenarioError) as cm:
            self.load(name, overrides)
        return str(cm.exception)

    def where(self, name, line):
        return "%s/%s:%d: " % (self.dir, name, line)

    # ---------------------------------------------------------------- good files

    def test_facts(self):
        self.assertEqual([k.name for k in KERNELS], ["stock", "nullfs", "full", "full-debug"])
        self.assertEqual((KERNELS[3].expect, KERNELS[3].timeout, KERNELS[3].kmemleak),
                         ("full", 4, "0"))

    def test_plain_file(self):
        self.write("plain", "description: two kernels   # a comment\r\n"
                            "kernels: stock nullfs\n\n# only a comment\n"
                            "initramfs: no\ndisk: zeros\ntimeout: 30\nscratch: 2\nmodules: yes\n"
                            "cmdline: a.b c.d\ncmdline: e.f -- init.arg\ncmdline[nullfs]: n.w\n"
                            "expect one   *=x  nullfs=y\n  expect two stock=1 nullfs=2")
        sc = self.load("plain")
        self.assertEqual(sc.kernels, ["stock", "nullfs"])
        self.assertEqual(sc.file, self.dir + "/plain")
        b = sc.boots["nullfs"]
        self.assertEqual((b.description, b.initramfs, b.disk, b.timeout, b.scratch, b.modules),
                         ("two kernels", "no", "zeros", 30, 2, "yes"))
        self.assertEqual(b.cmdline, ["a.b", "c.d", "e.f", "n.w"])
        self.assertEqual(b.init_args, ["init.arg"])
        self.assertEqual(b.expect, [("one", "y"), ("two", "2"), ("kmemleak", "unavailable")])
        s = sc.boots["stock"]
        self.assertEqual(s.cmdline, ["a.b", "c.d", "e.f"])
        self.assertEqual(s.expect[:2], [("one", "x"), ("two", "1")])

    def test_defaults(self):
        self.write("d", "kernels: stock\nexpect a *=x\n")
        b = self.load("d").boots["stock"]
        self.assertEqual((b.description, b.initramfs, b.disk, b.timeout, b.scratch, b.modules,
                          b.kmemleak, b.cmdline, b.init_args, b.logs),
                         ("", "yes", "ext4", 60, 0, "no", "yes", [], None, []))

    def test_star_default(self):
        self.write("s", "kernels: stock nullfs full\nexpect a *=x full=y\nexpect b full=1 *=2\n")
        sc = self.load("s")
        self.assertEqual(sc.kernels, ["stock", "nullfs", "full", "full-debug"])
        self.assertEqual([sc.boots[k].expect[0] for k in sc.kernels],
                         [("a", "x"), ("a", "x"), ("a", "y"), ("a", "y")])
        self.assertEqual([sc.boots[k].expect[1][1] for k in sc.kernels], ["2", "2", "1", "1"])

    def test_inheritance(self):
        self.write("core", "description: the core\nkernels: all\ntimeout: 30\n"
                           "cmdline: core.word\ncmdline[nullfs]: n.word\n"
                           "log: *=from the core\nlog: nullfs=only on nullfs\n"
                           "expect a *=x nullfs=y\nexpect b *=1\nexpect c *=2\n")
        self.write("child", "base: core\ndescription: the child\nkernels: stock\n"
                            "expect b *=9\ndrop: c\nexpect d *=4\n")
        self.write("grandchild", "base: child\nkernels: stock nullfs\ncmdline: own.word\n"
                                 "expect c *=3\n")
        child = self.load("child")
        self.assertEqual(child.kernels, ["stock"])
        b = child.boots["stock"]
        self.assertEqual((b.description, b.timeout, b.cmdline), ("the child", 30, ["core.word"]))
        # b replaced in place, c dropped, d new at the end, then kmemleak
        self.assertEqual(b.expect, [("a", "x"), ("b", "9"), ("d", "4"),
                                    ("kmemleak", "unavailable")])
        self.assertEqual([x[3] for x in b.logs], ["from the core"])
        g = self.load("grandchild")
        n = g.boots["nullfs"]
        self.assertEqual(n.cmdline, ["own.word", "n.word"])      # cmdline: replaced, [K] kept
        self.assertEqual([e[0] for e in n.expect], ["a", "b", "d", "c", "kmemleak"])
        self.assertEqual(n.expect[0], ("a", "y"))
        self.assertEqual([x[3] for x in n.logs], ["from the core", "only on nullfs"])
        self.assertEqual(n.logs[1][2], self.dir + "/core:7")
        self.assertEqual(n.description, "the child")

    def test_base_override_keeps_kernels_left_out(self):
        # the base's values for kernels the scenario does not boot are left out
        self.write("b", "kernels: stock full\ncmdline[full]: f.word\nlog: full=full only\n"
                        "expect a stock=1 full=2\n")
        self.write("c", "base: b\nkernels: stock\n")
        sc = self.load("c")
        self.assertEqual(sc.kernels, ["stock"])
        self.assertEqual((sc.boots["stock"].cmdline, sc.boots["stock"].logs), ([], []))
        self.assertEqual(sc.boots["stock"].expect[0], ("a", "1"))

    def test_empty_kcmd_drops_base_words(self):
        self.write("b", "kernels: full\ncmdline[full]: f.word\nexpect a *=1\n")
        self.write("c", "base: b\ncmdline[full]:\n")
        self.assertEqual(self.load("c").boots["full"].cmdline, [])

    def test_kernels_all_and_followers(self):
        # kernels: all: every kernel with expectations of its own; full-debug follows full,
        # with full's values, cmdline[full] words, log lines, its own timeout and kmemleak
        self.write("a", "kernels: all\ntimeout: 30\ncmdline[full]: only.full\n"
                        "log: full=Linux version\nsentinel: full=filp_open\n"
                        "expect a *=x full=y\n")
        sc = self.load("a")
        self.assertEqual(sc.kernels, ["stock", "nullfs", "full", "full-debug"])
        d = sc.boots["full-debug"]
        self.assertEqual((d.timeout, d.expectations_of, d.cmdline), (120, "full", ["only.full"]))
        self.assertEqual(d.expect, [("a", "y"), ("kmemleak", "0")])
        self.assertEqual([(x[0], x[1], x[3]) for x in d.logs],
                         [("log", "full-debug", "Linux version"),
                          ("sentinel", "full-debug", "filp_open")])
        self.assertEqual(sc.boots["stock"].expect, [("a", "x"), ("kmemleak", "unavailable")])
        # a scenario without full does not boot full-debug; one naming it boots it as named
        self.write("s", "kernels: stock\nexpect a *=x\n")
        self.assertEqual(self.load("s").kernels, ["stock"])
        self.write("n", "kernels: full-debug full\nexpect a *=x full-debug=z\n")
        sc = self.load("n")
        self.assertEqual(sc.kernels, ["full-debug", "full"])
        self.assertEqual(sc.boots["full-debug"].expect[0], ("a", "z"))

    def test_kmemleak(self):
        self.write("no", "kernels: stock\nkmemleak: no\nexpect a *=x\n")
        self.assertEqual(self.load("no").boots["stock"].expect, [("a", "x")])
        self.write("own", "kernels: full\nexpect kmemleak *=7\nexpect a *=x\n")
        self.assertEqual(self.load("own").boots["full-debug"].expect,
                         [("kmemleak", "7"), ("a", "x")])

    def test_logs(self):
        self.write("l", "kernels: stock nullfs\nlog: *=Unpacking initramfs...\n"
                        "log: nullfs=two  spaces kept\nnolog: stock=Initramfs unpacking failed\n"
                        "expect a *=x\n")
        sc = self.load("l")
        self.assertEqual(sc.boots["stock"].logs,
                         [("log", "*", self.dir + "/l:2", "Unpacking initramfs..."),
                          ("nolog", "stock", self.dir + "/l:4", "Initramfs unpacking failed")])
        self.assertEqual([x[3] for x in sc.boots["nullfs"].logs],
                         ["Unpacking initramfs...", "two  spaces kept"])

    def test_expect_override(self):
        self.write("o", "kernels: stock full\nexpect a stock=1 full=2\n")
        sc = self.load("o", overrides=["a=z"])
        self.assertEqual([sc.boots[k].expect[0] for k in sc.kernels],
                         [("a", "z"), ("a", "z"), ("a", "z")])
        self.assertEqual(self.error("o", overrides=["nosuch=1"]),
                         "--expect nosuch=1: %s/o has no test nosuch" % self.dir)

    def test_file_relative_to_top(self):
        self.write("t", "kernels: stock\ncolour: red\nexpect a *=x\n")
        with self.assertRaises(scenario.ScenarioError) as cm:
            scenario.load("t", self.dir, KERNELS, top=os.path.dirname(self.dir))
        self.assertEqual(str(cm.exception).split(":")[:2],
                         [os.path.basename(self.dir) + "/t", "2"])

    def test_names(self):
        for n in ("b", "a-x", "README.md", "c~"):
            self.write(n, "")
        os.mkdir(os.path.join(self.dir, "sub"))
        self.assertEqual(scenario.scenario_names(self.dir), ["a-x", "b"])
        self.assertEqual(scenario.scenario_names(self.dir + "/nosuch"), [])

    def test_real_scenarios(self):
        # every scenario of lab/scenarios resolves, every boot has tests
        d = os.path.join(LAB, "scenarios")
        for n in scenario.scenario_names(d):
            sc = scenario.load(n, d, KERNELS, top=os.path.dirname(LAB))
            self.assertEqual(sc.file, "lab/scenarios/" + n)
            for k in sc.kernels:
                self.assertTrue(sc.boots[k].expect, "%s on %s" % (n, k))

    # ---------------------------------------------------------------- bad files

    def test_errors(self):
        cases = {
            "novalue": ("kernels: stock nullfs\n# only stock\nexpect a stock=x\n", 3,
                        "expect a: no value for kernel nullfs (add nullfs=VALUE or *=VALUE)"),
            "badkey": ("kernels: stock\ncolour: red\nexpect a *=x\n", 2,
                       "unknown key 'colour' (the keys are %s)" % scenario.KEYS),
            "badkernel": ("kernels: stock nosuch\nexpect a *=x\n", 1,
                          "unknown kernel 'nosuch' (the kernels are: stock nullfs full "
                          "full-debug, or all)"),
            "dupkernel": ("kernels: stock stock\nexpect a *=x\n", 1,
                          "kernel stock is listed twice"),
            "expectkernel": ("kernels: stock\nexpect a stock=x nosuch=y\n", 2,
                             "expect a: kernel nosuch is not in this scenario's kernels (stock)"),
            "duptest": ("kernels: stock\nexpect a *=x\nexpect a *=y\n", 3,
                        "expect a: the test is given twice"),
            "kcmd": ("kernels: stock\ncmdline[nullfs]: w\nexpect a *=x\n", 2,
                     "cmdline[nullfs]: nullfs is not in this scenario's kernels (stock)"),
            "kcmdempty": ("kernels: stock\ncmdline[]: w\nexpect a *=x\n", 2,
                          "cmdline[]: name a kernel"),
            "bracket": ("kernels: stock\ntimeout[stock]: 3\nexpect a *=x\n", 2,
                        "only cmdline takes a [KERNEL]"),
            "ownword": ("kernels: stock\ncmdline: lab.expect.a=x\nexpect a *=x\n", 2,
                        "cmdline: 'lab.expect.a=x' comes from the runner (use an expect line)"),
            "quoteword": ("kernels: stock\ncmdline: a\"b\nexpect a *=x\n", 2,
                          "cmdline: the word 'a\"b' has a '\"'"),
            "badtimeout": ("kernels: stock\ntimeout: soon\nexpect a *=x\n", 2,
                           "timeout: 'soon' is not a number of seconds"),
            "quote": ("kernels: stock\nexpect a *=x\"\n", 2,
                      "expect a: the value 'x\"' has a '\"'"),
            "twice": ("kernels: stock\nkernels: stock\nexpect a *=x\n", 2,
                      "kernels: is given twice (first at line 1)"),
            "garbage": ("kernels: stock\nthis is not a setting\n", 2,
                        "cannot read 'this is not a setting' (want 'key: value' or "
                        "'expect TEST KERNEL=VALUE...')"),
            "badtest": ("kernels: stock\nexpect a-b *=x\n", 2,
                        "test name 'a-b' is not letters, digits and _"),
            "novalues": ("kernels: stock\nexpect a\n", 2, "expect a: no KERNEL=VALUE"),
            "badword": ("kernels: stock\nexpect a stock\n", 2,
                        "expect a: 'stock' is not KERNEL=VALUE"),
            "twicekernel": ("kernels: stock\nexpect a stock=x stock=y\n", 2,
                            "expect a: stock is given twice"),
            "baddisk": ("kernels: stock\ndisk: floppy\nexpect a *=x\n", 2,
                        "disk: 'floppy' is not ext4, none, zeros, truncated or noinit"),
            "badreal": ("kernels: stock\ninitramfs: real:gentoo\nexpect a *=x\n", 2,
                        "initramfs: 'real:gentoo' is not yes, no, truncated or real:KIND (KIND: "
                        "itools-busybox, itools-klibc, dracut, dracut-systemd)"),
            "badlog": ("kernels: stock\nlog: no kernel here\nexpect a *=x\n", 2,
                       "log: 'no kernel here' is not KERNEL=TEXT or *=TEXT"),
            "badnolog": ("kernels: stock\nnolog: =text\nexpect a *=x\n", 2,
                         "nolog: '=text' is not KERNEL=TEXT or *=TEXT"),
            # the kernel of a log: line is checked once kernels: is known, wherever that is
            "logkernel": ("expect a *=x\nkernels: stock\nlog: nosuch=text\n", 3,
                          "log: kernel nosuch is not in this scenario's kernels (stock)"),
            "badsentinel": ("kernels: stock\nsentinel: stock=a-b\nexpect a *=x\n", 2,
                            "sentinel: 'stock=a-b' is not KERNEL=CALLER[,CALLER...] "
                            "(C function names)"),
            "badscratch": ("kernels: stock\nscratch: 5\nexpect a *=x\n", 2,
                           "scratch: '5' is not a number of disks from 0 to 4"),
            "badmodules": ("kernels: stock\nmodules: maybe\nexpect a *=x\n", 2,
                           "modules: 'maybe' is not yes or no"),
            "badkml": ("kernels: stock\nkmemleak: maybe\nexpect a *=x\n", 2,
                       "kmemleak: 'maybe' is not yes or no"),
            "emptykernels": ("kernels:\nexpect a *=x\n", 1, "kernels: names no kernel"),
        }
        for name, (text, line, message) in cases.items():
            with self.subTest(name=name):
                self.assertEqual(self.error(name, text), self.where(name, line) + message)

    def test_file_errors(self):
        # errors of the file as a whole: FILE: message, no line
        self.assertEqual(self.error("nok", "expect a *=x\n"),
                         "%s/nok: no 'kernels:' line" % self.dir)
        self.assertEqual(self.error("noe", "kernels: stock\n"),
                         "%s/noe: no 'expect' line" % self.dir)

    def test_base_errors(self):
        self.write("core", "kernels: all\nexpect a *=x\nexpect b *=1\n")
        self.assertEqual(self.error("nobase", "base: nosuch\n"),
                         self.where("nobase", 1) + "base: no scenario nosuch in " + self.dir)
        self.assertEqual(self.error("badbase", "\nbase: ../x\n"),
                         self.where("badbase", 2) + "base: '../x' is not a scenario name")
        self.write("loop1", "base: loop2\nkernels: stock\nexpect a *=x\n")
        self.write("loop2", "base: loop1\n")
        self.assertEqual(self.error("loop1"), self.where("loop2", 1) +
                         "base: loop1 is based on this file (loop1 -> loop2 -> loop1)")
        self.assertEqual(self.error("self", "base: self\n"),
                         self.where("self", 1) + "base: self is based on this file (self -> self)")
        self.assertEqual(self.error("twobase", "base: core\nbase: core\n"),
                         self.where("twobase", 2) + "base: is given twice (first at 1)")
        self.assertEqual(self.error("badrop", "base: core\ndrop: zz\n"),
                         self.where("badrop", 2) +
                         "drop: the base has no test zz (or it is dropped twice)")
        self.assertEqual(self.error("dropown", "kernels: stock\nexpect a *=x\ndrop: a\n"),
                         self.where("dropown", 3) +
                         "drop: the base has no test a (or it is dropped twice)")
        self.assertEqual(self.error("twodrop", "base: core\ndrop: a a\n"),
                         self.where("twodrop", 2) +
                         "drop: the base has no test a (or it is dropped twice)")
        # the scenario's own lines may not name a kernel it does not boot; the base's may
        self.assertEqual(self.error("ownkernel", "base: core\nkernels: stock\n"
                                                 "expect b stock=1 nullfs=2\n"),
                         self.where("ownkernel", 3) +
                         "expect b: kernel nullfs is not in this scenario's kernels (stock)")
        # a base's expect line replaced twice in one file: the second is a duplicate
        self.assertEqual(self.error("child2", "base: core\nexpect a *=1\nexpect a *=2\n"),
                         self.where("child2", 3) + "expect a: the test is given twice")
        # an error in the base names the base's file and line
        self.write("badcore", "kernels: stock\nexpect a *=x\nwhat\n")
        self.assertEqual(self.error("onbad", "base: badcore\n"), self.where("badcore", 3) +
                         "cannot read 'what' (want 'key: value' or 'expect TEST KERNEL=VALUE...')")


class Resolve(unittest.TestCase):
    """lab/scenario/resolve, the description lab/run reads."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="test_scenario.")
        self.addCleanup(shutil.rmtree, self.dir)
        with open(os.path.join(self.dir, "one"), "w", encoding="utf-8") as f:
            f.write("description: the one\tand a tab\nkernels: stock full\n"
                    "cmdline: a -- b\nlog: *=some  text\nexpect t *=x full=y\n")
        with open(os.path.join(self.dir, "bad"), "w", encoding="utf-8") as f:
            f.write("kernels: stock\nexpect t\n")

    def resolve(self, *args):
        return subprocess.run([os.path.join(LAB, "scenario", "resolve"), "--dir", self.dir,
                               "--facts", "-"] + list(args), input=FACTS, capture_output=True,
                              text=True, check=False)

    def test_description(self):
        r = self.resolve("one")
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        lines = r.stdout.splitlines()
        d = self.dir + "/one"
        self.assertEqual(lines[:3], ["one\t-\tfile\t" + d, "one\t-\tkernels\tstock full full-debug",
                                     "one\tstock\texpectations_of\tstock"])
        self.assertIn("one\tstock\tdescription\tthe one\tand a tab", lines)
        self.assertIn("one\tfull-debug\ttimeout\t240", lines)
        self.assertIn("one\tfull\tcmdline\ta", lines)
        self.assertIn("one\tfull\tinit_args\tb", lines)
        self.assertIn("one\tfull-debug\texpect\tt\ty", lines)
        self.assertIn("one\tfull-debug\texpect\tkmemleak\t0", lines)
        self.assertIn("one\tstock\tlog\t*\t%s:4\tsome  text" % d, lines)

    def test_error(self):
        r = self.resolve("one", "bad")
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr, "lab/scenario/resolve: %s/bad:2: expect t: no KERNEL=VALUE\n"
                         % self.dir)
        self.assertTrue(r.stdout.startswith("one\t-\tfile\t"))     # the ones before it
        r = self.resolve("--prog", "lab/run", "--error-lines", "bad", "one")
        self.assertEqual((r.returncode, r.stderr), (0, ""))
        self.assertEqual(r.stdout.splitlines()[0],
                         "bad\t-\terror\t%s/bad:2: expect t: no KERNEL=VALUE" % self.dir)
        self.assertIn("one\t-\tkernels\tstock full full-debug", r.stdout)

    def test_json_and_names(self):
        r = self.resolve("--json", "one")
        self.assertEqual(r.returncode, 0)
        boots = json.loads(r.stdout)
        self.assertEqual([(b["scenario"], b["kernel"]) for b in boots],
                         [("one", "stock"), ("one", "full"), ("one", "full-debug")])
        self.assertEqual(boots[2]["expect"], [["t", "y"], ["kmemleak", "0"]])
        self.assertEqual(boots[0]["logs"][0]["text"], "some  text")
        r = self.resolve("--names")
        self.assertEqual(r.stdout, "bad\none\n")


class KtapResult(unittest.TestResult):
    """One KTAP line a test, as lab/tests/ktap-lib.sh prints them."""

    def __init__(self):
        unittest.TestResult.__init__(self)
        self.n = self.bad = 0
        self._failed = False

    def startTest(self, test):
        unittest.TestResult.startTest(self, test)
        self._failed = False

    def _fail(self, test, err):
        self._failed = True
        for line in self._exc_info_to_string(err, test).rstrip("\n").split("\n"):
            print("# " + line)

    def addFailure(self, test, err):
        unittest.TestResult.addFailure(self, test, err)
        self._fail(test, err)

    def addError(self, test, err):
        unittest.TestResult.addError(self, test, err)
        self._fail(test, err)

    def addSubTest(self, test, subtest, err):
        unittest.TestResult.addSubTest(self, test, subtest, err)
        if err is not None:
            self._fail(subtest, err)

    def stopTest(self, test):
        unittest.TestResult.stopTest(self, test)
        self.n += 1
        name = test.id().rsplit(".", 2)
        name = "%s_%s" % (name[-2].lower(), name[-1][len("test_"):])
        if self._failed:
            self.bad += 1
            print("not ok %d %s" % (self.n, name))
        else:
            print("ok %d %s" % (self.n, name))
        sys.stdout.flush()


def main():
    suite = unittest.defaultTestLoader.loadTestsFromModule(sys.modules[__name__])
    print("KTAP version 1")
    print("1..%d" % suite.countTestCases())
    result = KtapResult()
    suite.run(result)
    print("# %d passed, %d failed" % (result.n - result.bad, result.bad))
    return 1 if result.bad else 0


if __name__ == "__main__":
    sys.exit(main())
