"""The witnesses test themselves before a probe: a blind instrument never yields a clean verdict.

A shell run in the same sandbox (under the same tracer) writes one file into each witnessed
area; the filesystem snapshot must see all three created, and the syscall trace must show the
three opens for writing. The files are then removed again.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass

from toolwitness.lab.sandbox import Lab, lab_argv
from toolwitness.lab.syscalls import read_trace
from toolwitness.lab.witness import WitnessFailed, diff, snapshot

_SCRIPT = 'printf %s "$1" > "$HOME/{n}" && printf %s "$1" > "$TMPDIR/{n}" && printf %s "$1" > ./{n}'


@dataclass(frozen=True)
class SelfTest:
    filesystem: bool
    syscalls: bool | None  # None: the syscall witness is off
    detail: str

    def to_json(self) -> dict[str, object]:
        return {"filesystem": self.filesystem, "syscalls": self.syscalls, "detail": self.detail}


def run_self_test(lab: Lab, env: dict[str, str], trace: bool, timeout: float = 30.0) -> SelfTest:
    name = lab.names.selftest
    expected = {f"{label}/{name}" for label in lab.areas}
    try:
        before = snapshot(lab)
        argv = lab_argv(
            lab, ("sh", "-c", _SCRIPT.format(n=name), "sh", lab.names.project), env, trace=trace
        )
        done = subprocess.run(
            argv, env=env, cwd=str(lab.work), capture_output=True, timeout=timeout, check=False
        )
        seen = {c.path for c in diff(before, snapshot(lab)) if c.change == "created"}
    except (OSError, subprocess.TimeoutExpired, WitnessFailed) as exc:
        return SelfTest(False, False if trace else None, f"the self-test could not run: {exc}")
    finally:
        for area in lab.areas.values():
            (area / name).unlink(missing_ok=True)
    fs_ok = done.returncode == 0 and expected <= seen
    traced: bool | None = None
    if trace:
        try:
            events = read_trace(
                str(lab.trace_file), {}, 16 << 20, tuple(lab.inside.values()), lab.setup_execs
            )
            written = {lab.label(e.target) for e in events if e.kind == "write" and e.ok}
            traced = expected <= written
        except (OSError, ValueError):
            traced = False
    missing = sorted(expected - seen)
    detail = (
        "the snapshot saw the three self-test files"
        if fs_ok
        else f"the snapshot missed {', '.join(missing) or 'nothing'} (exit {done.returncode})"
    )
    if traced is not None:
        detail += (
            "; the tracer saw the three writes" if traced else "; the tracer missed the writes"
        )
    return SelfTest(fs_ok, traced, detail)
