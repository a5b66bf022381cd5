"""Two stores of one player made one: the union of their answers, every card made again from them.

The stores here are a player's homes (SQLite files) and the club's store of the member (a file, or a
schema on PostgreSQL), synced through the same calls the club serves (`StorePeer`). What must hold,
whatever the order: every answer once, a retraction (an undo) wherever the answer went, and every card
as one home that had been given all the answers in time order would have it.
"""

from __future__ import annotations

import random
import tempfile
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexitrain.errors import LexitrainError
from lexitrain.study.quiz.replay import replay_card, rescheduling
from lexitrain.study.quiz.scheduler import AGAIN, GOOD, Scheduling
from lexitrain.study.records.sync import StorePeer, page_document, sync, take_page
from lexitrain.study.store import GivenAnswer, Opening, ProgressStore, StoredPosition
from lexitrain.study.store.history import schedule_of

T0 = datetime(2026, 3, 1, 8, 0, tzinfo=timezone.utc).timestamp()
HOUR = 3600.0
DAY = 86400.0
KEYS = ["AB", "EFT", "AEINRST", "QI"]
WAYS = [Scheduling(), Scheduling(retention=0.8), Scheduling(mode="leitner")]


@dataclass(frozen=True)
class Given:
    """One answer as given on a device: which card, when, how it was graded, by what way of scheduling."""

    key: str
    at: float
    rating: int
    way: int = 0


def give(store: ProgressStore, answer: Given, mode: str = "quiz") -> int:
    """Answer a card on STORE as a drill does (through the store's one way of keeping a graded answer)."""
    with store.transaction():
        session = store.session_for(Opening(mode, "enable", "test", T0, shared=True))
        given = GivenAnswer(session, mode, "enable", "anagram", answer.key, answer.key, answer.rating != AGAIN, 1500,
                            answer.rating)
        return store.grade_card(given, rescheduling(store, WAYS[answer.way], answer.rating), make_card=True,
                                at=answer.at).answer_id


def undo(store: ProgressStore, answer_id: int, at: float) -> None:
    """Take an answer back as `!undo` does (its card made again from what is left)."""
    card_id = store.answer_card(answer_id)
    assert card_id is not None
    with store.transaction():
        store.take_back_answer(answer_id, store.card(card_id), made_card=False, at=at)
        replay_card(store, card_id)


def cards(store: ProgressStore) -> dict[str, dict[str, Any]]:
    """Each card's schedule (of those answered or given one), by kind and key."""
    return {f"{card.kind}:{card.key}": schedule_of(card) for card in store.scheduled_cards()}


def answers(store: ProgressStore) -> dict[str, tuple[Any, ...]]:
    """Each answer kept, by id: its card, moment, verdict and grade."""
    return {a["uid"]: (a["key"], a["at"], a["correct"], a["rating"]) for a in store.export_rows()["answers"]}


def in_time_order(given: list[Given], path: Path) -> ProgressStore:
    """One home that was given every answer, in time order."""
    store = ProgressStore(path)
    for answer in sorted(given, key=lambda a: a.at):
        give(store, answer)
    return store


def test_two_homes_answering_the_same_cards_offline_end_equal_in_both_orders_and_twice(tmp_path):
    """Laptop and club, offline, answer the same cards at interleaved times (some the same card within
    minutes); synced laptop-first and club-first, twice: every answer once, every card as one home
    given them in time order would have it."""
    rng = random.Random(3)
    times = sorted(T0 + rng.uniform(0, 20 * DAY) for _ in range(60))
    given = [Given(rng.choice(KEYS), at, rng.choice([AGAIN, GOOD, GOOD, 4])) for at in times]
    split = [rng.random() < 0.5 for _ in given]
    laptop_answers = [g for g, mine in zip(given, split) if mine]
    reference = cards(in_time_order(given, tmp_path / "reference.sqlite"))
    for order in ("laptop first", "club first"):
        laptop, phone = ProgressStore(tmp_path / f"{order}-laptop.sqlite"), ProgressStore(tmp_path / f"{order}-phone.sqlite")
        club = ProgressStore(tmp_path / f"{order}-club.sqlite")
        for answer in laptop_answers:
            give(laptop, answer)
        for answer in (g for g, mine in zip(given, split) if not mine):
            give(phone, answer)
        first, second = (laptop, phone) if order == "laptop first" else (phone, laptop)
        synced = [sync(first, StorePeer(club), "club"), sync(second, StorePeer(club), "club"),
                  sync(first, StorePeer(club), "club")]
        assert synced[0].sent == len([g for g in given if (g in laptop_answers) == (first is laptop)])
        assert synced[0].received == 0 and synced[1].received == synced[0].sent and synced[2].received == synced[1].sent
        again = [sync(store, StorePeer(club), "club") for store in (first, second, first, second)]
        assert [a.to_json() for a in again] == [{"sent": 0, "received": 0, "cards": 0}] * 4  # nothing new: nothing moves
        assert cards(laptop) == cards(phone) == cards(club) == reference, order
        assert answers(laptop) == answers(phone) == answers(club) and len(answers(club)) == len(given)
        for store in (laptop, phone, club):
            store.close()


