"""GitHub issues as a source: `ppmine scrape-github` and `ppmine run` against a fake GitHub API on 127.0.0.1."""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import sqlalchemy as sa
from click.testing import CliRunner
from fake_github import TOKEN, FakeGitHub, make_comments, make_issues
from fake_github.server import Fault

from core.db import open_store
from core.errors import PPMinerError
from core.schema.mining import AcquisitionRun, Answer, Candidate, Question
from core.sites import PostKey, parse_post_ref, parse_pp_key, post_ref
from mining.cli import cli
from mining.github.client import GitHubClient, GitHubError
from mining.github.markdown import split_markdown
from mining.github.scrape import GitHubParams, scrape_github

PROJECT = Path(__file__).resolve().parent.parent
REPO = "tensorflow/tensorflow"
SITE = f"github.com/{REPO}"


def fake(n_items: int = 250, per_issue: int = 2, **kw) -> FakeGitHub:
    issues = make_issues(REPO, n_items)
    return FakeGitHub(REPO, issues, make_comments(REPO, issues, per_issue), **kw)


def scrape(api: FakeGitHub, db: str, *extra: str, token: str | None = TOKEN, config: Path | None = None):
    env = {"GITHUB_TOKEN": token or ""}
    args = ["scrape-github", REPO, "--api-url", api.url, "--db", db, *extra]
    if config is not None:
        args += ["--config", str(config)]
    return CliRunner().invoke(cli, args, env=env, standalone_mode=False)  # return_value: the exit status


@pytest.fixture
def config(tmp_path) -> Path:
    """A GitHub study over the fake repository: performance-labelled closed issues with code and a comment."""
    cfg = tmp_path / "study.toml"
    cfg.write_text(
        f"""[study]
name = "github test"
[files]
keywords = "{PROJECT / "data" / "keywords.txt"}"
codebook = "{PROJECT / "data" / "codebook.yaml"}"
published = "{PROJECT / "data" / "published.yaml"}"
[github]
repositories = ["{REPO}"]
labels_keep = ["performance"]
labels_drop = ["wontfix"]
closed_only = true
require_code = true
min_comments = 1
[match]
fields = ["title", "prose"]
"""
    )
    return cfg


def counts(db: str) -> tuple[int, int]:
    store = open_store(db)
    with store.read() as s:
        q = s.scalar(sa.select(sa.func.count()).select_from(Question).where(Question.site == SITE))
        a = s.scalar(sa.select(sa.func.count()).select_from(Answer).where(Answer.site == SITE))
    return q, a


def expected(api: FakeGitHub) -> tuple[int, int]:
    issues = {i["number"] for i in api.issues if "pull_request" not in i}
    on_issues = [c for c in api.comments if int(c["issue_url"].rsplit("/", 1)[1]) in issues]
    return len(issues), len(on_issues)


# -- Markdown and names --------------------------------------------------------------------------------------


def test_markdown_splits_fenced_indented_and_html_code_keeping_inline_code_in_prose():
    body = (
        "Calling `fit` is *slow*:\n\n```python\nmodel.fit(x)\n```\n\n    indented = 1\n\n"
        "<pre>typed as HTML</pre>\n\n<details><summary>env</summary>\n\nTF 2.4\n</details>\n<!-- template -->\n"
        "\n~~~\n<b>not html</b>\n~~~\n"
    )
    split = split_markdown(body)
    assert split.code_blocks == ["model.fit(x)\n", "indented = 1\n", "typed as HTML", "<b>not html</b>\n"]
    assert split.prose.split() == ["Calling", "fit", "is", "slow:", "env", "TF", "2.4"]
    assert split_markdown("a `b` c").code_blocks == [] and split_markdown(None).prose == ""


def test_issue_references_and_urls_name_the_same_post():
    key = parse_post_ref("https://github.com/TensorFlow/TensorFlow/issues/42#issuecomment-7")
    assert key == parse_post_ref("github.com/tensorflow/tensorflow:42") == (SITE, 42)
    assert post_ref(*key) == "github.com/tensorflow/tensorflow:42"
    # A PP id: the number after the last '_' (owner and repository names may hold '_' themselves).
    assert parse_pp_key("github.com/My_Org/re_po:12_3") == (("github.com/my_org/re_po", 12), 3)
    assert parse_pp_key("github.com/my_org/re_po:12") == (("github.com/my_org/re_po", 12), 1)
    with pytest.raises(PPMinerError, match="'github.com/tensorflow' is not a GitHub repository"):
        parse_post_ref("github.com/tensorflow:42")


