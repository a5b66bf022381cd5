"""Which engine runs: the compiled searches where this install built them, else the pure Python reference.

The move generator, the simulation's playouts and the endgame search each
have a compiled twin (`_movegen.pyx`, `_endgame.pyx`) of a pure Python
reference that the tests hold them to. Which one runs by default is
`lexitrain/implementation.py`'s choice (the compiled one where it was built,
unless `LEXITRAIN_ENGINE=python`), the same one the lexicon's graph builder
follows; a caller may also name one (`engine=`), checked here.
`lexitrain --version` says which.
"""

from __future__ import annotations

from types import ModuleType

from lexitrain.errors import LexitrainError
from lexitrain.implementation import COMPILED, IMPLEMENTATIONS, chosen_implementation

try:
    from lexitrain.engine import _movegen as compiled_movegen
except ImportError:  # built without a C compiler: the pure Python searches only
    compiled_movegen = None  # type: ignore[assignment]

#: the engines, by the name `lexitrain --version`, the tests and `engine=` use
ENGINES = IMPLEMENTATIONS


def default_engine() -> str:
    """The compiled engine where it was built, unless LEXITRAIN_ENGINE=python."""
    return chosen_implementation(compiled_movegen is not None)


def chosen_engine(engine: str | None, what: str = "engine") -> str:
    """`engine` (default: `default_engine()`), refused in one line when unknown or not built here."""
    engine = engine or default_engine()
    if engine not in ENGINES:
        raise LexitrainError(f"unknown {what} {engine!r} (known: {', '.join(ENGINES)})")
    if engine == COMPILED and compiled_movegen is None:
        raise LexitrainError(f"the compiled {what} is not built in this install (no C compiler?)")
    return engine


def compiled_endgame() -> ModuleType:
    """The compiled endgame search (`_endgame`), imported when first asked for: it reads
    engine/endgame.py's constants, so it cannot load before that module has."""
    try:
        from lexitrain.engine import _endgame
    except ImportError:  # built without a C compiler
        raise LexitrainError("the compiled endgame search is not built in this install (no C compiler?)") from None
    return _endgame