def test_an_undo_on_one_home_retracts_the_answer_on_the_other(tmp_path):
    laptop, phone, club = (ProgressStore(tmp_path / f"{n}.sqlite") for n in ("laptop", "phone", "club"))
    give(laptop, Given("AB", T0, GOOD))
    wrong = give(laptop, Given("AB", T0 + HOUR, AGAIN))
    give(laptop, Given("QI", T0 + 2 * HOUR, GOOD))
    sync(laptop, StorePeer(club), "club")
    sync(phone, StorePeer(club), "club")
    assert len(answers(phone)) == 3
    undo(laptop, wrong, T0 + 3 * HOUR)  # the player meant to press Good
    give(laptop, Given("AB", T0 + 3 * HOUR + 5, GOOD))
    assert sync(laptop, StorePeer(club), "club").sent == 1
    assert sync(phone, StorePeer(club), "club").received == 1
    expected = cards(in_time_order([Given("AB", T0, GOOD), Given("QI", T0 + 2 * HOUR, GOOD),
                                    Given("AB", T0 + 3 * HOUR + 5, GOOD)], tmp_path / "reference.sqlite"))
    assert cards(phone) == cards(laptop) == cards(club) == expected
    assert len(answers(phone)) == 3 and all(a[2] for a in answers(phone).values())  # the miss is gone everywhere


def test_an_answer_taken_back_before_it_reached_a_store_never_arrives_there(tmp_path):
    """The club gets the answer and its retraction from the laptop; a phone syncing later takes neither,
    and a page holding the answer again (an old page resent) is taken as nothing."""
    laptop, phone, club = (ProgressStore(tmp_path / f"{n}.sqlite") for n in ("laptop", "phone", "club"))
    kept = laptop.changes_since(0)
    taken = give(laptop, Given("AB", T0, AGAIN))
    old_page = page_document(laptop.changes_since(kept["through"]))
    undo(laptop, taken, T0 + 60)
    sync(laptop, StorePeer(club), "club")
    sync(phone, StorePeer(club), "club")
    assert answers(phone) == {} and cards(phone) == {}
    assert take_page(club, old_page)["answers"] == 0 and answers(club) == {}


@pytest.mark.parametrize("stop_at", range(12))
def test_a_sync_killed_at_any_step_is_finished_by_the_next(tmp_path, stop_at, monkeypatch):
    """A sync stopped between any two of its steps (a test hook raising there, as a killed process or a cut
    network would stop it) leaves both stores whole; the next sync finishes it, and ends where a sync
    never stopped ends."""
    rng = random.Random(11)
    laptop, club = ProgressStore(tmp_path / "laptop.sqlite"), ProgressStore(tmp_path / "club.sqlite")
    for n in range(30):
        give(laptop if n % 2 else club, Given(rng.choice(KEYS), T0 + n * HOUR, rng.choice([AGAIN, GOOD])))
    steps: list[str] = []

    def stop(name: str) -> None:
        steps.append(name)
        if len(steps) == stop_at + 1:
            raise ConnectionError(f"cut after {name}")

    monkeypatch.setattr("lexitrain.study.records.sync.PAGE", 4)  # (many pages: many steps to stop between)
    with pytest.raises(ConnectionError):
        sync(laptop, StorePeer(club), "club", step=stop)
    sync(laptop, StorePeer(club), "club")
    assert cards(laptop) == cards(club) and answers(laptop) == answers(club) and len(answers(club)) == 30
    assert sync(laptop, StorePeer(club), "club").to_json() == {"sent": 0, "received": 0, "cards": 0}


class Tallied(StorePeer):
    """The club's store as a peer, tallying the answers its pages carry back; `old`: a lexitrain before pages of
    version 2, whose push says nothing of the numbers it used."""

    def __init__(self, store: ProgressStore, old: bool = False) -> None:
        super().__init__(store)
        self.old, self.pulled = old, 0

    def take(self, page: dict[str, Any], since: int) -> dict[str, Any]:
        reply = super().take(page, since)
        return {key: value for key, value in reply.items() if key != "taken"} if self.old else reply

    def changes(self, since: int, limit: int, skip: Any = ()) -> dict[str, Any]:
        page = super().changes(since, limit, () if self.old else skip)
        self.pulled += len(page["answers"])
        return page


def test_what_a_home_sent_is_not_sent_back_to_it(tmp_path, monkeypatch):
    """Both sides answered since the last sync: the club numbers its own answers, then the home's as it takes
    them; the pull brings the club's own alone, not the home's back (over several pages too). A club that does
    not say which numbers it used sends them back, taken as nothing: the same end."""
    monkeypatch.setattr("lexitrain.study.records.sync.PAGE", 7)
    for old in (False, True):
        laptop, club = ProgressStore(tmp_path / f"{old}-laptop.sqlite"), ProgressStore(tmp_path / f"{old}-club.sqlite")
        peer = Tallied(club, old)
        for n in range(20):
            give(laptop if n % 2 else club, Given(KEYS[n % 4], T0 + n * HOUR, GOOD if n % 3 else AGAIN))
        done = sync(laptop, peer, "club")
        assert (done.sent, done.received) == (10, 10)
        assert peer.pulled == (20 if old else 10)  # (the laptop's own ten come back only from an old club)
        assert cards(laptop) == cards(club) and answers(laptop) == answers(club) and len(answers(club)) == 20
        assert sync(laptop, peer, "club").to_json() == {"sent": 0, "received": 0, "cards": 0}
        laptop.close()
        club.close()


