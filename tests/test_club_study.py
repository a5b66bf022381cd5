"""A member's cards on the club server are their own study store's, on SQLite and on a real PostgreSQL.

The due cards are asked from any device as the local app asks them, answers checked and scheduled by
the real FSRS scheduler with the member's own settings, and kept as answers in their store; what the
club's challenge and shared walls schedule is owed to that store in the club's own transaction and
paid into it before their cards are next read, once however often it is paid (two processes at once, a crash between the
store's commit and the debt's deletion); cards an earlier lexitrain kept in the club's own tables move
into the store once; and no lost update: two devices answering one card at once schedule it once, and
an answer shown before a wall's find is refused with nothing recorded."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest

from lexitrain.club import challenges as ch
from lexitrain.club import owed, study
from lexitrain.club.app import Club, create_app
from lexitrain.club.members import member_named
from lexitrain.club.store import ClubDatabase
from lexitrain.club.study import Moved
from lexitrain.engine.analysis import Analyst
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.records.from_games import GameCards, add_due_cards, analyse_turn, cards_from_games
from lexitrain.study.quiz.scheduler import AGAIN, EASY, GOOD, LEARNING, Scheduling
from lexitrain.study.store import CardRow
from test_club_api import KIND, club, client, lex, member, play  # noqa: F401  (the fixtures too)
from test_engine_analysis import DOUG
from test_study_analysed import ENDGAME
from web_helpers import Clock

DAY = 86400.0


def member_id(club: Club, name: str = "ann") -> int:
    found = member_named(club.db, name)
    assert found is not None
    return found.id


def answers(club: Club, name: str = "ann", source: str = "") -> list[tuple[Any, ...]]:
    """(kind, key, session source, given, right, rating) of the member's answers the club gave, oldest first."""
    with club.stores.open(member_id(club, name)) as store:
        rows = store.conn.execute(
            "SELECT a.kind, a.key, s.source, a.given, a.correct, a.rating FROM answers a JOIN sessions s "
            "ON s.id = a.session_id WHERE a.mode = 'club' AND s.source LIKE ? ORDER BY a.id", (f"{source}%",)).fetchall()
    return [(kind, key, where, given, bool(right), rating) for kind, key, where, given, right, rating in rows]


def stored(club: Club, kind: str, key: str, name: str = "ann") -> CardRow:
    with club.stores.open(member_id(club, name)) as store:
        card = store.find_card(club.lex.name, kind, key)
    assert card is not None
    return card


def as_card(shown: dict[str, Any]) -> CardRow:
    return CardRow(0, **shown)


