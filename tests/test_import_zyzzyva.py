"""`lexitrain import zyzzyva DIR`: a Zyzzyva user folder, made here as Zyzzyva leaves it, brought over in one
command, twice: lexicons with their definitions, cardboxes of two quiz types in two lexicons (their cards due
when Zyzzyva had them due), a saved search, a saved quiz, and what is left out named with the reason."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest

from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.search.zyzzyva_searches import NotCarried, read_quiz, read_search
from lexitrain.study.store import ProgressStore
from test_study_zyzzyva import cardbox
from tests.cli_runner import run

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=timezone.utc)
DAY = 86400
T = int(NOW.timestamp())

NWL = """AA a rough cindery lava [n AAS]
AAS AA, a rough cindery lava [n]
AB an abdominal muscle [n ABS]
ABS AB, an abdominal muscle [n]
BA the eternal soul, in Egyptian mythology [n BAS]
QAT an evergreen shrub [n QATS]
QATS QAT, an evergreen shrub [n]
ZAX a tool for cutting roof slates [n ZAXES]
RETAINS RETAIN, to keep possession of [v]
NASTIER NASTY, offensive to the senses [adj]
STAINER one that stains [n STAINERS]
CARE to be concerned [v CARED, CARING, CARES]
CARED CARE, to be concerned [v]
SCARE to frighten [v SCARED, SCARING, SCARES]
"""
CSW_WORDS = {"QI": "the vital force [n QIS]", "QIS": "QI, the vital force [n]", "ZA": "pizza [n ZAS]",
             "ZAS": "ZA, pizza [n]", "TEN": "a number [n TENS]", "TENS": "TEN, a number [n]",
             "TENT": "a portable shelter [n TENTS]", "STEN": "a light machine gun [n STENS]"}

SEARCH = """<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE zyzzyva-search SYSTEM "http://boshvark.com/dtd/zyzzyva-search.dtd">
<zyzzyva-search version="1">
 <conditions>
  <and>
   <condition string="Q" type="Includes Letters" negated="0"/>
   <condition min="3" max="4" type="Length"/>
  </and>
 </conditions>
</zyzzyva-search>
"""
QUIZ = """<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE zyzzyva-quiz SYSTEM "http://boshvark.com/dtd/zyzzyva-quiz.dtd">
<zyzzyva-quiz method="Standard" question-order="Random" type="Anagrams" lexicon="NWL2023">
 <question-source type="search">
  <zyzzyva-search version="1">
   <conditions>
    <and>
     <condition min="7" max="7" type="Length"/>
    </and>
   </conditions>
  </zyzzyva-search>
 </question-source>
 <randomizer seed="1234" seed2="99" algorithm="2"/>
 <progress question="1" correct="1" question-complete="false"/>
</zyzzyva-quiz>
"""
OLD_SEARCH = """<?xml version="1.0" encoding="utf-8"?>
<zyzzyva-search>
 <conditions>
  <and>
   <condition number="5" type="Exact Length" />
   <condition string="Back Hooks" type="Must Belong to" />
  </and>
 </conditions>