def test_a_damaged_or_foreign_page_is_refused_in_one_line_with_nothing_written(tmp_path):
    laptop, club = ProgressStore(tmp_path / "laptop.sqlite"), ProgressStore(tmp_path / "club.sqlite")
    give(club, Given("AB", T0, GOOD))
    give(club, Given("QI", T0 + 60, GOOD))
    page = StorePeer(club).changes(0, 100)
    damaged = {**page, "answers": [page["answers"][0], {**page["answers"][1], "rating": 7}]}
    foreign = {**page, "answers": [{**page["answers"][0], "kind": "chess-opening"}]}
    for bad, said in ((damaged, "answers #2: rating is 7 (expected 1 to 4)"),
                      (foreign, "kind 'chess-opening' is not one this lexitrain asks"),
                      ({**page, "format": "anki"}, "not lexitrain's changes"),
                      ({**page, "version": 99}, "newer lexitrain")):
        with pytest.raises(LexitrainError, match="damaged or foreign") as refused:
            take_page(laptop, bad, name="the club's changes")
        assert said in str(refused.value) and "\n" not in str(refused.value)
        assert answers(laptop) == {} and laptop.last_seq() == 0  # nothing written


class Devices:
    """Two homes and the club, as a random history uses them."""

    def __init__(self, folder: Path) -> None:
        self.homes = [ProgressStore(folder / "laptop.sqlite"), ProgressStore(folder / "phone.sqlite")]
        self.club = ProgressStore(folder / "club.sqlite")
        self.given: dict[int, list[tuple[Given, int]]] = {0: [], 1: []}

    def close(self) -> None:
        for store in (*self.homes, self.club):
            store.close()


@st.composite
def histories(draw: st.DrawFn) -> list[tuple[str, int, Any]]:
    """A random history: answers on either home at distinct moments (in any order of moments), undos of a
    home's latest answer, marks (`!c` / `!m`) turning its verdict over, and syncs of either home with the
    club or with the other home directly."""
    steps = draw(st.lists(st.one_of(
        st.tuples(st.just("answer"), st.integers(0, 1), st.tuples(st.sampled_from(KEYS), st.integers(0, 10_000),
                                                                  st.sampled_from([AGAIN, 2, GOOD, 4]),
                                                                  st.integers(0, len(WAYS) - 1))),
        st.tuples(st.just("undo"), st.integers(0, 1), st.none()),
        st.tuples(st.just("mark"), st.integers(0, 1), st.none()),
        st.tuples(st.just("sync"), st.integers(0, 1), st.sampled_from(["club", "home"]))), min_size=1, max_size=40))
    return steps


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(histories())
def test_any_history_split_between_two_homes_and_synced_in_any_order_ends_as_one_home_in_time_order(history):
    with tempfile.TemporaryDirectory() as folder:
        devices = Devices(Path(folder))
        moments: set[float] = set()
        kept: list[Given] = []
        for what, home, detail in history:
            store = devices.homes[home]
            if what == "answer":
                key, minute, rating, way = detail
                at = T0 + minute * 60.0
                while at in moments:
                    at += 1.0
                moments.add(at)
                answer = Given(key, at, rating, way)
                devices.given[home].append((answer, give(store, answer)))
            elif what == "undo" and devices.given[home]:
                answer, answer_id = devices.given[home].pop()
                card = store.card(store.answer_card(answer_id) or 0)
                try:
                    with store.transaction():
                        store.take_back_answer(answer_id, card, made_card=False, at=T0 + 20_000 * 60.0)
                        replay_card(store, card.id)
                except LexitrainError:  # (refused: the card was answered since; the answer stands)
                    devices.given[home].append((answer, answer_id))
            elif what == "mark" and devices.given[home]:
                answer, answer_id = devices.given[home][-1]
                right = answer.rating == AGAIN
                with store.transaction():
                    store.mark_answer(answer_id, right, T0 + 20_000 * 60.0)
                    replay_card(store, store.answer_card(answer_id) or 0)
                devices.given[home][-1] = (Given(answer.key, answer.at, GOOD if right else AGAIN, answer.way), answer_id)
            elif what == "sync" and detail == "club":
                sync(store, StorePeer(devices.club), "club")
            elif what == "sync":
                sync(store, StorePeer(devices.homes[1 - home]), "home other")
        for home in (0, 1, 0):
            sync(devices.homes[home], StorePeer(devices.club), "club")
        kept = [answer for home in (0, 1) for answer, _ in devices.given[home]]
        reference = in_time_order([Given(a.key, a.at, a.rating, a.way) for a in kept], Path(folder) / "one.sqlite")
        laptop, phone = devices.homes
        assert cards(laptop) == cards(phone) == cards(devices.club) == cards(reference)
        assert answers(laptop) == answers(phone) == answers(devices.club)
        assert sorted(a[1] for a in answers(laptop).values()) == sorted(a.at for a in kept)
        reference.close()
        devices.close()


