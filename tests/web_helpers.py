"""Shared pieces for the web app's tests: a small lexicon with definitions and a position, a movable clock,
a client holding the launch's cookie."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lexitrain.engine.cgp import Position, to_cgp
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.exchanges import unseen_tiles
from lexitrain.engine.gcg import read_gcg
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.replay import replay
from lexitrain.lexicon import playability
from lexitrain.lexicon.compile import compile_lexicon
from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.lexicon import Lexicon
from lexitrain.study.drills.positions import ImportReport, from_cgp_file, store_positions
from lexitrain.study.quiz.kinds.analysed import solve_endgame, store_analysed
from lexitrain.study.store import ProgressStore
from lexitrain.tiles import Rack
from study_helpers import WORDS

if TYPE_CHECKING:
    from playwright.sync_api import Page

NAME = "webtest"
#: A definition that must show as text, never run.
SCRIPT = "<script>alert(1)</script>"
DEFINITIONS = {"RETAINS": f"keeps {SCRIPT}", "QI": "the vital force", "SALTIER": "more salty"}
EXTRA = "QUITE MESQUITE QI UN IF TA EN RECOUNTS ME MES BLAMEWORTHINESS DISEMBOWELMENTS LAWMAKERS SWORDSMAN".split()
EMPTY_BOARD = "/".join(["15"] * 15)
#: An empty board and the rack AEINRST: the top plays score 66 (8D RETAINS among them).
POSITION = f"{EMPTY_BOARD} AEINRST/ 0/0 0"
TOP_PLAY, TOP_SCORE = "8D RETAINS", 66
ILLEGAL_PLAY = "8D SATINER"


#: how the browser tests start Debian's chromium (as root, with nothing fetched from outside)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def chromium_or_skip() -> str:
    """Debian's chromium for a browser test module, with Playwright beside it: the module is skipped where either
    is missing, and fails instead where LEXITRAIN_REQUIRE_BROWSER=1 says they must be there (CI)."""
    import pytest

    found = shutil.which("chromium") or shutil.which("chromium-browser")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:  # pragma: no cover - depends on the machine
        found = None
    if found is None:
        if os.environ.get("LEXITRAIN_REQUIRE_BROWSER") == "1":
            pytest.fail("LEXITRAIN_REQUIRE_BROWSER=1 but no chromium (or no playwright) was found", pytrace=False)
        pytest.skip("no chromium or playwright here", allow_module_level=True)
    return found


@contextmanager
def serving(app: Any, listening: socket.socket | None = None) -> Iterator[int]:
    """APP (the local app's or a club's) served for real by uvicorn on a thread, on LISTENING (else a free port
    of 127.0.0.1), listening before the first request: its port; stopped after."""
    import uvicorn

    listening = listening or socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    try:
        while not server.started:
            time.sleep(0.01)
        yield int(listening.getsockname()[1])
    finally:
        server.should_exit = True
        thread.join(timeout=30)


class Clock:
    """The rounds' clock, moved by the test."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_web_lexicon(folder: Path) -> Lexicon:
    """Compile the test lexicon into the current LEXITRAIN_HOME and store its one position."""
    source = folder / f"{NAME}.txt"
    words = sorted(set(WORDS) | set(EXTRA))
    source.write_text("".join(f"{w} {DEFINITIONS.get(w, '')}".rstrip() + "\n" for w in words), encoding="utf-8")
    compile_lexicon(source, NAME)
    lex = open_lexicon(NAME)
    # playability figures, as `lexicon playability` stores them, for the search form's Playability field
    playability.write(lex.folder, {"QUITE": 9, "RETAINS": 4}, None, lambda word: len(lex.tiles.encode(word)), {"games": 0})
    cgp = folder / "positions.cgp"
    cgp.write_text(POSITION + "\n", encoding="utf-8")
    report = ImportReport()
    with ProgressStore() as store:
        store_positions(store, lex, from_cgp_file(lex, cgp, report), report)
    assert not report.skipped
    return lex


def solved_real_endgame(lex: Lexicon, real_games: Path, store: ProgressStore) -> tuple[str, dict[str, Any], str]:
    """The last turn of a real game (noah_vs_mishu) with the bag empty, solved exactly as `study from-games
    --endgame-time` solves it and stored with its analysis: its CGP, the analysis and the opponent's tiles."""
    generator = MoveGenerator(dawg_for(lex))
    for turn in reversed(replay(read_gcg(real_games / "domino14__macondo__gcgio__testdata__noah_vs_mishu.gcg"),
                                lex.tiles, lex.layout)):
        mine = Rack.parse(lex.tiles, turn.rack.upper(), in_play=True) if turn.rack else None
        plays = generator.plays(turn.board, mine) if mine else []
        if plays and 0 < unseen_tiles(turn.board, mine).size <= 7:
            theirs = lex.tiles.spell(unseen_tiles(turn.board, mine).names())
            position = Position(turn.board.copy(), [turn.rack.upper(), theirs], list(turn.scores))
            analysis = solve_endgame(position, generator, 30)
            if analysis is not None:
                store_analysed(store, lex, position, "test", analysis, plays)
                return to_cgp(position), analysis, theirs
    raise AssertionError("no endgame of the game was solved in time")


def overflowing(page: Page) -> list[str]:
    """Elements whose text runs out of their box, and a page wider than the window (a browser test's page: the
    local app's or a club's)."""
    return page.evaluate("""() => {
        const out = [];
        if (document.documentElement.scrollWidth > window.innerWidth + 1) out.push("the page scrolls sideways");
        const cells = ".cell, .cell *, td, th, button, #last-guess, h1, nav a, .letter, .forecast > span";  // (a chart's)
        for (const node of document.querySelectorAll(cells)) {
            if (node.offsetParent === null) continue;
            if (node.closest(".scroll") && !node.matches("td, th")) continue;
            const style = getComputedStyle(node);  // (a line cut with an ellipsis on purpose has its title)
            if (style.textOverflow === "ellipsis" && node.title) continue;
            if (node.scrollWidth > node.clientWidth + 1 && style.display !== "inline")
                out.push(node.tagName + "." + node.className + ": " + node.textContent.slice(0, 40));
            else if (node.matches(".cell") && node.scrollHeight > node.clientHeight + 1)  // (its words cut off below)
                out.push("a cell's bottom: " + node.textContent.slice(0, 40));
        }
        return out;
    }""")
