"""The shared options: which lexicon a command uses without --lexicon (the player's, one for
every command), the help that says so, and the lexicon a game or position file names."""

from __future__ import annotations

from pathlib import Path

import typer

from lexitrain.cli.app import app
from lexitrain.study.store import progress_path
from tests.cli_runner import run

#: Commands whose --lexicon is not one of the shared aliases, and why.
OWN_LEXICON_OPTION = {
    "study set",  # the value to store as the active study lexicon, not a lexicon to use
    "gcg verify",  # defaults to the lexicon the game file names
    "gcg analyze",  # likewise
    "sheet",  # new-words also takes --old
}
TINY = ["QI", "ZA", "QAT", "QXZQ"]  # QXZQ is in tiny only, so a verdict shows which lexicon judged it


def _lexicon_helps() -> dict[str, str]:
    """Every command's --lexicon help, by command path ("positions list")."""
    helps: dict[str, str] = {}

    def walk(command, path: str) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{path} {name}".strip())
        for param in command.params:
            if "--lexicon" in getattr(param, "opts", ()):
                helps[path] = param.help

    walk(typer.main.get_command(app), "")
    return helps


def test_each_lexicon_help_names_the_default_that_applies():
    helps = _lexicon_helps()
    assert len(helps) > 20
    for path, text in helps.items():
        if path in OWN_LEXICON_OPTION:
            continue
        assert text == "Lexicon (default: yours, set with `study set --lexicon`, else enable).", path
    assert "default: yours, set with `study set --lexicon`" in helps["sheet"]
    assert "the game's #lexicon if compiled, else yours" in helps["gcg verify"]


def test_every_command_uses_the_players_lexicon(enable, make_lexicon, tmp_path: Path):
    """After `study set --lexicon tiny`, `judge QI` agrees with the drill, and so does every other command."""
    make_lexicon(TINY, name="tiny")
    assert run("study", "set", "--lexicon", "tiny").exit_code == 0

    status = run("daily", "--status", "--json")
    assert status.exit_code == 0, status.stderr
    assert status.json()["lexicon"] == "tiny"
    assert run("stats", "--json").json() == run("stats", "--lexicon", "tiny", "--json").json()

    assert run("judge", "QXZQ", "--json").json() == {"QXZQ": True}  # judged by tiny, as the drill judges
    drill = run("quiz", "--kind", "anagram", "--search", "--length 4", "--jsonl", input="QXZQ\n")
    assert drill.exit_code == 0, drill.stderr
    assert '"correct": true' in drill.stdout
    assert run("judge", "QXZQ", "--lexicon", "enable", "--json").json() == {"QXZQ": False}  # overridden once
    assert run("judge", "QXZQ", "--json").json() == {"QXZQ": True}  # and not for the next command
    assert run("daily", "--status", "--lexicon", "enable", "--json").json()["lexicon"] == "enable"

    assert "QXZQ" in run("define", "QXZQ").stdout
    assert run("anagram", "QQXZ", "--json").json() == ["QXZQ"]
    assert run("hooks", "QI", "--json").json()["valid"] is True
    assert [r["word"] for r in run("search", "--length", "4", "--json").json()] == ["QXZQ"]
    due = run("sheet", "due", "--out", str(tmp_path / "due.csv"), "--json")
    assert due.json()["lexicon"] == "tiny" and due.json()["groups"] == 1  # the card the drill just made
    twos = run("sheet", "twos", "--out", str(tmp_path / "twos.csv"), "--json")
    assert twos.json()["lexicon"] == "tiny"
    empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15"
    best = run("best", "--cgp", f"{empty} AIQT/ 0/0 0", "--top", "1", "--json").json()
    assert best[0]["word"] == "QAT"
    assert run("score", "8H", "QI", "--cgp", f"{empty} IQ/ 0/0 0", "--json").json()["legal"] is True
    assert run("score", "8H", "QI", "--cgp", f"{empty} IQ/ 0/0 0", "--lexicon", "enable").exit_code == 1


def test_study_lexicon_is_enable_until_one_is_set(enable):
    assert run("daily", "--status", "--json").json()["lexicon"] == "enable"


def test_finding_the_default_creates_no_progress_database(enable, tmp_path: Path):
    """Commands that never touch the progress store leave none behind, `sheet due` included."""
    assert run("judge", "CAT").exit_code == 0
    assert run("sheet", "twos", "--out", str(tmp_path / "twos.csv")).exit_code == 0
    due = run("sheet", "due", "--out", str(tmp_path / "due.pdf"))
    assert "no cards of enable are due" in due.stderr
    assert not progress_path().exists()
