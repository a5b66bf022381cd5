"""The engine commands as a user runs them: best, score, gcg verify, gcg show."""

from __future__ import annotations

from pathlib import Path

import pytest

from lexitrain import __version__
from lexitrain.engine import movegen
from tests.cli_runner import run

EMPTY = "/".join(["15"] * 15)
AFTER_QUITE = "/".join(["15"] * 7 + ["3QUITE7"] + ["15"] * 7)

WORKED_EXAMPLE = """#character-encoding UTF-8
#player1 alice Alice
#player2 bob Bob
>alice: EIQTUXY 8D QUITE +48 48
>bob: ABEMSTY 8A MES(QUITE) +57 57
>alice: ?CFINNY 9D INFaNCY +88 136
>bob: CEORSTU E4 RECO..TS +40 97
"""
EXPECTED_PLAYS = [
    {"turn": 1, "player": "alice", "position": "8D", "word": "QUITE", "recorded": 48, "computed": 48, "ok": True},
    {"turn": 2, "player": "bob", "position": "8A", "word": "MESQUITE", "recorded": 57, "computed": 57, "ok": True},
    {"turn": 3, "player": "alice", "position": "9D", "word": "INFaNCY", "recorded": 88, "computed": 88, "ok": True},
    {"turn": 4, "player": "bob", "position": "E4", "word": "RECOUNTS", "recorded": 40, "computed": 40, "ok": True},
]


@pytest.fixture
def example_gcg(tmp_path: Path) -> Path:
    path = tmp_path / "example.gcg"
    path.write_text(WORKED_EXAMPLE, encoding="utf-8")
    return path


def assert_clean_error(result, *fragments: str) -> None:
    assert result.exit_code != 0
    assert "Traceback" not in result.stderr + result.stdout
    line = result.stderr.strip().splitlines()[-1]
    assert line.startswith("error: ")
    for fragment in fragments:
        assert fragment in line


def test_worked_example_verifies_without_lexicon(example_gcg: Path) -> None:
    result = run("gcg", "verify", str(example_gcg), "--no-lexicon", "--json")
    assert result.exit_code == 0
    assert result.json() == {"ok": True, "plays": EXPECTED_PLAYS, "score_errors": 0, "unknown_words": 0,
                             "lexicon": None, "notes": []}


def test_worked_example_with_a_lexicon_that_has_its_words(example_gcg: Path, make_lexicon) -> None:
    make_lexicon(["QUITE", "MESQUITE", "INFANCY", "RECOUNTS", "QI", "UN", "IF", "TA", "EN"], name="example")
    result = run("gcg", "verify", str(example_gcg), "--lexicon", "example", "--json")
    assert result.exit_code == 0
    assert result.json()["plays"] == EXPECTED_PLAYS


def test_worked_example_with_enable_flags_qi(example_gcg: Path, enable) -> None:
    """ENABLE has no QI, so INFaNCY (which forms QI) is not a legal play there."""
    result = run("gcg", "verify", str(example_gcg), "--json")
    assert result.exit_code == 1
    report = result.json()
    assert report["ok"] is False
    bad = [p for p in report["plays"] if not p["ok"]]
    assert len(bad) == 1 and bad[0]["word"] == "INFaNCY" and bad[0]["computed"] == 88
    assert bad[0]["reason"] == "QI not in enable"


def test_verify_uses_the_games_lexicon_when_compiled(example_gcg: Path, make_lexicon) -> None:
    make_lexicon(["QUITE", "MESQUITE", "INFANCY", "RECOUNTS", "QI", "UN", "IF", "TA", "EN"], name="mini")
    example_gcg.write_text(WORKED_EXAMPLE.replace("#player1", "#lexicon MINI\n#player1"), encoding="utf-8")
    result = run("gcg", "verify", str(example_gcg), "--json")
    assert result.exit_code == 0 and result.json()["ok"] is True


def test_misscore_fails_verify(tmp_path: Path) -> None:
    path = tmp_path / "bad.gcg"
    path.write_text(WORKED_EXAMPLE.replace("+57 57", "+56 56"), encoding="utf-8")
    result = run("gcg", "verify", str(path), "--no-lexicon", "--json")
    assert result.exit_code == 1
    plays = result.json()["plays"]
    assert plays[1]["recorded"] == 56 and plays[1]["computed"] == 57 and plays[1]["ok"] is False