def test_everything_that_is_the_players_travels_and_the_latest_change_wins(tmp_path, monkeypatch):
    """Settings (the latest change of each wins, a tie alike on both sides), decks and their deletion, a card's
    deck and suspension, plans (and the setting naming the active one), the player's own FSRS parameters (a
    deck's by the deck), daily challenge attempts (the first finished is the official one everywhere) and
    stored positions travel; the default lexicon stays where it was set."""
    laptop, club = ProgressStore(tmp_path / "laptop.sqlite"), ProgressStore(tmp_path / "club.sqlite")

    def at(hours: float) -> None:
        monkeypatch.setenv("LEXITRAIN_NOW", datetime.fromtimestamp(T0 + hours * HOUR, timezone.utc).isoformat())

    at(1)
    laptop.set_setting("retention", 0.85)
    laptop.set_setting("lexicon", "csw21")
    laptop.set_setting("limit:new", 30)
    deck = laptop.save_deck("enable", "sevens", 0.92, 20, None, T0)
    ids = laptop.ensure_cards("enable", [("anagram", k) for k in ("AEINRST", "AEINRSU", "QI")], T0)
    laptop.move_cards(ids[:2], deck.id)
    laptop.set_suspended(ids[2:], True)
    plan = laptop.queue_plan("enable", "twos", [{"list": "twos"}], ids, T0)
    laptop.set_setting("plan:enable", plan)
    laptop.set_setting("fsrs_parameters", {"general": [0.5] * 21, "decks": {str(deck.id): [0.4] * 21}})
    laptop.store_positions("enable", [StoredPosition("15/15 AEINRST/ 0/0 0", "x:1", 74, "8H RETAINS", "RETAINS", 7,
                                                     True, False, 10, 3, 900)], T0)
    laptop.start_challenge(laptop.start_session("challenge", "enable", "challenge sevens", T0 + HOUR), "2026-03-01",
                           "sevens", "enable", 50)
    at(2)
    club.set_setting("limit:new", 10)  # (earlier than the laptop's? no: later, it wins)
    club.set_setting("lexicon", "enable")
    sync(laptop, StorePeer(club), "club")
    assert club.setting("retention") == 0.85 and club.setting("limit:new") == 10 and laptop.setting("limit:new") == 10
    assert club.setting("lexicon") == "enable" and laptop.setting("lexicon") == "csw21"  # (stays where it was set)
    on_club = club.deck("enable", "sevens")
    assert on_club is not None and (on_club.retention, on_club.new_per_day) == (0.92, 20)
    assert club.card_place(club.find_card("enable", "anagram", "AEINRST").id) == ("sevens", False)  # type: ignore[union-attr]
    assert club.card_place(club.find_card("enable", "anagram", "QI").id) == (None, True)  # type: ignore[union-attr]
    their_plan = club.plan(club.setting("plan:enable"))
    assert their_plan is not None and their_plan.name == "twos" and their_plan.waiting == 3
    assert club.setting("fsrs_parameters") == {"general": [0.5] * 21, "decks": {str(on_club.id): [0.4] * 21}}
    assert club.position_count("enable") == 1
    assert [a.to_json()["date"] for a in club.challenge_history("enable", None, 5)] == ["2026-03-01"]
    at(3)
    club.delete_deck(on_club.id)
    laptop.set_setting("retention", 0.8)
    at(4)
    sync(laptop, StorePeer(club), "club")
    assert laptop.deck("enable", "sevens") is None and club.setting("retention") == 0.8
    assert laptop.card_place(ids[0]) == (None, False) and laptop.card_place(ids[2]) == (None, True)
    assert sync(laptop, StorePeer(club), "club").to_json() == {"sent": 0, "received": 0, "cards": 0}
    laptop.close()
    club.close()


