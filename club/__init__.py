"""The club: every board's copies on an MQTT broker, and the director's page over all of them.

A board referees and journals locally first (kiosk/service.py, kiosk/journal.py); ``club.publisher`` only
sends copies from that journal through an outbox (``club.outbox``) that remembers what the broker
acknowledged. ``club.director`` subscribes to every board, archives what arrives (``club.archive``) and
serves the director's page. Topics and payloads: docs/CONTRACTS.md, section "Club".
"""