def test_withdrawn_phony_is_listed(tmp_path: Path) -> None:
    text = WORKED_EXAMPLE.replace(
        ">bob: ABEMSTY 8A MES(QUITE) +57 57\n",
        ">bob: ABEMSTY 9C ZAX +5 5\n>bob: ABEMSTY --  -5 0\n>bob: ABEMSTY 8A MES(QUITE) +57 57\n",
    ).replace("9C ZAX +5 5", "D7 A. +11 11").replace("--  -5 0", "--  -11 0")
    path = tmp_path / "phony.gcg"
    path.write_text(text, encoding="utf-8")
    result = run("gcg", "verify", str(path), "--no-lexicon", "--json")
    assert result.exit_code == 0, result.stdout
    plays = result.json()["plays"]
    assert plays[1] == {"turn": 2, "player": "bob", "position": "D7", "word": "AQ", "recorded": 11,
                        "computed": 11, "ok": True, "withdrawn": True}
    assert [p["word"] for p in plays[2:]] == ["MESQUITE", "INFaNCY", "RECOUNTS"]


def test_best_lists_plays_best_first(enable) -> None:
    result = run("best", "--cgp", f"{AFTER_QUITE} ABEMSTY/ 0/0 0", "--top", "3", "--json")
    assert result.exit_code == 0
    plays = result.json()
    assert plays[0] == {"position": "8A", "word": "MESQUITE", "score": 57, "tiles": "MES....."}
    assert [set(p) for p in plays] == [{"position", "word", "score", "tiles"}] * 3
    assert [p["score"] for p in plays] == sorted((p["score"] for p in plays), reverse=True)
    default = run("best", "--cgp", f"{AFTER_QUITE} ABEMSTY/ 0/0 0", "--json").json()
    assert default[:3] == plays and len(default) == 10


def test_best_all_lists_each_play_once(enable) -> None:
    result = run("best", "--cgp", f"{EMPTY} AEINST?/ 0/0 0", "--all", "--json")
    plays = result.json()
    keys = [(p["position"], p["tiles"]) for p in plays]
    assert len(keys) == len(set(keys)) > 1000
    assert all(p["position"][0].isdigit() for p in plays)  # empty board: across only
    top = plays[0]["word"]
    assert len(top) == 7 and sum(ch.islower() for ch in top) == 1 and plays[0]["score"] > 50  # a bingo


def test_score_one_play(enable) -> None:
    result = run("score", "--cgp", f"{EMPTY} EIQTUXY/ 0/0 0", "8D", "QUITE", "--json")
    assert result.exit_code == 0
    data = result.json()
    assert (data["score"], data["legal"], data["words"]) == (48, True, ["QUITE"])


def test_score_reports_why_a_play_is_illegal(enable) -> None:
    result = run("score", "--cgp", f"{AFTER_QUITE} ABEMSTY/ 0/0 0", "9D", "QI", "--json")
    assert result.exit_code == 1
    data = result.json()
    assert data["legal"] is False and "Q is not on the rack" in data["reason"]
    result = run("score", "--cgp", f"{EMPTY} ABEMSTY/ 0/0 0", "8L", "BEAMS", "--json")
    assert result.exit_code == 1
    assert "runs off the board at 8P" in result.json()["reason"]


@pytest.mark.parametrize(
    ("cgp", "fragments"),
    [
        ("15/15/15 A/ 0/0 0", ["board: 3 rows, expected 15"]),
        ("/".join(["15"] * 14 + ["14"]) + " A/ 0/0 0", ["board row 15", "covers 14 squares"]),
        ("/".join(["15"] * 14 + ["7QUITE"]) + " A/ 0/0 0", ["board row 15", "covers 12 squares"]),
        ("/".join(["15"] * 14 + ["7#7"]) + " A/ 0/0 0", ["board row 15", "unknown tile", "'#'"]),
        ("15/1?/" + "/".join(["15"] * 13) + " A/ 0/0 0", ["board row 2", "unknown tile", "'?'"]),
        (EMPTY + " A1/ 0/0 0", ["racks: rack 1"]),
        (EMPTY + " A/ x/0 0", ["scores"]),
        (EMPTY, ["CGP needs 4 fields"]),
    ],
)
def test_malformed_cgp_is_a_clean_error(enable, cgp: str, fragments: list[str]) -> None:
    assert_clean_error(run("best", "--cgp", cgp, "--json"), *fragments)


