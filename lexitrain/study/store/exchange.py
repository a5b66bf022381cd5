"""The changes a store sends another, by number, and taking the changes another store sent.

Every change that travels is numbered by the store that makes or takes it (`seq`, in the order it was
kept: an answer, a change to an answer, a card's event, a session started or ended). A store asked for
what came after a number reads the changes numbered after it from indexes on `seq`, a page at a time:
a store of a million answers that made a thousand since the last sync reads a thousand. What another
store sent is taken by ids: an answer, a change or an event already here (or an answer taken back here)
is not taken again, so a page taken twice changes nothing the second time. A session is named by what
it is (mode, lexicon, source, start), as the backup import names it.

The store that starts a sync keeps, for each store it syncs with (`sync_peers`), the other store's id,
the last of its own numbers the other has taken, and the last of the other's it has taken.

This module only reads and writes rows; checking a page and making the cards it touches again are
`study.records.sync`'s business.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Sequence

from lexitrain.study.store.answers import AnswerRow, Answers, Opening
from lexitrain.study.store.cards import Cards
from lexitrain.study.store.decks import Decks
from lexitrain.study.store.plans import Plans
from lexitrain.study.store.positions import Positions
from lexitrain.study.store.history import EVENT_ORDER
from lexitrain.study.store.settings import Settings
from lexitrain.study.store.word_lists import ListVersion, WordLists

#: The most changes a page holds (a first sync of a large home takes several).
PAGE = 5000
#: The most characters of text a page holds beyond its first change (a word list is up to a megabyte, a position's
#: analysis too: a page of many is cut short, and the rest follow in the next pages), so that a page stays within
#: what the club takes in one request (`PAGE_BYTES`).
PAGE_CHARS = 4 << 20
#: The largest page as it travels (JSON, every character escaped at worst): the bound of the club's push route.
PAGE_BYTES = 32 << 20
#: A card named by what it is.
CardName = tuple[str, str, str]
#: Where a fact sorts among a card's facts: (moment, answers before events, id).
FactKey = tuple[float, int, str]


@dataclass
class Taken:
    """What taking a page added here, and the cards whose history it changed (to be made again)."""

    answers: int = 0
    cards: dict[CardName, FactKey] = field(default_factory=dict)  # each card, and the earliest of its facts taken

    def changed(self, name: CardName, key: FactKey) -> None:
        self.cards[name] = min(key, self.cards.get(name, key))


@dataclass(frozen=True)
class PeerRow:
    """What this store knows of another it syncs with: its id, the last of this store's numbers it has
    taken (`sent`), the last of its numbers taken here (`received`), when they last synced."""

    peer: str
    store: str | None
    sent: int
    received: int
    synced: float | None


def club_peer(club: str, member: str) -> str:
    """What a home calls a member's store on a club (`https://club.example.org#ann`: an address has no `#`); the
    sync's numbers and the club's session are kept under it."""
    return f"{club}#{member}"


def peer_club(peer: str) -> tuple[str, str] | None:
    """(club address, member) of a name `club_peer` made; None for another home's (`home /media/stick`)."""
    club, mark, member = peer.partition("#")
    return (club, member) if mark and club.startswith(("http://", "https://")) else None


def home_peer(home: str) -> str:
    """What a store calls another home's it synced with (`home /media/stick`: its folder; on a club, the machine's
    label the member's home gave)."""
    return f"home {home}"


def peer_home(peer: str) -> str:
    """The home (folder or machine) a name `home_peer` made names."""
    return peer.removeprefix("home ")


