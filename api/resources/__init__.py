"""Registers every /v1 resource blueprint on the flask-smorest Api (filled in by the endpoint work)."""

from flask_smorest import Api


def register_blueprints(api: Api) -> None:
    """Attach the analysis, advice and settlement blueprints to ``api``."""