# -- the scrape ----------------------------------------------------------------------------------------------


def test_full_scrape_stores_issues_not_pull_requests_in_few_requests(db_url):
    with fake() as api:
        result = scrape(api, db_url)
    assert result.exit_code == 0, result.output
    n_issues, n_comments = expected(api)
    assert counts(db_url) == (n_issues, n_comments) == (200, 400)
    budget = math.ceil(len(api.issues) / 100) + math.ceil(len(api.comments) / 100) + 3
    assert len(api.log) <= budget and len(api.log) == 3 + 5  # measured: 8 requests of the 11 allowed
    paths = {s.path for s in api.log}
    assert paths == {f"/repos/{REPO}/issues", f"/repos/{REPO}/issues/comments"}  # never one per issue
    first = api.log[0].params
    assert first["state"] == "all" and first["per_page"] == "100" and first["sort"] == "created"
    assert all(s.authorization == f"Bearer {TOKEN}" for s in api.log)
    store = open_store(db_url)
    with store.read() as s:
        q = s.get(Question, (SITE, 1))
        assert q.link == f"https://github.com/{REPO}/issues/1" and q.tags == "|performance|"
        assert q.closed_date is not None and q.has_code and "slow" in q.prose
        assert q.code_blocks[0].startswith("for x in data:") and q.answer_count == 2
        assert s.get(Question, (SITE, 5)) is None  # a pull request
        pr_comments = s.scalar(sa.select(sa.func.count()).select_from(Answer).where(Answer.question_id == 5))
        assert pr_comments == 0
    assert "200 issues, 400 comments" in result.output and "50 pull requests skipped" in result.output


def test_faults_cost_retries_not_posts_and_no_request_comes_early(db_url):
    with fake() as api:
        api.faults.extend(
            [Fault("status", 502), Fault("drop"), Fault("secondary", 1), Fault("secondary_429", 1)]
        )
        client = GitHubClient(
            api.url, token=TOKEN, retry_base=0.05
        )  # the library, with a short retry backoff
        result = scrape_github(
            open_store(db_url, create=True), GitHubParams(REPO, api_url=api.url), client=client
        )
    assert result.status == "done" and result.requests == len(api.log) == 8 + 4
    assert counts(db_url) == expected(api)
    assert api.early == []  # nothing sent before a retry-after had passed
    gaps = [b.at - a.at for a, b in zip(api.log[2:4], api.log[3:5], strict=True)]
    assert min(gaps) >= 1.0  # each secondary limit held the next request back its full second


