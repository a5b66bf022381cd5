"""Positions from real recorded games, from CGP files, from self-play; bad input; answer judging properties."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lexitrain.engine.board import Board
from lexitrain.engine.cgp import CGPError, board_to_cgp, check_tile_counts, parse_cgp
from lexitrain.engine.dawg import dawg_for
from lexitrain.engine.gcg import read_gcg
from lexitrain.engine.movegen import MoveGenerator
from lexitrain.engine.play import Play
from lexitrain.engine.replay import replay
from lexitrain.engine.rules import check_play, score_play
from lexitrain.study.quiz.kinds.position import judge, solve_position
from study_helpers import lines, of
from tests.cli_runner import run
from tests.engine_helpers import plays_for, transposed

EMPTY = "/".join(["15"] * 15)
GAMES = [
    "quackle__quackle__test__positions__preendgame.gcg",
    "jvc56__MAGPIE__test__testdata__success_standard.gcg",
    "domino14__macondo__gcgio__testdata__vs_frentz.gcg",
    "woogles-io__liwords__pkg__puzzles__testdata__r12_peter.gcg",
]


def test_real_games_every_turn_with_its_rack_and_the_engine_top_play(enable, real_games):
    paths = [real_games / name for name in GAMES]
    result = run("positions", "import", *map(str, paths), "--lexicon", "enable", "--json")  # one is in CSW21
    assert result.exit_code == 0, result.stderr
    turns = {}  # (board as CGP, rack) -> the board before the turn, replayed here from the files
    for path in paths:
        for turn in replay(read_gcg(path)):
            if turn.rack:
                turns[(board_to_cgp(turn.board), turn.rack)] = turn.board
    dawg = dawg_for(enable)
    unplayable = [key for key, board in turns.items() if not plays_for(board, key[1], dawg)]
    assert len(unplayable) < 5  # e.g. a rack of seven I's
    assert result.json() == {"added": len(turns) - len(unplayable), "already_stored": 0,
                             "no_play": len(unplayable), "skipped": []}
    for key in unplayable:
        del turns[key]

    quiz = run("quiz", "position", "--jsonl", "--limit", "500", "--no-schedule", input="\n" * len(turns))
    questions = of("question", lines(quiz.stdout))
    results = of("result", lines(quiz.stdout))
    assert len(questions) == len(results) == len(turns)
    checked = 0
    for question, shown in zip(questions, results):
        board = turns[(question["cgp"].split()[0], question["rack"])]
        assert parse_cgp(question["cgp"]).board == board
        plays = plays_for(board, question["rack"], dawg)
        top = plays[0]
        assert shown["top"][0] == {"position": top.position, "word": top.word(board.tiles), "score": top.score,
                                   "tiles": top.tiles_text(board.tiles)}
        assert shown["expected"] == [p.format(board.tiles) for p in plays if p.score == top.score]
        assert not shown["correct"] and shown["reason"].startswith("no play given")
        if len(questions) // 8 and questions.index(question) % (len(questions) // 8) == 0:
            for play in shown["top"]:  # scored again by the rules' scorer, from the notation shown
                parsed = Play.parse(f"{play['position']} {play['tiles']}", board.tiles).resolve(board)
                assert score_play(board, parsed) == play["score"]
                assert check_play(board, parsed, question["rack"], dawg).score == play["score"]
            checked += 1
    assert checked >= 8

    again = run("positions", "import", *map(str, paths[:1]), "--json").json()
    assert again["added"] == 0 and again["already_stored"] > 0  # importing twice stores nothing twice


def test_a_game_in_a_lexicon_not_compiled_here_is_refused_unless_lexicon_is_given(enable, make_lexicon, real_games,
                                                                                 tmp_path):
    csw = real_games / "jvc56__MAGPIE__test__testdata__success_standard.gcg"  # #lexicon CSW21
    refused = run("positions", "import", str(csw))
    assert refused.exit_code == 1 and refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    assert f"{csw} is recorded in CSW21, which is not compiled here" in refused.stderr
    assert "give --lexicon" in refused.stderr and run("positions", "list", "--json").json() == []
    cgps = tmp_path / "lines.cgp"
    cgps.write_text(f"{EMPTY} AEINRST/ 0/0 0 lex NWL23;\n", encoding="utf-8")
    assert "lines.cgp:1 is recorded in NWL23" in run("positions", "import", str(cgps)).stderr

    given = run("positions", "import", str(csw), "--lexicon", "enable", "--json")
    assert given.exit_code == 0 and given.json()["added"] > 10
    assert len(run("positions", "list", "--lexicon", "enable", "--limit", "100", "--json").json()) == given.json()["added"]

    make_lexicon(["RETAINS", "NASTIER", "TA"], name="nwl2023")  # compiled: the CGP's lex is honoured
    honoured = run("positions", "import", str(cgps), "--json")
    assert honoured.exit_code == 0 and honoured.json()["added"] == 1
    assert len(run("positions", "list", "--lexicon", "nwl2023", "--json").json()) == 1
    both = tmp_path / "both.cgp"
    both.write_text(f"{EMPTY} AEINRST/ 0/0 0 lex NWL23;\n{EMPTY} AEINRST/ 0/0 0\n", encoding="utf-8")
    mixed = run("positions", "import", str(both))
    assert mixed.exit_code == 1 and mixed.stderr.count("\n") == 1
    assert "both.cgp:2 is in enable, the others in nwl2023: import it apart" in mixed.stderr


def test_a_file_of_many_positions_reads_the_lexicons_there_are_once(enable, make_lexicon, tmp_path, monkeypatch):
    """Each CGP line may name its lexicon: the lexicons compiled here are listed once for the whole import (it
    was once for every line), and each line's lexicon still decides."""
    from lexitrain.cli.options import files_lexicon
    from lexitrain.lexicon import store

    make_lexicon(["RETAINS", "NASTIER", "TA"], name="nwl2023")
    cgps = tmp_path / "many.cgp"
    cgps.write_text("".join(f"{EMPTY} AEINRST/ 0/0 0 lex NWL23;\n" for _ in range(200)), encoding="utf-8")
    odd = tmp_path / "odd.cgp"
    odd.write_text(f"{EMPTY} AEINRST/ 0/0 0 lex CSW21;\n{EMPTY} AEINRST/ 0/0 0\n", encoding="utf-8")
    listed = store.compiled_names
    calls: list[int] = []
    monkeypatch.setattr(store, "compiled_names", lambda: calls.append(1) or listed())
    assert files_lexicon([cgps], "enable", False) == ("nwl2023", [cgps], []) and len(calls) == 1
    name, kept, left_out = files_lexicon([cgps, odd], "enable", False)
    assert (name, kept) == ("nwl2023", [cgps])
    assert left_out == [f"{odd}:1 is recorded in CSW21, which is not compiled here (lexicons here: cel, enable, "
                        "nwl2023): build it with `lexitrain lexicon build FILE --name CSW21`, or give --lexicon to "
                        "judge it by another"]