def test_a_session_met_again_is_one_row_taking_the_later_end_and_one_a_sync_brought_is_never_resumed(tmp_path):
    """A sync's page and a backup name a session by what it is (mode, lexicon, source, start): met again (the next
    sync, a second import) it stays one row and takes the later end; one a sync brought is not resumed there (a
    round is resumed only where it was played). One way to find or make a session's row: `session_for`."""
    from lexitrain.study.records.transfer import export_progress, import_progress

    laptop, club, other = (ProgressStore(tmp_path / f"{name}.sqlite") for name in ("laptop", "club", "other"))
    opening = Opening("quiz", "enable", "test", T0)

    def sessions(store: ProgressStore) -> list[tuple[Any, ...]]:
        return [(s["mode"], s["source"], s["started"], s["ended"], s["complete"], s["taken"])
                for s in store.export_rows()["sessions"]]

    give(laptop, Given("AB", T0 + 60, GOOD))
    export_progress(laptop, tmp_path / "before.json")
    sync(laptop, StorePeer(club), "club")
    assert sessions(club) == [("quiz", "test", T0, None, 0, 1)]
    assert club.last_session_answers("quiz", "enable", "test") is None
    assert laptop.last_session_answers("quiz", "enable", "test") == (laptop.found_session(opening), {("anagram", "AB")})
    session = laptop.found_session(opening)
    assert session is not None
    laptop.end_session(session, T0 + 600, complete=True)
    export_progress(laptop, tmp_path / "after.json")
    sync(laptop, StorePeer(club), "club")
    assert sessions(club) == [("quiz", "test", T0, T0 + 600, 1, 1)]
    import_progress(other, tmp_path / "before.json")
    import_progress(other, tmp_path / "after.json")
    import_progress(other, tmp_path / "before.json")
    assert sessions(other) == [("quiz", "test", T0, T0 + 600, 1, 0)]
    for store in (laptop, club, other):
        store.close()


def test_saved_searches_travel_through_the_home_files(tmp_path, monkeypatch):
    from lexitrain.search.saved import save_search, saved_searches, delete_search
    from lexitrain.study.records.sync import note_searches, write_searches

    first, second = tmp_path / "first", tmp_path / "second"
    club = ProgressStore(tmp_path / "club.sqlite")
    for folder in (first, second):
        folder.mkdir()

    def home(folder: Path) -> ProgressStore:
        monkeypatch.setenv("LEXITRAIN_HOME", str(folder))
        return ProgressStore(folder / "progress.sqlite")

    def synced(folder: Path) -> None:
        with home(folder) as store:
            note_searches(store)
            sync(store, StorePeer(club), "club")
            write_searches(store)

    home(first).close()
    save_search("sevens", "--length 7 --probability 1-500")
    save_search("jqxz", "--length 4 --pattern *[JQXZ]*")
    synced(first)
    home(second).close()
    synced(second)
    assert saved_searches() == {"jqxz": "--length 4 --pattern *[JQXZ]*", "sevens": "--length 7 --probability 1-500"}
    delete_search("jqxz")
    save_search("sevens", "--length 7 --probability 1-1000", replace=True)
    synced(second)
    synced(first)
    assert saved_searches() == {"sevens": "--length 7 --probability 1-1000"}


def test_due_moves_imports_and_forgets_converge_whichever_side_syncs_first(tmp_path):
    """A postponement on one home, a cardbox import's schedule on the other and a card forgotten: after both
    sync (in either order, twice) both homes hold the same cards."""
    from lexitrain.study.quiz.replay import set_schedule
    from lexitrain.study.store import DueMove

    for order in (0, 1):
        homes = [ProgressStore(tmp_path / f"{order}-{n}.sqlite") for n in range(2)]
        club = ProgressStore(tmp_path / f"{order}-club.sqlite")
        for n, key in enumerate(KEYS):
            give(homes[0], Given(key, T0 + n * HOUR, GOOD))
        sync(homes[0], StorePeer(club), "club")
        sync(homes[1], StorePeer(club), "club")
        card = homes[0].find_card("enable", "anagram", "AB")
        assert card is not None and card.due is not None
        homes[0].move_due_dates([DueMove(card.id, card.due, card.last_review, card.due + 9 * DAY)], T0 + DAY)
        give(homes[1], Given("EFT", T0 + 30 * HOUR, AGAIN))
        with homes[1].transaction():
            boxed = homes[1].card(homes[1].ensure_card("enable", "hooks", "CARE", T0))
            set_schedule(homes[1], replace(boxed, state=2, due=T0 + 5 * DAY, cardbox=4, correct=5), T0 + 2 * DAY)
        homes[0].delete_cards([homes[0].find_card("enable", "anagram", "QI").id], at=T0 + 3 * DAY)  # type: ignore[union-attr]
        for n in (order, 1 - order, order, 1 - order):
            sync(homes[n], StorePeer(club), "club")
        assert cards(homes[0]) == cards(homes[1]) == cards(club)
        assert homes[1].find_card("enable", "anagram", "QI") is None
        moved = homes[1].find_card("enable", "anagram", "AB")
        assert moved is not None and moved.due == card.due + 9 * DAY
        for store in (*homes, club):
            store.close()


