"""One exception root; every error carries the exit code the CLI returns for it.

ToolwitnessError                exit 3 unless a subclass says otherwise
├── InputError                  exit 2: the input (file, config, flag) is invalid or hostile
│   └── UsageError              exit 2: the command line itself is wrong
├── IncompleteScanError         exit 3: a stage could not finish; the result must not read as clean
└── InternalError               exit 3: a bug in toolwitness
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_THRESHOLD = 1
EXIT_INPUT = 2
EXIT_INTERNAL = 3


class ToolwitnessError(Exception):
    """Root of every error toolwitness raises on purpose."""

    exit_code = EXIT_INTERNAL

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InputError(ToolwitnessError):
    """The input is invalid, over a bound, or hostile. Names the source and the JSON path."""

    exit_code = EXIT_INPUT

    def __init__(self, message: str, *, source: str | None = None, path: str | None = None) -> None:
        where = ""
        if source is not None:
            where = source if path in (None, "", "$") else f"{source} at {path}"
        elif path:
            where = path
        super().__init__(f"{where}: {message}" if where else message)
        self.source = source
        self.path = path
        self.reason = message


class UsageError(InputError):
    """The command line is wrong (unknown option value, conflicting flags)."""


class IncompleteScanError(ToolwitnessError):
    """A stage could not finish; reporting the partial result as clean would be a lie."""


class InternalError(ToolwitnessError):
    """A bug in toolwitness itself."""
