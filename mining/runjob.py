"""``ppmine run``, the scheduled job: an incremental scrape, then keyword matching, under one lock.

Cron-friendly: no prompts, one summary line, a log file on request, and an exit status that says what happened
(0 done, 3 stopped early by the API quota, 1 failed).
"""

from __future__ import annotations

import contextlib
import logging
import signal
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from core.config import StudyConfig
from core.db import Store
from mining.api.scrape import ScrapeParams, ScrapeResult, scrape
from mining.fetching import scrub_secret
from mining.joblock import Lock
from mining.runs import LOCK_NAME

EXIT_QUOTA = 3


class _Scrub(logging.Filter):
    """Hides secrets (in every encoding) in each record that reaches a handler: message, traceback and stack."""

    def __init__(self, secrets: list[str]):
        super().__init__()
        self.secrets = [s for s in secrets if s]
        self._formatter = logging.Formatter()

    def _clean(self, text: str) -> str:
        for secret in self.secrets or [None]:
            text = scrub_secret(text, secret)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except (
            TypeError,
            ValueError,
        ):  # arguments that do not fit the format: show both, never fail the caller
            text = f"{record.msg} {record.args}"
        record.msg, record.args = self._clean(text), None
        if record.exc_info:
            # Format the traceback here, scrubbed; handlers then print exc_text instead of formatting it again.
            record.exc_text = self._formatter.formatException(record.exc_info)
            record.exc_info = None
        if record.exc_text:
            record.exc_text = self._clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self._clean(record.stack_info)
        return True


def setup_logging(log_file: str | None, verbose: bool, secrets: list[str]) -> None:
    """Log ppminer's own messages (never urllib3's, whose URLs hold the key) to a file and/or stderr."""
    logger = logging.getLogger("ppminer")
    logger.setLevel(logging.INFO)
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    handlers: list[logging.Handler] = [logging.NullHandler()]  # no stray warnings on a cron mail
    if log_file:
        Path(log_file).parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_file, encoding="utf-8"))
    if verbose:
        handlers.append(logging.StreamHandler())
    for h in handlers:
        h.setFormatter(fmt)
        h.addFilter(_Scrub(secrets))
        logger.addHandler(h)


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """While the block runs, treat SIGTERM (cron timeouts, systemd stop) like Ctrl-C: the run is marked
    interrupted, the lock freed. The handler before is put back after, so a caller that goes on (an in-process
    test, a notebook) and the processes it forks later keep SIGTERM's usual meaning."""

    def _raise(signum, frame):
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, _raise)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)


@dataclass
class JobResult:
    scrape: ScrapeResult | None  # None: a GitHub study without Stack Exchange tags
    match: object | None
    github: list = field(default_factory=list)  # a GitHubResult per repository of a GitHub study

    @property
    def exit_code(self) -> int:
        stopped = [r for r in (self.scrape, *self.github) if r is not None and r.status == "quota"]
        return EXIT_QUOTA if stopped else 0

    def summary(self) -> str:
        parts = []
        s = self.scrape
        if s is not None:
            quota = s.quota_remaining if s.quota_remaining is not None else "?"
            parts.append(
                f"scrape {s.status} ({s.mode}, {s.changed} new or updated of {s.questions} questions, "
                f"{s.requests} requests, quota left {quota})"
            )
        for g in self.github:
            parts.append(
                f"github {g.repo} {g.status} ({g.mode}, {g.counts['issues']} issues, "
                f"{g.counts['comments']} comments, {g.requests} requests)"
            )
        line = "run: " + "; ".join(parts)
        if self.match is not None:
            m = self.match
            line += (
                f"; match: {getattr(m, 'checked', 0)} checked, {getattr(m, 'candidates', 0)} candidates"
                f" ({getattr(m, 'new_candidates', 0)} new)"
            )
        if any(not g.authenticated for g in self.github):
            line += "; no GITHUB_TOKEN: GitHub allows 60 requests an hour"
        if self.exit_code == EXIT_QUOTA:
            line += "; stopped by the API quota, the next run resumes"
        return line


def run_job(
    store: Store,
    config: StudyConfig,
    params: ScrapeParams,
    *,
    key: str | None = None,
    github_token: str | None = None,
    restart: bool = False,
    max_requests: int | None = None,
    show_progress: bool = False,
    match: bool = True,
    heartbeat_every: float | None = None,
) -> JobResult:
    """Incremental scrape then match, holding the scrape lock throughout.

    The scrape refreshes the lock's heartbeat with each page; matching has no such steps, so a thread does it
    every ``heartbeat_every`` seconds (default: a sixth of the lock's stale time) and a long match keeps the lock.
    A GitHub study (``[github]`` repositories in the config) scrapes each repository incrementally, and Stack
    Exchange only if its ``[study] tags`` are written out too.
    """
    from mining.github_config import load_github

    log = logging.getLogger("ppminer.run")
    github = load_github(config)
    with Lock(store, LOCK_NAME) as lock:
        result = None
        if github is None or github.also_stack_exchange:
            result = scrape(
                store,
                params,
                key=key,
                lock=lock,
                restart=restart,
                max_requests=max_requests,
                show_progress=show_progress,
                max_rps=config.max_requests_per_second,
            )
        repos = _scrape_repositories(
            store, config, github, github_token, lock, restart, max_requests, show_progress
        )
        matched = None
        if match:
            from mining.match.run import run_match

            with lock.kept_alive(heartbeat_every):
                matched = run_match(store, config, show_progress=show_progress)  # the remembered scope
            if matched.scope_change:
                log.warning(matched.scope_change)
    job = JobResult(result, matched, repos)
    log.info(job.summary())
    return job


def _scrape_repositories(store, config, github, token, lock, restart, max_requests, show_progress) -> list:
    """``--since-last`` scrapes of a GitHub study's repositories, in config order."""
    if github is None:
        return []
    from mining.github.scrape import GitHubParams, scrape_github

    results = []
    for repo in github.repositories:
        params = GitHubParams(
            repo=repo,
            api_url=github.api_url,
            date_from=config.date_from,
            date_to=config.date_to,
            since_last=True,
        )
        results.append(
            scrape_github(
                store,
                params,
                token=token,
                lock=lock,
                restart=restart,
                max_requests=max_requests,
                show_progress=show_progress,
            )
        )
    return results
