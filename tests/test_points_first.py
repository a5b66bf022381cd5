"""Points first: words ordered, and cards studied, by the points a game holds in them.

Self-play counts what each word scored; `search --order points-per-game` ranks words by it; with
`study set --daily-order points-per-game` the daily drill asks first the card whose study gains the
most points per minute (its words' points, how likely the player is to miss it now, how long
an answer takes); `stats` shows the points per game the known words cover, week by week.
"""

from __future__ import annotations

import json
import re

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from fsrs.scheduler import DEFAULT_PARAMETERS

from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.leave_table import load_leaves
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.selfplay import SelfPlayer
from lexitrain.lexicon import playability
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.study.quiz.scheduler import Scheduling
from lexitrain.study.records.stakes import Stakes
from lexitrain.study.store import CardRow
from study_helpers import anagram_oracle, lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)
ORACLE = anagram_oracle()
GAMES = 100


def test_each_word_a_play_forms_carries_its_points_and_they_add_up_to_the_score(enable) -> None:
    player = SelfPlayer(MoveGenerator(dawg_for(enable)), enable.layout, load_leaves(enable.tiles))
    for seed in range(4):
        game = player.play(seed, words=True)
        assert sum(points for _, points in game.words) == sum(turn.score for turn in game.turns) > 0
        assert all(points > 0 for _, points in game.words)


def test_search_orders_by_points_a_game_holds(enable) -> None:
    points = enable.points_per_game()
    result = run("search", "--length", "2-3", "--order", "points-per-game", "--words")
    assert result.exit_code == 0, result.stderr
    words = result.stdout.split()
    held = [points.get(w, 0.0) for w in words]
    assert held == sorted(held, reverse=True) and held[0] > 1  # the best two or three holds points every game
    assert {len(w) for w in words[:40]} == {2, 3}  # one order whatever the length
    assert words[:2] == ["XI", "QAT"] and words.index("CWM") > 400  # the X and Q dumps first; CWM hardly ever
    table = run("search", "--length", "2", "--order", "points-per-game", "--limit", "2").stdout.splitlines()
    assert table[0].split()[-2:] == ["Pts/game", "Definition"]  # the figure the order is by, beside each word
    assert table[1].split()[2] == "XI" and f"{points['XI']:.2f}" in table[1].split()
    listed = json.loads(run("search", "--length", "2", "--order", "points-per-game", "--limit", "2", "--json").stdout)
    twos = run("search", "--length", "2", "--order", "points-per-game", "--limit", "2", "--words").stdout.split()
    assert [(w["word"], w["points_per_game"]) for w in listed] == [(w, round(points[w], 4)) for w in twos]
    old = run("search", "--length", "2", "--order", "points", "--limit", "2", "--json")  # the older spelling
    assert json.loads(old.stdout) == listed
    assert "|points-per-game" in run("search", "--help").stdout  # the order named for what it counts...
    faces = run("search", "--length", "2", "--points", "9-", "--words").stdout.split()  # ...not --points, face value
    assert faces == ["AX", "EX", "JO", "OX", "XI", "XU"]


def test_the_web_search_form_names_the_order_points_per_game() -> None:
    from lexitrain.web.pages import ORDERS

    assert "points-per-game" in ORDERS and "points" not in ORDERS


def test_figures_counted_before_points_say_so_in_one_line(small) -> None:
    playability.write(small.folder, {"AA": 3}, None, len, {"games": 1})  # as an older build stored them
    result = run("search", "-l", "small", "--length", "2", "--order", "points-per-game")
    assert result.exit_code == 1 and result.stderr.count("\n") == 1
    assert "counted before points" in result.stderr and "lexicon playability small" in result.stderr


def test_lexicon_playability_stores_points(small) -> None:
    result = run("lexicon", "playability", "small", "--games", "4", "--seed", "2", "--jobs", "1")
    assert result.exit_code == 0, result.stderr
    points = open_lexicon("small").points_per_game()
    assert points and all(value > 0 for value in points.values())
    ordered = run("search", "-l", "small", "--length", "2-8", "--order", "points-per-game", "--words", "--limit", "3")
    assert ordered.stdout.split() == sorted(points, key=lambda w: -points[w])[:3]


