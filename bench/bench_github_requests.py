"""What a GitHub scrape costs per 1,000 issues against the local fake GitHub API: requests (against the issue's
budget ceil(items/100) + ceil(comments/100) + 3), local seconds per request (parsing Markdown and storing), and
database bytes per byte of Markdown. The README's estimate for a pytorch/pytorch-sized repository scales these.

    python bench/bench_github_requests.py [--issues 1000] [--comments-per-issue 5]

Bodies are shaped like a framework bug report (prose, a code block, an environment listing); comments like a
short reply with a code block. The incremental run after it (nothing changed) is the floor of `--since-last`.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(PROJECT), str(PROJECT / "tests")]  # the fake API lives with the tests

from fake_github import TOKEN, FakeGitHub, make_comments, make_issues  # noqa: E402

from core.db import open_store  # noqa: E402
from mining.github.client import GitHubClient  # noqa: E402
from mining.github.scrape import GitHubParams, scrape_github  # noqa: E402

REPO = "pytorch/pytorch"
ENVIRONMENT = "\n".join(f"[pip3] package-{i}==1.{i}.0" for i in range(60))
BODY = (
    "### Describe the bug\n\nTraining with `DataLoader` gets slower every epoch.\n\n```python\n"
    + "x = torch.randn(64, 3, 224, 224).cuda()\n" * 20
    + f"```\n\n### Versions\n\n```\n{ENVIRONMENT}\n```\n"
)
REPLY = "I can reproduce this on 2.1. " * 20 + "\n\n```\nprofiler output line\n```\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--issues", type=int, default=1000)
    parser.add_argument("--comments-per-issue", type=int, default=5)
    args = parser.parse_args()
    issues = make_issues(REPO, args.issues, pr_every=0)
    for issue in issues:
        issue["body"] = BODY
    comments = make_comments(REPO, issues, args.comments_per_issue)
    for comment in comments:
        comment["body"] = REPLY
    markdown = sum(len(i["body"].encode()) for i in issues) + sum(len(c["body"].encode()) for c in comments)
    with tempfile.TemporaryDirectory() as tmp, FakeGitHub(REPO, issues, comments) as api:
        db = Path(tmp) / "github.db"
        store = open_store(f"sqlite:///{db}")
        runs = []
        for since_last in (False, True):
            before = len(api.log)
            started = time.perf_counter()
            client = GitHubClient(api.url, token=TOKEN)
            scrape_github(store, GitHubParams(REPO, api_url=api.url, since_last=since_last), client=client)
            runs.append((len(api.log) - before, time.perf_counter() - started))
        store.engine.dispose()  # the last connection closing folds the write-ahead log into the file
        size = sum(f.stat().st_size for f in Path(tmp).glob("github.db*"))
    budget = math.ceil(len(issues) / 100) + math.ceil(len(comments) / 100) + 3
    (full, seconds), (again, _) = runs
    print(
        f"{len(issues)} issues, {len(comments)} comments: {full} requests (budget {budget}, ratio {full / budget:.2f})"
    )
    print(
        f"local time {seconds / full:.3f} s per request; incremental run with nothing changed: {again} requests"
    )
    print(
        f"database {size / 1e6:.1f} MB for {markdown / 1e6:.1f} MB of Markdown: {size / markdown:.2f} bytes per byte"
    )


if __name__ == "__main__":
    main()
