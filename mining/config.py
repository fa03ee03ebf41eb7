"""The study definition (``data/study.toml``): what to acquire, how to select and match, which codebook.

Every command reads it; flags override single values. ``--config FILE`` or ``PPMINER_CONFIG`` names another file;
relative file names inside it are resolved against the file's own folder.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from mining.errors import PPMinerError

PROJECT_DATA = Path(__file__).resolve().parent.parent / "data"
DEFAULT_CONFIG = PROJECT_DATA / "study.toml"
ENV_CONFIG = "PPMINER_CONFIG"
MATCH_FIELDS = ("title", "prose", "code", "answers", "comments")


@dataclass(frozen=True)
class Selection:
    require_code: bool = True
    require_good_answer: bool = True
    min_answer_score: int = 2


@dataclass(frozen=True)
class StudyConfig:
    path: Path
    name: str = ""
    site: str = "stackoverflow"
    tags: tuple[str, ...] = ("tensorflow", "keras")
    date_from: date | None = None
    date_to: date | None = None
    keywords_file: Path = PROJECT_DATA / "keywords.txt"
    codebook_file: Path = PROJECT_DATA / "codebook.yaml"
    published_file: Path = PROJECT_DATA / "published.yaml"
    selection: Selection = field(default_factory=Selection)
    match_fields: tuple[str, ...] = ("title", "prose")
    api_url: str = "https://api.stackexchange.com/2.3"
    page_size: int = 100
    max_requests_per_second: float = 30.0

    def with_overrides(self, **changes) -> StudyConfig:
        """A copy with the given non-None values replaced (flags override the file)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})


def _date(value, where: str) -> date | None:
    if value in (None, ""):
        return None
    if isinstance(value, date):
        return value
    try:
        return date.fromisoformat(str(value))
    except ValueError:
        raise PPMinerError(f"{where}: {value!r} is not a date (YYYY-MM-DD)") from None


def load_config(path: str | Path | None = None) -> StudyConfig:
    """Read the study config; raise PPMinerError naming the file and key on anything wrong."""
    path = Path(path or os.environ.get(ENV_CONFIG) or DEFAULT_CONFIG)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PPMinerError(f"config file not found: {path}") from None
    except tomllib.TOMLDecodeError as exc:
        raise PPMinerError(f"{path}: not valid TOML: {exc}") from None
    base = path.parent
    study, files = raw.get("study", {}), raw.get("files", {})
    sel, match, api = raw.get("selection", {}), raw.get("match", {}), raw.get("api", {})
    fields = tuple(match.get("fields", ("title", "prose")))
    unknown = [f for f in fields if f not in MATCH_FIELDS]
    if unknown:
        raise PPMinerError(f"{path}: [match] fields: unknown {unknown}; choose from {list(MATCH_FIELDS)}")
    try:
        return StudyConfig(
            path=path,
            name=str(study.get("name", "")),
            site=str(study.get("site", "stackoverflow")),
            tags=tuple(str(t) for t in study.get("tags", ("tensorflow", "keras"))),
            date_from=_date(study.get("from"), f"{path}: [study] from"),
            date_to=_date(study.get("to"), f"{path}: [study] to"),
            keywords_file=base / files.get("keywords", "keywords.txt"),
            codebook_file=base / files.get("codebook", "codebook.yaml"),
            published_file=base / files.get("published", "published.yaml"),
            selection=Selection(
                require_code=bool(sel.get("require_code", True)),
                require_good_answer=bool(sel.get("require_good_answer", True)),
                min_answer_score=int(sel.get("min_answer_score", 2)),
            ),
            match_fields=fields,
            api_url=str(api.get("url", "https://api.stackexchange.com/2.3")),
            page_size=int(api.get("page_size", 100)),
            max_requests_per_second=float(api.get("max_requests_per_second", 30)),
        )
    except (TypeError, ValueError) as exc:
        raise PPMinerError(f"{path}: {exc}") from None
