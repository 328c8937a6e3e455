"""The one bounded reader, and the commands that read files through it: each hostile file kind
is refused with exit 2 and one line naming it, never a hang, an unbounded read or a traceback."""

from __future__ import annotations

import json
import os
import socket
import threading
from pathlib import Path

import pytest

from toolwitness.cli import main
from toolwitness.errors import InputError
from toolwitness.files import read_regular, read_regular_text
from toolwitness.rules import load_registry
from toolwitness.suppressions import load_suppressions
from toolwitness.yamlload import load_untrusted_yaml

CATALOG = {"tools": [{"name": "t", "inputSchema": {"type": "object"}}]}


def _fifo(tmp_path: Path, name: str = "pipe.json") -> Path:
    path = tmp_path / name
    os.mkfifo(path)
    return path


def test_regular_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b"x" * 5000)
    assert read_regular(path, 5000) == b"x" * 5000


def test_a_file_one_byte_over_the_bound_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "a.json"
    path.write_bytes(b"x" * 5001)
    with pytest.raises(InputError, match="over the 5000-byte limit"):
        read_regular(path, 5000)


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    # No writer ever opens the FIFO: a blocking open or read would hang this test (pytest-timeout).
    with pytest.raises(InputError, match="FIFO"):
        read_regular(_fifo(tmp_path), 1000)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_and_links_to_them_are_refused(tmp_path: Path, device: str) -> None:
    with pytest.raises(InputError, match="character device"):
        read_regular(Path(device), 1000)
    link = tmp_path / "catalog.json"
    link.symlink_to(device)
    with pytest.raises(InputError, match="character device"):
        read_regular(link, 1000)


def test_a_symlink_to_a_regular_file_is_followed(tmp_path: Path) -> None:
    target = tmp_path / "real.json"
    target.write_text("{}")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    assert read_regular(link, 100) == b"{}"


def test_a_socket_and_a_directory_are_refused(tmp_path: Path) -> None:
    sock_path = tmp_path / "s.json"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(sock_path))
        with pytest.raises(InputError, match="socket"):
            read_regular(sock_path, 100)
    finally:
        server.close()
    with pytest.raises(InputError, match="directory"):
        read_regular(tmp_path, 100)


def test_missing_file_names_what_was_missing(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such rule pack"):
        read_regular(tmp_path / "none.yaml", 100, what="rule pack")


def test_invalid_utf8_text_is_refused_with_its_offset(tmp_path: Path) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"ok: \xff")
    with pytest.raises(InputError, match="offset 4"):
        read_regular_text(path, 100)


def _run_with_deadline(argv: list[str]) -> int:
    """Run the CLI in a thread; a hang fails the test (instead of hanging the suite)."""
    box: list[int] = []
    worker = threading.Thread(target=lambda: box.append(main(argv)), daemon=True)
    worker.start()
    worker.join(60)
    assert box, f"{argv} did not finish (blocked on a hostile file?)"
    return box[0]


@pytest.mark.parametrize("command", ["fingerprint", "scan", "lock-diff"])
def test_commands_refuse_a_fifo(tmp_path: Path, command: str, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = _fifo(tmp_path)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(CATALOG))
    argv = {
        "fingerprint": ["fingerprint", str(fifo)],
        "scan": ["scan", str(fifo)],
        "lock-diff": ["diff", str(good), str(fifo)],
    }[command]
    assert _run_with_deadline(argv) == 2
    err = capsys.readouterr().err
    assert "FIFO" in err and "Traceback" not in err


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_fingerprint_and_diff_refuse_links_to_endless_devices(
    tmp_path: Path, device: str, capsys: pytest.CaptureFixture[str]
) -> None:
    link = tmp_path / "tools.json"
    link.symlink_to(device)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(CATALOG))
    assert _run_with_deadline(["fingerprint", str(link)]) == 2
    assert _run_with_deadline(["diff", str(good), str(link)]) == 2
    assert "character device" in capsys.readouterr().err


def test_rule_pack_and_suppressions_from_a_fifo_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="FIFO"):
        load_registry([_fifo(tmp_path, "pack.yaml")])
    with pytest.raises(InputError, match="FIFO"):
        load_suppressions(_fifo(tmp_path, "supp.yaml"))


# --- numbers in YAML and TOML are checked like JSON numbers -------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("a: " + "9" * 5000 + "\n", "key 'a': integer of 5000 characters"),
        ("a: 9007199254740993\n", "integer outside"),
        ("a: [1, " + "7" * 5000 + "]\n", "integer of 5000 characters"),
        ("a: .inf\n", "NaN or infinite"),
        ("a: .nan\n", "NaN or infinite"),
        ("a: 1.0e+400\n", "NaN or infinite"),
        ("a: &x 1\nb: *x\n", "anchors and aliases"),
        ("a: 1\na: 2\n", "duplicate key"),
        ("a: 1\n---\nb: 2\n", "more than one YAML document"),
    ],
)
def test_hostile_yaml_is_an_input_error(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        load_untrusted_yaml(text, "f.yaml")


def test_ordinary_yaml_numbers_load() -> None:
    assert load_untrusted_yaml("a: 9007199254740991\nb: -1.5\nc: 0x10\n", "f.yaml") == {
        "a": 9007199254740991,
        "b": -1.5,
        "c": 16,
    }


def _cli_err(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_a_5000_digit_integer_in_a_rule_pack_or_suppressions_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = tmp_path / "c.json"
    catalog.write_text(json.dumps(CATALOG))
    pack = tmp_path / "pack.yaml"
    pack.write_text("rules:\n  - id: TW-X-001\n    weight: " + "9" * 5000 + "\n")
    assert "integer of 5000 characters" in _cli_err(["rules", "--rules", str(pack)], capsys)
    supp = tmp_path / "supp.yaml"
    supp.write_text("suppressions:\n  - rule: TW-INJ-001\n    n: " + "9" * 5000 + "\n")
    err = _cli_err(["scan", str(catalog), "--suppressions", str(supp)], capsys)
    assert "supp.yaml" in err and "integer of 5000 characters" in err


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("mcp.yaml", "mcpServers:\n  a:\n    command: npx\n    timeout: " + "9" * 5000 + "\n",
         "key 'timeout': integer of 5000 characters"),
        ("config.toml", "[mcp_servers.a]\ncommand = 'npx'\nstartup_timeout_sec = " + "9" * 5000 + "\n",
         "key 'startup_timeout_sec'"),
        ("config.toml", "[mcp_servers.a]\ncommand = 'npx'\nstartup_timeout_sec = 9007199254740993\n",
         "integer outside"),
        ("config.toml", "[mcp_servers.a]\ncommand = 'npx'\nstartup_timeout_sec = inf\n",
         "NaN or infinite"),
    ],
)
def test_hostile_numbers_in_a_config_file_exit_2(
    tmp_path: Path, name: str, text: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_text(text)
    err = _cli_err(["scan", str(path)], capsys)
    assert message in err and name in err