def test_primary_limit_waits_for_the_reset(sqlite_url):
    with fake(120, 1, limit=2, window=1.0) as api:  # 2 requests a window: remaining 0 after each 2nd
        result = scrape(api, sqlite_url)
        assert result.exit_code == 0, result.output
    assert counts(sqlite_url) == expected(api)
    assert api.early == []
    # A 403 for a used-up limit (reset still ahead) is waited out as well.
    with fake(30, 1) as api:
        api.exhaust(1.0)
        assert scrape(api, sqlite_url, "--restart").exit_code == 0
    assert api.early == [] and api.log[1].at >= float(api.log[0].at // 1) + 1


def test_client_waits_are_testable_without_sleeping():
    """The clock and sleep are injectable: a reset an hour ahead is waited on the fake clock, and a wait beyond
    max_rate_wait stops instead."""
    now, slept = [1_000.0], []

    def sleep(seconds):
        slept.append(seconds)
        now[0] += seconds

    client = GitHubClient("http://127.0.0.1:9", clock=lambda: now[0], sleep=sleep, max_rate_wait=5000)
    client.not_before = now[0] + 3600
    client._wait_for_turn()
    assert slept == [3600] and now[0] == 4600
    client.not_before = now[0] + 7200
    with pytest.raises(GitHubError, match="wait of 7200 s"):
        client.page("http://127.0.0.1:9/repos/a/b/issues")
    assert client.requests == 0  # stopped before sending anything


def test_since_last_fetches_only_what_changed(db_url):
    with fake(150, 1) as api:
        assert scrape(api, db_url).exit_code == 0
        full = len(api.log)
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        api.issues[0]["title"] = "Issue 1: fit is slow, edited"
        api.issues[0]["updated_at"] = stamp
        new = dict(api.issues[1], number=151, title="Issue 151: new", created_at=stamp, updated_at=stamp)
        api.issues.append(new)
        again = scrape(api, db_url, "--since-last")
    assert again.exit_code == 0, again.output
    incremental = api.log[full:]
    assert len(incremental) == 2 and incremental[0].params["sort"] == "updated"
    assert incremental[0].params["direction"] == "desc" and incremental[0].params["since"] < stamp
    assert "mode incremental" in again.output and "2 issues" in again.output
    with open_store(db_url).read() as s:
        assert (
            s.get(Question, (SITE, 1)).title.endswith("edited") and s.get(Question, (SITE, 151)) is not None
        )


def test_next_link_off_the_api_root_is_refused():
    client = GitHubClient("http://127.0.0.1:9", token=TOKEN)
    with pytest.raises(GitHubError, match="not under"):
        client.page(f"http://elsewhere.example/repos/{REPO}/issues?page=2")


def test_errors_are_one_line_and_keep_what_is_stored(sqlite_url, tmp_path):
    bad = CliRunner().invoke(cli, ["scrape-github", "not a repo", "--db", sqlite_url])
    assert isinstance(bad.exception, PPMinerError) and "not a GitHub repository" in str(bad.exception)
    with fake(30, 1) as api:
        assert scrape(api, sqlite_url).exit_code == 0
        api.repo = "other/repo"  # now the repository is gone: a 404
        gone = scrape(api, sqlite_url, "--restart")
    assert isinstance(gone.exception, PPMinerError) and "HTTP 404: Not Found" in str(gone.exception)
    assert "\n" not in str(gone.exception)
    assert counts(sqlite_url) == expected(api)


def test_token_never_reaches_output_log_or_database(sqlite_url, tmp_path):
    log = tmp_path / "scrape.log"
    with fake(30, 1) as api:
        api.faults.extend([Fault("status", 502), Fault("drop")])
        ok = scrape(api, sqlite_url, "-v", "--log-file", str(log))
        wrong = scrape(api, sqlite_url, "--restart", "--log-file", str(log), token=TOKEN + "x")
    assert ok.exit_code == 0 and "HTTP 401: Bad credentials" in str(wrong.exception)
    assert "HTTP 502; retry 1/6" in log.read_text()  # the log has lines, and none carries the token
    db_files = Path(sqlite_url.removeprefix("sqlite:///")).parent.glob("study.db*")  # with any -wal/-journal
    texts = (
        ok.output,
        wrong.output,
        str(wrong.exception),
        log.read_text(),
        *(f.read_bytes().decode("latin-1") for f in db_files),
    )
    for text in texts:
        assert TOKEN not in text and TOKEN[4:20] not in text


def test_without_a_token_it_says_the_unauthenticated_limit(sqlite_url, tmp_path):
    with fake(30, 1) as api:
        result = scrape(api, sqlite_url, token=None)
    assert result.exit_code == 0
    assert "60 requests an hour" in result.output and all(s.authorization is None for s in api.log)
    cfg = tmp_path / "study.toml"
    with fake(30, 1) as api:
        keywords = PROJECT / "data" / "keywords.txt"
        cfg.write_text(
            f'[files]\nkeywords = "{keywords}"\n[github]\nrepositories = ["{REPO}"]\napi_url = "{api.url}"\n'
        )
        run = CliRunner().invoke(
            cli, ["run", "--db", sqlite_url, "--config", str(cfg)], env={"GITHUB_TOKEN": ""}
        )
    assert run.exit_code == 0 and "no GITHUB_TOKEN: GitHub allows 60 requests an hour" in run.output


def test_max_requests_stops_resumable_with_exit_3_then_exact_totals(sqlite_url):
    with fake() as api:
        first = scrape(api, sqlite_url, "--max-requests", "2")
        assert first.return_value == 3 and "rerun the same command to resume" in first.output
        second = scrape(api, sqlite_url)
    assert second.exit_code == 0 and "(resumed)" in second.output
    assert counts(sqlite_url) == expected(api)
    assert len(api.log) == 8  # the resumed run asked for the pages the first had not


@pytest.mark.slow
def test_kill_9_then_the_same_command_resumes_with_exact_totals(sqlite_url):
    env = {**os.environ, "PYTHONPATH": str(PROJECT), "GITHUB_TOKEN": TOKEN}
    with fake(hold_after=4) as api:  # the 5th request (comments page 2) hangs until released
        args = [
            sys.executable,
            "-m",
            "mining.cli",
            "scrape-github",
            REPO,
            "--api-url",
            api.url,
            "--db",
            sqlite_url,
        ]
        proc = subprocess.Popen(args, cwd=PROJECT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while not api.holding.is_set():
            assert time.monotonic() < deadline and proc.poll() is None
            api.holding.wait(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        assert proc.returncode == -signal.SIGKILL
        killed_at = len(api.log)
        api.release()
        again = subprocess.run(args, cwd=PROJECT, env=env, capture_output=True, text=True, timeout=120)
    assert again.returncode == 0, again.stderr
    assert counts(sqlite_url) == expected(api)
    assert api.log[killed_at].params.get("page") == "2"  # picked up at the checkpointed next link
    assert len(api.log) - killed_at == 4  # comments pages 2..5
    with open_store(sqlite_url).read() as s:
        runs = s.scalars(sa.select(AcquisitionRun).order_by(AcquisitionRun.id)).all()
    assert [r.status for r in runs] == ["done"] and runs[0].items == sum(expected(api))


# -- the study around it -------------------------------------------------------------------------------------


@pytest.mark.slow
def test_github_study_funnel_candidates_explain_and_stats(sqlite_url, config):
    with fake(60, 1) as api:
        config.write_text(config.read_text().replace("[github]", f'[github]\napi_url = "{api.url}"'))
        env = {"GITHUB_TOKEN": TOKEN}
        run = CliRunner().invoke(cli, ["run", "--db", sqlite_url, "--config", str(config)], env=env)
    assert run.exit_code == 0, run.output
    assert "github tensorflow/tensorflow done" in run.output and "match:" in run.output
    assert "no GITHUB_TOKEN" not in run.output
    stats = CliRunner().invoke(
        cli, ["stats", "--db", sqlite_url, "--config", str(config), "--format", "json"]
    )
    import json

    funnel = json.loads(stats.output)
    # 48 issues: 16 carry the label 'bug' instead, half of the rest are open.
    assert funnel["questions"] == 48 and funnel["removed_by_repos"] == 0
    assert funnel["removed_by_labels"] == 16 and funnel["removed_by_closed"] == 16
    assert funnel["selected"] == 16 and funnel["candidates"] > 0
    listed = CliRunner().invoke(cli, ["candidates", "--db", sqlite_url, "--config", str(config)])
    assert "github.com/tensorflow/tensorflow" in listed.output
    shown = CliRunner().invoke(
        cli, ["explain", f"https://github.com/{REPO}/issues/1", "--db", sqlite_url, "--config", str(config)]
    )
    assert shown.exit_code == 0 and "slow" in shown.output
    from labeling import analysis  # the notebooks' queries

    with open_store(sqlite_url).read() as s:
        table = analysis.funnel_table(s).set_index("step")["count"]
        assert (
            table["questions"] == 48
            and table["selected"] == 16
            and table["candidates"] == funnel["candidates"]
        )
        assert analysis.keyword_candidates(s)["candidates"].sum() >= funnel["candidates"]


def test_github_text_is_inert_on_a_terminal(sqlite_url, config):
    with fake(10, 1) as api:
        assert scrape(api, sqlite_url).exit_code == 0
    shown = CliRunner().invoke(cli, ["explain", f"{SITE}:3", "--db", sqlite_url, "--config", str(config)])
    assert shown.exit_code == 0, shown.output
    assert "clears your screen" in shown.output
    for raw in ("\x1b[2J", "\x1b]", "\x07", "\x1b[31m"):
        assert raw not in shown.output


def test_config_names_a_bad_repository_in_one_line(tmp_path):
    from mining.github_config import load_github

    cfg = tmp_path / "s.toml"
    cfg.write_text('[github]\nrepositories = ["tensorflow"]\n')
    with pytest.raises(PPMinerError, match=r"s.toml: \[github\] repositories: 'tensorflow' is not a GitHub"):
        load_github(cfg)


def test_the_shipped_github_study_reads():
    from core.config import load_config
    from mining.github_config import load_github
    from mining.match.selection import SelectionSpec

    config = load_config(PROJECT / "data" / "studies" / "github-performance.toml")
    study = load_github(config)
    assert (
        study.repositories == ("tensorflow/tensorflow", "pytorch/pytorch") and not study.also_stack_exchange
    )
    assert config.keywords_file.is_file() and config.codebook_file.is_file()
    spec = SelectionSpec.from_config(config)
    assert spec.sites == ("github.com/tensorflow/tensorflow", "github.com/pytorch/pytorch")
    assert spec.labels_keep == ("type:performance", "module: performance") and spec.min_comments == 1


def test_a_stopped_repository_resumes_after_another_repository_ran(sqlite_url):
    with fake() as api:
        assert scrape(api, sqlite_url, "--max-requests", "2").return_value == 3
        other = make_issues("other/repo", 10)
        with FakeGitHub("other/repo", other, make_comments("other/repo", other, 1)) as api2:
            args = ["scrape-github", "other/repo", "--api-url", api2.url, "--db", sqlite_url]
            assert CliRunner().invoke(cli, args, env={"GITHUB_TOKEN": TOKEN}).exit_code == 0
        again = scrape(api, sqlite_url)
    assert "(resumed)" in again.output and len(api.log) == 8
    assert counts(sqlite_url) == expected(api)


def test_github_candidates_go_through_identify_agreement_and_export(sqlite_url, config, tmp_path):
    """The labeling side treats GitHub posts as any other: the identify screen at 80x24, then two raters'
    agreement and the identification export."""
    import asyncio
    import csv

    from labeling.cli import cli as pplabel
    from labeling.queue import IdentifyQueue
    from labeling.records import get_or_create_rater, set_identification
    from labeling.tui.common import screen_text
    from labeling.tui.identify import IdentifyApp

    with fake(60, 1) as api:
        config.write_text(config.read_text().replace("[github]", f'[github]\napi_url = "{api.url}"'))
        run = CliRunner().invoke(
            cli, ["run", "--db", sqlite_url, "--config", str(config)], env={"GITHUB_TOKEN": TOKEN}
        )
    assert run.exit_code == 0, run.output
    store = open_store(sqlite_url)
    app = IdentifyApp(IdentifyQueue(store, "ann"))
    first = app.queue.current
    assert first.site == SITE

    async def drive():
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            shown = screen_text(app)
            await pilot.press("y")
            await pilot.pause()
            return shown

    shown = asyncio.run(drive())
    assert f"{SITE}:{first.id}" in shown and "slower" in shown
    with store.write() as s:
        ann, bob = get_or_create_rater(s, "ann"), get_or_create_rater(s, "bob")
        posts = [PostKey(*row) for row in s.execute(sa.select(Candidate.site, Candidate.question_id)).all()]
        for n, post in enumerate(posts):
            set_identification(s, ann, post, n % 2 == 0)
            set_identification(s, bob, post, n % 3 == 0)
    agree = CliRunner().invoke(pplabel, ["agreement", "--db", sqlite_url, "--config", str(config)])
    assert agree.exit_code == 0, agree.output
    assert "identification" in agree.output
    out = tmp_path / "ident.csv"
    exported = CliRunner().invoke(
        pplabel,
        ["export", str(out), "--format", "identification", "--db", sqlite_url, "--config", str(config)],
    )
    assert exported.exit_code == 0, exported.output
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == len(posts) and all(r["_id"].startswith(f"{SITE}:") for r in rows)


def test_an_api_that_never_answers_fails_fast_in_one_line(sqlite_url):
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    client = GitHubClient(f"http://127.0.0.1:{port}", token=TOKEN, retry_base=0.01)
    with pytest.raises(GitHubError, match=r"cannot reach the API at .*Connection refused.*--api-url") as err:
        client.page(client.url(f"/repos/{REPO}/issues"))
    assert client.requests == 3 and "\n" not in str(
        err.value
    )  # two quick retries, not the six of a dropped link
