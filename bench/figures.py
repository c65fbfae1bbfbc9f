"""How a bench prints its figures: one JSON object (--json) or a line per figure for people."""

from __future__ import annotations

import json
from collections.abc import Mapping


def print_figures(figures: Mapping[str, object], as_json: bool, line: str = "{key:40s} {value}") -> None:
    """`figures` as one JSON line, or each as `line` (a format with {key} and {value})."""
    if as_json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(line.format(key=key, value=value))
