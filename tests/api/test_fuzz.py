"""Schema fuzzing of every operation with schemathesis, against the live app (WSGI, in process).

For each operation in ``/openapi.yaml`` schemathesis generates valid and invalid requests from
the spec (seeded: ``derandomize``, so every CI run sends the same cases). Asserted per case:

- no 5xx (a request-deadline 503 would count as a failure too: the fuzz app's deadline is long);
- the response matches the schema documented for its status, with the documented content type;
- every 4xx is ``application/problem+json`` with the RFC 9457 members.

``FUZZ_EXAMPLES`` (default 12) is the number of cases per operation; the long run is a benchmark:
``FUZZ_EXAMPLES=520 FUZZ_REPORT=/tmp/fuzz.txt python -m pytest tests/api/test_fuzz.py`` (it
appends the number of cases sent and their statuses to the report file).
"""

from __future__ import annotations

import atexit
import json
import os
from collections import Counter
from typing import Any

import schemathesis
from hypothesis import HealthCheck, Phase, seed, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from api.app import create_app

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "12"))
SEED = os.environ.get("FUZZ_SEED")  # another seeded set of cases (default: hypothesis' derandomize)
REPORT = os.environ.get("FUZZ_REPORT")  # a file to append "cases, statuses" to (benchmark runs)
STATUSES: Counter[int] = Counter()
APP = create_app({"TESTING": True, "REDIS_URL": None, "REQUEST_DEADLINE_SECONDS": 120})
SCHEMA = schemathesis.openapi.from_wsgi("/openapi.yaml", APP)
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def _report() -> None:
    if REPORT:
        with open(REPORT, "a", encoding="utf-8") as out:
            total = sum(STATUSES.values())
            out.write(f"cases {total}; statuses {dict(sorted(STATUSES.items()))}\n")


atexit.register(_report)  # after every phase schemathesis runs, at the very end


@SCHEMA.parametrize()
@seed(int(SEED or 0))
@settings(
    max_examples=EXAMPLES,
    derandomize=SEED is None,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_every_operation_answers_within_its_schema(case: Any) -> None:
    # The in-process WSGI transport does not undo gzip (large answers are gzipped when asked),
    # so the fuzz asks for identity encoding; gzip itself is tested in the HTTP-layer tests.
    response = case.call(headers={"Accept-Encoding": "identity"})
    STATUSES[response.status_code] += 1
    case.validate_response(response, checks=CHECKS)
    if response.status_code >= 400:
        content_type = {k.lower(): v for k, v in response.headers.items()}["content-type"]
        assert content_type in ("application/problem+json", ["application/problem+json"]), (
            case.method,
            case.path,
            response.status_code,
        )
        problem = json.loads(response.content)
        assert problem["status"] == response.status_code
        assert problem["type"].startswith("/problems/") and problem["title"] and problem["detail"]
