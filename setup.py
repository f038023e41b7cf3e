"""The optional compiled part of the engine (everything else is in pyproject.toml).

Three modules in C, all optional (see ``engine/accelerators.py``): ``engine._card_solver``, the
memoised least-deadwood search of Three Thirteen advice; ``engine._std_deadwood``, the least
deadwood of distinct standard cards without a wild; ``engine.advice._keeptable``, the Triple
Tunk kept-hand tables. Where no C compiler is found the install still succeeds and their
pure-Python twins run instead.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine._card_solver",
            ["engine/_card_solver.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "engine._std_deadwood",
            ["engine/_std_deadwood.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
        Extension(
            "engine.advice._keeptable",
            ["engine/advice/_keeptable.c"],
            optional=True,
            extra_compile_args=["-O2"],
        ),
    ]
)
