"""Issue, pull-request and comment objects shaped as GitHub's REST reference documents them (``GET
/repos/{owner}/{repo}/issues`` and ``GET /repos/{owner}/{repo}/issues/comments``, API version 2022-11-28)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

TOKEN = "ghp_Fake0Token0For0Tests0Only0a1b2c3d4e5f6"  # a personal access token's form; secret in tests
START = datetime(2021, 1, 1, tzinfo=UTC)


def iso(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _user(n: int) -> dict[str, Any]:
    login = f"user{n}"
    return {
        "login": login,
        "id": 1000 + n,
        "node_id": f"MDQ6VXNlcj{n}",
        "avatar_url": f"https://avatars.githubusercontent.com/u/{1000 + n}?v=4",
        "gravatar_id": "",
        "url": f"https://api.github.com/users/{login}",
        "html_url": f"https://github.com/{login}",
        "type": "User",
        "site_admin": False,
    }


def _reactions(url: str, up: int) -> dict[str, Any]:
    return {
        "url": f"{url}/reactions",
        "total_count": up + 1,
        "+1": up,
        "-1": 1,
        "laugh": 0,
        "hooray": 0,
        "confused": 0,
        "heart": 0,
        "rocket": 0,
        "eyes": 0,
    }


BODY = """Training gets **slow** after `model.fit` runs a while.

```python
for x in data:
    model.fit(x)
```

    indented = "block"

<details><summary>Environment</summary>

TF 2.4, CUDA 11
</details>
"""


def make_issues(repo: str, n: int, *, pr_every: int = 5, labels=("performance",)) -> list[dict[str, Any]]:
    """``n`` items numbered 1..n, created an hour apart; every ``pr_every``-th is a pull request; odd issues are
    closed; issue 3 carries terminal escapes in its title and body."""
    api = f"https://api.github.com/repos/{repo}"
    items = []
    for number in range(1, n + 1):
        created = START + timedelta(hours=number)
        pr = pr_every and number % pr_every == 0
        closed = number % 2 == 1
        url = f"{api}/issues/{number}"
        item = {
            "id": 500_000_000 + number,
            "node_id": f"I_kwDOA{number}",
            "url": url,
            "repository_url": api,
            "labels_url": f"{url}/labels{{/name}}",
            "comments_url": f"{url}/comments",
            "events_url": f"{url}/events",
            "html_url": f"https://github.com/{repo}/{'pull' if pr else 'issues'}/{number}",
            "number": number,
            "state": "closed" if closed else "open",
            "state_reason": "completed" if closed else None,
            "title": f"Issue {number}: fit is slower on GPU",
            "body": BODY,
            "user": _user(number % 7),
            "labels": [
                {
                    "id": 200 + i,
                    "node_id": f"LA_{i}",
                    "url": f"{api}/labels/{name}",
                    "name": name,
                    "description": "",
                    "color": "f29513",
                    "default": False,
                }
                for i, name in enumerate(labels if number % 3 else ("bug",))
            ],
            "assignee": None,
            "assignees": [],
            "milestone": None,
            "locked": False,
            "active_lock_reason": None,
            "comments": 0,
            "closed_at": iso(created + timedelta(days=2)) if closed else None,
            "created_at": iso(created),
            "updated_at": iso(created + timedelta(days=3)),
            "closed_by": _user(0) if closed else None,
            "author_association": "CONTRIBUTOR",
            "reactions": _reactions(url, number % 4),
            "timeline_url": f"{url}/timeline",
            "performed_via_github_app": None,
        }
        if pr:
            item["pull_request"] = {
                "url": f"{api}/pulls/{number}",
                "html_url": f"https://github.com/{repo}/pull/{number}",
                "diff_url": f"https://github.com/{repo}/pull/{number}.diff",
                "patch_url": f"https://github.com/{repo}/pull/{number}.patch",
                "merged_at": None,
            }
        if number == 3:
            item["title"] = "Issue 3 \x1b[2J\x1b]0;pwned\x07 clears your screen"
            item["body"] = "Look: \x1b[31mred\x1b[0m and `code`"
        items.append(item)
    return items


def make_comments(repo: str, issues: list[dict[str, Any]], per_issue: int = 2) -> list[dict[str, Any]]:
    """``per_issue`` comments on every item (pull requests included, as the repository-wide list has them),
    ids ascending in creation order; each item's ``comments`` count is set to match."""
    api = f"https://api.github.com/repos/{repo}"
    due = sorted(
        (datetime.fromisoformat(item["created_at"].replace("Z", "+00:00")) + timedelta(hours=1 + k), n, k)
        for n, item in enumerate(issues)
        for k in range(per_issue)
    )
    comments = []
    for created, n, k in due:
        item = issues[n]
        cid = 900_000_000 + len(comments) + 1
        comments.append(
            {
                "id": cid,
                "node_id": f"IC_kwDO{cid}",
                "url": f"{api}/issues/comments/{cid}",
                "html_url": f"{item['html_url']}#issuecomment-{cid}",
                "body": f"Comment {k} on {item['number']}: try `tf.data` with\n\n```\nds.prefetch(1)\n```\n",
                "user": _user(k),
                "created_at": iso(created),
                "updated_at": iso(created),
                "issue_url": f"{api}/issues/{item['number']}",
                "author_association": "NONE",
                "reactions": _reactions(f"{api}/issues/comments/{cid}", k),
                "performed_via_github_app": None,
            }
        )
        item["comments"] = item.get("comments", 0) + 1
    return comments
