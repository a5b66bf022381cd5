"""Game analysis (`gcg analyze`), the lexicon a game or a CGP is checked against, and their bad input."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from lexitrain.engine.analysis import Analyst
from lexitrain.engine.cgp import parse_cgp
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.gcg import read_gcg
from lexitrain.engine.leave_table import load_leaves
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import Play
from lexitrain.tiles import RACK_SIZE, Rack
from tests.cli_runner import run
from tests.test_engine_cli import EMPTY, WORKED_EXAMPLE, assert_clean_error

DOUG = "domino14__macondo__gcgio__testdata__doug_v_emely.gcg"


def test_cgp_lex_op_picks_the_lexicon(make_lexicon) -> None:
    make_lexicon(["RETAINS", "NASTIER", "TA"], name="small")
    rows = run("best", "--cgp", f"{EMPTY} AEINRST/ 0/0 0 lex SMALL;", "--all", "--json").json()
    assert {r["word"] for r in rows} == {"RETAINS", "NASTIER", "TA"}
    typed = run("best", "--cgp", f"{EMPTY} AEINRST/ 0/0 0 lex SMALL;", "--lexicon", "small", "--top", "1", "--json")
    assert typed.json()[0]["score"] == 66


def test_cgp_lex_op_not_compiled_is_one_line(make_lexicon) -> None:
    make_lexicon(["TA"], name="small")
    result = run("best", "--cgp", f"{EMPTY} AEINRST/ 0/0 0 lex NWL23;")
    assert_clean_error(result, "the CGP is recorded in NWL23, which is not compiled here", "cel", "enable", "small")
    assert_clean_error(run("score", "8H", "TA", "--cgp", f"{EMPTY} AEINRST/ 0/0 0 lex NWL23;"), "NWL23")


def test_a_files_lexicon_name_matches_its_edition_written_either_way(make_lexicon, tmp_path: Path) -> None:
    """NWL2023 in a file means a lexicon compiled as nwl23 (and CSW21 one compiled as CSW2021)."""
    make_lexicon(["RETAINS", "NASTIER", "TA"], name="nwl23")
    rows = run("best", "--cgp", f"{EMPTY} AEINRST/ 0/0 0 lex NWL2023;", "--all", "--json").json()
    assert {r["word"] for r in rows} == {"RETAINS", "NASTIER", "TA"}
    make_lexicon(["QUITE"], name="CSW2021")
    path = tmp_path / "game.gcg"
    path.write_text("#lexicon csw21\n" + WORKED_EXAMPLE, encoding="utf-8")
    assert run("gcg", "verify", str(path), "--json").json()["lexicon"] == "CSW2021"


def test_verify_names_the_lexicon_and_counts_score_errors_apart(make_lexicon, tmp_path: Path) -> None:
    make_lexicon(["QUITE", "MESQUITE", "QI", "UN", "IF", "TA", "EN", "RECOUNTS"], name="small")
    text = WORKED_EXAMPLE.replace("+57 57", "+50 50").replace("+88 136", "+88 138")  # one wrong score, INFANCY unknown
    path = tmp_path / "game.gcg"
    path.write_text("#lexicon NWL23\n" + text, encoding="utf-8")
    result = run("gcg", "verify", str(path), "--lexicon", "small")
    assert result.exit_code == 1
    assert "4 plays: 1 score error, 1 with words not in small" in result.stdout
    named = run("gcg", "verify", str(path))
    assert f"{path}: words checked against enable: its lexicon NWL23 is not compiled here" in named.stdout
    data = run("gcg", "verify", str(path), "--json").json()
    assert data["lexicon"] == "enable" and data["notes"] == [
        f"{path}: words checked against enable: its lexicon NWL23 is not compiled here"]
    assert data["score_errors"] == 1 and data["unknown_words"] == 1  # a wrong score; INFaNCY's QI not in ENABLE
    small = run("gcg", "verify", str(path), "--lexicon", "small", "--json").json()
    assert (small["score_errors"], small["unknown_words"], small["lexicon"]) == (1, 1, "small")


def test_analysis_of_the_worked_example(make_lexicon, tmp_path: Path) -> None:
    make_lexicon(["QUITE", "MESQUITE", "QI", "UN", "IF", "TA", "EN", "RECOUNTS", "INFANCY"], name="small")
    path = tmp_path / "game.gcg"
    path.write_text(WORKED_EXAMPLE, encoding="utf-8")
    data = run("gcg", "analyze", str(path), "--lexicon", "small", "--player", "Alice", "--json").json()
    game, = data["games"]
    assert game["lexicon"] == "small" and [t["turn"] for t in game["turns"]] == [1, 3]
    first, third = game["turns"]
    assert first["move"] == "8D QUITE" and first["top_by_score"][0]["score"] == 48 and first["points_given_up"] == 0
    assert third["top_by_score"][0] == {"position": "9D", "word": "INFaNCY", "score": 88, "tiles": "INFaNCY"}
    assert third["missed_bingos"] == [] and not third["phonies"]  # the bingo was played
    assert data["players"]["alice"]["turns"] == 2 and data["players"]["alice"]["missed_bingo_turns"] == 0


def test_analysis_bad_input_is_one_line(enable, real_games) -> None:
    assert_clean_error(run("gcg", "analyze", str(real_games / DOUG), "--player", "nobody"),
                       "no player 'nobody'", "players: doug, emely")
    polish = real_games / "domino14__macondo__gcgio__testdata__polish_endgame.gcg"
    assert_clean_error(run("gcg", "analyze", str(polish)), "the game uses polish tiles, lexicon enable uses english")


def test_analysis_on_the_real_games(enable, real_games) -> None:
    """Every English real game: the top score of every turn solved is `best`'s on the same CGP,
    the missed bingos are the bingos of the full move list when none was played, and every
    play taken back (as many as SOURCES.tsv counts) is found a phony."""
    words = dawg_for(enable)
    analyst = Analyst(words, load_leaves(enable.tiles), enable.tiles)
    generator = MoveGenerator(words)
    withdrawn = {r["file"]: int(r["n_phony_withdrawn"])
                 for r in csv.DictReader((real_games / "SOURCES.tsv").open(encoding="utf-8"), delimiter="\t")}
    solved = sampled = 0
    for path in sorted(real_games.glob("*.gcg")):
        if "polish" in path.name:
            continue
        report = analyst.game(read_gcg(path))
        bingo_turns = 0
        for turn in report.turns:
            if turn.note:
                continue
            position = parse_cgp(turn.cgp, enable.tiles, enable.layout)
            plays = generator.plays(position.board, Rack.parse(enable.tiles, position.rack, in_play=True))
            assert turn.top_by_score[0]["score"] if plays else not turn.top_by_score
            if plays:
                assert turn.top_by_score[0]["score"] == plays[0].score, (path.name, turn.turn)
            where, _, written = turn.move.partition(" ")
            played_bingo = turn.kind == "play" and not turn.withdrawn and \
                Play.from_notation(where, written, enable.tiles).resolve(position.board).tile_count == RACK_SIZE
            bingos = {p.word(enable.tiles).upper() for p in plays if p.tile_count == RACK_SIZE}
            assert {b["word"].upper() for b in turn.missed_bingos} == (set() if played_bingo else bingos)
            bingo_turns += bool(bingos) and not played_bingo
            if solved % 150 == 0 and plays:  # `best` itself, now and then
                top = run("best", "--cgp", turn.cgp, "--top", "1", "--json").json()[0]
                assert top["score"] == turn.top_by_score[0]["score"]
                sampled += 1
            solved += 1
        assert report.summary()["missed_bingo_turns"] == bingo_turns
        taken_back = [t for t in report.turns if t.withdrawn]
        assert len(taken_back) == withdrawn[path.name] and all(t.phonies for t in taken_back), path.name
    assert solved > 2600 and sampled > 10


@pytest.mark.parametrize("fmt", ["html", "pdf"])
def test_analysis_report_draws_the_costliest_turns(enable, real_games, tmp_path: Path, fmt: str) -> None:
    out = tmp_path / f"report.{fmt}"
    result = run("gcg", "analyze", str(real_games / DOUG), "--report", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.endswith(f"report written to {out}\n")  # the player is told where it went
    data = out.read_bytes()
    if fmt == "html":
        text = data.decode("utf-8")
        assert text.count('class="board"') == 3 and "REUNIFy" in text and "doug" in text
        first, = [b for b in text.split('class="board"') if "B8 FU." in b]  # turn 15: REUNIFy (7H) was best
        assert "<th>A</th>" in first and "<th>O</th>" in first and "<th>15</th>" in first
        best = re.findall(r'<td class="[^"]*\bbest\b[^"]*">(\w)</td>', first)
        played = re.findall(r'<td class="[^"]*\bplayed\b[^"]*">(\w)</td>', first)
        assert "".join(best) == "REUNIFy" and "".join(played) == "FU"
        assert "outlined: the move made, B8 FU.; grey: the best play by equity, 7H REUNIFy" in text
    else:
        assert data.startswith(b"%PDF") and len(data) > 2000
