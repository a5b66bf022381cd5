"""The web app's HTTP face without a browser (Starlette's TestClient): the launch key and the origin check,
one-line JSON errors, escaping, and walls, reviews, positions, the challenge, search, stats and settings
going through to the same progress store the CLI reads."""

from __future__ import annotations

import json
import re
import time
import tracemalloc
import warnings
from collections import Counter
from collections.abc import Iterator
from datetime import date

import pytest

with warnings.catch_warnings():  # starlette 1.x suggests httpx2, which is not released everywhere yet
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.search.execute import run_search
from lexitrain.search.query import parse_query
from lexitrain.study.drills.challenge import challenge_keys
from lexitrain.study.drills.requests import QuizRequest, Words
from lexitrain.study.quiz.round import Round
from lexitrain.study.store import ProgressStore
from lexitrain.web.app import create_app
from lexitrain.web import context as context_module
from lexitrain.web.context import Context
from web_helpers import (DEFINITIONS, ILLEGAL_PLAY, NAME, POSITION, SCRIPT, TOP_PLAY, TOP_SCORE, Clock,
                         make_web_lexicon, solved_real_endgame)
from study_helpers import WORDS, anagram_oracle
from tests.cli_runner import run

ORACLE = anagram_oracle()
SAME_ORIGIN = {"origin": "http://testserver"}
PAGE = {"accept": "text/html"}  # what a browser sends with a form


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def app_ctx(tmp_path, clock) -> Iterator[Context]:
    make_web_lexicon(tmp_path)
    with ProgressStore() as store:
        yield Context(store, NAME, clock=clock, secret="s3cret", hosts=frozenset({"testserver"}))


@pytest.fixture
def client(app_ctx) -> Iterator[TestClient]:
    with TestClient(create_app(app_ctx), headers=SAME_ORIGIN) as client:
        assert client.get("/?key=s3cret").status_code == 200  # the redirect sets the cookie
        yield client


