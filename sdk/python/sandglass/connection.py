"""One ``sandglass rpc`` child process, spoken to in JSON-RPC 2.0 over its stdio
(one JSON message per line). Calls are synchronous; event notifications that
arrive in between are kept in ``events`` (bounded) for whoever wants them."""

import collections
import json
import os
import shutil
import subprocess
import threading
from typing import Any, Deque, Dict, List, Optional, Sequence

from .errors import ConnectionClosedError, SandglassError, error_for

API_VERSION = 2
#: Events kept in ``Connection.events`` (the oldest are dropped past it).
MAX_EVENTS = 1000


def default_command() -> List[str]:
    """How to start the server: $SANDGLASS_CLI (a path to ``sandglass`` or
    ``bin/sandglass.mjs``), else ``sandglass`` on the PATH."""
    cli = os.environ.get("SANDGLASS_CLI") or shutil.which("sandglass")
    if not cli:
        raise SandglassError(
            "ENOENT", "cannot find the sandglass CLI: set SANDGLASS_CLI or put sandglass on PATH"
        )
    if cli.endswith((".mjs", ".js")):
        return [os.environ.get("SANDGLASS_NODE") or shutil.which("node") or "node", cli, "rpc"]
    return [cli, "rpc"]


class Connection:
    """A connection to an engine in a ``sandglass rpc`` subprocess."""

    def __init__(
        self,
        command: Optional[Sequence[str]] = None,
        *,
        name: str = "sandglass-python",
        env: Optional[Dict[str, str]] = None,
    ) -> None:
        argv = list(command) if command is not None else default_command()
        try:
            self._proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=None,
                env=env,
            )
        except OSError as e:
            raise SandglassError("ENOENT", f"cannot start {argv[0]}: {e}") from e
        self._next_id = 1
        self._lock = threading.Lock()
        self._closed = False
        self.events: Deque[Dict[str, Any]] = collections.deque(maxlen=MAX_EVENTS)
        try:
            hello = self.call(
                "hello", {"apiVersion": API_VERSION, "client": {"name": name}}
            )
        except BaseException:
            self.close()
            raise
        #: The id the engine knows this connection by (shown in the Agents view).
        self.client_id: Optional[str] = hello.get("clientId")

    def call(self, method: str, params: Optional[Dict[str, Any]] = None) -> Any:
        """Calls one API method (see docs/agent-api.md); raises SandglassError on failure."""
        with self._lock:
            if self._closed:
                raise ConnectionClosedError("ECONNRESET", "the connection is closed")
            request_id = self._next_id
            self._next_id += 1
            message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}}
            stdin = self._proc.stdin
            stdout = self._proc.stdout
            assert stdin is not None and stdout is not None
            try:
                stdin.write(json.dumps(message).encode("utf-8") + b"\n")
                stdin.flush()
            except (BrokenPipeError, OSError) as e:
                raise self._gone() from e
            while True:
                line = stdout.readline()
                if not line:
                    raise self._gone()
                if not line.strip():
                    continue
                try:
                    reply = json.loads(line)
                except ValueError:
                    continue
                if reply.get("method") == "event":
                    self.events.append(reply.get("params") or {})
                    continue
                if reply.get("id") != request_id:
                    continue
                error = reply.get("error")
                if error is not None:
                    data = error.get("data") or {}
                    raise error_for(
                        data.get("code", "EIO"), error.get("message", "error"), error.get("code")
                    )
                return reply.get("result")

    def list_sandboxes(self) -> List[Dict[str, Any]]:
        return self.call("listSandboxes")

    def _gone(self) -> ConnectionClosedError:
        status = self._proc.poll()
        how = f"status {status}" if status is not None else "its output closed"
        return ConnectionClosedError("ECONNRESET", f"sandglass rpc ended ({how})")

    def close(self) -> None:
        """Ends the server (closing its stdin) and waits for it."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        try:
            if self._proc.stdin:
                self._proc.stdin.close()
        except OSError:
            pass
        try:
            self._proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        if self._proc.stdout:
            self._proc.stdout.close()

    def __enter__(self) -> "Connection":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