def test_two_home_folders_sync_directly_with_lexitrain_sync_home(tmp_path, monkeypatch):
    """`lexitrain sync --home DIR`: a second home (a USB stick, another account) is the other store; both
    end with every answer once, the same cards, and each other's saved searches; a second run moves nothing."""
    from lexitrain.search.saved import save_search, saved_searches
    from tests.cli_runner import run

    first, second = tmp_path / "first", tmp_path / "second"
    rng = random.Random(5)
    given = [Given(rng.choice(KEYS), T0 + n * HOUR, rng.choice([AGAIN, GOOD])) for n in range(20)]
    for folder, share in ((first, given[0::2]), (second, given[1::2])):
        folder.mkdir()
        monkeypatch.setenv("LEXITRAIN_HOME", str(folder))
        with ProgressStore(folder / "progress.sqlite") as store:
            for answer in share:
                give(store, answer)
        save_search(folder.name, "--length 7")
    monkeypatch.setenv("LEXITRAIN_HOME", str(first))
    result = run("sync", "--home", str(second), "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["sent"] == 10 and result.json()["received"] == 10
    assert run("sync", "--home", str(second), "--json").json() == {"sent": 0, "received": 0, "cards": 0}
    monkeypatch.setenv("LEXITRAIN_HOME", str(second))
    assert run("sync", "--home", str(first), "--json").json() == {"sent": 0, "received": 0, "cards": 0}
    assert saved_searches(first) == saved_searches(second) == {"first": "--length 7", "second": "--length 7"}
    with ProgressStore(first / "progress.sqlite") as one, ProgressStore(second / "progress.sqlite") as two:
        assert cards(one) == cards(two) == cards(in_time_order(given, tmp_path / "reference.sqlite"))
        assert answers(one) == answers(two) and len(answers(one)) == 20
    refused = run("sync", "--home", str(tmp_path / "nowhere"))
    assert refused.exit_code == 1 and "no lexitrain home there" in refused.stderr and "Traceback" not in refused.stderr


def lists(store: ProgressStore) -> dict[str, str]:
    """Each uploaded list a player sees in a store, by name: its words."""
    return {name: store.word_list(name) or "" for name in store.word_list_names()}


def test_uploaded_lists_travel_the_latest_change_wins_and_a_removal_travels(tmp_path):
    """A list uploaded on either side reaches the other; a list changed on both sides ends as its latest change
    everywhere (the same moment: both sides choose alike); a removal travels, and a home that still holds an
    older copy does not bring the list back; a list uploaded again after its removal comes back."""
    laptop, phone, club = (ProgressStore(tmp_path / f"{n}.sqlite") for n in ("laptop", "phone", "club"))
    laptop.keep_word_list("top sevens", "AEINRST\nAEINRSU\n", T0)
    club.keep_word_list("jqxz", "QI\nZA\n", T0 + 60)
    for home in (laptop, phone, laptop):
        sync(home, StorePeer(club), "club")
    assert lists(laptop) == lists(phone) == lists(club) == {"top sevens": "AEINRST\nAEINRSU\n", "jqxz": "QI\nZA\n"}
    laptop.keep_word_list("top sevens", "AEINRST\n", T0 + HOUR)
    club.keep_word_list("top sevens", "AEINRSU\n", T0 + 2 * HOUR)  # (later: it wins, whichever syncs first)
    phone.keep_word_list("jqxz", "QI\n", T0 + 3 * HOUR)
    laptop.keep_word_list("tie", "AB\n", T0 + 4 * HOUR)
    phone.keep_word_list("tie", "BA\n", T0 + 4 * HOUR)
    for home in (phone, laptop, phone):
        sync(home, StorePeer(club), "club")
    assert lists(laptop) == lists(phone) == lists(club)
    assert lists(club)["top sevens"] == "AEINRSU\n" and lists(club)["jqxz"] == "QI\n"
    assert lists(club)["tie"] in ("AB\n", "BA\n")
    assert club.remove_word_list("jqxz", T0 + 5 * HOUR) and not club.remove_word_list("never kept", T0)
    sync(laptop, StorePeer(club), "club")
    assert "jqxz" not in lists(laptop) and "jqxz" in lists(phone)
    sync(phone, StorePeer(club), "club")  # (the phone's older copy does not bring it back)
    assert "jqxz" not in lists(phone) and "jqxz" not in lists(club)
    phone.keep_word_list("jqxz", "ZA\n", T0 + 6 * HOUR)
    for home in (phone, laptop):
        sync(home, StorePeer(club), "club")
    assert lists(laptop) == lists(phone) == lists(club) and lists(club)["jqxz"] == "ZA\n"
    for home in (laptop, phone, laptop):
        assert sync(home, StorePeer(club), "club").to_json() == {"sent": 0, "received": 0, "cards": 0}
    assert laptop.list_versions() == phone.list_versions() == club.list_versions()
    for store in (laptop, phone, club):
        store.close()


def test_a_list_made_on_a_machine_whose_clock_is_behind_still_replaces_the_one_it_replaces(tmp_path):
    laptop, club = ProgressStore(tmp_path / "laptop.sqlite"), ProgressStore(tmp_path / "club.sqlite")
    club.keep_word_list("mine", "QI\n", T0 + DAY)
    sync(laptop, StorePeer(club), "club")
    laptop.keep_word_list("mine", "ZA\n", T0)  # (the laptop's clock a day behind: still the latest change)
    sync(laptop, StorePeer(club), "club")
    assert lists(club) == lists(laptop) == {"mine": "ZA\n"}


def test_many_large_lists_go_in_pages_a_damaged_or_foreign_list_is_refused_with_nothing_written(tmp_path,
                                                                                                   monkeypatch):
    laptop, club = ProgressStore(tmp_path / "laptop.sqlite"), ProgressStore(tmp_path / "club.sqlite")
    monkeypatch.setattr("lexitrain.study.store.exchange.PAGE_CHARS", 3000)
    big = "".join(f"{''.join(random.Random(n).choices('ABCDEFG', k=7))}\n" for n in range(250))  # (2,000 characters)
    for n in range(5):
        club.keep_word_list(f"list {n}", big, T0 + n)
    page = StorePeer(club).changes(0, 100)
    assert [v["name"] for v in page["lists"]] == ["list 0"] and page["more"]  # (a second list would pass 3,000)
    sync(laptop, StorePeer(club), "club")
    assert lists(laptop) == lists(club) and len(lists(laptop)) == 5
    fresh = ProgressStore(tmp_path / "fresh.sqlite")
    version = page["lists"][0]
    for bad, said in (({**version, "words": "QI\x00ZA\n"}, "lists #1: words is 'QI\\x00ZA\\n' (expected a list's words"),
                      ({**version, "words": "X" * (1 << 20) + "\n"}, "lists #1: words is 'XXXXXXXX"),
                      ({**version, "name": "../etc/passwd"}, "lists #1: name is '../etc/passwd' (expected a list's name)"),
                      ({**version, "uid": "7"}, "lists #1: uid is '7' (expected 32 hex digits)"),
                      ({**version, "words": 7}, "lists #1: words is 7 (expected"),
                      ({key: value for key, value in version.items() if key != "changed"}, "lists #1: changed is missing")):
        with pytest.raises(LexitrainError, match="damaged or foreign") as refused:
            take_page(fresh, {**page, "lists": [bad]}, name="the club's changes")
        assert said in str(refused.value) and "\n" not in str(refused.value), said
        assert lists(fresh) == {} and fresh.last_seq() == 0 and answers(fresh) == {}  # nothing written
    with pytest.raises(LexitrainError, match="newer lexitrain"):  # (a lexitrain of another day's page format)
        take_page(fresh, {**page, "version": 3})
    old = {key: value for key, value in page.items() if key != "lists"}
    assert take_page(fresh, {**old, "version": 1})["answers"] == 0 and lists(fresh) == {}  # (version 1: no lists)
    for store in (laptop, club, fresh):
        store.close()


def test_lists_kept_before_they_travelled_are_numbered_at_the_upgrade_and_sent_by_the_first_sync(tmp_path):
    """A store of version 13 (lists kept, no ids): each list gets an id made from what it is, changed when it was
    added, and a number after every change, so the first sync sends it."""
    import sqlite3

    from lexitrain.study.store.migrations import MIGRATIONS, statements

    path = tmp_path / "old.sqlite"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    for migration in MIGRATIONS[:13]:
        if isinstance(migration, str):
            for statement in statements(migration):
                conn.execute(statement)
        else:
            migration(conn)
    conn.execute("INSERT INTO word_lists (name, words, added) VALUES ('old one', 'QI\nZA\n', ?)", (T0,))
    conn.execute("PRAGMA user_version = 13")
    conn.execute("COMMIT")
    conn.close()
    with ProgressStore(path) as old, ProgressStore(tmp_path / "club.sqlite") as club:
        assert [(v.name, v.changed) for v in old.list_versions()] == [("old one", T0)]
        assert old.last_seq() == 1
        sync(old, StorePeer(club), "club")
        assert lists(club) == {"old one": "QI\nZA\n"} and club.list_versions() == old.list_versions()


def test_a_progress_export_carries_the_lists_and_an_import_takes_the_latest_of_each(tmp_path):
    from lexitrain.study.records.transfer import export_progress, import_progress

    laptop, other = ProgressStore(tmp_path / "laptop.sqlite"), ProgressStore(tmp_path / "other.sqlite")
    laptop.keep_word_list("mine", "QI\nZA\n", T0)
    laptop.keep_word_list("gone", "AB\n", T0)
    laptop.remove_word_list("gone", T0 + 60)
    other.keep_word_list("gone", "BA\n", T0 - DAY)  # (older than the removal: removed by the import)
    other.keep_word_list("mine", "XI\n", T0 + DAY)  # (newer than the backup's: it stays)
    export_progress(laptop, tmp_path / "backup.json")
    taken = import_progress(other, tmp_path / "backup.json")
    assert taken["lists"] == 1 and lists(other) == {"mine": "XI\n"}
    assert import_progress(other, tmp_path / "backup.json")["lists"] == 0  # (a second import changes nothing)
    fresh = ProgressStore(tmp_path / "fresh.sqlite")
    import_progress(fresh, tmp_path / "backup.json")
    assert lists(fresh) == {"mine": "QI\nZA\n"} and fresh.list_versions() == laptop.list_versions()
    import json

    data = json.loads((tmp_path / "backup.json").read_text())
    data["lists"].append(dict(data["lists"][0]))
    (tmp_path / "twice.json").write_text(json.dumps(data))
    with pytest.raises(LexitrainError, match="lists #3: the list 'gone' is listed twice"):
        import_progress(fresh, tmp_path / "twice.json")
    for store in (laptop, other, fresh):
        store.close()


@st.composite
def list_histories(draw: st.DrawFn) -> list[tuple[str, int, Any]]:
    """Lists uploaded (two names, a few texts, at moments that may tie) and removed on either home or the club,
    and syncs of either home with the club or with the other home."""
    return draw(st.lists(st.one_of(
        st.tuples(st.just("upload"), st.integers(0, 2), st.tuples(st.sampled_from(["a", "b"]), st.sampled_from(
            ["QI\n", "ZA\n", "QI\nZA\n"]), st.integers(0, 20))),
        st.tuples(st.just("remove"), st.integers(0, 2), st.tuples(st.sampled_from(["a", "b"]), st.integers(0, 20))),
        st.tuples(st.just("sync"), st.integers(0, 1), st.sampled_from(["club", "home"]))), min_size=1, max_size=30))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(list_histories())
def test_any_history_of_lists_ends_with_every_store_holding_each_lists_latest_version(history):
    with tempfile.TemporaryDirectory() as folder:
        stores = [ProgressStore(Path(folder) / f"{n}.sqlite") for n in ("laptop", "phone", "club")]
        for what, where, detail in history:
            if what == "upload":
                name, words, minute = detail
                stores[where].keep_word_list(name, words, T0 + minute * 60.0)
            elif what == "remove":
                name, minute = detail
                stores[where].remove_word_list(name, T0 + minute * 60.0)
            elif detail == "club":
                sync(stores[where], StorePeer(stores[2]), "club")
            else:
                sync(stores[where], StorePeer(stores[1 - where]), "home other")
        made = {(v.name, v.uid): v for store in stores for v in store.list_versions()}
        for home in (0, 1, 0):
            sync(stores[home], StorePeer(stores[2]), "club")
        latest = {}
        for version in sorted(made.values(), key=lambda v: (v.changed, v.uid)):
            latest[version.name] = version
        assert stores[0].list_versions() == stores[1].list_versions() == stores[2].list_versions() == sorted(
            latest.values(), key=lambda v: v.name)
        for store in stores:
            store.close()


def test_the_sync_benchmarks_home_numbers_no_change_past_its_counter(tmp_path, monkeypatch):
    """scripts/bench_sync.py builds its home's rows by hand: every change it numbers must be within the store's
    counter, or the first syncs send old answers again (its first rounds sent 4,548 then 2,545 answers for 1,000
    new: 1,218 then 704 KB). A home of 60 cards asked for 60 answers gets more (each card answered at least once)."""
    import sys

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent / "scripts"))
    monkeypatch.setenv("LEXITRAIN_HOME", str(tmp_path))
    import bench_sync

    home = tmp_path / "home.sqlite"
    bench_sync.build_home(home, 60, 60, 7)
    bench_sync.check_home(home)
    with ProgressStore(home) as store:
        counted = store.conn.execute("SELECT count(*) FROM answers").fetchone()[0]
        assert counted > 60 and store.last_seq() >= counted + int(bench_sync.YEARS * 365)
        assert store.changes_since(store.last_seq())["answers"] == []
    sys.modules.pop("bench_sync", None)


