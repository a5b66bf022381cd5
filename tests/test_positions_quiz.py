"""The position quiz end to end through `--jsonl`, on a small lexicon whose scores are worked out by hand."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from tests.cli_runner import run
from study_helpers import lines, of

EMPTY = "/".join(["15"] * 15)
QUITE = "/".join(["15"] * 7 + ["3QUITE7"] + ["15"] * 7)
#: Enough words for the rules' worked example (8D QUITE 48, 8A MES(QUITE) 57, 9D INFaNCY 88, E4 RECO(UN)TS 40)
#: and the seven-letter anagrams of AEINRST.
WORDS = """QUITE MESQUITE INFANCY QI UN IF TA EN RECOUNTS ME MES
RETAINS NASTIER STAINER RETINAS ANESTRI ANTSIER RATINES RETSINA STEARIN""".split()
ANAGRAMS = 9
NOW = datetime(2026, 3, 1, 10, 0, tzinfo=timezone.utc)


@pytest.fixture
def small(make_lexicon):
    return make_lexicon(WORDS, name="small")


def import_cgp(tmp_path: Path, *cgps: str) -> None:
    path = tmp_path / "positions.cgp"
    path.write_text("# positions for the quiz\n" + "\n".join(cgps) + "\n", encoding="utf-8")
    result = run("positions", "import", str(path), "--lexicon", "small")
    assert result.exit_code == 0, result.stderr
    assert f"{len(cgps)} position{'s' if len(cgps) > 1 else ''} added" in result.stdout


def quiz(*answers: str, extra: tuple[str, ...] = ()) -> list[dict]:
    result = run("quiz", "position", "--lexicon", "small", "--jsonl", *extra, input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.stderr
    return lines(result.stdout)


def test_question_carries_the_position_and_the_rack(small, tmp_path):
    import_cgp(tmp_path, f"{EMPTY} AEINRST/ 12/30 0")
    question = of("question", quiz(""))[0]
    assert question["kind"] == "position"
    assert question["cgp"] == f"{EMPTY} AEINRST/ 12/30 0"  # the player to move first
    assert question["rack"] == "AEINRST"
    assert "rack AEINRST" in question["prompt"]


def test_tied_top_plays_lower_play_illegal_play_and_transposed_opening(small, tmp_path):
    import_cgp(tmp_path, f"{EMPTY} AEINRST/ 0/0 0")
    # (7 letters + one on the double-letter square) x 2 for the centre + 50 = 66, at 8B 8C 8D 8F 8G 8H;
    # at 8E the word misses both double-letter squares: 7 x 2 + 50 = 64.
    answers = ["8D RETAINS", "8H NASTIER", "8E RETAINS", "8A RETAINS", "8D SATINER", "H2 RETAINS", "QUITE"]
    for answer in answers:
        records = quiz(answer, extra=("--no-schedule",))
        if answer in ("8A RETAINS", "8D SATINER", "QUITE"):  # illegal: refused, asked again, never judged
            [refused] = of("refused", records)
            assert refused["given"] == answer and not of("result", records)
            assert of("summary", records)[0]["questions"] == 0
            if answer == "8A RETAINS":
                assert "centre square 8H" in refused["reason"]
            elif answer == "8D SATINER":
                assert refused["reason"] == "SATINER is not in the lexicon small"
            else:
                assert "bad play" in refused["reason"]
            continue
        result = of("result", records)[0]
        if answer in ("8D RETAINS", "8H NASTIER"):
            assert result["correct"] and result["legal"] and result["score"] == 66 and result["rank"] == 1
        elif answer == "8E RETAINS":
            assert not result["correct"] and result["legal"]
            assert result["score"] == 64
            assert result["rank"] == 6 * ANAGRAMS + 1
            assert result["plays"] == 7 * ANAGRAMS + 2 * 2  # and TA, EN at 8G or 8H
            assert [p["score"] for p in result["top"]] == [66] * 5
        else:  # H2 RETAINS: down from H2 over the centre, the mirror image of 8B RETAINS
            assert result["correct"] and result["score"] == 66 and result["same_as"] == "8B RETAINS"
        assert len(result["expected"]) == 6 * ANAGRAMS and "8D RETAINS" in result["expected"]


def test_design_worked_example_scores(small, tmp_path):
    import_cgp(tmp_path, f"{QUITE} CFINNY?/ 0/48 0", f"{QUITE} EMSAAAA/ 0/48 0")
    records = quiz("9D INFaNCY", "8A MES.....")
    first, second = of("result", records)
    assert first["correct"] and first["score"] == 88 and first["rank"] == 1  # QI UN IF TA EN and the bonus
    assert second["score"] == 57 and second["play"] == "8A MES....."
    assert of("summary", records)[0]["questions"] == 2
    for notation in ("8A MES(QUITE)", "8A MESQUITE"):  # played-through tiles written either way
        assert of("result", quiz("", notation, extra=("--no-schedule",)))[1]["score"] == 57


def test_rack_must_hold_the_tiles_and_end_of_input_ends_cleanly(small, tmp_path):
    import_cgp(tmp_path, f"{QUITE} CFINNYA/ 0/48 0", f"{EMPTY} AEINRST/ 0/0 0")
    records = quiz("9D INFaNCYY", "")  # more tiles than the rack holds: refused; then a pass; then the input ends
    assert of("refused", records)[0]["reason"] == "the play needs 2 Y, the rack CFINNYA has 1"
    result = of("result", records)[0]
    assert not result["correct"] and result["reason"].startswith("no play given")
    # a real A on the double-letter G9 adds 2 to INFANCY and 2 to TA
    assert result["top"][0] == {"position": "9D", "word": "INFANCY", "score": 88 + 2 + 2, "tiles": "INFANCY"}
    assert of("summary", records)[0] == {**of("summary", records)[0], "questions": 1, "correct": 0}
    assert len(of("question", records)) == 2  # the second position asked, then the input ended: unscored


def test_lowercase_is_capitals_where_the_rack_has_no_blank_for_it(small, tmp_path):
    import_cgp(tmp_path, f"{QUITE} CFINNYA/ 0/48 0", f"{QUITE} CFINNY?/ 0/48 0")
    records = quiz("9d infancy", "9D infaNcy", "9D INFaNCY")
    first, blank = of("result", records)
    assert first["correct"] and first["play"] == "9D INFANCY" and first["score"] == 92  # no blank: capitals
    # five lowercase letters, one blank: read as capitals, and the rack has no real A
    assert of("refused", records)[0]["reason"] == "A is not on the rack CFINNY?"
    assert blank["play"] == "9D INFaNCY" and blank["score"] == 88  # one lowercase, one blank: the blank


def test_missed_position_comes_back_through_the_scheduler(small, tmp_path, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    import_cgp(tmp_path, f"{EMPTY} AEINRST/ 0/0 0", f"{QUITE} CFINNY?/ 0/48 0")
    first = of("result", quiz("8E RETAINS", "9D INFaNCY"))
    assert [r["correct"] for r in first] == [False, True]
    assert first[0]["card"]["state"] == "learning"
    monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(minutes=5)).isoformat())  # 1-minute step due, 10 not
    due = run("quiz", "--due", "--lexicon", "small", "--jsonl", input="")
    assert [q["cgp"] for q in of("question", lines(due.stdout))] == [f"{EMPTY} AEINRST/ 0/0 0"]
    again = quiz("8D RETAINS")  # the position quiz also asks the due position first
    assert of("question", again)[0]["cgp"] == f"{EMPTY} AEINRST/ 0/0 0"
    assert of("result", again)[0]["correct"]


def test_daily_drill_takes_positions_when_asked(small, tmp_path, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    import_cgp(tmp_path, f"{EMPTY} AEINRST/ 0/0 0", f"{QUITE} CFINNY?/ 0/48 0", f"{QUITE} EMSAAAA/ 0/48 0")
    result = run("daily", "--lexicon", "small", "--jsonl", input="")
    assert all(q["kind"] != "position" for q in of("question", lines(result.stdout)))
    assert run("positions", "daily", "--per-day", "2", "--lexicon", "small").stdout == (
        "daily drill (small): 2 new positions a day\n")
    assert run("positions", "daily", "--per-day", "1", "--lexicon", "small").stdout == (
        "daily drill (small): 1 new position a day\n")
    assert run("positions", "list", "--lexicon", "small", "--blank").stdout.endswith(
        "1 position shown (of 3 stored for small)\n")
    assert run("positions", "list", "--lexicon", "enable").stdout == (
        "no positions stored for enable yet (`lexitrain positions import GAMES.gcg` or "
        "`lexitrain positions generate` adds some)\n")
    assert run("positions", "daily", "--per-day", "2", "--lexicon", "small").exit_code == 0
    result = run("daily", "--lexicon", "small", "--jsonl", input="8D RETAINS\n8A ME\n\nQUITE\n")  # 8A ME: refused
    questions = of("question", lines(result.stdout))
    assert [q["kind"] for q in questions[:2]] == ["position", "position"] and questions[2]["kind"] != "position"
    assert of("result", lines(result.stdout))[0]["correct"]
    result = run("daily", "--lexicon", "small", "--jsonl", input="")  # today's two positions were given
    assert of("question", lines(result.stdout))[0]["kind"] != "position"


def test_a_missed_position_writes_no_missed_word_list(small, tmp_path, monkeypatch):
    """A play is not a word: `quiz --file` could not read "8D RETAINS" back, so the list leaves positions out."""
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    import_cgp(tmp_path, f"{EMPTY} AEINRST/ 0/0 0")
    run("positions", "daily", "--per-day", "1", "--lexicon", "small")
    run("study", "set", "--new", "1")
    only = lines(run("daily", "--lexicon", "small", "--jsonl", input="8E RETAINS\n").stdout)
    assert [q["kind"] for q in of("question", only)] == ["position"]
    assert of("summary", only)[0]["missed"] and of("summary", only)[0]["missed_list"] is None
    run("study", "set", "--new", "2")
    drill = lines(run("daily", "--lexicon", "small", "--jsonl", input="nope\n").stdout)
    assert [q["kind"] for q in of("question", drill)] == ["anagram"]
    words = Path(of("summary", drill)[0]["missed_list"]).read_text().split()
    assert words and not any(w[0].isdigit() for w in words)


def test_terminal_quiz_and_daily_drill_show_the_board_and_the_verdict(small, tmp_path, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    import_cgp(tmp_path, f"{EMPTY} AEINRST/ 0/0 0", f"{QUITE} CFINNY?/ 0/48 0")
    result = run("quiz", "position", "--lexicon", "small", "--no-schedule", input="H2 RETAINS\n8A X\n\n")
    assert result.exit_code == 0
    out = result.stdout
    assert "rack AEINRST   score 0 to 0" in out and " 8 = . . ' . . . - . . . ' . . =  8" in out
    assert "H2 RETAINS (= 8B RETAINS) scores 66: rank 1 of 67" in out
    assert "rack CFINNY?   score 0 to 48" in out and "illegal: X is not on the rack CFINNY?; try again" in out
    assert "  1.   88  9D   INFaNCY" in out and "1/2 top plays found" in out
    run("positions", "daily", "--per-day", "1", "--lexicon", "small")
    daily = run("daily", "--lexicon", "small", input="8D RETAINS\n!quit\n")
    assert "rack AEINRST" in daily.stdout and "8D RETAINS scores 66: rank 1 of 67" in daily.stdout


def test_fresh_install_quiz_makes_positions_by_self_play(enable):
    result = run("quiz", "position", "--jsonl", "--limit", "2", input="")
    question = of("question", lines(result.stdout))[0]
    assert result.exit_code == 0 and question["cgp"].startswith(EMPTY + " ")
    listed = run("positions", "list", "--json").json()
    assert len(listed) > 10 and all(p["source"].startswith("self-play seed 1 game 1") for p in listed)


def test_daily_puzzle_is_fixed_by_date_and_lexicon(enable):
    from lexitrain.study.drills.positions import daily_key

    day = datetime(2026, 3, 1).date()
    key = daily_key(enable, day)
    assert daily_key(enable, day) == key
    result = run("quiz", "position", "--daily", "--date", "2026-03-01", "--jsonl", input="")
    assert [q["cgp"] for q in of("question", lines(result.stdout))] == [key]


def test_a_huge_filter_value_matches_nothing_instead_of_overflowing(small, tmp_path):
    import_cgp(tmp_path, f"{EMPTY} AEINRST/ 12/30 0")
    huge = "99999999999999999999"
    listed = run("positions", "list", "--margin", huge, "--lexicon", "small", "--json")
    assert (listed.exit_code, listed.json()) == (0, [])
    asked = run("quiz", "position", "--min-score", huge, "--lexicon", "small", "--jsonl", input="")
    assert asked.exit_code == 1 and "no stored position in small matches the filters" in asked.stderr


def test_a_progress_backup_carries_the_positions_and_their_cards(small, tmp_path, home, monkeypatch):
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    import_cgp(tmp_path, f"{EMPTY} AEINRST/ 0/0 0", f"{QUITE} CFINNY?/ 0/48 0")
    quiz("8E RETAINS", "9D INFaNCY")  # the first missed, the second right
    backup = tmp_path / "backup.json"
    assert "and 2 positions" in run("progress", "export", str(backup)).stdout
    for name in ("progress.sqlite", "progress.sqlite-wal", "progress.sqlite-shm"):
        (home / name).unlink(missing_ok=True)  # a new machine
    assert "and 2 positions" in run("progress", "import", str(backup)).stdout
    listed = run("positions", "list", "--lexicon", "small", "--json").json()
    assert sorted(p["cgp"] for p in listed) == sorted([f"{EMPTY} AEINRST/ 0/0 0", f"{QUITE} CFINNY?/ 0/48 0"])
    monkeypatch.setenv("LEXITRAIN_NOW", (NOW + timedelta(minutes=5)).isoformat())
    again = quiz("8D RETAINS")  # the missed position is still due first
    assert of("question", again)[0]["cgp"] == f"{EMPTY} AEINRST/ 0/0 0"
    assert "and 0 positions" in run("progress", "import", str(backup)).stdout  # importing twice adds nothing


def test_by_equity_judges_the_tiles_kept_and_shows_the_score(small, tmp_path):
    """TA and EN score 4 each at 8G or 8H; TA keeps EEEEN, EN keeps AEEET (one E fewer), so
    by equity only EN is right, by score all four are."""
    from lexitrain.engine.leave_table import load_leaves
    from lexitrain.tiles import Rack

    model = load_leaves(small.tiles)
    kept = {word: model.value(Rack.parse(small.tiles, leave)) for word, leave in (("TA", "EEEEN"), ("EN", "AEEET"))}
    assert kept["EN"] > kept["TA"]
    import_cgp(tmp_path, f"{EMPTY} TAENEEE/ 0/0 0")
    records = quiz("8G TA", extra=("--by", "equity", "--no-schedule"))
    question, = of("question", records)
    assert question["by"] == "equity" and "the top play by equity" in question["prompt"]
    wrong, = of("result", records)
    assert not wrong["correct"] and wrong["legal"] and wrong["score"] == 4 and wrong["rank"] == 3
    assert wrong["equity"] == round(4 + kept["TA"], 2) and wrong["top_equity"] == round(4 + kept["EN"], 2)
    assert sorted(wrong["expected"]) == ["8G EN", "8H EN"]
    assert [(p["word"], p["score"], p["equity"]) for p in wrong["top"]] == \
        [("EN", 4, wrong["top_equity"])] * 2 + [("TA", 4, wrong["equity"])] * 2
    right, = of("result", quiz("8H EN", extra=("--by", "equity", "--no-schedule")))
    assert right["correct"] and right["equity"] == right["top_equity"] and right["rank"] == 1
    by_score, = of("result", quiz("8G TA", extra=("--no-schedule",)))
    assert by_score["correct"] and "equity" not in by_score and "equity" not in by_score["top"][0]


def test_by_equity_bad_input_is_one_line(small, tmp_path):
    import_cgp(tmp_path, f"{EMPTY} TAENEEE/ 0/0 0")
    result = run("quiz", "position", "--lexicon", "small", "--by", "points", "--jsonl", input="")
    assert result.exit_code != 0 and "--by 'points': rank by score or equity" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_terminal_undo_takes_the_last_play_back(small, tmp_path):
    """`!undo` at the play prompt: the last play and its card are taken back and that position asked again."""
    import_cgp(tmp_path, f"{EMPTY} AEINRST/ 0/0 0", f"{QUITE} CFINNY?/ 0/48 0")
    result = run("quiz", "position", "--lexicon", "small", input="8H TA\n!undo\nH2 RETAINS\n\n")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "took back your last play: it is asked again" in out
    assert out.count("rack AEINRST") == 2 and "H2 RETAINS (= 8B RETAINS) scores 66: rank 1 of 67" in out
    assert "1/2 top plays found" in out  # the play taken back counts for nothing
    from lexitrain.study.store import ProgressStore

    with ProgressStore() as store:
        assert store.conn.execute("SELECT count(*) FROM answers").fetchone()[0] == 2
        assert store.conn.execute("SELECT sum(correct + incorrect) FROM cards").fetchone()[0] == 2
