"""The compiled move generator, built where it can be (everything else is in pyproject.toml).

`lexitrain/engine/_movegen.pyx` is compiled by Cython and a C compiler into
`lexitrain.engine._movegen`. The extension is optional: without a working
compiler (or with LEXITRAIN_PURE_PYTHON=1) the build warns and goes on, and
the package runs its pure Python move generator. A wheel also carries the
shipped `lexicons/` and `quizzes/` folders inside the package, as
`lexitrain/_shipped/` (see lexitrain/paths.py).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = ("lexicons", "quizzes")


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


def extensions() -> list[Extension]:
    if os.environ.get("LEXITRAIN_PURE_PYTHON") == "1":
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:  # a build without Cython (--no-build-isolation): pure Python
        return []
    source = Extension("lexitrain.engine._movegen", ["lexitrain/engine/_movegen.pyx"], optional=True)
    return cythonize([source], build_dir="build/cython", quiet=True)


setup(ext_modules=extensions(), cmdclass={"build_py": BuildWithShippedData})
