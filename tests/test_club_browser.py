"""The club's page in a real browser (Debian's chromium via Playwright) against a live `serve` app: join with
an invitation, play today's challenge and see the leaderboard; two members at one shared wall, each seeing
the other's guess arrive over the WebSocket. Skipped without chromium unless LEXITRAIN_REQUIRE_BROWSER=1;
any page or console error fails the test."""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path

import pytest

from study_helpers import WORDS, anagram_oracle
from web_helpers import CHROMIUM_ARGS as ARGS
from web_helpers import chromium_or_skip, overflowing, serving

CHROMIUM = chromium_or_skip()
from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402  (after the skip)

expect.set_options(timeout=30_000)  # (a sign-up and a login are two argon2 hashes: slow on a loaded machine)
#: A page waiting on a socket that never answers fails its test after this long, not the run (pytest-timeout).
pytestmark = pytest.mark.timeout(300)
ORACLE = anagram_oracle()
PASSWORD = "correct horse battery"
DEFINED = "the word"
HOOKED = ["TENS", "ACTS", "AIRS", "EARS", "ARTS", "EATS", "TEAS", "ANTS", "TINS", "AGES", "ACES", "AIDS", "AILS"]
#: The club's day in these tests, whatever day they run on: its challenges (so the questions asked) are this day's
#: (noon, local time: 7 December 2026, whose threes once broke a test that took a question's answers to be two).
DAY = datetime(2026, 12, 7, 12).timestamp()
STARTED = time.monotonic()


def club_time() -> float:
    """The club's clock in these tests: DAY, running on as the tests do (sessions and timers see time pass)."""
    return DAY + time.monotonic() - STARTED


def word_row(page: Page, word: str):
    """The row of a word in a wall's solutions (its inner-hook dots aside)."""
    return page.locator("table#solutions tbody tr").filter(
        has=page.locator(".word", has_text=re.compile(rf"^·?{word}·?$")))


def guess(page: Page, word: str) -> None:
    """A word typed into the wall's guess box, sent with Enter, its answer awaited."""
    box = page.get_by_role("textbox", name="Guess")
    box.type(word.lower())  # (the box upper-cases as it goes)
    with page.expect_response(lambda response: "/guess" in response.url):
        box.press("Enter")


@pytest.fixture
def live(make_lexicon, tmp_path: Path) -> Iterator[tuple[str, object]]:
    from lexitrain.club.app import Club, create_app
    from lexitrain.club.store import ClubDatabase

    # a definition each, and a few fours that hook onto the threes
    lex = make_lexicon([f"{word} {DEFINED} {word.lower()}" for word in sorted(WORDS + HOOKED)])
    with ClubDatabase(str(tmp_path / "club.sqlite")) as db:
        club = Club(db, lex, clock=club_time)
        with serving(create_app(club)) as port:
            yield f"http://127.0.0.1:{port}", club


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


def loaded(page: Page) -> None:
    """The club's page has read everything it shows (its due count the last seen on a phone once: blank)."""
    expect(page.locator("#club")).not_to_have_attribute("aria-busy", "true")
    expect(page.locator("#due-count")).to_have_text(re.compile(r"^\d+ due$"))