@pytest.mark.parametrize(("rack", "fragment"), [("ABCDEFGH", "at most 7 tiles"), ("A???", "3 blanks on the board and racks, but the english set has 2")])
def test_impossible_racks_are_refused(enable, rack: str, fragment: str) -> None:
    assert_clean_error(run("best", "--cgp", f"{EMPTY} {rack}/ 0/0 0", "--json"), fragment)


@pytest.mark.parametrize(("args", "field"), [
    (["anagram", "AB1"], "rack"),
    (["best", "--cgp", f"{EMPTY} AB1/ 0/0 0"], "racks: rack 1"),
    (["best", "--cgp", f"{EMPTY} AB/ 0/0 0", "--rack", "AB1"], "rack"),
    (["score", "--cgp", f"{EMPTY} AB/AB1 0/0 0", "8H", "AB"], "racks: rack 2"),
])
def test_a_rack_that_cannot_be_read_gets_the_same_one_line_error_everywhere(enable, args: list[str], field: str) -> None:
    """One reading of rack text: each command names its field, then the same reason."""
    result = run(*args, "--json")
    assert_clean_error(result)
    assert result.stderr.strip().splitlines()[-1] == f"error: {field} 'AB1': '1' is not a tile of the english set"


FOUR_QS = "/".join(["15"] * 7 + ["3QQQQE7"] + ["15"] * 7)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["best", "--cgp", f"{FOUR_QS} ABC/ 0/0 0"], "4 Q tiles on the board and racks, but the english set has 1"),
        (["score", "--cgp", f"{FOUR_QS} ABC/ 0/0 0", "7H", "AB"], "4 Q tiles on the board and racks"),
        (["best", "--cgp", f"{EMPTY} ZZZ/ 0/0 0"], "3 Z tiles on the board and racks"),
        (["best", "--cgp", f"{AFTER_QUITE} ABEMSTY/ 0/0 0", "--rack", "QQ"], "3 Q tiles on the board and racks"),
        (["best", "--cgp", f"{AFTER_QUITE} ABEMSTY/ 0/0 0", "--rack", "A:B"], "rack 'A:B': ':' is not a tile"),
    ],
)
def test_more_tiles_than_the_set_has_are_refused(enable, args: list[str], fragment: str) -> None:
    assert_clean_error(run(*args, "--json"), fragment)


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        (">bob: ABEMSTY 8A MES(QUITE)", "no score and cumulative total"),
        (">bob: ABEMSTY 8Z MESQUITE +57 57", "runs off the board"),
        (">bob: ABEMSTY Q8Q MESQUITE +57 57", "bad position"),
        (">bob: ABEMSTY 8A ME1S +57 57", "'1' is not a tile"),
        ("bob: ABEMSTY 8A MES(QUITE) +57 57", "expected '>player: ...' or '#pragma'"),
    ],
)
def test_malformed_gcg_names_the_line(tmp_path: Path, line: str, fragment: str) -> None:
    path = tmp_path / "broken.gcg"
    path.write_text(WORKED_EXAMPLE.replace(">bob: ABEMSTY 8A MES(QUITE) +57 57", line), encoding="utf-8")
    result = run("gcg", "verify", str(path), "--no-lexicon", "--json")
    if "runs off the board" in fragment:
        assert result.exit_code == 1
        assert fragment in result.json()["plays"][1]["reason"]
        return
    assert_clean_error(result, f"broken.gcg:5", fragment)


def test_a_shown_turn_goes_straight_to_best(example_gcg: Path, enable) -> None:
    cgp = run("gcg", "show", str(example_gcg), "--turn", "3", "--json").json()["cgp"]
    recorded = run("score", "--cgp", cgp, "9D", "INFaNCY", "--json").json()
    assert (recorded["score"], recorded["legal"], recorded["reason"]) == (88, False, "QI is not in the lexicon enable")
    plays = run("best", "--cgp", cgp, "--top", "2", "--json").json()  # in ENABLE, without QI
    assert [(p["position"], p["word"], p["score"]) for p in plays] == [("7G", "INFaNCY", 78), ("9G", "INFaNCY", 78)]


def test_missing_gcg_file(tmp_path: Path) -> None:
    assert_clean_error(run("gcg", "verify", str(tmp_path / "nope.gcg"), "--no-lexicon"), "cannot read")


