"""Run the shell steps of a GitHub composite action or workflow job locally, as the runner does.

Expressions `${{ … }}` are replaced from a context of known names (`inputs.x`,
`steps.ID.outputs.y`, `github.action_path`); one the context does not hold fails the test, so
every expression the action uses is covered. `if:` conditions of the form `A == 'v' && …` are
evaluated. Each step runs as `bash --noprofile --norc -eo pipefail FILE` (GitHub's `shell: bash`)
with its own `$GITHUB_OUTPUT` file, whose `key=value` lines become `steps.ID.outputs.key`.
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_COMPARISON = re.compile(r"^([\w.-]+)\s*==\s*'([^']*)'$")


def substitute(text: str, context: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in context:
            raise KeyError(f"expression ${{{{ {name} }}}} is not in the emulated context")
        return context[name]

    return EXPRESSION.sub(one, text)


def condition(text: str, context: dict[str, str]) -> bool:
    """`a == 'x' && b == 'y'` (the only form the action uses)."""
    results = []
    for part in text.split("&&"):
        match = _COMPARISON.match(part.strip())
        if match is None:
            raise ValueError(f"unsupported condition {part!r}")
        results.append(context.get(match.group(1), "") == match.group(2))
    return all(results)


@dataclass
class StepRun:
    name: str
    returncode: int
    stdout: str
    stderr: str
    outputs: dict[str, str] = field(default_factory=dict)


def run_step(step: dict[str, Any], context: dict[str, str], env: dict[str, str], cwd: Path) -> StepRun:
    step_env = {k: substitute(str(v), context) for k, v in (step.get("env") or {}).items()}
    with tempfile.TemporaryDirectory(prefix="tw-ci-step-") as work:
        script = Path(work) / "step.sh"
        script.write_text(substitute(step["run"], context), encoding="utf-8")
        output = Path(work) / "github_output"
        output.write_text("")
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            env={**env, **step_env, "GITHUB_OUTPUT": str(output)}, cwd=cwd,
            capture_output=True, text=True, timeout=900,
        )  # fmt: skip
        outputs = dict(
            line.split("=", 1) for line in output.read_text().splitlines() if "=" in line
        )
    if step.get("id"):
        for key, value in outputs.items():
            context[f"steps.{step['id']}.outputs.{key}"] = value
    return StepRun(step.get("name", ""), proc.returncode, proc.stdout, proc.stderr, outputs)


def base_env(path_dirs: list[Path], workspace: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "PYTHON"))}
    env["PATH"] = os.pathsep.join([*map(str, path_dirs), env.get("PATH", "")])
    env["GITHUB_WORKSPACE"] = str(workspace)
    env["NO_COLOR"] = "1"
    return env
