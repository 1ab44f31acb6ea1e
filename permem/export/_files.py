"""Where export files live and how they are written."""

from __future__ import annotations

import hashlib
import uuid
from pathlib import Path

from permem.files import atomic_file

_SAFE_NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
_MAX_NAME = 120


def safe_name(name: str) -> str:
    """A folder name for any tenant or subject string: `[A-Za-z0-9._-]` kept, every other
    byte percent-encoded; a leading dot encoded too (no `.`, `..` or hidden folders); a name
    too long for a file system shortened and completed by a hash. Distinct names stay distinct.
    """
    encoded = "".join(
        chr(b) if chr(b) in _SAFE_NAME_CHARS else f"%{b:02X}" for b in name.encode("utf-8")
    )
    if encoded.startswith("."):
        encoded = "%2E" + encoded[1:]
    if len(encoded) <= _MAX_NAME:
        return encoded
    # "%%" never occurs in an encoded name, so a shortened name cannot equal an encoded one.
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:40]
    return f"{encoded[:64]}%%{digest}"


def export_path(directory: Path, tenant: str, subject: str, export_id: uuid.UUID, fmt: str) -> Path:
    """Where an export file lives: `<directory>/<tenant>/<subject>/<export id>.<format>`."""
    return directory / safe_name(tenant) / safe_name(subject) / f"{export_id}.{fmt}"


def _write_atomically(path: Path, content: bytes) -> None:
    """Write `content` to `path` (mode 0600) so that `path` is either absent or complete."""
    with atomic_file(path) as fh:
        fh.write(content)
