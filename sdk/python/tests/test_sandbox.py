"""The Python SDK against the real engine (``sandglass rpc``): run from
sdk/python/python.test.ts with SANDGLASS_CLI set, or by hand:

    SANDGLASS_CLI=bin/sandglass.mjs python3 -m unittest discover -s sdk/python/tests
"""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from sandglass import (  # noqa: E402
    Connection,
    ConnectionClosedError,
    InvalidArgumentError,
    NotFoundError,
    Sandbox,
    SandglassError,
)


class SandboxTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.conn = Connection(name="python-tests")

    @classmethod
    def tearDownClass(cls):
        cls.conn.close()

    def sandbox(self, **kw):
        sb = Sandbox.create(connection=self.conn, **kw)
        self.addCleanup(sb.close)
        return sb

    def test_runs_in_a_persistent_session(self):
        sb = self.sandbox()
        r = sb.run('cd /tmp && X=7 && echo "$GREETING $X"', env={"GREETING": "hi"})
        self.assertEqual((r.stdout, r.status, r.ok), ("hi 7\n", 0, True))
        self.assertTrue(r.step_id)
        self.assertEqual(sb.run("pwd; echo $X").stdout, "/tmp\n7\n")
        self.assertEqual(sb.run("pwd", cwd="/").stdout, "/\n")
        self.assertEqual(sb.run("tr a-z A-Z", stdin="shout").stdout, "SHOUT")
        self.assertEqual(sb.run("echo oops >&2; exit 4").stderr, "oops\n")
        self.assertEqual(sb.run("exit 4").status, 4)
        self.assertEqual(sb.run("sleep 5", timeout_ms=200).status, 124)

    def test_settings_apply_over_the_engine_defaults(self):
        sb = self.sandbox(env={"FROM_SETTINGS": "yes"}, limits={"fileBytes": 1000}, timeout_ms=5000)
        self.assertEqual(sb.run("echo $FROM_SETTINGS").stdout, "yes\n")
        self.assertEqual(sb.info["settings"]["timeoutMs"], 5000)
        self.assertGreater(sb.info["settings"]["limits"]["totalBytes"], 0)
        self.assertNotEqual(sb.run("head -c 5000 /dev/zero > /tmp/big").status, 0)
        with self.assertRaises(InvalidArgumentError):
            Sandbox.create(connection=self.conn, limits={"fileBytes": -1})

    def test_files(self):
        sb = self.sandbox()
        sb.mkdir("/w/sub", recursive=True)
        sb.write_file("/w/a.txt", "héllo\n")
        sb.write_file("/w/b.bin", bytes([0, 255, 7]), mode=0o600)
        self.assertEqual(sb.read_text("/w/a.txt"), "héllo\n")
        self.assertEqual(sb.read_file("/w/b.bin"), bytes([0, 255, 7]))
        self.assertEqual(sb.stat("/w/b.bin").mode & 0o777, 0o600)
        self.assertEqual(
            sorted((e.kind, e.name) for e in sb.read_dir("/w")),
            [("dir", "sub"), ("file", "a.txt"), ("file", "b.bin")],
        )
        self.assertEqual(sb.run("wc -c < /w/b.bin").stdout.strip(), "3")
        sb.rename("/w/a.txt", "/w/sub/a.txt")
        self.assertTrue(sb.exists("/w/sub/a.txt"))
        sb.remove("/w/sub", recursive=True)
        self.assertFalse(sb.exists("/w/sub"))

    def test_snapshot_restore_fork(self):
        sb = self.sandbox()
        sb.write_file("/tmp/state", "one")
        snap = sb.snapshot()
        sb.write_file("/tmp/state", "two")
        sb.write_file("/tmp/new.bin", b"\x00\x01")
        changed = sb.diff(snap)
        self.assertEqual(
            [(d.path, d.change, d.kind, d.text) for d in changed],
            [("/tmp/new.bin", "added", "file", False), ("/tmp/state", "modified", "file", True)],
        )
        self.assertEqual((changed[1].lines_added, changed[1].lines_removed), (1, 1))
        self.assertEqual(changed[0].size_after, 2)
        self.assertEqual(sb.diff(snap, sb.snapshot()), changed)
        self.assertEqual(sb.diff(sb.snapshot()), [])
        fork = sb.fork()
        self.addCleanup(fork.close)
        self.assertIs(fork.connection, sb.connection)
        self.assertNotEqual(fork.id, sb.id)
        sb.restore(snap)
        self.assertEqual(sb.read_text("/tmp/state"), "one")
        self.assertEqual(fork.read_text("/tmp/state"), "two")
        with self.assertRaises(NotFoundError):
            sb.restore("st999999")

    def test_typed_errors(self):
        sb = self.sandbox()
        with self.assertRaises(NotFoundError) as caught:
            sb.read_file("/missing")
        self.assertEqual(caught.exception.code, "ENOENT")
        self.assertIsInstance(caught.exception, FileNotFoundError)
        with self.assertRaises(InvalidArgumentError) as bad:
            sb.run("true", env={"NOT VALID": "1"})
        self.assertEqual(bad.exception.rpc_code, -32602)
        with self.assertRaises(SandglassError) as unknown:
            self.conn.call("noSuchMethod")
        self.assertEqual(unknown.exception.code, "ENOSYS")
        with self.assertRaises(NotFoundError):
            self.conn.call("stats", {"sandboxId": "nope"})

    def test_context_manager_owns_its_server(self):
        with Sandbox.create("owned") as sb:
            self.assertEqual(sb.run("echo owned").stdout, "owned\n")
            conn = sb.connection
        self.assertIsNotNone(conn._proc.poll())
        with self.assertRaises(ConnectionClosedError):
            conn.call("listSandboxes")

    def test_close_destroys_the_sandbox_only(self):
        sb = Sandbox.create("gone", connection=self.conn)
        sb.close()
        sb.close()
        self.assertNotIn(sb.id, [s["id"] for s in self.conn.list_sandboxes()])
        self.assertEqual(self.conn.call("hello", {"apiVersion": 2})["apiVersion"], 2)


if __name__ == "__main__":
    unittest.main()
