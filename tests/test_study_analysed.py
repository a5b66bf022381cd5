"""The analysed position kinds: `best-play` (judged by a simulation) and `endgame` (judged by the exact
endgame solver), made by `study from-games` from real games, stored with their analyses, asked at once."""

from __future__ import annotations

import json
import re

from lexitrain.engine.analysis import Analyst
from lexitrain.engine.cgp import Position, parse_cgp
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.gcg import read_gcg
from lexitrain.engine.leave import leave_after
from lexitrain.engine.leave_table import load_leaves
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.rules import apply_play
from lexitrain.study.quiz.kinds.analysed import simulate_position, solve_endgame
from tests.cli_runner import run
from tests.test_engine_analysis import DOUG
from tests.test_engine_cli import assert_clean_error
from tests.test_engine_endgame import brute_force, first_tiles, real_endgames

NOAH = "domino14__macondo__gcgio__testdata__noah_vs_mishu.gcg"
#: mishu7's turn 32 of that game: LLPR against AEIY, the bag empty; two first plays are worth -34 (exact)
ENDGAME = ("10WHETS/11O3/9GLUG2/11S1I1/9R1E1N1/8TI1DAIS/7C1AG1BOA/f5VOX1ATONY/I6FIVER3/R4WET3E3/E3ZA2MOANED1/"
           "L2BID1QI2C3/O1JUN3MU1HOE1/c2RETUNES2IF1/KNAP3OREAD1T1 LLPR/AEIY 377/334 0")


def jsonl(*args: str, answers: str) -> list[dict]:
    result = run(*args, "--jsonl", input=answers)
    assert result.exit_code == 0, result.stderr
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_every_first_play_of_a_small_real_endgame_is_valued_as_the_brute_force_does(enable) -> None:
    """Two tiles a side on real boards: each first play's stored value is the brute-force minimax's,
    and the plays called best are exactly those reaching the best value."""
    dawg = dawg_for(enable)
    generator = MoveGenerator(dawg)
    for board, mine, theirs in real_endgames(enable.tiles, 3):
        me, them = first_tiles(mine, 2), first_tiles(theirs, 2)
        position = Position(board, [enable.tiles.spell(me.names()), enable.tiles.spell(them.names())], [300, 300])
        analysis = solve_endgame(position, generator, 60)
        assert analysis is not None
        best = brute_force(board, (me, them), 0, dawg)
        assert analysis["value"] == best
        for play in generator.plays(board, me):
            left = leave_after(me, play)
            if not left.size:
                expected = play.score + 2 * sum(p * n for p, n in zip(enable.tiles.points, them.counts))
            else:
                after = board.copy()
                apply_play(after, play)
                expected = play.score - brute_force(after, (them, left), 0 if play.score else 1, dawg)
            stored = next(row for row in analysis["values"] if row["play"] == play.format(enable.tiles))
            assert stored["value"] == expected, play.format(enable.tiles)
        assert set(analysis["best"]) == {row["play"] for row in analysis["values"] if row["value"] == best}


def test_endgame_cards_from_a_real_game_take_any_best_first_play(enable, real_games, tmp_path) -> None:
    made = run("study", "from-games", str(real_games / NOAH), "--player", "mishu7", "--endgame-time", "8", "--json")
    assert made.exit_code == 0, made.stderr
    data = made.json()
    assert ENDGAME in data["keys"]["endgame"]
    assert data["endgames"] == len(data["keys"]["endgame"]) + data["endgames_unsolved"] and data["simulated"] == 0
    # the endgame command agrees on the value, and on one thread (as the card was solved) on the line too: with
    # more threads another line of the same value may come first
    solver = run("endgame", "--cgp", ENDGAME, "--threads", "1", "--json").json()

    before = "\n" * data["keys"]["endgame"].index(ENDGAME)  # passes to the positions stored before it
    shown = run("quiz", "position", "--by", "endgame", "--no-schedule", input=before + "11A EL\n").stdout
    assert "win the endgame: its first play?" in shown and "the opponent holds AEIY" in shown
    assert "11A .L scores 2, worth -36 to the end; the best is 13L ...R or 9A .LL, worth -34" in shown
    # the line the solver gives (either best first play may lead it: 13L HOER 7 or 9A ILL 4)
    first = solver["sequence"][0]
    best_line = f"a best line: you {first['position']} {first['word']} {first['score']}"
    assert first["position"] in ("13L", "9A") and best_line in shown, shown
    # the values and the line say whose they are: a head over the first plays, each move of the line its player's
    assert "value score  move  (value: the spread gained from here to the end, best play after)" in shown
    line = shown[shown.index(best_line):].splitlines()[0].removeprefix("a best line: ").split(", ")
    assert [move.split()[0] for move in line] == ["opponent" if n % 2 else "you" for n in range(len(line))], line
    # a flashcard's reveal says as much: the first plays by exact value and a best line, not the play alone
    cards = sum(len(keys) for keys in data["keys"].values())
    flashcards = run("quiz", "--due", "--flashcard", "--no-schedule", input="\n3\n" * cards).stdout
    assert best_line in flashcards and re.search(r"1\.\s+-34\s+\d+\s+(13L|9A) ", flashcards)
    # and asks as the typed quiz does: a board with coordinates to name a play by, the opponent's tiles, and no
    # "(2 to find)": one play is the answer, either of the two best first plays
    asked = flashcards[:flashcards.index(best_line)]
    asked = asked[asked.rindex("win the endgame: its first play?"):]
    assert "A B C D E F G H I J K L M N O" in asked and "the opponent holds AEIY" in asked
    assert "(2 are best: any one of them is right)" in asked and "to find" not in asked
    assert re.search(r"reveal >\s+(13L \S+ or 9A \S+|9A \S+ or 13L \S+)\n", asked), asked

    lines = jsonl("quiz", "position", "--by", "endgame", answers=before + "9A ALL\n13L HOER\n")
    at = next(n for n, line in enumerate(lines) if line.get("question", {}).get("id") == f"endgame:{ENDGAME}")
    assert lines[at]["question"]["rack"] == "LLPR" and lines[at]["question"]["by"] == "endgame"
    assert lines[at + 1]["refused"]["reason"] == "square 9A holds I, not A"  # an illegal play: asked again
    result = lines[at + 2]["result"]
    assert result["correct"] and result["play"] == "13L ...R" and result["value"] == solver["value"] == -34
    assert sorted(result["expected"]) == ["13L ...R", "9A .LL"]  # either first play keeps the best value
    assert result["play_value"] == -34 and result["spread"] == 43
    assert [m["word"] for m in result["sequence"]][:2] == [m["word"] for m in solver["sequence"]][:2]
    assert result["card"]["state"] == "learning"  # scheduled like any card

    backup = tmp_path / "backup.json"  # a backup carries the analysis, so another machine asks the same card
    assert run("progress", "export", str(backup)).exit_code == 0
    stored = {p["cgp"]: p for p in json.loads(backup.read_text())["positions"]}
    assert json.loads(stored[ENDGAME]["analysis"])["best"] == result["expected"]
    assert run("progress", "import", str(backup)).exit_code == 0



