"""Sandglass Python SDK: drive WebAssembly sandboxes through ``sandglass rpc``.

    from sandglass import Sandbox

    with Sandbox.create() as sb:
        print(sb.run("echo hi").stdout)

Standard library only. See docs/agent-api.md in the Sandglass repository.
"""

from .connection import API_VERSION, Connection
from .errors import (
    ConnectionClosedError,
    InvalidArgumentError,
    MethodNotFoundError,
    NotFoundError,
    PermissionDeniedError,
    SandglassError,
)
from .sandbox import DiffEntry, FileEntry, RunResult, Sandbox

__all__ = [
    "API_VERSION",
    "Connection",
    "ConnectionClosedError",
    "DiffEntry",
    "FileEntry",
    "InvalidArgumentError",
    "MethodNotFoundError",
    "NotFoundError",
    "PermissionDeniedError",
    "RunResult",
    "Sandbox",
    "SandglassError",
]
__version__ = "0.1.0"
