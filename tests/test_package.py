"""Package acquisition: hostile archives are refused, real packages download and unpack."""

from __future__ import annotations

import gzip
import stat
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from archive_builders import (
    MIB,
    files_tgz,
    many_empty_files_tar,
    member,
    write_tgz,
    write_zip,
    zeros_tgz,
)
from toolwitness.acquire import archive as archive_module
from toolwitness.acquire.archive import ArchiveLimits, ArchiveRefused, safe_parts, unpack_archive
from toolwitness.acquire.package import (
    PackageSpec,
    fetch_and_unpack,
    fetch_and_unpack_package,
    fetch_package,
    parse_package_spec,
)
from toolwitness.acquire.pypi_sdist import download_sdist
from toolwitness.errors import EXIT_INPUT, InputError


def refused(archive: Path, tmp_path: Path, match: str, limits: ArchiveLimits | None = None) -> str:
    dest = tmp_path / "out"
    with pytest.raises(ArchiveRefused, match=match) as caught:
        unpack_archive(archive, dest, limits)
    error = caught.value
    assert error.exit_code == EXIT_INPUT
    assert str(archive) in error.message  # names the archive
    assert not dest.exists()  # the first pass refused it: nothing was written
    return error.message


# --- path attacks ----------------------------------------------------------------------------


def test_path_traversal_is_refused(tmp_path: Path) -> None:
    archive = files_tgz(tmp_path / "evil.tgz", {"package/ok.js": b"1", "../x": b"pwned"})
    message = refused(archive, tmp_path, r"'\.\.' component")
    assert "'../x'" in message  # names the entry
    assert not (tmp_path / "x").exists()


def test_traversal_after_good_entries_writes_nothing(tmp_path: Path) -> None:
    good = {f"package/f{i}.js": b"x" for i in range(50)}
    archive = files_tgz(tmp_path / "evil.tgz", {**good, "package/../../escape": b"pwned"})
    refused(archive, tmp_path, "escapes the destination")
    assert not (tmp_path / "escape").exists()


def test_absolute_path_is_refused(tmp_path: Path) -> None:
    archive = files_tgz(tmp_path / "abs.tgz", {"/tmp/toolwitness-absolute": b"pwned"})
    refused(archive, tmp_path, "absolute path")
    assert not Path("/tmp/toolwitness-absolute").exists()


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("C:/windows/evil", "absolute path"),
        ("package\\..\\evil", "backslash"),
        ("/".join(["d"] * 40) + "/f", "deeper than"),
        ("package/" + "n" * 300, "longer than 255 bytes"),
        ("package/" + "/".join(["abcdefgh"] * 120), "longer than 1024"),
    ],
)
def test_bad_entry_names_are_refused(tmp_path: Path, name: str, reason: str) -> None:
    refused(files_tgz(tmp_path / "bad.tgz", {name: b"x"}), tmp_path, reason)


_NAME_PIECES = ["a", "/", ".", "..", "\\", ":", "C", "\x00", "é", "~"]


@given(st.lists(st.sampled_from(_NAME_PIECES), max_size=30).map("".join))
def test_safe_parts_never_lets_a_path_leave_the_destination(name: str) -> None:
    dest = Path("/srv/unpack")
    try:
        parts = safe_parts(name, Path("fuzz.tgz"), ArchiveLimits())
    except ArchiveRefused:
        return
    target = dest.joinpath(*parts)
    assert ".." not in parts and all(parts)
    assert target == dest or dest in target.parents


def test_symlink_to_etc_passwd_is_refused(tmp_path: Path) -> None:
    archive = write_tgz(
        tmp_path / "link.tgz",
        [(member("package/passwd", tarfile.SYMTYPE, link="/etc/passwd"), None)],
    )
    refused(archive, tmp_path, "symlink points outside the archive")


def test_relative_symlink_escaping_is_refused(tmp_path: Path) -> None:
    archive = write_tgz(
        tmp_path / "link.tgz",
        [(member("package/lib/up", tarfile.SYMTYPE, link="../../../outside"), None)],
    )
    refused(archive, tmp_path, "symlink points outside")


def test_hardlink_out_is_refused(tmp_path: Path) -> None:
    archive = write_tgz(
        tmp_path / "hard.tgz",
        [(member("package/shadow", tarfile.LNKTYPE, link="/etc/shadow"), None)],
    )
    refused(archive, tmp_path, "hardlink points outside")


