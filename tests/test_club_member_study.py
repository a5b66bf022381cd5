"""Each member's study on the club (/study): the local web app's pages and JSON, on the member's own
progress store (a file of their own beside an SQLite club, a schema of their own on PostgreSQL),
behind the club's session and CSRF; another member's rounds out of reach, the server's files too."""

from __future__ import annotations

import re
import threading
import time
import tracemalloc
import uuid
from pathlib import Path
from typing import Any

import pytest

from lexitrain.club.app import Club
from lexitrain.club.member_study import MOST_WORDS
from lexitrain.engine.gcg import Game
from lexitrain.errors import LexitrainError
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.paths import data_folder
from lexitrain.search.execute import first_found
from lexitrain.search.query import parse_query
from lexitrain.sheets.request import SheetRequest, build_sheet
from lexitrain.study.drills.open_rounds import KEPT_ENDED, OPEN_LIMIT
from postgres_cluster import Cluster
from test_club_api import app_routes, client, club, lex, member  # noqa: F401  (club and lex are fixtures)
from test_club_study import enable_club  # noqa: F401  (a fixture)
from test_engine_analysis import DOUG
from web_helpers import Clock

PAGES = ("/study/", "/study/review", "/study/stats", "/study/settings", "/study/challenge", "/study/search?length=2",
         "/study/position", "/study/games")


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page)
    assert found is not None
    return found.group(1)


def test_every_study_page_opens_for_a_member_with_the_clubs_root_and_their_token(club: Club) -> None:
    ann, csrf = member(club, "ann")
    for path in PAGES:
        page = ann.get(path)
        assert page.status_code == 200, (path, page.text[:200])
        assert 'data-base="/study"' in page.text and f'data-csrf="{csrf}"' in page.text, path
        # every link stays under /study, but the way back to the club's page and its log-out
        assert not re.search(r'(href|action|src)="/(?!study)', page.text.replace('<a class="club" href="/">', "")), path
        assert '<a class="club" href="/">Club</a>' in page.text and 'data-log-out="/api/session"' in page.text, path
    assert ann.get("/study/static/common.js").status_code == 200
    home = ann.get("/study/").text
    assert csrf_of(home) == csrf and 'value="file"' not in home  # the server's files are not offered


def test_without_a_session_a_page_goes_to_the_clubs_login_and_the_json_is_401(club: Club) -> None:
    stranger = client(club)
    sent = stranger.get("/study/review", headers={"accept": "text/html"}, follow_redirects=False)
    assert sent.status_code == 303 and sent.headers["location"] == "/"
    assert stranger.post("/study/api/review", json={}).status_code == 401


def test_a_review_answered_on_the_club_is_kept_in_the_members_own_store(club: Club, lex: Lexicon) -> None:
    ann, ann_csrf = member(club, "ann")
    bob, bob_csrf = member(club, "bob")
    started = ann.post("/study/api/review", json={}, headers={"x-csrf-token": ann_csrf})
    assert started.status_code == 200, started.text
    drill = started.json()
    question = drill["question"]
    answered = ann.post(f"/study/api/review/{drill['id']}/answer",
                        json={"text": question["prompt"], "question": question["id"], "token": question["token"]},
                        headers={"x-csrf-token": ann_csrf})
    assert answered.status_code == 200, answered.text
    assert ann.post(f"/study/api/review/{drill['id']}/answer", json={"text": "x"}).status_code == 403  # no token
    for path, route in app_routes(club):  # bob reaches none of ann's rounds, by any route that names one
        if "{ident}" in path and "POST" in (route.methods or ()):
            sent = bob.post(path.replace("{ident}", drill["id"]), json={
                "text": "x", "word": "x", "round": 1, "rating": 3, "play": "x", "id": "x", "correct": True,
                "question": question["id"], "token": question["token"]}, headers={"x-csrf-token": bob_csrf})
            assert sent.status_code == 404, path
    ann_stats, bob_stats = ann.get("/study/stats").text, bob.get("/study/stats").text
    assert ann_stats != bob_stats
    stores = club.stores
    ids = {name: _member_id(club, name) for name in ("ann", "bob")}
    with stores.open(ids["ann"]) as store:
        assert store.answers_since("daily", lex.name, 0) != (0, 0)
    with stores.open(ids["bob"]) as store:
        assert store.answers_since("daily", lex.name, 0) == (0, 0)


