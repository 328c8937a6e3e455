#!/usr/bin/env python3
"""Collect real MCP tool catalogs (tools/list results) from published servers.

For every server in servers.json: start it over stdio with the official MCP
Python SDK (stdio_client + ClientSession), initialize, list_tools (following
nextCursor pagination), with a per-server timeout, and write
catalogs/<slug>.json as {"tools": [<raw tool dicts>]}.

Failures are logged to logs/<slug>.stderr.log and results.json; the run continues.

Usage: .venv/bin/python collect.py [--only slug1,slug2] [--jobs N] [--timeout S]
"""
from __future__ import annotations

import argparse
import json
import os
import time
import traceback
from pathlib import Path

import anyio
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

ROOT = Path(__file__).resolve().parent
CATALOGS = ROOT / "catalogs"
LOGS = ROOT / "logs"


def expand(s: str) -> str:
    return s.replace("{ROOT}", str(ROOT))


async def collect_one(spec: dict, timeout: float) -> dict:
    slug = spec["slug"]
    env = dict(os.environ)
    env.update({k: expand(v) for k, v in (spec.get("env") or {}).items()})
    params = StdioServerParameters(
        command=expand(spec["command"]),
        args=[expand(a) for a in spec.get("args", [])],
        env=env,
        cwd=expand(spec.get("cwd", str(ROOT / "npm"))),
    )
    LOGS.mkdir(exist_ok=True)
    result: dict = {"slug": slug, "package": spec.get("package"), "ok": False}
    t0 = time.monotonic()
    with open(LOGS / f"{slug}.stderr.log", "w") as errlog:
        try:
            with anyio.fail_after(timeout):
                async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(
                    read, write
                ) as session:
                        init = await session.initialize()
                        tools: list[dict] = []
                        cursor = None
                        pages = 0
                        while True:
                            params_ = types.PaginatedRequestParams(cursor=cursor) if cursor else None
                            res = await session.list_tools(params=params_)
                            pages += 1
                            tools.extend(
                                t.model_dump(by_alias=True, exclude_none=True, mode="json")
                                for t in res.tools
                            )
                            cursor = res.next_cursor
                            if not cursor or pages > 100:
                                break
            CATALOGS.mkdir(exist_ok=True)
            with open(CATALOGS / f"{slug}.json", "w") as f:
                json.dump({"tools": tools}, f, indent=2, ensure_ascii=False)
                f.write("\n")
            si = init.server_info
            result.update(
                ok=True,
                tool_count=len(tools),
                pages=pages,
                server_name=si.name,
                server_version=si.version,
                protocol_version=str(init.protocol_version),
            )
        except BaseException as e:
            if isinstance(e, KeyboardInterrupt):
                raise
            msg = "".join(traceback.format_exception_only(type(e), e)).strip()
            # unwrap exception groups for a readable message
            def leaves(x):
                if isinstance(x, BaseExceptionGroup):
                    for y in x.exceptions:
                        yield from leaves(y)
                else:
                    yield x
            if isinstance(e, BaseExceptionGroup):
                msg = "; ".join(
                    "".join(traceback.format_exception_only(type(x), x)).strip()
                    for x in leaves(e)
                )
            if isinstance(e, TimeoutError):
                msg = f"timeout after {timeout}s"
            result["error"] = msg[:2000]
            errlog.write(f"\n[collect.py] FAILED: {msg}\n")
    result["seconds"] = round(time.monotonic() - t0, 1)
    status = f"OK {result.get('tool_count')} tools" if result["ok"] else f"FAIL {result['error'][:200]}"
    print(f"[{slug}] {status} ({result['seconds']}s)", flush=True)
    return result


async def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--servers", default=str(ROOT / "servers.json"))
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=4)
    ap.add_argument("--timeout", type=float, default=60.0)
    args = ap.parse_args()

    specs = json.loads(Path(args.servers).read_text())
    if args.only:
        wanted = set(args.only.split(","))
        specs = [s for s in specs if s["slug"] in wanted]

    results_path = ROOT / "results.json"
    results = json.loads(results_path.read_text()) if results_path.exists() else {}
    sem = anyio.Semaphore(args.jobs)

    async def run(spec: dict) -> None:
        async with sem:
            try:
                r = await collect_one(spec, args.timeout)
            except Exception as e:  # pragma: no cover
                r = {"slug": spec["slug"], "ok": False, "error": repr(e)}
            results[spec["slug"]] = r

    async with anyio.create_task_group() as tg:
        for spec in specs:
            tg.start_soon(run, spec)

    results_path.write_text(json.dumps(dict(sorted(results.items())), indent=2) + "\n")
    ok = [r for r in results.values() if r.get("ok")]
    print(f"\n{len(ok)} servers OK, {sum(r['tool_count'] for r in ok)} tools total "
          f"({len(results) - len(ok)} failed)")


if __name__ == "__main__":
    anyio.run(main)
