"""Golden outputs: a fixed set of commands whose `--json` / `--jsonl` output was
recorded before the core was reshaped (issue 11), compared field for field.

A change a user can see shows up here as a diff. Re-record on purpose only,
when a change of output is the point of the commit:
`LEXITRAIN_RECORD_GOLDEN=1 pytest tests/test_golden.py` and review the diff.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from cli_runner import run
from conftest import REAL_GAMES

GOLDEN = Path(__file__).resolve().parent / "golden"
RECORD = os.environ.get("LEXITRAIN_RECORD_GOLDEN") == "1"

MID_GAME = ("W14/ET3V9/BE2JO9/1I1ZAX9/LI2V10/AD2E10/T1GALE9/I2WINDY7/N3N1EAU6/ODONATES7/15/15/15/15/15 "
            "AELLNST/ 122/221 0")
EMPTY_BOARD = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 QUITE?R/ 0/0 0"
GAME = str(REAL_GAMES / "domino14__macondo__gcgio__testdata__doug_v_emely.gcg")

#: name -> command line; every one prints one JSON document
COMMANDS: dict[str, list[str]] = {
    "judge": ["judge", "QAT", "ZAX", "qi", "JO", "--json"],
    "anagram": ["anagram", "AEINRST", "--json"],
    "anagram-build-blank": ["anagram", "QIS?", "--build", "--json"],
    "hooks": ["hooks", "CARE", "--json"],
    "hooks-extensions": ["hooks", "QUA", "--extensions", "--json"],
    "search-probability": ["search", "--length", "7", "--probability", "1-40", "--order", "probability", "--json"],
    "search-pattern-hooks": ["search", "--pattern", "?A?E??S", "--front-hook", "--not-back-hook", "--json"],
    "search-anagram-blank": ["search", "--anagram", "AEINST?", "--vowels", "3-4", "--order", "alphagram", "--json"],
    "search-includes": ["search", "--length", "4-5", "--includes", "ZZ", "--points", "20-", "--json"],
    "search-word-ranks": ["search", "--length", "8", "--probability", "1-20", "--probability-by", "word",
                          "--blanks", "0", "--order", "probability", "--json"],
    "search-limit-probability": ["search", "--subanagram", "QUIXOTE", "--length", "3-", "--limit-probability",
                                 "1-10", "--json"],
    "best-mid-game": ["best", "--cgp", MID_GAME, "--top", "15", "--json"],
    "best-empty-blank": ["best", "--cgp", EMPTY_BOARD, "--top", "12", "--json"],
    "score-legal": ["score", "8D", "QUITE", "--cgp", EMPTY_BOARD, "--json"],
    "score-illegal": ["score", "11E", "SAX", "--cgp", MID_GAME, "--json"],
    "gcg-verify": ["gcg", "verify", GAME, "--json"],
    "gcg-verify-no-lexicon": ["gcg", "verify", GAME, "--no-lexicon", "--json"],
    "gcg-show": ["gcg", "show", GAME, "--turn", "12", "--json"],
    "lexicon-info": ["lexicon", "info", "enable", "--json"],
}

QUIZ_ANSWERS = ["AE", "OE", "!m", "", "AI IA", "!c", "zz", "AA ae"]


def _normalise(value: object) -> object:
    """Times and file paths vary from run to run; everything else must not."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key in ("seconds", "time_left"):
                out[key] = "<seconds>"
            elif key in ("built", "bytes"):  # when and how big a compile was
                out[key] = f"<{key}>"
            elif key == "missed_list" and item is not None:
                out[key] = re.sub(r"-\d{8}-\d{6}(-\d+)?", "-<stamp>", Path(item).name)
            elif key == "source" and isinstance(item, str):
                out[key] = Path(item).name if item.endswith(".txt") else item.replace(str(REAL_GAMES), "<games>")
            else:
                out[key] = _normalise(item)
        return out
    if isinstance(value, list):
        return [_normalise(v) for v in value]
    return value


def _compare(name: str, produced: object) -> None:
    path = GOLDEN / f"{name}.json"
    produced = _normalise(produced)
    if RECORD:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(json.dumps(produced, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return
    recorded = json.loads(path.read_text(encoding="utf-8"))
    assert produced == recorded, f"{name}: output differs from {path}"


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_command_json_is_unchanged(enable, name: str) -> None:
    result = run(*COMMANDS[name])
    assert result.exit_code in (0, 1), result.stderr
    _compare(name, {"exit": result.exit_code, "output": result.json()})


@pytest.mark.slow
def test_jsonl_quiz_with_fixed_answers_is_unchanged(enable, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LEXITRAIN_NOW", "2026-06-01T12:00:00")
    result = run("quiz", "--list", "twos", "--limit", "5", "--jsonl", input="\n".join(QUIZ_ANSWERS) + "\n")
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    _compare("quiz-jsonl", {"exit": result.exit_code, "lines": lines})
