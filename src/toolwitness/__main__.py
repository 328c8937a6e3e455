"""`python -m toolwitness` and the console script."""

from __future__ import annotations

import gc
import os
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
    if _nothing_left_to_run():
        # Then exiting at once skips only freeing the objects one by one (the caches and
        # results of a large scan: ~0.05 s at 5,000 tools), which the process's end does too.
        os._exit(code)
    sys.exit(code)


def _nothing_left_to_run() -> bool:
    """True when the interpreter's own exit would only free memory: this is the program (`python
    -m toolwitness` or the console script, not a caller running the module), the standard
    streams flushed, no `atexit` callback (logging, weakref finalisers, temporary directories
    and multiprocessing register theirs) and no thread but this one."""
    import atexit

    if getattr(sys.modules.get("__main__"), "run", None) is not run:
        return False  # run from other code (runpy, a test), which goes on after it
    count = getattr(atexit, "_ncallbacks", None)
    if count is None or count() != 0:
        return False
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() != 1:
        return False
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return False  # a closed or broken stream: the usual exit reports it
    return True


if __name__ == "__main__":
    run()
