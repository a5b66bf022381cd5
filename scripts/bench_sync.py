"""`lexitrain sync` of a large home with its member's store on a club: time and bytes, on SQLite and PostgreSQL.

A home of 100,000 cards and 1,000,000 answers (a player's years of study: each card's answers graded by the
real FSRS scheduler in time order, so every card is what its answers make of it), already synced with
the member's store on a club (the same answers there); then, each round, 1,000 new answers on each side
(given through the store's one way of keeping an answer, some to the same cards on both sides, at
interleaved moments), and one sync over HTTP with a real `lexitrain serve` on loopback. Printed for each
club database: per round the sync's wall time, the command's CPU time, the bytes sent and received, and
the answers sent, received and cards rescheduled; the medians; and a sync with nothing new.

    python scripts/bench_sync.py                          # 100,000 cards, 1,000,000 answers, SQLite and PostgreSQL
    python scripts/bench_sync.py --cards 10000 --answers 100000 --databases sqlite

The home is built once into --work (default a temp folder) and reused when it is there. The machine's
load (`uptime`) is printed with the figures. Target: each sync of 1,000 new answers each way within a few
seconds, and its bytes in proportion to what is new, not to the million answers.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from postgres_cluster import Cluster, postmaster_pid, binaries, copy_store  # noqa: E402

from bench_club import cpu_seconds, free_port, postgres_cpu, wait_for  # noqa: E402  (the one way a bench starts a club)

PASSWORD = "bench password 1"
MEMBER = "player"
DAY = 86400.0
#: When the home's history starts, and how long it runs (its last answers a few days before "now").
START = datetime(2024, 1, 1, tzinfo=timezone.utc).timestamp()
YEARS = 2.5
LEXICON = "enable"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cards", type=int, default=100_000)
    parser.add_argument("--answers", type=int, default=1_000_000)
    parser.add_argument("--new", type=int, default=1000, help="new answers on each side before each sync")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--work", type=Path, default=None, help="folder to build (and keep) the home in")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="bench-sync-"))
    work.mkdir(parents=True, exist_ok=True)
    os.environ["LEXITRAIN_HOME"] = str(work / "lexitrain-home")
    from lexitrain.lexicon.catalog import open_lexicon

    open_lexicon(LEXICON)  # (compiled once, before any clock runs)
    home = work / f"home-{args.cards}-{args.answers}-{args.seed}.sqlite"
    if not home.exists():
        started = time.perf_counter()
        build_home(home, args.cards, args.answers, args.seed)
        print(f"built {home.name}: {args.cards:,} cards, {args.answers:,} answers in {time.perf_counter() - started:.0f} s "
              f"({home.stat().st_size / 1e6:.0f} MB)", flush=True)
    check_home(home)
    results: dict[str, list[dict[str, Any]]] = {}
    for database in args.databases.split(","):
        results[database] = bench(database, home, work, args)
    print(f"\nload (1, 5, 15 min) at the end: {tuple(round(x, 1) for x in os.getloadavg())}")
    print(f"{'club':<11} {'sync s':>7} {'cpu s: home':>11} {'club':>5} {'KB sent':>8} {'KB recv':>8} "
          f"{'answers sent/recv':>18} {'cards':>6}")
    for database, rounds in results.items():
        timed = rounds[:-1]
        print(f"{database:<11} {median(timed, 'seconds'):>7.2f} {median(timed, 'cpu'):>11.2f} "
              f"{median(timed, 'club_cpu'):>5.2f} "
              f"{median(timed, 'sent_bytes') / 1024:>8.0f} {median(timed, 'received_bytes') / 1024:>8.0f} "
              f"{median(timed, 'sent'):>8.0f}/{median(timed, 'received'):<9.0f} {median(timed, 'cards'):>6.0f}"
              f"   (medians of {len(timed)}; nothing new: {rounds[-1]['seconds']:.2f} s, "
              f"{(rounds[-1]['sent_bytes'] + rounds[-1]['received_bytes']) / 1024:.1f} KB)")


def serving_cpu(server: subprocess.Popen[bytes], cluster: Cluster | None) -> float:
    """CPU seconds the club has used so far: its `serve` process, and on PostgreSQL the cluster's processes (the
    server, its live backends, and those ended, which the server's own count holds)."""
    used = cpu_seconds(server.pid, children=True)
    if cluster is not None:
        used += postgres_cpu(postmaster_pid(cluster.folder / "data"))
    return used