def test_a_member_studies_their_due_cards_in_the_fsrs_order(club: Club, lex: Lexicon) -> None:
    ann, csrf = member(club, "ann")
    bob, bob_csrf = member(club, "bob")
    assert ann.get("/api/study").json() == {"due": 0, "questions": []}
    play(ann, csrf, club, lex, 1, 10)  # (the challenge made ann's cards: one right, the rest missed)
    finished = club.clock()
    chosen = club.sets.get(KIND, club.today())
    club.clock.now += DAY  # type: ignore[attr-defined]
    got = ann.get("/api/study?limit=50").json()
    assert got["due"] == chosen.total == len(got["questions"])
    before = {q["key"]: q for q in got["questions"]}
    assert set(before) == set(chosen.keys)
    first = got["questions"][0]
    assert first["prompt"] and first["answers"] == len(chosen.answers[first["key"]])
    assert first["card"]["last_review"] == finished
    key = first["key"]
    words = " ".join(w.lower() for w in chosen.answers[key])
    said = ann.post("/api/study/answer", json={"kind": first["kind"], "key": key, "answer": words,
                                                "reviewed": first["card"]["last_review"]}, headers={"x-csrf-token": csrf})
    assert said.status_code == 200, said.text
    result = said.json()
    expected = Scheduling().grade(as_card(before[key]["card"]), GOOD, datetime.fromtimestamp(club.clock(), timezone.utc))
    assert result["correct"] and result["missing"] == [] and result["card"]["last_review"] == club.clock()
    assert (result["card"]["due"], result["card"]["stability"]) == (expected.due, expected.stability)
    assert result["card"]["due"] > club.clock()
    after = ann.get("/api/study?limit=50").json()
    assert after["due"] == chosen.total - 1 and key not in {q["key"] for q in after["questions"]}
    second = after["questions"][0]
    shown = {"kind": second["kind"], "key": second["key"], "answer": "zzz", "reviewed": second["card"]["last_review"]}
    missed = ann.post("/api/study/answer", json=shown, headers={"x-csrf-token": csrf})
    assert missed.json()["correct"] is False and missed.json()["expected"] == list(chosen.answers[second["key"]])
    assert missed.json()["card"]["incorrect"] == second["card"]["incorrect"] + 1
    stale = ann.post("/api/study/answer", json=shown, headers={"x-csrf-token": csrf})  # (the same question again)
    assert stale.status_code == 409 and "elsewhere" in stale.json()["error"]
    assert [row[2:] for row in answers(club, source="club study")] == [
        ("club study", words, True, GOOD), ("club study", "zzz", False, AGAIN)]
    by_key = {card["key"]: card for card in ann.get("/api/cards").json()}
    assert by_key[key]["correct"] == before[key]["card"]["correct"] + 1
    assert by_key[key]["due"] == stored(club, first["kind"], key).due  # (one deck: /api/cards is the store's)
    # bob has none of ann's cards: nothing due, and answering one of hers is his own unknown card
    assert bob.get("/api/study").json() == {"due": 0, "questions": []}
    stolen = bob.post("/api/study/answer", json={**shown, "reviewed": None}, headers={"x-csrf-token": bob_csrf})
    assert stolen.status_code == 404
    assert ann.get("/api/cards").json() == list(by_key.values()) and bob.get("/api/cards").json() == []


def test_an_answer_is_scheduled_with_the_members_own_settings(club: Club, lex: Lexicon) -> None:
    """A member who set a desired retention of 0.8 in their study gets longer intervals on the club too."""
    ann, csrf = member(club, "ann")
    play(ann, csrf, club, lex, 0, 10)
    with club.stores.open(member_id(club)) as store:
        store.set_setting("retention", 0.8)
    club.clock.now += DAY  # type: ignore[attr-defined]
    first = ann.get("/api/study").json()["questions"][0]
    said = ann.post("/api/study/answer", json={"kind": first["kind"], "key": first["key"], "answer": "x", "rating": EASY,
                                                "reviewed": first["card"]["last_review"]}, headers={"x-csrf-token": csrf})
    when = datetime.fromtimestamp(club.clock(), timezone.utc)
    usual = Scheduling().grade(as_card(first["card"]), EASY, when).due - club.clock()
    assert said.json()["card"]["due"] - club.clock() > 1.5 * usual  # (FSRS fuzzes an interval by far less than that)


def test_bad_answers_are_one_line_400s_and_record_nothing(club: Club, lex: Lexicon) -> None:
    ann, csrf = member(club, "ann")
    play(ann, csrf, club, lex, 0, 10)
    club.clock.now += DAY  # type: ignore[attr-defined]
    first = ann.get("/api/study").json()["questions"][0]
    sent = {"kind": first["kind"], "key": first["key"], "answer": "x", "reviewed": first["card"]["last_review"]}
    for bad in ({**sent, "reviewed": "2"}, {**sent, "reviewed": True}, {**sent, "rating": 7},
                {k: v for k, v in sent.items() if k != "key"}, {k: v for k, v in sent.items() if k != "reviewed"}):
        refused = ann.post("/api/study/answer", json=bad, headers={"x-csrf-token": csrf})
        assert refused.status_code == 400 and "\n" not in refused.json()["error"], bad
    assert ann.get("/api/study?limit=0").status_code == 400 and ann.get("/api/study?limit=x").status_code == 400
    assert answers(club, source="club study") == []
    graded = ann.post("/api/study/answer", json={**sent, "rating": 4}, headers={"x-csrf-token": csrf}).json()
    assert graded["correct"] and answers(club, source="club study")[0][-1] == 4  # (self-graded Easy, whatever was typed)


