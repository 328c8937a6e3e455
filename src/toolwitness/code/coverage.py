"""Coverage of a code analysis: which tools were found, which were listed, which were verified.

Fail closed: a tree that is an MCP server (it imports an MCP SDK or registers a request handler)
whose code yields no tools, fewer tools than the server lists (live or `--surface`), or a
registration the analysis could not read is *incomplete*: every listed tool not found is
UNANALYZABLE with the constructs that were not followed, TW-CODE-005 (high, confirmed) keeps the
grade at C or below, and the scan exits 3 unless `--allow-partial`.
"""

from __future__ import annotations

from functools import lru_cache

from toolwitness.code import ir
from toolwitness.code.project import Project
from toolwitness.datafiles import data_files
from toolwitness.plainclass import plainclass
from toolwitness.yamlload import load_yaml

NOT_IN_CODE = "no registration of this tool was found in the code"
# Libraries whose import means the tools are built from an API description at run time.
_GENERATED_FROM = ("openapi", "swagger", "@apidevtools/swagger-parser", "@readme/openapi-parser")


@plainclass(frozen=True)
class CodeCoverage:
    is_server: bool  # imports an MCP SDK, registers request handlers, or may (code/analyse.py)
    found: int  # tools registered in the code
    listed: int | None  # tools the server lists (live or --surface), when known
    verified: int  # tools with a verdict of OK or VIOLATION (their code was followed)
    missing: tuple[str, ...] = ()  # listed tools with no registration in the code
    gaps: tuple[str, ...] = ()  # registrations or server files that could not be read

    @property
    def complete(self) -> bool:
        if self.missing:  # a listed tool with no registration: whatever the tree looks like
            return False
        if not self.is_server:
            return True
        return self.found > 0 and not self.gaps

    def summary(self) -> str:
        listed = "not known" if self.listed is None else str(self.listed)
        return (
            f"code coverage: {self.found} tool(s) found in the code, {listed} listed by the "
            f"server, {self.verified} verified"
        )

    def reason(self) -> str:
        """Why the coverage is incomplete, naming what could not be followed."""
        parts: list[str] = []
        if self.missing:
            shown = ", ".join(self.missing[:10]) + (" …" if len(self.missing) > 10 else "")
            parts.append(f"{len(self.missing)} listed tool(s) not found in the code ({shown})")
        elif self.found == 0:
            parts.append("the server registers tools the analysis did not find")
        if self.gaps:
            parts.append("not followed: " + "; ".join(self.gaps[:5]))
        return "; ".join(parts)


@lru_cache(maxsize=1)
def _sdk_modules() -> dict[str, tuple[str, ...]]:
    text = data_files().joinpath("mcp-sdks.yaml").read_text("utf-8")
    doc = load_yaml(text)
    return {"js": tuple(doc["js"]), "py": tuple(doc["py"])}


def _matches(module: str, prefixes: tuple[str, ...]) -> bool:
    module = module.removeprefix("node:")
    return any(module == p or module.startswith((p + "/", p + ".")) for p in prefixes)


def inside_bundled_sdk(module: ir.Module, line: int) -> bool:
    """The line lies in a module a bundler copied from an MCP SDK package."""
    origin = None
    for start, path in module.origins:
        if start > line:
            break
        origin = path
    if origin is None or not origin.startswith("node_modules/"):
        return False
    package = origin.removeprefix("node_modules/")
    return _matches(package, _sdk_modules()["js"]) or any(
        package.startswith(sdk + "/") for sdk in _sdk_modules()["js"]
    )


def imported_modules(module: ir.Module) -> set[str]:
    found = {imp.module for imp in module.star_exports}
    for scope in module.scopes.values():
        for values in scope.bindings.values():
            found.update(v.module for v in values if isinstance(v, ir.Import))
    return found


def server_files(project: Project) -> set[str]:
    """Modules that import an MCP SDK or hold a registration."""
    sdks = _sdk_modules()
    out: set[str] = set()
    for key, module in project.modules.items():
        if module.registrations or any(
            _matches(m, sdks[module.language]) for m in imported_modules(module)
        ):
            out.add(key)
    return out


def generated_tools_hint(project: Project, files: set[str]) -> str | None:
    """A reason to add when server code imports an OpenAPI/Swagger library."""
    for key in sorted(files):
        for name in sorted(imported_modules(project.modules[key])):
            if any(g in name.lower() for g in _GENERATED_FROM):
                return f"{key} imports {name}: tools generated from an API description at run time"
    return None


def coverage_gaps(project: Project, notes: list[str], files: set[str], found: int) -> list[str]:
    """Registration notes, and server files not fully read (a registration may be hidden)."""
    gaps = list(notes)
    for key in sorted(files):
        gaps += [f"{key}: {error}" for error in project.modules[key].errors]
    hint = generated_tools_hint(project, files)
    if hint is not None and (gaps or not found):
        gaps.insert(0, hint)
    return gaps