</zyzzyva-search>
"""
CARDBOX_QUIZ = QUIZ.replace('type="search"', 'type="cardbox-ready"')


def zyzzyva_folder(root: Path) -> Path:
    """A Zyzzyva user folder as Zyzzyva 3.x leaves it, with one of each thing it keeps."""
    folder = root / "Zyzzyva"
    for sub in ("lexicons", "quiz/data/NWL2023", "quiz/data/CSW21", "quiz/data/OWL2", "quiz/saved", "quiz/predefined",
                "search/saved/JQXZ", "search/predefined/Hooks", "words/saved", "judge/NWL2023"):
        (folder / sub).mkdir(parents=True)
    (folder / "lexicons" / "NWL2023.txt").write_text(NWL, encoding="utf-8")
    db = sqlite3.connect(folder / "lexicons" / "CSW21.db")  # the database Zyzzyva makes of a lexicon
    db.execute("CREATE TABLE words (word text, length integer, playability float, definition text)")
    db.executemany("INSERT INTO words (word, length, definition) VALUES (?, ?, ?)",
                   [(w, len(w), d) for w, d in CSW_WORDS.items()])
    db.commit()
    db.close()
    cardbox(folder / "quiz/data/NWL2023/Anagrams.db", [  # question, correct, incorrect, streak, last_correct,
        ("AEINRST", 9, 1, 5, T - 2 * DAY, 0, 5, T + 40 * DAY),  # difficulty, cardbox, next_scheduled
        ("AQT", 2, 3, -1, T - 9 * DAY, 0, 0, T - 3 * DAY),  # overdue since three days
        ("ABS", 0, 0, 0, None, 0, 1, T + DAY),  # never answered: learning, due tomorrow
        ("AAX", 1, 0, 1, T, 0, 1, T + 4 * DAY),  # not an NWL2023 word here: named as skipped
        ("AAB", 1, 1, 1, T, 0, None, None),  # quiz statistics only: out of the cardbox
    ])
    cardbox(folder / "quiz/data/CSW21/Hooks.db", [("TEN", 3, 0, 3, T - DAY, 0, 2, T + 6 * DAY),
                                                 ("ZA", 1, 0, 1, T - DAY, 0, 1, T + 3 * DAY)])
    cardbox(folder / "quiz/data/NWL2023/Patterns.db", [("Q??", 1, 0, 1, T, 0, 1, T)])
    cardbox(folder / "quiz/data/OWL2/Anagrams.db", [("AEINRST", 1, 0, 1, T, 0, 1, T)])
    (folder / "search/saved/JQXZ/Q words.zzs").write_text(SEARCH, encoding="latin-1")
    (folder / "search/saved/Back Hook 5s.zzs").write_text(OLD_SEARCH, encoding="utf-8")
    (folder / "search/predefined/Hooks/Back Hook 6s.zzs").write_text(OLD_SEARCH, encoding="utf-8")
    (folder / "quiz/saved/NWL sevens.zzq").write_text(QUIZ, encoding="latin-1")
    (folder / "quiz/saved/Due now.zzq").write_text(CARDBOX_QUIZ, encoding="latin-1")
    (folder / "judge/NWL2023/challenge.txt").write_text("[2026-02-01 20:00:00] acceptable   +++ QAT\n")
    (folder / "words/saved/mine.txt").write_text("QAT\n")
    return folder


def state(home: Path) -> dict[str, str]:
    """A digest of everything an import may write in the home: cards, searches, lists, lexicons."""
    out = {}
    with ProgressStore() as store:
        rows = store.conn.execute("SELECT lexicon, kind, key, state, due, stability, difficulty, cardbox, correct, "
                                  "incorrect, streak, last_review FROM cards ORDER BY lexicon, kind, key").fetchall()
        out["cards"] = json.dumps(rows)
        out["settings"] = json.dumps(store.all_settings(), sort_keys=True, default=str)
        out["lists"] = json.dumps({name: store.word_list(name) for name in store.word_list_names()})
    for path in sorted(home.rglob("*")):
        if path.is_file() and path.suffix in (".json", ".txt") and "backups" not in path.parts:
            out[path.relative_to(home).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def test_a_zyzzyva_folder_comes_over_in_one_command_and_a_second_run_changes_nothing(home, tmp_path, monkeypatch):
    from lexitrain.study.records import zyzzyva_folder as importing

    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    folder = zyzzyva_folder(tmp_path)
    opened: list[str] = []
    monkeypatch.setattr(importing, "open_lexicon", lambda name: opened.append(name) or open_lexicon(name))
    first = run("import", "zyzzyva", str(folder), "--json")
    assert first.exit_code == 0, first.stderr
    report = first.json()
    assert sorted(opened) == ["csw21", "nwl2023"]  # once each, for all its cardboxes and saved quizzes
    assert sorted(report["lexicons"]) == ["csw21", "nwl2023"] and sorted(report["compiled"]) == ["csw21", "nwl2023"]
    assert (report["cards"], report["searches"], report["lists"]) == (5, 2, 1)
    assert report["study_lexicon"] == "nwl2023"  # 3 cards against 2
    skipped = {item: why for item, why in ((s["item"], s["why"]) for s in report["skipped"])}
    assert "not in the cardbox" in skipped["quiz/data/NWL2023/Anagrams.db: AAB"]
    assert "AAX" in next(item for item in skipped if item.startswith("quiz/data/NWL2023/Anagrams.db: AAX"))
    assert "Patterns quiz" in skipped["quiz/data/NWL2023/Patterns.db"]
    assert "OWL2 is not compiled here" in skipped["quiz/data/OWL2/Anagrams.db"]
    assert "cardbox itself comes over as cards" in skipped["quiz/saved/Due now.zzq"]
    assert "Zyzzyva ships" in skipped["search/predefined/"]
    assert "judge.log" in skipped["judge/"] and "quiz --file" in skipped["words/"]

    # the lexicons, with their definitions (the one from Zyzzyva's database too)
    assert run("define", "QAT", "-l", "nwl2023").stdout.strip().endswith("an evergreen shrub [n QATS]")
    assert "the vital force" in run("define", "QI", "-l", "csw21").stdout
    assert run("judge", "ZA", "QAT", "-l", "nwl2023", "--json").json() == {"ZA": False, "QAT": True}
    # the cards, each due when Zyzzyva had it due, of the kind its quiz type asks
    with ProgressStore() as store:
        made = [store.card(i) for (i,) in store.conn.execute("SELECT id FROM cards").fetchall()]
    cards = {(c.lexicon, c.kind, c.key): c for c in made}
    assert set(cards) == {("nwl2023", "anagram", "AEINRST"), ("nwl2023", "anagram", "AQT"),
                          ("nwl2023", "anagram", "ABS"), ("csw21", "hooks", "TEN"), ("csw21", "hooks", "ZA")}
    due = {key: card.due for key, card in cards.items()}
    assert due == {("nwl2023", "anagram", "AEINRST"): T + 40 * DAY, ("nwl2023", "anagram", "AQT"): T - 3 * DAY,
                   ("nwl2023", "anagram", "ABS"): T + DAY, ("csw21", "hooks", "TEN"): T + 6 * DAY,
                   ("csw21", "hooks", "ZA"): T + 3 * DAY}
    assert cards[("nwl2023", "anagram", "AEINRST")].cardbox == 5 and cards[("nwl2023", "anagram", "ABS")].state == 1
    daily = run("daily", "--status", "--json").json()  # the study lexicon's: only AQT is due now
    assert daily["lexicon"] == "nwl2023" and daily["reviews_left"] == 1
    # the saved searches, as Zyzzyva meant them, and the quiz's words as a list
    searches = {s["name"]: s["conditions"] for s in run("searches", "list", "--json").json()}
    assert searches["JQXZ-Q-words"] == "--includes Q --length 3-4"
    assert searches["Back-Hook-5s"] == "--length 5 --group back-hooks"
    assert run("search", "--load", "JQXZ-Q-words", "-l", "nwl2023", "--words").stdout.split() == ["QAT", "QATS"]
    with ProgressStore() as store:  # kept as an uploaded list is: the web app's home page plays it
        assert (store.word_list("NWL sevens") or "").split() == ["NASTIER", "RETAINS", "STAINER"]
    hint = next(line for line in report["done"] if line.startswith("quiz/saved/NWL sevens.zzq"))
    assert "Your lists" in hint and "lexitrain web" in hint

    before = state(home)
    again = run("import", "zyzzyva", str(folder), "--json")
    assert again.exit_code == 0, again.stderr
    assert (again.json()["cards"], again.json()["searches"], again.json()["lists"], again.json()["compiled"]) == (
        0, 0, 0, [])
    assert sorted(again.json()["lexicons"]) == ["csw21", "nwl2023"]
    assert state(home) == before  # a second run changes nothing
    said = run("import", "zyzzyva", str(folder))
    assert said.exit_code == 0 and "nothing new: it was all here already" in said.stdout
    assert "warning: skipped quiz/data/OWL2/Anagrams.db: its lexicon OWL2 is not compiled here" in said.stderr


def test_a_second_run_leaves_the_study_lexicon_as_the_player_left_it(home, tmp_path, monkeypatch):
    """The study lexicon is chosen by the folder's cards, by a run that brings some: a run with nothing new
    flipped it by every card here, the player's own choice and the cards their study made since overruled."""
    monkeypatch.setenv("LEXITRAIN_NOW", NOW.isoformat())
    folder = zyzzyva_folder(tmp_path)

    def study_lexicon() -> str:
        return run("study", "show", "--json").json()["lexicon"]

    assert run("import", "zyzzyva", str(folder), "--json").json()["study_lexicon"] == "nwl2023"  # 3 cards against 2
    assert run("study", "set", "--lexicon", "csw21").exit_code == 0  # the player turns to Collins
    again = run("import", "zyzzyva", str(folder), "--json")
    assert again.exit_code == 0 and again.json()["cards"] == 0
    assert study_lexicon() == "csw21" and again.json()["study_lexicon"] == "csw21"  # nothing new: nothing changed
    assert "study lexicon: csw21, left as it is (no new cards)" in again.json()["done"]

    assert run("study", "set", "--lexicon", "nwl2023").exit_code == 0
    assert run("daily", "--status", "-l", "csw21").exit_code == 0  # makes Collins's study plan cards: more than
    with ProgressStore() as store:  # nwl2023 holds
        here = dict(store.conn.execute("SELECT lexicon, count(*) FROM cards GROUP BY lexicon").fetchall())
    assert here["csw21"] > here["nwl2023"]
    assert run("import", "zyzzyva", str(folder)).exit_code == 0 and study_lexicon() == "nwl2023"

    assert run("study", "set", "--lexicon", "csw21").exit_code == 0
    cardbox(folder / "quiz/data/NWL2023/Hooks.db", [("QAT", 1, 0, 1, T, 0, 1, T + DAY)])  # a week more in Zyzzyva
    third = run("import", "zyzzyva", str(folder), "--json").json()
    assert third["cards"] == 1 and third["study_lexicon"] == "nwl2023"  # the folder's 4 cards against 2
    assert study_lexicon() == "nwl2023"
    assert "study lexicon: nwl2023, the one with the most cards of the folder (4)" in third["done"]