class Exchange(Cards, Answers, Decks, Plans, Positions, Settings, WordLists):
    def store_id(self) -> str:
        """This store's own id (random, made with its history's numbers)."""
        return str(self.conn.execute("SELECT store FROM change_seq").fetchone()[0])

    def last_seq(self) -> int:
        """The number of this store's latest change."""
        return int(self.conn.execute("SELECT seq FROM change_seq").fetchone()[0])

    def unsent_answers(self, since: int) -> int:
        """How many answers this store numbered after `since` (made or taken here since then)."""
        return int(self.conn.execute("SELECT count(*) FROM answers WHERE seq > ?", (since,)).fetchone()[0])

    def changes_since(self, since: int, limit: int = PAGE, skip: Sequence[tuple[int, int]] = ()) -> dict[str, Any]:
        """The changes numbered after `since`, at most `limit` of them, oldest first, read in one snapshot:
        {"store", "through" (the number this page reaches), "more", and a list of each kind of change
        (`_NUMBERED`), with "sessions" (those the page's answers and attempts are in, and those started or
        ended in it) and "schedulings" (those the page's answers were graded by)}. SKIP: ranges of numbers
        (first, last) whose answers, changes to answers and card events the asking store sent itself (this
        store numbered them taking its pages): they are not sent back (those facts are the same everywhere)."""
        with self.snapshot():
            store, last = self.conn.execute("SELECT store, seq FROM change_seq").fetchone()
            wheres = _numbered_wheres(since, skip)
            rows, more = self._page_rows(self._kinds_with_changes(wheres), wheres, limit)
            lists: dict[str, list[tuple[Any, ...]]] = {name: [] for name in _NUMBERED}
            for _, name, row in rows:
                lists[name].append(row)
            sessions = self._page_sessions(lists)
            answers = [_answer(row) for row in lists["answers"]]
            ways = self.scheduling_specs(a["scheduling"] for a in answers if a["scheduling"] is not None)
            plans = [self._plan_json(row) for row in lists["plans"]]
        return {"store": store, "through": rows[-1][0] if more else int(last), "more": more, "sessions": sessions,
                **_changes_json(lists, answers, ways, plans)}

    def _kinds_with_changes(self, wheres: dict[str, tuple[str, tuple[Any, ...], str]]) -> set[str]:
        """The kinds of change that have some to send, asked at once: a club's database is a round trip away,
        and a sync of a few answers has two or three kinds of change, not thirteen."""
        return {str(row[0]) for row in self.conn.execute(" UNION ALL ".join(
            f"SELECT '{name}' WHERE EXISTS ({where})" for name, (where, _, _) in wheres.items()),
            [value for where, values, _ in wheres.values() for value in values])}

    def _page_rows(self, present: set[str], wheres: dict[str, tuple[str, tuple[Any, ...], str]], limit: int
                   ) -> tuple[list[tuple[int, str, tuple[Any, ...]]], bool]:
        """The page's changes (number, kind, row) in number order, at most `limit` and cut where a page may
        end (`_page_cut`), and whether more are left after them."""
        rows: list[tuple[int, str, tuple[Any, ...]]] = []
        for name in present:
            where, values, seq = wheres[name]
            rows += [(int(row[0]), name, row[1:]) for row in self.conn.execute(
                f"{where} ORDER BY {seq} LIMIT ?", (*values, limit + 1))]
        rows.sort(key=lambda row: row[0])
        more = len(rows) > limit
        rows = rows[:limit]
        cut = _page_cut(rows)
        return rows[:cut], more or cut < len(rows)

    def _page_sessions(self, lists: dict[str, list[tuple[Any, ...]]]) -> list[dict[str, Any]]:
        """The sessions the page's answers and attempts are in, and those started or ended in it."""
        session_ids = {row[1] for row in lists["answers"]} | {row[0] for row in lists["sessions"]} | {
            row[0] for row in lists["attempts"]}
        sessions = [dict(zip(_SESSION_FIELDS, row)) for row in self.conn.execute(
            f"SELECT {', '.join(_SESSION_FIELDS)} FROM sessions WHERE id IN (SELECT value FROM json_each(?)) "
            "ORDER BY id", (json.dumps(sorted(session_ids)),))]
        for session in sessions:
            session["complete"] = bool(session["complete"])
        return sessions

    def _plan_json(self, row: tuple[Any, ...]) -> dict[str, Any]:
        """A plan changed in the page, with its queue of cards as (kind, key)."""
        return {**dict(zip(_PLAN_FIELDS, row[1:])), "spec": json.loads(row[3]), "queue": [
            list(card) for card in self.conn.execute(
                "SELECT c.kind, c.key FROM plan_queue q JOIN cards c ON c.id = q.card_id WHERE q.plan_id = ? "
                "ORDER BY q.position", (row[0],))]}

    def take_changes(self, page: dict[str, Any]) -> Taken:
        """Keep what a page (checked) holds that is not here yet, in one transaction, numbering each as
        it is kept; the cards whose history changed are named (made again by the caller, in the same
        transaction)."""
        taken = Taken()
        with self.transaction():
            lexicons: dict[int, str] = {}
            sessions: dict[int, int] = {}
            for session in page["sessions"]:  # (one here takes the later end, and a round's end once either saw it)
                sessions[session["id"]] = self.session_for(Opening(
                    session["mode"], session["lexicon"], session["source"], session["started"], shared=True,
                    ended=session["ended"], complete=bool(session["complete"]), taken=True))
                lexicons[session["id"]] = session["lexicon"]
            for way, spec in page["schedulings"].items():
                self.keep_scheduling(way, spec)
            self._take_answers(page["answers"], sessions, lexicons, taken)
            for change in page["changes"]:
                changed = self._answer_card(change["answer"])
                if self.add_answer_change(change["answer"], change["what"], change["value"], change["at"],
                                          change["uid"]):
                    if change["what"] == "retract":
                        self.conn.execute("DELETE FROM answers WHERE uid = ?", (change["answer"],))
                    else:
                        self._settle_answer(change["answer"])
                    if changed is not None:
                        taken.changed(*changed)
            for event in page["events"]:
                name = (event["lexicon"], event["kind"], event["key"])
                if self.add_card_event(*name, event["what"], event["at"], event["body"], event["uid"]):
                    taken.changed(name, (event["at"], EVENT_ORDER[event["what"]], event["uid"]))
                    if event["what"] != "forget":
                        self.ensure_card(*name, event["at"])
            for deck in page["decks"]:
                self._take_deck(deck)
            for stone in page["tombstones"]:
                self._take_tombstone(stone)
            for place in page["places"]:
                self._take_place(place)
            for plan in page["plans"]:
                self._take_plan(plan)
            for attempt in page["attempts"]:
                self._take_attempt(attempt, sessions[attempt["session"]])
            self._take_positions(page["positions"])
            for search in page["searches"]:
                self.take_search(search["name"], search["conditions"], search["changed"])
            for version in page["lists"]:
                self.take_list_version(ListVersion(**version))
        return taken

    def _take_answers(self, answers: list[dict[str, Any]], sessions: dict[int, int], lexicons: dict[int, str],
                      taken: Taken) -> None:
        """A page's answers not here yet (nor taken back here), kept in a few statements whatever their number (a
        club's database is a round trip away: a statement an answer made a sync of a thousand a minute long),
        numbered in the page's order; their cards made where they are not here yet."""
        if not answers:
            return
        here = self.answers_here(answer["uid"] for answer in answers)
        new: dict[str, dict[str, Any]] = {}
        for answer in answers:
            if answer["uid"] not in here:
                new.setdefault(answer["uid"], answer)
        if not new:
            return
        names = {uid: (lexicons[answer["session"]], answer["kind"], answer["key"]) for uid, answer in new.items()}
        made = [(*names[uid], answer["at"]) for uid, answer in new.items() if answer["card"]]
        ids = self.make_cards(made) if made else {}
        rows = []
        for uid, answer in new.items():
            card_id = ids[names[uid]] if answer["card"] else None
            rows.append(AnswerRow(sessions[answer["session"]], answer["mode"], card_id, answer["kind"], answer["key"],
                                  answer["given"], bool(answer["correct"]), False, None, answer["at"], answer["ms"],
                                  answer["rating"], answer["late_mark"], uid,
                                  answer["scheduling"] if card_id is not None else None))
            if card_id is not None:
                taken.changed(names[uid], (answer["at"], 0, uid))
        self.add_answers(rows)
        for uid in self.marked_answers(new):  # (a mark taken before its answer)
            self._settle_answer(uid)
        taken.answers += len(new)

    def take_search(self, name: str, conditions: str | None, changed: float) -> bool:
        """Keep a saved search's version (conditions None: deleted) if it is later than the one kept; whether it was."""
        row = self.conn.execute("SELECT conditions, changed FROM saved_searches WHERE name = ?", (name,)).fetchone()
        if row is not None and (changed, conditions or "") <= (row[1], row[0] or ""):
            return False
        self.conn.execute("INSERT INTO saved_searches (name, conditions, changed, seq) VALUES (?, ?, ?, ?) ON CONFLICT "
                          "(name) DO UPDATE SET conditions = excluded.conditions, changed = excluded.changed, "
                          "seq = excluded.seq", (name, conditions, changed, self._next_seq()))
        return True

    def kept_searches(self) -> dict[str, tuple[str | None, float]]:
        """Every saved search's latest version this store knows: name -> (conditions, None if deleted; when)."""
        return {name: (conditions, changed) for name, conditions, changed in self.conn.execute(
            "SELECT name, conditions, changed FROM saved_searches")}

    def _take_deck(self, deck: dict[str, Any]) -> None:
        """A deck as another store has it, if it changed there later than here (or than its deletion here)."""
        here = self.conn.execute("SELECT retention, new_per_day, reviews_per_day, changed FROM decks "
                                 "WHERE lexicon = ? AND name = ?", (deck["lexicon"], deck["name"])).fetchone()
        buried = self._deck_buried(deck["lexicon"], deck["name"])
        settings = [deck["retention"], deck["new_per_day"], deck["reviews_per_day"]]
        if here is not None and (deck["changed"], json.dumps(settings)) <= (here[3], json.dumps(list(here[:3]))):
            return
        if buried is not None and deck["changed"] <= buried:
            return
        self.save_deck(deck["lexicon"], deck["name"], deck["retention"], deck["new_per_day"], deck["reviews_per_day"],
                       deck["created"], deck["changed"])

    def _take_tombstone(self, stone: dict[str, Any]) -> None:
        """A deck deleted in another store: deleted here too unless it changed here later."""
        lexicon, name = stone["name"]
        here = self.conn.execute("SELECT id, changed FROM decks WHERE lexicon = ? AND name = ?", (lexicon, name)).fetchone()
        buried = self._deck_buried(lexicon, name)
        if (here is not None and here[1] >= stone["changed"]) or (buried is not None and buried >= stone["changed"]):
            return
        if here is not None:
            self.conn.execute("UPDATE cards SET deck_id = NULL WHERE deck_id = ?", (here[0],))
            self.conn.execute("DELETE FROM decks WHERE id = ?", (here[0],))
        self._bury_deck(lexicon, name, stone["changed"])

    def _take_place(self, place: dict[str, Any]) -> None:
        """A card's deck and suspension as another store has them, if they changed there later."""
        card_id = self.ensure_card(place["lexicon"], place["kind"], place["key"], place["changed"])
        here = self.conn.execute("SELECT d.name, c.suspended, c.placed FROM cards c LEFT JOIN decks d ON d.id = c.deck_id "
                                 "WHERE c.id = ?", (card_id,)).fetchone()
        if (place["changed"], place["deck"] or "", int(place["suspended"])) <= (here[2], here[0] or "", here[1]):
            return
        deck = None if place["deck"] is None else self.deck(place["lexicon"], place["deck"])
        self.conn.execute("UPDATE cards SET deck_id = ?, suspended = ?, placed = ?, placed_seq = ? WHERE id = ?",
                          (None if deck is None else deck.id, int(place["suspended"]), place["changed"],
                           self._next_seq(), card_id))

    def _take_plan(self, plan: dict[str, Any]) -> None:
        """A plan as another store has it (its cards still to introduce, in order), if it changed there later;
        a setting naming the plan replaced names the new one."""
        here = self.conn.execute("SELECT id, spec, changed FROM plans WHERE lexicon = ? AND name = ?",
                                 (plan["lexicon"], plan["name"])).fetchone()
        spec = json.dumps(plan["spec"])
        if here is not None and (plan["changed"], spec) <= (here[2], here[1]):
            return
        ids = self.ensure_cards(plan["lexicon"], [(kind, key) for kind, key in plan["queue"]], plan["created"])
        made = self.queue_plan(plan["lexicon"], plan["name"], plan["spec"], ids, plan["created"], plan["changed"])
        if here is not None:
            self.conn.execute("UPDATE settings SET value = ? WHERE name = ? AND value = ?",
                              (json.dumps(made), f"plan:{plan['lexicon']}", json.dumps(here[0])))

    def _take_attempt(self, attempt: dict[str, Any], session_id: int) -> None:
        """A daily challenge's attempt: kept if new here, finished here once finished in either store; the day's
        official attempt is then the one finished first (by its session's end), the others retakes."""
        here = self.conn.execute("SELECT completed, seconds FROM challenges WHERE session_id = ?", (session_id,)).fetchone()
        if here is None:
            self.conn.execute("INSERT INTO challenges (session_id, date, kind, lexicon, total, seconds, completed, seq) "
                              "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (session_id, attempt["date"], attempt["kind"],
                                                                 attempt["lexicon"], attempt["total"], attempt["seconds"],
                                                                 int(attempt["completed"]), self._next_seq()))
        elif (int(attempt["completed"]), attempt["seconds"]) > (int(here[0]), here[1]):
            self.conn.execute("UPDATE challenges SET completed = ?, seconds = ?, seq = ? WHERE session_id = ?",
                              (max(int(attempt["completed"]), int(here[0])), attempt["seconds"], self._next_seq(),
                               session_id))
        else:
            return
        self.conn.execute(
            "UPDATE challenges SET retake = CASE WHEN completed = 1 AND EXISTS (SELECT 1 FROM challenges other "
            "JOIN sessions os ON os.id = other.session_id JOIN sessions s ON s.id = challenges.session_id "
            "WHERE other.lexicon = challenges.lexicon AND other.kind = challenges.kind AND other.date = challenges.date "
            "AND other.completed = 1 AND other.session_id != challenges.session_id AND (COALESCE(os.ended, os.started), "
            "os.started) < (COALESCE(s.ended, s.started), s.started)) THEN 1 ELSE 0 END "
            "WHERE lexicon = ? AND kind = ? AND date = ?", (attempt["lexicon"], attempt["kind"], attempt["date"]))

    def _take_positions(self, positions: list[dict[str, Any]]) -> None:
        """Stored positions not here yet; one here without an analysis takes the other store's."""
        if positions:
            self.add_positions(positions)

    def _answer_card(self, uid: str) -> tuple[CardName, FactKey] | None:
        """The card an answer here was given to and where the answer sorts among its facts (None: no card's,
        or no such answer here)."""
        row = self.conn.execute("SELECT c.lexicon, c.kind, c.key, a.at FROM answers a JOIN cards c ON c.id = a.card_id "
                                "WHERE a.uid = ?", (uid,)).fetchone()
        return None if row is None else ((row[0], row[1], row[2]), (float(row[3]), 0, uid))

    def peer(self, name: str) -> PeerRow | None:
        row = self.conn.execute("SELECT peer, store, sent, received, synced FROM sync_peers WHERE peer = ?",
                                (name,)).fetchone()
        return None if row is None else PeerRow(*row)

    def peers(self) -> list[PeerRow]:
        return [PeerRow(*row) for row in self.conn.execute(
            "SELECT peer, store, sent, received, synced FROM sync_peers ORDER BY synced DESC, peer")]

    def save_peer(self, row: PeerRow) -> None:
        self.conn.execute(
            "INSERT INTO sync_peers (peer, store, sent, received, synced) VALUES (?, ?, ?, ?, ?) ON CONFLICT (peer) "
            "DO UPDATE SET store = excluded.store, sent = excluded.sent, received = excluded.received, "
            "synced = excluded.synced", (row.peer, row.store, row.sent, row.received, row.synced))


