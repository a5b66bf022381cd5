"""Acceptance checks: the commands as a user or another program runs them
(DESIGN.md contracts, one-line errors for bad input)."""

from __future__ import annotations

import pytest

from tests.cli_runner import run

AFTER_QUITE = "/".join(["15"] * 7 + ["3QUITE7"] + ["15"] * 7)
FOUR_QS = "/".join(["15"] * 7 + ["3QQQQE7"] + ["15"] * 7)
EMPTY = "/".join(["15"] * 15)


@pytest.mark.parametrize("args", [
    ["best", "--cgp", f"{FOUR_QS} ABC/ 0/0 0", "--json"],
    ["score", "--cgp", f"{FOUR_QS} ABC/ 0/0 0", "7H", "AB", "--json"],
    ["best", "--cgp", f"{EMPTY} ZZZ/ 0/0 0", "--json"],
    ["best", "--cgp", f"{AFTER_QUITE} ABEMSTY/ 0/0 0", "--rack", "QQ", "--json"],
])
def test_more_tiles_than_the_set_has_is_refused(enable, args):
    result = run(*args)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "tiles on the board and racks, but the english set has 1" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
