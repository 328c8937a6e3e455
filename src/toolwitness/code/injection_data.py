"""The dependency-injection data file (`data/dependency-injection.yaml`), read once."""

from __future__ import annotations

from functools import lru_cache

from toolwitness.datafiles import data_files
from toolwitness.plainclass import plainclass
from toolwitness.yamlload import load_yaml


@plainclass(frozen=True)
class InjectionNames:
    register: dict[str, str]  # method -> provider | class | token | value
    resolve: dict[str, str]  # method -> one | many
    inject: dict[str, str]  # decorator -> one | many
    providers: dict[str, str]  # provider key -> value | class | factory | token
    parameter_decorators: frozenset[str]
    token_makers: frozenset[str]


@lru_cache(maxsize=1)
def injection_names() -> InjectionNames:
    text = data_files().joinpath("dependency-injection.yaml")
    doc = load_yaml(text.read_text("utf-8"))
    register: dict[str, str] = {}
    resolve: dict[str, str] = {}
    inject: dict[str, str] = {}
    providers: dict[str, str] = {}
    for container in doc["containers"]:
        register.update(container["register"])
        resolve.update(container["resolve"])
        inject.update(container["inject"])
        providers.update(container["providers"])
    return InjectionNames(
        register,
        resolve,
        inject,
        providers,
        frozenset(doc["parameter_decorators"]),
        frozenset(doc["token_makers"]),
    )
