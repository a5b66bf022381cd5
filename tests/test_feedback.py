"""Feedback like Zyzzyva's after every question (study/quiz/feedback.py), definitions with their links
written out (lexicon/definitions.py), `define`, and `--definitions` on judge, anagram and hooks."""

from __future__ import annotations

import pytest

from lexitrain.lexicon.definitions import written_out
from lexitrain.study.quiz.feedback import feedback
from lexitrain.study.drills.requests import QuizRequest, Words
from lexitrain.study.quiz.session import Outcome
from lexitrain.study.store import ProgressStore
from study_helpers import lines, of
from tests.cli_runner import run

#: Zyzzyva-style lines: `<word=pos>` and `{word=pos}` links, several senses split by " / ".
DEFINED = [
    "CAT a carnivorous mammal [n -S] / to vomit [v CATTED, CATTING, CATS]",
    "CATS <cat=n> [n] / <cat=v> [v]",
    "ACT to do something [v -ED, -ING, -S]",
    "ACTS <act=v> [v]",
    "SCAT to leave hastily [v -TTED, -TTING, -S]",
    "CAST to throw [v CAST, CASTING, CASTS]",
    "TACT diplomacy [n -S]",
    "AT in the position of [prep]",
    "TA an expression of gratitude [interj]",
    "DEWY moist with dew [adj DEWIER, DEWIEST]",
    "DEWILY in a {dewy=adj} manner [adv]",
    "SCATS <scat=v> [v]",
    "CASTS <cast=v> [v]",
    "ACTA <act=n> [n]",
]


@pytest.fixture
def defined(make_lexicon):
    """A small lexicon with definitions, and symbols: `+` marks the words missing from `old`."""
    make_lexicon(["CAT", "ACT", "AT", "TA", "CAST"], name="old")
    return make_lexicon(DEFINED, name="defs", compare={"old": "+"})


def lookup(table: dict[str, str]):
    return lambda word: table.get(word, "")


@pytest.mark.parametrize("stored, expected", [
    ("<cat=n> [n]", "CAT, a carnivorous mammal [n]"),  # the sense of that part of speech
    ("<cat=v> [v]", "CAT, to vomit [v]"),
    ("in a {dewy=adj} manner [adv]", "in a dewy (moist with dew) manner [adv]"),  # the word as written
    ("<dog=n> [n]", "DOG [n]"),  # no definition to follow: the word alone, uppercase
    ("a {dog=n} [n]", "a dog [n]"),  # ... or as written
    ("<cat=adj> [adj]", "CAT [adj]"),  # no sense of that part of speech
    ("<cat=n> [n] / <cat=v> [v]", "CAT, a carnivorous mammal [n] / CAT, to vomit [v]"),
    ("<dog=n> or <cat=n> [n]", "DOG or CAT, a carnivorous mammal [n]"),  # later links still written out
    ("plain [n]", "plain [n]"),
])
def test_links_are_written_out_as_zyzzyva_does(stored, expected):
    table = {"CAT": "a carnivorous mammal [n -S] / to vomit [v CATTED, CATTING, CATS]",
             "DEWY": "moist with dew [adj DEWIER, DEWIEST]"}
    assert written_out(stored, lookup(table)) == expected


def test_links_that_lead_back_stop_at_the_word():
    table = {"FOO": "<bar=n> [n]", "BAR": "<foo=n> [n]"}
    assert written_out(table["FOO"], lookup(table), "FOO") == "BAR, FOO [n]"  # not FOO again, no endless loop
    deep = {"A1": "{a2=n} [n]", "A2": "{a3=n} [n]", "A3": "{a4=n} [n]", "A4": "{a5=n} [n]", "A5": "end [n]"}
    assert written_out("{a1=n} [n]", lookup(deep)) == "a1 (a2 (a3 (a4))) [n]"  # followed 3 deep, as Zyzzyva


def test_a_compiled_lexicon_stores_its_definitions_written_out(defined):
    assert defined.row("CATS")["definition"] == "CAT, a carnivorous mammal [n] / CAT, to vomit [v]"
    assert defined.row("DEWILY")["definition"] == "in a dewy (moist with dew) manner [adv]"


