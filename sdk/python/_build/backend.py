"""A PEP 517 build backend in the standard library only: it packs the
``sandglass`` package into a pure-Python wheel (or an sdist), so installing
the SDK needs no network and no setuptools."""

import base64
import hashlib
import io
import os
import tarfile
import zipfile

NAME = "sandglass"
VERSION = "0.1.0"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIST_INFO = f"{NAME}-{VERSION}.dist-info"

METADATA = f"""Metadata-Version: 2.1
Name: {NAME}
Version: {VERSION}
Summary: Python SDK for Sandglass WebAssembly sandboxes (drives `sandglass rpc`)
License: MIT
Requires-Python: >=3.8
"""

WHEEL = """Wheel-Version: 1.0
Generator: sandglass-backend
Root-Is-Purelib: true
Tag: py3-none-any
"""


def _package_files():
    base = os.path.join(ROOT, NAME)
    for name in sorted(os.listdir(base)):
        if name.endswith(".py"):
            yield f"{NAME}/{name}", os.path.join(base, name)


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    target = os.path.join(metadata_directory, DIST_INFO)
    os.makedirs(target, exist_ok=True)
    with open(os.path.join(target, "METADATA"), "w", encoding="utf-8") as f:
        f.write(METADATA)
    with open(os.path.join(target, "WHEEL"), "w", encoding="utf-8") as f:
        f.write(WHEEL)
    return DIST_INFO


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    filename = f"{NAME}-{VERSION}-py3-none-any.whl"
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as whl:
        entries = [(arc, open(src, "rb").read()) for arc, src in _package_files()]
        entries.append((f"{DIST_INFO}/METADATA", METADATA.encode()))
        entries.append((f"{DIST_INFO}/WHEEL", WHEEL.encode()))
        for arc, data in entries:
            whl.writestr(arc, data)
            records.append(_record_line(arc, data))
        records.append(f"{DIST_INFO}/RECORD,,")
        whl.writestr(f"{DIST_INFO}/RECORD", "\n".join(records) + "\n")
    return filename


def build_sdist(sdist_directory, config_settings=None):
    stem = f"{NAME}-{VERSION}"
    filename = f"{stem}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as tar:
        for rel in ["pyproject.toml", "_build/backend.py"] + [a for a, _ in _package_files()]:
            tar.add(os.path.join(ROOT, rel), arcname=f"{stem}/{rel}")
        info = tarfile.TarInfo(f"{stem}/PKG-INFO")
        data = METADATA.encode()
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return filename
