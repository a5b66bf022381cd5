"""The compiled move generator, built where it can be (everything else is in pyproject.toml).

`lexitrain/engine/_movegen.pyx` and `lexitrain/lexicon/_graph.pyx` are
compiled by Cython and a C compiler into `lexitrain.engine._movegen` and
`lexitrain.lexicon._graph`. The extensions are optional: without a working
compiler (or with LEXITRAIN_PURE_PYTHON=1) the build warns and goes on, and
the package runs its pure Python move generator and graph builder. A wheel also carries the
shipped `lexicons/` and `quizzes/` folders inside the package, as
`lexitrain/_shipped/` (see lexitrain/paths.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = ("lexicons", "quizzes")
#: modules with a compiled twin of their pure Python code: the move generator's
#: search and the word graph's construction
COMPILED = ("engine._movegen", "engine._endgame", "lexicon._graph")


class BuildWithShippedData(build_py):
    """Copy the shipped data folders into the package being built."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads them from the checkout
            return
        for name in SHIPPED:
            target = Path(self.build_lib) / "lexitrain" / "_shipped" / name
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(ROOT / name, target)


class BuildWhereACompilerIs(build_ext):
    """Compile each optional module if this machine can; otherwise say why and go on.

    (setuptools' own `optional=True` misses some failures, e.g. a compiler
    that is not there at all.)"""

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as exc:  # noqa: BLE001 - no compiler, no Python headers, a failing compile
            print(f"warning: {ext.name} not compiled ({exc}); lexitrain runs its pure Python code instead")
            self.not_built = [*getattr(self, "not_built", []), ext.name]

    def built(self) -> list[Extension]:
        return [ext for ext in self.extensions if ext.name not in getattr(self, "not_built", [])]

    def copy_extensions_to_source(self) -> None:  # an editable install: only what was built
        every, self.extensions = self.extensions, self.built()
        try:
            super().copy_extensions_to_source()
        finally:
            self.extensions = every

    def get_outputs(self) -> list[str]:
        return [path for path in super().get_outputs() if os.path.exists(path)]


def extensions() -> list[Extension]:
    if os.environ.get("LEXITRAIN_PURE_PYTHON") == "1":
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:  # a build without Cython (--no-build-isolation): pure Python
        return []
    sources = [Extension(f"lexitrain.{name}", [f"lexitrain/{name.replace('.', '/')}.pyx"]) for name in COMPILED]
    return cythonize(sources, build_dir="build/cython", quiet=True)


setup(ext_modules=extensions(), cmdclass={"build_py": BuildWithShippedData, "build_ext": BuildWhereACompilerIs})
