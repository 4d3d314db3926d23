# unittest and doctest output as CPython prints it: verbose, failures, errors, skips, subTest, exit codes.
import os, subprocess, sys, tempfile, textwrap
py = sys.executable
d = tempfile.mkdtemp()
os.chdir(d)
with open("test_things.py", "w") as f:
    f.write(textwrap.dedent('''
    import unittest
    class TestMath(unittest.TestCase):
        def test_add(self):
            self.assertEqual(1 + 1, 2)
        def test_fail(self):
            self.assertEqual([1, 2, 3], [1, 2, 4])
        def test_dict(self):
            self.assertDictEqual({"a": 1}, {"a": 2})
        def test_error(self):
            raise KeyError("oops")
        @unittest.skip("not now")
        def test_skip(self):
            pass
        @unittest.expectedFailure
        def test_xfail(self):
            self.assertTrue(False)
        @unittest.expectedFailure
        def test_xpass(self):
            pass
        def test_sub(self):
            for i in range(3):
                with self.subTest(i=i):
                    self.assertLess(i, 2)
        def test_raises(self):
            with self.assertRaises(ValueError):
                int("z")
            with self.assertRaisesRegex(ValueError, "invalid literal"):
                int("q")
        def test_almost(self):
            self.assertAlmostEqual(0.1 + 0.2, 0.3)
            self.assertIn("a", "abc")
            self.assertIsNone(None)
            self.assertMultiLineEqual("a\\nb\\n", "a\\nc\\n")
    class TestSetup(unittest.TestCase):
        @classmethod
        def setUpClass(cls):
            print("setUpClass")
        def setUp(self):
            self.x = 5
        def tearDown(self):
            pass
        def test_x(self):
            self.assertEqual(self.x, 5, "x should be 5")
        def test_msg(self):
            self.assertTrue(self.x > 10, "x too small")
    if __name__ == "__main__":
        unittest.main()
    '''))
with open("test_ok.py", "w") as f:
    f.write("import unittest\nclass T(unittest.TestCase):\n    def test_a(self):\n        pass\n    def test_b(self):\n        self.assertEqual('x', 'x')\n")
keep = lambda l: not l.startswith("Ran ") and "/" not in l and l.strip(" ~^")
def run(*args):
    r = subprocess.run([py, *args], capture_output=True, text=True)
    # Not the caret lines under traceback source (their style changed in CPython 3.13) nor timings and paths.
    err = "\n".join(l for l in r.stderr.splitlines() if keep(l))
    print(args, r.returncode, repr("\n".join(l for l in r.stdout.splitlines() if keep(l))))
    print(err)
run("test_things.py")
run("test_things.py", "-v")
run("-m", "unittest", "test_ok")
run("-m", "unittest", "-v", "test_ok")
run("-m", "unittest", "test_ok.T.test_a")
run("-m", "unittest", "-q", "test_ok")
run("-m", "unittest", "nosuchmodule_xyz")
run("-m", "unittest", "discover", "-p", "test_ok*.py")
run("-m", "unittest", "-k", "test_b", "test_ok")
run("test_things.py", "-f")
run("test_things.py", "TestSetup")
with open("doc.py", "w") as f:
    f.write(textwrap.dedent('''
    def add(a, b):
        """
        >>> add(1, 2)
        3
        >>> add("a", "b")
        'ab'
        >>> add(1, 1)
        3
        >>> [add(i, i) for i in range(3)]
        [0, 2, 4]
        >>> 1/0
        Traceback (most recent call last):
        ...
        ZeroDivisionError: division by zero
        """
        return a + b
    def sub(a, b):
        """
        >>> sub(3, 1)
        1
        """
        return a - b
    if __name__ == "__main__":
        import doctest
        print(doctest.testmod())
    '''))
run("doc.py")
run("-m", "doctest", "doc.py")
import unittest, io
class Inline(unittest.TestCase):
    def test_one(self):
        self.assertEqual(sorted([3, 1, 2]), [1, 2, 3])
    def test_two(self):
        self.assertNotEqual(1, 1)
s = io.StringIO()
res = unittest.TextTestRunner(stream=s, verbosity=2).run(unittest.defaultTestLoader.loadTestsFromTestCase(Inline))
print(res.testsRun, len(res.failures), len(res.errors), res.wasSuccessful())
print("\n".join(l for l in s.getvalue().splitlines() if keep(l)))