def test_join_play_the_challenge_on_the_wall_and_see_the_leaderboard(live, browser: Browser) -> None:
    """Today's challenge is played on the local app's wall: its timer counting down, the counts, each guess's
    verdict beside the box, a solved cell marked with its words; a reload mid-challenge restores every word
    found; give up takes two clicks, and the end shows the solutions with each word's definition and hooks, the
    unsolved rows red. The header names the club's lexicon; Log out ends the session."""
    base, club = live
    errors: list[str] = []
    page = new_page(browser, errors)
    join(page, base, club, "ann")
    expect(page.locator("#lexicon")).to_have_text(club.lex.name)  # type: ignore[attr-defined]
    study_challenge(page, base)  # today's ranked set is not shown in /study before the ranked attempt
    expect(page.get_by_text("today's threes is the club's ranked challenge")).to_be_visible()
    refused(errors)
    page.goto(base + "/")
    page.select_option("#kind", "threes")
    page.get_by_role("button", name="Play today's challenge").click()
    expect(page).to_have_url(re.compile(r"/challenge/\d+$"))
    chosen = club.sets.get("threes", club.today())  # type: ignore[attr-defined]
    words = sum(len(chosen.answers[key]) for key in chosen.keys)
    cells = page.locator(".cell")
    expect(cells).to_have_count(chosen.total)
    assert cells.evaluate_all("cs => cs.map((c) => c.dataset.alphagram)") == list(chosen.keys)  # the day's set
    expect(page.get_by_role("timer")).to_have_text(re.compile(r"^[12]:\d\d$"))  # the threes' two minutes, running
    expect(page.locator("#counts")).to_have_text(f"0/{words} words")
    expect(page.locator("#progress")).to_have_text("ranked")
    key = next(k for k in chosen.keys if len(ORACLE[k]) >= 2)  # a question of two answers or more
    first, *rest = sorted(ORACLE[key])
    guess(page, "zzz")
    expect(page.locator("#last-guess")).to_have_text("ZZZ ✗")
    guess(page, first)
    expect(page.locator("#last-guess")).to_have_text(f"{first} ✓")
    cell = page.locator(f'.cell[data-alphagram="{key}"]')
    expect(cell.locator(".found li")).to_have_text([first])
    expect(cell.locator(".chip")).to_have_text(str(len(rest)))  # the answers left
    expect(page.locator("#counts")).to_have_text(f"1/{words} words")
    guess(page, first)
    expect(page.locator("#last-guess")).to_have_text(f"{first}: found already")
    page.reload()  # mid-challenge: every word found comes back, the clock still running
    expect(cell.locator(".found li")).to_have_text([first])
    expect(page.locator("#counts")).to_have_text(f"1/{words} words")
    expect(page.get_by_role("timer")).to_have_text(re.compile(r"^[01]:\d\d$"))
    for word in rest:
        guess(page, word)
    expect(cell).to_have_attribute("data-solved", "true")  # marked solved, its words in its tiles' place
    expect(cell.locator(".found li")).to_have_text([first, *rest])
    give_up = page.get_by_role("button", name="Give up")
    give_up.click()
    expect(give_up).to_have_text("Are you sure?")  # the first click only asks
    expect(page.locator("#playing")).to_be_visible()
    give_up.click()
    expect(page.locator("#result")).to_have_text(re.compile(
        rf"^Given up after 0:\d\d\. Correct: 1 / {chosen.total} \(\d+%\)$"))
    rows = page.locator("table#solutions tbody tr")
    expect(rows).to_have_count(words)
    expect(word_row(page, first)).not_to_have_class(re.compile("unsolved"))
    other = next(k for k in chosen.keys if k != key)
    missed_row = word_row(page, sorted(ORACLE[other])[0])
    expect(missed_row).to_have_class(re.compile("unsolved"))
    expect(missed_row.locator("td.definition")).to_have_text(f"{DEFINED} {sorted(ORACLE[other])[0].lower()}")
    hooked = next(w for k in chosen.keys for w in sorted(ORACLE[k]) if club.lex.row(w)["back_hooks"])  # type: ignore[attr-defined]
    expect(word_row(page, hooked).locator("td.hooks:not(.front)")).to_have_text(
        club.lex.row(hooked)["back_hooks"])  # type: ignore[attr-defined]
    expect(page.get_by_role("button", name="Mark correct")).to_have_count(0)  # (a ranked attempt is as played)
    page.get_by_role("link", name="Done: back to the club").click()
    expect(page.locator("#board tbody tr")).to_have_count(1)
    expect(page.locator("#board tbody tr").first).to_contain_text("ann")
    expect(page.locator("#board tbody tr").first).to_have_text(re.compile(rf"^1\s*ann\s*1 / {chosen.total}\s*0:\d\d$"))
    expect(page.locator("#board tbody tr.mine")).to_have_count(1)  # (the member's own row stands out)
    expect(page.get_by_role("heading", name="Leaderboard: today's threes")).to_be_visible()
    study_challenge(page, base)  # the ranked attempt over, /study opens today's set for practice
    expect(page).to_have_url(re.compile(r"/study/wall/"))
    expect(page.locator(".cell")).to_have_count(chosen.total)
    page.goto(base + "/")
    expect(page.locator("#who")).to_have_text("ann")
    loaded(page)  # (the page's reads done: none answers 401 after)
    page.get_by_role("button", name="Log out").click()
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#who")).to_be_empty()
    page.reload()  # the session is over on the server too
    expect(page.locator("#login")).to_be_visible()
    expect(page.locator("#club")).to_be_hidden()
    assert errors == []


SIZES = {"laptop": (1280, 800), "small": (1000, 600), "phone": (390, 844)}


def shot(page: Page, folder: Path, name: str) -> None:
    """A screenshot to look at: into LEXITRAIN_SCREENSHOTS when set, else the test's own folder."""
    where = Path(os.environ.get("LEXITRAIN_SCREENSHOTS") or folder)
    page.screenshot(path=str(where / f"club-{name}.png"), full_page=page.viewport_size != {"width": 390, "height": 844})


@pytest.mark.parametrize("size", list(SIZES))
def test_the_challenge_wall_fits_every_screen(live, browser: Browser, tmp_path: Path, size: str) -> None:
    """Today's twos (50 cells) at 1280x800 and 1000x600 all on screen, nothing cut off, a solved cell of two
    words whole; on a phone the timer and the guess box stay in view while the cells scroll; the solutions at
    the end fit too."""
    base, club = live
    width, height = SIZES[size]
    errors: list[str] = []
    page = new_page(browser, errors)
    page.set_viewport_size({"width": width, "height": height})
    join(page, base, club, "ann")
    page.select_option("#kind", "twos")
    page.get_by_role("button", name="Play today's challenge").click()
    chosen = club.sets.get("twos", club.today())  # type: ignore[attr-defined]
    cells = page.locator(".cell")
    expect(cells).to_have_count(chosen.total)
    assert chosen.total == 50
    solved = [key for key in chosen.keys if len(ORACLE[key]) >= 2][:3] + list(chosen.keys[-2:])
    for key in solved:
        for word in sorted(ORACLE[key]):
            guess(page, word)
    for key in solved:
        expect(page.locator(f'.cell[data-alphagram="{key}"]')).to_have_attribute("data-solved", "true")
    words = sum(len(chosen.answers[key]) for key in chosen.keys)
    found = sum(len(ORACLE[key]) for key in solved)
    expect(page.locator("#counts")).to_have_text(f"{found}/{words} words")
    assert not overflowing(page), overflowing(page)
    shot(page, tmp_path, f"challenge-{size}")
    if size == "phone":
        cells.last.scroll_into_view_if_needed()
        shot(page, tmp_path, f"challenge-{size}-scrolled")
        expect(cells.last).to_be_in_viewport()
        expect(page.get_by_role("timer")).to_be_in_viewport()
        expect(page.get_by_role("textbox", name="Guess")).to_be_in_viewport()
    else:
        boxes = cells.evaluate_all("cs => cs.map((c) => c.getBoundingClientRect().toJSON())")
        assert all(b["top"] >= 0 and b["bottom"] <= height and b["right"] <= width for b in boxes)
    give_up = page.get_by_role("button", name="Give up")
    give_up.click()
    give_up.click()
    expect(page.locator("table#solutions")).to_be_visible()
    assert not overflowing(page), overflowing(page)
    shot(page, tmp_path, f"challenge-end-{size}")
    assert errors == []


