"""A member's study on the club server, on SQLite and on a real PostgreSQL: the due cards asked as
the local app asks them, answers checked and scheduled by the real FSRS scheduler and kept as
reviews; only the member's own cards; and no lost update: two devices answering one card at once
(a barrier between each one's read and write) schedule it once, the other refused with nothing
recorded, and a study answer never overwrites a challenge's scheduling or is overwritten by it."""

from __future__ import annotations

import threading
from datetime import datetime, timezone
from typing import Any

import pytest

from lexitrain.club import cards, study
from lexitrain.club.app import Club
from lexitrain.club.cards import Moved, member_cards, read_card, review_cards
from lexitrain.club.members import member_named
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.quiz.scheduler import AGAIN, GOOD, Scheduling
from test_club_api import KIND, club, lex, member, play  # noqa: F401  (the fixtures too)

DAY = 86400.0


def reviews(club: Club, source: str | None = None) -> list[tuple[Any, ...]]:
    columns = "SELECT kind, key, source, given, correct, rating FROM member_reviews"
    with club.db.transaction() as tx:
        if source is None:
            return tx.rows(f"{columns} ORDER BY id")
        return tx.rows(f"{columns} WHERE source = ? ORDER BY id", (source,))


def test_a_member_studies_their_due_cards_in_the_fsrs_order(club: Club, lex: Lexicon) -> None:
    ann, csrf = member(club, "ann")
    bob, bob_csrf = member(club, "bob")
    assert ann.get("/api/study").json() == {"due": 0, "questions": []}
    play(ann, csrf, club, lex, 1, 10)  # (the challenge made ann's cards: one right, the rest missed)
    chosen = club.sets.get(KIND, club.today())
    club.clock.now += DAY  # type: ignore[attr-defined]
    got = ann.get("/api/study?limit=50").json()
    assert got["due"] == chosen.total == len(got["questions"])
    before = {q["key"]: q for q in got["questions"]}
    assert set(before) == set(chosen.keys)
    first = got["questions"][0]
    assert first["prompt"] and first["answers"] == len(chosen.answers[first["key"]]) and first["card"]["version"] == 1
    key = first["key"]
    words = " ".join(w.lower() for w in chosen.answers[key])
    said = ann.post("/api/study/answer", json={"kind": first["kind"], "key": key, "answer": words,
                                                "version": first["card"]["version"]}, headers={"x-csrf-token": csrf})
    assert said.status_code == 200, said.text
    result = said.json()
    expected = Scheduling().grade(read_as(before[key]), GOOD, datetime.fromtimestamp(club.clock(), timezone.utc))
    assert result["correct"] and result["missing"] == [] and result["card"]["version"] == 2
    assert (result["card"]["due"], result["card"]["stability"]) == (expected.due, expected.stability)
    assert result["card"]["due"] > club.clock()
    after = ann.get("/api/study?limit=50").json()
    assert after["due"] == chosen.total - 1 and key not in {q["key"] for q in after["questions"]}
    second = after["questions"][0]
    missed = ann.post("/api/study/answer", json={"kind": second["kind"], "key": second["key"], "answer": "zzz",
                                                  "version": second["card"]["version"]}, headers={"x-csrf-token": csrf})
    assert missed.json()["correct"] is False and missed.json()["expected"] == list(chosen.answers[second["key"]])
    assert missed.json()["card"]["incorrect"] == second["card"]["incorrect"] + 1
    stale = ann.post("/api/study/answer", json={"kind": second["kind"], "key": second["key"], "answer": "zzz",
                                                 "version": second["card"]["version"]}, headers={"x-csrf-token": csrf})
    assert stale.status_code == 409 and "elsewhere" in stale.json()["error"]
    assert [row[2:] for row in reviews(club, "study")] == [("study", words, True, GOOD), ("study", "zzz", False, AGAIN)]
    by_key = {card["key"]: card for card in ann.get("/api/cards").json()}
    assert by_key[key]["correct"] == before[key]["card"]["correct"] + 1
    # bob has none of ann's cards: nothing due, and answering one of hers is his own unknown card
    assert bob.get("/api/study").json() == {"due": 0, "questions": []}
    stolen = bob.post("/api/study/answer", json={"kind": second["kind"], "key": second["key"], "answer": "zzz",
                                                  "version": 3}, headers={"x-csrf-token": bob_csrf})
    assert stolen.status_code == 404
    assert ann.get("/api/cards").json() == list(by_key.values())


def read_as(question: dict[str, Any]) -> Any:
    from lexitrain.study.store import CardRow

    card = question["card"]
    return CardRow(0, card["lexicon"], card["kind"], card["key"], *(card[f] for f in cards.CARD_FIELDS))


