"""The `best-play` kind: "find the best play", judged by a Monte Carlo simulation.

The key is the position's CGP line; the simulation (15 candidates by equity,
2 plies, a fixed seed) was run when the card was made and is stored with the
position (`analysed.py`), so asking is instant and always the same. The
positions are those where the simulation's best move is a tile play scoring
less than the top score. The simulation's best play is right; the verdict
shows its whole table (win %, equity, spread, iterations per candidate) and
where the play given stands in it.
"""

from __future__ import annotations

from typing import Any

from lexitrain.study.quiz.kinds.analysed import BEST_PLAY, SIM, AnalysedKind
from lexitrain.study.quiz.kinds.base import register_kind


class BestPlayKind(AnalysedKind):
    name = BEST_PLAY
    description = "a board and a rack shown: type the best play by simulation (not the top-scoring one)"
    by = SIM
    asked_what = "what is the best play by simulation"

    def table(self, analysis: dict[str, Any]) -> dict[str, Any]:
        return {"by": SIM, "iterations": analysis.get("iterations"), "plies": analysis.get("plies"),
                "seed": analysis.get("seed"), "inferred": bool(analysis.get("inferred")),
                "top": analysis.get("candidates", []),
                "plays": len(analysis.get("candidates", [])), "rank": None}

    def placed(self, analysis: dict[str, Any], play: str) -> dict[str, Any]:
        """Its rank in the simulation's table (1 = best), None when it was not one of the candidates simulated."""
        rows = analysis.get("candidates", [])
        return {"rank": next((n for n, row in enumerate(rows, start=1) if row.get("play") == play), None)}


register_kind(BestPlayKind)
