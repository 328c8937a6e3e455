"""Lock keys: who a server is, never a file name alone; resemblance to pinned servers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolwitness.acquire.catalog import load_catalog_file, load_catalog_targets
from toolwitness.cli import main
from toolwitness.integrity.identity import identify, resemblances
from toolwitness.integrity.lock import Lockfile, entry_for, read_lock
from toolwitness.model import ServerSurface, Tool, Transport


def _tools(*names: str, description: str = "Does a thing.") -> list[dict[str, Any]]:
    return [
        {"name": n, "description": description, "inputSchema": {"type": "object"}} for n in names
    ]


def _file(tmp_path: Path, name: str, doc: Any) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    return path


def test_a_bare_catalog_has_no_identity(tmp_path: Path) -> None:
    surface = load_catalog_file(_file(tmp_path, "v1.json", {"tools": _tools("a")}))
    assert surface.id == "v1" and identify(surface) is None
    explicit = identify(surface, "notes")
    assert explicit is not None and (explicit.key, explicit.source) == ("notes", "server-id")


def test_two_bare_catalogs_of_one_stem_have_no_identity_either(tmp_path: Path) -> None:
    one = _file(tmp_path, "a/notes.json", {"tools": _tools("a")})
    two = _file(tmp_path, "b/notes.json", {"tools": _tools("b")})
    surfaces = load_catalog_targets([one, two])
    assert [s.id for s in surfaces] == [f"notes@{one}", f"notes@{two}"]
    assert [identify(s) for s in surfaces] == [None, None]


def test_server_info_and_document_ids_identify(tmp_path: Path) -> None:
    named = load_catalog_file(
        _file(tmp_path, "x.json", {"serverInfo": {"name": "notes"}, "tools": _tools("a")})
    )
    found = identify(named)
    assert found is not None and (found.key, found.source) == ("notes", "serverInfo")
    blank = load_catalog_file(
        _file(tmp_path, "y.json", {"serverInfo": {"name": "  "}, "tools": _tools("a")})
    )
    assert identify(blank) is None
    doc = load_catalog_file(_file(tmp_path, "z.json", {"id": "kb", "tools": _tools("a")}))
    found = identify(doc)
    assert found is not None and (found.key, found.source) == ("kb", "document")
    both = [
        _file(tmp_path, "p/first.json", {"id": "kb", "tools": _tools("a")}),
        _file(tmp_path, "q/second.json", {"id": "kb", "tools": _tools("a")}),
    ]
    keys = [identify(s) for s in load_catalog_targets(both)]  # ids kb@path: the key is kb
    assert [(k.key, k.source) for k in keys if k] == [("kb", "document"), ("kb", "document")]
    # an id equal to the file's stem cannot be told from one the loader made up: no key
    same = load_catalog_file(_file(tmp_path, "kb.json", {"id": "kb", "tools": _tools("a")}))
    assert identify(same) is None


def test_a_server_spec_identifies_before_server_info() -> None:
    surface = ServerSurface(
        id="memory",
        serverInfo={"name": "memory-server"},
        transport=Transport(kind="stdio", command="npx", args=("-y", "pkg@1")),
        tools=(Tool(name="a", inputSchema={"type": "object"}),),
    )
    found = identify(surface)
    assert found is not None and (found.key, found.source) == ("memory", "spec")


def _surface(*tools: tuple[str, str]) -> ServerSurface:
    return ServerSurface(
        id="s",
        tools=tuple(Tool(name=n, description=d, inputSchema={"type": "object"}) for n, d in tools),
    )


def test_resemblance_by_surface_digest_and_shared_names() -> None:
    pinned = _surface(("a", "A."), ("b", "B."), ("c", "C."), ("d", "D."))
    lock = Lockfile().with_entries(
        {"notes": entry_for(pinned), "other": entry_for(_surface(("z", "Z.")))}
    )
    (same,) = resemblances(pinned, lock)
    assert same.key == "notes" and same.same_surface and same.identical_tools == 4
    half = resemblances(_surface(("a", "A."), ("b", "changed"), ("x", "X."), ("y", "Y.")), lock)
    assert [(r.key, r.shared_tools, r.identical_tools) for r in half] == [("notes", 2, 1)]
    assert resemblances(_surface(("a", "A."), ("x", "."), ("y", "."), ("w", ".")), lock) == []
    assert resemblances(pinned, lock, exclude="notes") == []


def test_lock_refuses_bare_catalogs_and_shared_keys(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = tmp_path / "toolwitness.lock"
    bare = _file(tmp_path, "v1.json", {"tools": _tools("a")})
    capsys.readouterr()
    assert main(["lock", str(bare), "-o", str(lock), "-y"]) == 2
    assert "--server-id" in capsys.readouterr().err and not lock.exists()
    one = _file(tmp_path, "d/one.json", {"serverInfo": {"name": "kb"}, "tools": _tools("a")})
    two = _file(tmp_path, "d/two.json", {"serverInfo": {"name": "kb"}, "tools": _tools("b")})
    assert main(["lock", str(tmp_path / "d"), "-o", str(lock), "-y"]) == 2
    assert "both server 'kb'" in capsys.readouterr().err and not lock.exists()
    assert main(["lock", str(one), str(two), "-o", str(lock), "-y", "--server-id", "kb"]) == 2
    assert main(["lock", str(bare), "-o", str(lock), "-y", "--server-id", "notes"]) == 0
    assert set(read_lock(lock).servers) == {"notes"}


def test_server_id_names_one_server_in_a_scan(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = tmp_path / "toolwitness.lock"
    _file(tmp_path, "d/one.json", {"tools": _tools("a")})
    _file(tmp_path, "d/two.json", {"tools": _tools("b")})
    capsys.readouterr()
    code = main(["scan", str(tmp_path / "d"), "--lock", str(lock), "--server-id", "x"])
    assert code == 2 and "one server" in capsys.readouterr().err
    assert main(["scan", str(tmp_path / "d"), "--lock", str(lock), "--server-id", " "]) == 2
