"""The probe's analysis process: `python -m toolwitness.lab.child` (job JSON on stdin).

Like the sweep's analysis child: it asks to die with its parent, caps its own address space and
CPU time (the servers it starts inherit the caps), probes one stdio server in the lab folder the
parent made, and prints the `ServerProbe` as one JSON object. The parent owns the folder and
removes it however this process ends, SIGKILL included (`isolated.py`).
"""

from __future__ import annotations

import json
import sys
from typing import Any

from toolwitness.procs import die_with_parent, limit_resources


def _over_memory(job: dict[str, Any]) -> dict[str, Any]:
    why = f"the lab's analysis exceeded its memory limit of {job['memory_mib']} MiB"
    return {"server": job["spec"].get("name", ""), "error": why}


def run(job: dict[str, Any]) -> dict[str, Any]:
    try:
        from pathlib import Path

        import anyio

        from toolwitness.errors import ToolwitnessError
        from toolwitness.lab.probe import LabOptions, ServerProbe, probe_server_async
        from toolwitness.model import ServerSpec
        from toolwitness.rules import load_registry
    except (MemoryError, ImportError) as exc:
        # A shared library that cannot be mapped under the limit is the limit, not a bug.
        if isinstance(exc, MemoryError) or "failed to map" in str(exc):
            return _over_memory(job)
        raise
    spec = ServerSpec.model_validate(job["spec"])
    options = LabOptions(**{**job["options"], "allow_commands": frozenset(job["allow_commands"])})
    rules = load_registry([])
    try:
        probe = anyio.run(probe_server_async, spec, options, rules, Path(job["parent"]))
    except MemoryError:
        return _over_memory(job)
    except ToolwitnessError as exc:
        return {"server": spec.name, "error": str(exc), "refused": True}
    return ServerProbe.to_json(probe)


def main() -> int:
    job = json.loads(sys.stdin.read())
    die_with_parent(int(job["parent_pid"]))
    limit_resources(int(job["memory_mib"]), int(job["cpu_seconds"]))
    sys.stdout.write(json.dumps(run(job)))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