def test_links_inside_the_archive_are_skipped_not_created(tmp_path: Path) -> None:
    archive = write_tgz(
        tmp_path / "inner.tgz",
        [
            (member("package/real.js", size=3), b"abc"),
            (member("package/alias.js", tarfile.SYMTYPE, link="real.js"), None),
            (member("package/hard.js", tarfile.LNKTYPE, link="package/real.js"), None),
        ],
    )
    root = unpack_archive(archive, tmp_path / "out")
    assert (root / "package" / "real.js").read_bytes() == b"abc"
    assert not (root / "package" / "alias.js").exists()
    assert not (root / "package" / "alias.js").is_symlink()
    assert not (root / "package" / "hard.js").exists()


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        (tarfile.CHRTYPE, "device file"),
        (tarfile.BLKTYPE, "device file"),
        (tarfile.FIFOTYPE, "FIFO"),
    ],
)
def test_devices_and_fifos_are_refused(tmp_path: Path, kind: bytes, reason: str) -> None:
    archive = write_tgz(tmp_path / "dev.tgz", [(member("package/dev", kind), None)])
    refused(archive, tmp_path, reason)


def test_duplicate_entry_is_refused(tmp_path: Path) -> None:
    archive = write_tgz(
        tmp_path / "dup.tgz",
        [(member("package/a.js", size=1), b"1"), (member("package/a.js", size=1), b"2")],
    )
    refused(archive, tmp_path, "appears twice")


def test_file_where_a_directory_is_needed_is_refused(tmp_path: Path) -> None:
    archive = files_tgz(tmp_path / "clash.tgz", {"package/a": b"1", "package/a/b.js": b"2"})
    refused(archive, tmp_path, "parent directory is also a file")


# --- size attacks ----------------------------------------------------------------------------