def test_a_wall_from_the_servers_files_is_refused_and_an_uploaded_list_is_the_members_own(club: Club) -> None:
    ann, csrf = member(club, "ann")
    bob, _ = member(club, "bob")
    for source, value in (("file", "/etc/passwd"), ("saved", "anything")):
        sent = ann.post("/study/wall", data={"source": source, "value": value, "csrf": csrf}, follow_redirects=False)
        assert sent.status_code == 400 and "server's files" in sent.text
    uploaded = ann.post("/study/lists", data={"name": "mine", "csrf": csrf}, files={"file": ("mine.txt", b"AB\nBA\n")},
                        follow_redirects=False)
    assert uploaded.status_code == 303 and uploaded.headers["location"].startswith("/study/?uploaded=mine")
    assert "mine" in ann.get("/study/").text and ">mine<" not in bob.get("/study/").text
    with club.stores.open(_member_id(club, "ann")) as store:  # a row of her store, not a file of the server's
        assert store.word_list_names() == ["mine"] and store.word_list("mine") == "AB\nBA\n"
    wall = ann.post("/study/wall", data={"source": "upload", "value": "mine", "csrf": csrf}, follow_redirects=False)
    assert wall.status_code == 303 and wall.headers["location"].startswith("/study/wall/")
    assert ann.get(wall.headers["location"]).status_code == 200
    assert bob.get(wall.headers["location"]).status_code == 404


def test_a_members_games_against_the_bots_are_their_own(club: Club) -> None:
    """A game ann starts is listed and opened for her alone: bob's page does not list it, his requests for it
    are 404, and the server's own games folder holds none of them."""
    ann, ann_csrf = member(club, "ann")
    bob, bob_csrf = member(club, "bob")
    started = ann.post("/study/play", data={"level": "1", "clock": "0", "csrf": ann_csrf}, follow_redirects=False)
    assert started.status_code == 303, started.text[:300]
    name = started.headers["location"].rsplit("/", 1)[1]
    assert ann.get(f"/study/play/{name}").status_code == 200
    assert name in ann.get("/study/play").text and name not in bob.get("/study/play").text
    assert bob.get(f"/study/play/{name}").status_code == 404
    assert bob.get(f"/study/api/play/{name}").status_code == 404
    assert bob.get(f"/study/games/{name}").status_code == 404
    for path in (f"/study/play/{name}", "/study/no-such-page"):  # a browser following a link: the club's page
        shown = bob.get(path, headers={"accept": "text/html"})
        assert shown.status_code == 404 and "<h1>Cannot do that</h1>" in shown.text, (path, shown.text[:200])
    moved = bob.post(f"/study/api/play/{name}/pause", json={"turn": 0}, headers={"x-csrf-token": bob_csrf})
    assert moved.status_code == 404
    assert (club.stores.home(_member_id(club, "ann")) / "games" / f"{name}.gcg").is_file()
    assert not list(data_folder("games").glob("*.gcg"))


def test_a_removed_members_store_goes_with_them(club: Club) -> None:
    admin, admin_csrf = member(club, "root", admin=True)
    ann, csrf = member(club, "ann")
    ann_id = _member_id(club, "ann")
    drill = ann.post("/study/api/review", json={}, headers={"x-csrf-token": csrf}).json()
    question = drill["question"]
    assert ann.post(f"/study/api/review/{drill['id']}/answer", json={
        "text": question["prompt"], "question": question["id"], "token": question["token"]},
        headers={"x-csrf-token": csrf}).status_code == 200
    removed = admin.delete("/api/admin/members/ann", headers={"x-csrf-token": admin_csrf})
    assert removed.status_code == 200  # their export holds their study's answers: nothing of theirs is lost
    assert [(a["mode"], a["key"]) for a in removed.json()["answers"]] == [("daily", question["prompt"])]
    if club.db.postgres:
        with club.db.transaction() as tx:
            assert tx.conn.execute("SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?",
                                   (f"member_{ann_id}",)).fetchone() == (0,)
    else:
        assert not (club.stores.folder / f"member_{ann_id}").exists()


def _member_id(club: Club, name: str) -> int:
    with club.db.transaction() as tx:
        row = tx.conn.execute("SELECT id FROM members WHERE name = ?", (name,)).fetchone()
    assert row is not None
    return int(row[0])


@pytest.fixture(autouse=True)
def _own_home(home) -> None:  # noqa: PT004  (each test's LEXITRAIN_HOME: a PostgreSQL club's lists go there)
    pass