def median(rounds: list[dict[str, Any]], field: str) -> float:
    return float(statistics.median(r[field] for r in rounds))


def build_home(path: Path, cards: int, answers: int, seed: int) -> None:
    """A home whose every card is what its answers make of it: each card's answers at random moments over
    the years, graded in time order by FSRS (a right answer Good, a miss Again, now and then Hard or Easy)."""
    from lexitrain.study.quiz.scheduler import AGAIN, EASY, GOOD, HARD, Scheduling, scheduling_id
    from lexitrain.study.store import CardRow, ProgressStore
    from lexitrain.study.store.uids import new_uid

    ProgressStore(path).close()
    scheduling = Scheduling()
    way = scheduling_id(scheduling.spec())
    rng = random.Random(seed)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA synchronous = OFF")
    conn.execute("BEGIN")
    conn.execute("INSERT INTO schedulings (id, spec) VALUES (?, ?)", (way, json.dumps(scheduling.spec(), sort_keys=True)))
    days = int(YEARS * 365)
    keys = _keys(cards)
    share = [rng.expovariate(1.0) for _ in range(cards)]  # (some cards answered far more often than others)
    scale = answers / sum(share)
    counts = [max(1, round(s * scale)) for s in share]
    counts[-1] += answers - sum(counts)
    answer_id = 0
    card_rows: list[tuple[Any, ...]] = []
    answer_rows: list[tuple[Any, ...]] = []
    for card_id, (key, count) in enumerate(zip(keys, counts), start=1):
        first = START + rng.uniform(0, YEARS * 365 * DAY * 0.9)
        moments = sorted(rng.uniform(first, START + YEARS * 365 * DAY) for _ in range(max(count, 0)))
        card = CardRow(card_id, LEXICON, "anagram", key, 0, None, None, None, None, None, 0, 0, 0, 0, first)
        for at in moments:
            rating = rng.choices([AGAIN, HARD, GOOD, EASY], weights=[15, 5, 75, 5])[0]
            before = card
            card = scheduling.grade(card, rating, datetime.fromtimestamp(at, timezone.utc))
            answer_id += 1
            day = min(days - 1, int((at - START) // DAY))
            answer_rows.append((answer_id, day + 1, "daily", card_id, "anagram", key, key if rating != AGAIN else "",
                                int(rating != AGAIN), int(before.state == 0), json.dumps(asdict(before)), at,
                                rng.randrange(1500, 20000), rating, new_uid(), way, answer_id))
        card_rows.append(tuple(asdict(card).values()))
        if len(answer_rows) >= 50_000:
            _write(conn, card_rows, answer_rows)
    _write(conn, card_rows, answer_rows)
    # (numbered after the answers as they came out: a card answered at least once, the total is not quite ANSWERS)
    conn.executemany("INSERT INTO sessions (id, mode, lexicon, source, started, ended, complete, seq) "
                     "VALUES (?, 'daily', ?, 'daily', ?, ?, 1, ?)",
                     [(d + 1, LEXICON, START + d * DAY, START + d * DAY + 3600, answer_id + d + 1) for d in range(days)])
    conn.execute("UPDATE change_seq SET seq = ?", (answer_id + days,))
    conn.execute("COMMIT")
    conn.close()


def check_home(path: Path) -> None:
    """Refuse a home whose changes are numbered past its counter or twice: the first syncs would send those changes
    again (bench_sync before 2026-12-06 numbered its sessions and counter by the answers asked for, not those
    made: 3,548 answers of 1,004,460 were numbered past it, and the first rounds sent 4,548, then 2,545 answers,
    1,218 then 704 KB, before the third sent the 1,000 new alone, 248 KB)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    counter = conn.execute("SELECT seq FROM change_seq").fetchone()[0]
    numbered, distinct, highest = conn.execute(
        "SELECT count(*), count(DISTINCT seq), COALESCE(max(seq), 0) FROM (SELECT seq FROM answers UNION ALL "
        "SELECT seq FROM sessions) AS numbered").fetchone()
    conn.close()
    if highest > counter or distinct < numbered:
        raise SystemExit(f"{path}: changes numbered up to {highest} ({numbered - distinct} numbers given twice), its "
                         f"counter at {counter}: built by an older bench_sync; delete it to build it again")


def _write(conn: sqlite3.Connection, cards: list[tuple[Any, ...]], answers: list[tuple[Any, ...]]) -> None:
    conn.executemany("INSERT INTO cards (id, lexicon, kind, key, state, step, stability, difficulty, due, last_review, "
                     "cardbox, correct, incorrect, streak, added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     cards)
    conn.executemany("INSERT INTO answers (id, session_id, mode, card_id, kind, key, given, correct, was_new, before, "
                     "at, ms, rating, uid, scheduling, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     answers)
    cards.clear()
    answers.clear()


def _keys(count: int) -> list[str]:
    """COUNT distinct alphagram-like keys (the bench needs cards, not words)."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    rng = random.Random(1)
    keys: set[str] = set()
    while len(keys) < count:
        keys.add("".join(sorted(rng.choices(letters, k=rng.randint(4, 9)))))
    return sorted(keys)


def bench(database: str, home: Path, work: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    """Set up the club on DATABASE with the member's store holding the home's history, run the rounds."""
    from lexitrain.club.store import ClubDatabase
    from lexitrain.club.member_stores import MemberStores
    from lexitrain.club.members import make_invite, sign_up
    from lexitrain.study.records.club_link import ClubLink, peer_name

    class CountedLink(ClubLink):
        """The link to the club, counting the changes of each kind in the pages it carries (what the bytes were)."""

        def __init__(self, url: str, member: str) -> None:
            super().__init__(url, member)
            self.pushed: Counter[str] = Counter()
            self.pulled: Counter[str] = Counter()

        def take(self, page: dict[str, Any], since: int) -> dict[str, Any]:
            self.pushed.update({name: len(rows) for name, rows in page.items() if isinstance(rows, (list, dict))})
            return super().take(page, since)

        def changes(self, since: int, limit: int, skip: Sequence[tuple[int, int]] = ()) -> dict[str, Any]:
            page = super().changes(since, limit, skip)
            self.pulled.update({name: len(rows) for name, rows in page.items() if isinstance(rows, (list, dict))})
            return page

        @staticmethod
        def said(counts: Counter[str]) -> str:
            return ", ".join(f"{n} {name}" for name, n in sorted(counts.items()) if n) or "nothing"
    from lexitrain.study.records.sync import sync
    from lexitrain.study.store import PeerRow, ProgressStore
    from lexitrain.study.store.postgres import member_schema
    from lexitrain.study.store.uids import new_uid

    folder = Path(tempfile.mkdtemp(prefix=f"{database}-", dir=work))
    mine = folder / "progress.sqlite"
    shutil.copyfile(home, mine)
    cluster = None
    server = None
    db = None
    try:
        if database == "postgresql":
            bin_dir = binaries()
            if bin_dir is None:
                raise SystemExit("PostgreSQL is not installed (apt-get install postgresql)")
            cluster = Cluster(bin_dir)
            target = cluster.create_database("club")
        else:
            target = str(folder / "club.sqlite")
        db = ClubDatabase(target, pool_size=2)
        member = sign_up(db, MEMBER, PASSWORD, make_invite(db, time.time()), time.time())
        stores = MemberStores(db)
        started = time.perf_counter()
        if database == "postgresql":
            copy_store(mine, target, member_schema(member.id))
        else:
            store_path = stores.home(member.id) / "progress.sqlite"
            store_path.parent.mkdir(parents=True, exist_ok=True)  # (the club makes it at the store's first opening)
            shutil.copyfile(home, store_path)
            conn = sqlite3.connect(store_path, isolation_level=None)
            conn.execute("UPDATE change_seq SET store = ?", (new_uid(),))
            conn.close()
        print(f"\n{database}: the member's store loaded with the home's history in {time.perf_counter() - started:.0f} s",
              flush=True)
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "lexitrain", "serve", "--database", target, "--port", str(port),
                                   "--lexicon", LEXICON], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wait_for(port, server, seconds=300.0)
        url = f"http://127.0.0.1:{port}"
        with stores.open(member.id) as club, ProgressStore(mine) as store:
            store.save_peer(PeerRow(peer_name(url, MEMBER), club.store_id(), store.last_seq(), club.last_seq(), None))
        link = CountedLink(url, MEMBER)
        link.log_in(PASSWORD)
        rng = random.Random(args.seed + 1)
        rounds = []
        now = START + YEARS * 365 * DAY + 3 * DAY
        for number in range(args.rounds + 1):
            new = args.new if number < args.rounds else 0
            with stores.open(member.id) as club, ProgressStore(mine) as store:
                if new:
                    answer_both(store, club, rng, new, args.cards, now)
                    now += DAY
            with ProgressStore(mine) as store:
                link.sent_bytes = link.received_bytes = 0
                link.pushed.clear()
                link.pulled.clear()
                wall, cpu, club_cpu = time.perf_counter(), time.process_time(), serving_cpu(server, cluster)
                done = sync(store, link, link.name)
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                club_cpu = serving_cpu(server, cluster) - club_cpu
            row = {"seconds": wall, "cpu": cpu, "club_cpu": club_cpu, "sent_bytes": link.sent_bytes,
                   "received_bytes": link.received_bytes, **done.to_json()}
            rounds.append(row)
            print(f"  round {number + 1}{' (nothing new)' if not new else ''}: {wall:.2f} s, cpu home {cpu:.2f} s, "
                  f"club {club_cpu:.2f} s, "
                  f"sent {row['sent_bytes'] / 1024:.0f} KB, received {row['received_bytes'] / 1024:.0f} KB; "
                  f"answers sent {done.sent}, received {done.received}, cards {done.cards}  "
                  f"(load {os.getloadavg()[0]:.1f})", flush=True)
            print(f"    pushed {link.said(link.pushed)}; pulled {link.said(link.pulled)}", flush=True)
            if new and (done.sent != new or done.received != new):
                raise SystemExit(f"expected {new} answers each way, got {done.to_json()}")
        with stores.open(member.id) as club, ProgressStore(mine) as store:
            check_equal(store, club)
        return rounds
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
        if db is not None:
            db.close()
        if cluster is not None:
            cluster.stop()


def answer_both(store: Any, club: Any, rng: random.Random, count: int, cards: int, now: float) -> None:
    """COUNT new answers on each side, through the one funnel, at interleaved moments of one day; a tenth of
    them to cards answered on the other side too."""
    from lexitrain.study.quiz.replay import rescheduling
    from lexitrain.study.quiz.scheduler import AGAIN, GOOD, Scheduling
    from lexitrain.study.store import GivenAnswer

    keys = _keys(cards)
    shared = rng.sample(keys, count // 10)
    for side, offset in ((store, 0.0), (club, 30.0)):
        chosen = shared + rng.sample(keys, count - len(shared))
        with side.transaction():
            session = side.start_session("daily", LEXICON, "daily", now + offset)
            for n, key in enumerate(chosen):
                rating = GOOD if rng.random() < 0.85 else AGAIN
                side.grade_card(GivenAnswer(session, "daily", LEXICON, "anagram", key, key, rating == GOOD, 4000, rating),
                                rescheduling(side, Scheduling(), rating), make_card=True, at=now + offset + n * 60.0)
            side.end_session(session, now + offset + count * 60.0, complete=True)


def check_equal(store: Any, club: Any) -> None:
    """Both sides hold the same answers and the same cards (a few thousand sampled)."""
    mine = store.conn.execute("SELECT count(*) FROM answers").fetchone()[0]
    theirs = club.conn.execute("SELECT count(*) FROM answers").fetchone()[0]
    if mine != theirs:
        raise SystemExit(f"the home holds {mine} answers, the club {theirs}")
    for card in store.scheduled_cards()[::50]:
        other = club.find_card(card.lexicon, card.kind, card.key)
        if other is None or [getattr(other, f) for f in ("state", "due", "stability", "last_review")] != \
                [getattr(card, f) for f in ("state", "due", "stability", "last_review")]:
            raise SystemExit(f"card {card.key} differs: home {card}, club {other}")
    print(f"  both sides: {mine:,} answers, the same cards", flush=True)


if __name__ == "__main__":
    main()