def colour(locator) -> str:
    """The colour a word is drawn in (computed: whatever rule wins at this screen's size)."""
    return str(locator.evaluate("(node) => getComputedStyle(node).color"))


def accent(page: Page) -> str:
    """The page's accent colour (another member's words), computed."""
    return str(page.evaluate("""() => {
        const probe = document.createElement("i");
        probe.style.color = "var(--accent)";
        document.body.append(probe);
        const shown = getComputedStyle(probe).color;
        probe.remove();
        return shown;
    }"""))


def refused(errors: list[str]) -> None:
    """The page's console told of the 403 it was meant to get (the refusal the test expects): taken off the errors."""
    assert errors and "403" in errors[-1], errors
    errors.pop()


def study_challenge(page: Page, base: str) -> None:
    """Today's threes started from the member's /study challenge page."""
    page.goto(base + "/study/challenge")
    page.get_by_label("Kind").select_option("threes")
    page.get_by_role("button", name="Start the challenge").click()


def ranked_attempt_over(club: object, name: str, kind: str) -> None:
    """The member's ranked attempt at today's set of KIND, made and finished (given up at once)."""
    from lexitrain.club import challenges as ch
    from lexitrain.club.members import member_named

    member = member_named(club.db, name)  # type: ignore[attr-defined]
    assert member is not None
    chosen = club.sets.get(kind, club.today())  # type: ignore[attr-defined]
    attempt = ch.open_attempt(club.db, member.id, club.lex.name, chosen, club.clock())  # type: ignore[attr-defined]
    ch.finish(club.db, club.sets, member.id, attempt, club.lex.name, club.clock())  # type: ignore[attr-defined]


def test_the_challenges_time_running_out_ends_it_on_the_servers_word(live, browser: Browser) -> None:
    """The page's clock reaches 0 and asks the club, whose clock is final: the attempt ends at its deadline
    with what was found in time, and is ranked."""
    base, club = live
    errors: list[str] = []
    page = new_page(browser, errors)
    join(page, base, club, "bob")
    page.clock.install()
    page.select_option("#kind", "threes")
    page.get_by_role("button", name="Play today's challenge").click()
    chosen = club.sets.get("threes", club.today())  # type: ignore[attr-defined]
    expect(page.locator(".cell")).to_have_count(chosen.total)
    key = chosen.keys[0]
    for word in sorted(ORACLE[key]):
        guess(page, word)
    expect(page.locator(f'.cell[data-alphagram="{key}"]')).to_have_attribute("data-solved", "true")
    club.clock = lambda: club_time() + 2 * chosen.seconds  # type: ignore[attr-defined]  (its time is up)
    page.clock.run_for(int(chosen.seconds * 1000) + 1000)
    expect(page.locator("#result")).to_have_text(re.compile(rf"^Time is up\. Correct: 1 / {chosen.total} "))
    expect(page.get_by_role("timer")).to_have_text("0:00")
    from lexitrain.club.challenges import leaderboard

    board = leaderboard(club.db, club.sets, club.lex.name, "threes", club.today(), club.clock())  # type: ignore[attr-defined]
    assert [(row["member"], row["score"], row["seconds"]) for row in board] == [("bob", 1, chosen.seconds)]
    assert errors == []


