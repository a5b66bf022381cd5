"""The club's page in a real browser (Debian's chromium via Playwright) against a live `serve` app: join with
an invitation, play today's challenge and see the leaderboard; two members at one shared wall, each seeing
the other's guess arrive over the WebSocket. Skipped without chromium unless LEXITRAIN_REQUIRE_BROWSER=1;
any page or console error fails the test."""

from __future__ import annotations

import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from study_helpers import WORDS, anagram_oracle

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
REQUIRED = os.environ.get("LEXITRAIN_REQUIRE_BROWSER") == "1"
try:
    from playwright.sync_api import Browser, Page, expect, sync_playwright
except ImportError:  # pragma: no cover - depends on the machine
    sync_playwright = None  # type: ignore[assignment]
if CHROMIUM is None or sync_playwright is None:
    if REQUIRED:
        pytest.fail("LEXITRAIN_REQUIRE_BROWSER=1 but no chromium (or no playwright) was found", pytrace=False)
    pytest.skip("no chromium or playwright here", allow_module_level=True)

expect.set_options(timeout=30_000)  # (a sign-up and a login are two argon2 hashes: slow on a loaded machine)
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
#: A page waiting on a socket that never answers fails its test after this long, not the run (pytest-timeout).
pytestmark = pytest.mark.timeout(300)
ORACLE = anagram_oracle()
PASSWORD = "correct horse battery"


@pytest.fixture
def live(make_lexicon, tmp_path: Path) -> Iterator[tuple[str, object]]:
    import uvicorn

    from lexitrain.club.app import Club, create_app
    from lexitrain.club.store import ClubDatabase

    lex = make_lexicon(sorted(WORDS))
    with ClubDatabase(str(tmp_path / "club.sqlite")) as db:
        club = Club(db, lex)
        sock = socket.create_server(("127.0.0.1", 0))
        server = uvicorn.Server(uvicorn.Config(create_app(club), log_level="warning", lifespan="on"))
        thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
        thread.start()
        while not server.started:
            time.sleep(0.01)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}", club
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        opened = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield opened
        opened.close()


def new_page(browser: Browser, errors: list[str]) -> Page:
    page = browser.new_context().new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return page


def join(page: Page, base: str, club: object, name: str) -> None:
    from lexitrain.club.members import make_invite

    invite = make_invite(club.db, club.clock())  # type: ignore[attr-defined]
    page.goto(base + "/")
    form = page.locator("#join-form")  # (each field found by its visible label)
    form.get_by_label("Name").fill(name)
    form.get_by_label("Password (8+ characters)").fill(PASSWORD)
    form.get_by_label("Invitation code").fill(invite)
    form.get_by_role("button", name="Join").click()
    expect(page.locator("#who")).to_have_text(name)


