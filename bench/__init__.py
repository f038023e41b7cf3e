"""Benchmarks and measurements; run each from the repo root as ``python -m bench.<name>``."""