def test_a_lexicon_named_as_zyzzyva_names_its_own_is_found_for_its_cardboxes_and_quizzes(home, tmp_path):
    """Zyzzyva names lexicons OWL2+LWL and OSPD4+LWL, and a player's own by its file (My List): the text file
    was compiled as owl2-lwl, then its cardbox folder and the quiz naming it were not matched to it."""
    folder = tmp_path / "Zyzzyva"
    for sub in ("lexicons", "quiz/data/OWL2+LWL", "quiz/data/OSPD4+LWL", "quiz/saved"):
        (folder / sub).mkdir(parents=True)
    (folder / "lexicons" / "OWL2+LWL.txt").write_text(NWL, encoding="utf-8")
    cardbox(folder / "quiz/data/OWL2+LWL/Anagrams.db", [("AQT", 2, 0, 2, T, 0, 2, T + 5 * DAY)])
    cardbox(folder / "quiz/data/OSPD4+LWL/Anagrams.db", [("AQT", 1, 0, 1, T, 0, 1, T + DAY)])
    (folder / "quiz/saved/Sevens.zzq").write_text(QUIZ.replace('lexicon="NWL2023"', 'lexicon="OWL2+LWL"'),
                                                  encoding="latin-1")
    report = run("import", "zyzzyva", str(folder), "--json").json()
    assert report["compiled"] == ["owl2-lwl"] and report["study_lexicon"] == "owl2-lwl"
    assert (report["cards"], report["lists"]) == (1, 1)
    why = {s["item"]: s["why"] for s in report["skipped"]}
    assert list(why) == ["quiz/data/OSPD4+LWL/Anagrams.db"]  # no text file of that one: how to compile it
    assert "OSPD4+LWL is not compiled here" in why["quiz/data/OSPD4+LWL/Anagrams.db"]
    assert "--name ospd4-lwl`" in why["quiz/data/OSPD4+LWL/Anagrams.db"]


