"""A sandbox as an agent's program drives it: commands in a persistent shell
session, files, snapshots, restore and fork."""

import base64
from dataclasses import MISSING, dataclass, fields
from typing import Any, Dict, List, Optional, Sequence, Type, TypeVar, Union

from .connection import Connection
from .errors import ConnectionClosedError, NotFoundError

@dataclass(frozen=True)
class RunResult:
    stdout: str
    stderr: str
    status: int
    duration_ms: float
    step_id: Optional[str]

    @property
    def ok(self) -> bool:
        return self.status == 0


@dataclass(frozen=True)
class FileEntry:
    name: str
    path: str
    kind: str
    mode: int
    size: int
    mtime_ms: float
    target: Optional[str] = None


_Wire = TypeVar("_Wire")


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(word.title() for word in rest)


def _from_wire(cls: Type[_Wire], raw: Dict[str, Any]) -> _Wire:
    """A dataclass from the engine's camelCase object: ``mtime_ms`` is
    ``mtimeMs``; an optional field the engine left out keeps its default."""
    values = {}
    for f in fields(cls):  # type: ignore[arg-type]
        key = _camel(f.name)
        values[f.name] = raw[key] if f.default is MISSING else raw.get(key, f.default)
    return cls(**values)


@dataclass(frozen=True)
class DiffEntry:
    """A path added, modified or deleted between two snapshots."""

    path: str
    change: str
    """``added``, ``modified`` or ``deleted``."""
    kind: str
    text: bool
    lines_added: Optional[int] = None
    lines_removed: Optional[int] = None
    size_before: Optional[int] = None
    size_after: Optional[int] = None
    hash_before: Optional[str] = None
    hash_after: Optional[str] = None


class Sandbox:
    """A sandbox. ``Sandbox.create()`` starts ``sandglass rpc`` and owns it;
    pass ``connection=`` to share one server between sandboxes."""

    def __init__(self, connection: Connection, info: Dict[str, Any], owns_connection: bool) -> None:
        self.connection = connection
        self.info = info
        self._owns = owns_connection
        self._closed = False

    @property
    def id(self) -> str:
        return self.info["id"]

    @property
    def name(self) -> str:
        return self.info["name"]

    @classmethod
    def create(
        cls,
        name: str = "python",
        *,
        limits: Optional[Dict[str, int]] = None,
        env: Optional[Dict[str, str]] = None,
        timeout_ms: Optional[int] = None,
        connection: Optional[Connection] = None,
        command: Optional[Sequence[str]] = None,
    ) -> "Sandbox":
        owns = connection is None
        conn = connection if connection is not None else Connection(command)
        try:
            info = conn.call("createSandbox", {"name": name})
            if limits or env or timeout_ms is not None:
                # What is left out keeps the engine's defaults, whatever they are.
                current = info["settings"]
                settings = {
                    **current,
                    "limits": {**current["limits"], **(limits or {})},
                    "env": {**current["env"], **(env or {})},
                    "timeoutMs": current["timeoutMs"] if timeout_ms is None else timeout_ms,
                }
                try:
                    info = conn.call(
                        "updateSettings", {"sandboxId": info["id"], "settings": settings}
                    )
                except BaseException:
                    conn.call("destroySandbox", {"sandboxId": info["id"]})
                    raise
        except BaseException:
            if owns:
                conn.close()
            raise
        return cls(conn, info, owns)

    def _call(self, method: str, **params: Any) -> Any:
        params = {k: v for k, v in params.items() if v is not None}
        return self.connection.call(method, {"sandboxId": self.id, **params})

    def run(
        self,
        command: str,
        *,
        cwd: Optional[str] = None,
        env: Optional[Dict[str, str]] = None,
        stdin: Optional[str] = None,
        timeout_ms: Optional[int] = None,
        network_reason: Optional[str] = None,
    ) -> RunResult:
        """Runs a command line in the sandbox's shell session (cd, variables and functions persist).

        network_reason: why the command needs the network, shown to the person
        asked to approve its requests.
        """
        r = self._call(
            "run",
            command=command,
            cwd=cwd,
            env=env,
            stdin=stdin,
            timeoutMs=timeout_ms,
            networkReason=network_reason,
        )
        return RunResult(r["stdout"], r["stderr"], r["status"], r["durationMs"], r.get("stepId"))

    def read_file(self, path: str) -> bytes:
        return base64.b64decode(self._call("readFile", path=path)["base64"])

    def read_text(self, path: str, encoding: str = "utf-8") -> str:
        return self.read_file(path).decode(encoding)

    def write_file(self, path: str, data: Union[bytes, str], *, mode: Optional[int] = None) -> None:
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        self._call("writeFile", path=path, base64=base64.b64encode(raw).decode("ascii"), mode=mode)

    def read_dir(self, path: str) -> List[FileEntry]:
        return [_from_wire(FileEntry, e) for e in self._call("readDir", path=path)]

    def stat(self, path: str) -> FileEntry:
        return _from_wire(FileEntry, self._call("stat", path=path))

    def exists(self, path: str) -> bool:
        try:
            self.stat(path)
            return True
        except NotFoundError:
            return False

    def mkdir(self, path: str, *, recursive: bool = False) -> None:
        self._call("mkdir", path=path, recursive=recursive)

    def remove(self, path: str, *, recursive: bool = False) -> None:
        self._call("remove", path=path, recursive=recursive)

    def rename(self, source: str, target: str) -> None:
        self._call("rename", **{"from": source, "to": target})

    def snapshot(self) -> str:
        """Saves the current state (files and shell session); returns the snapshot id."""
        return self._call("snapshot.create")["id"]

    def restore(self, snapshot_id: str) -> None:
        """Puts the sandbox back as it was at a snapshot (recorded as a step; nothing is lost)."""
        self._call("snapshot.restore", id=snapshot_id)

    def diff(self, from_snapshot: str, to_snapshot: Optional[str] = None) -> List[DiffEntry]:
        """The files added, modified and deleted from one snapshot to another
        (to the live sandbox when ``to_snapshot`` is left out), every page of them."""
        entries: List[DiffEntry] = []
        offset: Optional[int] = 0
        while offset is not None:
            page = self._call(
                "diffSteps", **{"from": from_snapshot, "to": to_snapshot, "offset": offset}
            )
            entries.extend(_from_wire(DiffEntry, e) for e in page["entries"])
            offset = page["nextOffset"]
        return entries

    def fork(self) -> "Sandbox":
        """An independent copy of this sandbox, on the same connection."""
        sandbox_id = self._call("sandbox.fork")["sandboxId"]
        info = next(s for s in self.connection.list_sandboxes() if s["id"] == sandbox_id)
        return Sandbox(self.connection, info, owns_connection=False)

    def close(self) -> None:
        """Destroys the sandbox; ends the server too when this sandbox started it."""
        if self._closed:
            return
        self._closed = True
        try:
            self.connection.call("destroySandbox", {"sandboxId": self.id})
        except (NotFoundError, ConnectionClosedError):
            pass
        finally:
            if self._owns:
                self.connection.close()

    def __enter__(self) -> "Sandbox":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Sandbox(id={self.id!r}, name={self.name!r})"
