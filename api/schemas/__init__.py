"""Request and response schemas: one class per game where the card notation differs.

Request schemas load JSON into frozen query objects of engine values (ints, rules objects,
``TableMeld``s); response schemas dump plain dicts of engine ints back to canonical card names.
Each schema also writes its part of the OpenAPI document (flask-smorest / apispec).
"""