def test_two_members_at_one_shared_wall_see_each_others_finds(live, browser: Browser, tmp_path: Path) -> None:
    """A table is played on the local app's wall: ann (at 1280x800) opens it, bob (on a phone) joins from the
    club's page; bob sitting down joins ann's counts; each one's find shows in the other's cell as it is made
    (the other's words apart, who found it in its title); a reload finds every word found; only ann, who
    opened it, ends it (two clicks), and both see the end: the scoreboard and the solutions."""
    base, club = live
    stopped = club_time()
    club.clock = lambda: stopped  # type: ignore[attr-defined]  (the table's two minutes never run out here)
    errors: list[str] = []
    ann, bob = new_page(browser, errors), new_page(browser, errors)
    ann.set_viewport_size({"width": 1280, "height": 800})
    bob.set_viewport_size({"width": 390, "height": 844})
    join(ann, base, club, "ann")
    join(bob, base, club, "bob")
    ann.select_option("#kind", "threes")
    ann.get_by_role("button", name="Open a table on today's set").click()  # (today's set: not before her ranked attempt)
    expect(ann.locator("#notice")).to_contain_text("today's threes is the club's ranked challenge")
    refused(errors)
    ranked_attempt_over(club, "ann", "threes")
    ann.get_by_role("button", name="Open a table on today's set").click()
    expect(ann).to_have_url(re.compile(r"/tables/\d+$"))
    chosen = club.sets.get("threes", club.today())  # type: ignore[attr-defined]
    expect(ann.locator(".cell")).to_have_count(chosen.total)
    expect(ann.locator("#progress")).to_have_text("ann's table · ann 0")
    words = sum(len(chosen.answers[key]) for key in chosen.keys)
    expect(ann.locator("#counts")).to_have_text(f"0/{words} words")
    bob.reload()
    bob.locator("#tables").get_by_role("button", name="Join").click()
    expect(bob.locator("#notice")).to_contain_text("today's threes is the club's ranked challenge")
    refused(errors)
    ranked_attempt_over(club, "bob", "threes")
    bob.locator("#tables").get_by_role("button", name="Join").click()
    expect(bob).to_have_url(ann.url)
    expect(bob.locator(".cell")).to_have_count(chosen.total)
    expect(ann.locator("#progress")).to_have_text("ann's table · ann 0 · bob 0")  # bob sat down
    expect(bob.get_by_role("button", name="End the table")).to_have_count(0)  # (only ann ends it)
    key = next(k for k in chosen.keys if len(ORACLE[k]) >= 2)
    first, *rest = sorted(ORACLE[key])  # bob finds the first word, ann every other one (the question solved)
    second = rest[0]
    guess(bob, first)
    expect(bob.locator("#last-guess")).to_have_text(f"{first} ✓")
    theirs = ann.locator(f'.cell[data-alphagram="{key}"] .found li')
    expect(theirs).to_have_text([first])  # bob's find, on ann's wall as it is made
    expect(theirs).to_have_class("theirs")
    expect(theirs).to_have_attribute("title", "found by bob")
    assert colour(theirs) == accent(ann) != colour(ann.locator(f'.cell[data-alphagram="{key}"] .found'))
    expect(ann.locator("#progress")).to_have_text("ann's table · bob 1 · ann 0")
    expect(ann.locator("#counts")).to_have_text(f"1/{words} words")
    guess(ann, first)
    expect(ann.locator("#last-guess")).to_have_text(f"{first}: found already")
    guess(ann, second)
    expect(ann.locator("#last-guess")).to_have_text(f"{second} ✓")
    expect(bob.locator(f'.cell[data-alphagram="{key}"] .found li')).to_have_text([first, second])
    expect(bob.locator("#counts")).to_have_text(f"2/{words} words")
    mine, hers = bob.locator(f'.cell[data-alphagram="{key}"] .found li').all()
    assert colour(hers) == accent(bob) != colour(mine)  # on a phone too: ann's word blue, bob's own green
    for word in rest[1:]:  # (the day's question may have a third answer or more: ann finds them too)
        guess(ann, word)
        expect(ann.locator("#last-guess")).to_have_text(f"{word} ✓")
    bob.reload()  # every word found comes back, with who found it
    expect(bob.locator(f'.cell[data-alphagram="{key}"] .found li')).to_have_text([first, *rest])
    expect(bob.locator(f'.cell[data-alphagram="{key}"] .found li.theirs')).to_have_text(rest)
    scores = f"ann {len(rest)} · bob 1"
    expect(bob.locator("#progress")).to_have_text(f"ann's table · {scores}")
    assert colour(bob.locator(f'.cell[data-alphagram="{key}"] .found li.theirs').first) == accent(bob)
    assert not overflowing(ann) and not overflowing(bob), (overflowing(ann), overflowing(bob))
    shot(ann, tmp_path, "table-laptop")
    shot(bob, tmp_path, "table-phone")
    end = ann.get_by_role("button", name="End the table")
    end.click()
    expect(end).to_have_text("Are you sure?")
    end.click()
    for page in (ann, bob):
        expect(page.locator("#result")).to_have_text(re.compile(rf"^The table is over: {scores}\. Correct: "))
        expect(page.locator("table#solutions")).to_be_visible()
        expect(word_row(page, first)).not_to_have_class(re.compile("unsolved"))  # every answer of it found
        expect(page.get_by_role("textbox", name="Guess")).to_be_hidden()
    shot(bob, tmp_path, "table-end-phone")
    bob.get_by_role("link", name="Done: back to the club").click()
    expect(bob.locator("#tables tbody tr")).to_have_count(0)  # the table is over: nothing to join
    assert errors == []


