"""The engine's optional compiled parts (everything else is in pyproject.toml).

Every ``engine/**/*.c`` is one module of that name (``engine/standard/_solver.c`` is
``engine.standard._solver``), loaded by ``engine/core/accelerators.py``: the memoised least-deadwood
search of Three Thirteen advice, the least deadwood of distinct standard cards without a wild,
and the Triple Tunk kept-hand tables. All are optional: where no C compiler is found the install
still succeeds and their pure-Python twins run instead.
"""

from pathlib import Path

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            ".".join(source.with_suffix("").parts),
            [source.as_posix()],
            optional=True,
            extra_compile_args=["-O2", "-ffp-contract=off"],
        )
        for source in sorted(Path("engine").rglob("*.c"))
    ]
)