def test_a_file_in_another_lexicon_is_skipped_and_the_others_imported(enable, real_games):
    """`positions import tests/data/gcg/*.gcg` imported nothing when one file was in another lexicon,
    though its help says such a file is skipped: now the rest are imported, that one named."""
    csw = real_games / "jvc56__MAGPIE__test__testdata__success_standard.gcg"  # #lexicon CSW21
    plain = [real_games / "quackle__quackle__test__positions__preendgame.gcg",  # no #lexicon: the study lexicon's
             real_games / "domino14__macondo__gcgio__testdata__vs_frentz.gcg"]
    result = run("positions", "import", str(plain[0]), str(csw), str(plain[1]))
    assert result.exit_code == 1 and "Traceback" not in result.stderr  # something was skipped: said, exit 1
    assert result.stderr.splitlines() == [f"warning: skipped {csw} is recorded in CSW21, which is not compiled here "
                                          "(lexicons here: cel, enable): build it with `lexitrain lexicon build FILE "
                                          "--name CSW21`, or give --lexicon to judge it by another"]
    stored = run("positions", "list", "--limit", "1000", "--json").json()
    assert stored and {p["source"].split(":")[0] for p in stored} == set(map(str, plain))
    assert result.stdout == f"{len(stored)} positions added from 2 files (0 already stored)\n"
    cards = run("study", "from-games", str(plain[0]), str(csw), "--json")  # the same rule for cards from games
    assert cards.exit_code == 1 and cards.json()["games"] == 1 and cards.json()["lexicon"] == "enable"
    assert cards.json()["skipped"][0].startswith(f"{csw} is recorded in CSW21, which is not compiled here")