def test_a_local_export_uploaded_is_studied_under_study_and_comes_back_in_the_download(club: Club, lex: Lexicon,
                                                                                        tmp_path) -> None:
    """Two faces, one member: the local app's whole progress (its answers, not only its cards) goes into the
    member's study store, once however often it is uploaded, and the download holds it with the club's cards."""
    from dataclasses import replace

    from lexitrain.study.records.transfer import export_progress
    from lexitrain.study.store import AnswerRow, ProgressStore

    ann, csrf = member(club, "ann")
    with ProgressStore(tmp_path / "local.sqlite") as local:
        card = local.card(local.ensure_card(lex.name, "anagram", "AET", 1.0e9))
        session = local.start_session("quiz", lex.name, "local", 1.0e9)
        with local.transaction():
            local.save_card(replace(card, state=2, due=1.0e9 + 86400, last_review=1.0e9, stability=3.0, difficulty=5.0,
                                    correct=1))
            local.record_answer(AnswerRow(session, "quiz", card.id, "anagram", "AET", "ATE EAT ETA TEA", True, True,
                                          card, 1.0e9, 4000))
        export_progress(local, tmp_path / "local.json")
    for _ in range(2):
        sent = ann.post("/api/progress", content=(tmp_path / "local.json").read_bytes(), headers={"x-csrf-token": csrf})
        assert sent.status_code == 200, sent.text
    stores = club.stores
    with stores.open(_member_id(club, "ann")) as store:
        assert store.find_card(lex.name, "anagram", "AET") is not None
        assert store.source_attempts(lex.name, "local")[0][3] == 1  # its one answer, taken once
    download = ann.get("/api/progress").json()
    assert [(a["key"], a["given"]) for a in download["answers"]] == [("AET", "ATE EAT ETA TEA")]
    assert any(c["key"] == "AET" and c["correct"] == 1 for c in download["cards"])
    bad = ann.post("/api/progress", json={"format": "lexitrain-progress", "version": 1, "cards": "no"},
                   headers={"x-csrf-token": csrf})
    assert bad.status_code == 400


def _one_app(club: Club, *names: str) -> tuple[Any, dict[str, Any], dict[str, str]]:
    """One club app (one process) and, for each name, a member logged in on it: their client and CSRF token."""
    import warnings

    from lexitrain.club.app import create_app
    from lexitrain.club.members import make_invite

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    app = create_app(club)
    tokens = {}
    clients = {}
    for name in names:
        web = clients[name] = TestClient(app)
        invite = make_invite(club.db, club.clock())
        assert web.post("/api/members", json={"name": name, "password": "correct horse battery",
                                               "invite": invite}).status_code == 201
        tokens[name] = web.post("/api/session", json={"name": name, "password": "correct horse battery"}).json()["csrf"]
    return app, clients, tokens


def _wall_with_net_found(web: Any, csrf: str) -> str:
    """A wall of TEN's anagrams opened on /study with NET found on it (its other word not); the wall's path."""
    wall = str(web.post("/study/wall", data={"source": "search", "value": "--length 3 --anagram TEN", "csrf": csrf},
                        follow_redirects=False).headers["location"])
    ident = wall.rsplit("/", 1)[1]
    state = web.get(f"/study/api/wall/{ident}").json()
    sent = web.post(f"/study/api/wall/{ident}/guess", json={"word": "NET", "round": state["round"]["token"]},
                    headers={"x-csrf-token": csrf})
    assert sent.status_code == 200, sent.text
    return wall


def test_a_member_whose_study_is_let_go_for_room_finds_their_wall_again(club: Club, lex: Lexicon) -> None:
    """A process keeps MOST_OPEN members' study apps; opening one more lets the least recently used idle one go,
    and nothing of hers goes with it: her open wall is a row of her store, found again with the words found."""
    app, clients, tokens = _one_app(club, "ann", "bob")
    app.state.study.most_open = 1
    ann, bob = clients["ann"], clients["bob"]
    wall = _wall_with_net_found(ann, tokens["ann"])
    assert bob.get("/study/").status_code == 200  # bob's study needs the room: ann's app is let go
    assert ann.get(wall).status_code == 200
    cells = ann.get(wall.replace("/study/wall/", "/study/api/wall/")).json()["round"]["cells"]
    assert next(c for c in cells if c["alphagram"] == "ENT")["found"] == ["NET"]


