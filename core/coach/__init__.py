"""The coach's plain words: why one play is better than another, and what the cube advice means.

Pure code over the rules (``core.rules``): no engine, no I/O. The kiosk's coach service (kiosk/coach.py)
asks an engine which play is best and hands both results here.
"""
