"""A GitHub study: the ``[github]`` table (part of the shared core beside :mod:`core.config`, so that matching
and the job read it without importing :mod:`mining.github`) of the study config names the repositories to acquire and the filters
that select their issues before keyword matching.

```toml
[github]
repositories = ["tensorflow/tensorflow", "pytorch/pytorch"]
labels_keep = ["type:performance"]     # an issue needs one of these labels (empty: any)
labels_drop = ["invalid"]              # and none of these
closed_only = true
require_code = true                    # a code block in the body
min_comments = 1                       # stored comments (answers)
api_url = "https://api.github.com"
```

The window is the config's ``[study] from``/``to``. A config with ``[github]`` repositories is a GitHub study: its
selection is the filters above, and ``ppmine run`` scrapes the repositories (and Stack Exchange as well only when
``[study] tags`` is written out too).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from core.config import StudyConfig, _Reader
from core.errors import PPMinerError
from core.sites import github_site

DEFAULT_API_URL = "https://api.github.com"


@dataclass(frozen=True)
class GitHubStudy:
    repositories: tuple[str, ...]  # owner/repo, lower case
    api_url: str = DEFAULT_API_URL
    labels_keep: tuple[str, ...] = ()
    labels_drop: tuple[str, ...] = ()
    closed_only: bool = False
    require_code: bool = False
    min_comments: int = 0
    also_stack_exchange: bool = False  # [study] tags written out: `run` scrapes Stack Exchange too

    @property
    def sites(self) -> tuple[str, ...]:
        return tuple(f"github.com/{r}" for r in self.repositories)


def repo_name(text: str, where: str = "repository") -> str:
    """``OWNER/REPO`` (or its github.com form or URL) -> ``owner/repo``; PPMinerError naming ``where`` if not."""
    site = github_site(text)
    if site is None:
        raise PPMinerError(f"{where}: {text!r} is not a GitHub repository (write OWNER/REPO)")
    return site.removeprefix("github.com/")


def load_github(config: StudyConfig | Path | str) -> GitHubStudy | None:
    """The ``[github]`` table of a study config, or None when it names no repositories."""
    path = Path(config.path if isinstance(config, StudyConfig) else config)
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:  # a config built in code, not read from a file
        return None
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise PPMinerError(f"{path}: cannot read the [github] table: {exc}") from None
    get = _Reader(path, raw).get
    repos = get("github", "repositories", list, [])
    if not repos:
        return None
    min_comments = get("github", "min_comments", int, 0)
    if min_comments < 0:
        raise PPMinerError(f"{path}: [github] min_comments must be 0 or more, not {min_comments}")
    return GitHubStudy(
        repositories=tuple(repo_name(r, f"{path}: [github] repositories") for r in repos),
        api_url=get("github", "api_url", str, DEFAULT_API_URL).rstrip("/"),
        labels_keep=tuple(get("github", "labels_keep", list, [])),
        labels_drop=tuple(get("github", "labels_drop", list, [])),
        closed_only=get("github", "closed_only", bool, False),
        require_code=get("github", "require_code", bool, False),
        min_comments=min_comments,
        also_stack_exchange="tags" in (raw.get("study") or {}),
    )