def test_a_shared_tables_time_running_out_ends_it_for_everyone_seated(live, browser: Browser, tmp_path: Path) -> None:
    """A shared table's wall shows its timer counting down, as the challenge's does (the club's list of tables says
    the time left); at 0 the round ends for the whole table on the club's word: every seated member's page shows
    "Time is up", the scoreboard of the finds made in time and the solutions, and takes no more guesses. Ann at
    1280x800, bob on a phone (the timer and the guess box in view while the cells scroll), carol at 1000x600 (a
    solved cell of the most words not cut off)."""
    base, club = live
    now = [club_time()]
    club.clock = lambda: now[0]  # type: ignore[attr-defined]
    errors: list[str] = []
    pages = {name: new_page(browser, errors) for name in ("ann", "bob", "carol")}
    for name, (width, height) in zip(pages, (SIZES["laptop"], SIZES["phone"], SIZES["small"])):
        pages[name].set_viewport_size({"width": width, "height": height})
        join(pages[name], base, club, name)
        ranked_attempt_over(club, name, "threes")
        pages[name].clock.install()
    ann, bob, carol = pages.values()
    chosen = club.sets.get("threes", club.today())  # type: ignore[attr-defined]
    ann.select_option("#kind", "threes")
    ann.get_by_role("button", name="Open a table on today's set").click()
    expect(ann).to_have_url(re.compile(r"/tables/\d+$"))
    for page in (bob, carol):
        page.reload()
        loaded(page)
        listed = page.locator("#tables tbody tr")
        expect(listed).to_have_count(1)
        whole = int(chosen.seconds)  # (the threes' time: the club's clock stands still until the test moves it)
        expect(listed).to_contain_text(f"{whole // 60}:{whole % 60:02d} left")
        listed.get_by_role("button", name="Join").click()
        expect(page).to_have_url(ann.url)
    for page in pages.values():
        expect(page.locator(".cell")).to_have_count(chosen.total)
        expect(page.get_by_role("timer")).to_have_text(re.compile(r"^[12]:\d\d$"))  # running, not "untimed"
    expect(ann.locator("#progress")).to_have_text("ann's table · ann 0 · bob 0 · carol 0")
    most = max(chosen.keys, key=lambda k: (len(ORACLE[k]), k))  # the cell of the most words
    assert len(ORACLE[most]) >= 3
    for word in sorted(ORACLE[most]):
        guess(carol, word)
    other = next(k for k in chosen.keys if k != most)
    guess(bob, sorted(ORACLE[other])[0])
    for page in pages.values():
        expect(page.locator(f'.cell[data-alphagram="{most}"]')).to_have_attribute("data-solved", "true")
        expect(page.locator(f'.cell[data-alphagram="{other}"] .found li')).to_have_count(1)
        assert not overflowing(page), overflowing(page)
    shot(carol, tmp_path, "table-timed-small")
    shot(ann, tmp_path, "table-timed-laptop")
    bob.locator(".cell").last.scroll_into_view_if_needed()
    expect(bob.locator(".cell").last).to_be_in_viewport()
    expect(bob.get_by_role("timer")).to_be_in_viewport()
    expect(bob.get_by_role("textbox", name="Guess")).to_be_in_viewport()
    shot(bob, tmp_path, "table-timed-phone-scrolled")
    now[0] += chosen.seconds + 1  # the club's clock: the table's time is up
    for page in pages.values():
        page.clock.run_for((chosen.seconds + 1) * 1000)  # (each page's clock reaches 0 and asks the club)
    solved = 1 + (len(ORACLE[other]) == 1)
    for page in pages.values():
        expect(page.locator("#result")).to_have_text(re.compile(
            rf"^Time is up: carol {len(ORACLE[most])} · bob 1 · ann 0\. Correct: {solved} / {chosen.total} \(\d+%\)$"))
        expect(page.get_by_role("timer")).to_have_text("0:00")
        expect(page.locator("table#solutions")).to_be_visible()
        expect(page.get_by_role("textbox", name="Guess")).to_be_hidden()
        assert not overflowing(page), overflowing(page)
    shot(bob, tmp_path, "table-timed-end-phone")
    bob.get_by_role("link", name="Done: back to the club").click()
    loaded(bob)
    expect(bob.locator("#tables tbody tr")).to_have_count(0)  # over: nothing to join
    assert errors == []


def test_the_opener_sets_a_shared_tables_time_on_the_clubs_page(live, browser: Browser, tmp_path: Path) -> None:
    """The club's page has a Time field beside "Open a table": a time typed wrong is refused in one line and opens
    nothing; 1:30 opens a table whose round lasts 90 s (the list of tables says "1:30 left", the wall's timer
    starts from it); on a phone the field and the button fit the screen."""
    base, club = live
    stopped = club_time()
    club.clock = lambda: stopped  # type: ignore[attr-defined]  (the table's time stands still)
    errors: list[str] = []
    ann, bob = new_page(browser, errors), new_page(browser, errors)
    bob.set_viewport_size({"width": 390, "height": 844})
    join(ann, base, club, "ann")
    join(bob, base, club, "bob")
    ranked_attempt_over(club, "ann", "threes")
    ann.select_option("#kind", "threes")
    time_field = ann.get_by_label("Time")
    for wrong in ("10 s", "0:10", "61"):
        time_field.fill(wrong)
        ann.get_by_role("button", name="Open a table on today's set").click()
        expect(ann.locator("#notice")).to_have_text("a table's time: minutes (3) or m:ss (1:30), from 0:30 to 60:00")
        ann.locator("#notice").evaluate("n => { n.textContent = ''; }")
    loaded(bob)
    expect(bob.locator("#tables tbody tr")).to_have_count(0)  # nothing opened
    time_field.fill("1:30")
    ann.get_by_role("button", name="Open a table on today's set").click()
    expect(ann).to_have_url(re.compile(r"/tables/\d+$"))
    ann.clock.install()
    ann.reload()
    expect(ann.get_by_role("timer")).to_have_text("1:30")
    listed = bob.locator("#tables tbody tr")
    bob.reload()
    loaded(bob)
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text("1:30 left")
    field = bob.get_by_label("Time")
    field.scroll_into_view_if_needed()
    expect(field).to_be_in_viewport()
    box = field.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390, box
    assert not overflowing(bob), overflowing(bob)
    shot(bob, tmp_path, "club-table-time-phone")
    shot(ann, tmp_path, "club-table-time-wall")
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
    expect(page.locator(".cell")).to_have_count(total)
    give_up = page.get_by_role("button", name="Give up")
    give_up.click()
    expect(give_up).to_have_text("Are you sure?")
    give_up.click()
    expect(page.locator("#result")).to_contain_text("Correct: 0 /")
    page.get_by_role("link", name="Done: back to the club").click()
    club.clock = lambda: club_time() + 86400  # type: ignore[attr-defined]  (a day later)
    page.click("#study-start")
    expect(page.locator("#due-count")).to_have_text(f"{total} due")
    first = letters_shown(page)
    page.fill("#study-answer", " ".join(sorted(ORACLE[first])).lower())
    page.press("#study-answer", "Enter")
    verdict, next_card = page.locator("#study-verdict"), page.get_by_role("button", name="Next")
    expect(verdict).to_contain_text(f"Right: {' '.join(sorted(ORACLE[first]))}")
    expect(page.locator("#due-count")).to_have_text(f"{total - 1} due")
    assert letters_shown(page) == first  # the verdict under the card it is about, not under the next one
    expect(page.locator("#study-answer")).to_be_hidden()
    expect(next_card).to_be_focused()
    page.keyboard.press("Enter")  # (Next, as the local app's reviews go on)
    expect(verdict).to_be_hidden()
    expect(next_card).to_be_hidden()
    expect(page.locator("#study-answer")).to_be_focused()
    second = letters_shown(page)
    assert second != first
    page.fill("#study-answer", "zzz")
    page.press("#study-answer", "Enter")
    expect(verdict).to_contain_text(f"Missed {second}")
    expect(page.locator("#due-count")).to_have_text(f"{total - 2} due")
    assert letters_shown(page) == second
    next_card.click()
    expect(verdict).to_be_hidden()
    assert letters_shown(page) not in (first, second)
    from lexitrain.club.members import member_named

    ann = member_named(club.db, "ann")  # type: ignore[attr-defined]
    assert ann is not None
    with club.stores.open(ann.id) as store:  # type: ignore[attr-defined]  (the member's own study store)
        counts = {card.key: (card.correct, card.incorrect) for card in store.scheduled_cards()}
    assert counts[first] == (1, 1) and counts[second] == (0, 2)
    assert errors == []


