"""Cards from a player's own games (`study from-games`) and the valid-or-phony kind they bring."""

from __future__ import annotations

import json
import re
from pathlib import Path

from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.lexicon.rows import Between
from lexitrain.study.quiz.kinds.base import CHOICE, new_kind
from lexitrain.study.quiz.kinds.valid_or_phony import DRAWN, draw_phony
from tests.cli_runner import run
from tests.test_engine_analysis import DOUG
from tests.test_engine_cli import assert_clean_error


def test_from_games_turns_what_the_player_missed_into_due_cards(enable, real_games) -> None:
    result = run("study", "from-games", str(real_games / DOUG), "--player", "doug", "--json")
    assert result.exit_code == 0, result.stderr
    data = result.json()
    # turn 15 held ?EFINRU and played FUD: REUNIFy was there; YAS and QI are not in ENABLE
    assert data["keys"]["anagram"] == ["EFINRUY"]
    assert data["keys"]["valid-or-phony"] == ["YAS", "QI"]
    analysis = run("gcg", "analyze", str(real_games / DOUG), "--player", "doug", "--json").json()
    costly = [t["cgp"] for t in analysis["games"][0]["turns"] if t["points_given_up"] > 20]
    assert data["keys"]["position"] == costly and len(costly) == 2
    assert data["added"] == 5 and data["already_cards"] == 0 and data["lexicon"] == "enable"

    again = run("study", "from-games", str(real_games / DOUG), "--player", "doug", "--points", "60", "--json").json()
    assert again["keys"]["position"] == [] and again["added"] == 0 and again["already_cards"] == 3

    # the new cards are due now: a due quiz asks them, each kind as it is asked
    answers = "REUNIFY\n7H REUNIFy\nJ10 HM\nv\np\n"
    lines = [json.loads(line) for line in run("quiz", "--due", "--jsonl", input=answers).stdout.splitlines()]
    asked = [line["question"]["id"] for line in lines if "question" in line]
    assert sorted(asked) == sorted(["anagram:EFINRUY", "valid-or-phony:YAS", "valid-or-phony:QI"]
                                   + [f"position:{cgp}" for cgp in costly])
    results = {line["result"]["id"]: line["result"] for line in lines if "result" in line}
    assert results["anagram:EFINRUY"]["correct"]
    assert results["valid-or-phony:YAS"]["verdict"] == "YAS is a phony"


def test_the_turns_of_a_game_are_simulated_with_one_leave_table(enable, real_games, monkeypatch) -> None:
    """`--sim-iterations` over a real game reads the leave table once for the game, not again for every turn it
    simulates (each read took longer than a small simulation of the turn)."""
    import lexitrain.engine.leave_table as leave_table
    from lexitrain.engine import analysis
    from lexitrain.study.quiz.kinds import analysed

    reads: list[str] = []

    def counted_read(tiles):  # type: ignore[no-untyped-def]
        reads.append(tiles.name)
        return leave_table.load_leaves(tiles)

    for module in (analysis, analysed):  # (the analyst's, Analyst.of_lexicon; the position's simulation)
        monkeypatch.setattr(module, "load_leaves", counted_read)
    result = run("study", "from-games", str(real_games / DOUG), "--player", "doug", "--sim-iterations", "1", "--json")
    assert result.exit_code == 0, result.stderr
    assert result.json()["simulated"] > 5 and len(reads) == 1, (result.json()["simulated"], reads)


def test_the_terminal_asks_a_phony_card_as_one_choice(enable, real_games) -> None:
    run("study", "from-games", str(real_games / DOUG), "--player", "doug", "--points", "100")
    shown = run("quiz", "--due", input="REUNIFY\nmaybe\nv\np\n\n").stdout
    assert "YAS   valid (v) / phony (p)?" in shown  # how to answer "phony" said with the question
    assert "answer v (valid) or p (phony)" in shown  # maybe: asked again
    assert "missed: YAS is a phony" in shown and "yes: QI is a phony" in shown
    assert "missed:" not in shown.split("yes: QI is a phony")[1]  # a right choice is not called missed
    assert "2/3 right" in shown


def test_a_round_that_opens_on_a_word_to_judge_says_how_to_answer_it(enable) -> None:
    """The valid-or-phony header said "type words ... empty line = next question": nothing of "phony"."""
    shown = run("quiz", "--kind", "valid-or-phony", "--search", "--anagram AEINRST", "--limit", "2", "--no-schedule",
                input="p\nv\n").stdout.splitlines()
    assert shown[1].startswith("type v (valid) or p (phony) for each word shown, then Enter")
    assert "type words" not in "\n".join(shown)


