"""The shape of the command line: one registry decides what `lexitrain --help` lists and in what order."""

from __future__ import annotations

import ast
import subprocess
import sys
import threading
from pathlib import Path

import typer

from lexitrain.cli.app import COMMANDS, app

CLI = Path(__file__).resolve().parents[1] / "lexitrain" / "cli"


def _registry_names() -> list[str]:
    """Command and group names in the order `COMMANDS` adds them."""
    names: list[str] = []
    for part in COMMANDS:
        if isinstance(part.info.name, str):
            names.append(part.info.name)
        else:
            names += [info.name or info.callback.__name__ for info in part.registered_commands if info.callback]
    return names


def _help_names(imports: str) -> list[str]:
    """The command names `lexitrain --help` lists, in a fresh process that first runs `imports`."""
    code = f"{imports}\nfrom lexitrain.cli.app import main\nmain()"
    out = subprocess.run([sys.executable, "-c", code, "--help"], capture_output=True, text=True, check=True).stdout
    listing = out.split("Commands:\n", 1)[1]
    return [line.split()[0] for line in listing.splitlines() if line.startswith("  ") and line.split()]


def test_help_lists_the_registry_in_order_whatever_was_imported_first():
    expected = _registry_names()
    assert expected[:5] == ["judge", "define", "anagram", "hooks", "search"] and expected[-1] == "lexicon"
    assert _help_names("") == expected
    # a command module imported before the app once moved its commands to the end of --help
    assert _help_names("import lexitrain.cli.study_cmd, lexitrain.cli.positions_cmd") == expected


def test_every_command_module_is_registered_and_every_name_once():
    import importlib

    for path in sorted(CLI.glob("*_cmd.py")):
        module = importlib.import_module(f"lexitrain.cli.{path.stem}")
        typers = [value for value in vars(module).values() if isinstance(value, typer.Typer)]
        assert typers and all(any(t is part for part in COMMANDS) for t in typers), path.name
    names = _registry_names()
    assert len(set(names)) == len(names)
    assert list(typer.main.get_command(app).commands) == names  # type: ignore[attr-defined]


def test_no_command_module_imports_the_app():
    """Only the registry may import `lexitrain.cli.app`; a command module importing it back
    is what made the order of --help depend on import order."""
    for path in CLI.glob("*.py"):
        if path.name == "app.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                names = [f"{node.module}.{a.name}" for a in node.names]
                assert not any(n.startswith("lexitrain.cli.app") for n in [node.module or "", *names]), path.name
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("lexitrain.cli.app") for a in node.names), path.name


def test_one_progress_bar_drawn_only_on_a_terminal_and_only_when_the_command_asks(monkeypatch, capsys):
    """Every slow command shows its progress through `progress_bar` (no command decides for itself whether stderr
    is a terminal): a bar on a terminal, the silent progress on a pipe or when the command asks for none
    (`--json`, `--quiet`)."""
    from lexitrain.cli.progress_bar import progress_bar
    from lexitrain.lexicon.progress import quiet

    monkeypatch.setattr(sys.stderr, "isatty", lambda: False)
    with progress_bar("compiling") as progress:
        assert progress is quiet
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with progress_bar("compiling", shown=False) as progress:
        assert progress is quiet
    threads = threading.active_count()
    with progress_bar("compiling") as progress:
        assert progress is not quiet
        progress("tries", 1, 2)
        assert threading.active_count() == threads  # drawn without a thread: the command's builds may still fork
    cli = Path(__file__).resolve().parents[1] / "lexitrain" / "cli"
    asking = sorted(path.name for path in cli.glob("*.py") if "stderr.isatty()" in path.read_text(encoding="utf-8"))
    assert asking == ["progress_bar.py", "root.py"]  # (root.py: the first-use bar is installed only on a terminal)
