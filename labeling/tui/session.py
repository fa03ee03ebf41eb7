"""Start a labeling session from the command line: check the terminal, build the queue, run the app, report."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from core.db import Store
from core.errors import PPMinerError
from core.text import terminal_safe
from labeling.queue import ClassifyQueue, IdentifyQueue, Progress


def _require_terminal(command: str) -> None:
    """A session needs a keyboard and a screen: refuse pipes and redirections in one line."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise PPMinerError(f"{command} is interactive: run it in a terminal (stdin and stdout must be a tty)")


def _report(rater: str, progress: Progress | None, what: str) -> None:
    if progress is not None:
        name = terminal_safe(rater, keep_newlines=False)
        click.echo(f"{name}: {progress.done} {what}, {progress.remaining} remaining (all saved)")


def run_identify(
    store: Store, rater: str, seed: int = 0, sample: int | None = None, hints: bool = False, priority=None
) -> None:
    _require_terminal("pplabel identify")
    from labeling.tui.identify import IdentifyApp

    queue = IdentifyQueue(store, rater, seed, sample, priority=priority)
    try:
        _report(rater, IdentifyApp(queue, hints=hints).run(), "decided")
    finally:
        if queue.ranking is not None:
            queue.ranking.close()
    if queue.sample:
        facts = queue.sample
        click.echo(
            f"sample {facts['sample']} (--sample {facts['size']} --seed {facts['seed']}): "
            f"{queue.progress.total} posts drawn by {terminal_safe(facts['drawn_by'], keep_newlines=False)} "
            f"at {facts['drawn_at']} from {facts['drawn_from']} candidates of keyword set {facts['keyword_set_id']}"
        )


def run_classify(store: Store, codebook_file: Path, rater: str, seed: int = 0, hints: bool = False) -> None:
    _require_terminal("pplabel classify")
    from labeling.codebook import load_codebook
    from labeling.tui.classify import ClassifyApp

    codebook = load_codebook(codebook_file)
    queue = ClassifyQueue(store, rater, seed)
    if queue.progress.total == 0:
        raise PPMinerError(
            f"no PP posts for rater {rater!r} yet: mark some with `pplabel identify --rater {rater}`"
        )
    _report(rater, ClassifyApp(queue, codebook, hints=hints).run(), "posts labeled")