def letters_shown(page: Page) -> str:
    """The letters of the card the club's page asks, as the member reads them (its tiles)."""
    expect(page.locator("#study-prompt .letter")).not_to_have_count(0)
    return "".join(page.locator("#study-prompt .letter").all_text_contents())


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


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_member_answers_their_position_cards_on_the_club_page(enable, real_games: Path, browser: Browser,
                                                                 tmp_path: Path, size: str) -> None:
    """Cards made from the member's games (an endgame solved, a read-the-rack card) are asked on the club's page as
    the local app's reviews ask them: the board, the rack, what it asks; an illegal play refused in one line with
    the card kept; the verdict and the endgame's values after the answer; nothing off the screen on a phone."""
    from lexitrain.club.app import Club, create_app
    from lexitrain.club.members import member_named
    from lexitrain.club.store import ClubDatabase
    from lexitrain.engine.analysis import Analyst
    from lexitrain.study.records.from_games import GameCards, add_due_cards, analyse_turn, cards_from_games
    from test_engine_analysis import DOUG
    from test_study_analysed import ENDGAME

    errors: list[str] = []
    with ClubDatabase(str(tmp_path / "club.sqlite")) as db:
        club = Club(db, enable, clock=lambda: time.time() + 60)
        with serving(create_app(club)) as port:
            base = f"http://127.0.0.1:{port}"
            page = new_page(browser, errors)
            page.set_viewport_size(dict(zip(("width", "height"), SIZES[size])))
            join(page, base, club, "ann")
            ann = member_named(db, "ann")
            assert ann is not None
            club.settle(ann.id)
            with club.stores.open(ann.id) as store:  # (the cards the member's `study from-games` made and synced)
                endgame = GameCards()
                analyse_turn(store, enable, Analyst.of_lexicon(enable), "noah v mishu: turn 32", ENDGAME, 0, 8.0,
                             endgame)
                add_due_cards(store, enable, endgame)
                time.sleep(0.01)  # (the read-rack cards due after it: the endgame is asked first)
                cards_from_games(store, enable, [real_games / DOUG], "doug", points=1000, read_rack=True)
            page.click("#study-start")
            expect(page.locator("#study-kind")).to_have_text("endgame")
            expect(page.locator("#study-prompt table.board td.tile")).not_to_have_count(0)
            expect(page.locator("#study-prompt .rack .letter")).to_have_text(list("LLPR"))
            expect(page.locator("#study-prompt")).to_contain_text("the opponent holds AEIY")
            page.fill("#study-answer", "9A ALL")
            page.press("#study-answer", "Enter")
            expect(page.locator("#study-refused")).to_have_text("square 9A holds I, not A")
            expect(page.locator("#study-kind")).to_have_text("endgame")  # the same card, to try again
            page.fill("#study-answer", "13L HOER")
            page.press("#study-answer", "Enter")
            expect(page.locator("#study-verdict")).to_contain_text("Best! 13L ...R is worth -34 to the end")
            expect(page.locator("#study-verdict")).to_have_class(re.compile("right"))
            expect(page.locator("#study-plays thead th")).to_have_text(["Play", "Word", "Score", "Value"])
            # (either best first play may lead the line the solver read back: both are worth -34)
            expect(page.locator("#study-line")).to_have_text(re.compile(r"^A best line: (13L HOER 7|9A ILL 4), "))
            expect(page.locator("#study-kind")).to_have_text("endgame")  # (the card answered, until Next)
            expect(page.locator("#study-prompt .rack .letter")).to_have_text(list("LLPR"))
            page.locator("#study").scroll_into_view_if_needed()
            shot(page, tmp_path, f"cards-endgame-answered-{size}")
            page.get_by_role("button", name="Next").click()
            expect(page.locator("#study-verdict")).to_be_hidden()
            expect(page.locator("#study-kind")).to_have_text("anagram")  # the game's missed bingo, as letters
            page.fill("#study-answer", "reunify")
            page.press("#study-answer", "Enter")
            expect(page.locator("#study-verdict")).to_contain_text("Right: REUNIFY")
            page.get_by_role("button", name="Next").click()
            for word in ("YAS", "QI"):  # the phonies played, a word to judge
                expect(page.locator("#study-kind")).to_have_text("valid-or-phony")
                expect(page.locator("#study-prompt .letter")).to_have_text(list(word))
                expect(page.locator("#study-about")).to_have_text("valid or phony? (type v or p)")
                page.fill("#study-answer", "p")
                page.press("#study-answer", "Enter")
                expect(page.locator("#study-verdict")).to_contain_text(f"Right: {word} is a phony. Next review")
                expect(page.locator("#study-prompt .letter")).to_have_text(list(word))
                page.get_by_role("button", name="Next").click()
            expect(page.locator("#study-kind")).to_have_text("read-rack")
            expect(page.locator("#study-prompt")).to_contain_text("What did your opponent keep?")
            expect(page.locator("#study-prompt table.board td.last")).not_to_have_count(0)  # their move marked
            page.locator("#study").scroll_into_view_if_needed()
            shot(page, tmp_path, f"cards-read-rack-{size}")
            page.press("#study-answer", "Enter")  # no answer: missed, the inference's likeliest leaves shown
            expect(page.locator("#study-verdict")).to_have_class(re.compile("missed"))
            expect(page.locator("#study-plays thead th")).to_have_text(["leave", "inference"])
            expect(page.locator("#study-plays tbody tr")).not_to_have_count(0)
            expect(page.locator("#study-prompt")).to_contain_text("What did your opponent keep?")  # its own question
            shot(page, tmp_path, f"cards-answered-{size}")
            assert overflowing(page) == [] and errors == []


