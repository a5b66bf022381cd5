"""The read-the-rack quiz (`kinds/read_rack.py`): cards made from games with `study from-games --read-rack`,
asked in JSON lines and in the terminal, judged against the rack the game recorded and the inference."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lexitrain.engine import movegen
from lexitrain.study.quiz.kinds.read_rack import KIND
from lexitrain.study.quiz.scheduler import utc_now
from lexitrain.study.store import ProgressStore
from tests.cli_runner import run

compiled_only = pytest.mark.skipif(movegen.compiled is None or not hasattr(movegen.compiled, "best"),
                                   reason="compiled search not built")
#: Josh's nationals, round 11: both racks recorded on some turns; one card has the real leave Q (after HATTED)
GAME = "woogles-io__liwords__pkg__stats__testdata__josh_nationals_round_11.gcg"


def only_read_rack_due() -> list[str]:
    """The read-rack cards' keys in the order they are asked (due a second apart); every other card made
    beside them put off for a year."""
    keys = []
    now = utc_now().timestamp()
    with ProgressStore() as store, store.transaction():
        for card in store.due_cards("enable", now, 1000):
            if card.kind == KIND:
                card.due = now - 100 + len(keys)
                keys.append(card.key)
            else:
                card.due = now + 365 * 86400
            store.save_card(card)
    return keys


@pytest.fixture
def cards(enable, real_games: Path) -> list[str]:
    made = run("study", "from-games", str(real_games / GAME), "--read-rack", "--json")
    assert made.exit_code == 0, made.stderr
    doc = made.json()
    keys = doc["keys"][KIND]
    assert doc["cards"][KIND] == len(keys) >= 3
    assert all(" lm " in key and key.endswith(";") for key in keys)
    asked = only_read_rack_due()
    assert sorted(asked) == sorted(keys)
    return asked


def analysis_of(key: str) -> dict:
    with ProgressStore() as store:
        return json.loads(store.position_analysis("enable", key) or "null")


@compiled_only
def test_a_card_keeps_the_real_leave_and_the_reading_and_the_quiz_judges_by_them(cards: list[str]) -> None:
    hatted = next(key for key in cards if key.endswith("lm M2.HATTED;"))
    kept = analysis_of(hatted)
    assert kept["real"] == "Q" and kept["kept"] == 1 and kept["best"] == ["Q"]
    probabilities = [p for _, p in kept["leaves"]]
    assert probabilities == sorted(probabilities, reverse=True) and 0.99 < sum(probabilities) <= 1.0001
    assert dict(kept["leaves"])["Q"] == kept["real_probability"] and kept["real_rank"] >= 1
    assert "Q" not in hatted  # the leave kept is nowhere in the question's id
    others = [k for k in cards if k != hatted]
    unknown = next(analysis_of(k) for k in others if analysis_of(k)["real"] is None)
    assert unknown["best"] == [leave for leave, _ in unknown["leaves"][:5]]

    # the cards in the order asked: the HATTED one answered Q, each other a refused line then nothing
    lines = []
    for key in cards:
        lines += ["Q"] if key == hatted else ["ZZZZ", ""]
    asked = run("quiz", "--due", "--jsonl", input="\n".join(lines) + "\n")
    assert asked.exit_code == 0, asked.stderr
    said = [json.loads(line) for line in asked.stdout.splitlines()]
    questions = [line["question"] for line in said if "question" in line]
    results = [line["result"] for line in said if "result" in line]
    refused = [line["refused"] for line in said if "refused" in line]
    assert {q["kind"] for q in questions} == {KIND} and len(questions) == len(cards)
    first = questions[cards.index(hatted)]
    assert "cgp" in first and first["asks"] == "What did your opponent keep?" and first["highlight"]
    assert "Q" not in json.dumps(first).replace(first["id"], "").replace(first["cgp"], "").replace("?", "")
    by_id = {r["id"]: r for r in results}
    hit = by_id[f"{KIND}:{hatted}"]
    assert hit["correct"] is True and hit["real"] == "Q" and hit["verdict"][0] == "They kept Q"
    assert hit["table"]["columns"] == ["leave", "inference"] and len(hit["table"]["rows"]) == 8
    assert all("name" in r["reason"] for r in refused) and len(refused) == len(others)
    assert all(not r["correct"] for r in results if r["id"] != f"{KIND}:{hatted}")  # empty answers: missed
    unknown_key = next(k for k in others if analysis_of(k)["real"] is None)
    assert by_id[f"{KIND}:{unknown_key}"]["verdict"][0] == (  # no answer: what would have been right
        "The game did not record their rack: the inference's 5 likeliest are " + ", ".join(unknown["best"]))


@compiled_only
def test_in_the_terminal_the_move_is_said_and_the_verdict_names_the_leave_kept(cards: list[str]) -> None:
    hatted = next(key for key in cards if key.endswith("lm M2.HATTED;"))
    kept = analysis_of(hatted)
    lines = []  # a wrong leave for HATTED (I), nothing for the others
    for key in cards:
        lines.append("I" if key == hatted else "")
    done = run("quiz", "--due", input="\n".join(lines) + "\n")
    assert done.exit_code == 0, done.stderr
    out = done.stdout
    assert "Your opponent played M2 HATTED for 34, keeping 1 tile." in out
    assert "What did your opponent keep?" in out and "type the 1 tile they kept (? for a blank)" in out
    assert "They kept Q; you said I: 0 of 1 tiles right" in out
    assert f"Q {100 * kept['real_probability']:.1f}% (rank {kept['real_rank']})" in out
    assert "leave  inference" in out


def test_a_read_rack_card_needs_its_stored_reading(enable) -> None:
    from lexitrain.errors import LexitrainError
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.quiz.kinds.base import new_kind

    kind = new_kind(KIND)
    with ProgressStore() as store:
        kind.use_store(store)  # type: ignore[attr-defined]
        with pytest.raises(LexitrainError, match="analysis"):
            kind.build(open_lexicon("enable"), "15/15/15/15/15/15/15/3QUITE7/15/15/15/15/15/15/15 AEINRST/ 0/48 0 "
                                              "lm 8D.QUITE;")
