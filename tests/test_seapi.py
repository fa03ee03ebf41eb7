"""The API client against real response files and a real local HTTP server that misbehaves on cue."""

from __future__ import annotations

import json
import logging
import socket

import pytest
from conftest import run_cli
from fake_api import REAL_KEY, FakeApi, Fault, assert_no_key, key_forms, make_questions

from core.db import open_store
from core.errors import PPMinerError
from mining.api.client import ApiClient, ApiError, QuotaExhausted, Unreachable, parse_wrapper
from mining.api.items import page_rows

SE_JSON = "se_api_json"
KEY = "k3y-Th4t-Must-N0t-Leak"


@pytest.fixture
def api(fixtures):
    with FakeApi(make_questions(60, fixtures)) as server:
        yield server


def client_for(api: FakeApi, **kw) -> ApiClient:
    kw.setdefault("retry_base", 0.01)
    return ApiClient(api.url, **kw)


# -- parsing the real shapes ---------------------------------------------------------------------------------


def test_parser_reads_real_perceval_pages(fixtures):
    payload = json.loads(
        (fixtures / SE_JSON / "perceval/stackexchange_question_backoff_page.json").read_text()
    )
    page = parse_wrapper(payload, "backoff page")
    assert page.backoff == 0.2 and page.has_more and page.quota_remaining == 9989 and page.quota_max == 10000
    rows = page_rows(page.items, "stackoverflow")
    # The page repeats question 1: one row per id; each nested answer belongs to the question it is nested in.
    assert [q["id"] for q in rows.questions] == [1]
    assert sorted(a["id"] for a in rows.answers) == [1, 2]
    assert {a["question_id"] for a in rows.answers} == {1}
    assert sorted(c["id"] for c in rows.comments) == [2, 60495069]
    assert {c["post_type"] for c in rows.comments} == {"question"}
    q = rows.questions[0]
    assert q["tags"] == "|python|pandas|" and q["owner_user_id"] == 3 and q["creation_date"].year == 2016


def test_parser_reads_a_bare_item_list(fixtures):
    items = json.loads((fixtures / SE_JSON / "perceval/stackexchange_question_parse.json").read_text())
    rows = page_rows(items, "stackoverflow")
    assert [q["id"] for q in rows.questions] == [1] and rows.answers and rows.comments


def test_parser_reads_default_filter_questions(fixtures):
    for name in ("gaea/questions.json", "stack-on-go/questions__dummyQuestionsResponse.json"):
        payload = json.loads((fixtures / SE_JSON / name).read_text())
        rows = page_rows(parse_wrapper(payload, name).items, "stackoverflow")
        assert len(rows.questions) == len(payload["items"]) > 0
        assert all("body_html" not in q for q in rows.questions)  # default filter: no body, nothing invented
    titles = [
        q["title"]
        for q in page_rows(
            json.loads((fixtures / SE_JSON / "gaea/questions.json").read_text())["items"], "so"
        ).questions
    ]
    assert any("\"undefined method 'allow'\"" in t for t in titles)  # HTML entities are unescaped


def test_parser_raises_on_real_error_payloads(fixtures):
    for name, eid in (("gaea/bad_request.json", 400), ("stack-on-go/errors__dummyErrorResponse.json", 404)):
        payload = json.loads((fixtures / SE_JSON / name).read_text())
        with pytest.raises(ApiError) as err:
            parse_wrapper(payload, name)
        assert err.value.error_id == eid and name in str(err.value)


def test_malformed_item_names_the_question():
    with pytest.raises(PPMinerError, match=r"item 1 \(question 7\)"):
        page_rows([{"question_id": 6}, {"question_id": 7, "answers": [{"score": 1}]}], "so", "page x")


def test_an_impossible_date_or_shape_names_the_question():
    # a timestamp beyond what datetime can hold: OverflowError/OSError inside, reported like any malformed field
    for when in (10**20, -(10**12), float("inf")):
        with pytest.raises(PPMinerError, match=r"page y: item 1 \(question 8\) is malformed: ValueError: "):
            page_rows([{"question_id": 7}, {"question_id": 8, "creation_date": when}], "so", "page y")
    with pytest.raises(PPMinerError, match=r"item 0 \(question 9\) is malformed: AttributeError"):
        page_rows([{"question_id": 9, "owner": ["not", "an", "object"]}], "so", "page z")


