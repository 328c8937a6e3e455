"""A parser's shared object that cannot be mapped under the address-space limit is that limit.

Under RLIMIT_AS, `import tree_sitter_javascript` fails with "failed to map segment" (an
ImportError) and C allocations with ENOMEM: both must read as the memory limit, not as an
internal error, in `code` (code.isolate) and in `sweep` (sweep.child).
"""

from __future__ import annotations

import errno

import pytest

from toolwitness.code.isolate import ChildLimits, LimitExceeded, out_of_memory, run_limited

MAPPED = ImportError("libx.so: failed to map segment from shared object")


def _raise(exc: BaseException) -> None:
    raise exc


def test_the_signatures_of_the_limit() -> None:
    assert out_of_memory(MAPPED)
    assert out_of_memory(OSError(errno.ENOMEM, "Cannot allocate memory"))
    assert not out_of_memory(ImportError("No module named 'x'"))
    assert not out_of_memory(OSError(errno.ENOENT, "No such file"))


def test_code_child_reports_the_memory_limit() -> None:
    with pytest.raises(LimitExceeded, match="memory limit of 512 MiB"):
        run_limited(lambda: _raise(MAPPED), ChildLimits(30.0, 512, 30))


def test_sweep_child_classifies_it_as_unanalyzable(monkeypatch: pytest.MonkeyPatch) -> None:
    from toolwitness.sweep import child

    monkeypatch.setattr(child, "_body", lambda job: _raise(MAPPED))
    body = child._classified({"memory_mib": 64})
    assert body == {
        "outcome": "UNANALYZABLE",
        "reason": "analysis exceeded the memory limit of 64 MiB",
    }
    monkeypatch.setattr(child, "_body", lambda job: _raise(ImportError("No module named 'x'")))
    assert child._classified({"memory_mib": 64})["outcome"] == "ERROR"
