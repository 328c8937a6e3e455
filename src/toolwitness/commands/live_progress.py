"""A rich progress display on stderr while servers are connected (terminal only)."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TaskID, TextColumn, TimeElapsedColumn
from rich.text import Text

from toolwitness.acquire.live_options import LiveOutcome
from toolwitness.model import ServerSpec
from toolwitness.textnorm import escape_display


class RichProgress:
    """One line per server: a spinner while it starts and lists, then ok or failed."""

    def __init__(self) -> None:
        self._progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}", markup=False),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=False,
        )
        self._tasks: dict[str, TaskID] = {}

    def __enter__(self) -> RichProgress:
        self._progress.__enter__()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._progress.__exit__(exc_type, exc, tb)

    def started(self, spec: ServerSpec) -> None:
        label = f"{escape_display(spec.name)}: connecting"
        self._tasks[spec.name] = self._progress.add_task(label, total=1)

    def finished(self, outcome: LiveOutcome) -> None:
        task = self._tasks.get(outcome.spec.name)
        if task is None:
            return
        name = escape_display(outcome.spec.name)
        if outcome.surface is not None:
            text = f"{name}: {len(outcome.surface.tools)} tools"
        else:
            text = f"{name}: failed"
        self._progress.update(task, description=Text(text).plain, completed=1)