def test_a_gcg_that_does_not_parse_is_skipped_and_named(enable, real_games, tmp_path):
    bad = tmp_path / "bad.gcg"
    bad.write_text("#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66\n", encoding="utf-8")
    good = real_games / GAMES[0]
    result = run("positions", "import", str(bad), str(good))
    assert result.exit_code == 1
    assert f"{bad}:3" in result.stderr and "score" in result.stderr
    assert "Traceback" not in result.stderr
    assert "20 positions added" in result.stdout
    assert len(run("positions", "list", "--json", "--limit", "100").json()) == 20


def test_files_that_hold_no_positions_are_skipped_and_named(enable, tmp_path):
    binary, empty = tmp_path / "x.cgp", tmp_path / "empty.cgp"
    binary.write_bytes(b"\x00\xe4\xff")
    empty.write_text("# just a comment\n\n")
    result = run("positions", "import", str(tmp_path), str(binary), str(empty))
    assert result.exit_code == 1 and result.stderr.splitlines() == [
        f"warning: skipped {tmp_path}: is a folder, not a file of CGP lines (or a .gcg game)",
        f"warning: skipped {binary}: binary data, not a file of CGP lines (or a .gcg game)",
        f"warning: skipped {empty}: no CGP lines in it"]


def test_a_huge_limit_is_no_limit(enable, tmp_path):
    path = tmp_path / "one.cgp"
    path.write_text(f"{EMPTY} AEINRST/ 0/0 0\n")
    run("positions", "import", str(path))
    assert len(run("positions", "list", "--limit", "99999999999999999999", "--json").json()) == 1
    assert len(run("positions", "list", "--min-score", "99999999999999999999", "--json").json()) == 0


def test_list_limit_and_daily_number_are_checked(enable):
    for args, message in ((["list", "--limit", "-1"], "error: --limit must be at least 1"),  # was: every position
                          (["daily", "--per-day", "99999999999999999999"],
                           "error: --per-day 99999999999999999999: a daily limit is 0 to 100,000"),
                          (["generate", "--games", "99999999999999999999"],  # was: a run without end
                           "error: --games 99999999999999999999: expected 1 to 10,000"),
                          (["quiz", "--date", "2026-01-01"], "error: --date goes with --daily (the position of that day)"),
                          (["quiz", "--daily", "--date", "9999-01-01"], "error: --date 9999-01-01 is after today")):
        result = run("positions", *args)
        assert result.exit_code == 1 and result.stderr.startswith(message) and result.stderr.count("\n") == 1


def test_bad_cgp_lines_are_skipped_with_file_and_line(enable, tmp_path):
    path = tmp_path / "mixed.cgp"
    too_many_z = "ZZ13/" + "/".join(["15"] * 14)
    path.write_text("\n".join([
        f"{EMPTY} AEINRST/ 0/0 0",
        f"{too_many_z} AEINRST/ 0/0 0",  # two Z tiles: the set has one
        f"{EMPTY} / 0/0 0",  # nobody to move has tiles
        f"{EMPTY} ??AEIRS/? 0/0 0",  # three blanks
        "not a cgp",
    ]) + "\n", encoding="utf-8")
    result = run("positions", "import", str(path))
    assert result.exit_code == 1
    err = result.stderr.splitlines()
    assert err[0] == f"warning: skipped {path}:2: 2 Z tiles on the board and racks, but the english set has 1"
    assert err[1] == f"warning: skipped {path}:3: the player to move has an empty rack"
    assert err[2] == f"warning: skipped {path}:4: 3 blanks on the board and racks, but the english set has 2"
    assert err[3].startswith(f"warning: skipped {path}:5: CGP needs 4 fields")
    assert "1 position added" in result.stdout  # (it said "1 positions")


def test_impossible_tile_counts_are_refused():
    with pytest.raises(CGPError, match="10 A tiles on the board and racks, but the english set has 9"):
        check_tile_counts(parse_cgp(f"AAAAAAA8/{EMPTY[3:]} AAA/ 0/0 0"))
    check_tile_counts(parse_cgp(f"AAAAAAA8/{EMPTY[3:]} AA?/? 0/0 0"))  # exactly the set: fine