def test_search_shows_and_finds_definitions_as_written_out(defined):
    """A search table, its JSON and `--definition` read what a player reads, never `<cat=n>`."""
    import json

    table = run("search", "--anagram", "ACST", "--lexicon", "defs")
    assert "CAT, to vomit [v]" in table.stdout and "<" not in table.stdout
    rows = json.loads(run("search", "--definition", "moist with dew", "--lexicon", "defs", "--json").stdout)
    assert [(r["word"], r["definition"]) for r in rows] == [
        ("DEWILY", "in a dewy (moist with dew) manner [adv]"), ("DEWY", "moist with dew [adj DEWIER, DEWIEST]")]
    assert run("search", "--definition", "dewy=adj", "--lexicon", "defs").stderr == "no words match\n"


def _answer(lex, alphagram: str, text: str) -> Outcome:
    with ProgressStore() as store:
        session = QuizRequest(Words(query=f"--anagram {alphagram}"), schedule=False).start(store, lex)
        question = next(iter(session.questions()))
        return session.answer(question, text)


def test_feedback_lists_every_answer_with_its_facts_and_only_the_unfound_as_missing(defined):
    outcome = _answer(defined, "ACST", "cats scat zzz act")
    found = feedback(defined, outcome)
    assert not found.correct
    by_word = {note.row["word"]: note for note in found.answers}
    assert list(by_word) == ["ACTS", "CAST", "CATS", "SCAT"]
    assert {w for w, note in by_word.items() if note.found} == {"CATS", "SCAT"}
    assert found.missing == ("ACTS", "CAST")  # CATS and SCAT were given: never listed as missed
    cats = by_word["CATS"]
    assert cats.definition == "CAT, a carnivorous mammal [n] / CAT, to vomit [v]"
    assert cats.row["symbols"] == "+" and by_word["CAST"].row["symbols"] == ""
    assert (cats.row["front_hooks"], cats.row["back_hooks"], cats.row["inner_front"], cats.row["inner_back"]) == (
        "S", "", False, True)  # SCATS; not ATS, but CAT
    assert [(w.word, w.valid) for w in found.wrong] == [("ZZZ", False), ("ACT", True)]
    assert found.reasons == ("missing 2 of 4: ACTS CAST", "not words in defs: ZZZ", "words, but not answers here: ACT")


def test_feedback_on_a_right_answer_has_no_reasons(defined):
    outcome = _answer(defined, "ACST", "acts cast cats scat")
    found = feedback(defined, outcome)
    assert found.correct and found.reasons == () and found.missing == ()
    assert all(note.found for note in found.answers)


def test_feedback_says_a_late_answer_was_too_slow(defined):
    right = _answer(defined, "ACST", "acts cast cats scat")
    late = Outcome(right.question, right.check, False, True, 12.25, right.answer_id)
    assert feedback(defined, late, question_time=10).reasons == ("too slow: answered in 12.2 s (10 s allowed)",)
    assert feedback(defined, late).reasons == ("answered after the round's time ran out",)
    blank = _answer(defined, "ACST", "")
    ran_out = Outcome(blank.question, blank.check, False, True, 10.0, blank.answer_id)
    assert feedback(defined, ran_out, question_time=10).reasons[0] == "the time ran out before an answer was given"
    marked = Outcome(right.question, right.check, False, False, 1.0, right.answer_id)
    assert feedback(defined, marked).reasons == ("marked missed",)


def test_terminal_shows_each_answer_marked_with_hooks_symbols_and_definition(defined):
    result = run("quiz", "--search", "--anagram ACST", "--no-schedule", "--lexicon", "defs", input="cats zzz\n\n\n")
    assert result.exit_code == 0, result.stderr
    out = result.stdout.splitlines()
    assert any(line.endswith("  missed: missing 3 of 4: ACTS CAST SCAT; not words in defs: ZZZ") for line in out)
    cats = next(line for line in out if "CATS" in line and "mammal" in line)
    assert cats.split()[0] == "found" and "+" in cats.split() and "CAT, a carnivorous mammal [n]" in cats
    acts = next(line for line in out if "ACTS" in line and "ACT, to do something" in line)
    assert acts.split()[0] == "missed"
    assert not any(line.startswith("    missed") and "CATS" in line for line in out)


