"""Archive reading under a memory limit: an allocation failure is not a malformed archive."""

from __future__ import annotations


def test_a_decompressor_out_of_memory_is_not_a_broken_archive() -> None:
    """Under a memory limit (the sweep's RLIMIT_AS) zlib's failed allocation surfaces as a
    tarfile ReadError; it must be reported as the memory limit, not as a malformed archive."""
    import tarfile

    from toolwitness.acquire.archive import _out_of_memory

    zlib_oom = tarfile.ReadError(
        "zlib error: Error -4 while decompressing data: insufficient memory"
    )
    assert _out_of_memory(zlib_oom)
    wrapped = tarfile.ReadError("file could not be opened successfully")
    wrapped.__context__ = MemoryError()
    assert _out_of_memory(wrapped)
    assert not _out_of_memory(tarfile.ReadError("invalid header"))
    assert not _out_of_memory(tarfile.ReadError("zlib error: Error -3 while decompressing data"))
