"""The scrape job and `ppmine scrape`/`ppmine run` against the local fake API, on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import logging
import os
import pty
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import UTC, date, timedelta
from pathlib import Path
from urllib.parse import quote

import pytest
import sqlalchemy as sa
from conftest import run_cli
from fake_api import REAL_KEY, FakeApi, Fault, assert_no_key, make_questions

from core.config import load_config
from core.db import open_store
from core.errors import PPMinerError
from core.schema.mining import AcquisitionRun, Answer, Comment, JobLock, Question, Setting
from mining.api.client import ApiClient
from mining.api.scrape import ScrapeParams, filter_setting_key, scrape
from mining.joblock import JobLockHeld, Lock
from mining.runjob import run_job, setup_logging
from mining.store import utcnow

PROJECT = Path(__file__).resolve().parent.parent
KEY = REAL_KEY
TAGS = ("tensorflow", "keras")


def params_for(api: FakeApi, **kw) -> ScrapeParams:
    kw.setdefault("tags", TAGS)
    return ScrapeParams(api_url=api.url, **kw)


def client_for(api: FakeApi, **kw) -> ApiClient:
    return ApiClient(api.url, retry_base=0.01, **kw)


def counts(store) -> tuple[int, int, int]:
    with store.read() as s:
        return tuple(s.scalar(sa.select(sa.func.count()).select_from(m)) for m in (Question, Answer, Comment))


def expected_counts(questions) -> tuple[int, int, int]:
    answers = sum(len(q["answers"]) for q in questions)
    comments = sum(len(q["comments"]) + sum(len(a["comments"]) for a in q["answers"]) for q in questions)
    return len(questions), answers, comments


def last_run(store) -> AcquisitionRun:
    with store.read() as s:
        return s.scalars(sa.select(AcquisitionRun).order_by(AcquisitionRun.id.desc()).limit(1)).one()


def write_config(tmp_path: Path, page_size: int = 100) -> Path:
    cfg = tmp_path / "study.toml"
    cfg.write_text(
        f"""[study]