def test_a_hooks_question_with_nothing_to_find_shows_the_word_and_its_inner_hooks(make_lexicon):
    """A hooks question on a word that takes no hooks printed nothing after the answer: ·NAE· was never shown."""
    make_lexicon(["NAE a Scots no", "AE one", "NA no"], name="scots")
    result = run("quiz", "--kind", "hooks", "--search", "--pattern NAE", "--no-schedule", "--lexicon", "scots",
                 input="\n\n")
    out = result.stdout.splitlines()
    at = next(i for i, line in enumerate(out) if line.endswith("right: nothing to find"))
    assert out[at + 1].split() == ["·NAE·", "a", "Scots", "no"]  # the word, its inner hooks either side, its definition
    missed = run("quiz", "--kind", "hooks", "--search", "--pattern NAE", "--no-schedule", "--lexicon", "scots",
                 "--jsonl", "--feedback", input="NAES\n")
    fb = of("result", lines(missed.stdout))[0]["feedback"]
    assert fb["nothing_to_find"] and fb["reasons"] == ["not words in scots: NAES"]
    assert [(a["word"], a["inner_front"], a["inner_back"]) for a in fb["answers"]] == [("NAE", True, True)]


def test_jsonl_feedback_is_added_to_the_result_line_when_asked(defined):
    asked = run("quiz", "--search", "--anagram ACST", "--no-schedule", "--lexicon", "defs", "--jsonl", "--feedback",
                input="cats act\n")
    result = of("result", lines(asked.stdout))[0]
    assert result["missing"] == ["ACTS", "CAST", "SCAT"]  # the existing keys as before
    fb = result["feedback"]
    assert fb["missing"] == ["ACTS", "CAST", "SCAT"] and fb["correct"] is False
    assert {a["word"]: a["found"] for a in fb["answers"]} == {"ACTS": False, "CAST": False, "CATS": True, "SCAT": False}
    cats = next(a for a in fb["answers"] if a["word"] == "CATS")
    assert cats == {"word": "CATS", "found": True, "front_hooks": "S", "back_hooks": "", "inner_front": False,
                    "inner_back": True, "symbols": "+", "definition": "CAT, a carnivorous mammal [n] / CAT, to vomit [v]"}
    assert fb["wrong"] == [{"word": "ACT", "valid": True}]
    assert fb["reasons"] == ["missing 3 of 4: ACTS CAST SCAT", "words, but not answers here: ACT"]
    plain = run("quiz", "--search", "--anagram ACST", "--no-schedule", "--lexicon", "defs", "--jsonl", input="cats\n")
    assert "feedback" not in of("result", lines(plain.stdout))[0]


def test_flashcards_reveal_each_answer_with_its_facts(defined):
    result = run("quiz", "--search", "--anagram ACST", "--no-schedule", "--lexicon", "defs", "--flashcard",
                 input="\n3\n")
    assert result.exit_code == 0, result.stderr
    out = result.stdout.splitlines()
    cats = next(line for line in out if "CATS" in line)
    assert "CAT, a carnivorous mammal [n]" in cats and "+" in cats.split() and "CATS·" in cats
    assert any("SCAT" in line and "to leave hastily" in line for line in out)
    assert result.stdout.index("SCAT") < result.stdout.index("graded good")  # shown on reveal, before the grade


def test_jsonl_flashcards_add_feedback_when_asked(defined):
    asked = run("quiz", "--search", "--anagram ACST", "--no-schedule", "--lexicon", "defs", "--jsonl", "--feedback",
                "--flashcard", input="cats\n1\n")
    fb = of("result", lines(asked.stdout))[0]["feedback"]
    assert fb["correct"] is False and fb["reasons"] == ["missing 3 of 4: ACTS CAST SCAT"]  # the attempt typed
    assert {a["word"]: a["found"] for a in fb["answers"]} == {"ACTS": False, "CAST": False, "CATS": True, "SCAT": False}
    plain = run("quiz", "--search", "--anagram ACST", "--no-schedule", "--lexicon", "defs", "--jsonl",
                "--flashcard", input="cats\n1\n")
    assert "feedback" not in of("result", lines(plain.stdout))[0]


