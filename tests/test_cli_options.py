"""The shared options: which lexicon a command uses without --lexicon, and the help that says so."""

from __future__ import annotations

from pathlib import Path

import typer

from lexitrain.cli.app import app
from lexitrain.study.store import progress_path
from tests.cli_runner import run

#: Study commands default to the active study lexicon (`study set --lexicon`); every other one to enable.
STUDY_COMMANDS = {"quiz", "daily", "challenge", "stats", "progress import-zyzzyva", "web"}
STUDY_GROUPS = {"study", "positions"}
#: Commands whose --lexicon is not one of the shared aliases, and why.
OWN_LEXICON_OPTION = {
    "study set",  # the value to store as the active study lexicon, not a lexicon to use
    "gcg verify",  # defaults to the lexicon the game file names
    "gcg analyze",  # likewise
    "sheet",  # the default depends on the kind: `sheet due` is drawn from study
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
        study = path in STUDY_COMMANDS or path.split()[0] in STUDY_GROUPS
        expected = ("Lexicon (default: the one set with `study set --lexicon`, else enable)." if study
                    else "Lexicon to use (default enable).")
        assert text == expected, path
    assert "for due: the one set with `study set --lexicon`" in helps["sheet"]


def test_study_commands_use_the_active_study_lexicon_and_the_others_enable(enable, make_lexicon, tmp_path: Path):
    make_lexicon(TINY, name="tiny")
    assert run("study", "set", "--lexicon", "tiny").exit_code == 0

    status = run("daily", "--status", "--json")
    assert status.exit_code == 0, status.stderr
    assert status.json()["lexicon"] == "tiny"
    assert run("stats", "--json").json() == run("stats", "--lexicon", "tiny", "--json").json()

    assert run("judge", "QXZQ", "--json").json() == {"QXZQ": False}  # judged by enable
    assert run("judge", "QXZQ", "--lexicon", "tiny", "--json").json() == {"QXZQ": True}
    assert run("daily", "--status", "--lexicon", "enable", "--json").json()["lexicon"] == "enable"

    due = run("sheet", "due", "--out", str(tmp_path / "due.pdf"))  # a sheet drawn from study
    assert due.exit_code == 1
    assert "no cards of tiny are due" in due.stderr
    twos = run("sheet", "twos", "--out", str(tmp_path / "twos.csv"), "--json")  # a sheet from the lexicon
    assert twos.json()["lexicon"] == "enable"


def test_study_lexicon_is_enable_until_one_is_set(enable):
    assert run("daily", "--status", "--json").json()["lexicon"] == "enable"


def test_finding_the_default_creates_no_progress_database(enable, tmp_path: Path):
    """Commands that never touch the progress store leave none behind, `sheet due` included."""
    assert run("judge", "CAT").exit_code == 0
    assert run("sheet", "twos", "--out", str(tmp_path / "twos.csv")).exit_code == 0
    due = run("sheet", "due", "--out", str(tmp_path / "due.pdf"))
    assert "no cards of enable are due" in due.stderr
    assert not progress_path().exists()