def test_an_admin_makes_an_invitation_code_on_the_clubs_page(live, browser: Browser, tmp_path: Path) -> None:
    """An organiser invites from the club's page (before: only the API or `lexitrain serve invite` on the server):
    an admin's page has "Make an invitation code", which shows a code a new member joins with; a member who is
    not an admin has no such part."""
    from lexitrain.club.members import make_admin

    base, club = live
    errors: list[str] = []
    ann, bob, carol = new_page(browser, errors), new_page(browser, errors), new_page(browser, errors)
    join(ann, base, club, "ann")
    join(bob, base, club, "bob")
    expect(bob.get_by_role("button", name="Make an invitation code")).to_be_hidden()
    make_admin(club.db, "ann")  # type: ignore[attr-defined]
    ann.reload()
    expect(ann.locator("#who")).to_have_text("ann (admin)")
    ann.set_viewport_size({"width": 390, "height": 844})
    ann.get_by_role("button", name="Make an invitation code").click()
    code = ann.locator("#invite-code")
    expect(code).to_have_text(re.compile(r"^\S{12,}$"))
    shot(ann, tmp_path, "invite-phone")
    assert not overflowing(ann), overflowing(ann)
    carol.goto(base + "/")
    form = carol.locator("#join-form")
    form.get_by_label("Name").fill("carol")
    form.get_by_label("Password (8+ characters)").fill(PASSWORD)
    form.get_by_label("Invitation code").fill(code.inner_text())
    form.get_by_role("button", name="Join").click()
    expect(carol.locator("#who")).to_have_text("carol")
    assert errors == []