def one_line_error(response, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json" and "\n" not in response.text
    return response.json()["error"]


def start_wall(client: TestClient, value: str = "--length 7", source: str = "search", **fields: str) -> str:
    response = client.post("/wall", data={"source": source, "value": value, **fields}, follow_redirects=False)
    assert response.status_code == 303, response.text
    return response.headers["location"].rsplit("/", 1)[1]


def on_round(client: TestClient, ident: str, fields: dict | None = None, **more: object) -> dict:
    """A wall request's body: FIELDS with the token of the round on show (as the page sends it)."""
    return {**(fields or {}), **more, "round": client.get(f"/api/wall/{ident}").json()["round"]["token"]}


def on_question(state: dict, **fields: object) -> dict:
    """A review or position request's body: FIELDS with the id and token of the question on show in STATE."""
    return {**fields, "question": state["question"]["id"], "token": state["question"]["token"]}


def answers(store: ProgressStore) -> list[tuple[str, str, int]]:
    return store.conn.execute("SELECT key, given, correct FROM answers ORDER BY id").fetchall()


# -- who may drive it ---------------------------------------------------------------


def test_the_printed_key_becomes_a_cookie_and_nothing_is_served_without_it(app_ctx):
    with TestClient(create_app(app_ctx)) as stranger:
        assert "open the link" in one_line_error(stranger.get("/"), 403)
        assert one_line_error(stranger.get("/static/wall.js"), 403)
        assert one_line_error(stranger.get("/?key=guess"), 403)
        first = stranger.get("/search?key=s3cret&length=2", follow_redirects=False)
        assert first.status_code == 303 and first.headers["location"] == "/search?length=2"  # the key leaves the URL
        cookie = first.headers["set-cookie"]
        assert "lexitrain_key=s3cret" in cookie and "HttpOnly" in cookie and "SameSite=strict" in cookie
        page = stranger.get("/search?length=2")
        assert page.status_code == 200 and "AA" in page.text
        csp = page.headers["content-security-policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "frame-ancestors 'none'" in csp


def test_a_write_from_another_origin_is_refused(client):
    assert "own pages" in one_line_error(client.post("/api/review", headers={"origin": "http://evil.example"}), 403)
    assert one_line_error(client.post("/api/review", headers={"origin": "null"}), 403)
    assert one_line_error(client.post("/api/review", headers={"origin": "", "sec-fetch-site": "cross-site"}), 403)
    assert client.post("/api/review").status_code == 200


def test_a_write_with_no_origin_is_refused_as_a_foreign_one_is(app_ctx):
    """Browsers send an Origin with every POST; before, a write without one (any program that has the
    cookie, or a page whose browser was told to leave it out) was let through."""
    with TestClient(create_app(app_ctx)) as bare:
        assert bare.get("/?key=s3cret").status_code == 200
        assert "own pages" in one_line_error(bare.post("/api/review"), 403)
        assert "own pages" in one_line_error(bare.post("/api/review", headers={"sec-fetch-site": "same-origin"}), 403)
        assert bare.post("/api/review", headers=SAME_ORIGIN).status_code == 200


# -- bad input ------------------------------------------------------------------------


def test_malformed_requests_get_one_line_json_errors(client):
    ident = start_wall(client)
    assert one_line_error(client.post(f"/api/wall/{ident}/guess", content=b"{not json"), 400) == "the body is not JSON"
    assert "object" in one_line_error(client.post(f"/api/wall/{ident}/guess", json=["RETAINS"]), 400)
    assert "'word' must be a string" in one_line_error(client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": 7})), 400)
    assert "longer than" in one_line_error(client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": "A" * 500})), 400)
    assert "one word" in one_line_error(client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": "A B"})), 400)
    assert "no open wall" in one_line_error(client.get("/api/wall/nope"), 404)
    assert one_line_error(client.get("/no/such/page"), 404) == "no such page"
    followed = client.get("/no/such/page", headers=PAGE)  # a browser following a link: the page, not JSON
    assert followed.status_code == 404 and "<h1>Cannot do that</h1>" in followed.text and "no such page" in followed.text
    typed = client.get("/wall", headers=PAGE)  # a form's address typed in a browser (it was a line of JSON)
    assert typed.status_code == 405 and "<h1>Cannot do that</h1>" in typed.text and "takes a form" in typed.text
    assert one_line_error(client.put("/api/review"), 405)
    assert "no open review or position round 'x'" in one_line_error(
        client.post("/api/review/x/grade", json={"rating": 3, "question": "q", "token": "t"}), 404)


def test_an_unknown_lexicon_or_an_empty_source_is_a_message_in_the_page(client, app_ctx):
    empty = client.post("/wall", data={"source": "search", "value": "--length 14"}, headers=PAGE)
    assert empty.status_code == 400 and "<h1>Cannot do that</h1>" in empty.text and "--length 14" in empty.text
    unknown = client.post("/settings", data={"lexicon": "nosuchlexicon"}, headers=PAGE)
    assert unknown.status_code == 400 and "nosuchlexicon" in unknown.text
    assert app_ctx.lexicon == NAME


def test_a_refused_setting_shows_the_form_as_the_player_filled_it(client, app_ctx):
    """A typo in one field costs nothing of the others: the form comes back filled, the reason above it,
    and nothing is kept."""
    refused = client.post("/settings", data={"lexicon": "nosuchlexicon", "letter_order": "eai", "dark": "1",
                                             "daily_order": "points-per-game"}, headers=PAGE)
    assert refused.status_code == 400
    assert re.search(r'<p class="notice" role="alert">[^<]*nosuchlexicon', refused.text)
    assert 'name="lexicon" list="lexicons" value="nosuchlexicon"' in refused.text
    assert 'name="letter_order" value="eai"' in refused.text
    assert re.search(r'name="dark" value="1"\s+checked', refused.text)
    assert not re.search(r'name="tiles" value="1"\s+checked', refused.text)
    assert '<option value="points-per-game" selected>' in refused.text
    assert not re.search(r'<body class="dark\s', refused.text)  # the page itself as stored: nothing was kept
    assert app_ctx.store.setting("display:letter_order") is None and app_ctx.store.setting("daily_order") is None
    assert app_ctx.lexicon == NAME


def test_a_definition_with_markup_is_shown_as_text(client):
    page = client.get("/search?length=7&anagram=AEINRST")
    assert SCRIPT not in page.text and "keeps &lt;script&gt;alert(1)&lt;/script&gt;" in page.text


# -- walls ----------------------------------------------------------------------------------


def test_a_wall_guessed_word_by_word_records_each_question_as_it_is_decided(client, app_ctx):
    ident = start_wall(client, minutes="1")
    state = client.get(f"/api/wall/{ident}").json()
    cells = {c["alphagram"]: c for c in state["round"]["cells"]}
    assert set(cells) == {"AEINRST", "AEILRST"} and state["time_left"] == 60
    assert cells["AEINRST"]["tiles"] == list("AEINRST")

    def guess(word: str) -> dict:
        response = client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": word}))
        assert response.status_code == 200, response.text
        return response.json()

    assert guess("saltier")["guess"]["verdict"] == "correct"
    assert answers(app_ctx.store) == [("AEILRST", "SALTIER", 1)]  # recorded the moment it was solved
    assert guess("SALTIER")["guess"]["verdict"] == "already"
    assert guess("NITRATES")["guess"]["verdict"] == "wrong"
    after = guess("RETAINS")
    assert [c["found"] for c in after["round"]["cells"] if c["alphagram"] == "AEINRST"] == [["RETAINS"]]
    ended = client.post(f"/api/wall/{ident}/give-up", json=on_round(client, ident)).json()
    assert ended["round"]["gave_up"] and ended["round"]["correct"] == 1
    table = {q["alphagram"]: q for q in ended["solutions"]}
    words = {w["word"]: w for w in table["AEINRST"]["words"]}
    assert set(words) == ORACLE["AEINRST"] and words["RETAINS"]["found"] and not words["NASTIER"]["found"]
    assert words["RETAINS"]["definition"] == DEFINITIONS["RETAINS"] and "probability" in words["RETAINS"]
    assert answers(app_ctx.store)[-1] == ("AEINRST", "RETAINS", 0)
    marked = client.post(f"/api/wall/{ident}/mark", json=on_round(client, ident, {"id": table["AEINRST"]["id"], "correct": True})).json()
    assert [q["correct"] for q in marked["solutions"] if q["alphagram"] == "AEINRST"] == [True]


def test_the_server_clock_ends_the_round_and_a_late_guess_is_refused(client, app_ctx, clock):
    ident = start_wall(client, minutes="1")
    clock.now += 30
    assert client.get(f"/api/wall/{ident}").json()["time_left"] == 30  # the page resyncs to this
    clock.now += 31
    late = client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": "RETAINS"})).json()
    assert late["guess"]["verdict"] == "ended" and late["round"]["timed_out"] and late["solutions"]
    assert {row[0] for row in answers(app_ctx.store)} == {"AEINRST", "AEILRST"}  # both saved missed
    assert all(correct == 0 for _, _, correct in answers(app_ctx.store))


def test_a_blank_wall_shows_question_marks_and_takes_the_words(client):
    response = client.post("/challenge", data={"kind": "blank-bingos", "date": "2026-01-02"}, follow_redirects=False)
    ident = response.headers["location"].rsplit("/", 1)[1]
    cells = client.get(f"/api/wall/{ident}").json()["round"]["cells"]
    assert cells and all(c["tiles"][-1] == "?" for c in cells)
    cell = cells[0]  # (blank bingos are sevens and eights, a few with two blanks)
    letters = Counter(cell["alphagram"].replace("?", ""))
    [word, *_] = [w for w in sorted(WORDS) if len(w) == len(cell["tiles"]) and not letters - Counter(w)]
    verdict = client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": word})).json()["guess"]
    assert verdict["verdict"] == "correct" and verdict["cell"]["found"] == [word]


def test_a_long_list_continues_round_after_round_then_its_missed_list(client):
    ident = start_wall(client, "--length 2-3", size="50", minutes="0")
    first = client.get(f"/api/wall/{ident}").json()
    assert (first["round"]["first"], first["round"]["last"]) == (1, 50) and first["time_left"] is None
    client.post(f"/api/wall/{ident}/give-up", json=on_round(client, ident))
    second = client.post(f"/api/wall/{ident}/next", json=on_round(client, ident)).json()["round"]
    assert second["first"] == 51 and not second["missed_pass"]
    assert "still going" in one_line_error(client.post(f"/api/wall/{ident}/next", json=on_round(client, ident)), 400)


def test_a_wall_left_open_when_the_app_stops_is_found_again_by_the_next_launch(app_ctx, clock):
    """Open rounds are rows of the store: a restarted `lexitrain web` (a new launch on the same progress file)
    finds the wall with every word found, its clock running on; finishing it there keeps every answer."""
    with TestClient(create_app(app_ctx), headers=SAME_ORIGIN) as client:
        client.get("/?key=s3cret")
        ident = start_wall(client)
        client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": "SALTIER"}))
        client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": "RETAINS"}))
        before = client.get(f"/api/wall/{ident}").json()
    assert sorted(answers(app_ctx.store)) == [("AEILRST", "SALTIER", 1)]  # (decided: its only word found)
    clock.now += 30
    again = Context(ProgressStore(app_ctx.store.path), NAME, clock=clock, secret="other", hosts=frozenset({"testserver"}))
    with TestClient(create_app(again), headers=SAME_ORIGIN) as client:
        client.get("/?key=other")
        after = client.get(f"/api/wall/{ident}").json()
        assert after["round"]["cells"] == before["round"]["cells"] and after["time_left"] == before["time_left"] - 30
        assert "RETAINS" in next(c for c in after["round"]["cells"] if c["alphagram"] == "AEINRST")["found"]
        client.post(f"/api/wall/{ident}/give-up", json=on_round(client, ident))
    assert ("AEINRST", "RETAINS", 0) in answers(app_ctx.store)


def test_the_challenge_page_starts_the_days_alphagrams_and_lists_the_attempt(client, app_ctx):
    response = client.post("/challenge", data={"kind": "sevens", "date": "2026-01-02"}, follow_redirects=False)
    ident = response.headers["location"].rsplit("/", 1)[1]
    cells = client.get(f"/api/wall/{ident}").json()["round"]["cells"]
    assert [c["alphagram"] for c in cells] == challenge_keys(app_ctx.lex(), date(2026, 1, 2), "sevens")
    client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": "SALTIER"}))
    client.post(f"/api/wall/{ident}/give-up", json=on_round(client, ident))
    page = client.get("/challenge").text
    assert "2026-01-02" in page and "1/2" in page and "retake" not in page
    assert '<option value="sevens" selected>' in page  # the kind `lexitrain challenge` gives by default
    response = client.post("/challenge", data={"kind": "sevens", "date": "2026-01-02"}, follow_redirects=False)
    again = response.headers["location"].rsplit("/", 1)[1]
    client.post(f"/api/wall/{again}/give-up", json=on_round(client, again))
    history = client.get("/challenge").text.split('id="history"')[1]
    assert history.count("retake") == 1  # the second attempt of the day, as `challenge --history` marks it
    assert one_line_error(client.post("/challenge", data={"kind": "sevens", "date": "2026-13-40"},
                                      headers={"accept": "application/json"}), 400)


# -- reviews, positions ------------------------------------------------------------------------


def test_a_position_card_is_asked_alike_by_the_local_reviews_and_a_clubs_cards(client, app_ctx):
    """The local app's reviews and a club member's cards ask a card with one JSON (`asked_json`): what its kind
    says of it, how it is answered and a position's board; each adds only its own fields."""
    from lexitrain.club import study as club_study
    from lexitrain.web.api import asked_json

    store, lex = app_ctx.store, app_ctx.lex()
    card = store.card(store.ensure_card(NAME, "position", POSITION, 0))
    card.state, card.due = 1, 1.0
    store.save_card(card)
    local = client.post("/api/review").json()["question"]
    _, asked = club_study.question(store, lex, "position", POSITION)
    shared = asked_json(lex, asked)
    assert shared["hint"] == "board" and shared["board"]["rack"] == "AEINRST"
    assert {name: local[name] for name in shared} == shared
    club = club_study.question_json(lex, asked, store.card(card.id))
    assert club == {**shared, "key": POSITION, "card": club["card"]} and club["card"]["key"] == POSITION


def test_a_review_graded_hard_is_stored_and_counted_today(client, app_ctx):
    first = client.post("/api/review").json()
    question = first["question"]
    assert question is not None and first["today"]["new_done"] == 0
    shown = client.post(f"/api/review/{first['id']}/reveal", json=on_question(first)).json()
    assert {w["word"] for w in shown["words"]} == ORACLE["".join(sorted(question["prompt"]))]
    assert not answers(app_ctx.store)  # revealing records nothing
    graded = client.post(f"/api/review/{first['id']}/grade", json=on_question(first, rating=2)).json()
    assert graded["last"]["id"] == question["id"] and graded["today"]["new_done"] == 1
    assert len(answers(app_ctx.store)) == 1
    assert one_line_error(client.post(f"/api/review/{first['id']}/grade", json=on_question(graded, rating=9)), 400)
    typed = client.post(f"/api/review/{first['id']}/answer", json=on_question(graded, text="ZZZ")).json()
    assert typed["last"]["correct"] is False and typed["last"]["words"]  # the answers with their facts


def test_a_review_started_and_left_unanswered_leaves_no_session(client, app_ctx):
    """Before, every start of the reviews page added a sessions row, answered or not (the soak's 556
    drill sessions held a few hundred empty ones); the row is made by the round's first answer."""
    def sessions() -> int:
        return app_ctx.store.conn.execute("SELECT count(*) FROM sessions").fetchone()[0]
    for _ in range(3):
        assert client.post("/api/review").json()["question"] is not None
        assert client.get("/review").status_code == 200
    assert sessions() == 0
    first = client.post("/api/review").json()
    client.post(f"/api/review/{first['id']}/grade", json=on_question(first, rating=3))
    assert sessions() == 1
    assert app_ctx.store.conn.execute("SELECT count(*) FROM sessions WHERE id NOT IN "
                                      "(SELECT session_id FROM answers)").fetchone()[0] == 0


def test_undo_takes_a_review_back_once_and_refuses_when_its_card_moved(client, app_ctx):
    """The page's undo is the terminal's !undo (Session.undo): the answer row and the card as they were
    before, the day's counts with them, the card asked again; a second submit of the same undo takes
    back nothing more (409); and an answer whose card was answered since, elsewhere, stays (409)."""
    store = app_ctx.store
    first = client.post("/api/review").json()
    ident, question = first["id"], first["question"]
    assert one_line_error(client.post(f"/api/review/{ident}/undo", json=on_question(first)), 409) \
        == "nothing to take back: no answer given yet in this round"
    before = store.find_card(NAME, question["kind"], question["prompt"])  # a new card of the plan
    graded = client.post(f"/api/review/{ident}/grade", json=on_question(first, rating=2)).json()
    assert graded["today"]["new_done"] == 1 and len(answers(store)) == 1
    assert store.find_card(NAME, question["kind"], question["prompt"]) != before
    undone = client.post(f"/api/review/{ident}/undo", json=on_question(graded)).json()
    assert undone["undone"]["id"] == question["id"] and undone["question"]["id"] == question["id"]
    assert undone["question"]["number"] == 1 and undone["last"] is None
    assert undone["today"]["new_done"] == 0 and not answers(store)
    assert store.find_card(NAME, question["kind"], question["prompt"]) == before  # the card as it was
    again = client.post(f"/api/review/{ident}/undo", json=on_question(graded))  # the same undo sent twice
    assert "answered already" in one_line_error(again, 409) and not answers(store)

    graded = client.post(f"/api/review/{ident}/grade", json=on_question(undone, rating=3)).json()
    card = store.find_card(NAME, question["kind"], question["prompt"])
    assert card is not None and len(answers(store)) == 1
    with ProgressStore() as other:  # another drill (a quiz in the terminal) answers the same card
        elsewhere = Round(QuizRequest(Words(query=f"--anagram {question['prompt']}"), kind=question["kind"])
                          .start(other, open_lexicon(NAME)))
        elsewhere.answer(" ".join(ORACLE["".join(sorted(question["prompt"]))]))
    moved = store.card(card.id)
    assert moved != card
    refused = client.post(f"/api/review/{ident}/undo", json=on_question(graded))
    assert one_line_error(refused, 409) == "the card was answered again since (in another drill): it stays as it is"
    assert store.card(card.id) == moved and len(answers(store)) == 2  # nothing undone
    assert client.post(f"/api/review/{ident}/grade", json=on_question(graded, rating=3)).status_code == 200


def test_a_valid_or_phony_card_shows_its_word_and_judges_the_choice(client, app_ctx):
    """A card `study from-games` makes of a phony, due now: the word to judge and its choices, then the verdict."""
    from lexitrain.study.quiz.scheduler import LEARNING, utc_now

    store = app_ctx.store
    card = store.card(store.ensure_card(NAME, "valid-or-phony", "ZZZQ", utc_now().timestamp()))
    card.state, card.step, card.due = LEARNING, 0, utc_now().timestamp()
    store.save_card(card)
    first = client.post("/api/review").json()
    question = first["question"]
    assert question["id"] == "valid-or-phony:ZZZQ" and question["hint"] == "choice"
    assert question["word"] == "ZZZQ" and question["choices"] == ["valid", "phony"]
    shown = client.post(f"/api/review/{first['id']}/reveal", json=on_question(first)).json()  # word and verdict
    assert shown["words"] == [{"word": "ZZZQ"}] and shown["details"]["verdict"] == "ZZZQ is a phony"
    refused = client.post(f"/api/review/{first['id']}/answer", json=on_question(first, text="maybe"))
    assert refused.status_code == 200 and refused.json()["refused"] == "answer v (valid) or p (phony)"
    assert refused.json()["question"]["id"] == question["id"] and not answers(store)  # asked again, nothing kept
    last = client.post(f"/api/review/{first['id']}/answer", json=on_question(refused.json(), text="p")).json()["last"]
    assert last["correct"] and last["verdict"] == "ZZZQ is a phony" and last["words"] == [{"word": "ZZZQ"}]


def test_an_illegal_play_is_refused_with_its_reason_and_the_position_stays(client):
    first = client.post("/api/position").json()
    board = first["question"]["board"]
    assert board["rack"] == "AEINRST" and board["rows"][0][0]["premium"] == "TW" and len(board["columns"]) == 15
    refused = client.post(f"/api/position/{first['id']}/play", json=on_question(first, play=ILLEGAL_PLAY)).json()
    assert "SATINER" in refused["refused"] and refused["question"]["id"] == first["question"]["id"]
    assert refused["last"] is None
    verdict = client.post(f"/api/position/{first['id']}/play", json=on_question(refused, play=TOP_PLAY)).json()["last"]
    assert verdict["correct"] and verdict["score"] == TOP_SCORE and verdict["top"]


def test_a_position_round_by_another_judge_says_what_is_missing(client):
    """`by` picks the judge: an unknown one is refused in one line; by simulation with no analysed
    position stored yet says how to make some (the page then shows that line)."""
    bad = client.post("/api/position", json={"by": "luck"})
    assert bad.status_code == 400 and "--by 'luck'" in bad.json()["error"]
    none = client.post("/api/position", json={"by": "sim"})
    assert none.status_code == 400 and "study from-games GAMES --sim-iterations 300" in none.json()["error"]


def test_an_endgame_position_shows_the_opponents_tiles_then_the_values_and_a_best_line(client, app_ctx, real_games):
    """An endgame card (a real game's last turns, solved exactly when stored): the board carries the
    opponent's tiles; a best first play is right and the verdict holds the values and a best line."""
    _, analysis, theirs = solved_real_endgame(open_lexicon(NAME), real_games, app_ctx.store)
    first = client.post("/api/position", json={"by": "endgame"}).json()
    assert first["question"]["by"] == "endgame" and first["question"]["board"]["opponent"] == theirs
    last = client.post(f"/api/position/{first['id']}/play", json=on_question(first, play=analysis["best"][0])).json()
    verdict = last["last"]
    assert verdict["correct"] and verdict["play_value"] == verdict["value"] == analysis["value"]
    assert verdict["sequence"] == analysis["sequence"] and verdict["top"][0]["value"] == analysis["value"]


def test_an_empty_play_passes_and_shows_the_top_plays(client, app_ctx):
    first = client.post("/api/position").json()
    passed = client.post(f"/api/position/{first['id']}/play", json=on_question(first, play=" ")).json()["last"]
    assert not passed["correct"] and passed["legal"] is False and passed["top"][0]["score"] == TOP_SCORE
    assert len(answers(app_ctx.store)) == 1  # a pass is recorded, as an empty line in the terminal quiz


def test_a_round_over_takes_nothing_back(client, app_ctx):
    """The position round of the one stored position ends with its play (and is saved): an undo then is
    refused in one line and the play stays."""
    first = client.post("/api/position").json()
    ident = first["id"]
    played = client.post(f"/api/position/{ident}/play", json=on_question(first, play=TOP_PLAY)).json()
    assert played["question"] is None and played["summary"]["questions"] == 1
    undo = client.post(f"/api/position/{ident}/undo", json=on_question(first))
    assert one_line_error(undo, 409) == "this round is over: nothing to take back"
    assert len(answers(app_ctx.store)) == 1


# -- search, stats, settings --------------------------------------------------------------


def test_search_results_with_hooks_start_a_wall_and_print_a_sheet(client):
    page = client.get("/search?length=3&pattern=A?E").text
    rows = re.findall(r"<tr><td class=\"num\">", page)
    assert len(rows) == 5 and "Start a wall on these" in page  # ACE AGE ALE ARE ATE
    pdf = client.get("/sheet.pdf?length=3&pattern=A?E")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF") and "attachment" in pdf.headers["content-disposition"]
    bad = client.get("/search?length=abc")
    assert bad.status_code == 400 and 'class="notice"' in bad.text


def test_a_search_of_the_whole_lexicon_holds_the_page_of_rows_not_every_row(enable, clock):
    """A search with no condition (a limit past any count) on ENABLE: the page counts every word and shows the
    first 500 in order, and the request's peak memory is that page's, not the 168,551 rows' (207 MB before).
    The counts are written as a reader writes them: 168,551 (the home and search pages said 168551)."""
    whole = run_search(enable, parse_query("--length 1-99"))
    with ProgressStore() as store, TestClient(create_app(Context(store, "enable", clock=clock, secret="s3cret",
                                                                 hosts=frozenset({"testserver"}))),
                                              headers=SAME_ORIGIN) as client:
        home = client.get("/?key=s3cret")
        assert home.status_code == 200 and "Study enable <span class=\"muted\">(168,551 words)</span>" in home.text
        tracemalloc.start()
        try:
            page = client.get("/search?limit=18446744073709551616")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert page.status_code == 200
    assert "<strong>168,551</strong> words (the first 500 shown)" in page.text and len(whole) == 168_551
    shown = re.findall(r'<span class="word">·?([A-Z]+)', page.text)
    assert shown == [row["word"] for row in whole[:500]]
    assert peak < 16 << 20, f"{peak >> 20} MB"


def test_the_search_form_says_starts_with_apart_from_zyzzyvas_takes_prefix(client):
    def words(query: str) -> set[str]:
        page = client.get(f"/search?{query}")
        assert page.status_code == 200, page.text
        return set(re.findall(r"<span class=\"word\">·?([A-Z]+)", page.text))

    assert words("length=3&ends_with=S") == {"ABS", "ADS", "MES"}
    assert words("takes_suffix=S&length=2") == {"AB", "AD", "ME"}  # ABS ADS MES
    assert words("takes_prefix=MES") == {"QUITE"}  # MESQUITE
    assert words("starts_with=MES") == {"MES", "MESQUITE"}


FORM_CASES = [
    ("length", "3", "ACE"), ("probability", "1-3", "RETAINS"), ("anagram", "AEINRST", "NASTIER"),
    ("build", "ACET", "ACE"), ("pattern", "?AT", "RAT"), ("starts_with", "RET", "RETAINS"),
    ("ends_with", "ION", "RELATION"), ("includes", "QU", "MESQUITE"),
    ("takes_prefix", "MES", "QUITE"), ("takes_suffix", "S", "ME"), ("definition", "salty", "SALTIER"),
    ("limit", "1", "AA"), ("order", "probability", "AA"), ("front_hook", "1", "AT"), ("back_hook", "1", "AT"),
    ("playability", "1-1", "QUITE")]


def test_the_search_form_cases_cover_every_field():
    from lexitrain.web.pages import SEARCH_FIELDS, SEARCH_FLAGS

    assert {case[0] for case in FORM_CASES} == set(SEARCH_FIELDS) | set(SEARCH_FLAGS)


@pytest.mark.parametrize("field, value, word", FORM_CASES)
def test_every_field_of_the_search_form_is_a_search_condition(client, field, value, word):
    page = client.get(f"/search?{field}={value}")
    assert page.status_code == 200 and 'id="results"' in page.text, page.text  # nothing the search refuses
    assert f'<span class="word">{word}</span>' in page.text or f'·{word}' in page.text


def test_stats_show_the_tables_and_the_plot(client, app_ctx):
    days = {app_ctx.today()}  # the app's day as the answers are given: this one, or the next across midnight
    ident = start_wall(client)
    client.post(f"/api/wall/{ident}/give-up", json=on_round(client, ident))
    page = client.get("/stats").text
    assert 'id="by-state"' in page and 'id="per-day"' in page and "AEINRST" in page
    coverage = page.split('id="coverage"')[1].split("</table>")[0]  # as `lexitrain stats` prints it
    assert '<td class="head">7s</td><td class="num" data-label="Share of draws">0.00%</td>' in coverage
    assert '<td class="head">8s</td>' in coverage
    answered = page.split('id="chart-answers"')[1].split("</figure>")[0]  # drawn in the page, no image
    days.add(app_ctx.today())
    assert any(f"<span>{day.isoformat()[5:]}</span>" in answered for day in days), (answered, days)
    assert '<span class="num">0/2</span>' in answered
    due = page.split('id="chart-due"')[1].split("</figure>")[0]
    assert due.count('class="bar"') == 1 and "2 due in all 30 days" in due  # today's two cards, no empty days after
    states = page.split('id="chart-states"')[1].split("</figure>")[0]  # nothing in review yet: no bar for it
    counts = [int(n) for n in re.findall(r'<span class="num">(\d+)</span>', states)]
    assert 0 in counts and states.count('class="bar"') == len([n for n in counts if n]), counts


def test_a_running_app_follows_the_lexicon_the_terminal_sets(app_ctx, make_lexicon, monkeypatch):
    """`lexitrain study set --lexicon X` in another terminal reaches a running app at its next request, as its own
    settings form does (it kept the lexicon it started with until restarted); a launch's --lexicon other than the
    player's holds until the player chooses one (even the one they had), and a lexicon is opened once however many
    requests use it."""
    make_lexicon(["QI", "ZA", "XU"], name="other")
    opened: list[str] = []
    monkeypatch.setattr(context_module, "open_lexicon", lambda name: opened.append(name) or open_lexicon(name))
    with TestClient(create_app(app_ctx), headers=SAME_ORIGIN) as client:
        client.get("/?key=s3cret")
        assert f"lexicon {NAME}" in client.get("/search?length=2").text
        assert run("study", "set", "--lexicon", "other").exit_code == 0
        twos = client.get("/search?length=2").text
        assert "lexicon other" in twos and "<strong>3</strong> words" in twos
        assert "lexicon other" in client.get("/settings").text
        saved = client.post("/settings", data={"lexicon": NAME})  # the form and the terminal agree both ways
        assert saved.status_code == 200 and f"lexicon {NAME}" in saved.text
        assert run("study", "show", "--json").json()["lexicon"] == NAME
        assert client.get("/search?length=2").status_code == 200
    assert opened == [NAME, "other"]  # (each opened once for the launch, however often asked)
    with ProgressStore() as store:
        launched = Context(store, "other", secret="s3cret", hosts=frozenset({"testserver"}))  # `web --lexicon other`
        with TestClient(create_app(launched), headers=SAME_ORIGIN) as client:
            client.get("/?key=s3cret")
            assert "lexicon other" in client.get("/search?length=2").text  # (the player's is still NAME: it holds)
            assert run("study", "set", "--new", "12").exit_code == 0
            assert "lexicon other" in client.get("/").text  # (another setting changed)
            assert run("study", "set", "--lexicon", NAME).exit_code == 0  # (set again to what it held: chosen)
            assert f"lexicon {NAME}" in client.get("/search?length=2").text


def test_settings_are_kept_in_the_progress_database(client, app_ctx):
    saved = client.post("/settings", data={"lexicon": NAME, "dark": "1", "letter_order": "eai", "symbols": "1"})
    assert saved.status_code == 200 and "Saved." in saved.text
    assert re.search(r'<body class="dark\s', saved.text)
    assert app_ctx.store.setting("display:letter_order") == "EAI" and app_ctx.store.setting("display:tiles") is False
    assert app_ctx.store.setting("lexicon") == NAME
    ident = start_wall(client)
    assert 'data-order="EAI"' in client.get(f"/wall/{ident}").text
    twice = client.post("/settings", data={"lexicon": NAME, "letter_order": "AA"}, headers=PAGE)
    assert twice.status_code == 400 and "A given twice" in twice.text
    assert '<option value="due" selected>' in client.get("/settings").text
    points = client.post("/settings", data={"lexicon": NAME, "daily_order": "points-per-game"})
    assert points.status_code == 200 and '<option value="points-per-game" selected>' in points.text
    assert app_ctx.store.setting("daily_order") == "points-per-game"  # the drill's order, as `study set --daily-order`
    app_ctx.store.set_setting("daily_order", "points")  # as an older lexitrain kept it: read as points per game
    assert '<option value="points-per-game" selected>' in client.get("/settings").text
    wrong = client.post("/settings", data={"lexicon": NAME, "daily_order": "score"}, headers=PAGE)
    assert wrong.status_code == 400 and "due or points-per-game" in wrong.text


# -- the command ---------------------------------------------------------------------------------


def test_lexitrain_web_prints_the_link_once_it_listens_and_serves_it(tmp_path, enable):
    import os
    import subprocess
    import sys
    import urllib.request
    from http.cookiejar import CookieJar

    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([sys.executable, "-m", "lexitrain", "web", "--port", "0", "--no-browser"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        link = re.search(r"http://127\.0\.0\.1:\d+/\?key=\S+", line)
        assert link, line
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        with opener.open(link.group(0), timeout=60) as page:
            assert page.status == 200 and "Study enable" in page.read().decode()
        taken = int(link.group(0).split(":")[2].split("/")[0])
        busy = subprocess.run([sys.executable, "-m", "lexitrain", "web", "--port", str(taken), "--no-browser"],
                              capture_output=True, text=True, env=env, timeout=30)
        assert busy.returncode != 0 and busy.stderr.count("\n") == 1 and f"cannot listen on 127.0.0.1:{taken}" in busy.stderr
        wrong = subprocess.run([sys.executable, "-m", "lexitrain", "web", "--port", "99999", "--no-browser"],
                               capture_output=True, text=True, env=env, timeout=30)
        assert wrong.returncode != 0 and wrong.stderr == "error: --port 99999: expected 0 (any free port) to 65535\n"
        blank = subprocess.run([sys.executable, "-m", "lexitrain", "web", "--host", "", "--no-browser"],
                               capture_output=True, text=True, env=env, timeout=30)
        assert blank.returncode != 0 and blank.stderr.startswith("error: --host '': give an address")
        assert blank.stderr.count("\n") == 1  # the empty address would have served every network
        unknown = subprocess.run([sys.executable, "-m", "lexitrain", "web", "--port", "0", "--no-browser", "--lexicon",
                                  "nope"], capture_output=True, text=True, env=env, timeout=60)
        assert unknown.returncode == 1 and unknown.stderr.startswith("error: unknown lexicon 'nope'")
        assert unknown.stderr.count("\n") == 1  # (uvicorn's traceback came first)
    finally:
        server.terminate()
        server.wait(timeout=60)


# -- lists a player keeps --------------------------------------------------------------------------


def test_an_uploaded_list_is_played_and_its_record_kept_with_the_words_missed_last_time(client, app_ctx):
    words = "RETAINS\nSALTIER\nDELATION\n"
    up = client.post("/lists", data={"name": "my sevens"}, files={"file": ("mine.txt", words, "text/plain")},
                     follow_redirects=False)
    assert up.status_code == 303 and up.headers["location"] == "/?uploaded=my%20sevens#lists"
    home = client.get("/").text
    assert 'data-list="my sevens"' in home and "No lists yet" not in home
    ident = start_wall(client, "my sevens", source="upload", minutes="0")
    cells = {c["alphagram"] for c in client.get(f"/api/wall/{ident}").json()["round"]["cells"]}
    assert cells == {"AEINRST", "AEILRST", "ADEILNOT"}
    client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": "SALTIER"}))
    client.post(f"/api/wall/{ident}/give-up", json=on_round(client, ident))
    row = client.get("/").text.split('data-list="my sevens"')[1].split("</tr>")[0]
    assert '<td class="num" data-label="Attempts">1</td>' in row and "33%" in row and "(1/3)" in row  # 1 of 3 right
    assert "ADEILNOT" in row and "AEINRST" in row and "Words I missed last time (2)" in row
    missed = client.post("/lists/missed", data={"name": "my sevens"}, follow_redirects=False)
    again = missed.headers["location"].rsplit("/", 1)[1]
    cells = {c["alphagram"] for c in client.get(f"/api/wall/{again}").json()["round"]["cells"]}
    assert cells == {"AEINRST", "ADEILNOT"}  # only what was missed
    bad = client.post("/lists", data={"name": "../x"}, files={"file": ("x.txt", "A\n", "text/plain")},
                      headers=PAGE)
    assert bad.status_code == 400 and "name: up to 60" in bad.text
    binary = client.post("/lists", data={"name": "bin"}, files={"file": ("x.bin", b"\x00\x01", "application/x")},
                         headers=PAGE)
    assert binary.status_code == 400 and "not a text file" in binary.text


def test_the_terminal_quiz_plays_a_list_uploaded_in_the_web_app_by_name(client):
    """`lexitrain quiz --my-list NAME` plays a list the player uploaded (or imported from Zyzzyva) as the web
    app's wall does: its words' questions, and the attempt counted on the home page's record of the list. A
    name that is no list is one line naming the lists there are; another source beside it is refused."""
    up = client.post("/lists", data={"name": "my sevens"},
                     files={"file": ("mine.txt", "RETAINS\nSALTIER\nDELATION\n", "text/plain")}, follow_redirects=False)
    assert up.status_code == 303
    played = run("quiz", "--my-list", "my sevens", "--jsonl", "--lexicon", NAME, input="\n\n\n")
    assert played.exit_code == 0, played.stderr
    out = [json.loads(line) for line in played.stdout.splitlines()]
    asked = [line["question"]["id"] for line in out if "question" in line]
    assert sorted(asked) == ["anagram:ADEILNOT", "anagram:AEILRST", "anagram:AEINRST"]
    assert [(line["summary"]["questions"], line["summary"]["correct"]) for line in out if "summary" in line] == [(3, 0)]
    row = client.get("/").text.split('data-list="my sevens"')[1].split("</tr>")[0]
    assert '<td class="num" data-label="Attempts">1</td>' in row and "(0/3)" in row  # the terminal's attempt
    assert "ADEILNOT" in row and "Words I missed last time (3)" in row
    unknown = run("quiz", "--my-list", "nope", "--jsonl", "--lexicon", NAME, input="")
    assert unknown.exit_code == 1 and unknown.stderr.strip().splitlines()[-1] == (
        "error: no list of yours named 'nope' (your lists: my sevens)")
    both = run("quiz", "--my-list", "my sevens", "--list", "twos", "--lexicon", NAME, input="")
    assert both.exit_code == 1 and "a list of yours is a source of its own" in both.stderr


def test_an_uploaded_list_is_a_row_of_the_store_and_an_earlier_lists_file_is_moved_in(tmp_path, clock):
    """A list lives in the player's store (no file in the data folder: any process of a club plays it); a list an
    earlier lexitrain kept as a file is in the store once the app opens it, a list of the same name kept there stays."""
    make_web_lexicon(tmp_path)
    from lexitrain.paths import data_home

    folder = data_home() / "word-lists"
    folder.mkdir(parents=True)
    (folder / "old sevens.txt").write_text("RETAINS\nSALTIER\n", encoding="utf-8")
    (folder / "kept.txt").write_text("QI\n", encoding="utf-8")
    with ProgressStore() as store:
        store.keep_word_list("kept", "RETAINS\n", 1.0)
        ctx = Context(store, NAME, clock=clock, secret="s3cret", hosts=frozenset({"testserver"}))
        with TestClient(create_app(ctx), headers=SAME_ORIGIN) as client:
            assert client.get("/?key=s3cret").status_code == 200
            assert store.word_list_names() == ["kept", "old sevens"]
            assert store.word_list("old sevens") == "RETAINS\nSALTIER\n" and store.word_list("kept") == "RETAINS\n"
            up = client.post("/lists", data={"name": "new"}, files={"file": ("n.txt", "QI\n", "text/plain")},
                             follow_redirects=False)
            assert up.status_code == 303 and store.word_list("new") == "QI\n"
            assert not (folder / "new.txt").exists()
            ident = start_wall(client, "old sevens", source="upload", minutes="0")
            cells = {c["alphagram"] for c in client.get(f"/api/wall/{ident}").json()["round"]["cells"]}
            assert cells == {"AEINRST", "AEILRST"}
        ctx.close()


def test_a_list_removed_on_home_is_gone_its_removal_kept_and_an_earlier_file_of_it_not_moved_in_again(tmp_path, clock):
    """Remove (on Your lists) takes the list off home and keeps its removal (to travel by sync); a list an earlier
    lexitrain kept as a file, removed, stays removed when the app opens again; removing one not there is a 404."""
    make_web_lexicon(tmp_path)
    from lexitrain.paths import data_home

    folder = data_home() / "word-lists"
    folder.mkdir(parents=True)
    (folder / "old sevens.txt").write_text("RETAINS\nSALTIER\n", encoding="utf-8")
    with ProgressStore() as store:
        for launch in range(2):
            ctx = Context(store, NAME, clock=clock, secret="s3cret", hosts=frozenset({"testserver"}))
            with TestClient(create_app(ctx), headers=SAME_ORIGIN) as client:
                home = client.get("/?key=s3cret").text
                if launch == 0:
                    assert 'data-list="old sevens"' in home and "/lists/remove" in home
                    gone = client.post("/lists/remove", data={"name": "old sevens"}, follow_redirects=False)
                    assert gone.status_code == 303 and gone.headers["location"] == "/?removed=old%20sevens#lists"
                    said = client.get(gone.headers["location"]).text
                    assert "List “old sevens” removed" in said and 'data-list="old sevens"' not in said
                    again = client.post("/lists/remove", data={"name": "old sevens"}, headers=PAGE)
                    assert again.status_code == 404 and "no uploaded list &#39;old sevens&#39;" in again.text
                else:
                    assert 'data-list="old sevens"' not in home and store.word_list_names() == []
            ctx.close()
        assert [(v.name, v.words) for v in store.list_versions()] == [("old sevens", None)]


def test_the_local_apps_pages_offer_no_club_and_no_log_out(client):
    for path in ("/", "/review", "/stats", "/challenge"):
        page = client.get(path).text
        assert 'class="club"' not in page and "data-log-out" not in page, path


def test_a_list_with_a_word_not_in_the_lexicon_is_refused_at_upload_naming_it(client, app_ctx, make_lexicon):
    """The upload says which line is not a word (not Play later, naming a command-line flag and a path); nothing
    is kept. A list played in another lexicon that lacks some of its words says so in the same words."""
    refused = client.post("/lists", data={"name": "typos"}, headers=PAGE,
                          files={"file": ("typos.txt", "RETAINS\n# my comment\nsaltier\nRETIANS\nQI\nXYZZY\n", "text/plain")})
    assert refused.status_code == 400
    assert "list &#39;typos&#39;: line 4: RETIANS and line 6: XYZZY are not words of webtest" in refused.text
    assert "typos" not in client.get("/").text  # nothing kept
    json_error = client.post("/lists", data={"name": "typos"}, files={"file": ("t.txt", "RETIANS\n", "text/plain")})
    assert one_line_error(json_error, 400) == "list 'typos': line 1: RETIANS is not a word of webtest"
    many = "".join(f"ZZ{letter}\n" for letter in "ABCDEFGHIJKL")
    error = one_line_error(client.post("/lists", data={"name": "many"}, files={"file": ("m.txt", many, "text/plain")}), 400)
    assert error.startswith("list 'many': line 1: ZZA, line 2: ZZB") and error.endswith("(and 7 more) are not words of webtest")
    make_lexicon(["RETAINS", "QI"], name="other")  # a lexicon without SALTIER
    up = client.post("/lists", data={"name": "mine"}, files={"file": ("m.txt", "RETAINS\nSALTIER\n", "text/plain")},
                     follow_redirects=False)
    assert up.status_code == 303
    later = client.post("/wall", data={"source": "upload", "value": "mine", "lexicon": "other"}, headers=PAGE)
    assert later.status_code == 400 and "list &#39;mine&#39;: line 2: SALTIER is not a word of other" in later.text
    assert "--skip-invalid" not in later.text and "word-lists" not in later.text


def test_a_practice_wall_moves_no_card_and_stats_count_it_apart(client, app_ctx):
    def cards() -> list[tuple]:
        return app_ctx.store.conn.execute("SELECT * FROM cards ORDER BY id").fetchall()

    before = cards()
    ident = start_wall(client, practice="1")
    client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": "SALTIER"}))
    assert cards() == before
    assert answers(app_ctx.store) == [("AEILRST", "SALTIER", 1)]
    day = client.get("/stats").text.split('id="per-day"')[1].split("</table>")[0]
    assert ('<td class="num" data-label="Answered">1</td><td class="num" data-label="Right">1</td>'
            '<td class="num" data-label="New">0</td><td class="num" data-label="Of them practice">1</td>') in day
    assert "(done 0 reviews, 0 new)" in client.get("/").text  # the day's counts did not move


def test_a_card_answered_on_a_wall_is_done_today_on_the_home_and_reviews_pages(client, app_ctx):
    """Done today counts every card answered today by any route, a wall's as the reviews' own; the limits still
    spend only the daily drill's answers."""
    ident = start_wall(client)
    client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": "SALTIER"}))
    assert answers(app_ctx.store) == [("AEILRST", "SALTIER", 1)]
    assert "(done 0 reviews, 1 new)" in client.get("/").text
    today = client.post("/api/review").json()["today"]
    assert (today["new_answered"], today["reviews_answered"], today["new_done"]) == (1, 0, 0)


def test_a_wall_of_due_cards_honours_the_days_limit_and_leases_its_cards_from_the_daily_drill(client, app_ctx):
    from lexitrain.study.drills.requests import DailyRequest
    from lexitrain.study.quiz.scheduler import utc_now

    review = 2  # fsrs's Review state
    store = app_ctx.store
    now = utc_now().timestamp()
    for key in ("AEINRST", "AEILRST", "ADEILNOT", "AEILNORT"):
        card = store.card(store.ensure_card(NAME, "anagram", key, now))
        card.state, card.due, card.stability, card.difficulty = review, now - 60, 3.0, 5.0
        store.save_card(card)
    store.set_setting("limit:reviews", 3)
    store.set_setting("limit:new", 0)
    ident = start_wall(client, "", source="due")
    cells = {c["alphagram"] for c in client.get(f"/api/wall/{ident}").json()["round"]["cells"]}
    assert len(cells) == 3  # the day's limit, not the four due
    drill = DailyRequest().start(store, app_ctx.lex())  # `lexitrain daily` at the same time
    asked = [question.key for question in drill.questions()]
    assert asked == []  # the 3 on the wall are leased and the limit is reached with them
    drill.finish()
    client.post(f"/api/wall/{ident}/guess", json=on_round(client, ident, {"word": "SALTIER"}))
    client.post(f"/api/wall/{ident}/give-up", json=on_round(client, ident))
    assert DailyRequest().status(store, app_ctx.lex()).reviews_done == 3  # counted as the day's reviews
    assert "reviews are done" in client.post("/wall", data={"source": "due"}, headers=PAGE).text


def test_right_after_an_answer_every_page_shows_the_due_counts_lexitrain_stats_gives(client, app_ctx, monkeypatch):
    """The whole statistics are counted again apart after every change (at 100,000 cards for a second and more,
    slowed so here), and a page shows the last count meanwhile; but the due counts on /stats, the review page
    and the home page are read as the store is now, so right after an answer (a card due again in minutes)
    they are what `lexitrain stats --json` and the day's drill say."""
    from lexitrain.web import context

    counted = context.st.compute

    def slow(*args: object, **kwargs: object) -> object:
        time.sleep(1.0)
        return counted(*args, **kwargs)

    monkeypatch.setattr(context.st, "compute", slow)
    before = re.search(r"<td>all 30 days</td><td class=\"num\">(\d+)</td>", client.get("/stats").text)
    assert before is not None and int(before.group(1)) == 0  # (the first count waited for: nothing due yet)
    first = client.post("/api/review").json()
    graded = client.post(f"/api/review/{first['id']}/grade", json=on_question(first, rating=1)).json()
    assert graded["today"]["due_later_today"] + graded["today"]["due_now"] == 1  # (Again: due in a minute)
    stats = json.loads(run("stats", "--json", "--lexicon", NAME).stdout)
    today = stats["forecast"][0]
    assert today["due"] == 1 and sum(day["due"] for day in stats["forecast"]) == 1
    page = client.get("/stats").text
    assert 'id="counting"' in page  # (the rest of the page is a count behind)
    assert f'<tr><td>{today["date"]}</td><td class="num">1</td></tr>' in page
    assert '<tr><td>all 30 days</td><td class="num">1</td></tr>' in page
    assert "1 due in all 30 days" in client.get("/review").text
    home = re.search(r"Today: (\d+) reviews due now.*?(\d+) later today", client.get("/").text, re.S)
    assert home is not None and int(home.group(1)) + int(home.group(2)) == today["due"]


def test_the_home_page_reads_the_syncs_and_the_kept_club_sessions_once_per_change(client, app_ctx, monkeypatch):
    """The home page shows when the home last synced and a Sync button for each club session kept
    (club-sessions.json, which `lexitrain sync` writes); it reads them again only when they have changed (the
    store, the file), not on every view (before: the syncs counted from the store and the file parsed each time)."""
    from lexitrain.study.records import club_link
    from lexitrain.study.store import PeerRow
    from lexitrain.study.store.exchange import club_peer
    from lexitrain.web import context as web_context

    loaded: list[object] = []
    counted: list[object] = []
    load, status = club_link._load_sessions, web_context.sync_status
    monkeypatch.setattr(club_link, "_load_sessions", lambda path: loaded.append(path) or load(path))
    monkeypatch.setattr(web_context, "sync_status", lambda store: counted.append(store) or status(store))
    club = "https://club.example"
    club_link._save_sessions({club_peer(club, "ann"): club_link.Session("s=1", "t")})
    app_ctx.store.save_peer(PeerRow(club_peer(club, "ann"), "their-id", 0, 0, 1_700_000_000.0))
    for _ in range(3):
        page = client.get("/").text
        assert f"Sync with ann on {club}" in page and f"Synced with ann on {club}: last on" in page
    assert (len(loaded), len(counted)) == (1, 1)
    club_link._save_sessions({**club_link._sessions(), club_peer(club, "bob"): club_link.Session("s=2", "u")})
    page = client.get("/").text
    assert f"Sync with bob on {club}" in page and (len(loaded), len(counted)) == (2, 1)  # the file changed
    app_ctx.store.save_peer(PeerRow(club_peer(club, "bob"), "their-id", 0, 0, 1_700_000_100.0))
    page = client.get("/").text
    assert f"Synced with bob on {club}: last on" in page and (len(loaded), len(counted)) == (2, 2)  # the store did


def test_while_the_statistics_are_a_count_behind_the_due_forecast_is_read_once_per_change(client, app_ctx, monkeypatch):
    """The review page shows the due forecast as the store is now; while the statistics are being counted again
    (slowed here) it is read from the store once per change, not on every view (a third of the readers' CPU under
    bench_web's load), and what it shows follows each answer."""
    from lexitrain.web import context

    counted, forecast, read = context.st.compute, context.st.forecast, []

    def slow(*args: object, **kwargs: object) -> object:
        time.sleep(1.0)
        return counted(*args, **kwargs)

    client.get("/stats")  # (the first count, waited for)
    monkeypatch.setattr(context.st, "compute", slow)
    monkeypatch.setattr(context.st, "forecast", lambda *args: read.append(args) or forecast(*args))
    for rating, due in ((1, 1), (1, 2)):  # (Again: each card due again in a minute)
        first = client.post("/api/review").json()
        client.post(f"/api/review/{first['id']}/grade", json=on_question(first, rating=rating))
        before = len(read)
        for _ in range(3):
            assert f"{due} due in all 30 days" in client.get("/review").text
        assert len(read) == before + 1


def test_a_new_players_first_stats_page_shows_the_counted_figures(make_lexicon):
    """A brand-new home: `lexitrain web` opens the home page, then Stats. The home page sets up the study plan on
    first use, after the launch had counted the statistics ahead: Stats said "The latest answers are still being
    counted" to a player who had answered nothing, without the plan's cards, and again on a reload. Now the plan is
    set up before the count: the first Stats page shows the cards the plan lined up, and no such note."""
    import os
    import subprocess
    import sys
    import urllib.request
    from http.cookiejar import CookieJar

    make_lexicon(sorted(WORDS), name="fresh")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    server = subprocess.Popen([sys.executable, "-m", "lexitrain", "web", "--port", "0", "--no-browser", "--lexicon",
                               "fresh"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert server.stdout is not None
        link = re.search(r"http://127\.0\.0\.1:\d+/\?key=\S+", server.stdout.readline())
        assert link, server.stderr.read() if server.stderr else ""
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        with opener.open(link.group(0), timeout=60) as page:
            assert page.status == 200
        base = link.group(0).split("/?")[0]
        for _ in range(2):
            with opener.open(base + "/stats", timeout=60) as page:
                stats = page.read().decode()
            assert "still being counted" not in stats
            assert 'id="waiting"' in stats  # (the plan's cards, counted)
    finally:
        server.terminate()
        server.wait(timeout=60)
