"""Question items in the API's shape, built from a real response so field names and nesting are true."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

TEMPLATE = Path("se_api_json/perceval/stackexchange_question_page.json")


def load_template(fixtures: Path) -> dict[str, Any]:
    """The first question item of a real perceval page (with its nested answer and comment)."""
    return json.loads((fixtures / TEMPLATE).read_text(encoding="utf-8"))["items"][0]


def make_questions(
    n: int,
    fixtures: Path,
    *,
    tags: tuple[tuple[str, ...], ...] = (("tensorflow",), ("keras",), ("tensorflow", "keras")),
    start: int = 1_514_764_800,  # 2018-01-01
    step: int = 3_600,
    answers: int = 2,
    comments: int = 2,
    first_id: int = 50_000_000,
    seed: int = 7,
) -> list[dict[str, Any]]:
    """``n`` questions created ``step`` seconds apart, cycling through ``tags``, each with answers and comments.

    Ids of questions, answers and comments are distinct across the whole set.
    """
    rnd = random.Random(seed)
    template = load_template(fixtures)
    a_tpl, c_tpl = template["answers"][0], template["comments"][0]
    out = []
    next_child = first_id * 10
    for i in range(n):
        qid = first_id + i
        created = start + i * step
        q = copy.deepcopy(template)
        q.update(
            question_id=qid,
            creation_date=created,
            last_activity_date=created + rnd.randint(60, 86_400),
            tags=list(tags[i % len(tags)]) + ["python"],
            title=f"Model {i} trains slowly &amp; uses &quot;too much&quot; memory",
            body=(
                f"<p>Training step {i} is <b>slow</b> on the GPU.</p>"
                f"<pre><code>model.fit(x, y, batch_size={i % 64 + 1})\n</code></pre><p>Why?</p>"
            ),
            link=f"https://stackoverflow.com/questions/{qid}",
            score=rnd.randint(-2, 30),
            view_count=rnd.randint(10, 5000),
        )
        q["answers"], q["comments"] = [], []
        for k in range(comments):
            next_child += 1
            c = copy.deepcopy(c_tpl)
            c.update(
                comment_id=next_child,
                post_id=qid,
                creation_date=created + 10 + k,
                body=f"<p>Comment {k} on {qid}: try <code>tf.function</code></p>",
            )
            q["comments"].append(c)
        for j in range(answers):
            next_child += 1
            a = copy.deepcopy(a_tpl)
            aid = next_child
            a.update(
                answer_id=aid,
                question_id=qid,
                creation_date=created + 100 + j,
                last_activity_date=created + 100 + j,
                score=rnd.randint(0, 10),
                is_accepted=(j == 0),
                body=f"<p>Answer {j}: use a larger batch.</p><pre><code>ds = ds.prefetch({j})</code></pre>",
            )
            a["comments"] = []
            for k in range(comments):
                next_child += 1
                c = copy.deepcopy(c_tpl)
                c.update(
                    comment_id=next_child,
                    post_id=aid,
                    post_type="answer",
                    creation_date=created + 200 + k,
                    body=f"<p>Comment {k} on answer {aid}</p>",
                )
                a["comments"].append(c)
            q["answers"].append(a)
        if answers:
            q["accepted_answer_id"] = q["answers"][0]["answer_id"]
        q["answer_count"], q["comment_count"] = answers, comments
        out.append(q)
    return out
