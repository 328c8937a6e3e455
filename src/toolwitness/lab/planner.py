"""Choose and plan the calls once the tools are listed; plant what they will look for.

The planner runs inside the session, after tools/list and before the first call's snapshot:
it selects the tools (`selection.py`), plants bait for what their descriptions talk about
(`bait.py`), and synthesises each tool's call plans (`args.py`) with the server's own roots — the
lab folders its arguments name, then the working directory. The control run's twin plants
exactly the same (same seed, same listing) and makes no call.

`--repo DIR` copies a user's repository or folder into the working directory (bounded; the
user's own copy is never touched): the copy is `{repo}` in the server's arguments and the
subject of repo parameters, so git's index refresh happens, and is witnessed, on the copy.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from toolwitness.errors import InputError
from toolwitness.lab.args import ArgumentSource, CallPlan, CannotSynthesize, plan_calls
from toolwitness.lab.bait import LabPlanter, plant_bait
from toolwitness.lab.sandbox import Lab
from toolwitness.lab.selection import select_tools
from toolwitness.lab.session import lab_placeholders
from toolwitness.model import ServerSpec, ServerSurface, Tool

MAX_REPO_ENTRIES = 10_000
MAX_REPO_BYTES = 128 * 1024 * 1024


def _texts(tool: Tool) -> list[str]:
    out = [tool.description or ""]
    props = tool.input_schema.get("properties")
    if isinstance(props, dict):
        out += [str(s.get("description") or "") for s in props.values() if isinstance(s, dict)]
    return out


class Planner:
    def __init__(
        self, lab: Lab, spec: ServerSpec, all_tools: bool, max_calls: int, repo: str | None
    ) -> None:
        self.lab = lab
        self.spec = spec
        self.all_tools = all_tools
        self.max_calls = max_calls
        self.repo = repo
        self.skipped: dict[str, str] = {}
        self.bait: list[str] = []

    def twin(self, lab: Lab) -> Planner:
        return Planner(lab, self.spec, self.all_tools, self.max_calls, self.repo)

    def roots(self) -> tuple[str, ...]:
        args = [lab_placeholders(a, self.lab, self.repo) for a in self.spec.transport.args]
        named = [os.path.normpath(a) for a in args if os.path.isabs(a) and self.lab.label(a) != a]
        return tuple(dict.fromkeys([*named, self.lab.inside["$WORK"]]))

    def source(self, planter: LabPlanter) -> ArgumentSource:
        lab = self.lab
        repo = self.repo or (lab.repo if lab.host(lab.repo).is_dir() else None)
        return ArgumentSource(
            note=lab.path(lab.note), directory=lab.path(lab.notes), nonce_dir=lab.path(lab.notes),
            names=lab.names, repo=lab.path(repo) if repo else None, roots=self.roots(),
            home=lab.inside["~"], plant=planter,
        )  # fmt: skip

    def __call__(self, surface: ServerSurface) -> list[tuple[str, CallPlan]]:
        chosen = select_tools(surface, self.all_tools)
        selected = [
            t for t in sorted(surface.tools, key=lambda t: t.name) if chosen.get(t.name) is None
        ]
        self.bait = plant_bait(self.lab, [text for t in selected for text in _texts(t)])
        planter = LabPlanter(self.lab)
        source = self.source(planter)
        plans: list[tuple[str, CallPlan]] = []
        for tool in sorted(surface.tools, key=lambda t: t.name):
            reason = chosen.get(tool.name)
            if reason is not None:
                self.skipped[tool.name] = reason
                continue
            try:
                planned = plan_calls(
                    dict(tool.input_schema), source, tool.name, tool.description or ""
                )
            except CannotSynthesize as exc:
                self.skipped[tool.name] = f"cannot synthesise arguments: {exc}"
                continue
            if len(plans) + len(planned) > self.max_calls:
                self.skipped[tool.name] = f"over the lab's budget of {self.max_calls} calls"
                continue
            plans += [(tool.name, p) for p in planned]
        self.bait += planter.planted
        return plans

    def plant_only(self, surface: ServerSurface) -> list[tuple[str, CallPlan]]:
        """The control run: the same planting, no call."""
        self(surface)
        return []


def check_repository(source: str) -> Path:
    """A folder `--repo` can copy (refused before any work, with the reason)."""
    root = Path(source)
    if not root.is_dir():
        raise InputError(f"--repo {source}: not a directory")
    if (root / ".git").is_file():
        raise InputError(
            f"--repo {source}: its .git is a file (a worktree or submodule whose history lives "
            "elsewhere); name a repository with its own .git folder"
        )
    return root


def copy_repository(lab: Lab, source: str) -> str:
    """Copy a user's folder into the lab's working directory; its labelled path there."""
    root = check_repository(source)
    name = root.resolve().name or "repository"
    if name in ("repo", lab.names.notes):
        name = f"{name}-copy"
    target = lab.host(f"$WORK/{name}")
    entries = 0
    size = 0
    for folder, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames.sort()
        relative = Path(folder).relative_to(root)
        (target / relative).mkdir(parents=True, exist_ok=True)
        for item in sorted(filenames) + [d for d in dirnames if (Path(folder) / d).is_symlink()]:
            entries += 1
            path = Path(folder) / item
            info = path.lstat()
            size += info.st_size if stat.S_ISREG(info.st_mode) else 0
            if entries > MAX_REPO_ENTRIES or size > MAX_REPO_BYTES:
                raise InputError(
                    f"--repo {source}: more than {MAX_REPO_ENTRIES} entries or "
                    f"{MAX_REPO_BYTES >> 20} MiB; the lab copies the folder and witnesses every "
                    "file in it, so name a smaller one"
                )
            if stat.S_ISLNK(info.st_mode):
                (target / relative / item).symlink_to(os.readlink(path))
            elif stat.S_ISREG(info.st_mode):
                shutil.copy2(path, target / relative / item)
        dirnames[:] = [d for d in dirnames if not (Path(folder) / d).is_symlink()]
    return f"$WORK/{name}"