site = "stackoverflow"
tags = ["tensorflow", "keras"]
from = "2018-01-01"
[files]
keywords = "{PROJECT / "data" / "keywords.txt"}"
[api]
page_size = {page_size}
"""
    )
    return cfg


def ppmine(*args: str, env: dict | None = None, **kw) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "mining.cli", *args],
        cwd=PROJECT,
        env={**os.environ, **(env or {})},
        stdout=subprocess.PIPE,
        text=True,
        **{"stderr": subprocess.PIPE, **kw},
    )


def wait_for(predicate, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail("condition not reached in time")
        time.sleep(0.05)


# -- the job in-process ----------------------------------------------------------------------------------------


def test_scrape_fetches_every_tag_once_with_answers_and_comments(store, fixtures):
    questions = make_questions(250, fixtures)
    with FakeApi(questions) as api:
        result = scrape(store, params_for(api), client=client_for(api))
        # 2 tags x 167 questions at 100 a page, plus the filter: the budget is 11 per 1,000 questions fetched
        # questions with both tags are not fetched twice: tag 2 excludes tag 1 (nottagged)
        assert result.status == "done" and result.changed == result.questions == 250
        # the filter, then 167 tensorflow questions in 2 pages (+1 if the cursor repeats), 83 keras-only in 1
        assert result.requests == len(api.log) <= 5
        assert counts(store) == expected_counts(questions)
        assert {s.params["tagged"] for s in api.requests_to("/questions")} == {"tensorflow"}
        searched = api.requests_to("/search/advanced")
        assert {(s.params["tagged"], s.params["nottagged"]) for s in searched} == {("keras", "tensorflow")}
        assert all(s.params["pagesize"] == "100" for s in api.listings())
        # the filter id is cached: a second run creates none
        scrape(store, params_for(api, tags=("keras",)), client=client_for(api))
        assert len(api.requests_to("/filters/create")) == 1
    with store.read() as s:
        q = s.get(Question, ("stackoverflow", questions[3]["question_id"]))
        assert q.title == 'Model 3 trains slowly & uses "too much" memory'
        assert q.prose == "Training step 3 is slow on the GPU.\n\nWhy?" and q.has_code
        assert q.code_blocks == ["model.fit(x, y, batch_size=4)\n"] and q.source == "api"
        assert [a.is_accepted for a in q.answers] == [True, False]
        assert q.answers[0].code_blocks == ["ds = ds.prefetch(0)"] and "larger batch" in q.answers[0].prose
        assert {c.post_type for c in q.comments} == {"question", "answer"}
        assert all(c.text and c.body_html for c in q.comments)
        assert s.scalar(sa.select(sa.func.count()).select_from(Setting)) == 1
    run = last_run(store)
    assert run.status == "done" and run.params["tags"] == ["keras"] and run.high_water is not None


def test_since_last_fetches_edits_and_new_questions(store, fixtures):
    questions = make_questions(120, fixtures)
    with FakeApi(questions) as api:
        first = scrape(store, params_for(api), client=client_for(api))
        hw = first.high_water
        hw_epoch = int(hw.replace(tzinfo=UTC).timestamp())
        later = hw_epoch + 3 * 86_400
        edited = questions[5]["question_id"]
        api.touch(edited, later, title="Edited: fit() is slow")
        fresh = make_questions(1, fixtures, first_id=90_000_000, start=later - 10)[0]
        api.questions.append(fresh)
        api.log.clear()
        second = scrape(store, params_for(api, since_last=True), client=client_for(api))
    assert second.status == "done" and second.mode == "incremental"
    sent = api.listings()
    assert all(s.params["sort"] == "activity" and s.params["order"] == "asc" for s in sent)
    assert {int(s.params["min"]) for s in sent} == {hw_epoch}
    assert second.questions <= 6 and len(sent) == len(TAGS)  # only what changed since the mark (and the mark)
    with store.read() as s:
        assert s.get(Question, ("stackoverflow", edited)).title == "Edited: fit() is slow"
        assert s.get(Question, ("stackoverflow", fresh["question_id"])) is not None
    assert counts(store)[0] == 121
    assert second.high_water > hw


def test_since_last_continues_only_from_a_run_that_covered_the_same_window_and_api(store, fixtures):
    questions = make_questions(120, fixtures)  # created hourly from 2018-01-01 to 2018-01-05
    late = [q for q in questions if q["creation_date"] >= 1_514_937_600]  # 2018-01-03 on
    with FakeApi(questions) as api, FakeApi(questions) as mirror:
        narrow = scrape(store, params_for(api, date_from=date(2018, 1, 3)), client=client_for(api))
        assert narrow.status == "done" and narrow.questions == len(late) < 120
        # the configured window starts earlier: the narrow run's mark would skip the quiet early questions
        wide = params_for(api, date_from=date(2018, 1, 1), since_last=True)
        first = scrape(store, wide, client=client_for(api))
        assert first.mode == "full" and counts(store) == expected_counts(questions)
        # a window inside one already covered continues from that run's mark
        api.log.clear()
        inner = scrape(
            store, params_for(api, date_from=date(2018, 1, 2), since_last=True), client=client_for(api)
        )
        assert inner.mode == "incremental" and inner.status == "done"
        assert all(s.params["sort"] == "activity" for s in api.listings())
        # an open end is not covered by a run that stopped at a date
        bounded = scrape(store, params_for(api, date_to=date(2018, 1, 4)), client=client_for(api))
        assert bounded.status == "done"
        open_end = scrape(
            store,
            params_for(api, date_from=date(2018, 1, 1), since_last=True, tags=("keras",)),
            client=client_for(api),
        )
        assert open_end.mode == "incremental"  # run 2's window (2018-01-01, open) covers it, not run 4's
        # another API root never continues from this one's mark
        other = scrape(
            store, params_for(mirror, date_from=date(2018, 1, 1), since_last=True), client=client_for(mirror)
        )
        assert other.mode == "full" and other.questions == 120


def test_quota_exhaustion_stops_cleanly_and_the_next_run_resumes(store, fixtures):
    questions = make_questions(300, fixtures)
    with FakeApi(questions, quota_max=3) as api:
        result = scrape(store, params_for(api), client=client_for(api))
        assert result.status == "quota" and "quota" in result.message
        run = last_run(store)
        assert run.status == "quota" and run.quota_remaining == 0 and run.checkpoint["tag_index"] == 0
        stored = counts(store)[0]
        assert 0 < stored < 300
        api.quota_remaining = api.quota_max = 10_000  # a new day
        api.log.clear()
        again = scrape(store, params_for(api), client=client_for(api))
    assert again.status == "done" and again.resumed and again.run_id == run.id
    assert api.log[0].params.get("min") is not None  # resumed at the cursor, not from the start
    assert counts(store) == expected_counts(questions)


def test_a_request_budget_stops_like_the_quota_and_resumes(store, fixtures):
    questions = make_questions(300, fixtures)
    with FakeApi(questions) as api:
        first = scrape(store, params_for(api), client=client_for(api), max_requests=3)
        assert first.status == "quota" and "budget of 3 requests" in first.message
        assert len(api.log) == first.requests == 3 and 0 < counts(store)[0] < 300
        again = scrape(store, params_for(api), client=client_for(api))
    assert again.resumed and again.status == "done"
    assert counts(store) == expected_counts(questions)


def test_failure_is_recorded_and_the_rerun_resumes(store, fixtures):
    questions = make_questions(300, fixtures)
    with FakeApi(questions) as api:
        api.faults.extend([None, None, Fault("error", (400, "bad_parameter", "tagged"))])
        with pytest.raises(PPMinerError, match="failed.*bad_parameter"):
            scrape(store, params_for(api), client=client_for(api))
        run = last_run(store)
        assert run.status == "failed" and "bad_parameter" in run.message and run.finished_at
        assert run.checkpoint["cursor"] is not None
        again = scrape(store, params_for(api), client=client_for(api))
    assert again.resumed and again.status == "done"
    assert counts(store) == expected_counts(questions)


def test_any_error_on_a_page_ends_the_run_failed_naming_the_page(store, fixtures):
    questions = make_questions(250, fixtures, tags=(("tensorflow",),))
    odd_owner, huge_score = questions[40], questions[170]
    good_owner, good_score = odd_owner["owner"], huge_score["score"]
    odd_owner["owner"] = ["not", "an", "object"]  # breaks the item reader
    huge_score["score"] = (
        10**30
    )  # too big for the database column (SQLite: OverflowError, PostgreSQL: DataError)
    with FakeApi(questions) as api:
        params = params_for(api, tags=("tensorflow",))
        with pytest.raises(PPMinerError) as err:
            scrape(store, params, client=client_for(api))
        run = last_run(store)
        assert run.status == "failed" and run.finished_at and counts(store)[0] == 0
        for text in (str(err.value), run.message):
            assert "\n" not in text and "/questions?" in text and "page=1" in text
            assert f"item 40 (question {odd_owner['question_id']}) is malformed: AttributeError" in text
        odd_owner["owner"] = good_owner
        with pytest.raises(PPMinerError) as err:  # resumes at the same page, gets past it, stops at the next
            scrape(store, params, client=client_for(api))
        again = last_run(store)
        assert again.id == run.id and again.status == "failed" and counts(store)[0] == 100
        for text in (
            str(err.value),
            again.message,
        ):  # min= is inclusive: the page starts at the cursor question
            assert "\n" not in text and f"min={questions[99]['creation_date']}" in text
            assert (
                f"100 questions, ids {questions[99]['question_id']}..{questions[198]['question_id']}" in text
            )
        huge_score["score"] = good_score
        done = scrape(store, params, client=client_for(api))
    assert done.status == "done" and done.run_id == run.id
    assert counts(store) == expected_counts(questions)


def test_restart_starts_afresh_and_closes_a_dead_run(sqlite_store, fixtures):
    questions = make_questions(200, fixtures)
    with FakeApi(questions, quota_max=2) as api:
        scrape(sqlite_store, params_for(api), client=client_for(api))
        with sqlite_store.write() as s:  # as if its process had been killed
            s.get(AcquisitionRun, 1).status = "running"
        api.quota_remaining = api.quota_max = 10_000
        api.log.clear()
        again = scrape(sqlite_store, params_for(api), client=client_for(api), restart=True)
    assert again.run_id == 2 and not again.resumed and again.status == "done"
    assert api.listings()[0].params.get("min") is None  # from the start of the window
    with sqlite_store.read() as s:
        old = s.get(AcquisitionRun, 1)
        assert old.status == "interrupted" and "process died" in old.message
    assert counts(sqlite_store) == expected_counts(questions)


def test_lock_blocks_a_live_holder_and_takes_over_a_dead_one(store):
    with Lock(store, "scrape"), pytest.raises(JobLockHeld, match="another scrape job is running"):
        Lock(store, "scrape").acquire()
    # a lock left by a process that no longer exists on this host
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    with store.write() as s:
        now = utcnow()
        s.add(
            JobLock(
                name="scrape",
                holder=f"{os.uname().nodename}:{dead.stdout.strip()}",
                acquired_at=now,
                heartbeat_at=now,
            )
        )
    lock = Lock(store, "scrape")
    lock.acquire()
    assert "is gone" in lock.took_over
    lock.release()
    # a lock of another host whose heartbeat stopped long ago
    with store.write() as s:
        old = utcnow() - timedelta(hours=2)
        s.add(JobLock(name="scrape", holder="elsewhere:1", acquired_at=old, heartbeat_at=old))
    lock = Lock(store, "scrape")
    lock.acquire()
    assert "no heartbeat" in lock.took_over
    lock.release()
    with store.read() as s:
        assert s.get(JobLock, "scrape") is None


def test_run_keeps_the_lock_alive_while_matching(pg_url, fixtures, tmp_path):
    from mining.match.run import PG_LOCK_KEY

    store = open_store(pg_url)
    config = load_config(write_config(tmp_path))
    outcome: dict = {}
    with FakeApi(make_questions(20, fixtures)) as api, store.engine.connect() as blocker:
        # Matching waits for this advisory lock, so it lasts as long as the test holds it (no heartbeat of the
        # scrape's own comes meanwhile).
        blocker.execute(sa.text("SELECT pg_advisory_lock(:key)"), {"key": PG_LOCK_KEY})

        def job() -> None:
            try:
                outcome["job"] = run_job(
                    store, config, params_for(api, since_last=True), heartbeat_every=0.05
                )
            except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
                outcome["error"] = exc

        thread = threading.Thread(target=job)
        thread.start()
        try:

            def scraped() -> bool:
                with store.read() as s:
                    return s.scalar(sa.select(AcquisitionRun.status)) == "done"

            wait_for(scraped)
            time.sleep(1.0)  # twice the stale time the competitor below allows
            with pytest.raises(JobLockHeld):
                Lock(store, "scrape", stale_after=timedelta(seconds=0.5)).acquire()
        finally:
            blocker.execute(sa.text("SELECT pg_advisory_unlock(:key)"), {"key": PG_LOCK_KEY})
            blocker.commit()
            thread.join(60)
    assert "error" not in outcome, outcome.get("error")
    assert outcome["job"].scrape.status == "done" and outcome["job"].match.checked == 20
    with store.read() as s:
        assert s.get(JobLock, "scrape") is None


def test_kept_alive_reports_a_lost_lock(sqlite_store):
    lock = Lock(sqlite_store, "scrape")
    lock.acquire()
    with pytest.raises(PPMinerError, match="lost the scrape lock"), lock.kept_alive(0.05):
        with sqlite_store.write() as s:  # another process takes the lock over
            s.get(JobLock, "scrape").holder = "elsewhere:1"
        time.sleep(0.3)
    lock.release()


def test_questions_sharing_one_timestamp_are_paged_by_number(sqlite_store, fixtures):
    questions = make_questions(250, fixtures, step=0, tags=(("tensorflow",),))
    with FakeApi(questions) as api:
        result = scrape(sqlite_store, params_for(api, tags=("tensorflow",)), client=client_for(api))
    assert result.status == "done" and result.questions == 250
    assert counts(sqlite_store) == expected_counts(questions)
    created = str(questions[0]["creation_date"])
    asked = [(s.params.get("min"), s.params["page"]) for s in api.listings()]
    assert asked == [(None, "1"), (created, "2"), (created, "3")]


def test_a_rejected_cached_filter_is_recreated(sqlite_store, fixtures):
    with FakeApi(make_questions(30, fixtures)) as api:
        with sqlite_store.write() as s:
            value = json.dumps({"api_url": api.url, "filter": "!gone"})
            s.add(Setting(key=filter_setting_key(), value=value, updated_at=utcnow()))
        result = scrape(sqlite_store, params_for(api), client=client_for(api))
        assert result.status == "done" and counts(sqlite_store)[0] == 30
        assert api.listings()[0].params["filter"] == "!gone" and len(api.requests_to("/filters/create")) == 1
    with sqlite_store.read() as s:
        assert json.loads(s.get(Setting, filter_setting_key()).value)["filter"] in api.filters


def test_usage_errors_exit_2(tmp_path):
    from click.testing import CliRunner

    from mining.cli import cli

    db = f"sqlite:///{tmp_path / 'u.db'}"
    res = CliRunner().invoke(cli, ["scrape", "--db", db, "--from", "2020-01-01", "--to", "2019-01-01"])
    assert res.exit_code == 2 and "is after --to 2019-01-01" in res.output
    res = CliRunner().invoke(cli, ["run", "--db", db, "--from", "2020-13-01"])
    assert res.exit_code == 2 and "--from" in res.output


def test_help_names_the_config_defaults_of_the_window():
    from click.testing import CliRunner

    from mining.cli import cli

    for command in ("scrape", "run"):
        res = CliRunner().invoke(cli, [command, "--help"], terminal_width=200)
        assert res.exit_code == 0
        assert "[default: config's [study] from, else no limit]" in res.output
        assert "[default: config's [study] to, else now]" in res.output and "[default: now]" not in res.output


# -- the commands, as real processes ---------------------------------------------------------------------------


def test_kill_9_mid_run_then_rerun_gives_every_post_once(db_url, fixtures, tmp_path):
    questions = make_questions(150, fixtures)
    cfg = write_config(tmp_path, page_size=10)
    store = open_store(db_url)
    with FakeApi(questions, hold_after=3) as api:  # the 4th page request hangs until released
        args = ("scrape", "--db", db_url, "--config", str(cfg), "--api-url", api.url)
        proc = ppmine(*args)

        def committed() -> int:
            with store.read() as s:
                return s.scalar(sa.select(sa.func.max(AcquisitionRun.items))) or 0

        wait_for(api.holding.is_set)  # 3 pages are committed before the 4th is asked for
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        assert proc.returncode == -signal.SIGKILL
        assert last_run(store).status == "running" and counts(store)[0] == committed() == 28  # 10 + 9 + 9
        killed_at = len(api.log)
        api.release()
        rerun = ppmine(*args)
        out, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    assert "done" in out and "(resumed)" in out and out.count("\n") == 1
    assert api.log[killed_at].params.get("min") is not None  # picked up at the checkpoint
    assert counts(store) == expected_counts(questions)
    with store.read() as s:
        assert {q for (q,) in s.execute(sa.select(Question.id))} == {q["question_id"] for q in questions}
        assert s.scalar(sa.select(sa.func.count()).select_from(AcquisitionRun)) == 1
        assert s.get(JobLock, "scrape") is None


@pytest.mark.slow
def test_kill_9_at_random_moments_never_leaves_half_a_page(sqlite_url, fixtures, tmp_path):
    questions = make_questions(300, fixtures)
    cfg = write_config(tmp_path, page_size=10)
    store = open_store(sqlite_url)
    rnd = random.Random(3)
    with FakeApi(questions, delay=0.01) as api:
        args = ("scrape", "--db", sqlite_url, "--config", str(cfg), "--api-url", api.url)
        for _ in range(3):
            proc = ppmine(*args)
            wait_for(lambda p=proc: len(api.log) > 0 or p.poll() is not None)
            time.sleep(rnd.uniform(0.05, 0.5))
            proc.send_signal(signal.SIGKILL)
            proc.communicate()
            # whatever was committed is whole: each stored question has all its answers and comments
            n_questions = counts(store)[0]
            with store.read() as s:
                ids = [q for (q,) in s.execute(sa.select(Question.id))]
            assert counts(store) == expected_counts([q for q in questions if q["question_id"] in set(ids)])
            assert n_questions == len(ids) < 300
            api.log.clear()
        final = ppmine(*args)
        out, err = final.communicate(timeout=120)
    assert final.returncode == 0, err
    assert counts(store) == expected_counts(questions)


def test_second_concurrent_run_exits_at_once(sqlite_url, fixtures, tmp_path):
    cfg = write_config(tmp_path, page_size=10)
    store = open_store(sqlite_url)
    with FakeApi(make_questions(300, fixtures), hold_after=2) as api:
        args = ("scrape", "--db", sqlite_url, "--config", str(cfg), "--api-url", api.url)
        first = ppmine(*args)
        try:
            wait_for(api.holding.is_set)  # the first run holds the lock and waits for its 3rd page
            second = ppmine(*args)
            out, err = second.communicate(timeout=30)
            assert second.returncode == 1 and out == ""
            assert err.startswith("ppmine: error: another scrape job is running on this database (held by ")
            assert err.count("\n") == 1
            assert first.poll() is None  # the first one carries on
            first.send_signal(signal.SIGTERM)  # as cron or systemd would stop it
            out, err = first.communicate(timeout=30)
            assert (
                first.returncode == 130
                and err.strip()
                == "ppmine: interrupted; everything committed so far is kept (run the same command again to resume)"
            )
        finally:
            if first.poll() is None:
                first.kill()
                first.communicate()
    assert last_run(store).status == "interrupted"
    with store.read() as s:
        assert s.get(JobLock, "scrape") is None


def test_progress_shows_on_a_terminal_stderr_only(sqlite_url, fixtures, tmp_path):
    cfg = write_config(tmp_path, page_size=10)
    main, tty = pty.openpty()
    seen = bytearray()

    def read_terminal() -> None:
        while True:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the terminal's other end is closed: all read
                return
            if not chunk:
                return
            seen.extend(chunk)

    reader = threading.Thread(target=read_terminal, daemon=True)
    reader.start()
    with FakeApi(make_questions(40, fixtures, tags=(("tensorflow",),)), delay=0.3) as api:
        args = (
            "scrape",
            "--db",
            sqlite_url,
            "--config",
            str(cfg),
            "--api-url",
            api.url,
            "--tag",
            "tensorflow",
        )
        proc = ppmine(*args, env={"COLUMNS": "120", "TERM": "xterm"}, stderr=tty)
        os.close(tty)
        out, _ = proc.communicate(timeout=60)
    reader.join(10)
    os.close(main)
    assert proc.returncode == 0 and out.startswith("scrape run 1 done;") and out.count("\n") == 1
    assert b"scrape tensorflow: " in seen and b" questions, " in seen


def test_key_never_in_output_logs_or_database(sqlite_url, fixtures, tmp_path):
    cfg = write_config(tmp_path)
    log_file = tmp_path / "logs" / "scrape.log"
    with FakeApi(make_questions(150, fixtures)) as api:
        api.faults.extend(
            [Fault("drop"), Fault("error", (400, "bad_parameter", "min")), Fault("throttle", 1)]
        )
        args = (
            "scrape",
            "--db",
            sqlite_url,
            "--config",
            str(cfg),
            "--api-url",
            api.url,
            "--log-file",
            str(log_file),
        )
        failed = run_cli("mining.cli", *args, check=False, env={"SE_API_KEY": KEY})
        out1, err1 = failed.stdout, failed.stderr
        ok = run_cli("mining.cli", *args, "--key", KEY, "-v", check=False)
        out2, err2 = ok.stdout, ok.stderr
    assert failed.returncode == 1 and "bad_parameter" in err1 and ok.returncode == 0, err2
    assert all(s.params.get("key") == KEY for s in api.log)  # it was sent ...
    logged = log_file.read_text()
    assert "connection failed" in logged and "bad_parameter" in logged and "throttled" in err2
    for text in (out1, err1, out2, err2, logged):  # ... and shown nowhere
        assert KEY not in text
        assert_no_key(text, KEY)
    store = open_store(sqlite_url)
    with store.read() as s:
        for table in ("acquisition_runs", "settings", "job_locks", "questions"):
            for row in s.execute(sa.text(f"SELECT * FROM {table}")):
                assert KEY not in repr(tuple(row))
                assert_no_key(repr(tuple(row)), KEY)


@pytest.fixture
def log_to(tmp_path):
    """``setup_logging`` into a file for one test; the handlers it adds are removed afterwards."""
    logger = logging.getLogger("ppminer")
    before = list(logger.handlers)
    log_file = tmp_path / "job.log"
    yield log_file
    for handler in logger.handlers[len(before) :]:
        handler.close()
        logger.removeHandler(handler)


def test_log_filter_scrubs_tracebacks_and_survives_bad_arguments(log_to):
    setup_logging(str(log_to), False, [KEY])
    log = logging.getLogger("ppminer.test")
    log.warning("pages %d", "not a number")  # a wrong argument is logged as is, not raised at the caller
    try:
        raise RuntimeError(f"refused: /2.3/questions?site=so&key={quote(KEY, safe='')}")
    except RuntimeError:
        log.exception("while fetching")
    logged = log_to.read_text()
    assert "pages %d ('not a number',)" in logged and "RuntimeError: refused" in logged
    assert_no_key(logged, KEY)


def test_key_hidden_when_the_connection_is_refused(sqlite_store, log_to):
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/2.3"  # nothing listens once the socket closes
    setup_logging(str(log_to), False, [KEY])
    client = ApiClient(url, key=KEY, max_retries=1, retry_base=0.01)
    with pytest.raises(PPMinerError, match="cannot reach the API .* rerun to resume") as err:
        scrape(sqlite_store, ScrapeParams(tags=("keras",), api_url=url), client=client)
    try:  # a traceback whose text holds the URL as requests shows it
        client.session.get(f"{url}/questions", params={"key": KEY}, timeout=5)
    except OSError:
        logging.getLogger("ppminer.scrape").exception("request failed")
    run = last_run(sqlite_store)
    logged = log_to.read_text()
    assert run.status == "failed" and "cannot reach the API" in run.message
    assert "cannot reach the API" in logged and "Traceback" in logged and "ConnectionError" in logged
    for text in (str(err.value), run.message, logged):
        assert_no_key(text, KEY)


def test_ppmine_run_scrapes_incrementally_then_matches(sqlite_url, fixtures, tmp_path):
    cfg = write_config(tmp_path)
    log_file = tmp_path / "run.log"
    questions = make_questions(80, fixtures)
    store = open_store(sqlite_url)
    with FakeApi(questions) as api:
        # the first scheduled run on a fresh database (in-process: the same code the command calls) ...
        first = run_job(store, load_config(cfg), params_for(api, since_last=True))
        assert first.exit_code == 0 and first.scrape.mode == "full" and first.match.candidates > 0
        assert first.summary().startswith("run: scrape done (full, 80 new or updated of ")
        api.touch(
            questions[0]["question_id"], questions[-1]["last_activity_date"] + 86_400, title="Now slower"
        )
        # ... and the next one, from cron
        args = (
            "run",
            "--db",
            sqlite_url,
            "--config",
            str(cfg),
            "--api-url",
            api.url,
            "--log-file",
            str(log_file),
        )
        second = run_cli("mining.cli", *args, check=False)
        out, err = second.stdout, second.stderr
    assert second.returncode == 0 and err == "", err
    assert out.count("\n") == 1 and out.startswith("run: scrape done (incremental, 1 new or updated of ")
    assert "; match: 1 checked, " in out
    with store.read() as s:
        runs = s.scalars(sa.select(AcquisitionRun).order_by(AcquisitionRun.id)).all()
        assert [r.checkpoint["mode"] for r in runs] == ["full", "incremental"]
        assert all(r.params["since_last"] for r in runs)
        assert s.scalar(sa.text("SELECT count(*) FROM match_runs")) == 2
    assert log_file.read_text().count("run: scrape done (incremental") == 1


def test_scrape_exits_3_when_the_quota_runs_out(sqlite_url, fixtures, tmp_path):
    cfg = write_config(tmp_path, page_size=10)
    with FakeApi(make_questions(100, fixtures), quota_max=3) as api:
        proc = run_cli("mining.cli", "scrape", "--db", sqlite_url, "--config", str(cfg), "--api-url", api.url,
                       check=False)  # fmt: skip
        out, err = proc.stdout, proc.stderr
    assert proc.returncode == 3, err
    assert out.startswith("scrape run 1 quota;") and "rerun the same command to resume" in out
    assert last_run(open_store(sqlite_url)).status == "quota"


def test_sigterm_means_interrupt_only_while_a_scrape_runs():
    """Inside the block SIGTERM raises KeyboardInterrupt (a scrape stops as on Ctrl-C); after it the handler
    before is back, so an in-process caller, and any process it forks later, keeps SIGTERM's usual meaning (a
    pool's replay processes kept the scrape's handler and outlived the pool's SIGTERM)."""
    from mining.runjob import sigterm_as_interrupt

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(KeyboardInterrupt), sigterm_as_interrupt():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler runs at the next bytecode boundary; the sleep is interrupted at once
    assert signal.getsignal(signal.SIGTERM) is before
