"""Typed errors: every failure of the engine or the connection, with its code."""

from typing import Optional


class SandglassError(Exception):
    """An engine error. ``code`` is an errno name (ENOENT, EPERM...) or an API code
    (EINVAL, ENOSYS, ECONNRESET...); ``rpc_code`` the JSON-RPC error code, if any."""

    def __init__(self, code: str, message: str, rpc_code: Optional[int] = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rpc_code = rpc_code

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class NotFoundError(SandglassError, FileNotFoundError):
    """ENOENT: no such sandbox, file, step or client."""


class InvalidArgumentError(SandglassError, ValueError):
    """EINVAL: the params do not match the method's schema, or a value is wrong."""


class PermissionDeniedError(SandglassError, PermissionError):
    """EPERM / EACCES."""


class ConnectionClosedError(SandglassError, ConnectionError):
    """ECONNRESET: the engine process ended or the client was stopped."""


class MethodNotFoundError(SandglassError):
    """ENOSYS: the engine has no such method."""


_BY_CODE = {
    "ENOENT": NotFoundError,
    "EINVAL": InvalidArgumentError,
    "EPERM": PermissionDeniedError,
    "EACCES": PermissionDeniedError,
    "ECONNRESET": ConnectionClosedError,
    "ENOSYS": MethodNotFoundError,
}


def error_for(code: str, message: str, rpc_code: Optional[int] = None) -> SandglassError:
    """The most specific error class for an engine error code."""
    return _BY_CODE.get(code, SandglassError)(code, message, rpc_code)
