"""The client table (data/clients.yaml): which clients keep MCP servers where, in which format.

Loaded once and checked here (a malformed table is a bug in toolwitness, so it raises
InternalError); tests also validate the file against data/clients.schema.json. The table holds
three things: `variables` (a name for a list of folders, such as VS Code's user folder on each
platform), `clients` (their files, each a path template with a scope and a format) and
`project_registries` (files in which clients record the project folders they opened).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from toolwitness.acquire.config_formats import FORMATS
from toolwitness.acquire.config_syntax import SYNTAXES
from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.yamlload import load_yaml

CLIENTS_SCHEMA = "toolwitness.clients/2"
BASE_VARIABLES = (
    "HOME", "APPDATA", "LOCALAPPDATA", "XDG_CONFIG_HOME", "CODEX_HOME", "COPILOT_HOME",
    "PROGRAMDATA", "PROGRAMFILES", "ROOT", "PROJECT",
)  # fmt: skip
FILE_SYNTAXES = (*SYNTAXES, "shell")  # a shell script is found and reported, never parsed
SCOPES = ("user", "project", "system")
OSES = ("linux", "macos", "windows")
REGISTRY_KINDS = ("keys", "file-uri")
_TOKEN = re.compile(r"\{([A-Z][A-Z0-9_]*)\}")


@dataclass(frozen=True)
class ClientFile:
    client: str
    label: str
    scope: str  # user | project | system
    os: tuple[str, ...]
    format: str
    syntax: str | None
    path: str  # template


@dataclass(frozen=True)
class Client:
    id: str
    label: str
    docs: tuple[str, ...]
    note: str
    files: tuple[ClientFile, ...]


@dataclass(frozen=True)
class ProjectRegistry:
    client: str
    path: str  # template
    syntax: str
    folders: str  # keys | file-uri
    key: str  # where in the document ("" = top level)


@dataclass(frozen=True)
class ClientTable:
    clients: tuple[Client, ...]
    variables: dict[str, tuple[tuple[str, str], ...]]  # name -> ((os, template), ...)
    registries: tuple[ProjectRegistry, ...]

    def files(self) -> tuple[ClientFile, ...]:
        return tuple(f for c in self.clients for f in c.files)

    def expand(self, template: str) -> list[tuple[str, tuple[str, ...]]]:
        """`template` with its derived variable replaced by each folder it names, as
        (template of base variables, the platforms it is documented for)."""
        match = _TOKEN.match(template)
        name = match.group(1) if match else ""
        if name not in self.variables:
            return [(template, ())]
        rest = template[len(name) + 2 :]
        return [(path + rest, (os,)) for os, path in self.variables[name]]


def _fail(message: str) -> InternalError:
    return InternalError(f"data/clients.yaml: {message}")


def _template(path: object, where: str, known: set[str]) -> str:
    if not isinstance(path, str) or not path.startswith("{"):
        raise _fail(f"{where}: path must be a string starting with a variable")
    unknown = sorted(set(_TOKEN.findall(path)) - known)
    if unknown or _TOKEN.match(path) is None:
        raise _fail(f"{where}: unknown variable(s) {unknown} in {path!r}")
    return path


def _variables(raw: object) -> dict[str, tuple[tuple[str, str], ...]]:
    if not isinstance(raw, dict):
        raise _fail("variables must be a mapping")
    out: dict[str, tuple[tuple[str, str], ...]] = {}
    base = set(BASE_VARIABLES) - {"PROJECT"}
    for name, items in raw.items():
        if not isinstance(name, str) or name in BASE_VARIABLES or not isinstance(items, list):
            raise _fail(f"bad variable {name!r}")
        pairs: list[tuple[str, str]] = []
        for item in items:
            os = item.get("os") if isinstance(item, dict) else None
            if os not in OSES:
                raise _fail(f"variable {name}: bad os in {item!r}")
            pairs.append((os, _template(item.get("path"), f"variable {name}", base)))
        out[name] = tuple(pairs)
    return out


def _client(raw: object, known: set[str]) -> Client:
    if not isinstance(raw, dict):
        raise _fail(f"client entry must be a mapping: {raw!r}")
    cid, label, docs = raw.get("id"), raw.get("label"), raw.get("docs")
    if not isinstance(cid, str) or not isinstance(label, str) or not label:
        raise _fail(f"client without id/label: {raw!r}")
    if (
        not isinstance(docs, list)
        or not docs
        or not all(isinstance(d, str) and d.startswith("https://") for d in docs)
    ):
        raise _fail(f"{cid}: docs must list https:// sources")
    files: list[ClientFile] = []
    for f in raw.get("files") or []:
        fmt, syntax, scope = f.get("format"), f.get("syntax"), f.get("scope")
        if fmt not in FORMATS or (syntax is not None and syntax not in FILE_SYNTAXES):
            raise _fail(f"{cid}: bad format/syntax in {f!r}")
        if scope not in SCOPES or (fmt == "opaque") != (syntax == "shell"):
            raise _fail(f"{cid}: bad scope, or opaque without syntax shell, in {f!r}")
        path = _template(f.get("path"), cid, known)
        if (scope == "project") != path.startswith("{PROJECT}"):
            raise _fail(f"{cid}: project files, and only they, start with {{PROJECT}}: {path}")
        os = tuple(f.get("os") or ())
        if any(o not in OSES for o in os):
            raise _fail(f"{cid}: bad os in {f!r}")
        files.append(ClientFile(cid, label, scope, os, fmt, syntax, path))
    if not files:
        raise _fail(f"{cid}: no files")
    return Client(cid, label, tuple(docs), str(raw.get("note") or "").strip(), tuple(files))


def _registry(raw: object, known: set[str]) -> ProjectRegistry:
    if not isinstance(raw, dict):
        raise _fail(f"project registry must be a mapping: {raw!r}")
    syntax, folders, key = raw.get("syntax"), raw.get("folders"), raw.get("key")
    if syntax not in SYNTAXES or folders not in REGISTRY_KINDS or not isinstance(key, str):
        raise _fail(f"bad project registry {raw!r}")
    path = _template(raw.get("path"), "project registry", known - {"PROJECT"})
    return ProjectRegistry(str(raw.get("client")), path, syntax, folders, key)


def parse_client_table(doc: object) -> ClientTable:
    if not isinstance(doc, dict) or doc.get("schema") != CLIENTS_SCHEMA:
        raise _fail("missing or wrong schema marker")
    variables = _variables(doc.get("variables"))
    known = set(BASE_VARIABLES) | set(variables)
    clients = tuple(_client(c, known) for c in doc.get("clients") or [])
    ids = [c.id for c in clients]
    if len(set(ids)) != len(ids):
        raise _fail("duplicate client id")
    registries = tuple(_registry(r, known) for r in doc.get("project_registries") or [])
    return ClientTable(clients, variables, registries)


@lru_cache(maxsize=1)
def client_table() -> ClientTable:
    """The shipped table, validated once per process."""
    text = data_files().joinpath("clients.yaml").read_text("utf-8")
    return parse_client_table(load_yaml(text))


def client_files() -> tuple[ClientFile, ...]:
    return client_table().files()


def client_labels() -> dict[str, str]:
    return {c.id: c.label for c in client_table().clients}
