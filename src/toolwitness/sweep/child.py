"""The per-target analysis process: `python -m toolwitness.sweep.child` (job JSON on stdin).

The address-space and CPU limits are set before anything else is imported, so a package whose
parse or call graph blows up fails alone (UNANALYZABLE: memory limit) instead of taking the
sweep's worker with it. Prints one JSON object (the record body) on stdout and exits 0; any
other ending is classified by the parent (`task.py`).
"""

from __future__ import annotations

import json
import resource
import sys
from multiprocessing.connection import Connection
from typing import Any

from toolwitness.procs import die_with_parent, limit_resources

CPU_KEY = "_cpu_seconds"


def _redact(text: str, replacements: list[list[str]]) -> str:
    """Temporary and absolute paths vary run to run; records name the artifact instead."""
    for old, new in sorted(replacements, key=lambda pair: -len(pair[0])):
        text = text.replace(old, new)
    return text


def _body(job: dict[str, Any]) -> dict[str, Any]:
    from pathlib import Path

    from toolwitness.acquire.archive import unpack_archive
    from toolwitness.acquire.package import package_root
    from toolwitness.model import PackageRef
    from toolwitness.sweep.analyse import analyse_root

    package = PackageRef(**job["package"]) if job.get("package") else None
    if job.get("archive"):
        tree = unpack_archive(Path(job["archive"]), Path(job["workdir"]) / "tree")
        root = package_root(tree)
    else:
        root = Path(job["directory"])
    return analyse_root(root, job["key"], package)


def _classified(job: dict[str, Any]) -> dict[str, Any]:
    from toolwitness.code.isolate import out_of_memory
    from toolwitness.errors import InputError
    from toolwitness.textnorm import excerpt

    try:
        return _body(job)
    except MemoryError:
        reason = f"analysis exceeded the memory limit of {job['memory_mib']} MiB"
        return {"outcome": "UNANALYZABLE", "reason": reason}
    except RecursionError:
        return {"outcome": "UNANALYZABLE", "reason": "the code nests deeper than the analysis"}
    except InputError as exc:  # a refused archive, a source tree over the bounds
        return {"outcome": "UNANALYZABLE", "reason": excerpt(str(exc), 400)}
    except (ImportError, OSError) as exc:
        # A parser's shared object loaded lazily mid-analysis cannot be mapped under the limit.
        if out_of_memory(exc):
            reason = f"analysis exceeded the memory limit of {job['memory_mib']} MiB"
            return {"outcome": "UNANALYZABLE", "reason": reason}
        return {"outcome": "ERROR", "reason": excerpt(f"{type(exc).__name__}: {exc}", 400)}
    except Exception as exc:  # fail closed: recorded as ERROR, the sweep goes on
        return {"outcome": "ERROR", "reason": excerpt(f"{type(exc).__name__}: {exc}", 400)}


def compute(job: dict[str, Any]) -> dict[str, Any]:
    """Limit this process, then analyse; the body as a dict (never raises for the target)."""
    die_with_parent()  # a SIGKILLed sweep takes its analyses with it
    limit_resources(int(job["memory_mib"]), int(job["cpu_seconds"]))
    try:
        import toolwitness.sweep.analyse  # noqa: F401 - the imports alone need memory
    except (MemoryError, ImportError) as exc:
        # A shared library that cannot be mapped under the limit is the limit, not a bug.
        mapped = isinstance(exc, MemoryError) or "failed to map" in str(exc)
        outcome, reason = (
            ("UNANALYZABLE", f"the analysis does not start within {job['memory_mib']} MiB")
            if mapped
            else ("ERROR", f"{type(exc).__name__}: {exc}"[:400])
        )
        body: dict[str, Any] = {"outcome": outcome, "reason": reason}
    else:
        body = _classified(job)
    body.setdefault("server", None)
    body.setdefault("notes", [])
    body["reason"] = _redact(body["reason"], job.get("redact", []))
    body["notes"] = [_redact(n, job.get("redact", [])) for n in body["notes"]]
    usage = resource.getrusage(resource.RUSAGE_SELF)
    body[CPU_KEY] = round(usage.ru_utime + usage.ru_stime, 3)  # moved to `timing` by the parent
    return body


def forked_entry(job: dict[str, Any], conn: Connection) -> None:
    """The same work in a process forked from a preloaded server (no import cost per target)."""
    conn.send_bytes(json.dumps(compute(job), sort_keys=True).encode("ascii"))
    conn.close()


def main() -> int:
    body = compute(json.loads(sys.stdin.read()))
    sys.stdout.write(json.dumps(body, sort_keys=True))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