@settings(max_examples=60, deadline=None)
@given(stability=st.floats(0.05, 5000), days=st.floats(0, 3000), own_decay=st.none() | st.floats(0.1, 0.8))
def test_the_forgetting_curve_is_fsrs_retrievability(stability: float, days: float, own_decay: float | None) -> None:
    parameters = None if own_decay is None else (*DEFAULT_PARAMETERS[:20], own_decay)
    scheduling = Scheduling(parameters=parameters)
    last = NOW.timestamp()
    card = CardRow(1, "x", "anagram", "AB", 2, None, stability, 5.0, last + 86400, last, 1, 1, 0, 1, last)
    at = last + days * 86400
    assert scheduling.forgetting_curve()(stability, last, at) == pytest.approx(
        scheduling.retrievability(card, datetime.fromtimestamp(at, timezone.utc)))


# -- the daily drill and stats on the small lexicon, with figures written as `lexicon playability` writes them

PLAYED = "OX"  # played often, and scores
RARE = "ABA"  # hardly ever played


def _figures(lex) -> None:
    plays = {w: 1 for w in lex.words()}
    points = {w: 1 for w in lex.words()}
    plays[PLAYED], points[PLAYED] = 90, 1800  # 18 points a game
    playability.write(lex.folder, plays, points, len, {"games": GAMES, "scored": "test figures"})


def _key(word: str) -> str:
    return "anagram:" + "".join(sorted(word))


def _first_question() -> str:
    result = run("daily", "--jsonl", "--lexicon", "small", input="")
    assert result.exit_code == 0, result.stderr
    return of("question", lines(result.stdout))[0]["id"]


@pytest.fixture
def two_cards(small, monkeypatch, tmp_path):
    """A plan of RARE then PLAYED, new; the small lexicon with points figures."""
    _figures(small)
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    words = tmp_path / "two.txt"
    words.write_text(f"{RARE}\n{PLAYED}\n", encoding="utf-8")
    plan = run("study", "plan", "--file", str(words), "--as-listed", "--name", "two", "--lexicon", "small")
    assert plan.exit_code == 0, plan.stderr
    assert run("study", "set", "--new", "5", "--reviews", "100").exit_code == 0
    return small


def test_an_anagram_cards_words_read_per_alphagram_are_those_its_question_shows(two_cards) -> None:
    """The ranking reads an anagram card's scoring words from the lexicon's table, not by building its
    question: the two must agree for every alphagram (and a blank's card still builds its question)."""
    from lexitrain.study.quiz.kinds.base import new_kind
    from lexitrain.study.store import ProgressStore

    kind = new_kind("anagram")
    with ProgressStore() as store:
        stakes = Stakes(store, two_cards, Scheduling())
        alphagrams = {row["alphagram"] for row in two_cards.rows()}
        assert len(alphagrams) > 20
        for key in alphagrams:
            shown = [w for w in kind.build(two_cards, key).words_shown if w in stakes.points]
            assert list(stakes.scoring_words("anagram", key)) == shown, key
        assert stakes.worth("anagram", "OX") == pytest.approx(18 + stakes.points.get("XO", 0))
        assert set(stakes.scoring_words("anagram", "O?")) >= {"OX", "XO"} & set(stakes.points)


def test_new_cards_by_points_per_minute(two_cards) -> None:
    assert _first_question() == _key(RARE)  # the plan's order
    bad = run("study", "set", "--daily-order", "score")
    assert bad.exit_code == 1 and bad.stderr.count("\n") == 1 and "due or points-per-game" in bad.stderr
    assert run("study", "set", "--daily-order", "points-per-game").exit_code == 0
    assert "points per game per minute" in run("study", "show").stdout
    assert json.loads(run("study", "show", "--json").stdout)["daily_order"] == "points-per-game"
    assert _first_question() == _key(PLAYED)
    assert run("study", "set", "--daily-order", "due").exit_code == 0
    assert _first_question() == _key(RARE)