def test_from_games_bad_input_is_one_line_and_the_rest_is_kept(enable, real_games) -> None:
    polish = real_games / "domino14__macondo__gcgio__testdata__polish_endgame.gcg"
    result = run("study", "from-games", str(polish), str(real_games / DOUG), "--player", "doug")
    assert result.exit_code == 1
    assert "skipped" in result.stderr and "polish tiles" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout.startswith("1 game, 13 turns analysed against enable")
    made = result.stdout.split(": ", 1)[1].strip()  # each kind counted, no "(0 new, due now; 5 already cards)"
    assert re.fullmatch(r"(\d+ [a-z-]+ cards?(, )?)+ \((\d+ new, due now|none new)(; (1 was a card|\d+ were cards) "
                        r"already)?\)", made), made
    again = run("study", "from-games", str(real_games / DOUG), "--player", "doug").stdout  # the same game again
    assert again.strip().endswith(" were cards already)") and "(none new; " in again
    csw = real_games / "jvc56__MAGPIE__test__testdata__success_standard.gcg"
    cards = run("study", "cards", "--json").json()["cards"]
    refused = run("study", "from-games", str(csw), "--json")  # CSW21 is not compiled here: no phony cards made
    assert_clean_error(refused, f"{csw} is recorded in CSW21, which is not compiled here", "give --lexicon")
    assert run("study", "cards", "--json").json()["cards"] == cards
    noted = run("study", "from-games", str(csw), "--lexicon", "enable", "--json")
    assert noted.exit_code == 0 and noted.json()["notes"] == [f"{csw}: recorded in CSW21, its words judged by enable"]
    assert_clean_error(run("study", "from-games", str(real_games / DOUG), "--player", "nobody"), "no player 'nobody'")
    assert_clean_error(run("study", "from-games", str(real_games / DOUG), "--points", "-1"), "--points")


def test_a_file_that_is_not_a_game_is_one_line_naming_it_and_what_was_expected(enable, tmp_path) -> None:
    """Notes or a README given for a game: one line naming the file, the line and what a GCG game's lines are
    (not "'#' without a pragma name"), exit 1, no card made."""
    before = run("study", "cards", "--json").json()
    for text in ("# my notes\nhello\n", "hello\n"):
        notes = tmp_path / "notes.txt"
        notes.write_text(text, encoding="utf-8")
        result = run("study", "from-games", str(notes))
        assert result.exit_code == 1 and result.stdout == ""
        assert result.stderr.strip() == (f"error: {notes}:1: cannot read {text.splitlines()[0]!r} "
                                         "(expected '>player: ...' or '#pragma' of a GCG game)")
    assert run("study", "cards", "--json").json() == before


def test_a_game_in_a_compiled_lexicon_makes_its_cards_there(enable, make_lexicon, real_games) -> None:
    csw = real_games / "jvc56__MAGPIE__test__testdata__success_standard.gcg"  # #lexicon CSW21
    before = run("study", "cards", "--json").json()
    assert run("study", "from-games", str(csw)).exit_code == 1 and run("study", "cards", "--json").json() == before
    make_lexicon(["QI", "ZA", "RETAINS"], name="csw2021")  # a stand-in for the game's own lexicon, compiled here
    made = run("study", "from-games", str(csw), "--json")
    assert made.exit_code == 0, made.stderr
    assert made.json()["lexicon"] == "csw2021" and made.json()["notes"] == [] and made.json()["added"] > 0
    assert run("study", "cards", "--lexicon", "enable", "--json").json() == before


def test_valid_or_phony_judges_the_word_shown(enable) -> None:
    kind = new_kind("valid-or-phony")
    phony = kind.build(enable, "YAS")
    assert phony.hint == CHOICE and phony.expected == ("PHONY",) and phony.prompt == "YAS: valid or phony?"
    assert kind.check(phony, "p").correct and kind.check(phony, "PHONY").correct
    assert not kind.check(phony, "v").correct and not kind.check(phony, "").correct
    assert kind.check(phony, "maybe").refused
    word = kind.build(enable, "QUA")
    assert word.expected == ("VALID",) and kind.check(word, "valid").correct and kind.sheet_words(word) == ("QUA",)


def test_drawn_phonies_are_plausible_not_words_and_always_the_same(enable) -> None:
    kind = new_kind("valid-or-phony")
    rows = sorted(enable.rows([Between("length", 6, 6)]), key=lambda r: r["word"])[:400]
    keys = kind.keys_from_rows(rows)
    assert keys == [DRAWN + row["word"] for row in rows]  # the key does not say whether a phony is shown
    questions = {key: kind.build(enable, key) for key in keys}
    drawn = [key for key, question in questions.items() if question.expected == ("PHONY",)]
    assert 120 < len(drawn) < 280  # about half the words are asked as a phony drawn from them
    assert all(q.info["word"] == key[len(DRAWN):] for key, q in questions.items() if q.expected == ("VALID",))
    ways = set()
    for key in drawn[:80]:
        question = questions[key]
        shown = question.info["word"]
        source = key[len(DRAWN):]
        assert shown not in enable and question.expected == ("PHONY",)
        assert question.withheld["from"] == source and shown != source
        assert not {"from", "how"} & set(question.to_json())  # the question line does not say how it was made
        assert not set(shown) & set("JKQXZ") - set(source)  # no rare tile gives it away
        ways.add(question.withheld["how"])
        assert kind.build(open_lexicon("enable"), key).info["word"] == shown  # the card shows it every time
    assert ways == {"a wrong inflection", "one letter changed"}
    assert draw_phony(enable, "RUN")[0] not in enable
