"""The command reference in docs/ is generated from the app and must not drift."""

import runpy
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_command_reference_is_up_to_date():
    script = runpy.run_path(str(ROOT / "scripts" / "gen_command_docs.py"))
    committed = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert committed == script["render"](), "docs/commands.md is stale: run python scripts/gen_command_docs.py"


def test_readme_starts_with_the_two_setup_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in readme.split("```sh\n")[1:3]]
    assert "pip install ." in blocks[0] and "lexitrain " in blocks[0]
    assert "pip install -e '.[test]' && pytest -n auto" in blocks[1]  # both cores
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[test]' && mypy && pytest -n auto" in ci  # the README's, type-checked


def _shown_commands(text: str) -> list[str]:
    """Every `lexitrain ...` command a page shows, in code blocks or inline."""
    import re

    blocks = [block.split("```", 1)[0] for block in text.split("```sh\n")[1:]]
    lines = [line.split("#", 1)[0].strip() for block in blocks for line in block.splitlines()]
    shown = [line for line in lines if line.startswith("lexitrain ")]
    shown += [" ".join(span.split()) for span in re.findall(r"`(lexitrain [^`]+)`", text)]
    return [command for command in shown if "..." not in command and "&&" not in command]


@pytest.mark.parametrize("page", ["README.md", "docs/guide.md", "docs/study.md", "docs/search.md",
                                  "docs/sheets.md", "docs/positions.md", "docs/club.md", "docs/play.md", "docs/sync.md"])
def test_commands_shown_parse_as_written(page: str):
    """Each command a page shows is accepted by the CLI (options exist, required ones given);
    synopses with [optional parts] are left out."""
    import shlex

    import typer.main

    from lexitrain.cli.app import app
    from lexitrain.cli.root import click_exceptions

    usage_error = click_exceptions().UsageError

    root = typer.main.get_command(app)
    commands = [c for c in _shown_commands((ROOT / page).read_text(encoding="utf-8")) if " [" not in c]
    assert len(commands) > 5
    for command in commands:
        args = ["3" if arg in ("N", "D") else arg for arg in shlex.split(command)[1:]]
        with typer.Context(root, info_name="lexitrain") as ctx:
            cmd, rest = root, args
            while hasattr(cmd, "get_command") and rest and cmd.get_command(ctx, rest[0]) is not None:
                cmd, rest = cmd.get_command(ctx, rest[0]), rest[1:]
            try:
                if "--help" not in rest:
                    cmd.make_context(cmd.name, list(rest), parent=ctx)
            except usage_error as exc:
                raise AssertionError(f"{command!r}: {exc.format_message()}") from None


def test_study_page_quiz_example_runs(enable):
    """docs/study.md's search quiz example, as written, starts a quiz."""
    import shlex

    from tests.cli_runner import run

    text = (ROOT / "docs" / "study.md").read_text(encoding="utf-8")
    example = next(c for c in _shown_commands(text) if c.startswith("lexitrain quiz") and "--length 7" in c)
    result = run(*shlex.split(example)[1:], "--limit", "1", "--no-schedule", input="")
    assert result.exit_code == 0, result.stderr
    assert "ADEINOR" in result.stdout


def test_search_page_word_examples_match_the_output(enable):
    """docs/search.md's word-tool block: each word a comment shows after `:` is in the output of its command
    (the blank example once showed ANESTrI; ANESTRI's blank letter is shown as ANEStRI)."""
    import re
    import shlex

    from tests.cli_runner import run

    text = (ROOT / "docs" / "search.md").read_text(encoding="utf-8")
    block = text.split("```sh\n")[1].split("```", 1)[0]
    checked = 0
    for line in block.splitlines():
        command, _, comment = line.partition("#")
        shown = re.search(r"shown lowercase: (\S+)|^\s*(\[.*?\.\.\.\]|\{.*\})", comment)
        if not command.startswith("lexitrain ") or shown is None:
            continue
        output = run(*shlex.split(command)[1:]).stdout
        for word in re.findall(r"[A-Za-z]{2,}", shown.group(0).split(":", 1)[-1]):
            if word not in ("true", "false", "uppercase"):
                assert word in output, f"{command.strip()}: {word} is not in its output"
                checked += 1
    assert checked >= 4


def test_the_guide_says_lexitrain_has_playability_figures():
    """docs/guide.md said Zyzzyva's playability conditions were missing "as lexitrain has no playability
    figures", while ENABLE ships them and `lexicon playability` counts them for any list."""
    guide = (ROOT / "docs" / "guide.md").read_text(encoding="utf-8")
    assert "no playability figures" not in guide
    assert "lexitrain lexicon playability NAME --games N" in guide and "playability order" in guide
