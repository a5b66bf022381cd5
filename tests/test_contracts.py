"""DESIGN.md "Contracts for other programs", checked from a separate process the
way another program calls lexitrain, starting from an empty user data folder."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest


def lexitrain(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "lexitrain", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_first_use_json_is_one_document_with_the_contract_keys(home) -> None:
    """The first command compiles ENABLE; stdout still holds exactly the JSON array."""
    assert not (home / "lexicons").exists()
    result = lexitrain("search", "--length", "7", "--probability", "1-500", "--json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)  # one document: anything else on stdout fails here
    assert len({row["alphagram"] for row in rows}) == 500
    for row in rows:
        assert isinstance(row["word"], str) and row["word"].isupper() and row["length"] == 7
        assert isinstance(row["alphagram"], str)
        assert [type(b) for b in row["combinations"]] == [int, int, int]
        assert isinstance(row["probability_rank"], int) and 1 <= row["alphagram_rank"] <= 500
        assert isinstance(row["front_hooks"], str) and isinstance(row["back_hooks"], str)
        assert isinstance(row["inner_front"], bool) and isinstance(row["inner_back"], bool)

    info = lexitrain("lexicon", "info", "enable", "--json")
    assert json.loads(info.stdout)["by_length"]["2"] == 96
    judged = lexitrain("judge", "JO", "qi", "--json")
    assert (judged.returncode, json.loads(judged.stdout)) == (1, {"JO": True, "QI": False})
    assert lexitrain("judge", "JO", "--json").returncode == 0