_SESSION_FIELDS = ("id", "mode", "lexicon", "source", "started", "ended", "complete")
_DECK_FIELDS = ("lexicon", "name", "retention", "new_per_day", "reviews_per_day", "created", "changed")
_PLAN_FIELDS = ("lexicon", "name", "spec", "cards", "created", "changed")
_ATTEMPT_FIELDS = ("session", "date", "kind", "lexicon", "total", "seconds", "completed")
_POSITION_FIELDS = ("lexicon", "cgp", "source", "top_score", "top_play", "top_word", "top_length", "bingo", "blank",
                    "margin", "top_rank", "plays", "added", "analysis")
#: How each kind of change is read: (its rows, the number first; the column that numbers them).
_NUMBERED = {
    "answers": ("SELECT seq, uid, session_id, mode, kind, key, given, correct, at, ms, rating, late_mark, scheduling, "
                "card_id IS NOT NULL FROM answers", "seq"),
    "changes": ("SELECT seq, uid, answer, what, value, at FROM answer_changes", "seq"),
    "events": ("SELECT seq, uid, lexicon, kind, key, what, at, body FROM card_events", "seq"),
    "sessions": ("SELECT seq, id FROM sessions", "seq"),
    "settings": ("SELECT seq, name, value, changed FROM settings", "seq"),
    "decks": (f"SELECT seq, {', '.join(_DECK_FIELDS)} FROM decks", "seq"),
    "places": ("SELECT c.placed_seq, c.lexicon, c.kind, c.key, d.name, c.suspended, c.placed FROM cards c "
               "LEFT JOIN decks d ON d.id = c.deck_id", "c.placed_seq"),
    "tombstones": ("SELECT seq, what, name, changed FROM tombstones", "seq"),
    "plans": (f"SELECT seq, id, {', '.join(_PLAN_FIELDS)} FROM plans", "seq"),
    "attempts": (f"SELECT seq, session_id, {', '.join(_ATTEMPT_FIELDS[1:])} FROM challenges", "seq"),
    "positions": (f"SELECT seq, {', '.join(_POSITION_FIELDS)} FROM positions", "seq"),
    "searches": ("SELECT seq, name, conditions, changed FROM saved_searches", "seq"),
    "lists": ("SELECT seq, name, uid, words, removed, changed FROM word_lists", "seq"),
}


