"""A catalog's own statement of its package (`packageMeta`), read into a `PackageRef`.

Some catalogs say which package the server is: `"packageMeta": {"registry": "npm", "name":
"mcp-remote", "version": "0.1.0", "dependencies": ["…"]}`. Read into the surface's package
reference, the supply-chain checks judge it as they judge a config's launch spec: known-vulnerable
versions (TW-NET-007), imitated names (TW-SUP-002…006), imitated dependency names. It is a
statement, not a launch spec, so `spec` stays None and the pinning rule (TW-SUP-001) does not
apply to it.

Hostile input: the field is a vendor's, so a wrong shape never refuses the catalog and never
crashes; it is ignored with a note, which `checks.meta` reports as TW-META-008.
"""

from __future__ import annotations

from typing import Any

from toolwitness.model import PackageRef

FIELD = "packageMeta"
NOTE_PREFIX = "packageMeta ignored: "
_REGISTRIES = {"npm": "npm", "pypi": "pypi", "pip": "pypi", "docker": "docker"}
_MAX_NAME = 214  # npm's limit on a package name; PyPI and Docker names are shorter in practice
_MAX_VERSION = 128
_MAX_DEPENDENCIES = 1000


def read_package_meta(value: Any) -> tuple[PackageRef | None, str | None]:
    """(the package, None) or (None, a note saying why the statement was ignored)."""
    if not isinstance(value, dict):
        return None, _note(f"it is {_kind(value)}, not an object")
    registry = value.get("registry", value.get("ecosystem"))
    if not isinstance(registry, str) or registry.strip().lower() not in _REGISTRIES:
        return None, _note("'registry' must be one of npm, pypi, docker")
    name = value.get("name")
    if not isinstance(name, str) or not 0 < len(name.strip()) <= _MAX_NAME:
        return None, _note(f"'name' must be a non-empty string of at most {_MAX_NAME} characters")
    version = value.get("version")
    if version is not None and (not isinstance(version, str) or len(version) > _MAX_VERSION):
        return None, _note(f"'version' must be a string of at most {_MAX_VERSION} characters")
    dependencies = _dependencies(value.get("dependencies"))
    if isinstance(dependencies, str):
        return None, _note(dependencies)
    ref = PackageRef(
        ecosystem=_REGISTRIES[registry.strip().lower()],
        name=name.strip(),
        version=(version or "").strip() or None,
        dependencies=dependencies,
    )
    return ref, None


def _dependencies(raw: Any) -> tuple[str, ...] | str | None:
    """Names from a list (`["a", "b@1"]`) or a package.json-style object; a str is an error."""
    if raw is None:
        return None
    if isinstance(raw, dict):
        raw = list(raw)
    if not isinstance(raw, list):
        return f"'dependencies' must be an array or an object, not {_kind(raw)}"
    if len(raw) > _MAX_DEPENDENCIES:
        return f"more than {_MAX_DEPENDENCIES} dependencies"
    names: list[str] = []
    for item in raw:
        if not isinstance(item, str) or not 0 < len(item) <= _MAX_NAME + _MAX_VERSION:
            return "every dependency must be a non-empty string"
        at = item.find("@", 1)  # "@scope/name@1.0" → "@scope/name"
        names.append(item[:at] if at > 0 else item)
    return tuple(dict.fromkeys(n.strip() for n in names if n.strip()))


def _note(reason: str) -> str:
    return NOTE_PREFIX + reason


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    return {list: "an array", str: "a string", bool: "a boolean", dict: "an object"}.get(
        type(value), "a number"
    )
