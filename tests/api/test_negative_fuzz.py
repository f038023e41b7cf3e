"""Schema-violating requests are refused (schemathesis negative mode, no ST201, no 5xx).

For every operation whose body has a ``rules`` object (``null`` used to be accepted there) and
for ``/v1/batch``, schemathesis generates requests that break the schema (seeded) and checks
that each one is refused with a 4xx (``negative_data_rejection``, failure code ST201) and never
answered 5xx. ``NEGATIVE_FUZZ_EXAMPLES`` (default 8) is the number of cases per operation.
"""

from __future__ import annotations

import os
from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import negative_data_rejection, not_a_server_error
from schemathesis.generation.modes import GenerationMode

from api.app import create_app

EXAMPLES = int(os.environ.get("NEGATIVE_FUZZ_EXAMPLES", "8"))
APP = create_app({"TESTING": True, "REDIS_URL": None, "REQUEST_DEADLINE_SECONDS": 120})
SCHEMA = schemathesis.openapi.from_wsgi("/openapi.yaml", APP)
SCHEMA.config.generation.update(modes=[GenerationMode.NEGATIVE])
OPERATIONS = SCHEMA.include(
    path_regex=r"^/v1/(batch|games/[^/]+/(melds|early-tunk|side-pots|settle|arrangement))$",
    method="POST",
)


@OPERATIONS.parametrize()
@settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    phases=[Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_schema_violations_are_refused(case: Any) -> None:
    response = case.call(headers={"Accept-Encoding": "identity"})
    case.validate_response(response, checks=[not_a_server_error, negative_data_rejection])