def test_bad_answers_are_one_line_400s_and_record_nothing(club: Club, lex: Lexicon) -> None:
    ann, csrf = member(club, "ann")
    play(ann, csrf, club, lex, 0, 10)
    club.clock.now += DAY  # type: ignore[attr-defined]
    first = ann.get("/api/study").json()["questions"][0]
    sent = {"kind": first["kind"], "key": first["key"], "answer": "x", "version": first["card"]["version"]}
    for bad in ({**sent, "version": "2"}, {**sent, "rating": 7}, {k: v for k, v in sent.items() if k != "key"}):
        refused = ann.post("/api/study/answer", json=bad, headers={"x-csrf-token": csrf})
        assert refused.status_code == 400 and "\n" not in refused.json()["error"], bad
    assert ann.get("/api/study?limit=0").status_code == 400 and ann.get("/api/study?limit=x").status_code == 400
    assert reviews(club, "study") == []
    graded = ann.post("/api/study/answer", json={**sent, "rating": 4}, headers={"x-csrf-token": csrf}).json()
    assert graded["correct"] and reviews(club, "study")[0][-1] == 4  # (self-graded Easy, whatever was typed)


def due_question(club: Club, lex: Lexicon) -> tuple[int, dict[str, Any]]:
    ann, csrf = member(club, "ann")
    play(ann, csrf, club, lex, 0, 10)
    club.clock.now += DAY  # type: ignore[attr-defined]
    found = member_named(club.db, "ann")
    assert found is not None
    return found.id, study.due(club.db, lex, found.id, club.clock())["questions"][0]


def test_two_devices_answering_one_card_at_once_schedule_it_once(club: Club, lex: Lexicon) -> None:
    """Both answers read the card at one version, then meet at a barrier, then write: one is taken,
    the other refused (Moved, 409) with nothing recorded: the card moved by exactly one answer."""
    member_id, asked = due_question(club, lex)
    kind, key, version = asked["kind"], asked["key"], asked["card"]["version"]
    right = " ".join(club.sets.get(KIND, club.today()).answers[key])
    barrier = threading.Barrier(2, timeout=30)
    outcomes: dict[str, Any] = {}

    def device(name: str, given: str) -> None:
        try:
            outcomes[name] = study.answer(club.db, lex, member_id, kind, key, given, version, club.clock(),
                                          before_write=barrier.wait)
        except Moved as moved:
            outcomes[name] = moved

    threads = [threading.Thread(target=device, args=args) for args in (("phone", right), ("laptop", "zzz"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(type(o).__name__ for o in outcomes.values()) == ["Moved", "dict"]
    taken = next(o for o in outcomes.values() if isinstance(o, dict))
    with club.db.transaction() as tx:
        stored = read_card(tx, member_id, lex.name, kind, key)
    assert stored is not None and stored[1] == version + 1
    assert stored[0].correct + stored[0].incorrect == asked["card"]["correct"] + asked["card"]["incorrect"] + 1
    assert (stored[0].correct > asked["card"]["correct"]) == taken["correct"]
    assert len(reviews(club, "study")) == 1


def test_a_study_answer_never_overwrites_a_challenges_scheduling(club: Club, lex: Lexicon) -> None:
    """Between the study answer's read and its write a shared wall schedules the same card: the study
    answer is refused (it would have scheduled from the old state), the wall's review stands."""
    member_id, asked = due_question(club, lex)
    kind, key, version = asked["kind"], asked["key"], asked["card"]["version"]

    def wall_finds_it() -> None:
        with club.db.transaction() as tx:
            review_cards(tx, member_id, lex.name, [(kind, key, True)], club.clock(), "table")

    with pytest.raises(Moved):
        study.answer(club.db, lex, member_id, kind, key, "zzz", version, club.clock(), before_write=wall_finds_it)
    card = next(c for c in member_cards(club.db, member_id) if c["key"] == key)
    assert card["correct"] == asked["card"]["correct"] + 1 and card["incorrect"] == asked["card"]["incorrect"]
    assert reviews(club, "study") == [] and [r[2] for r in reviews(club, "table")] == ["table"]


def test_a_challenges_scheduling_reads_again_when_a_study_answer_moved_the_card(club: Club, lex: Lexicon,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A review that must land (a finish, a find) reads the card, another device's answer is committed,
    then it writes: its write sees the card moved, reads again and schedules from the new state; both
    answers count. (PostgreSQL: on SQLite the reviewing transaction holds the write lock from its start,
    so nothing commits in between.)"""
    if not club.db.postgres:
        pytest.skip("on SQLite a transaction that writes holds the file's write lock from its start")
    member_id, asked = due_question(club, lex)
    kind, key, version = asked["kind"], asked["key"], asked["card"]["version"]
    real_read = cards.read_card
    reads: list[int | None] = []

    def read_then_another_device_answers(*args: Any) -> Any:
        found = real_read(*args)
        reads.append(None if found is None else found[1])
        if len(reads) == 1:  # (another connection, committed before this transaction writes)
            done = threading.Thread(target=study.answer, args=(club.db, lex, member_id, kind, key, "zzz", version,
                                                               club.clock()))
            done.start()
            done.join(30)
        return found

    monkeypatch.setattr(cards, "read_card", read_then_another_device_answers)
    with club.db.transaction() as tx:
        review_cards(tx, member_id, lex.name, [(kind, key, True)], club.clock(), "table")
    assert reads == [version, version + 1]
    card = next(c for c in member_cards(club.db, member_id) if c["key"] == key)
    assert card["correct"] == asked["card"]["correct"] + 1 and card["incorrect"] == asked["card"]["incorrect"] + 1
    total = club.sets.get(KIND, club.today()).total
    assert sorted(r[2] for r in reviews(club)) == ["challenge"] * total + ["study", "table"]
