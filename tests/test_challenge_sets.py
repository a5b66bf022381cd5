"""Challenge kinds as Aerolith has them, sets fixed by the lexicon's words (not its name), and shared scores."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime, time, timedelta

import pytest

from lexitrain.lexicon.catalog import open_lexicon
from lexitrain.study.drills import challenge_sets as cs
from lexitrain.study.quiz.kinds.base import new_kind
from lexitrain.study.store import AnswerRow, ProgressStore
from study_helpers import WORDS, anagram_oracle, lines, of, small  # noqa: F401  (small is a fixture)
from tests.cli_runner import run

DAY = date(2026, 5, 17)
COMMON_KINDS = ["twos", "threes", "sevens", "eights", "twos-to-fifteens", "blank-bingos", "bingo-marathon"]


def test_the_set_depends_on_the_words_not_the_name(make_lexicon):
    first = make_lexicon(WORDS, name="small")
    renamed = make_lexicon([w.lower() for w in reversed(WORDS)], name="renamed")  # same words, another file
    assert first.content_hash == renamed.content_hash
    for kind in COMMON_KINDS:
        assert cs.challenge_keys(first, DAY, kind) == cs.challenge_keys(renamed, DAY, kind), kind
    more = make_lexicon(WORDS + ["ZA"], name="more")
    assert more.content_hash != first.content_hash
    assert cs.challenge_keys(more, DAY, "twos") != cs.challenge_keys(first, DAY, "twos")


def test_a_lexicon_built_before_the_hash_was_kept_works_it_out(small):
    kept = small.content_hash
    del small.manifest["content_hash"], small.__dict__["content_hash"]
    assert small.content_hash == kept


def test_todays_n_are_fifty_alphagrams_of_one_length_in_aerolith_time(enable):
    assert {n: cs.KINDS[name].seconds for n, name in cs.LENGTH_NAMES.items()} == {
        2: 90, 3: 120, 4: 180, 5: 210, 6: 240, 7: 270, 8: 270, 9: 300, 10: 330, 11: 330, 12: 330,
        13: 360, 14: 360, 15: 360}
    for length, name in cs.LENGTH_NAMES.items():
        keys = cs.challenge_keys(enable, DAY, name)
        assert len(keys) == 50 and len(set(keys)) == 50, name
        assert all(len(k) == length and enable.anagrams(k) for k in keys), name


def test_blank_bingos_are_sevens_and_eights_some_with_two_blanks_few_answers(enable):
    keys = cs.challenge_keys(enable, DAY, "blank-bingos")
    shapes = Counter((len(k), k.count("?")) for k in keys)
    assert shapes == {(7, 1): 23, (7, 2): 2, (8, 1): 23, (8, 2): 2} and len(set(keys)) == 50
    by_length = {n: [w for w in enable.words() if len(w) == n] for n in (7, 8)}
    for key in keys:
        letters = Counter(key.replace("?", ""))
        answers = [w for w in by_length[len(key)] if not letters - Counter(w)]  # brute force: the letters fit
        assert 1 <= len(answers) <= 5, key
    assert cs.KINDS["blank-bingos"].seconds == 540


def test_bingo_marathon_is_fifty_sevens_then_fifty_eights(enable):
    keys = cs.challenge_keys(enable, DAY, "bingo-marathon")
    assert [len(k) for k in keys] == [7] * 50 + [8] * 50 and len(set(keys)) == 100
    assert cs.KINDS["bingo-marathon"].seconds == 480


@pytest.mark.parametrize("name, shortest, size, band", [
    ("builder-3-6", 3, 6, (10, 30)), ("builder-4-7", 4, 7, (15, 50)), ("builder-5-8", 5, 8, (20, 75))])
def test_word_builder_is_one_rack_with_its_words_in_a_band(enable, name, shortest, size, band):
    for day in (DAY, DAY + timedelta(days=1)):
        [item] = cs.challenge_items(enable, day, name)
        rack, _, minimum = item.key.partition(":")
        assert item.kind == "build" and len(rack) == size and int(minimum) == shortest
        fits = [w for w in enable.words() if shortest <= len(w) <= size and not Counter(w) - Counter(rack)]
        assert band[0] <= len(fits) <= band[1]
        assert sorted(new_kind("build").build(enable, item.key).expected) == sorted(fits)


def _answer(store: ProgressStore, session_id: int, key: str, correct: bool, at: datetime) -> None:
    store.record_answer(AnswerRow(session_id, "quiz", None, "anagram", key, "", correct, False, None, at.timestamp(),
                                  None))


def test_toughies_are_the_players_most_missed_this_week_and_ever(small):
    noon = datetime.combine(DAY, time(12)).astimezone()
    with ProgressStore() as store:
        with pytest.raises(Exception, match="no alphagram missed in the 7 days up to 2026-05-17 in small"):
            cs.challenge_items(small, DAY, "week-toughies", store)
        session = store.start_session("quiz", "small", "test", noon.timestamp())
        for _ in range(3):
            _answer(store, session, "AEINRST", False, noon - timedelta(days=10))  # long ago
        _answer(store, session, "AEILNRST", False, noon - timedelta(days=1))
        _answer(store, session, "AEILNRST", False, noon - timedelta(days=2))
        _answer(store, session, "AEGINRST", False, noon - timedelta(days=3))
        _answer(store, session, "AEGINRST", True, noon - timedelta(days=3))  # missed once of two
        _answer(store, session, "AEILNORT", False, noon)  # missed once of one: a higher share
        _answer(store, session, "AEILRST", True, noon)  # never missed
        _answer(store, session, "ADEILNOT", False, noon + timedelta(days=1))  # after the date
        assert cs.challenge_keys(small, DAY, "week-toughies", store) == ["AEILNRST", "AEILNORT", "AEGINRST"]
        assert cs.challenge_keys(small, DAY, "all-time-toughies", store) == [
            "AEINRST", "AEILNRST", "AEILNORT", "AEGINRST"]
    out = lines(run("challenge", "--jsonl", "--lexicon", "small", "--kind", "week-toughies", "--date", DAY.isoformat(),
                    input="\n" * 3).stdout)
    assert [q["prompt"] for q in of("question", out)] == ["AEILNRST", "AEILNORT", "AEGINRST"]


def _play(lexicon: str, day: str, right: bool, stop_after: int | None = None) -> dict:
    """Play the sevens of a day in the small lexicon, every answer right or every answer blank."""
    oracle = {key: sorted(words) for key, words in anagram_oracle().items()}
    keys = cs.challenge_keys(open_lexicon(lexicon), date.fromisoformat(day), "sevens")
    answers = [" ".join(oracle[k]) if right else "" for k in keys][:stop_after]
    result = run("challenge", "--jsonl", "--lexicon", lexicon, "--date", day, input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.stderr
    return of("summary", lines(result.stdout))[0]


def test_a_shared_score_verifies_on_the_same_words_under_another_name(make_lexicon):
    make_lexicon(WORDS, name="small")
    make_lexicon([w.lower() for w in reversed(WORDS)], name="renamed")
    make_lexicon(WORDS + ["ZA", "ABDUCTS"], name="different")  # a third seven
    day = "2026-03-01"
    unplayed = run("challenge", "--share", "--lexicon", "small", "--date", day)  # nothing played yet
    assert unplayed.exit_code == 1  # and the hint plays it in the lexicon asked for (it dropped `-l small`)
    assert unplayed.stderr.strip().endswith(f"(play it: lexitrain challenge --kind sevens --date {day} -l small)")
    _play("small", day, right=True, stop_after=1)  # unfinished: not the official attempt
    summary = _play("small", day, right=False)  # the first finished attempt: 0 of 2
    _play("small", day, right=True)  # a retake: 2 of 2, not shared
    shared = run("challenge", "--share", "--lexicon", "small", "--date", day)
    assert shared.exit_code == 0 and len(shared.stdout.splitlines()) == 1
    line = shared.stdout.strip()
    assert f"date={day} kind=sevens score=0/2 " in line and f"set={summary['set']} " in line
    as_json = run("challenge", "--share", "--lexicon", "small", "--date", day, "--json").json()
    assert as_json["line"] == line and (as_json["score"], as_json["total"], as_json["set"]) == (0, 2, summary["set"])

    checked = run("challenge", "--verify", line, "--lexicon", "renamed", "--json")
    assert checked.exit_code == 0 and checked.json()["ok"] and checked.json()["score"] == 0
    other = run("challenge", "--verify", line, "--lexicon", "different")
    assert other.exit_code == 1 and "not the same set" in other.stderr
    edited = run("challenge", "--verify", line.replace("score=0/2", "score=2/2"), "--lexicon", "renamed", "--json")
    assert edited.exit_code == 1 and "changed after it was made" in edited.json()["reason"]
    bad = run("challenge", "--verify", "my score was 50", "--lexicon", "renamed")
    assert bad.exit_code == 1 and "not a shared challenge line" in bad.stderr and "Traceback" not in bad.stderr


def test_personal_sets_are_not_shared(small):
    result = run("challenge", "--share", "--kind", "week-toughies", "--lexicon", "small")
    assert result.exit_code == 1 and "this player's own" in result.stderr
