"""Repository tools; the Python ones run from the repo root as ``python -m scripts.<name>``."""
