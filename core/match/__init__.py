"""Match play and records: the cube, the score and Crawford, game and match records, .mat and SGF, replay.

Layer: above ``core.rules``. Modules here import ``core.rules``, ``core.errors``, ``core.messages`` and
each other; never ``core.referee`` or ``core.coach`` (tests/core/test_layers.py checks it).
"""