def test_a_club_members_store_is_named_one_way_and_read_back_and_a_home_folder_with_a_hash_stays_a_home():
    from lexitrain.study.records.club_link import ClubLink
    from lexitrain.study.records.stats import SyncStatus
    from lexitrain.study.store.exchange import club_peer, peer_club

    name = ClubLink("https://club.example.org/", "ann.b").name
    assert name == club_peer("https://club.example.org", "ann.b") == "https://club.example.org#ann.b"
    assert peer_club(name) == ("https://club.example.org", "ann.b")
    assert SyncStatus(name, None, 0).label == "ann.b on https://club.example.org"
    assert peer_club("home /media/stick#2") is None
    assert SyncStatus("home /media/stick#2", None, 0).label == "the home /media/stick#2"


def test_fsrs_draws_an_intervals_fuzz_from_the_answer_set_once_as_fsrs_is_loaded():
    """The same answer schedules its card the same on any machine, any number of times (a sync's cards are made
    again from their answers): FSRS's fuzz is drawn from the answer, a hook set once when fsrs is loaded."""
    from lexitrain.study.quiz import scheduler
    from lexitrain.study.store import CardRow

    now = datetime.fromtimestamp(T0, timezone.utc)
    card = CardRow(1, "enable", "anagram", "AEINRST", 2, None, 40.0, 5.0, T0, T0 - 40 * DAY, 3, 4, 0, 4, T0 - 90 * DAY)
    first = Scheduling().grade(card, GOOD, now)
    assert [Scheduling().grade(card, GOOD, now).due for _ in range(3)] == [first.due] * 3
    assert scheduler.load_fsrs().scheduler.random is scheduler._answer_draw
    dues = {Scheduling().grade(replace(card, key=key), GOOD, now).due for key in ("AEINRSU", "AEINRTU", "ADEINRT")}
    assert len(dues | {first.due}) > 1  # (another answer, another draw: the fuzz is there)
    assert scheduler.load_fsrs.cache_info().misses == 1
