"""Which package a stdio command runs: `npx -y @scope/pkg@1.2.3`, `uvx --from pkg cmd`,
`pipx run --spec pkg cmd`, `docker run … image@sha256:…`, and their Windows `cmd /c` wrappers.

Pure string work on the config's command and args; nothing is resolved or fetched. A spec that is a
URL, a git reference or a local path keeps `version=None` (it is not pinned to a registry version).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from toolwitness.lazyre import lazy_compile
from toolwitness.model import PackageRef

# Options that take a value, per launcher (the value is skipped, not mistaken for the package).
_NPX_VALUE_OPTS = {"-p", "--package", "-c", "--call", "--registry", "--cache", "--userconfig"}
_UVX_VALUE_OPTS = {
    "--from", "--with", "--with-editable", "--with-requirements", "-p", "--python", "--index",
    "--index-url", "--extra-index-url", "--default-index", "-i", "--find-links", "-f",
    "--directory", "--project", "--config-file", "--cache-dir", "--constraints", "-c",
    "--overrides", "--env-file", "--index-strategy", "--prerelease", "--resolution",
    "--exclude-newer", "--python-platform", "--link-mode", "--refresh-package",
    "--reinstall-package", "--upgrade-package", "-P", "--build-constraints", "-b",
}  # fmt: skip
_PIPX_VALUE_OPTS = {"--spec", "--python", "--index-url", "-i", "--pip-args"}
_DOCKER_VALUE_OPTS = {
    "-e", "--env", "--env-file", "-v", "--volume", "--mount", "--name", "--network", "--net",
    "-p", "--publish", "-u", "--user", "-w", "--workdir", "--entrypoint", "-l", "--label",
    "--platform", "--pull", "-m", "--memory", "--cpus", "--add-host", "--cap-add", "--cap-drop",
    "--device", "--dns", "-h", "--hostname", "--ipc", "--pid", "--restart", "--security-opt",
    "--tmpfs", "--ulimit", "--log-driver", "--log-opt", "--shm-size", "--runtime", "--gpus",
    "--group-add", "--init-path", "--label-file", "--stop-signal", "--stop-timeout",
}  # fmt: skip
_NPM_LAUNCHERS = {"npx", "bunx", "pnpx"}
_PY_LAUNCHERS = {"uvx"}
_NPM_NAME = lazy_compile(r"(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9._~-][a-z0-9._~-]*", re.IGNORECASE)
_PY_NAME = lazy_compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")


def executable_name(command: str) -> str:
    """`/usr/local/bin/npx` and `C:\\…\\npx.cmd` are both `npx` (lower-case, no extension)."""
    base = re.split(r"[\\/]", command.strip())[-1].lower()
    for ext in (".cmd", ".exe", ".bat", ".ps1"):
        if base.endswith(ext):
            return base[: -len(ext)]
    return base


def package_from_command(command: str | None, args: Sequence[str]) -> PackageRef | None:
    if not command:
        return None
    exe = executable_name(command)
    argv = list(args)
    if exe == "cmd" and argv and argv[0].lower() in ("/c", "/k") and len(argv) > 1:
        return package_from_command(argv[1], argv[2:])
    if exe in _NPM_LAUNCHERS:
        return _npx(argv)
    if exe in ("npm", "pnpm", "yarn", "bun") and argv and argv[0] in ("exec", "dlx", "x"):
        return _npx(argv[1:])
    if exe in _PY_LAUNCHERS:
        return _uvx(argv)
    if exe == "uv" and argv[:2] == ["tool", "run"]:
        return _uvx(argv[2:])
    if exe == "pipx" and argv and argv[0] == "run":
        return _pipx(argv[1:])
    if exe in ("docker", "podman") and argv and argv[0] in ("run", "create"):
        return _docker(argv[1:])
    return None


def _first_positional(argv: list[str], value_opts: set[str]) -> tuple[str | None, dict[str, str]]:
    """The first non-option argument, and the values of the options seen before it."""
    seen: dict[str, str] = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            return (argv[i + 1] if i + 1 < len(argv) else None), seen
        if arg.startswith("-") and len(arg) > 1:
            name, eq, value = arg.partition("=")
            if not eq and name in value_opts and i + 1 < len(argv):
                seen.setdefault(name, argv[i + 1])
                i += 2
                continue
            if eq:
                seen.setdefault(name, value)
            i += 1
            continue
        return arg, seen
    return None, seen


def _npx(argv: list[str]) -> PackageRef | None:
    first, seen = _first_positional(argv, _NPX_VALUE_OPTS)
    spec = seen.get("--package") or seen.get("-p") or first
    return parse_npm_spec(spec) if spec else None


def parse_npm_spec(spec: str) -> PackageRef:
    """`@scope/name@1.2.3`, `name@latest`, `name@^1`, `github:u/r`, `https://…tgz`, `./dir`."""
    if spec.startswith("@"):
        scope_end = spec.find("/")
        at = spec.find("@", scope_end + 1) if scope_end > 0 else -1
    else:
        at = spec.find("@")
    name, version = (spec[:at], spec[at + 1 :]) if at > 0 else (spec, None)
    if not _NPM_NAME.fullmatch(name):
        return PackageRef(ecosystem="npm", name=spec, version=None, spec=spec)
    return PackageRef(ecosystem="npm", name=name, version=version or None, spec=spec)


def _uvx(argv: list[str]) -> PackageRef | None:
    first, seen = _first_positional(argv, _UVX_VALUE_OPTS)
    spec = seen.get("--from") or first
    return parse_pypi_spec(spec) if spec else None


def _pipx(argv: list[str]) -> PackageRef | None:
    first, seen = _first_positional(argv, _PIPX_VALUE_OPTS)
    spec = seen.get("--spec") or first
    return parse_pypi_spec(spec) if spec else None


def parse_pypi_spec(spec: str) -> PackageRef:
    """`name==1.0`, `name@1.0` (uv), `name[extra]==1.0`, `name>=1` (a range: not pinned), URLs."""
    text = spec.strip()
    match = _PY_NAME.match(text)
    if match is None or "://" in text or text.startswith(("git+", ".", "/")):
        return PackageRef(ecosystem="pypi", name=spec, version=None, spec=spec)
    name = match.group(0)
    rest = text[match.end() :]
    if rest.startswith("["):
        close = rest.find("]")
        rest = rest[close + 1 :] if close >= 0 else ""
    rest = rest.strip()
    version: str | None = None
    if rest.startswith("==") and not rest.startswith("==="):
        candidate = rest[2:].strip()
        if candidate and not any(c in candidate for c in "*,;<>!~ "):
            version = candidate
    elif rest.startswith("@") and "://" not in rest:
        candidate = rest[1:].strip()
        version = None if candidate in ("", "latest") else candidate
    return PackageRef(ecosystem="pypi", name=name, version=version, spec=spec)


def _docker(argv: list[str]) -> PackageRef | None:
    image, _ = _first_positional(argv, _DOCKER_VALUE_OPTS)
    return parse_docker_image(image) if image else None


def parse_docker_image(image: str) -> PackageRef:
    """`repo/name:tag`, `host:5000/name`, `name@sha256:…` → name and tag or digest."""
    name, digest = image, None
    if "@" in image:
        name, _, digest = image.partition("@")
    tag = None
    last = name.rsplit("/", 1)[-1]
    if ":" in last:
        tag = last.rsplit(":", 1)[1]
        name = name[: len(name) - len(tag) - 1]
    version = digest or tag  # a digest (`sha256:…`) pins the content; a tag can be moved
    return PackageRef(ecosystem="docker", name=name, version=version, spec=image)
