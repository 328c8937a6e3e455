"""Compile the option table the command line's fast path reads (`cli_fast`), from typer itself.

Each fast command's options are read off the click command typer builds (`cli_lazy`): option
strings, flag or value, repeatable or not, the value's type with its bounds or choices, and the
default the callback receives. The table is written to `data/cli-fast.json`:

    .venv/bin/python -m toolwitness.cli_table

and `tests/test_cli_fast.py` fails while it differs from what this builds, so typer's
declarations stay the only ones. A parameter using anything the fast parser does not implement
(an environment variable, a prompt, a callback, a custom type…) is refused here: it would need
the fast parser extended first.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

from toolwitness.cli_fast import FAST_COMMANDS, TABLE

_SCALARS = {str: "str", int: "int", float: "float", bool: "bool"}
# Path options: typer checks these only when set; the fast parser implements the defaults.
_PATH_DEFAULTS = {"exists": False, "file_okay": True, "dir_okay": True, "writable": False,
                  "resolve_path": False, "allow_dash": False, "path_type": None}  # fmt: skip


def build_table() -> dict[str, list[dict[str, Any]]]:
    from toolwitness.cli_lazy import load_command

    return {name: [_param(p) for p in load_command(name).params] for name in FAST_COMMANDS}


def _param(param: Any) -> dict[str, Any]:
    info = param.type_descriptor.parameter_info
    refused = [
        what for what, used in (
            ("an environment variable", bool(param.envvar)), ("a callback", bool(info.callback)),
            ("a prompt", bool(getattr(info, "prompt", False))), ("eagerness", param.is_eager),
            ("a parser", info.parser is not None), ("a count", bool(getattr(info, "count", 0))),
            ("clamping", bool(info.clamp)),
            ("a default factory", info.default_factory is not None),
            ("a hidden value", not param.expose_value),
            ("a required option", bool(param.required) and param.param_type_name == "option"),
        ) if used
    ]  # fmt: skip
    if param.nargs not in (1, -1):
        refused.append(f"nargs={param.nargs}")
    if any(getattr(info, key, value) != value for key, value in _PATH_DEFAULTS.items()):
        refused.append("path checks")
    if refused:
        raise ValueError(f"{param.name}: the fast path has no {', '.join(refused)}")
    annotation = param.type_descriptor.annotation
    repeated = param.multiple or param.nargs == -1
    if repeated:
        if get_origin(annotation) is not list:
            raise ValueError(f"{param.name}: a repeated value must be a list")
        (annotation,) = get_args(annotation)
    kind = "argument" if param.param_type_name == "argument" else "option"
    if kind == "option" and getattr(param, "is_flag", False):
        if annotation is not bool or param.default is not False:
            raise ValueError(f"{param.name}: only false-by-default bool flags are supported")
        kind = "flag"
    elif param.secondary_opts:
        raise ValueError(f"{param.name}: a --x/--no-x pair on a value option")
    spec: dict[str, Any] = {
        "name": param.name, "kind": kind, "opts": list(param.opts), "repeated": repeated,
        "default": _json_default(param.default),
    }  # fmt: skip
    if param.secondary_opts:  # `--debug/--no-debug`: the second switches it off again
        spec["off_opts"] = list(param.secondary_opts)
    spec.update(_value_type(param.name, annotation, info))
    return spec


def _value_type(name: str, annotation: Any, info: Any) -> dict[str, Any]:
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return {"type": "choice", "choices": [str(m.value) for m in annotation],
                "enum": f"{annotation.__module__}:{annotation.__qualname__}",
                "case_sensitive": info.case_sensitive}  # fmt: skip
    if get_origin(annotation) is Literal:
        values = get_args(annotation)
        if not all(isinstance(v, str) for v in values):
            raise ValueError(f"{name}: only string literals are supported")
        return {"type": "choice", "choices": list(values), "enum": None,
                "case_sensitive": info.case_sensitive}  # fmt: skip
    if annotation is Path:
        return {"type": "path"}
    if annotation in _SCALARS:
        spec: dict[str, Any] = {"type": _SCALARS[annotation]}
        if info.min is not None or info.max is not None:
            spec.update(min=info.min, max=info.max)
        return spec
    raise ValueError(f"{name}: the fast path has no type {annotation!r}")


def _json_default(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise ValueError(f"a default of type {type(value).__name__}")


def table_text() -> str:
    return json.dumps(build_table(), indent=1, sort_keys=True) + "\n"


def main() -> None:
    TABLE.write_text(table_text(), "utf-8")


if __name__ == "__main__":
    main()