#: The kinds of change that are facts, the same in every store that holds them (by id): a store that sent one
#: need not be sent it back.
_FACTS = frozenset({"answers", "changes", "events"})


def _numbered_wheres(since: int, skip: Sequence[tuple[int, int]]) -> dict[str, tuple[str, tuple[Any, ...], str]]:
    """Each kind of change's query for those numbered after SINCE (the facts outside the SKIP ranges), with its
    values and its number's column."""
    wheres = {}
    for name, (sql, seq) in _NUMBERED.items():
        ranges = list(skip) if name in _FACTS else []
        wheres[name] = (f"{sql} WHERE {seq} > ?" + "".join(f" AND {seq} NOT BETWEEN ? AND ?" for _ in ranges),
                        (since, *(number for pair in ranges for number in pair)), seq)
    return wheres


def _changes_json(lists: dict[str, list[tuple[Any, ...]]], answers: list[dict[str, Any]], ways: dict[str, Any],
                  plans: list[dict[str, Any]]) -> dict[str, Any]:
    """A page's lists of each kind of change, as the peer reads them."""
    return {"answers": answers,
            "changes": [dict(zip(("uid", "answer", "what", "value", "at"), row)) for row in lists["changes"]],
            "events": [{**dict(zip(("uid", "lexicon", "kind", "key", "what", "at"), row[:6])),
                        "body": json.loads(row[6])} for row in lists["events"]],
            "schedulings": ways,
            "settings": [{"name": name, "value": json.loads(value), "changed": changed}
                         for name, value, changed in lists["settings"]],
            "decks": [dict(zip(_DECK_FIELDS, row)) for row in lists["decks"]],
            "places": [{**dict(zip(("lexicon", "kind", "key", "deck", "suspended", "changed"), row)),
                        "suspended": bool(row[4])} for row in lists["places"]],
            "tombstones": [{"what": what, "name": json.loads(name), "changed": changed}
                           for what, name, changed in lists["tombstones"]],
            "plans": plans,
            "attempts": [{**dict(zip(_ATTEMPT_FIELDS, row)), "completed": bool(row[6])} for row in lists["attempts"]],
            "positions": [dict(zip(_POSITION_FIELDS, row)) for row in lists["positions"]],
            "searches": [dict(zip(("name", "conditions", "changed"), row)) for row in lists["searches"]],
            "lists": [ListVersion(name, uid, None if removed else words, changed).to_json()
                      for name, uid, words, removed, changed in lists["lists"]]}


def _page_cut(rows: list[tuple[int, str, tuple[Any, ...]]]) -> int:
    """How many of a page's rows (in order) to send: all, unless their text passes PAGE_CHARS (the first row
    always goes, so a page is never empty)."""
    chars = 0
    for number, (_, _, row) in enumerate(rows):
        size = sum(len(value) for value in row if isinstance(value, str))
        if number and chars + size > PAGE_CHARS:
            return number
        chars += size
    return len(rows)


def _answer(row: tuple[Any, ...]) -> dict[str, Any]:
    uid, session, mode, kind, key, given, correct, at, ms, rating, late_mark, scheduling, card = row
    return {"uid": uid, "session": session, "mode": mode, "kind": kind, "key": key, "given": given,
            "correct": bool(correct), "at": at, "ms": ms, "rating": rating,
            "late_mark": None if late_mark is None else bool(late_mark), "scheduling": scheduling, "card": bool(card)}