@pytest.mark.parametrize("content, fragment", [
    (b"", "no turns recorded"),  # verify said "0 plays: 0 score errors" and exit 0
    (b"#player1 a A\n#player2 b B\n", "no turns recorded"),
    (b"\x00\x01GCG\xff", "binary data, not a GCG file"),
])
@pytest.mark.parametrize("command", [["gcg", "verify"], ["gcg", "show"], ["gcg", "analyze"]])
def test_a_gcg_file_with_no_game_is_an_error(tmp_path: Path, content: bytes, fragment: str, command) -> None:
    path = tmp_path / "game.gcg"
    path.write_bytes(content)
    assert_clean_error(run(*command, str(path)), f"{path}: {fragment}")


def test_gcg_show_board_at_a_turn(example_gcg: Path) -> None:
    result = run("gcg", "show", str(example_gcg), "--turn", "3", "--json")
    assert result.exit_code == 0
    cgp = "/".join(["15"] * 7 + ["MESQUITE7"] + ["15"] * 7) + " ?CFINNY/ 48/57 0"  # the mover's rack and score first
    assert result.json() == {"turn": 3, "player": "alice", "rack": "?CFINNY", "move": "9D INFaNCY", "score": 88,
                             "cgp": cgp, "scores": {"alice": 48, "bob": 57}, "warnings": []}
    before_any = run("gcg", "show", str(example_gcg), "--turn", "1", "--json").json()
    assert before_any["cgp"] == "/".join(["15"] * 15) + " EIQTUXY/ 0/0 0"
    text = run("gcg", "show", str(example_gcg)).stdout
    assert "A B C D E F G H I J K L M N O" in text
    assert " a " in text  # the blank stays lowercase
    assert_clean_error(run("gcg", "show", str(example_gcg), "--turn", "9"), "turns 1 to 4")


def test_gcg_show_ends_with_the_scores_and_warns_of_a_play_off_the_board(example_gcg: Path, tmp_path: Path) -> None:
    text = run("gcg", "show", str(example_gcg)).stdout
    assert text.rstrip().endswith("at the end: alice 136, bob 97")
    assert run("gcg", "show", str(example_gcg), "--turn", "3").stdout.rstrip().endswith("before this turn: alice 48, bob 57")
    off = tmp_path / "off.gcg"
    off.write_text(WORKED_EXAMPLE.replace(">bob: ABEMSTY 8A MES(QUITE) +57 57", ">bob: ABEMSTY 8L BEAMS +30 30"),
                   encoding="utf-8")
    shown = run("gcg", "show", str(off))
    assert shown.exit_code == 0
    assert shown.stderr == "warning: turn 2 (bob) is left off the board: 8L BEAMS runs off the board at 8P\n"
    assert run("gcg", "show", str(off), "--json").json()["warnings"] == [
        "turn 2 (bob) is left off the board: 8L BEAMS runs off the board at 8P"]
    assert run("gcg", "show", str(off), "--turn", "2", "--json").json()["warnings"] == []  # not yet played


@pytest.mark.parametrize("engine,shown", [
    ("python", "pure Python"),
    pytest.param("compiled", "compiled", marks=pytest.mark.skipif(movegen.compiled is None, reason="not built")),
])
def test_version_names_the_move_generator_in_use(engine: str, shown: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEXITRAIN_ENGINE", engine)
    for flag in ("--version", "-V"):
        result = run(flag)
        assert (result.exit_code, result.stdout) == (0, f"lexitrain {__version__} (move generator: {shown})\n")


@pytest.mark.parametrize("args", [["-h"], ["best", "-h"], ["lexicon", "build", "-h"]])
def test_dash_h_is_help(args: list[str]) -> None:
    result = run(*args)
    assert result.exit_code == 0 and result.stdout.startswith("Usage: ") and "--help" in result.stdout


def test_no_lexicon_and_a_lexicon_together_are_refused(enable, tmp_path):
    game = tmp_path / "g.gcg"
    game.write_text("#player1 a A\n#player2 b B\n>a: ABEQTIU 8D QUITE +48 48\n")
    for args in (["score", "--cgp", f"{'15/' * 14}15 EIQTUXY/ 0/0 0", "8D", "QUITE", "--no-lexicon", "--lexicon", "cel"],
                 ["gcg", "verify", str(game), "--no-lexicon", "--lexicon", "cel"]):
        result = run(*args)
        assert result.exit_code == 1
        assert result.stderr == "error: --no-lexicon and --lexicon say opposite things: give one of them\n"