def test_join_play_the_challenge_and_see_the_leaderboard(live, browser: Browser) -> None:
    """The header names the club's lexicon; each guess's verdict shows beside the guess box (a wrong one is
    no page-wide alert); after Finish every unsolved cell shows the answers it missed; Log out ends the session."""
    base, club = live
    errors: list[str] = []
    page = new_page(browser, errors)
    join(page, base, club, "ann")
    expect(page.locator("#lexicon")).to_have_text(club.lex.name)  # type: ignore[attr-defined]
    page.select_option("#kind", "threes")
    page.click("#start")
    first = page.locator("#challenge-wall .cell").first
    key = first.get_attribute("data-key")
    assert key is not None
    page.fill("#guess", "zzz")
    page.press("#guess", "Enter")
    expect(page.locator("#guess-verdict")).to_have_text("ZZZ: not an answer")
    expect(page.locator("#notice")).to_be_hidden()
    for word in sorted(ORACLE[key]):
        page.fill("#guess", word.lower())
        page.press("#guess", "Enter")
        expect(first.locator(".found")).to_contain_text(word)
        expect(page.locator("#guess-verdict")).to_have_text(f"{word}: right")
    page.click("#finish")
    expect(page.locator("#result")).to_contain_text("Score 1 /")
    expect(page.locator("#guess-verdict")).to_be_empty()
    keys = page.locator("#challenge-wall .cell").evaluate_all("cells => cells.map((c) => c.dataset.key)")
    expect(page.locator("#challenge-wall .cell .missed")).to_have_count(len(keys) - 1)
    expect(first.locator(".missed")).to_have_count(0)
    for other in keys[1:]:  # each unsolved cell shows its answers
        missed = page.locator(f"#challenge-wall .cell[data-key={other}] .missed")
        expect(missed).to_have_text(" ".join(sorted(ORACLE[other])))
    expect(page.locator("#board tbody tr")).to_have_count(1)
    expect(page.locator("#board tbody tr").first).to_contain_text("ann")
    page.reload()  # the session (and its CSRF token) survives a reload
    expect(page.locator("#who")).to_have_text("ann")
    expect(page.locator("#due-count")).not_to_be_empty()  # (the page's last read done: none answers 401 after)
    page.get_by_role("button", name="Log out").click()
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#who")).to_be_empty()
    page.reload()  # the session is over on the server too
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#club")).to_be_hidden()
    assert errors == []


def test_two_members_at_one_shared_wall_see_each_others_guesses(live, browser: Browser) -> None:
    """Bob sitting down shows on ann's page (who sits, the table list's count); each sees the other's guess;
    when the table ends, its End and guess box are off, it leaves the table lists, and the scoreboard counts
    every seated member, one who found nothing with 0."""
    base, club = live
    errors: list[str] = []
    ann, bob = new_page(browser, errors), new_page(browser, errors)
    join(ann, base, club, "ann")
    join(bob, base, club, "bob")
    ann.select_option("#kind", "threes")
    ann.click("#open-table")
    expect(ann.locator("#table")).to_be_visible()
    expect(ann.locator("#tables tbody tr")).to_have_text(re.compile(r"1 seated\s*your table"))
    bob.reload()
    bob.locator("#tables").get_by_role("button", name="Join").click()
    expect(bob.locator("#seated")).to_have_text("ann, bob")
    expect(ann.locator("#seated")).to_have_text("ann, bob")
    expect(ann.locator("#table-log")).to_contain_text("bob sat down")
    expect(ann.locator("#tables tbody tr")).to_contain_text("2 seated")
    expect(bob.locator("#tables tbody tr")).to_have_text(re.compile(r"2 seated\s*your table"))
    expect(bob.locator("#tables").get_by_role("button", name="Join")).to_have_count(0)
    expect(bob.locator("#end-table")).to_be_hidden()  # (only ann, who opened it, ends it)
    expect(ann.locator("#end-table")).to_be_visible()
    key = bob.locator("#table-wall .cell").first.get_attribute("data-key")
    assert key is not None
    word = sorted(ORACLE[key])[0]
    bob.fill("#table-guess", word)
    bob.press("#table-guess", "Enter")
    expect(ann.locator("#table-log")).to_contain_text(f"bob: {word}")
    expect(ann.locator(f"#table-wall .cell[data-key={key}] .found")).to_contain_text(word)
    ann.click("#end-table")
    for page in (ann, bob):
        expect(page.locator("#scoreboard tbody tr")).to_have_text(["bob1 found", "ann0 found"])
        expect(page.locator("#table-guess")).to_be_disabled()
        expect(page.locator("#tables tbody tr")).to_have_count(0)  # the table is over: nothing to join
    expect(ann.locator("#end-table")).to_be_disabled()
    assert errors == []


