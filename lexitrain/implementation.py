"""Which implementation runs where a part has two: its compiled twin or the pure Python reference.

The lexicon's graph builder (`lexicon/_graph.pyx`), the move generator, the
simulation's playouts and the endgame search (`engine/_movegen.pyx`,
`engine/_endgame.pyx`) each have a compiled twin of a pure Python reference
that the tests hold them to. The compiled one runs where `pip install .`
found a C compiler, unless `LEXITRAIN_ENGINE=python` asks for the reference
(the tests and benchmarks use it to compare the two). This is the one place
that reads that choice; it sits below the lexicon and the engine so both ask it
(`engine/engines.py` checks an engine a caller names).
"""

from __future__ import annotations

import os

COMPILED, PYTHON = "compiled", "python"
#: the implementations, by the name `lexitrain --version`, the tests and `engine=` use
IMPLEMENTATIONS = (COMPILED, PYTHON)
#: the environment variable that asks for the pure Python reference (`LEXITRAIN_ENGINE=python`)
VARIABLE = "LEXITRAIN_ENGINE"


def chosen_implementation(built: bool) -> str:
    """COMPILED where the compiled twin was `built`, unless LEXITRAIN_ENGINE=python asks for the reference."""
    return COMPILED if built and os.environ.get(VARIABLE) != PYTHON else PYTHON