def test_page_rows_derive_text_per_item(fixtures):
    items = make_questions(2, fixtures)
    rows = page_rows(items, "stackoverflow")
    assert rows.questions[0]["code_blocks"] == ["model.fit(x, y, batch_size=1)\n"]
    assert rows.questions[0]["prose"].startswith("Training step 0 is slow")
    assert all(c["text"].startswith("Comment") for c in rows.comments)


# -- the client against the local server ---------------------------------------------------------------------


def test_filter_gzip_and_paging(api):
    with client_for(api) as c:
        fid = c.create_filter(["question.body", "question.answers"])
        assert api.filters[fid] == ["question.body", "question.answers"]
        page = c.questions(
            {"tagged": "keras", "sort": "creation", "order": "asc", "pagesize": 15, "filter": fid}
        )
    assert len(page.items) == 15 and page.has_more and "body" in page.items[0] and "answers" in page.items[0]
    assert all("gzip" in s.accept_encoding for s in api.log)
    assert api.log[-1].params["site"] == "stackoverflow"
    assert c.quota_remaining == api.quota_remaining == api.quota_max - 2


def test_backoff_is_honoured_per_method(api):
    api.faults.append(Fault("backoff", 0.5))
    with client_for(api) as c:
        first = c.questions({"pagesize": 1})
        c.questions({"pagesize": 1})
    assert first.backoff == 0.5
    a, b = api.requests_to("/questions")
    assert b.at - a.at >= 0.5


def test_throttle_violation_waits_what_the_message_says(api):
    api.faults.append(Fault("throttle", 1))
    with client_for(api) as c:
        page = c.questions({"pagesize": 2})
    assert len(page.items) == 2
    a, b = api.requests_to("/questions")
    assert b.at - a.at >= 1.0


def test_transient_faults_are_retried(api):
    api.faults.extend([Fault("status", 503), Fault("drop"), Fault("invalid_json"), Fault("hang", 1.0)])
    with client_for(api, timeout=0.3) as c:
        page = c.questions({"pagesize": 3})
    assert len(page.items) == 3
    assert len(api.requests_to("/questions")) == 5 and c.requests == 5


def test_retry_delays_grow_exponentially_up_to_the_cap(api):
    waits: list[float] = []
    api.faults.extend(
        [Fault("status", 502), Fault("drop"), Fault("status", 500), Fault("drop"), Fault("status", 504)]
    )
    with client_for(api, retry_base=0.01, retry_cap=0.03, max_rps=0, on_wait=waits.append) as c:
        c.questions({})
    assert waits == [0.01, 0.02, 0.03, 0.03, 0.03]


def test_backoff_holds_only_its_own_method(api):
    api.faults.append(Fault("backoff", 2.0))
    with client_for(api) as c:
        c.questions({"pagesize": 1})
        c.create_filter(["question.body"])
    q, f = api.log
    assert f.at - q.at < 1.0 and f.path.endswith("/filters/create")


def test_gives_up_after_capped_retries_naming_the_url(api):
    api.faults.extend([Fault("status", 503)] * 4)
    with client_for(api, max_retries=3, key=KEY) as c, pytest.raises(ApiError) as err:
        c.questions({"tagged": "keras"})
    msg = str(err.value)
    assert "giving up after 4 attempts" in msg and "HTTP 503" in msg and "tagged=keras" in msg
    assert KEY not in msg and api.log[0].params["key"] == KEY


def test_invalid_json_error_names_the_byte_offset(api):
    api.faults.extend([Fault("invalid_json")] * 2)
    with client_for(api, max_retries=1) as c, pytest.raises(ApiError, match="invalid JSON at byte 39"):
        c.questions({})


