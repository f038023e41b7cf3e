"""The optional compiled part of the engine (everything else is in pyproject.toml).

``engine.advice._keeptable`` builds Triple Tunk kept-hand tables in C. It is optional: where no
C compiler is found the install still succeeds and the pure-Python builder runs instead.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.advice._keeptable",
            ["engine/advice/_keeptable.c"],
            optional=True,
            extra_compile_args=["-O2"],
        )
    ]
)
