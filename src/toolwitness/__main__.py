"""`python -m toolwitness` and the console script."""

from __future__ import annotations

import gc
import sys


def run() -> None:
    argv = sys.argv[1:]
    if argv in (["--version"], ["-V"]):  # scripts ask this often: answer without loading typer
        from toolwitness._version import __version__

        sys.stdout.write(f"toolwitness {__version__}\n")
        sys.exit(0)
    # Commands load on first use (cli_lazy), so the gateway, which starts in front of a server
    # on every client launch, pays only for itself, not for the scanner.
    from toolwitness.cli import main

    code = main()
    # The interpreter collects cycles once more at exit, walking every object the command left
    # (caches of a large scan: ~1.5 s at 5,000 tools); frozen objects are skipped.
    gc.freeze()
    sys.exit(code)


if __name__ == "__main__":
    run()
