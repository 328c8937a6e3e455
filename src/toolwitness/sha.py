"""SHA-256 for the scan path, without loading OpenSSL for a small catalog.

`hashlib` loads OpenSSL (`_hashlib`) when it is imported: ~2 ms of a one-tool scan's ~80 ms,
for hashing ~175 KB (the shipped data files' texts, keyed in `datacache`, and a few digests).
CPython's own SHA-256 module (`_sha256`, `_sha2` from 3.12) does that in under a millisecond;
past `_BUILTIN_BYTES` bytes hashed through `sha256` it is replaced by `hashlib.sha256`, faster per
byte (a 5,000-tool catalog hashes ~5.5 MB). The digests are the same either way. Where the
interpreter has no built-in module (a build that leaves hashing to OpenSSL), `hashlib` is used.

Call it through the module (`sha.sha256(data)`): the name is rebound when OpenSSL's takes over.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from typing import Protocol

    class Hash(Protocol):
        def update(self, data: bytes, /) -> None: ...

        def hexdigest(self) -> str: ...


_BUILTIN_BYTES = 1 << 19  # OpenSSL's loading (~2 ms) pays for itself at ~700 KB


def _builtin() -> Callable[[bytes], Hash] | None:
    # (a failed import searches every path entry: the module this Python has, first)
    for name in ("_sha2", "_sha256") if sys.version_info >= (3, 12) else ("_sha256", "_sha2"):
        try:
            return cast("Callable[[bytes], Hash]", importlib.import_module(name).sha256)
        except (ImportError, AttributeError):
            continue
    return None


def _openssl() -> Callable[[bytes], Hash]:
    import hashlib

    return hashlib.sha256


def _counted(data: bytes = b"", /) -> Hash:
    """The built-in SHA-256 for the first `_BUILTIN_BYTES` bytes, then `hashlib`'s."""
    global _left, sha256  # noqa: PLW0603 - the module's name is rebound once, at the switch
    _left -= len(data)
    if _left < 0:
        sha256 = _openssl()
        return sha256(data)
    return _small(data)


_left = _BUILTIN_BYTES
_found = _builtin()
if _found is None:
    sha256: Callable[..., Hash] = _openssl()
else:
    _small: Callable[[bytes], Hash] = _found
    sha256 = _counted
