"""The rules of a game: positions, the legal-play generator, notation, IDs and the variants.

Layer: the bottom of ``core`` above ``core.errors`` and ``core.messages``. Modules here import only each
other and those two base modules; never ``core.match``, ``core.referee`` or ``core.coach``
(tests/core/test_layers.py checks it).
"""