def test_a_removed_member_gets_back_what_their_open_wall_saves_as_it_closes(club: Club) -> None:
    """Removing a member finishes their open wall (so saves it) before their store is read for the export they are
    handed: the words they found on it are in that export, not dropped with their store."""
    from lexitrain.club.members import make_admin

    _, clients, tokens = _one_app(club, "root", "ann")  # one process: the admin reaches the app holding ann's wall
    make_admin(club.db, "root")
    _wall_with_net_found(clients["ann"], tokens["ann"])
    removed = clients["root"].delete("/api/admin/members/ann", headers={"x-csrf-token": tokens["root"]})
    assert removed.status_code == 200, removed.text
    assert [(a["key"], a["given"], a["correct"]) for a in removed.json()["answers"]] == [("ENT", "NET", 0)]


def test_right_after_an_answer_the_study_home_and_stats_show_the_due_counts_of_the_members_store(
        club: Club, lex: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """A member's review graded Again on the club (due again in a minute): /study's home and /study/stats show at
    once the cards due today that the statistics of their store count (what `lexitrain stats` counts on a
    home), though the whole statistics are still being counted again (slowed here, as at 100,000 cards)."""
    from lexitrain.web import context

    counted = context.st.compute

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(1.0)
        return counted(*args, **kwargs)

    monkeypatch.setattr(context.st, "compute", slow)
    ann, csrf = member(club, "ann")
    assert "<td>all 30 days</td><td class=\"num\">0</td>" in ann.get("/study/stats").text  # (the first count)
    drill = ann.post("/study/api/review", json={}, headers={"x-csrf-token": csrf}).json()
    question = drill["question"]
    graded = ann.post(f"/study/api/review/{drill['id']}/grade", headers={"x-csrf-token": csrf},
                      json={"rating": 1, "question": question["id"], "token": question["token"]})
    assert graded.status_code == 200, graded.text
    with club.stores.open(_member_id(club, "ann")) as store:
        today = counted(store, lex.name, lex).forecast.to_dict("records")[0]
    assert today["due"] == 1
    stats = ann.get("/study/stats").text
    assert 'id="counting"' in stats and f'<tr><td>{today["date"]}</td><td class="num">1</td></tr>' in stats
    home = re.search(r"Today: (\d+) reviews due now.*?(\d+) later today", ann.get("/study/").text, re.S)
    assert home is not None and int(home.group(1)) + int(home.group(2)) == today["due"]


def test_games_a_member_uploads_under_study_make_their_own_cards_and_the_clubs_page_asks_them(
        enable_club: Club, real_games: Path) -> None:
    """`/study/games` is the local app's games page, on the member's own store: the cards made from their games
    go to their store alone, and the club's "Your cards" asks every one of them. The upload is bounded as
    /study's every body is, and carries the session's CSRF token as every write does."""
    club = enable_club
    ann, csrf = member(club, "ann")
    bob, _ = member(club, "bob")
    doug = (real_games / DOUG).read_bytes()
    games = [("games", ("doug.gcg", doug, "application/octet-stream"))]
    assert ann.post("/study/api/games/cards", data={"player": "doug"}, files=games).status_code == 403  # no token
    made = ann.post("/study/api/games/cards", data={"player": "doug", "read_rack": "1"}, files=games,
                    headers={"x-csrf-token": csrf})
    assert made.status_code == 200, made.text
    keys = made.json()["keys"]
    assert keys["read-rack"] and keys["position"] and made.json()["lexicon"] == club.lex.name
    asked = ann.get("/api/study?limit=50").json()
    assert {(q["kind"], q["key"]) for q in asked["questions"]} == {
        (kind, key) for kind, made_keys in keys.items() for key in made_keys}
    assert bob.get("/api/study").json() == {"due": 0, "questions": []}  # ann's games are not bob's cards
    too_big = [("games", (f"g{n}.gcg", doug, "application/octet-stream")) for n in range((1 << 20) // len(doug) + 1)]
    refused = ann.post("/study/api/games/cards", files=too_big, headers={"x-csrf-token": csrf})
    assert refused.status_code == 413 and "\n" not in refused.json()["error"]


def test_a_round_asked_by_an_id_with_a_nul_is_not_found_on_either_database(club: Club) -> None:
    """A NUL in a wall's or review's id is no round of the member's (404, one line); PostgreSQL refused to look
    for one and the request was a 500 with a traceback."""
    web, csrf = member(club, "ann")
    for method, path in (("GET", "/study/api/wall/%00"), ("GET", "/study/api/wall/a%00b"),
                         ("POST", "/study/api/review/%00/reveal")):
        said = web.request(method, path, json=None if method == "GET" else {}, headers={"x-csrf-token": csrf})
        assert said.status_code == 404, said.text
        assert "\n" not in said.json()["error"]


def test_a_form_field_with_a_nul_is_refused_in_one_line_on_either_database(club: Club) -> None:
    """A page's form (the missed words kept as a list, one removed) with a NUL in a field is refused at the edge
    in one line (400), as a JSON body with one is: PostgreSQL's text cannot hold it, and it was a 500 with a
    traceback there."""
    web, csrf = member(club, "ann")
    for path, fields in (("/study/lists/missed", {"name": "a\x00b"}), ("/study/lists/remove", {"name": "\x00"}),
                         ("/study/settings", {"lexicon": "en\x00able"})):
        said = web.post(path, data={**fields, "csrf": csrf}, headers={"x-csrf-token": csrf, "accept": "application/json"})
        assert said.status_code == 400, (path, said.status_code, said.text[:300])
        assert "a NUL" in said.text and "Traceback" not in said.text


def test_another_members_request_is_answered_while_an_upload_of_games_is_analysed_with_a_pool_of_one(
        postgres_cluster: Cluster, enable: Lexicon, real_games: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Analysing uploaded games (up to a minute for twenty) holds no pooled connection: with a pool of one, another
    member's request is answered while ann's games are analysed (it waited for the pool, up to its 30 s, and was
    refused); her cards are written after, in one transaction, and asked on the club's page."""
    from lexitrain.club.store import ClubDatabase
    from lexitrain.study.records import from_games

    analysing, go_on = threading.Event(), threading.Event()
    read_game = from_games.read_game

    def held(source: from_games.GameFile) -> Game:  # the analysis, stopped in its first game until the test goes on
        analysing.set()
        assert go_on.wait(120)
        return read_game(source)

    monkeypatch.setattr(from_games, "read_game", held)
    name = f"club_{uuid.uuid4().hex[:12]}"
    with ClubDatabase(postgres_cluster.create_database(name), pool_size=1) as db:
        club = Club(db, enable, clock=Clock())
        club.clock.now = time.time() + 60  # type: ignore[attr-defined]  (the cards made now are due)
        ann, csrf = member(club, "ann")
        bob, _ = member(club, "bob")
        doug = (real_games / DOUG).read_bytes()
        made: list[Any] = []
        upload = threading.Thread(target=lambda: made.append(ann.post(
            "/study/api/games/cards", data={"player": "doug", "read_rack": "1"}, headers={"x-csrf-token": csrf},
            files=[("games", ("doug.gcg", doug, "application/octet-stream"))])))
        upload.start()
        asked: list[Any] = []
        try:
            assert analysing.wait(120)
            bobs = threading.Thread(target=lambda: asked.append(bob.get("/api/study")), daemon=True)
            bobs.start()
            bobs.join(20)  # (a bound, not a pause: his answer comes in a second, or after the pool's 30 s)
            assert asked and asked[0].status_code == 200, "bob's request waited for ann's games to be analysed"
            assert asked[0].json() == {"due": 0, "questions": []}
        finally:
            go_on.set()
            upload.join(120)
        assert made and made[0].status_code == 200, made and made[0].text
        keys = made[0].json()["keys"]
        assert keys["read-rack"] and keys["position"]  # (a read-rack card asks its position's stored reading)
        asked_ann = ann.get("/api/study?limit=50").json()
        assert {(q["kind"], q["key"]) for q in asked_ann["questions"]} == {
            (kind, key) for kind, made_keys in keys.items() for key in made_keys}
    postgres_cluster.drop_database(name)


#: A search of the whole lexicon: a limit past any count.
WHOLE_LEXICON = "--limit 18446744073709551616"


def test_a_wall_or_sheet_of_the_whole_lexicon_is_refused_in_one_line_holding_only_the_cap(enable_club: Club) -> None:
    """A member's wall or sheet of ENABLE's 168,551 words is a 400 naming the cap (before: 4 s of CPU, 370 MB and a
    4.9 MB wall saved in their store; a 605 MB sheet process), told from MOST_WORDS + 1 matches; a wall of
    the cap's words starts, one more word does not; an uploaded list past the cap is refused too."""
    ann, csrf = member(enable_club, "ann")
    said = f"gives more than {MOST_WORDS:,} words: a wall or sheet here holds at most {MOST_WORDS:,} (narrow it, or limit it to {MOST_WORDS:,})"
    tracemalloc.start()
    try:
        wall = ann.post("/study/wall", data={"source": "search", "value": WHOLE_LEXICON, "csrf": csrf},
                        follow_redirects=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert wall.status_code == 400 and wall.json() == {"error": f"the search {said}"}
    assert peak < 24 << 20, f"{peak >> 20} MB"
    with enable_club.stores.open(_member_id(enable_club, "ann")) as store:
        assert store.open_round_ids() == []
    sheet = ann.get(f"/study/sheet.pdf?limit={WHOLE_LEXICON.split()[1]}", headers={"accept": "text/html"})
    assert sheet.status_code == 400 and 'class="notice"' in sheet.text and f"the search {said}" in sheet.text
    for limit, status in ((MOST_WORDS, 303), (MOST_WORDS + 1, 400)):
        sent = ann.post("/study/wall", data={"source": "search", "value": f"--length 7 --limit {limit}", "csrf": csrf},
                        follow_redirects=False)
        assert sent.status_code == status, (limit, sent.text[:300])
    words = "\n".join(row["word"] for row in first_found(enable_club.lex, parse_query("--length 8"), MOST_WORDS + 1)[1])
    ann.post("/study/lists", data={"name": "eights", "csrf": csrf}, files={"file": ("eights.txt", words.encode())})
    listed = ann.post("/study/wall", data={"source": "upload", "value": "eights", "csrf": csrf}, follow_redirects=False)
    assert listed.status_code == 400 and f"the list 'eights' gives {MOST_WORDS + 1:,} words" in listed.text


def test_the_sheet_of_the_whole_lexicon_is_refused_before_its_rows_are_built(enable: Lexicon) -> None:
    """The club's sheet request (made in the sheet process) tells the search is too big from MOST_WORDS + 1 matches,
    and prints nothing: the whole lexicon's sheet took 33 s of CPU and 605 MB there."""
    tracemalloc.start()
    try:
        with pytest.raises(LexitrainError, match="the search gives more than 5,000 words"):
            build_sheet(SheetRequest("anagrams", query=WHOLE_LEXICON, most_words=MOST_WORDS), enable)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 24 << 20, f"{peak >> 20} MB"


def test_a_member_starting_walls_over_and_over_keeps_a_bounded_number_of_them(enable_club: Club) -> None:
    """Each start keeps the wall in the member's store; the rounds used longest ago are finished past OPEN_LIMIT,
    and of the ended ones only the last KEPT_ENDED stay (before: every start of the day, 4.9 MB each at most)."""
    ann, csrf = member(enable_club, "ann")
    for start in range(OPEN_LIMIT + KEPT_ENDED + 8):
        sent = ann.post("/study/wall", data={"source": "search", "value": f"--length 2 --limit {start + 1}",
                                             "csrf": csrf}, follow_redirects=False)
        assert sent.status_code == 303, sent.text[:300]
    with enable_club.stores.open(_member_id(enable_club, "ann")) as store:
        kept = store.conn.execute("SELECT COUNT(*), COUNT(closed) FROM rounds").fetchone()
    assert tuple(kept) == (OPEN_LIMIT + KEPT_ENDED, KEPT_ENDED)
    assert ann.get(str(sent.headers["location"])).status_code == 200


def test_a_members_search_of_the_whole_lexicon_counts_up_to_the_cap_and_says_more_than_it(
        enable_club: Club, monkeypatch: pytest.MonkeyPatch) -> None:
    """The search page on a club says "More than 5,000 words" and lists none (no wall, no sheet: both refused past
    the cap) from MOST_WORDS + 1 matches read: counting ENABLE's 168,551 took 0.85 s of CPU a request, which a
    member could repeat. A search under the cap is counted and listed as before."""
    from lexitrain.lexicon import rows as stored_rows

    fetch, read = stored_rows.fetch, [0]

    def counted(*args: Any) -> Any:
        for row in fetch(*args):
            read[0] += 1
            yield row

    monkeypatch.setattr(stored_rows, "fetch", counted)
    ann, _ = member(enable_club, "ann")
    page = ann.get("/study/search?length=2-15")
    assert page.status_code == 200
    shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", page.text))
    assert f"More than {MOST_WORDS:,} words · words of 2 to 15 letters" in shown, shown[-800:]
    assert f"More than {MOST_WORDS:,} words meet these conditions: narrow the search" in shown
    assert 'id="results"' not in page.text and "Start a wall" not in page.text and 'id="pdf"' not in page.text
    assert read[0] <= MOST_WORDS + 1, read[0]
    sevens = ann.get("/study/search?length=7&pattern=QI*").text
    assert re.search(r"<strong>\d+</strong> words · ", sevens) and 'id="results"' in sevens and "Start a wall" in sevens