def test_a_member_reviews_their_due_cards_in_the_page(live, browser: Browser) -> None:
    """The challenge makes the member's cards; a day later they are due, and the page asks them one at a
    time: a right answer and a miss, each scheduled on the server (the card's counts, the due count)."""
    base, club = live
    errors: list[str] = []
    page = new_page(browser, errors)
    join(page, base, club, "ann")
    page.select_option("#kind", "threes")
    page.click("#start")
    total = club.sets.get("threes", club.today()).total  # type: ignore[attr-defined]
    expect(page.locator("#challenge-wall .cell")).to_have_count(total)
    page.click("#finish")
    expect(page.locator("#result")).to_contain_text("Score 0 /")
    club.clock = lambda: time.time() + 86400  # type: ignore[attr-defined]  (a day later)
    page.click("#study-start")
    expect(page.locator("#due-count")).to_have_text(f"{total} due")
    first = page.locator("#study-prompt").get_attribute("data-key")
    assert first is not None
    page.fill("#study-answer", " ".join(sorted(ORACLE[first])).lower())
    page.press("#study-answer", "Enter")
    expect(page.locator("#study-verdict")).to_contain_text("Right:")
    expect(page.locator("#due-count")).to_have_text(f"{total - 1} due")
    second = page.locator("#study-prompt").get_attribute("data-key")
    assert second is not None and second != first
    page.fill("#study-answer", "zzz")
    page.press("#study-answer", "Enter")
    expect(page.locator("#study-verdict")).to_contain_text(f"Missed {second}")
    expect(page.locator("#due-count")).to_have_text(f"{total - 2} due")
    from lexitrain.club.members import member_named

    ann = member_named(club.db, "ann")  # type: ignore[attr-defined]
    assert ann is not None
    with club.stores.open(ann.id) as store:  # type: ignore[attr-defined]  (the member's own study store)
        counts = {card.key: (card.correct, card.incorrect) for card in store.scheduled_cards()}
    assert counts[first] == (1, 1) and counts[second] == (0, 2)
    assert errors == []


def test_each_member_studies_their_own_cards_in_the_local_apps_pages(live, browser: Browser) -> None:
    """The club page's "Open your study" opens the local app's pages under /study for the member: a wall
    from a search, its question solved (the pages' scripts and forms carrying the member's CSRF token), and
    the member's statistics count the answer; another member's study is their own (no answers, ann's wall 404)."""
    base, club = live
    errors: list[str] = []
    ann, bob = new_page(browser, errors), new_page(browser, errors)
    join(ann, base, club, "ann")
    join(bob, base, club, "bob")
    ann.click("text=Open your study")
    expect(ann).to_have_url(base + "/study/")
    ann.fill("input[name=value]", "--length 3 --anagram TEN")
    ann.locator("form[action='/study/wall'] button[type=submit]").first.click()
    expect(ann.locator("#grid")).to_be_visible()
    for word in sorted(ORACLE["ENT"]):
        ann.fill("#guess", word.lower())
        ann.press("#guess", "Enter")
        expect(ann.locator("#last-guess")).to_contain_text(word)
    expect(ann.locator("#end")).to_be_visible()  # (the wall's one question solved: the round is over)
    wall = ann.url
    ann.goto(base + "/study/stats")
    expect(ann.locator("#per-day tbody tr")).to_have_count(1)
    expect(ann.locator("#per-day tbody tr td").nth(1)).to_have_text("1")
    bob.goto(base + "/study/stats")
    expect(bob.locator("h1")).to_contain_text("Progress in")
    expect(bob.locator("#per-day")).to_have_count(0)  # "No answers yet."
    assert bob.request.get(wall).status == 404  # ann's wall is not bob's to see
    ann.get_by_role("navigation").get_by_role("link", name="Club").click()  # the way back to the club's page
    expect(ann).to_have_url(base + "/")
    expect(ann.locator("#who")).to_have_text("ann")
    bob.get_by_role("navigation").get_by_role("button", name="Log out").click()  # a log-out in /study too
    expect(bob.locator("#login")).to_be_visible()
    expect(bob).to_have_url(base + "/")
    bob.goto(base + "/study/stats")  # the session is over: the club's login again
    expect(bob.locator("#login")).to_be_visible()
    assert errors == []