def test_an_admin_resets_a_password_and_removes_a_member_on_the_clubs_page(live, browser: Browser,
                                                                             tmp_path: Path) -> None:
    """An organiser resets a member's password and removes a member on the club's page (before: only the API),
    each asked in a dialog first: Cancel changes nothing; the reset ends the member's session (their page's next
    write is refused) and the new password logs them in; the removal hands the admin the member's progress as a
    file. A member who is not an admin has no Members part."""
    from lexitrain.club.members import make_admin, member_named

    base, club = live
    errors: list[str] = []
    ann, bob, carol = (new_page(browser, errors) for _ in range(3))
    for page, name in ((ann, "ann"), (bob, "bob"), (carol, "carol")):
        join(page, base, club, name)
    expect(bob.locator("#members")).to_be_hidden()
    make_admin(club.db, "ann")  # type: ignore[attr-defined]
    ann.reload()
    members = ann.locator("#members tbody tr")
    expect(members).to_have_count(3)
    expect(members.nth(0)).to_contain_text("ann (admin)")
    expect(members.nth(0).get_by_role("button")).to_have_count(0)  # (an admin does not remove themself)
    ann.get_by_role("button", name="Reset bob's password").click()
    dialog = ann.locator("#reset-dialog")
    expect(dialog).to_contain_text("A new password for bob")
    shot(ann, tmp_path, "reset-dialog")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    ann.get_by_role("button", name="Reset bob's password").click()
    dialog.get_by_label("New password (8+ characters)").fill("short")
    dialog.get_by_role("button", name="Set the password").click()
    expect(dialog).to_be_visible()  # (too short: the browser asks again, nothing sent)
    dialog.get_by_label("New password (8+ characters)").fill("a fresh start")
    dialog.get_by_role("button", name="Set the password").click()
    expect(ann.locator("#members-said")).to_have_text(
        "bob's password is set and their sessions ended: give them the new one.")
    bob.get_by_role("button", name="Review due cards").click()
    expect(bob.locator("#notice")).to_have_text("Your session has ended (a new password, a log-out elsewhere, or 30 "
                                                "days passed): log in again.")  # (was "log in first (POST /api/session)")
    assert len(errors) == 1 and "401" in errors[0], errors
    errors.clear()
    form = bob.locator("#login-form")  # (the login is back, without a reload)
    form.get_by_label("Name").fill("bob")
    form.get_by_label("Password").fill("a fresh start")
    form.get_by_role("button", name="Log in").click()
    expect(bob.locator("#who")).to_have_text("bob")

    for size in ((1280, 800), (390, 844)):
        ann.set_viewport_size({"width": size[0], "height": size[1]})
        ann.locator("#members").scroll_into_view_if_needed()
        shot(ann, tmp_path, f"members-{size[0]}")
        assert overflowing(ann) == [], (size, overflowing(ann))
    ann.get_by_role("button", name="Remove carol").click()
    removing = ann.locator("#remove-dialog")
    expect(removing).to_contain_text("Remove carol from the club?")
    shot(ann, tmp_path, "remove-dialog-390")
    removing.get_by_role("button", name="Cancel").click()
    assert member_named(club.db, "carol") is not None  # type: ignore[attr-defined]
    ann.get_by_role("button", name="Remove carol").click()
    with ann.expect_download() as got:
        removing.get_by_role("button", name="Remove carol").click()
    saved = got.value
    assert saved.suggested_filename == "carol-progress.json"
    assert "cards" in json.loads(Path(saved.path()).read_text())
    expect(ann.locator("#members-said")).to_have_text(
        "carol is removed; their progress was saved as carol-progress.json, for you to hand to them.")
    expect(members).to_have_count(2)
    assert member_named(club.db, "carol") is None  # type: ignore[attr-defined]
    assert errors == [], errors


def test_a_member_changes_their_own_password_on_the_clubs_page(live, browser: Browser, tmp_path: Path) -> None:
    """Before, only an admin could set a member's password. "Change password" asks for the current one and the new
    one twice: two new ones that differ are caught by the browser before anything is sent, a wrong current one is
    said in one line and keeps the member in; once changed, the page that changed it stays logged in and the
    member's other browser is sent back to the login, where the new password works. At 1280 and 390 px wide."""
    base, club = live
    errors: list[str] = []
    laptop, phone = new_page(browser, errors), new_page(browser, errors)
    phone.set_viewport_size({"width": 390, "height": 844})
    join(laptop, base, club, "ann")
    loaded(laptop)
    phone.goto(base + "/")
    login = phone.locator("#login-form")
    login.get_by_label("Name").fill("ann")
    login.get_by_label("Password").fill(PASSWORD)
    login.get_by_role("button", name="Log in").click()
    loaded(phone)
    form = laptop.locator("#password-form")
    form.get_by_label("Current password").fill("not my password")
    form.get_by_label("New password (8+ characters)").fill("a brand new one")
    form.get_by_label("New password again").fill("a brand new one")
    form.get_by_role("button", name="Change password").click()
    expect(laptop.locator("#password-refused")).to_have_text("the current password is wrong")
    expect(laptop.locator("#password-refused")).to_be_in_viewport()
    refused(errors)
    expect(laptop.locator("#who")).to_have_text("ann")
    form.get_by_label("Current password").fill(PASSWORD)
    form.get_by_label("New password again").fill("a brand new two")
    sent: list[str] = []
    laptop.on("request", lambda request: sent.append(request.url) if "/api/password" in request.url else None)
    form.get_by_role("button", name="Change password").click()
    again = form.get_by_label("New password again")
    expect(again).to_have_js_property("validationMessage", "The two new passwords differ.")
    laptop.wait_for_timeout(300)
    assert sent == []  # (nothing was sent)
    again.fill("a brand new one")
    form.get_by_role("button", name="Change password").click()
    expect(laptop.locator("#password-said")).to_have_text("Your password is changed; your other sessions have ended.")
    expect(form.get_by_label("Current password")).to_have_value("")
    for page, width in ((laptop, 1280), (phone, 390)):
        page.locator("#password-form").scroll_into_view_if_needed()
        shot(page, tmp_path, f"change-password-{width}")
        assert overflowing(page) == [], (width, overflowing(page))
    laptop.get_by_role("button", name="Review due cards").click()  # (this session goes on)
    expect(laptop.locator("#due-count")).to_have_text(re.compile(r"^\d+ due$"))
    phone.get_by_role("button", name="Review due cards").click()
    expect(phone.locator("#notice")).to_have_text("Your session has ended (a new password, a log-out elsewhere, or "
                                                  "30 days passed): log in again.")
    assert len(errors) == 1 and "401" in errors[0], errors
    errors.clear()
    login.get_by_label("Name").fill("ann")
    login.get_by_label("Password").fill(PASSWORD)
    login.get_by_role("button", name="Log in").click()
    expect(phone.locator("#notice")).to_have_text("wrong name or password")
    refused_login = errors.pop()
    assert "401" in refused_login and errors == [], errors
    login.get_by_label("Password").fill("a brand new one")
    login.get_by_role("button", name="Log in").click()
    expect(phone.locator("#who")).to_have_text("ann")
    assert errors == [], errors