def test_an_empty_rack_cannot_be_quizzed(enable):
    from lexitrain.errors import LexitrainError

    with pytest.raises(LexitrainError, match="the player to move has an empty rack"):
        solve_position(enable, f"{EMPTY} /AEINRST 0/0 0", MoveGenerator(dawg_for(enable)))


def test_generate_is_reproducible_from_the_seed(enable):
    first = run("positions", "generate", "--games", "1", "--seed", "9", "--json").json()
    assert first["added"] > 10 and first["skipped"] == []
    assert run("positions", "generate", "--games", "1", "--seed", "9", "--json").json() == {
        "added": 0, "already_stored": first["added"], "no_play": 0, "skipped": []}
    listed = run("positions", "list", "--json", "--limit", "1000").json()
    bingos = run("positions", "list", "--json", "--bingo", "--min-score", "60", "--limit", "1000").json()
    assert all(p["bingo"] and p["top_score"] >= 60 and len(p["top_word"]) >= 7 for p in bingos)
    assert {p["id"] for p in bingos} == {p["id"] for p in listed if p["bingo"] and p["top_score"] >= 60}
    wide = run("positions", "list", "--json", "--margin", "15", "--limit", "1000").json()
    assert {p["id"] for p in wide} == {p["id"] for p in listed if p["margin"] >= 15}
    blanks = run("positions", "list", "--json", "--blank", "--limit", "1000").json()
    assert {p["id"] for p in blanks} == {p["id"] for p in listed if any(c.islower() for c in p["top_play"].split()[1])}
    fives = run("positions", "list", "--json", "--length", "5", "--limit", "1000").json()
    assert fives and {p["id"] for p in fives} == {p["id"] for p in listed if len(p["top_word"]) == 5}
    rare = run("positions", "list", "--json", "--rarer-than", "3000", "--limit", "1000").json()
    for p in listed:
        rank = enable.db.execute("SELECT probability_rank2 FROM words WHERE word = ?", (p["top_word"].upper(),))
        assert p["top_rank"] == rank.fetchone()[0]
    assert {p["id"] for p in rare} == {p["id"] for p in listed if p["top_rank"] > 3000}


BAG = "AAAAAAAAABBCCDDDDEEEEEEEEEEEEFFGGGHHIIIIIIIIIJKLLLLMMNNNNNNOOOOOOOOPPQRRRRRRSSSSTTTTTTUUUUVVWWXYYZ??"
RACKS = st.tuples(st.permutations(BAG), st.integers(1, 7)).map(lambda drawn: "".join(drawn[0][: drawn[1]]))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rack=RACKS)
def test_openings_written_down_are_the_same_plays(enable, rack):
    words = dawg_for(enable)
    board = Board(enable.layout, enable.tiles)
    plays = plays_for(board, rack, words)
    if not plays:
        return
    solved = solve_position(enable, f"{EMPTY} {rack}/ 0/0 0", MoveGenerator(words))
    for play in plays[:10]:
        down = transposed(play)
        verdict = judge(solved, down.format(enable.tiles))
        assert verdict["legal"] and verdict["score"] == play.score
        assert verdict["same_as"] == play.format(enable.tiles)
        assert verdict["rank"] == 1 + sum(p.score > play.score for p in plays)


def test_every_listed_play_is_judged_legal_with_its_score_and_rank(enable):
    from lexitrain.engine.game import self_play

    generator = MoveGenerator(dawg_for(enable))
    _, snapshots = self_play(Board(enable.layout, enable.tiles), generator, seed=3, max_turns=10)
    for snap in snapshots[1:]:
        solved = solve_position(enable, f"{board_to_cgp(snap.board)} {snap.rack}/ 0/0 0", generator)
        for play in solved.plays[:: max(1, len(solved.plays) // 15)]:
            verdict = judge(solved, play.format(enable.tiles))
            assert verdict["legal"] and verdict["score"] == play.score and "same_as" not in verdict
            assert verdict["rank"] == 1 + sum(p.score > play.score for p in solved.plays)


def test_a_rack_with_a_character_that_is_no_tile_is_refused():
    position = parse_cgp(f"{EMPTY} ABC/ 0/0 0")
    position.racks = ["AB:"]
    with pytest.raises(CGPError, match="rack 'AB:': ':' is not a tile of the english set"):
        check_tile_counts(position)
