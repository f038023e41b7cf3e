"""HTTP service over the rules engine. ``api.app.create_app`` builds the Flask app gunicorn serves.

``api.about`` names the service and its version (a leaf module, imported by the app and the
docs alike). Layers: ``api.http`` (errors, CORS, conditional requests, headers, observability,
deadline, rate limit), ``api.cache`` (response cache and its Redis connection), ``api.server``
(gunicorn plumbing), ``api.docs`` (OpenAPI document, rules texts, front door), ``api.schemas``
and ``api.resources`` (one blueprint per question).
"""
