"""The web app in a real browser: Playwright driving Debian's chromium against one live server per session.

Skipped where no chromium (or no playwright) is found, unless LEXITRAIN_REQUIRE_BROWSER=1 (CI sets it):
then a missing browser fails. The server's clock is injected and the page's clock installed, so a
round's time runs out without sleeping. Every test fails on a page error or a console error, and
saves a screenshot when it fails. With LEXITRAIN_SCREENSHOTS=DIR the page tour also writes the
screenshots the README shows (docs/images).
"""

from __future__ import annotations

import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pytest

from study_helpers import anagram_oracle
from web_helpers import (EMPTY_BOARD, ILLEGAL_PLAY, NAME, POSITION, SCRIPT, TOP_PLAY, TOP_SCORE, Clock, make_web_lexicon,
                         overflowing, serving, solved_real_endgame)
from web_helpers import CHROMIUM_ARGS as ARGS
from web_helpers import chromium_or_skip

CHROMIUM = chromium_or_skip()
from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402  (after the skip)
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

ORACLE = anagram_oracle()
VIEWPORTS = {"laptop": (1000, 600), "desktop": (1920, 1080), "phone": (390, 844)}
SECRET = "browser-test-key"


@dataclass
class Live:
    base: str
    home: Path
    clock: Clock
    today: Callable[[], date]  # the app's day (`Context.today`), not the test's

    def url(self, path: str) -> str:
        """PATH with the launch key (the app sets its cookie and sends the browser on without it)."""
        return f"{self.base}{path}{'&' if '?' in path else '?'}key={SECRET}"


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """One server for the module, on its own home with the test lexicon, on a socket listening before use."""
    from lexitrain.study.store import ProgressStore
    from lexitrain.web.app import create_app
    from lexitrain.web.context import Context

    home = tmp_path_factory.mktemp("web-home")
    old = os.environ.get("LEXITRAIN_HOME")
    os.environ["LEXITRAIN_HOME"] = str(home)
    make_web_lexicon(home)
    clock = Clock()
    store = ProgressStore()
    sock = socket.create_server(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    ctx = Context(store, NAME, clock=clock, secret=SECRET, hosts=frozenset({f"127.0.0.1:{port}"}))
    with serving(create_app(ctx), sock):
        yield Live(f"http://127.0.0.1:{port}", home, clock, ctx.today)
    store.close()
    if old is None:
        del os.environ["LEXITRAIN_HOME"]
    else:
        os.environ["LEXITRAIN_HOME"] = old


@pytest.fixture(autouse=True)
def home(live: Live, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The server's home is every test's home here (the CLI run beside it must see the same store)."""
    monkeypatch.setenv("LEXITRAIN_HOME", str(live.home))
    return live.home


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Browser, request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Page]:
    """A fresh tab at laptop size that fails the test on any page error or console error."""
    context = browser.new_context(viewport={"width": 1000, "height": 600})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    page.on("console", lambda msg: errors.append(f"console {msg.type}: {msg.text}") if msg.type == "error" else None)
    failed_before = request.session.testsfailed
    yield page
    if request.session.testsfailed > failed_before and not page.is_closed():
        shot = tmp_path / "failure.png"
        try:
            page.screenshot(path=str(shot), full_page=True)
            print(f"screenshot of the failure: {shot}")
        except PlaywrightError:  # the test closed its tab
            pass
    context.close()
    assert not errors, errors


def answers(key: str) -> list[tuple[str, int]]:
    """What the progress store holds for an alphagram (read beside the server, as the CLI would)."""
    from lexitrain.study.store import progress_path

    with sqlite3.connect(progress_path()) as conn:
        return conn.execute("SELECT given, correct FROM answers WHERE key = ? ORDER BY id", (key,)).fetchall()


def sessions() -> int:
    from lexitrain.study.store import progress_path

    with sqlite3.connect(progress_path()) as conn:
        return int(conn.execute("SELECT count(*) FROM sessions").fetchone()[0])


def cli(*args: str, stdin: str = "") -> str:
    result = subprocess.run([sys.executable, "-m", "lexitrain", *args], input=stdin, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def start_wall(page: Page, live: Live, conditions: str, minutes: str = "5", restart: bool = False,
               practice: bool = False, source: str = "search") -> None:
    """Start a wall from the home page's form, by keyboard."""
    page.goto(live.url("/"))
    page.get_by_label("Source").select_option(source)
    page.get_by_label("Conditions, list, saved search or file").fill(conditions)
    if restart:
        page.get_by_label("start afresh").check()
    if practice:
        page.get_by_label("practice (no schedule)").check()
    page.get_by_label("Minutes (0: untimed)").fill(minutes)
    page.get_by_label("Minutes (0: untimed)").press("Enter")
    expect(page.get_by_role("textbox", name="Guess")).to_be_focused()


def guess(page: Page, word: str) -> None:
    box = page.get_by_role("textbox", name="Guess")
    box.type(word.lower())  # the box upper-cases as it goes
    with page.expect_response(lambda response: response.url.endswith("/guess")):
        box.press("Enter")


def cell(page: Page, alphagram: str):
    return page.locator(f'.cell[data-alphagram="{alphagram}"]')


# -- the word wall ---------------------------------------------------------------------------


def test_a_whole_wall_solved_by_typing(page: Page, live: Live):
    start_wall(page, live, "--length 7")
    expect(page.locator(".cell")).to_have_count(2)
    expect(cell(page, "AEILRST")).to_have_attribute("data-solved", "false")
    expect(page.get_by_role("timer")).to_have_text(re.compile(r"^[45]:\d\d$"))
    guess(page, "SALTIER")
    expect(cell(page, "AEILRST")).to_have_attribute("data-solved", "true")
    expect(cell(page, "AEILRST")).to_contain_text("SALTIER")
    for word in sorted(ORACLE["AEINRST"]):
        guess(page, word)
    expect(page.locator("#result")).to_have_text("Solved. Correct: 2 / 2 (100%)")
    table = page.locator("table#solutions")
    expect(table.locator("tbody tr")).to_have_count(1 + len(ORACLE["AEINRST"]))
    expect(table.locator("tr.unsolved")).to_have_count(0)
    assert answers("AEILRST")[-1] == ("SALTIER", 1)


def test_a_wrong_word_an_already_found_word_then_give_up_and_read_the_solutions(page: Page, live: Live):
    start_wall(page, live, "--length 7")
    last = page.locator("#last-guess")
    guess(page, "RETAINS")
    expect(last).to_have_class("correct")
    guess(page, "RETAINS")
    expect(last).to_have_class("already")
    expect(last).to_have_text("RETAINS: found already")
    guess(page, "TRAINES")  # the tiles of an open question, not a word: counted wrong
    expect(last).to_have_class("wrong")
    expect(page.locator("#counts")).to_contain_text("1 wrong")
    give_up = page.get_by_role("button", name="Give up")
    give_up.click()
    expect(give_up).to_have_text("Are you sure?")  # the first click only asks
    expect(page.locator("#playing")).to_be_visible()
    give_up.click()
    expect(page.locator("#result")).to_have_text("Given up. Correct: 0 / 2 (0%)")
    expect(page.get_by_role("timer")).to_be_empty()  # no time left standing there as if the clock still ran
    expect(page.get_by_role("textbox", name="Guess")).to_be_hidden()  # nothing left to guess
    key = page.locator("#solutions-key")  # what the rows' colours and the dots mean
    expect(key).to_contain_text("missed")
    expect(key).to_contain_text("a wrong guess")
    expect(key).to_contain_text("inner hook")
    rows = page.locator("table#solutions tbody tr")
    expect(rows.filter(has_text="NASTIER")).to_have_class(re.compile("tried"))  # a wrong guess was made there
    expect(rows.filter(has_text="SALTIER")).to_have_class(re.compile("unsolved"))
    retains = rows.filter(has_text="RETAINS")
    expect(retains.locator(".definition")).to_have_text(f"keeps {SCRIPT}")  # markup shown as text
    expect(retains).to_have_class(re.compile("found-word"))
    rows.filter(has_text="SALTIER").get_by_role("button", name="Mark correct").click()
    expect(rows.filter(has_text="SALTIER").get_by_role("button", name="Mark missed")).to_be_visible()


def test_hot_keys_reorder_and_a_solved_cell_stays_in_its_place(page: Page, live: Live):
    start_wall(page, live, "--length 3", minutes="0")
    expect(page.get_by_role("timer")).to_have_text("untimed")
    cells = page.locator(".cell")
    total = int(re.search(r"of (\d+)", page.locator("#progress").inner_text()).group(1))
    expect(cells).to_have_count(total)  # the whole round on show
    letters = page.locator(".cell .letters")
    before = letters.all_inner_texts()
    box = page.get_by_role("textbox", name="Guess")
    box.press("1")
    expect(box).to_have_value("")  # a hot key, not a letter
    expect(letters).not_to_have_text(before)
    box.press("2")
    expect(letters).to_have_text([a.replace("\n", "") for a in before])
    order = cells.evaluate_all("cells => cells.map(c => c.dataset.alphagram)")
    first = order[0]
    for word in sorted(ORACLE[first]):
        guess(page, word)
    expect(cells.first).to_have_attribute("data-solved", "true")  # solved, and still where it was
    assert cells.evaluate_all("cells => cells.map(c => c.dataset.alphagram)") == order


@pytest.mark.parametrize("size", [(1280, 800), (1000, 600)])
def test_all_50_cells_of_a_wall_are_on_screen_without_scrolling(page: Page, live: Live, size: tuple[int, int]):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    start_wall(page, live, "--length 2-3")
    cells = page.locator(".cell")
    expect(cells).to_have_count(50)
    boxes = cells.evaluate_all("cells => cells.map(c => c.getBoundingClientRect().toJSON())")
    assert all(b["top"] >= 0 and b["bottom"] <= height and b["left"] >= 0 and b["right"] <= width for b in boxes)
    assert min(b["height"] for b in boxes) >= 30, boxes  # room for a row of tiles
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
    assert not overflowing(page), overflowing(page)
    sizes = page.locator(".cell .letter").evaluate_all("ls => ls.map((l) => parseFloat(getComputedStyle(l).fontSize))")
    assert min(sizes) >= 14, sizes
    guess(page, sorted(ORACLE[cells.first.get_attribute("data-alphagram")])[0])
    expect(page.locator("#last-guess")).to_have_class("correct")


def test_on_a_phone_every_cell_is_reached_by_scrolling_and_nothing_overflows(page: Page, live: Live):
    page.set_viewport_size({"width": 390, "height": 844})
    start_wall(page, live, "--length 2-3")
    cells = page.locator(".cell")
    expect(cells).to_have_count(50)
    assert not overflowing(page), overflowing(page)
    cells.last.scroll_into_view_if_needed()
    expect(cells.last).to_be_in_viewport()
    head = page.locator(".wall-head").bounding_box()
    assert head is not None and head["height"] < 60  # the title on one line, not five
    # the timer and the guess box stay in view while the cells scroll under them
    expect(page.get_by_role("timer")).to_be_in_viewport()
    expect(page.get_by_role("textbox", name="Guess")).to_be_in_viewport()
    last = cells.last.bounding_box()
    box = page.get_by_role("textbox", name="Guess").bounding_box()
    assert last is not None and box is not None and box["y"] + box["height"] <= last["y"]  # above the cells, not on them
    guess(page, sorted(ORACLE[cells.last.get_attribute("data-alphagram")])[0])  # typed with the last cell in view
    expect(cells.last.locator(".found")).not_to_be_empty()


def many_words_wall(page: Page, live: Live, tmp_path: Path) -> None:
    """A 50-cell wall (49 twos and threes, and RETAINS with its 9 anagrams, ENTRAILS with its 4) from a word file."""
    short = sorted(min(words) for key, words in ORACLE.items() if len(key) <= 3)  # (one word of each alphagram)
    words = short[:48] + ["RETAINS", "ENTRAILS"]
    mine = tmp_path / "many.txt"
    mine.write_text("\n".join(words) + "\n", encoding="utf-8")
    start_wall(page, live, str(mine), source="file")


@pytest.mark.parametrize("size", [(1280, 800), (1000, 600), (1920, 1080)])
def test_a_cell_with_many_words_found_shows_them_all_and_tall_cells_have_tall_tiles(
        page: Page, live: Live, tmp_path: Path, size: tuple[int, int]):
    """A solved cell of nine words and a cell with three of its four words found keep every word inside the cell
    (at 1000x600 they were cut off below); the tiles of a cell fill a good part of its height (on a desktop they
    were small in tall cells)."""
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    many_words_wall(page, live, tmp_path)
    cells = page.locator(".cell")
    expect(cells).to_have_count(50)
    ratios = cells.evaluate_all("""cs => cs.map((c) => c.querySelector('.letter').getBoundingClientRect().height
                                                  / c.getBoundingClientRect().height)""")
    assert min(ratios) >= 0.4, ratios
    for word in sorted(ORACLE["AEINRST"]):
        guess(page, word)
    for word in sorted(ORACLE["AEILNRST"])[:3]:
        guess(page, word)
    expect(cell(page, "AEINRST")).to_have_attribute("data-solved", "true")
    for key, found in (("AEINRST", sorted(ORACLE["AEINRST"])), ("AEILNRST", sorted(ORACLE["AEILNRST"])[:3])):
        words = cell(page, key).locator(".found li")
        expect(words).to_have_text(found)
        # measured in one read of the page (the wall may draw the cell again between two reads from here)
        outside = cell(page, key).evaluate("""c => { const o = c.getBoundingClientRect();
            return [...c.querySelectorAll('.found li')].filter((w) => { const i = w.getBoundingClientRect();
                return i.top < o.top || i.bottom > o.bottom + 0.5 || i.left < o.left || i.right > o.right + 0.5; })
              .map((w) => w.textContent); }""")
        assert outside == [], (key, outside)
        sizes = words.evaluate_all("ws => ws.map((w) => parseFloat(getComputedStyle(w).fontSize))")
        assert min(sizes) >= 9, sizes  # still readable
    assert not overflowing(page), overflowing(page)
    assert page.evaluate("document.documentElement.scrollHeight <= window.innerHeight")
    give_up = page.get_by_role("button", name="Give up")  # (decided now: no later test's counts see its answers)
    give_up.click()
    expect(give_up).to_have_text("Are you sure?")
    give_up.click()
    expect(page.locator("#result")).to_contain_text("Given up.", timeout=30_000)


def test_a_finished_walls_solutions_fit_a_phone_and_show_no_empty_column(page: Page, live: Live):
    """No hooks, no Front and Back columns: on a phone the definitions and the mark buttons are on screen
    without scrolling sideways. Where words have hooks, their columns are there."""
    page.set_viewport_size({"width": 390, "height": 844})
    start_wall(page, live, "--length 7-8", practice=True)
    page.get_by_role("button", name="Give up").click()
    page.get_by_role("button", name="Give up").click()
    table = page.locator("table#solutions")
    expect(table).to_be_visible()
    assert table.locator("thead th:visible").all_inner_texts() == ["Prob.", "Alphagram", "Word", "Definition"]
    ranks = [r for r in table.locator("td.num:visible").all_inner_texts() if r]  # sevens and eights: each its length's
    assert ranks and all(re.fullmatch(r"[78]s #\d+", r) for r in ranks), ranks
    assert {r.split()[0] for r in ranks} == {"7s", "8s"}
    assert table.evaluate("t => t.parentElement.scrollWidth <= t.parentElement.clientWidth")  # nothing off to the side
    shown = [table.locator("td.definition", has_text="more salty"), *table.get_by_role("button").all()]
    assert len(shown) == 10  # a mark button for each of the nine questions
    for thing in shown:
        box = thing.bounding_box()
        assert box is not None and 0 <= box["x"] and box["x"] + box["width"] <= 390, (thing, box)
    assert not overflowing(page), overflowing(page)
    page.set_viewport_size({"width": 1000, "height": 600})
    start_wall(page, live, "--anagram AT", practice=True)  # AT takes E and S in front, TA takes N and R behind
    page.get_by_role("button", name="Give up").click()
    page.get_by_role("button", name="Give up").click()
    expect(table.locator("thead th:visible")).to_have_text(["Prob.", "Alphagram", "Front", "Word", "Back"])
    expect(table.locator("tr", has_text="TA").locator("td.hooks:not(.front)")).to_have_text("NR")


def test_a_double_clicked_start_makes_one_wall_and_a_reload_changes_nothing(page: Page, live: Live):
    page.goto(live.url("/"))
    page.get_by_label("Conditions, list, saved search or file").fill("--length 8")
    before = sessions()
    page.get_by_role("button", name="Start the wall").dblclick()
    expect(page.get_by_role("textbox", name="Guess")).to_be_focused()
    assert sessions() == before  # a round's row comes with its first answer
    order = page.locator(".cell").evaluate_all("cells => cells.map(c => c.dataset.alphagram)")
    first = order[0]
    for word in sorted(ORACLE[first]):
        guess(page, word)
    assert sessions() == before + 1
    recorded = len(answers(first))
    url = page.url
    page.reload()
    expect(page.locator(".cell")).to_have_count(len(order))
    assert page.url == url
    assert page.locator(".cell").evaluate_all("cells => cells.map(c => c.dataset.alphagram)") == order
    expect(cell(page, first)).to_have_attribute("data-solved", "true")
    expect(page.locator("#playing")).to_be_visible()  # the round goes on
    assert len(answers(first)) == recorded and sessions() == before + 1
    page.go_back()  # the start form's post, sent again by the browser: the same wall
    page.go_forward()
    expect(cell(page, first)).to_have_attribute("data-solved", "true")  # the wall played, not a second one
    assert sessions() == before + 1


def test_restart_starts_a_list_afresh_and_practice_schedules_nothing(page: Page, live: Live):
    from lexitrain.study.store import progress_path

    start_wall(page, live, "--length 8", restart=True)
    order = page.locator(".cell").evaluate_all("cells => cells.map(c => c.dataset.alphagram)")
    for word in sorted(ORACLE[order[0]]):
        guess(page, word)
    start_wall(page, live, "--length 8")  # the same list again: resumed, the solved question left out
    expect(page.locator(".cell")).to_have_count(len(order) - 1)
    expect(page.locator("#wall-title")).to_contain_text("resumed")
    expect(page.locator("#wall-title")).not_to_contain_text("--restart")  # a command-line flag means nothing here
    start_wall(page, live, "--length 8", restart=True)
    expect(page.locator(".cell")).to_have_count(len(order))
    with sqlite3.connect(progress_path()) as conn:
        cards = conn.execute("SELECT count(*) FROM cards").fetchone()[0]
    start_wall(page, live, "--length 8", practice=True, restart=True)
    for word in sorted(ORACLE[order[1]]):
        guess(page, word)
    with sqlite3.connect(progress_path()) as conn:
        assert conn.execute("SELECT count(*) FROM cards").fetchone()[0] == cards  # no card made or moved
        given = conn.execute("SELECT card_id FROM answers ORDER BY id DESC LIMIT 1").fetchone()
    assert given == (None,)  # recorded, but as no card's review


def test_the_time_running_out_ends_the_round_on_the_servers_word(page: Page, live: Live):
    page.clock.install()
    start_wall(page, live, "--length 7", minutes="1")
    guess(page, "SALTIER")
    timer = page.get_by_role("timer")
    expect(timer).to_have_text(re.compile(r"^[01]:\d\d$"))
    live.clock.now += 55
    page.clock.run_for(55_000)
    expect(timer).to_have_class("warning")  # the last ten seconds
    live.clock.now += 6
    page.clock.run_for(6_000)
    expect(page.locator("#result")).to_have_text("Time is up. Correct: 1 / 2 (50%)")
    expect(timer).to_have_text("0:00")
    assert answers("AEINRST")[-1] == ("", 0)


def test_an_uploaded_list_shows_its_record_and_replays_the_words_missed_last_time(page: Page, live: Live,
                                                                                    tmp_path: Path):
    mine = tmp_path / "eights.txt"
    mine.write_text("DELATION\nRELATION\nTOENAILS\n", encoding="utf-8")
    page.goto(live.url("/"))
    expect(page).to_have_title("Home · lexitrain")
    page.get_by_label("A file of words, one a line (choose it, or drop it on this box)").set_input_files(str(mine))
    page.get_by_label("Its name").fill("browser eights")
    page.get_by_role("button", name="Upload").click()
    expect(page.locator("#lists .saved")).to_have_text("List “browser eights” uploaded.")
    row = page.locator('#list-stats tr[data-list="browser eights"]')
    expect(row.locator("td").nth(1)).to_have_text("0")
    row.get_by_role("button", name="Play").click()
    expect(page.locator(".cell")).to_have_count(3)
    guess(page, "DELATION")
    page.get_by_role("button", name="Give up").click()
    page.get_by_role("button", name="Give up").click()
    expect(page.locator("#result")).to_contain_text("Correct: 1 / 3")
    page.goto(live.url("/"))
    row = page.locator('#list-stats tr[data-list="browser eights"]')
    expect(row.locator("td").nth(1)).to_have_text("1")  # one attempt
    expect(row.locator("td").nth(2)).to_contain_text("33%")
    expect(row.locator(".missed-words")).to_have_text("AEILNORT AEILNOST")
    row.get_by_role("button", name="Words I missed last time (2)").click()
    expect(page.locator(".cell")).to_have_count(2)
    assert sorted(page.locator(".cell").evaluate_all("cs => cs.map(c => c.dataset.alphagram)")) == ["AEILNORT", "AEILNOST"]


def test_a_word_list_dropped_on_the_upload_box_is_uploaded_under_its_file_name(page: Page, live: Live):
    page.goto(live.url("/"))
    dropped = page.evaluate_handle("""() => {
        const data = new DataTransfer();
        data.items.add(new File(["RETAINS\\nNASTIER\\n"], "dropped sevens.txt", { type: "text/plain" }));
        return data;
    }""")
    page.locator("#lists form[data-drop]").dispatch_event("drop", {"dataTransfer": dropped})  # the box, not its file input
    expect(page.get_by_label("Its name")).to_have_value("dropped sevens")
    page.get_by_role("button", name="Upload").click()
    expect(page.locator("#lists .saved")).to_have_text("List “dropped sevens” uploaded.")
    page.locator('#list-stats tr[data-list="dropped sevens"]').get_by_role("button", name="Play").click()
    expect(page.locator(".cell")).to_have_count(1)  # RETAINS and NASTIER: one alphagram


def test_the_second_letter_style_is_plain_letters_in_high_contrast(page: Page, live: Live):
    page.goto(live.url("/settings"))
    page.get_by_label("plain letters in high contrast").check()
    page.get_by_role("button", name="Save").click()
    try:
        start_wall(page, live, "--length 7", restart=True)
        looks = page.locator(".cell .letter").first.evaluate(
            "l => [getComputedStyle(l).color, getComputedStyle(l).backgroundColor, getComputedStyle(l).fontWeight]")
        assert looks == ["rgb(0, 0, 0)", "rgba(0, 0, 0, 0)", "800"], looks  # black, no tile, bold
        assert not overflowing(page), overflowing(page)
    finally:
        page.goto(live.url("/settings"))
        page.get_by_label("plain letters in high contrast").uncheck()
        page.get_by_role("button", name="Save").click()


def test_a_tab_closed_mid_round_keeps_every_answer_given(page: Page, live: Live):
    start_wall(page, live, "--length 8", minutes="1", restart=True)
    guess(page, "DELATION")  # its only word: solved, recorded at once
    guess(page, "RELATION")  # one of two
    guess(page, "TOENAILS")
    guess(page, "ELATIONS")  # two of three
    assert answers("ADEILNOT")[-1] == ("DELATION", 1)
    before = len(answers("AEILNOST"))
    page.close()
    live.clock.now += 61  # the round's time runs out with no page asking: the app's clock decides it
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and len(answers("AEILNOST")) == before:
        time.sleep(0.1)
    assert answers("AEILNORT")[-1] == ("RELATION", 0)  # one of two: kept as given
    assert answers("AEILNOST")[-1] == ("TOENAILS ELATIONS", 0)


def test_leaving_a_live_timed_wall_asks_first(page: Page, live: Live):
    start_wall(page, live, "--length 8", minutes="1", restart=True)
    guess(page, "DELATION")
    asked: list[str] = []
    page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
    page.get_by_role("link", name="Stats").click()
    expect(page.get_by_role("textbox", name="Guess")).to_be_visible()  # dismissed: still on the wall
    assert asked == ["beforeunload"]


# -- the challenge, reviews, positions ---------------------------------------------------------


def test_the_challenge_page_holds_exactly_the_alphagrams_of_lexitrain_challenge(page: Page, live: Live):
    page.set_viewport_size({"width": 1920, "height": 1080})
    day, kind = "2026-01-02", "twos-to-fifteens"
    page.goto(live.url("/challenge"))
    page.get_by_label("Kind").select_option(kind)
    page.get_by_label("Date").fill(day)
    page.get_by_role("button", name="Start the challenge").click()
    expect(page.get_by_role("textbox", name="Guess")).to_be_focused()
    shown = page.locator(".cell").evaluate_all("cells => cells.map(c => c.dataset.alphagram)")
    records = [json.loads(line) for line in cli("challenge", "--jsonl", "--date", day, "--kind", kind, "--lexicon",
                                               NAME, stdin="\n" * 60).splitlines()]
    asked = [r["question"]["prompt"] for r in records if "question" in r]
    assert len(asked) > 10 and sorted(shown) == sorted(asked)
    page.get_by_role("button", name="Give up").click()
    page.get_by_role("button", name="Give up").click()
    expect(page.locator("#done")).to_be_focused()  # a challenge has no missed round: Enter goes home
    page.goto(live.url("/challenge"))
    expect(page.locator("#history")).to_contain_text(day)
    bests = page.locator("#bests")  # only the kind tried (finished in the terminal), then one line for the rest
    expect(bests.locator("tbody tr")).to_have_count(1)
    expect(bests.locator("tbody tr td").first).to_have_text(kind)
    expect(bests.locator("tbody tr td").nth(1)).to_have_text(re.compile(r"^\d+/\d+$"))
    expect(bests.locator("#untried")).to_have_text("The other 21 kinds are not tried yet.")


def stats_answered() -> tuple[int, dict[str, int]]:
    """The answers `lexitrain stats` counts, on every day it lists (an answer given across midnight is on the
    app's next day, not the one the test began on), and its cards by state."""
    report = json.loads(cli("stats", "--json", "--lexicon", NAME))
    return sum(d["answers"] for d in report["reviews_per_day"]), report["cards_by_state"]


def test_a_card_graded_hard_in_the_browser_is_in_lexitrain_stats(page: Page, live: Live):
    before, _ = stats_answered()
    page.goto(live.url("/review"))
    box = page.get_by_label("Answer")
    expect(box).to_be_focused()
    expect(page.locator("#today")).to_contain_text("New left:")
    prompt = page.locator("#prompt").inner_text().replace("\n", "")
    box.press("Enter")  # an empty answer: reveal, then grade
    expect(page.locator("#answers tbody tr")).to_have_count(len(ORACLE["".join(sorted(prompt))]))
    expect(page.get_by_role("button", name="Hard")).to_be_visible()
    page.keyboard.press("2")
    expect(page.get_by_label("Answer")).to_be_focused()
    expect(page.locator("#which")).to_contain_text("Card 2")
    after, states_after = stats_answered()
    assert after == before + 1
    assert sum(n for state, n in states_after.items() if state != "new") >= 1  # the card left "new" (or was due)
    typed = page.locator("#prompt").inner_text().replace("\n", "")
    box.fill(" ".join(sorted(ORACLE["".join(sorted(typed))])))
    box.press("Enter")
    expect(page.locator("#verdict")).to_have_text("Right")
    expect(page.locator("#answers tbody tr").first).to_be_visible()


def progress_rows() -> tuple[list[tuple], int]:
    """Every card as stored, and the number of answers (read beside the server)."""
    from lexitrain.study.store import progress_path

    with sqlite3.connect(progress_path()) as conn:
        return (conn.execute("SELECT * FROM cards ORDER BY id").fetchall(),
                int(conn.execute("SELECT count(*) FROM answers").fetchone()[0]))


def test_an_answer_undone_by_ctrl_z_or_the_button_puts_the_card_back_as_it_was(page: Page, live: Live):
    undos: list[str] = []
    page.on("request", lambda request: undos.append(request.url) if request.url.endswith("/undo") else None)
    page.goto(live.url("/review"))
    box = page.get_by_label("Answer")
    expect(box).to_be_focused()
    expect(page.get_by_role("button", name="Undo last answer")).to_be_hidden()  # nothing answered yet
    before, which, today = progress_rows(), page.locator("#which").inner_text(), page.locator("#today").text_content()
    prompt = page.locator("#prompt").inner_text().replace("\n", "")
    box.fill("ZZZ")
    box.press("Enter")
    expect(page.locator("#verdict")).to_contain_text("Missed")
    assert progress_rows() != before
    page.keyboard.press("Control+z")
    expect(page.locator("#notice")).to_have_text(f"Took back your answer to {prompt}: it is asked again.")
    expect(page.locator("#which")).to_have_text(which)  # the same card, as it was asked
    assert page.locator("#prompt").inner_text().replace("\n", "") == prompt
    expect(page.locator("#today")).to_have_text(today)  # the day's counts as they were
    expect(box).to_be_focused()
    assert progress_rows() == before  # the card and the answers exactly as before
    expect(page.get_by_role("button", name="Undo last answer")).to_be_hidden()

    box.fill("AB")
    box.press("Control+z")  # in a box being typed, Ctrl+Z is the box's own undo
    assert len(undos) == 1
    box.fill("")
    box.press("Enter")  # reveal, then grade Good
    expect(page.get_by_role("button", name="Good")).to_be_visible()
    page.keyboard.press("3")
    expect(page.locator("#which")).not_to_have_text(which)
    assert progress_rows() != before
    page.get_by_role("button", name="Undo last answer").click()
    expect(page.locator("#which")).to_have_text(which)
    expect(page.locator("#notice")).to_contain_text("Took back your answer")
    assert progress_rows() == before and len(undos) == 2


def test_a_position_answered_wrongly_then_rightly(page: Page, live: Live):
    page.goto(live.url("/position"))
    play = page.get_by_role("textbox", name="Play")
    expect(play).to_be_focused()
    expect(play).to_have_css("text-transform", "none")  # a blank is typed lowercase: the box must show it so
    board = page.locator("#board")
    expect(board.locator('[data-square="A1"]')).to_have_class(re.compile("TW"))
    expect(board.locator('[data-square="H8"]')).to_have_class(re.compile("DW"))
    expect(page.locator("#rack .letter")).to_have_count(7)
    play.fill(ILLEGAL_PLAY)
    play.press("Enter")
    expect(page.locator("#refused")).to_contain_text("SATINER")
    expect(page.locator("#which")).to_have_text("Position 1")  # the same position stays
    play.fill("")
    board.locator('[data-square="D8"]').click()  # the start square, then the direction by key
    play.press("ArrowRight")
    expect(play).to_have_value("8D ")
    play.type("RETAINS")
    play.press("Enter")
    expect(page.locator("#verdict-line")).to_contain_text(f"{TOP_SCORE}")
    expect(page.locator("#top-plays tbody tr").first).to_contain_text(str(TOP_SCORE))
    assert TOP_PLAY.startswith("8D")


def test_a_blanks_letter_in_the_top_plays_is_drawn_apart_and_copies_lowercase(page: Page, live: Live):
    """A position card whose rack holds a blank: after the answer every top play's word shows the blank's letter
    in a colour of its own, underlined (CRUElTY's blank l is not read as a capital I in the bold word), while
    its text stays lowercase, as GCG writes it, for a copy and paste."""
    from lexitrain.study.quiz.kinds.position import KIND

    with due_first(KIND, [f"{EMPTY_BOARD} AEINRS?/ 0/0 0"]):
        page.goto(live.url("/review"))
        box = page.get_by_label("Answer")
        expect(box).to_be_focused()  # (the card drawn: drawing it empties the box, a play typed before it lost)
        box.fill("8D REtAINS")
        box.press("Enter")
        words = page.locator("#plays tbody td.word")
        expect(words.first).to_have_text(re.compile(r"^[A-Z]+[a-z][A-Z]*$|^[a-z][A-Z]+$"))
        for i in range(words.count()):
            word = words.nth(i)
            blank = word.locator("span.blank")
            expect(blank).to_have_count(1)
            assert blank.inner_text() in word.inner_text() and blank.inner_text().islower(), word.inner_text()
            looks = blank.evaluate("(node) => { const own = getComputedStyle(node), cell = getComputedStyle("
                                   "node.parentElement); return [own.color, cell.color, own.textDecorationLine]; }")
            assert looks[0] != looks[1] and looks[2] == "underline", looks
        page.screenshot(path=str(live.home / "web-review-blank.png"), full_page=True)


# -- search, settings, every page ----------------------------------------------------------------


def test_search_starts_a_wall_on_its_results_and_offers_the_sheet(page: Page, live: Live):
    page.goto(live.url("/search"))
    page.get_by_role("textbox", name="Length", exact=True).fill("3")
    page.get_by_label("Pattern").fill("A?E")
    page.get_by_label("Pattern").press("Enter")
    results = page.locator("table#results tbody tr")
    expect(results).to_have_count(5)
    with page.expect_download() as download:
        page.get_by_role("link", name="Download a PDF sheet").click()
    assert Path(download.value.path()).read_bytes().startswith(b"%PDF")
    expect(page.locator("#found")).to_have_text("5 words · 3-letter words, pattern A?E")  # in words, not options
    # no hooks and no definitions among these words: only the columns that say something
    expect(page.locator("table#results thead th:visible")).to_have_text(["Prob.", "Alphagram", "Word"])
    page.get_by_role("button", name="Start a wall on these").click()
    expect(page.locator(".cell")).to_have_count(5)
    expect(page.locator("#wall-title")).to_have_text("3-letter words, pattern A?E · 5 questions · webtest")


def test_settings_persist_and_key_3_uses_the_custom_order(page: Page, live: Live):
    page.goto(live.url("/settings"))
    page.get_by_label("dark mode").check()
    page.get_by_label("Your letter order (key 3 on a wall)").fill("TSRNLIEA")
    page.get_by_role("button", name="Save").click()
    expect(page.get_by_role("status")).to_have_text("Saved.")
    expect(page.locator("body")).to_have_class(re.compile("dark"))
    try:
        start_wall(page, live, "--length 7")
        text, body = page.get_by_role("button", name="Give up").evaluate(
            "b => [getComputedStyle(b).color, getComputedStyle(document.body).color]")
        assert text == body  # a quiet button is readable in the dark: the page's own text colour
        page.get_by_role("textbox", name="Guess").press("3")
        expect(cell(page, "AEILRST").locator(".letters")).to_have_text("TSRLIEA")
        page.goto(live.url("/position"))  # the board keeps its premium colours in the dark
        colours = {name: page.locator(f'#board [data-square="{name}"]').evaluate("s => getComputedStyle(s).backgroundColor")
                   for name in ("A1", "B2", "B6", "A4", "B1")}
        assert len(set(colours.values())) == 5, colours  # TW, DW, TL, DL and a plain square all differ
    finally:
        page.goto(live.url("/settings"))
        page.get_by_label("dark mode").uncheck()
        page.get_by_label("Your letter order (key 3 on a wall)").fill("")
        page.get_by_role("button", name="Save").click()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_every_page_without_errors_or_text_overflowing(page: Page, live: Live, viewport: str):
    width, height = VIEWPORTS[viewport]
    page.set_viewport_size({"width": width, "height": height})
    folder = os.environ.get("LEXITRAIN_SCREENSHOTS")
    problems: dict[str, list[str]] = {}

    def look(name: str) -> None:
        page.wait_for_load_state("load")
        found = overflowing(page)
        if found:
            problems[name] = found
        if folder:
            shot = f"web-{name}.png" if viewport == "laptop" else f"web-{name}-{viewport}.png"  # as docs/images
            page.screenshot(path=str(Path(folder) / shot), full_page=viewport != "desktop")

    start_wall(page, live, "--length 15")  # fifteens get cells wide enough for readable letters
    assert not overflowing(page), overflowing(page)
    sizes = page.locator(".cell .letter").evaluate_all("ls => ls.map((l) => parseFloat(getComputedStyle(l).fontSize))")
    assert len(sizes) == 30 and min(sizes) >= 14, sizes
    start_wall(page, live, "--length 9")  # a W and an M, the widest letters, stay inside their tiles
    assert page.locator(".cell").count() == 2 and not overflowing(page), overflowing(page)
    start_wall(page, live, "--length 7-8", minutes="4")
    title = page.locator("#wall-title")  # what the wall holds in words, whole on every screen (a phone's two lines)
    expect(title).to_have_text("words of 7 to 8 letters · 9 questions · webtest")
    assert title.evaluate("h => h.scrollWidth <= h.clientWidth && h.scrollHeight <= h.clientHeight"), viewport
    guess(page, "RETAINS")
    guess(page, "TRAINES")
    look("wall")
    page.get_by_role("button", name="Give up").click()
    page.get_by_role("button", name="Give up").click()
    expect(page.locator("table#solutions")).to_be_visible()
    look("wall-end")
    for path, name, ready in [("/", "home", "h1"), ("/challenge", "challenge", "#bests"),
                              ("/search?length=7-8&order=probability", "search", "#results"),
                              ("/stats", "stats", "#by-state"), ("/settings", "settings", "form")]:
        page.goto(live.url(path))
        expect(page.locator(ready)).to_be_visible()
        look(name)
    page.goto(live.url("/review"))
    expect(page.get_by_label("Answer")).to_be_focused()
    look("review")
    page.get_by_label("Answer").press("Enter")
    expect(page.get_by_role("button", name="Good")).to_be_visible()
    look("review-answer")
    page.goto(live.url("/position"))
    expect(page.locator("#rack .letter")).to_have_count(7)
    look("position")
    page.goto(live.url("/play"))
    expect(page.locator("#new-game")).to_be_visible()
    look("play-start")
    page.get_by_label("Bot").select_option("3")
    page.get_by_role("button", name="Start the game").click()  # the game page: board, rack, clocks, the moves
    expect(page.locator("#rack .letter")).to_have_count(7)
    expect(page.locator("#status")).to_have_text("Your move", timeout=60_000)
    look("play")
    assert not problems, problems


def test_the_due_charts_draw_a_bar_for_each_day_with_cards_due_and_none_for_nothing(page: Page, live: Live):
    """A card due in 20 days: the days before it with nothing due read as one line, none after it is shown,
    the month's total counts it, and no count of zero has a bar (a sliver would read as a small number)."""
    from datetime import datetime, time as clock_time, timedelta

    from lexitrain.study.quiz.scheduler import LEARNING
    from lexitrain.study.store import ProgressStore

    later = live.today() + timedelta(days=20)
    with ProgressStore() as store:
        card = store.card(store.ensure_card(NAME, "anagram", "EIQTU", time.time()))
        card.state, card.due = LEARNING, datetime.combine(later, clock_time(12)).astimezone().timestamp()
        store.save_card(card)
    total = sum(day["due"] for day in json.loads(cli("stats", "--lexicon", NAME, "--json"))["forecast"])
    for path, chart in (("/stats", "#chart-due .forecast"), ("/review", "#forecast")):
        page.goto(live.url(path))
        rows = page.locator(chart)
        expect(rows.locator(".gap.total")).to_have_text(f"{total} due in all 30 days")
        before = (later - timedelta(days=1)).isoformat()[5:]
        expect(rows.locator(".gap", has_text=re.compile(f"^none due (\\d\\d-\\d\\d to )?{before}$"))).to_have_count(1)
        numbers = rows.locator("span.num")
        expect(numbers.last).to_have_text("1")  # the card's day is the last one shown
        assert rows.locator("span", has_text=later.isoformat()[5:]).count() == 1
        counts = [int(n) for n in numbers.all_inner_texts()]
        assert 0 not in counts and len(counts) == rows.locator(".bar").count(), counts  # a bar per day with cards due
    states = page.goto(live.url("/stats")) and page.locator("#chart-states .forecast")
    counts = [int(n) for n in states.locator("span.num").all_inner_texts()]
    assert states.locator(".bar").count() == len([n for n in counts if n]), counts  # (none for a state of none)
    table = page.locator("#forecast-table")
    expect(table.locator("tr", has_text="all 30 days")).to_have_text(re.compile(f"all 30 days\\s*{total}$"))
    assert "\t0" not in table.inner_text()  # no day listed with nothing due


def test_the_reviews_due_now_and_later_today_add_up_to_the_due_charts_today(page: Page, live: Live):
    """Cards missed on a wall come back in minutes: not due now, but due today. The reviews page and the home
    page say both counts, and together they are the due chart's today (it once read "left today: 0" over a 9)."""
    from datetime import datetime

    start_wall(page, live, "--length 8")
    page.get_by_role("button", name="Give up").click()
    page.get_by_role("button", name="Give up").click()
    expect(page.locator("table#solutions")).to_be_visible()
    page.goto(live.url("/review"))
    today = page.locator("#today")
    expect(today).to_contain_text("Reviews due now: ")
    now_count = int(today.locator("span", has_text="Reviews due now:").inner_text().split(": ")[1])
    later = int(today.locator("span", has_text="later today:").inner_text().split(": ")[1])
    if datetime.now().hour < 23:  # (the cards just missed come back before midnight)
        assert later >= 7
    chart_today = page.locator("#forecast > span").nth(2)  # today's count, the first day with cards due
    shown_on = {live.today().isoformat()[5:]}  # the app's day as the page was made: the one before or after it
    day = page.locator("#forecast > span").first.inner_text()
    shown_on.add(live.today().isoformat()[5:])
    assert day in shown_on, (day, shown_on)
    expect(chart_today).to_have_text(str(now_count + later))
    page.goto(live.url("/"))
    expect(page.locator("#today")).to_contain_text(f"Today: {now_count} reviews due now, {later} later today, and ")


def test_cards_from_games_in_the_reviews_a_board_then_a_word_to_judge(page: Page, live: Live):
    """A position card and a valid-or-phony card due now, as `study from-games` leaves them: the reviews
    draw the board with its coordinates and the rack, then the word alone with its two choices."""
    from lexitrain.study.quiz.scheduler import LEARNING, utc_now
    from lexitrain.study.store import ProgressStore

    with ProgressStore() as store:
        now = utc_now().timestamp() - 60  # due before the review's own cards
        for kind, key in (("position", POSITION), ("valid-or-phony", "ZZZQ")):
            card = store.card(store.ensure_card(NAME, kind, key, now))
            card.state, card.step, card.due = LEARNING, 0, now
            store.save_card(card)
            now += 1
    page.goto(live.url("/review"))
    expect(page.locator("#which")).to_contain_text("position")
    board = page.locator("#prompt table.board")
    expect(board.locator("td.square")).to_have_count(225)
    expect(board.locator("th", has_text="O")).to_have_count(1)
    rack = page.locator("#prompt .letter")
    expect(rack).to_have_count(7)
    widths = [box["width"] for box in (rack.nth(i).bounding_box() for i in range(7)) if box]
    assert min(widths) >= 24, widths  # the rack's tiles side by side, not squeezed over one another
    box = page.get_by_label("Answer")
    box.fill(ILLEGAL_PLAY)  # refused with its reason, nothing recorded, the typed play selected to type over
    box.press("Enter")
    expect(page.locator("#refused")).to_contain_text("SATINER")
    expect(page.locator("#which")).to_contain_text("Card 1 · position")
    assert page.evaluate("() => { const b = document.getElementById('answer'); return b.selectionEnd - b.selectionStart; }") \
        == len(ILLEGAL_PLAY)
    page.keyboard.type(TOP_PLAY)
    page.keyboard.press("Enter")
    expect(page.locator("#verdict")).to_have_text(re.compile(f"^Top score! 8D RETAINS scores {TOP_SCORE}"))
    expect(page.locator("#plays tbody tr").first).to_contain_text(str(TOP_SCORE))  # the top plays, not word rows
    expect(page.locator("#answers")).to_be_hidden()
    page.keyboard.press("Enter")
    expect(page.locator("#which")).to_contain_text("valid-or-phony")
    expect(page.locator("#prompt .letter")).to_have_count(4)
    expect(page.locator("#answers-count")).to_contain_text("valid or phony?")
    box.press("Enter")  # revealed: the verdict on the word shown, not the choice as if it were a word
    expect(page.locator("#verdict")).to_have_text("ZZZQ is a phony. How well did you know it?")
    expect(page.locator("#answers tbody tr")).to_have_count(1)
    expect(page.locator("#answers tbody .word")).to_have_text("ZZZQ")


def test_the_position_page_shows_the_simulation_after_an_answer(page: Page, live: Live, real_games: Path):
    """A best-play position (a real game's turn whose simulation prefers a play that does not score the
    most), kept with its simulation: the top-scoring play is not the answer, and the verdict shows the
    simulation's table, win %, equity, spread and iterations for every candidate. Last in the module:
    the position it stores joins the pool the other position tests draw from."""
    from lexitrain.engine.cgp import Position
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.gcg import read_gcg
    from lexitrain.engine.movegen import MoveGenerator
    from lexitrain.engine.replay import replay
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.quiz.kinds.analysed import bag_count, simulate_position, store_analysed
    from lexitrain.study.store import ProgressStore
    from lexitrain.tiles import Rack
    from tests.test_engine_analysis import DOUG

    lex = open_lexicon(NAME)
    generator = MoveGenerator(dawg_for(lex))
    analysis = None
    for turn in replay(read_gcg(real_games / DOUG), lex.tiles, lex.layout):
        position = Position(turn.board.copy(), [turn.rack.upper(), ""], list(turn.scores))
        if turn.rack and bag_count(position):
            plays = generator.plays(position.board, Rack.parse(lex.tiles, position.rack, in_play=True))
            analysis = simulate_position(lex, position, generator, 16)
            if analysis is not None:
                with ProgressStore() as store:
                    store_analysed(store, lex, position, "test", analysis, plays)
                break
    assert analysis is not None
    table = analysis["candidates"]
    page.goto(live.url("/position?by=sim"))
    expect(page.locator("#asked")).to_have_text("What is the best play, by simulation?")
    expect(page.locator("#rack .letter")).to_have_count(len(position.rack))
    expect(page.locator("#standing")).to_have_text(f"Score {position.scores[0]} to {position.scores[1]}")
    page.get_by_label("Play").fill(plays[0].format(lex.tiles))  # the top-scoring play
    page.get_by_label("Play").press("Enter")
    expect(page.locator("#verdict-line")).to_have_text(re.compile(
        f"^Not the best: .* scores {plays[0].score} .*; the best is {re.escape(analysis['best'][0])}$"))
    rows = page.locator("#sim-table tbody tr")
    expect(rows).to_have_count(len(table))
    first = table[0]
    expect(rows.first.locator("td")).to_have_text([first["play"], str(first["score"]), first["leave"] or "-",
                                                   f"{100 * first['win']:.1f}", f"{first['equity']:.2f}",
                                                   f"{first['spread']:.2f}", "16"])
    expect(page.locator("#top-plays")).to_be_hidden()
    expect(page.locator("#line")).to_have_text(
        "16 iterations, 2 plies, seed 1; the opponent's rack a random draw from the unseen tiles")
    overflowing = page.evaluate("() => [...document.querySelectorAll('#sim-table td')]"
                                ".filter((c) => c.scrollWidth > c.clientWidth).length")
    assert overflowing == 0


@contextmanager
def due_first(kind: str, keys: list[str]) -> Iterator[None]:
    """The cards of KIND and KEYS due long ago, in this order (the first cards the reviews show) while the test
    runs; put off after (2100), so the other tests see the reviews they expect."""
    from lexitrain.study.store import ProgressStore

    with ProgressStore() as store, store.transaction():
        for due, key in enumerate(keys, start=1):
            card = store.card(store.ensure_cards(NAME, [(kind, key)], 0)[0])
            card.state, card.due = 1, float(due)
            store.save_card(card)
    try:
        yield
    finally:
        with ProgressStore() as store, store.transaction():
            for key in keys:
                card = store.card(store.ensure_cards(NAME, [(kind, key)], 0)[0])
                card.due = 4102444800.0
                store.save_card(card)


def test_done_today_on_the_reviews_counts_a_card_answered_in_a_quiz(page: Page, live: Live, tmp_path: Path):
    """The reviews' Done today counts every card answered today, one answered in `lexitrain quiz` too."""
    def done_today() -> tuple[int, int]:
        page.goto(live.url("/review"))
        expect(page.locator("#today")).to_contain_text("Done today")
        said = re.search(r"Done today: (\d+) reviews?, (\d+) new", page.locator("#today").inner_text())
        assert said, page.locator("#today").inner_text()
        return int(said[1]), int(said[2])

    reviews, new = done_today()
    words = tmp_path / "words.txt"
    words.write_text("RETAINS\n", encoding="utf-8")
    with due_first("anagram", ["AEINRST"]):
        cli("quiz", "--jsonl", "--lexicon", NAME, "--file", str(words), stdin="x\n")
        assert done_today() == (reviews + 1, new)


def test_a_best_play_card_in_the_reviews_shows_its_simulation_and_says_the_opponents_rack_was_read(
        page: Page, live: Live, real_games: Path):
    """A best-play card due, simulated as `study from-games --sim-iterations` does it, the opponent's rack drawn
    from what their last move says of it: after the answer the reviews show the simulation's table as the
    position quiz does (win %, equity, spread, iterations: why the best is best) and say how it was run, the
    rack read included, as the terminal and --json do. On a phone the table scrolls in its box."""
    from lexitrain.engine.analysis import Analyst
    from lexitrain.engine.cgp import to_cgp
    from lexitrain.engine.gcg import read_gcg
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.quiz.kinds.analysed import BEST_PLAY, bag_count, simulate_position, store_analysed
    from lexitrain.study.quiz.kinds.position import read_position
    from lexitrain.study.store import ProgressStore
    from lexitrain.tiles import Rack
    from tests.test_engine_analysis import DOUG

    lex = open_lexicon(NAME)
    analyst = Analyst.of_lexicon(lex)
    report = analyst.game(read_gcg(real_games / DOUG))
    analysis = None
    for turn, read in zip(report.turns, report.reads):  # each with the opponent's move before it, as analysis reads it
        position = read_position(turn.cgp, lex)
        if position.rack and bag_count(position) and read is not None and turn.turn > 10:
            analysis = simulate_position(lex, position, analyst.generator, 16, read=read)
            if analysis is not None:
                plays = analyst.generator.plays(position.board, Rack.parse(lex.tiles, position.rack, in_play=True))
                with ProgressStore() as store:
                    store_analysed(store, lex, position, "test", analysis, plays)
                break
    assert analysis is not None and analysis["inferred"]
    key = to_cgp(position)
    with due_first(BEST_PLAY, [key]):
        page.goto(live.url("/review"))
        expect(page.locator("#which")).to_contain_text("best-play")
        box = page.get_by_label("Answer")
        box.fill(analysis["best"][0])
        box.press("Enter")
        expect(page.locator("#verdict")).to_contain_text("The best play! ")
        expect(page.locator("#plays thead th")).to_have_text(
            ["Move", "Score", "Leave", "Win %", "Equity", "Spread", "Iterations"])
        first = analysis["candidates"][0]
        expect(page.locator("#plays tbody tr").first.locator("td")).to_have_text(
            [first["play"], str(first["score"]), first["leave"] or "-", f"{100 * first['win']:.1f}",
             f"{first['equity']:.2f}", f"{first['spread']:.2f}", "16"])
        expect(page.locator("#line")).to_have_text(
            "16 iterations, 2 plies, seed 1; the opponent's rack drawn from what their last move says of it")
        page.set_viewport_size({"width": 390, "height": 800})
        assert not overflowing(page), overflowing(page)  # the table scrolls in its box, not the page sideways
        page.screenshot(path=str(Path(os.environ.get("LEXITRAIN_SCREENSHOTS") or live.home) / "web-review-best-play.png"),
                        full_page=True)


def test_an_endgame_card_in_the_reviews_asks_for_the_best_endgame_play_and_shows_a_best_line(
        page: Page, live: Live, real_games: Path):
    """An endgame card due (a real game's last turn, solved when `study from-games --endgame-time` kept it): the
    reviews ask it as the position quiz does ("Win the endgame: which first play?", the first play of a best
    line wanted, not the top play), and after the answer show every first play's exact value and a best line."""
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.quiz.kinds.analysed import ENDGAME
    from lexitrain.study.store import ProgressStore

    with ProgressStore() as store:
        key, analysis, _ = solved_real_endgame(open_lexicon(NAME), real_games, store)
    with due_first(ENDGAME, [key]):
        page.goto(live.url("/review"))
        expect(page.locator("#which")).to_contain_text("endgame")
        expect(page.locator("#prompt")).to_contain_text("Win the endgame: which first play?")
        expect(page.locator("#answers-count")).to_have_text(
            "the first play of a best endgame line, in GCG notation (8D QUITE across, H8 QUITE down)")
        box = page.get_by_label("Answer")
        box.fill(analysis["best"][0])
        box.press("Enter")
        expect(page.locator("#verdict")).to_contain_text("Best! ")
        expect(page.locator("#plays thead th")).to_have_text(["Play", "Word", "Score", "Value"])
        first = analysis["values"][0]
        expect(page.locator("#plays tbody tr").first.locator("td")).to_have_text(
            [first["play"], first["word"], str(first["score"]), f"{first['value']:+d}" if first["value"] else "0"])
        line = ", ".join("pass" if m["position"] == "-" else f"{m['position']} {m['word']} {m['score']}"
                         for m in analysis["sequence"])
        expect(page.locator("#line")).to_have_text(f"A best line: {line}")
        assert not overflowing(page), overflowing(page)
        page.screenshot(path=str(Path(os.environ.get("LEXITRAIN_SCREENSHOTS") or live.home) / "web-review-endgame.png"),
                        full_page=True)


def test_a_read_rack_card_shows_the_move_and_judges_the_leave_kept(page: Page, live: Live):
    """A read-rack card among the reviews: what it asks and the opponent's move above the board (the move's
    squares marked), the answer's help under it; a leave of the wrong size is refused on the page; the
    verdict names the leave kept and the inference's figures, and its table lists the likeliest leaves."""
    from lexitrain.engine.board import Board
    from lexitrain.engine.dawg import dawg_for
    from lexitrain.engine.inference import LastMove, load_inference_model
    from lexitrain.engine.leave_table import load_leaves
    from lexitrain.engine.movegen import MoveGenerator
    from lexitrain.engine.play import Play
    from lexitrain.engine.rules import check_play
    from lexitrain.lexicon.catalog import open_lexicon
    from lexitrain.study.quiz.kinds.read_rack import read_card
    from lexitrain.study.store import ProgressStore
    from lexitrain.tiles import Rack

    lex = open_lexicon(NAME)
    board = Board(lex.layout, lex.tiles)
    play = check_play(board, Play.parse("8D QUITE", lex.tiles))
    read = [read_card(lex, MoveGenerator(dawg_for(lex)), load_leaves(lex.tiles), load_inference_model(lex.tiles),
                      board, LastMove(play=play), play.score, Rack.parse(lex.tiles, mine), (0, play.score),
                      real and Rack.parse(lex.tiles, real), "test")
            for mine, real in (("AEINRST", "RS"), ("AEINORS", None))]  # the second game did not record it
    made = []
    with ProgressStore() as store:
        for card in read:
            assert card is not None
            store.store_analysed_position(lex.name, card, time.time())
            made.append(card.cgp)
    with due_first("read-rack", made):
        page.goto(live.url("/review"))
        box = page.get_by_label("Answer")
        expect(box).to_be_focused()
        expect(page.locator("#which")).to_contain_text("read-rack")
        expect(page.locator("#prompt")).to_contain_text("What did your opponent keep?")
        expect(page.locator("#prompt")).to_contain_text("Your opponent played 8D QUITE for 48, keeping 2 tiles.")
        expect(page.locator("#prompt td.last")).to_have_count(5)
        expect(page.locator("#prompt .score")).to_have_text("score 0 to 48")  # yours first, as the terminal says
        expect(page.locator("#answers-count")).to_have_text("the 2 tiles they kept (? for a blank)")
        box.fill("RST")
        box.press("Enter")
        expect(page.locator("#refused")).to_have_text("they kept 2 tiles: name 2")
        box.fill("rs")
        box.press("Enter")
        expect(page.locator("#verdict")).to_contain_text("They kept RS.")
        expect(page.locator("#verdict")).to_contain_text("The inference gives RS")
        expect(page.locator("#plays thead th")).to_have_text(["leave", "inference"])
        expect(page.locator("#plays tbody tr")).to_have_count(8)
        assert not overflowing(page), overflowing(page)
        folder = os.environ.get("LEXITRAIN_SCREENSHOTS")
        if folder:
            page.screenshot(path=str(Path(folder) / "web-read-rack.png"), full_page=True)
        # a card whose real leave is unknown, its answer asked for (Enter on an empty line): the likeliest named
        page.keyboard.press("Enter")
        expect(page.locator("#prompt")).to_contain_text("Your opponent played 8D QUITE for 48, keeping 2 tiles.")
        box.press("Enter")
        expect(page.locator("#verdict")).to_contain_text(
            "The game did not record their rack: the inference's 5 likeliest are ")
        expect(page.locator("#verdict")).not_to_contain_text(". .")
        expect(page.locator("#plays tbody tr")).to_have_count(8)


@pytest.mark.parametrize("size", [(390, 844), (1000, 600), (1280, 800)])
def test_the_stats_tables_and_your_lists_fit_the_screen_on_a_phone_too(page: Page, live: Live, tmp_path: Path,
                                                                       size: tuple[int, int]):
    """Stats' tables (cards by state, answers per day, ...) and the home's Your lists read whole at every width: on
    a phone each row is a few lines, each value named by its column ("Answered 3"), nothing scrolls sideways; on
    a laptop they are tables with their heads. Screenshots in LEXITRAIN_SCREENSHOTS (else the test's folder)."""
    width, height = size
    cli("quiz", "--lexicon", NAME, "--search", "--length 7", "--limit", "3", "--jsonl", stdin="\n\n\n")
    mine = tmp_path / "list.txt"
    mine.write_text("DELATION\nRELATION\n", encoding="utf-8")
    page.goto(live.url("/"))
    page.get_by_label("A file of words, one a line (choose it, or drop it on this box)").set_input_files(str(mine))
    page.get_by_label("Its name").fill("a rather long name for my eights")
    page.get_by_role("button", name="Upload").click()
    expect(page.locator("#lists .saved")).to_be_visible()
    page.set_viewport_size({"width": width, "height": height})
    folder = Path(os.environ.get("LEXITRAIN_SCREENSHOTS") or tmp_path)
    phone = width < 640
    for path, tables in (("/stats", ["#by-state", "#per-day", "#forecast-table"]), ("/", ["#list-stats"])):
        page.goto(live.url(path))
        for table in tables:
            expect(page.locator(table)).to_be_visible()
            box = page.locator(table).evaluate("t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
            assert box[0] <= box[1], (path, table, box)  # nothing cut off at the side, nothing to scroll to
            stacked = phone and table != "#forecast-table"  # (two columns stay a table)
            expect(page.locator(f"{table} thead")).to_be_hidden() if stacked else \
                expect(page.locator(f"{table} thead")).to_be_visible()
        assert not overflowing(page), overflowing(page)
        if phone and path == "/stats":  # each value named by its column, as the heads are hidden
            answered = page.locator("#per-day tbody tr").first.locator("td").nth(1)
            assert answered.evaluate("td => getComputedStyle(td, '::before').content") == '"Answered "'
            state = page.locator("#by-state td").first
            assert state.evaluate("td => getComputedStyle(td, '::before').content") == '"new "'
        page.screenshot(path=str(folder / f"web-{path.strip('/') or 'home'}-tables-{width}.png"), full_page=True)


CUT_CHOICES = """() => [...document.querySelectorAll('select')].filter((s) => s.offsetParent !== null).flatMap((s) => {
  const pen = document.createElement('canvas').getContext('2d'), style = getComputedStyle(s);
  pen.font = `${style.fontSize} ${style.fontFamily}`;
  const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;  // (the arrow)
  return [...s.options].filter((o) => pen.measureText(o.text).width > room).map((o) => `${s.name}: ${o.text}`);
})"""


@pytest.mark.parametrize("width", [390, 1000])
def test_every_choice_of_a_forms_list_reads_whole(page: Page, live: Live, width: int):
    """Each drop-down (the wall's Source, the settings' order, the search's Order) is as wide as its longest
    choice: on a phone the wall's Source read "search condition" cut at the arrow."""
    page.set_viewport_size({"width": width, "height": 844})
    for path in ("/", "/settings", "/search"):
        page.goto(live.url(path))
        assert page.evaluate(CUT_CHOICES) == [], path
        assert not overflowing(page), (path, overflowing(page))
