"""Pure game logic for Game Flip Flop, Triple Tunk and Three Thirteen (see ../shared/RULES.md).

Nothing here imports a web, cache or serialisation library, and nothing touches the global
``random`` module: samplers take a seeded ``random.Random``.
"""

ENGINE_VERSION = "0.1.0"