def test_define_writes_links_out_and_refuses_non_words(defined):
    result = run("define", "cats", "dewily", "zzz", "--lexicon", "defs")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == ["CATS    +  CAT, a carnivorous mammal [n] / CAT, to vomit [v]",
                                          "DEWILY  +  in a dewy (moist with dew) manner [adv]"]
    assert result.stderr.strip() == "error: ZZZ is not a word in defs"
    ok = run("define", "CAST", "--lexicon", "defs", "--json")
    assert ok.exit_code == 0
    assert ok.json() == {"CAST": {"valid": True, "symbols": "", "definition": "to throw [v CAST, CASTING, CASTS]"}}


def test_define_says_when_a_word_has_no_definition(enable):
    result = run("define", "anestri")  # WordNet (ENABLE's definitions) does not know it
    assert result.exit_code == 0 and result.stdout.strip() == "ANESTRI  (no definition in enable)"
    assert run("define", "care").stdout.startswith("CARE  ")  # WordNet's first sense of each part of speech
    assert "(no definition" not in run("define", "care").stdout


def test_judge_anagram_and_hooks_add_definitions_when_asked(defined):
    judged = run("judge", "cats", "zz", "-d", "--json", "--lexicon", "defs")
    assert judged.exit_code == 1
    assert judged.json() == {"CATS": {"valid": True, "symbols": "+", "definition": "CAT, a carnivorous mammal [n] / "
                                      "CAT, to vomit [v]"}, "ZZ": {"valid": False, "symbols": "", "definition": ""}}
    text = run("judge", "tact", "--definitions", "--lexicon", "defs").stdout
    assert text.split() == ["TACT", "valid", "+", "diplomacy", "[n", "-S]"]
    assert run("judge", "cat", "--lexicon", "defs", "--json").json() == {"CAT": True}  # unchanged without it
    refused = run("judge", "cat", "--secret", "-d", "--lexicon", "defs")
    assert refused.exit_code == 1 and "not with --secret" in refused.stderr
    anagrams = run("anagram", "ACT?", "-d", "--json", "--lexicon", "defs").json()
    assert {"word": "ACTs", "symbols": "+", "definition": "ACT, to do something [v]"} in anagrams
    assert [a["word"] for a in anagrams] == run("anagram", "ACT?", "--json", "--lexicon", "defs").json()
    assert "TACT  +  diplomacy [n -S]" in run("anagram", "actt", "-d", "--lexicon", "defs").stdout
    hooks = run("hooks", "cat", "-d", "--json", "--lexicon", "defs").json()
    assert hooks["definition"].startswith("a carnivorous mammal") and hooks["symbols"] == ""
    assert "a carnivorous mammal [n -S]" in run("hooks", "cat", "-d", "--lexicon", "defs").stdout.splitlines()[0]
    assert "definition" not in run("hooks", "cat", "--json", "--lexicon", "defs").json()


def test_sheets_print_definitions_when_asked(defined, tmp_path):
    """`sheet anagrams|hooks --definitions` prints each word's definition, links written out (from a
    list whose CAT is listed twice: both senses)."""
    out = tmp_path / "s.md"
    assert run("sheet", "anagrams", "--anagram", "ACST", "--lexicon", "defs", "--out", str(out)).exit_code == 0
    assert "definition" not in out.read_text()
    for kind in ("anagrams", "hooks"):
        done = run("sheet", kind, "--anagram", "ACST", "--lexicon", "defs", "--definitions", "--out", str(out))
        assert done.exit_code == 0, done.stderr
        assert "| CAT, a carnivorous mammal [n] / CAT, to vomit [v] |" in out.read_text()  # CATS
    refused = run("sheet", "stems", "--stem", "ACT", "--lexicon", "defs", "--definitions", "--out", str(out))
    assert refused.exit_code == 1 and "--definitions is not for the stems sheet" in refused.stderr
