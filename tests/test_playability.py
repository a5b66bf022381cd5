"""Playability as a player meets it: `lexicon playability` counts the words the equity player plays and
stores them in the lexicon; `search --order playability` and `--playability 1-N` (saved searches, quizzes,
sheets and the web search read the same query); the same figures from the same seeds on one process, on
several, and on a Dask cluster."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from lexitrain.engine import movegen
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.leave_table import load_leaves
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.playability import count_plays, setup_for
from lexitrain.engine.selfplay import SelfPlayer
from lexitrain.lexicon import playability
from lexitrain.lexicon.catalog import open_lexicon
from tests.cli_runner import run

pytestmark = pytest.mark.skipif(movegen.compiled is None, reason="the compiled move generator is not built")


def test_ranks_count_within_each_length_most_played_first_ties_by_word() -> None:
    plays = {"QI": 9, "ZA": 9, "AA": 3, "QAT": 1, "CAT": 4, "DOG": 0}
    assert playability.ranked(plays, len) == [
        ("QI", 2, 9, 1), ("ZA", 2, 9, 2), ("AA", 2, 3, 3), ("CAT", 3, 4, 1), ("QAT", 3, 1, 2)]


def test_the_command_stores_what_the_games_played_and_search_orders_and_filters_by_it(enable) -> None:
    lex = open_lexicon("cel")  # the shipped figures are ENABLE's: CEL has none until counted
    assert not lex.has_playability
    missing = run("search", "-l", "cel", "--length", "2", "--order", "playability")
    assert missing.exit_code == 1 and missing.stderr.count("\n") == 1 and "no playability figures" in missing.stderr
    result = run("lexicon", "playability", "cel", "--games", "6", "--seed", "3", "--jobs", "1", "--json")
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["games"] == 6 and report["plays"] > 50
    # the same six games, played here: what they formed is what was stored
    player = SelfPlayer(MoveGenerator(dawg_for(lex)), lex.layout, load_leaves(lex.tiles))  # type: ignore[arg-type]
    expected: Counter[str] = Counter()
    scored: Counter[str] = Counter()
    for number in range(6):
        for word, points in player.play(3 * 10**9 + number, words=True, draw_ties=True).words:
            expected[word] += 1
            scored[word] += points
    assert report["plays"] == sum(expected.values()) and report["words"] == len(expected)
    # how steady the ranks are, by length: the halves' Spearman and the games that would make it 0.9
    assert {"words", "spearman", "top_overlap", "games_for_0.9"} <= set(report["stability"]["2"])
    assert -1 <= report["stability"]["2"]["spearman"] <= 1
    assert open_lexicon("cel").points_per_game() == {word: points / 6 for word, points in scored.items()}
    twos = sorted((w for w in expected if len(w) == 2), key=lambda w: (-expected[w], w))
    found = run("search", "-l", "cel", "--length", "2", "--order", "playability", "--words").stdout.split()
    assert found[: len(twos)] == twos  # the played ones first, most played first
    assert set(found) == set(run("search", "-l", "cel", "--length", "2", "--words").stdout.split())
    top = run("search", "-l", "cel", "--length", "2", "--playability", "1-3", "--order", "playability",
              "--words").stdout.split()
    assert top == twos[:3]
    negated = run("search", "-l", "cel", "--length", "2", "--not-playability", "1-3", "--words").stdout.split()
    assert not set(negated) & set(top) and len(negated) == len(found) - 3
    said = run("lexicon", "playability", "cel", "--games", "6", "--seed", "3", "--jobs", "1")  # as a player reads it
    assert said.exit_code == 0 and "How steady the ranks are" in said.stdout
    steady = report["stability"]["2"]
    assert f"   2 letters: {steady['spearman']:6.3f} over the top {steady['words']}" in said.stdout


def test_saved_searches_sheets_and_quizzes_take_playability(enable, tmp_path) -> None:
    assert open_lexicon("enable").has_playability  # shipped with ENABLE
    saved = run("search", "--length", "7", "--playability", "1-20", "--order", "playability", "--save", "played7",
                "--words")
    assert saved.exit_code == 0, saved.stderr
    words = saved.stdout.split()
    assert len(words) == 20
    assert run("search", "--load", "played7", "--words").stdout.split() == words
    out = tmp_path / "sevens.csv"
    sheet = run("sheet", "hooks", "--search", "--length 7 --playability 1-20 --order playability", "--out", str(out))
    assert sheet.exit_code == 0, sheet.stderr
    assert words[0] in out.read_text(encoding="utf-8")
    quiz = run("quiz", "--search", "--length 7 --playability 1-5", "--jsonl", "--limit", "5", input="")
    assert quiz.exit_code == 0, quiz.stderr


def test_a_local_dask_cluster_counts_what_plain_processes_count(enable) -> None:
    distributed = pytest.importorskip("distributed")
    setup = setup_for(enable)
    here = count_plays(setup, 6, seed=5, jobs=1, chunk=2)
    processes = count_plays(setup, 6, seed=5, jobs=2, chunk=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on_dask = count_plays(setup, 6, seed=5, scheduler=cluster.scheduler_address, chunk=2)
    assert here.plays == processes.plays == on_dask.plays and sum(here.plays.values()) > 50
    assert here.halves == processes.halves == on_dask.halves  # the games of even and of odd seed, however run
    assert here.halves[0] + here.halves[1] == here.plays
    assert here.points == processes.points == on_dask.points and here.points.keys() == here.plays.keys()
    assert on_dask.where.startswith("dask ") and processes.where == "2 processes"
    other = count_plays(setup, 6, seed=6, jobs=1, chunk=2)
    assert other.plays != here.plays  # another seed, other games


def test_the_shipped_figures_count_words_not_the_tie_break() -> None:
    """ENABLE's shipped figures were counted with tied plays drawn: the nine anagrams of AEINRST,
    which tie wherever one fits, are played about alike (ANESTRI was counted 519 times and STEARIN
    48 when the first by placement took every tie), and the header says how steady each length is."""
    from lexitrain.lexicon.playability import read_shipped, shipped_dir

    meta, plays, points, even = read_shipped(shipped_dir() / "enable.tsv")
    assert "drawn" in meta["ties"] and points is not None and even is not None
    anagrams = [plays[w] for w in ("ANESTRI", "ANTSIER", "NASTIER", "RATINES", "RETAINS", "RETINAS", "RETSINA",
                                   "STAINER", "STEARIN")]
    assert 1 / 2 <= plays["ANESTRI"] / plays["STEARIN"] <= 2 and max(anagrams) <= 3 * min(anagrams)
    steady = meta["stability"]
    assert steady["2"]["spearman"] > 0.99 and steady["3"]["spearman"] > 0.95
    assert all(-1 <= steady[str(n)]["spearman"] <= 1 for n in range(2, 9))


def test_stability_reads_noise_as_zero_and_a_clear_order_as_steady() -> None:
    """Two halves of counts drawn at random (Poisson, numpy's seeded generator): words of one
    true rate read about 0 whatever their counts (chosen by the whole count, rare words' halves
    would disagree by construction and read negative); words of well spread rates read near 1;
    the games needed are estimated only once the words compared are played often enough."""
    import numpy as np

    from lexitrain.engine.playability import stability

    rng = np.random.default_rng(35)
    words = [f"W{i:04d}" for i in range(1500)]
    for rate, expect in ((0.7, (-0.15, 0.15)), (3.0, (-0.15, 0.15))):
        halves = tuple({w: int(n) for w, n in zip(words, rng.poisson(rate, len(words)))} for _ in range(2))
        steady = stability(halves, lambda word: 5)[5]
        assert expect[0] < steady.spearman < expect[1], (rate, steady)
        assert steady.words == 1000
    rates = np.linspace(5, 400, len(words))
    halves = tuple({w: int(n) for w, n in zip(words, rng.poisson(rates))} for _ in range(2))
    steady = stability(halves, lambda word: 7)[7]
    assert steady.spearman > 0.95 and steady.games_for(1000) == 1000
    noisy = tuple({w: int(n) for w, n in zip(words, rng.poisson(rates / 20))} for _ in range(2))
    rough = stability(noisy, lambda word: 7)[7]
    assert 0.3 < rough.spearman < 0.9 and rough.games_for(1000) is not None and rough.games_for(1000) > 1000
    rare = tuple({w: int(n) for w, n in zip(words, rng.poisson(rates / 400))} for _ in range(2))
    assert stability(rare, lambda word: 7)[7].games_for(1000) is None  # the 1,000th word played too rarely to say


def test_an_unreachable_scheduler_is_one_line(enable) -> None:
    pytest.importorskip("distributed")
    result = run("lexicon", "playability", "enable", "--games", "2", "--scheduler", "tcp://127.0.0.1:9")
    assert result.exit_code == 1 and result.stderr.startswith("error: cannot reach the Dask scheduler")


def test_the_web_search_form_filters_and_orders_by_playability(tmp_path) -> None:
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from lexitrain.study.store import ProgressStore
    from lexitrain.web.app import create_app
    from lexitrain.web.context import Context
    from tests.web_helpers import NAME, make_web_lexicon

    lex = make_web_lexicon(tmp_path)
    twos = [w for w in lex.words() if len(lex.tiles.encode(w)) == 2]
    plays = {w: 10 * (i + 1) for i, w in enumerate(twos[:3])}  # the third two the most played
    playability.write(lex.folder, plays, None, lambda w: len(lex.tiles.encode(w)), {"games": 0})
    context = Context(ProgressStore(), NAME, secret="s3cret", hosts=frozenset({"testserver"}))
    with context.store, TestClient(create_app(context), headers={"origin": "http://testserver"}) as client:
        assert client.get("/?key=s3cret").status_code == 200
        page = client.get("/search?length=2&playability=1-2&order=playability").text
    first, second, third = twos[2], twos[1], twos[0]
    assert first in page and second in page and third not in page
    assert page.index(first) < page.index(second)