def test_a_cardbox_whose_lexicon_file_did_not_compile_says_so(home, tmp_path):
    """The folder has the lexicon's text file, but it did not compile: its cardbox's line said the folder had
    none (a player would look for a file that is there)."""
    folder = tmp_path / "Zyzzyva"
    for sub in ("lexicons", "quiz/data/MINE"):
        (folder / sub).mkdir(parents=True)
    (folder / "lexicons" / "MINE.txt").write_text("QAT a word\nQ4T not a word\n", encoding="utf-8")
    cardbox(folder / "quiz/data/MINE/Anagrams.db", [("AQT", 2, 0, 2, T, 0, 2, T + 5 * DAY)])
    report = run("import", "zyzzyva", str(folder), "--json").json()
    why = {s["item"]: s["why"] for s in report["skipped"]}
    assert list(why) == ["lexicons/MINE.txt", "quiz/data/MINE/Anagrams.db"] and report["cards"] == 0
    assert "lexicons/MINE.txt did not compile" in why["quiz/data/MINE/Anagrams.db"]
    assert "has no lexicons" not in why["quiz/data/MINE/Anagrams.db"]
    # the import has no --skip-invalid (its hint named one): the command that has it
    assert why["lexicons/MINE.txt"] == (
        f"{folder}/lexicons/MINE.txt:2: 'Q4T': '4' is not a tile of the english set; mend the line, or leave such words "
        f"out with `lexitrain lexicon build {folder}/lexicons/MINE.txt --name mine --skip-invalid`, then import again")


def test_a_lexicon_of_that_name_from_another_list_is_never_replaced(home, tmp_path, make_lexicon):
    make_lexicon(["AA", "AB"], name="nwl2023")
    folder = zyzzyva_folder(tmp_path)
    report = run("import", "zyzzyva", str(folder), "--json").json()
    why = {s["item"]: s["why"] for s in report["skipped"]}["lexicons/NWL2023.txt"]
    assert "already compiled here from another list" in why and "lexicon build" in why
    assert run("judge", "QAT", "-l", "nwl2023", "--json").json() == {"QAT": False}  # the player's own, untouched