def test_error_payload_fails_at_once(api):
    api.faults.append(Fault("error", (400, "bad_parameter", "pagesize")))
    with client_for(api, key=KEY) as c, pytest.raises(ApiError) as err:
        c.questions({"pagesize": 5})
    assert err.value.error_name == "bad_parameter" and "pagesize" in str(err.value)
    assert len(api.log) == 1 and KEY not in str(err.value)


def test_a_non_api_answer_fails_at_once(api):
    api.faults.append(Fault("status", 404))
    with (
        client_for(api) as c,
        pytest.raises(ApiError, match=r"/questions\?pagesize=1.*HTTP 404: invalid JSON at byte 0"),
    ):
        c.questions({"pagesize": 1})
    with client_for(api) as c, pytest.raises(ApiError, match="no_method"):
        c.call("/nowhere", {})
    assert len(api.log) == 2


def test_long_throttle_means_quota_exhausted(api):
    api.quota_remaining = 0
    with client_for(api) as c, pytest.raises(QuotaExhausted, match="86400"):
        c.questions({})


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # closed again when the block ends: nothing listens there


def test_connection_refused_message_hides_the_key(caplog):
    c = ApiClient(f"http://127.0.0.1:{closed_port()}/2.3", key=REAL_KEY, max_retries=1, retry_base=0.01)
    with caplog.at_level(logging.WARNING, "ppminer"), pytest.raises(ApiError) as err:
        c.questions({"tagged": "keras"})
    msg = str(err.value)
    assert isinstance(err.value, Unreachable)  # never answered: a short message, no request URL
    assert msg == f"cannot reach the API at {c.api_url} (Connection refused)"
    assert "Connection refused" in caplog.text
    assert_no_key(caplog.text)


def test_scrub_hides_every_encoding_of_the_key():
    c = ApiClient("http://127.0.0.1:1/2.3", key=REAL_KEY)
    for form in key_forms(REAL_KEY):
        assert c.scrub(f"GET /2.3/questions?site=so&key={form}&page=2 refused") == (
            "GET /2.3/questions?site=so&key=***&page=2 refused"
        )
        assert c.scrub(f"bad key {form}.") == "bad key ***."
    # whatever the key given, the value of a key= parameter in a quoted URL never shows
    other = ApiClient("http://127.0.0.1:1/2.3", key="different")
    assert (
        other.scrub("url: /questions?key=Zz%28%28 (Caused by x)") == "url: /questions?key=*** (Caused by x)"
    )
    assert c.scrub("") == ""


def test_stays_under_the_request_rate(api):
    with client_for(api, max_rps=30) as c:
        for _ in range(40):
            c.questions({"pagesize": 1})
    times = sorted(s.at for s in api.log)
    busiest = max(sum(1 for t in times if start <= t < start + 1.0) for start in times)
    assert busiest <= 30


def test_an_api_that_never_answered_fails_fast_and_a_dropped_one_gets_every_retry():
    url = f"http://127.0.0.1:{closed_port()}/2.3"
    waits: list[float] = []
    c = ApiClient(url, max_rps=0, sleep=waits.append)  # the default retry policy, sleeps recorded not slept
    with pytest.raises(Unreachable):
        c.questions({"tagged": "keras"})
    assert waits == [1.0, 2.0]  # two quick retries (3 s), not 1+2+...+32 s of silence
    waits.clear()
    c.reached = True  # it answered before: a network drop mid-scrape is worth the long backoff
    with pytest.raises(ApiError, match="giving up after 7 attempts: connection failed: .*Connection refused"):
        c.questions({"tagged": "keras"})
    assert waits == [1.0, 2.0, 4.0, 8.0, 16.0, 32.0]


def test_ppmine_run_offline_says_so_in_one_short_line(tmp_path):
    url = f"http://127.0.0.1:{closed_port()}/2.3"
    db = f"sqlite:///{tmp_path / 's.db'}"
    open_store(db)  # an existing study: nothing to say about creating it
    out = run_cli("mining.cli", "run", "--api-url", url, "--db", db, check=False)
    assert out.returncode == 1
    assert out.stderr == (
        f"ppmine: error: cannot reach the API at {url} (Connection refused): check the network (or --api-url), "
        "then rerun to resume\n"
    )
