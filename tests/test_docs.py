"""The command reference in docs/ is generated from the app and must not drift."""

import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_command_reference_is_up_to_date():
    script = runpy.run_path(str(ROOT / "scripts" / "gen_command_docs.py"))
    committed = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert committed == script["render"](), "docs/commands.md is stale: run python scripts/gen_command_docs.py"


def test_readme_starts_with_the_two_setup_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in readme.split("```sh\n")[1:3]]
    assert "pip install ." in blocks[0] and "lexitrain " in blocks[0]
    assert "pip install -e '.[test]'" in blocks[1] and "pytest" in blocks[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "pip install --quiet -e '.[test]' && pytest" in ci