def test_not_a_zyzzyva_folder_is_one_line(home, tmp_path):
    (tmp_path / "Anagrams.db").write_bytes(b"")
    for target, said in ((tmp_path / "nowhere", "no such folder"), (tmp_path, "not a Zyzzyva user folder"),
                         (tmp_path / "Anagrams.db", "a file, not a folder")):
        result = run("import", "zyzzyva", str(target))
        assert result.exit_code == 1 and result.stderr.count("\n") == 1 and said in result.stderr


@pytest.mark.parametrize("xml, why", [
    ("<zyzzyva-search><conditions><and><condition type='Limit by Playability Order' min='1' max='9'/></and>"
     "</conditions></zyzzyva-search>", "Limit by Playability Order"),
    ("<zyzzyva-search><conditions><and><condition type='In Lexicon' string='CSW99'/></and></conditions>"
     "</zyzzyva-search>", "CSW99, which is not compiled here"),
    ("<zyzzyva-search><conditions><and/></conditions></zyzzyva-search>", "no conditions"),
    ("<zyzzyva-quiz/>", "not a <zyzzyva-search>"),
    ("not xml", "not Zyzzyva's XML"),
])
def test_a_search_lexitrain_cannot_carry_says_why(home, tmp_path, xml, why):
    path = tmp_path / "x.zzs"
    path.write_text(xml, encoding="utf-8")
    with pytest.raises(NotCarried, match=why):
        read_search(path, lambda words: tmp_path / "words.txt")


def test_zyzzyvas_conditions_read_with_zyzzyvas_meanings(home, tmp_path, make_lexicon):
    make_lexicon(["AA"], name="csw21")
    conditions = [
        ("type='Pattern Match' string='Q*' negated='1'", ["--not-pattern", "Q*"]),
        ("type='Includes Letters' string='QU' negated='1'", ["--excludes", "QU"]),
        ("type='Does Not Take Prefix' string='RE'", ["--not-takes-prefix", "RE"]),
        ("type='Consists of' string='AEIOU' min='50' max='100'", ["--consists-of", "AEIOU:50-100"]),
        ("type='Must Consist of' string='AEIOU' percent='70'", ["--consists-of", "AEIOU:70-100"]),
        ("type='Belongs to Group' string='Type I Sevens'", ["--group", "type1-sevens"]),
        ("type='In Lexicon' string='CSW21'", ["--in-lexicon", "csw21"]),
        ("type='Probability Order' min='1' max='100' int='1' bool='true'",
         ["--probability-lax", "1-100", "--probability-by", "word", "--blanks", "1"]),
        ("type='Limit by Probability Order' min='1' max='50'",
         ["--limit-probability", "1-50", "--probability-by", "word", "--blanks", "2"]),
        ("type='Playability Order' min='1' max='500' bool='false'", ["--playability", "1-500"]),
        ("type='Part of Speech' string='n'", ["--part-of-speech", "n"]),
        ("type='Definition' string='fish'", ["--definition", "fish"]),
        ("type='Minimum Length' number='7'", ["--length", "7-"]),
        ("type='Number of Vowels' min='0' max='1'", ["--vowels", "0-1"]),
        ("type='In Word List' string='QAT ZAX'", ["--in-word-list", str(tmp_path / "words.txt")]),
    ]
    from lexitrain.search.query import parse_query

    for attributes, tokens in conditions:
        path = tmp_path / "x.zzs"
        path.write_text(f"<zyzzyva-search><conditions><and><condition {attributes}/></and></conditions>"
                        "</zyzzyva-search>", encoding="utf-8")
        kept: list[list[str]] = []
        query = read_search(path, lambda words: kept.append(words) or tmp_path / "words.txt")
        assert query == parse_query(tokens), attributes
    assert kept == [["QAT", "ZAX"]]
    either = tmp_path / "or.zzs"
    either.write_text("<zyzzyva-search><conditions><or><condition type='Length' min='2' max='2'/>"
                      "<condition type='Anagram Match' string='QAT'/></or></conditions></zyzzyva-search>")
    assert read_search(either, lambda words: tmp_path).text() == "--length 2 --or --anagram QAT"
    quiz = tmp_path / "q.zzq"
    quiz.write_text(QUIZ, encoding="latin-1")
    read = read_quiz(quiz, lambda words: tmp_path)
    assert (read.quiz_type, read.lexicon, read.query.text()) == ("Anagrams", "NWL2023", "--length 7")
