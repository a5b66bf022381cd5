"""The `endgame` kind: "win the endgame", the first play of a best line by the exact endgame solver.

The key is the position's CGP line (the bag empty: the opponent holds the
unseen tiles). Every first move's exact value was worked out when the card
was made and is stored with the position (`analysed.py`), so any first play
whose value equals the best value is right, and the verdict says what the
play given is worth (the points the side to move gains over the opponent to
the end, going-out bonus and rack penalties included) and shows a best line.
"""

from __future__ import annotations

from typing import Any

from lexitrain.study.quiz.kinds.analysed import ENDGAME, SOLVER, AnalysedKind
from lexitrain.study.quiz.kinds.base import register_kind

#: first plays the verdict lists, best first
SHOWN = 5


class EndgameKind(AnalysedKind):
    name = ENDGAME
    description = "a board, your rack and (bag empty) the opponent's tiles: type the first play of a best endgame"
    by = SOLVER
    asked_what = "what first play wins the most in this endgame"

    def table(self, analysis: dict[str, Any]) -> dict[str, Any]:
        values = analysis.get("values", [])
        return {"by": SOLVER, "value": analysis.get("value"), "spread": analysis.get("spread"),
                "sequence": analysis.get("sequence", []), "plays": len(values), "rank": None, "play_value": None,
                "top": values[:SHOWN]}

    def placed(self, analysis: dict[str, Any], play: str) -> dict[str, Any]:
        """Its exact value and rank among the first plays (ties share a rank)."""
        values = {row.get("play"): row.get("value") for row in analysis.get("values", [])}
        value = values.get(play)
        rank = None if value is None else 1 + sum(1 for v in values.values() if isinstance(v, int) and v > value)
        return {"play_value": value, "rank": rank}


register_kind(EndgameKind)
