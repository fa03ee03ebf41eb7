"""One progress display for every long job: a transient rich bar on stderr when it is a terminal, else nothing.

Cron jobs, pipes and tests see no progress output at all; people at a terminal see a bar that disappears when done.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal


class Progress:
    """Handle a job updates as it goes; every method is a no-op when no bar is shown."""

    def __init__(self, bar=None, task=None) -> None:
        self._bar, self._task = bar, task

    @property
    def shown(self) -> bool:
        return self._bar is not None

    def advance(self, n: float = 1) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, n)

    def set(
        self, completed: float | None = None, *, total: float | None = None, text: str | None = None
    ) -> None:
        """Set the position (and optionally the total or the description)."""
        if self._bar is not None:
            changes = {"completed": completed, "total": total, "description": text}
            self._bar.update(self._task, **{k: v for k, v in changes.items() if v is not None})


@contextmanager
def progress(
    label: str, total: float | None = None, *, unit: Literal["items", "bytes"] = "items", enabled: bool = True
) -> Iterator[Progress]:
    """A bar for ``label``: counts (``unit="items"``) or bytes with a transfer rate; a spinner when no total."""
    if not (enabled and sys.stderr.isatty()):
        yield Progress()
        return
    from rich import progress as rp
    from rich.console import Console

    if unit == "bytes":
        columns = (rp.DownloadColumn(), rp.TransferSpeedColumn(), rp.TimeRemainingColumn())
    else:
        columns = (rp.MofNCompleteColumn(), rp.TimeRemainingColumn()) if total else (rp.TimeElapsedColumn(),)
    head = (rp.TextColumn("{task.description}"), rp.BarColumn() if total else rp.SpinnerColumn())
    bar = rp.Progress(*head, *columns, console=Console(stderr=True), transient=True)
    with bar:
        yield Progress(bar, bar.add_task(label, total=total))
