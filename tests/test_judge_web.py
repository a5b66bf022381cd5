"""The web app's Judge page over HTTP: a play judged whole and logged, and the lock that keeps players on it."""

from __future__ import annotations

import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():  # starlette 1.x suggests httpx2, which is not released everywhere yet
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from lexitrain.paths import data_home
from lexitrain.study.store import ProgressStore
from lexitrain.web import judge
from lexitrain.web.app import create_app
from lexitrain.web.context import Context
from test_judge import LOG_LINE
from test_web_api import PAGE, SAME_ORIGIN, app_ctx, clock, one_line_error  # noqa: F401  (fixtures)
from web_helpers import NAME

KEY = "club-7"


@pytest.fixture
def client(app_ctx: Context, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(judge, "WRONG_KEY_SECONDS", 0.01)
    with TestClient(create_app(app_ctx), headers=SAME_ORIGIN) as client:
        assert client.get("/?key=s3cret").status_code == 200  # the redirect sets the cookie
        yield client


def test_a_play_is_judged_as_a_whole_and_logged(client: TestClient) -> None:
    judged = client.post("/api/judge", json={"words": "retains, qi"})
    assert judged.status_code == 200
    assert set(judged.json()) == {"valid", "words", "lexicon", "at"}  # never which word failed
    assert judged.json()["valid"] is True and judged.json()["words"] == ["RETAINS", "QI"]
    assert client.post("/api/judge", json={"words": "RETAINS QIS"}).json()["valid"] is False
    assert "stands for any letter" in one_line_error(client.post("/api/judge", json={"words": "QA?"}), 400)
    assert one_line_error(client.post("/api/judge", json={"words": 7}), 400) == "'words' must be a string"
    logged = (data_home() / "judge.log").read_text(encoding="utf-8").splitlines()
    assert [LOG_LINE.fullmatch(line).groups() for line in logged] == [  # type: ignore[union-attr]
        (NAME, "VALID", "RETAINS QI"), (NAME, "NOT VALID", "RETAINS QIS")]


def test_once_started_only_the_hosts_key_leads_away_from_the_judge(client: TestClient, app_ctx: Context) -> None:
    page = client.get("/judge")
    assert page.status_code == 200 and "Start the judge" in page.text and 'href="/search"' in page.text
    weak = client.post("/judge", data={"key": "club", "again": "club"}, follow_redirects=False)
    assert weak.status_code == 303 and "digit%20or%20a%20sign" in weak.headers["location"]
    differ = client.post("/judge", data={"key": KEY, "again": KEY + "x"}, follow_redirects=False)
    assert "differ" in client.get(differ.headers["location"]).text
    assert client.get("/search", follow_redirects=False).status_code == 200  # not started: the app is open

    started = client.post("/judge", data={"key": KEY, "again": KEY}, follow_redirects=False)
    assert started.status_code == 303 and started.headers["location"] == "/judge"
    on = client.get("/judge")
    assert 'id="judge-words"' in on.text and 'href="/search"' not in on.text and "Start the judge" not in on.text
    for path in ("/", "/search?definition=fish", "/stats", "/settings", "/review", "/wall/x"):
        sent = client.get(path, follow_redirects=False)
        assert (sent.status_code, sent.headers["location"]) == (303, "/judge"), path
    assert "the word judge is on" in one_line_error(client.post("/wall", data={"source": "search", "value": "--length 7"}), 423)
    assert "the word judge is on" in one_line_error(client.post("/api/review", json={}), 423)
    assert client.get("/static/app.css").status_code == 200
    assert client.post("/api/judge", json={"words": "QI"}).json()["valid"] is True  # the judge itself works

    with ProgressStore() as store, TestClient(create_app(Context(store, NAME, secret="s3cret", hosts=frozenset(
            {"testserver"}))), headers=SAME_ORIGIN) as again:  # the app started again on the same home: the judge alone
        again.get("/?key=s3cret", follow_redirects=False)
        assert again.get("/search", follow_redirects=False).headers["location"] == "/judge"

    wrong = client.post("/judge/stop", data={"key": "club-8"}, follow_redirects=False)
    assert wrong.status_code == 303 and "not%20the%20host" in wrong.headers["location"]
    assert client.get("/search", follow_redirects=False).status_code == 303
    stopped = client.post("/judge/stop", data={"key": KEY}, follow_redirects=False)
    assert (stopped.status_code, stopped.headers["location"]) == (303, "/")
    assert client.get("/search", follow_redirects=False).status_code == 200
    assert client.get("/judge", headers=PAGE).status_code == 200
