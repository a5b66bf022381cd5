"""The Judge page in a real browser (Debian's chromium, as tests/test_web_browser.py drives it): the host starts
it, players type plays and see VALID or NOT VALID large for the whole play, the verdict clears itself, and
nothing else of the app is reachable until the host's key stops it. With LEXITRAIN_SCREENSHOTS=DIR the
screens are saved there (web-judge-*.png) to be looked at; the README shows the waiting, valid and
not-valid ones (docs/images)."""

from __future__ import annotations

import os
from pathlib import Path

from test_web_browser import VIEWPORTS, Live, browser, home, live, overflowing, page  # noqa: F401  (fixtures)

from playwright.sync_api import Page, expect

KEY = "club-7"


def shot(page: Page, name: str) -> None:
    folder = os.environ.get("LEXITRAIN_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"web-judge-{name}.png"))


def test_the_judge_page_judges_plays_and_keeps_the_players_on_it(page: Page, live: Live) -> None:
    page.clock.install()
    page.goto(live.url("/judge"))
    expect(page.get_by_role("heading", name="Word judge")).to_be_visible()
    shot(page, "start")
    page.get_by_label("Host's key").fill(KEY)
    page.get_by_label("Again").fill(KEY)
    page.get_by_role("button", name="Start the judge").click()

    words = page.get_by_label("CHALLENGER: type every word of the play")
    expect(words).to_be_focused()
    expect(page.get_by_role("link", name="Search")).to_have_count(0)  # no way out from the page itself
    shot(page, "waiting")
    # from here the page's time moves only by run_for: on a loaded machine, the seconds the checks below take
    # in real time would otherwise count towards the 15 s
    page.clock.pause_at(page.evaluate("Date.now()") + 1000)
    words.type("retains, qi")
    words.press("Enter")
    verdict = page.locator("#judge-verdict")
    expect(verdict).to_have_text("VALID")
    expect(page.locator("#judge-play")).to_contain_text("RETAINS QI")
    size = float(verdict.evaluate("node => parseFloat(getComputedStyle(node).fontSize)"))
    assert size >= 48  # large letters, at a laptop's size
    assert not overflowing(page)
    shot(page, "valid")
    page.clock.run_for(14_000)
    expect(verdict).to_be_visible()
    page.clock.run_for(2_000)  # 15 s: the screen clears itself for the next challenger
    expect(page.locator("#judge-result")).to_be_hidden()
    expect(words).to_be_focused()

    words.type("RETAINS QIS")
    words.press("Enter")
    expect(verdict).to_have_text("NOT VALID")
    expect(page.locator("#judge-play")).to_contain_text("RETAINS QIS")
    assert "QIS" not in verdict.inner_text()  # the play as a whole: no word singled out
    shot(page, "not-valid")
    page.keyboard.press("a")  # any key clears it sooner
    expect(page.locator("#judge-result")).to_be_hidden()

    for path in ("/search", "/", "/stats"):  # typed into the address bar: back to the judge
        page.goto(f"{live.base}{path}")
        expect(page).to_have_url(f"{live.base}/judge")
    page.set_viewport_size({"width": VIEWPORTS["phone"][0], "height": VIEWPORTS["phone"][1]})
    words.type("QI")
    words.press("Enter")
    expect(verdict).to_have_text("VALID")
    assert not overflowing(page)
    shot(page, "valid-phone")
    page.keyboard.press("Enter")
    expect(words).to_be_focused()
    words.fill("RETAINS")  # sent twice before the first answer comes (a held Enter): judged and logged once
    page.evaluate("() => { const form = document.getElementById('judge-form'); form.requestSubmit(); "
                  "form.requestSubmit(); }")
    expect(verdict).to_have_text("VALID")
    expect(page.locator("#judge-play")).to_contain_text("RETAINS")
    page.keyboard.press("Enter")

    page.get_by_role("button", name="Host", exact=True).click()
    page.get_by_label("Host's key").fill("club-8")
    page.get_by_role("button", name="Stop the judge").click()
    expect(page.get_by_text("that is not the host key")).to_be_visible()  # (the key's form stays open)
    page.wait_for_load_state()  # the refusal's page whole before its field is filled
    page.get_by_label("Host's key").fill(KEY)
    expect(page.get_by_label("Host's key")).to_have_value(KEY)
    page.get_by_role("button", name="Stop the judge").click()
    expect(page).to_have_url(f"{live.base}/", timeout=20_000)  # the key's hash is checked: slow on a loaded machine
    page.goto(f"{live.base}/search")
    expect(page).to_have_url(f"{live.base}/search")
    logged = (live.home / "judge.log").read_text(encoding="utf-8").splitlines()
    assert [line.split("  ")[2:] for line in logged] == [["VALID", "RETAINS QI"], ["NOT VALID", "RETAINS QIS"],
                                                         ["VALID", "QI"], ["VALID", "RETAINS"]]