def test_best_play_cards_from_a_real_game_are_judged_by_the_stored_simulation(enable, real_games) -> None:
    assert_clean_error(run("study", "from-games", str(real_games / DOUG), "--sim-iterations", "-3"),
                       "--sim-iterations and --endgame-time must be 0 (none) or more")
    assert_clean_error(run("quiz", "position", "--by", "sim"), "no position analysed by sim is stored",
                       "--sim-iterations 300")
    assert_clean_error(run("quiz", "position", "--by", "sim", "--daily"), "not --by sim")
    made = run("study", "from-games", str(real_games / DOUG), "--player", "doug", "--sim-iterations", "16", "--json")
    assert made.exit_code == 0, made.stderr
    data = made.json()
    keys = data["keys"]["best-play"]
    assert keys and data["simulated"] >= len(keys) and data["keys"]["endgame"] == []
    # as `gcg analyze --sim`: emely's move before doug's turn read, where it was a play or an exchange
    assert 0 < data["inferred"] <= len(keys)
    said = run("study", "from-games", str(real_games / DOUG), "--player", "doug", "--sim-iterations", "16").stdout
    assert (f"{data['simulated']} turns simulated, 16 iterations each: the opponent's rack read from their last move "
            f"for {data['inferred']} of the {len(keys)} best-play cards (the rest a random draw)") in said, said
    cgp = keys[0]
    lines = jsonl("quiz", "position", "--by", "sim", "--limit", "1", "--no-schedule", answers="\n")
    result = lines[1]["result"]
    assert lines[0]["question"]["cgp"] == cgp and not result["correct"] and not result["legal"]  # a pass
    table = result["top"]
    best = result["expected"][0]
    assert table[0]["play"] == best and result["iterations"] == 16 and result["seed"] == 1
    assert all(row["iterations"] == 16 and 0 <= row["win"] <= 1 for row in table)
    assert [row["win"] for row in table] == sorted((row["win"] for row in table), reverse=True)
    assert table[0]["score"] < result["top_score"]  # the best by simulation is not a top-scoring play

    # the same position simulated again with the same seed, the opponent's move read as `gcg analyze` reads
    # it: the same table (a card asks the same question); without the reading, another
    game = Analyst(dawg_for(enable), load_leaves(enable.tiles), enable.tiles).game(read_gcg(real_games / DOUG), "doug")
    read = next(read for turn, read in zip(game.turns, game.reads) if turn.cgp == cgp)
    position = parse_cgp(cgp, enable.tiles, enable.layout)
    again = simulate_position(enable, position, MoveGenerator(dawg_for(enable)), 16, read=read)
    assert again is not None and again["candidates"] == table and again["inferred"]
    plain = simulate_position(enable, position, MoveGenerator(dawg_for(enable)), 16)
    assert plain is None or not plain["inferred"] and plain["candidates"] != table

    top = run("best", "--cgp", cgp, "--top", "1", "--json").json()[0]  # the top-scoring play is not the answer
    lines = jsonl("quiz", "position", "--by", "sim", "--limit", "1", "--no-schedule",
                  answers=f"{top['position']} {top['word']}\n")
    assert not lines[1]["result"]["correct"] and lines[1]["result"]["score"] == result["top_score"]
    assert lines[1]["result"]["expected"] == [best] and lines[1]["result"]["top"] == table

    shown = run("quiz", "position", "--by", "sim", "--no-schedule", "--limit", "1", input=f"{best}\n").stdout
    assert "best play by simulation?" in shown and f"{best.split()[0]}" in shown and ": the best play" in shown
    assert " win %  equity  spread score  iter  move" in shown
    assert "(16 iterations, 2 plies, seed 1, the opponent's rack drawn from what their last move says of it)" in shown

    lines = jsonl("quiz", "position", "--by", "sim", "--limit", "1", answers=f"{best}\n")
    assert lines[1]["result"]["correct"] and lines[1]["result"]["rank"] == 1 and "card" in lines[1]["result"]