def test_a_card_often_played_and_often_missed_comes_before_a_rare_word_known(two_cards) -> None:
    from lexitrain.study.store import ProgressStore

    day = 86400.0
    now = NOW.timestamp()
    with ProgressStore() as store, store.transaction():  # a history: RARE known for a month, PLAYED missed 5 times
        store.conn.execute("UPDATE cards SET state = 2, stability = 30, difficulty = 5, last_review = ?, due = ?, "
                           "correct = 4, incorrect = 0 WHERE key = ?", (now - 32 * day, now - 2 * day, "AAB"))
        store.conn.execute("UPDATE cards SET state = 2, stability = 2, difficulty = 9, last_review = ?, due = ?, "
                           "correct = 3, incorrect = 5 WHERE key = ?", (now - 3 * day, now - 1 * day, "OX"))
    assert _first_question() == _key(RARE)  # the usual order: the most overdue first
    assert run("study", "set", "--daily-order", "points").exit_code == 0
    assert _first_question() == _key(PLAYED)
    with ProgressStore() as store:
        scheduling = Scheduling()
        rare, played = (store.find_card("small", "anagram", key) for key in ("AAB", "OX"))
        assert rare is not None and played is not None
        recall = scheduling.forgetting_curve()
        assert recall(rare.stability, rare.last_review, now) > recall(played.stability, played.last_review, now)


def test_stats_show_the_points_the_known_words_cover_and_how_they_grew(two_cards, monkeypatch) -> None:
    before = json.loads(run("stats", "--lexicon", "small", "--json").stdout)["points"]
    assert before["covered"] == 0 and before["share"] == 0
    answers = [" ".join(sorted(ORACLE["".join(sorted(w))])) for w in (RARE, PLAYED)]
    assert run("daily", "--jsonl", "--lexicon", "small", input="\n".join(answers) + "\n").exit_code == 0
    monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(days=9)).isoformat())
    assert run("daily", "--jsonl", "--lexicon", "small", input="\n".join(answers) + "\n").exit_code == 0
    report = json.loads(run("stats", "--lexicon", "small", "--json").stdout)["points"]
    total = sum(open_lexicon("small").points_per_game().values())
    assert report["points_per_game"] == pytest.approx(total, abs=0.01)
    weeks = [w["covered"] for w in report["weeks"]]
    assert len(weeks) == 9 and weeks[:7] == [0.0] * 7  # nothing known before the first answers
    assert 0 < weeks[7] and 18 < report["covered"] <= 18.02 + 0.01  # OX's 18 points, ABA's 0.01, recalled now
    assert weeks[-1] == report["covered"]
    text = run("stats", "--lexicon", "small").stdout
    assert "points at stake: the words you know cover" in text and "week by week" in text
    from lexitrain.study.records.stats import charts, compute
    from lexitrain.study.store import ProgressStore

    with ProgressStore() as store:
        figure = charts(compute(store, "small", two_cards, points=True))
    line = next(ax for ax in figure.axes if ax.get_title().startswith("Points per game your words cover"))
    assert [round(y, 2) for y in line.lines[0].get_ydata()] == weeks  # the chart draws the figures shown


def test_the_web_stats_page_shows_the_points_covered_as_lexitrain_stats_does(two_cards, monkeypatch) -> None:
    from starlette.testclient import TestClient

    from lexitrain.study.store import ProgressStore
    from lexitrain.web.app import create_app
    from lexitrain.web.context import Context

    answers = [" ".join(sorted(ORACLE["".join(sorted(w))])) for w in (RARE, PLAYED)]
    assert run("daily", "--jsonl", "--lexicon", "small", input="\n".join(answers) + "\n").exit_code == 0
    monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(days=9)).isoformat())
    report = json.loads(run("stats", "--lexicon", "small", "--json").stdout)["points"]
    with ProgressStore() as store, TestClient(create_app(Context(store, "small", secret="k", hosts=frozenset(
            {"testserver"}))), headers={"Sec-Fetch-Site": "same-origin"}) as client:
        assert client.get("/?key=k").status_code == 200
        page = client.get("/stats").text
    said = page.split('id="points-covered"')[1].split("</p>")[0]
    assert f"<strong>{report['covered']:.1f}</strong> of the {report['points_per_game']:.1f} points" in said
    weeks = page.split('id="points-weeks"')[1].split("</table>")[0]
    shown = [float(cell) for cell in re.findall(r'<td class="num">([\d.]+)</td>', weeks)]
    assert shown == [round(w["covered"], 1) for w in report["weeks"]] and shown[-1] > 0
    drawn = page.split('id="chart-points"')[1].split("</figure>")[0].count('class="bar"')
    assert drawn == len([w for w in report["weeks"] if w["covered"] > 0]) < len(report["weeks"])  # no bar for 0