@pytest.fixture
def compressed_read(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the compressed bytes the unpacker reads: an early refusal reads a small prefix."""
    count = [0]
    real = archive_module.open_tar_stream

    class Counting:
        def __init__(self, raw: Any) -> None:
            self.raw = raw

        def read(self, size: int = -1) -> bytes:
            data = self.raw.read(size)
            count[0] += len(data)
            return bytes(data)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.raw, name)

    monkeypatch.setattr(
        archive_module, "open_tar_stream", lambda raw, budget: real(Counting(raw), budget)
    )
    return count


def test_one_gigabyte_file_of_zeros_is_refused_from_its_header(
    tmp_path: Path, compressed_read: list[int]
) -> None:
    archive = zeros_tgz(tmp_path / "gig.tgz", file_count=1, file_bytes=1024 * MIB)
    assert archive.stat().st_size < 4 * MIB  # the test never writes a gigabyte
    refused(archive, tmp_path, "file over 52428800 bytes")
    assert 0 < compressed_read[0] <= 512 * 1024  # the header sufficed: ~1 GB never inflated


def test_one_gigabyte_of_zeros_in_small_files_trips_the_ratio_early(
    tmp_path: Path, compressed_read: list[int]
) -> None:
    archive = zeros_tgz(tmp_path / "many-zeros.tgz", file_count=100, file_bytes=10 * MIB)
    refused(archive, tmp_path, "compression ratio over 100:1")
    assert 0 < compressed_read[0] < archive.stat().st_size // 4


def test_total_size_cap_trips_when_the_ratio_is_allowed(tmp_path: Path) -> None:
    archive = zeros_tgz(tmp_path / "many-zeros.tgz", file_count=100, file_bytes=10 * MIB)
    limits = ArchiveLimits(max_ratio=10**9, max_total_bytes=64 * MIB)
    refused(archive, tmp_path, "more than 67108864 bytes once decompressed", limits)


def test_one_hundred_thousand_tiny_files_are_refused(
    tmp_path: Path, compressed_read: list[int]
) -> None:
    archive = tmp_path / "swarm.tgz"
    archive.write_bytes(gzip.compress(many_empty_files_tar(100_000), compresslevel=1))
    refused(archive, tmp_path, "more than 20000 entries")
    # Trips at entry 20,001 of 100,000: it never reads the rest.
    assert 0 < compressed_read[0] < archive.stat().st_size // 2


def test_zip_with_too_many_entries_is_refused_from_its_directory(tmp_path: Path) -> None:
    archive = tmp_path / "swarm.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as zf:
        for index in range(25_000):
            zf.writestr(f"p/{index}", b"")
    refused(archive, tmp_path, "25000 entries, over the limit of 20000")


def test_archive_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    archive = files_tgz(tmp_path / "big.tgz", {"package/a": b"x" * 5000})
    refused(archive, tmp_path, "archive of", ArchiveLimits(max_archive_bytes=100))


# --- malformed input -------------------------------------------------------------------------


def test_truncated_archive_is_refused(tmp_path: Path) -> None:
    whole = files_tgz(
        tmp_path / "whole.tgz", {f"package/{i}.js": bytes(range(256)) * 40 for i in range(20)}
    )
    cut = tmp_path / "cut.tgz"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    refused(cut, tmp_path, "malformed or truncated")


def test_gzip_of_garbage_is_refused(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.tgz"
    garbage.write_bytes(gzip.compress(b"this is not a tar archive at all" * 100))
    refused(garbage, tmp_path, "malformed or truncated")


def test_corrupt_gzip_is_refused(tmp_path: Path) -> None:
    whole = files_tgz(tmp_path / "whole.tgz", {"package/a.js": b"a" * 10_000})
    data = bytearray(whole.read_bytes())
    data[20:40] = b"\xff" * 20
    corrupt = tmp_path / "corrupt.tgz"
    corrupt.write_bytes(bytes(data))
    refused(corrupt, tmp_path, "malformed or truncated")


def test_unknown_format_is_refused(tmp_path: Path) -> None:
    plain = tmp_path / "notes.tgz"
    plain.write_text("just text", encoding="utf-8")
    refused(plain, tmp_path, "not a gzip/tar or zip archive")


def test_truncated_zip_is_refused(tmp_path: Path) -> None:
    whole = write_zip(tmp_path / "whole.zip", {"pkg/a.py": b"print(1)\n" * 1000})
    cut = tmp_path / "cut.zip"
    cut.write_bytes(whole.read_bytes()[: whole.stat().st_size // 2])
    refused(cut, tmp_path, "malformed or truncated")


# --- zip attacks -----------------------------------------------------------------------------


def test_zip_with_dotdot_entry_is_refused(tmp_path: Path) -> None:
    archive = write_zip(tmp_path / "evil.whl", {"pkg/__init__.py": b"", "../../evil.py": b"x"})
    message = refused(archive, tmp_path, "escapes the destination")
    assert "'../../evil.py'" in message


def test_zip_with_absolute_entry_is_refused(tmp_path: Path) -> None:
    refused(write_zip(tmp_path / "abs.zip", {"/etc/cron.d/evil": b"x"}), tmp_path, "absolute path")


def test_zip_bomb_by_ratio_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "bomb.zip"
    with (
        zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf,
        zf.open("pkg/zeros", "w") as out,
    ):
        for _ in range(64):
            out.write(bytes(MIB))
    assert archive.stat().st_size < MIB
    refused(archive, tmp_path, "compression ratio over the limit")


def test_zip_symlink_out_is_refused(tmp_path: Path) -> None:
    archive = tmp_path / "link.zip"
    info = zipfile.ZipInfo("pkg/passwd")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(info, "/etc/passwd")
    refused(archive, tmp_path, "symlink points outside")


def test_zip_per_file_cap_counts_real_bytes(tmp_path: Path) -> None:
    archive = write_zip(
        tmp_path / "big.zip", {"pkg/data.bin": b"\x01" * (2 * MIB)}, zipfile.ZIP_STORED
    )
    refused(archive, tmp_path, "file over 1048576 bytes", ArchiveLimits(max_file_bytes=MIB))


# --- the good path ---------------------------------------------------------------------------


def test_well_formed_tarball_unpacks_with_safe_modes(tmp_path: Path) -> None:
    setuid = member("package/bin/run.js", size=5)
    setuid.mode = 0o4777
    archive = write_tgz(
        tmp_path / "pkg.tgz",
        [
            (member("package/package.json", size=2), b"{}"),
            (member("package/dist", tarfile.DIRTYPE), None),
            (member("package/dist/index.js", size=7), b"run();\n"),
            (setuid, b"hello"),
        ],
    )
    root = unpack_archive(archive, tmp_path / "out")
    assert (root / "package" / "dist" / "index.js").read_text() == "run();\n"
    mode = (root / "package" / "bin" / "run.js").stat().st_mode
    assert stat.S_IMODE(mode) == 0o644


def test_wheel_unpacks(tmp_path: Path) -> None:
    archive = write_zip(
        tmp_path / "demo-1.0-py3-none-any.whl",
        {
            "demo/__init__.py": b"",
            "demo/server.py": b"x = 1\n",
            "demo-1.0.dist-info/METADATA": b"Name: demo\n",
        },
    )
    root = unpack_archive(archive, tmp_path / "out")
    assert (root / "demo" / "server.py").read_text() == "x = 1\n"


def test_destination_must_be_empty(tmp_path: Path) -> None:
    archive = files_tgz(tmp_path / "pkg.tgz", {"package/a": b"1"})
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "keep").write_text("mine")
    with pytest.raises(InputError, match="not an empty directory"):
        unpack_archive(archive, tmp_path / "out")
    assert (tmp_path / "out" / "keep").read_text() == "mine"


# --- package specs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "npm:@modelcontextprotocol/server-memory@2026.8.31",
            PackageSpec("npm", "@modelcontextprotocol/server-memory", "2026.8.31"),
        ),
        ("npm:left-pad@1.3.0", PackageSpec("npm", "left-pad", "1.3.0")),
        ("npm:typescript@5.6.0-beta", PackageSpec("npm", "typescript", "5.6.0-beta")),
        ("npm:foo@latest", PackageSpec("npm", "foo", "latest")),
        ("pypi:mcp-server-time==2026.10.19", PackageSpec("pypi", "mcp-server-time", "2026.10.19")),
        ("pypi:Django==5.1rc1", PackageSpec("pypi", "Django", "5.1rc1")),
        ("  pypi:a==1  ", PackageSpec("pypi", "a", "1")),
    ],
)
def test_parse_package_spec(text: str, expected: PackageSpec) -> None:
    assert parse_package_spec(text) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("npm:left-pad", "exact version"),
        ("npm:@scope/pkg", "exact version"),
        ("npm:left-pad@^1.0.0", "not an exact npm version"),
        ("npm:left-pad@>=1", "not an exact npm version"),
        ("npm:--registry=http://evil@1.0.0", "not a valid npm package name"),
        ("npm:Left-Pad@1.0.0", "not a valid npm package name"),
        ("npm:../../etc@1.0.0", "not a valid npm package name"),
        ("pypi:requests", "exact version"),
        ("pypi:requests>=2", "exact version"),
        ("pypi:-r==1", "not a valid PyPI project name"),
        ("pypi:requests==2.0; rm -rf /", "not an exact PyPI version"),
        ("cargo:serde@1.0.0", "expected npm:NAME@VERSION"),
        ("left-pad@1.0.0", "expected npm:NAME@VERSION"),
        ("npm:" + "a" * 400 + "@1", "longer than 300"),
    ],
)
def test_parse_package_spec_refuses(text: str, reason: str) -> None:
    with pytest.raises(InputError, match=reason) as caught:
        parse_package_spec(text)
    assert caught.value.exit_code == EXIT_INPUT


def test_spec_round_trips_to_text() -> None:
    for text in ("npm:@a/b@1.0.0", "pypi:x-y==2.0"):
        assert str(parse_package_spec(text)) == text


# --- real downloads --------------------------------------------------------------------------


@pytest.mark.live
def test_npm_package_downloads_and_unpacks(tmp_path: Path) -> None:
    unpacked = fetch_and_unpack_package(
        "npm:@modelcontextprotocol/server-memory@2026.8.31", tmp_path
    )
    assert unpacked.root == tmp_path / "tree" / "package"
    assert (unpacked.root / "dist" / "index.js").is_file()
    assert (
        '"name": "@modelcontextprotocol/server-memory"'
        in (unpacked.root / "package.json").read_text()
    )
    artifact = unpacked.artifact
    assert artifact.kind == "npm-tarball" and artifact.path.name.endswith("2026.8.31.tgz")
    assert len(artifact.sha256) == 64 and artifact.registry_integrity.startswith("sha512-")


@pytest.mark.live
def test_pypi_package_downloads_a_wheel_and_unpacks(tmp_path: Path) -> None:
    root = fetch_and_unpack("pypi:mcp-server-time==2026.10.19", tmp_path)
    assert (root / "mcp_server_time" / "server.py").is_file()
    assert (root / "mcp_server_time" / "__init__.py").is_file()
    assert (root / "mcp_server_time-2026.10.19.dist-info" / "METADATA").is_file()
    assert fetch_package("pypi:mcp-server-time==2026.10.19", tmp_path / "again").suffix == ".whl"


@pytest.mark.live
def test_pypi_sdist_is_fetched_without_building_it(tmp_path: Path) -> None:
    path, published = download_sdist("mcp-server-time", "2026.10.19", tmp_path, 60)
    assert path.name == "mcp_server_time-2026.10.19.tar.gz" and len(published) == 64
    root = unpack_archive(path, tmp_path / "tree")
    assert (root / "mcp_server_time-2026.10.19" / "src" / "mcp_server_time" / "server.py").is_file()


@pytest.mark.live
@pytest.mark.parametrize(
    "spec",
    [
        "npm:@modelcontextprotocol/server-memory@0.0.0-does-not-exist",
        "pypi:mcp-server-time==0.0.0.999",
    ],
)
def test_unknown_version_is_an_input_error(tmp_path: Path, spec: str) -> None:
    with pytest.raises(InputError, match=r"not found|no such") as caught:
        fetch_and_unpack(spec, tmp_path)
    assert caught.value.exit_code == EXIT_INPUT
    assert not (tmp_path / "tree").exists()