def due_question(club: Club, lex: Lexicon) -> tuple[int, dict[str, Any]]:
    ann, csrf = member(club, "ann")
    play(ann, csrf, club, lex, 0, 10)
    club.clock.now += DAY  # type: ignore[attr-defined]
    found = member_id(club)
    club.settle(found)  # (as the study routes do before they read)
    with club.stores.open(found) as store:
        return found, study.due(store, lex, club.clock())["questions"][0]


def test_two_devices_answering_one_card_at_once_schedule_it_once(club: Club, lex: Lexicon) -> None:
    """Both devices were shown the card as it was; a barrier lets both answers go at once, each on its
    own connection. The check and the write are one transaction of the store, so one answer is taken
    and the other, finding the card reviewed since it was shown, is refused (Moved, 409) with nothing
    recorded: the card moved by exactly one answer."""
    ann_id, asked = due_question(club, lex)
    kind, key, reviewed = asked["kind"], asked["key"], asked["card"]["last_review"]
    right = " ".join(club.sets.get(KIND, club.today()).answers[key])
    barrier = threading.Barrier(2, timeout=30)
    outcomes: dict[str, Any] = {}

    def device(name: str, given: str) -> None:
        with club.stores.open(ann_id) as store:
            barrier.wait()
            try:
                outcomes[name] = study.answer(store, lex, kind, key, given, reviewed, club.clock())
            except Moved as moved:
                outcomes[name] = moved

    threads = [threading.Thread(target=device, args=args) for args in (("phone", right), ("laptop", "zzz"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(type(o).__name__ for o in outcomes.values()) == ["Moved", "dict"]
    taken = next(o for o in outcomes.values() if isinstance(o, dict))
    card = stored(club, kind, key)
    assert card.correct + card.incorrect == asked["card"]["correct"] + asked["card"]["incorrect"] + 1
    assert (card.correct > asked["card"]["correct"]) == taken["correct"]
    assert len(answers(club, source="club study")) == 1


def wall_finds(club: Club, ann_id: int, kind: str, key: str) -> None:
    """A shared wall's find of the card, as `tables.guess` owes it, paid as the route pays it."""
    with club.db.transaction() as tx:
        owed.owe(tx, ann_id, club.lex.name, "club table 1", club.clock() - 60, [(kind, key, True)], club.clock())
    club.settle(ann_id)


def test_an_answer_shown_before_a_walls_find_is_refused(club: Club, lex: Lexicon) -> None:
    """Between the question shown and its answer a shared wall schedules the same card: the answer is
    refused (it would schedule from the old state), the wall's review stands."""
    ann_id, asked = due_question(club, lex)
    kind, key = asked["kind"], asked["key"]
    wall_finds(club, ann_id, kind, key)
    with club.stores.open(ann_id) as store, pytest.raises(Moved):
        study.answer(store, lex, kind, key, "zzz", asked["card"]["last_review"], club.clock())
    card = stored(club, kind, key)
    assert card.correct == asked["card"]["correct"] + 1 and card.incorrect == asked["card"]["incorrect"]
    assert answers(club, source="club study") == [] and len(answers(club, source="club table 1")) == 1


def test_a_find_paid_after_a_study_answer_schedules_from_the_new_state(club: Club, lex: Lexicon) -> None:
    """The wall's debt is paid on the card as the study answer left it: both answers count."""
    ann_id, asked = due_question(club, lex)
    kind, key = asked["kind"], asked["key"]
    with club.stores.open(ann_id) as store:
        study.answer(store, lex, kind, key, "zzz", asked["card"]["last_review"], club.clock())
    wall_finds(club, ann_id, kind, key)
    card = stored(club, kind, key)
    assert (card.correct, card.incorrect) == (asked["card"]["correct"] + 1, asked["card"]["incorrect"] + 1)
    total = club.sets.get(KIND, club.today()).total
    assert [row[2].split()[1] for row in answers(club)] == ["challenge"] * total + ["study", "table"]


def test_two_settlements_at_once_pay_each_debt_once(club: Club, lex: Lexicon) -> None:
    """Two processes pay the same debts at once: both read them, meet at a barrier, then pay, each on its
    own connection to the store. Each card is scheduled once, and the debts are gone."""
    ann, csrf = member(club, "ann")
    with club.stores.open(member_id(club)) as store:  # (the store made, so the two below only open it)
        assert store.scheduled_cards() == []
    chosen = club.sets.get(KIND, club.today())
    got = ann.get(f"/api/challenge?kind={KIND}").json()
    ch.finish(club.db, club.sets, member_id(club), got["attempt"], lex.name, club.clock())  # (owed, not yet paid)
    barrier = threading.Barrier(2, timeout=30)
    paid: list[int] = []

    def process() -> None:
        with club.stores.open(member_id(club)) as store:
            paid.append(owed.settle(club.db, store, member_id(club), before_paying=barrier.wait))

    threads = [threading.Thread(target=process) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(paid) == [0, chosen.total] and owed.members_owed(club.db) == []
    assert len(answers(club)) == chosen.total
    assert all(stored(club, chosen.question_kind[key], key).incorrect == 1 for key in chosen.keys)


def test_a_debt_paid_just_before_a_crash_is_not_paid_again(club: Club, lex: Lexicon) -> None:
    """The store committed the debt's answers but the process died before deleting it: the next settling
    finds them there, pays nothing, and deletes the debt."""
    ann_id, asked = due_question(club, lex)
    kind, key = asked["kind"], asked["key"]
    with club.db.transaction() as tx:
        owed.owe(tx, ann_id, lex.name, "club table 2", club.clock() - 60, [(kind, key, True)], club.clock())
    (debt,) = owed._debts(club.db, ann_id)
    with club.stores.open(ann_id) as store:
        assert owed.pay(store, debt) == 1  # (committed; then the crash)
        assert owed.settle(club.db, store, ann_id) == 0
    assert stored(club, kind, key).correct == asked["card"]["correct"] + 1 and owed.members_owed(club.db) == []


def test_a_finish_owes_its_reviews_and_they_are_paid_before_the_cards_are_read(club: Club, lex: Lexicon) -> None:
    """The finish answers from the club's database alone; the member's cards show its scheduling the
    next time they are read (here /api/cards, as /api/study, /api/progress and /study do)."""
    ann, csrf = member(club, "ann")
    play(ann, csrf, club, lex, 1, 10)
    assert owed.members_owed(club.db) == [member_id(club)]
    chosen = club.sets.get(KIND, club.today())
    cards = {card["key"]: card for card in ann.get("/api/cards").json()}
    assert set(cards) == set(chosen.keys) and cards[chosen.keys[0]]["correct"] == 1
    assert owed.members_owed(club.db) == [] and len(answers(club, source="club challenge")) == chosen.total


def test_a_server_starting_pays_every_debt_and_keeps_one_it_cannot_pay(club: Club, lex: Lexicon,
                                                                        caplog: pytest.LogCaptureFixture) -> None:
    """Debts of members who have not read their cards since are paid as a server starts; a store that
    cannot be opened then is logged in one line and its debt kept, to be paid at the next start."""
    ann, csrf = member(club, "ann")
    play(ann, csrf, club, lex, 1, 10)
    ann_id = member_id(club)
    real_open = club.stores.open

    def broken(member_id: int) -> Any:
        raise OSError("the disk is gone")

    club.stores.open = broken  # type: ignore[method-assign]
    try:
        with client(club):  # (a server starting: its lifespan settles every member owed)
            pass
    finally:
        club.stores.open = real_open  # type: ignore[method-assign]
    assert owed.members_owed(club.db) == [ann_id] and "the disk is gone" in caplog.text
    with client(club):
        assert owed.members_owed(club.db) == []
    chosen = club.sets.get(KIND, club.today())
    assert stored(club, chosen.question_kind[chosen.keys[0]], chosen.keys[0]).correct == 1


def test_cards_an_earlier_lexitrain_kept_in_the_club_move_into_the_members_store_once(club: Club, lex: Lexicon) -> None:
    """A club made by an earlier lexitrain kept its members' cards in its own tables: they are merged into
    the member's store by the local import's rule, with the reviews that moved them, and deleted; merged
    again (a crash before the deletion), nothing is taken twice."""
    ann, _ = member(club, "ann")
    ann_id = member_id(club)
    old_state = {"state": 2, "step": None, "stability": 4.5, "difficulty": 5.0, "due": 900_000.0,
                 "last_review": 500_000.0, "cardbox": 0, "correct": 1, "incorrect": 0, "streak": 1, "added": 400_000.0}
    before = {**old_state, "state": 0, "stability": None, "difficulty": None, "due": None, "last_review": None,
              "correct": 0, "streak": 0}
    def old_rows() -> None:
        with club.db.transaction() as tx:
            tx.conn.execute(f"INSERT INTO member_cards (member_id, lexicon, kind, key, {', '.join(old_state)}) "
                   f"VALUES (?, ?, ?, ?, {', '.join('?' * len(old_state))})", (ann_id, lex.name, "anagram", "AET",
                                                                             *old_state.values()))
            tx.conn.execute("INSERT INTO member_reviews (member_id, lexicon, kind, key, source, given, correct, rating, at, "
                   "before) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (ann_id, lex.name, "anagram", "AET", "study", "ate eat eta tea", True, GOOD, 500_000.0,
                    json.dumps(before)))

    old_rows()
    assert owed.members_owed(club.db) == [ann_id]
    cards = ann.get("/api/cards").json()  # (read once the club's debts are paid)
    assert [(c["key"], c["stability"], c["last_review"], c["correct"]) for c in cards] == [("AET", 4.5, 500_000.0, 1)]
    assert answers(club) == [("anagram", "AET", "club study", "ate eat eta tea", True, GOOD)]
    assert owed.members_owed(club.db) == []
    old_rows()  # (as if the process died before deleting them)
    assert ann.get("/api/cards").json() == cards and len(answers(club)) == 1 and owed.members_owed(club.db) == []


def sessions(club: Club, ann_id: int) -> list[tuple[Any, ...]]:
    """(mode, source, started, ended, complete, answers) of every session row in the member's store, by id."""
    with club.stores.open(ann_id) as store:
        return [tuple(row) for row in store.conn.execute(
            "SELECT s.mode, s.source, s.started, s.ended, s.complete, (SELECT count(*) FROM answers a "
            "WHERE a.session_id = s.id) FROM sessions s ORDER BY s.id").fetchall()]


def test_the_clubs_answers_keep_their_session_rows_by_the_one_mechanism_and_never_an_empty_one(
        club: Club, lex: Lexicon) -> None:
    """The club keeps a member's answers as the local app does: the session's row made by its first answer, in
    that answer's transaction (`grade_card` given the session's `Opening`), never by the club itself. An
    answer refused (its card moved since it was shown) leaves no row; the day's study answers share one row,
    its end the latest answer; a debt paid twice has one row and one set of answers; no row is empty."""
    ann_id, asked = due_question(club, lex)  # (the challenge's finish paid: its own session, with its answers)
    kind, key, reviewed = asked["kind"], asked["key"], asked["card"]["last_review"]
    assert [(row[0], row[1].split()[1], row[-1] > 0) for row in sessions(club, ann_id)] == [("club", "challenge", True)]
    wall_finds(club, ann_id, kind, key)  # (the card moved: the study answer shown before is refused)
    after_find = sessions(club, ann_id)
    with club.stores.open(ann_id) as store, pytest.raises(Moved):
        study.answer(store, lex, kind, key, "zzz", reviewed, club.clock())
    assert sessions(club, ann_id) == after_find  # (no row for the refused answer)
    with club.stores.open(ann_id) as store:
        due = study.due(store, lex, club.clock(), limit=3)["questions"]
        for question in due:
            club.clock.now += 60  # type: ignore[attr-defined]
            study.answer(store, lex, question["kind"], question["key"], "zzz", question["card"]["last_review"],
                         club.clock())
    rows = sessions(club, ann_id)
    assert rows[:-1] == after_find and rows[-1][:2] == ("club", "club study")
    assert rows[-1][3:] == (club.clock(), 1, len(due)) and rows[-1][2] <= club.clock() - 180
    with club.db.transaction() as tx:  # a debt paid twice (a crash between the store's commit and its deletion)
        owed.owe(tx, ann_id, lex.name, "club table 3", club.clock() - 30, [(kind, key, True)], club.clock())
    (debt,) = owed._debts(club.db, ann_id)
    with club.stores.open(ann_id) as store:
        assert owed.pay(store, debt) == 1 and owed.pay(store, debt) == 0
    last = sessions(club, ann_id)[-1]
    assert last == ("club", "club table 3", club.clock() - 30, club.clock(), 1, 1)
    assert all(row[-1] > 0 for row in sessions(club, ann_id))


def test_two_devices_answering_two_cards_at_once_on_a_new_day_make_its_session_once(club: Club, lex: Lexicon) -> None:
    """The day's first two study answers, from two devices at once (a barrier between reading the cards and
    answering): the day's session row is made by whichever answer's transaction comes first, under the store's
    write lock, and found by the other: one row, both answers in it."""
    ann_id, _ = due_question(club, lex)
    with club.stores.open(ann_id) as store:
        shown = study.due(store, lex, club.clock(), limit=2)["questions"]
    assert len(shown) == 2
    barrier = threading.Barrier(2, timeout=30)
    errors: list[BaseException] = []

    def device(question: dict[str, Any]) -> None:
        try:
            with club.stores.open(ann_id) as store:
                barrier.wait()
                study.answer(store, lex, question["kind"], question["key"], "zzz", question["card"]["last_review"],
                             club.clock())
        except BaseException as exc:  # (said below, not lost in the thread)
            errors.append(exc)

    threads = [threading.Thread(target=device, args=(question,)) for question in shown]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert [row[1:2] + row[-1:] for row in sessions(club, ann_id) if row[1] == "club study"] == [("club study", 2)]


@pytest.fixture
def enable_club(club_target: str, enable: Lexicon) -> Iterator[Club]:
    """A club on ENDGAME's lexicon, its clock the real one's (cards made from games are due now)."""
    with ClubDatabase(club_target) as db:
        club = Club(db, enable, clock=Clock())
        club.clock.now = time.time() + 60  # type: ignore[attr-defined]
        yield club


def test_the_cards_made_from_games_are_asked_and_answered_on_the_club_page(enable_club: Club, enable: Lexicon,
                                                                            real_games: Path) -> None:
    """A member's cards from their games (`study from-games`: costly turns, best plays by simulation, an endgame,
    read-the-rack; the analyses kept in their store, as a sync brings them) are asked at the club as the local app's
    review asks them: with their board, each answer judged by the kind's stored analysis and scheduled."""
    club = enable_club
    ann, csrf = member(club, "ann")
    ann_id = member_id(club)
    club.settle(ann_id)
    with club.stores.open(ann_id) as store:
        made = cards_from_games(store, enable, [real_games / DOUG], "doug", sim_iterations=16, read_rack=True)
        endgame = GameCards()
        analyse_turn(store, enable, Analyst.of_lexicon(enable), "noah v mishu: turn 32", ENDGAME, 0, 8.0, endgame)
        add_due_cards(store, enable, endgame)
    assert made.keys["best-play"] and made.keys["read-rack"] and made.keys["position"]
    assert endgame.keys["endgame"] == [ENDGAME]
    made_count = sum(len(keys) for keys in made.keys.values()) + 1
    got = ann.get("/api/study?limit=50").json()
    assert got["due"] == made_count == len(got["questions"])  # every card asked: none "cannot be asked here"
    asked = {q["kind"]: q for q in got["questions"]}
    assert set(asked) == {"anagram", "position", "valid-or-phony", "best-play", "endgame", "read-rack"}
    for kind in ("position", "best-play", "endgame", "read-rack"):
        shown = asked[kind]
        assert shown["hint"] == "board" and len(shown["board"]["rows"]) == 15 and shown["board"]["rack"], kind
    assert asked["endgame"]["board"]["opponent"] == "AEIY" and asked["endgame"]["key"] == ENDGAME
    assert asked["read-rack"]["asks"] == "What did your opponent keep?" and asked["read-rack"]["highlight"]
    assert asked["valid-or-phony"]["hint"] == "choice" and asked["valid-or-phony"]["choices"]

    def answer(kind: str, given: str) -> Any:
        shown = asked[kind]
        return ann.post("/api/study/answer", json={"kind": kind, "key": shown["key"], "answer": given,
                                                   "reviewed": shown["card"]["last_review"]},
                        headers={"x-csrf-token": csrf})

    illegal = answer("endgame", "9A ALL")  # an illegal play: refused in one line, nothing recorded, asked again
    assert illegal.status_code == 200 and illegal.json() == {"refused": "square 9A holds I, not A"}
    kept = answer("read-rack", "ABCDEFG")
    assert kept.status_code == 200 and "they kept" in kept.json()["refused"]
    assert answers(club, source="club study") == []

    best = answer("endgame", "13L HOER").json()  # judged by the stored endgame: either best first play is right
    assert best["correct"] and best["play"] == "13L ...R" and best["value"] == best["play_value"] == -34
    assert sorted(best["expected"]) == ["13L ...R", "9A .LL"] and best["card"]["state"] == LEARNING
    passed = answer("best-play", "").json()  # a pass: missed, the simulation's table shown
    assert not passed["correct"] and passed["by"] == "sim" and passed["iterations"] == 16
    assert passed["top"][0]["play"] == passed["expected"][0]
    read = answer("read-rack", "").json()  # no answer: missed, the likeliest leaves said
    assert read["by"] == "inference" and not read["correct"] and read["table"]["columns"] == ["leave", "inference"]
    assert any("likeliest" in line or "They kept" in line for line in read["verdict"])
    top = answer("position", "").json()  # the position kind's check, by the instance that built it
    assert not top["correct"] and top["top_score"] > 0 and top["top"]
    phony = answer("valid-or-phony", "p").json()
    assert phony["correct"] and "is a phony" in phony["verdict"] and phony["words"][0]["word"]
    recorded = {row[0]: row[3:] for row in answers(club, source="club study")}
    assert recorded == {"endgame": ("13L HOER", True, GOOD), "best-play": ("", False, AGAIN),
                        "read-rack": ("", False, AGAIN),
                        "position": ("", False, AGAIN), "valid-or-phony": ("p", True, GOOD)}
    assert ann.get("/api/study?limit=50").json()["due"] == made_count - len(recorded)  # each scheduled ahead
