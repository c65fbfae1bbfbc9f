"""Players' names: what a name may hold, and how it is written into a file of lines (issue 34, finding 9).

A name goes into .mat, SGF and the variants' text record, whose readers split lines and, in a .mat, read
``NAME : SCORE`` on the score line: a newline in a name starts a line the reader misreads, and "Eve : 9" as a
name made an exported .mat that `gamao replay` read as the final score 9-0.

- `name_problem(name)`: why a name cannot be taken (control characters, line or paragraph separators, bidi
  overrides, lone surrogates, only spaces, longer than `MAX_NAME`), or None. The kiosk's API and the referee's
  events (`new_match`) refuse such a name with this reason.
- `one_line(text)`: any text as one line (control characters and separators become spaces).
- `mat_name(text)`: a name as a .mat score line can hold it: one line, and each ``:`` written as ``꞉``
  (U+A789, a letter that looks like a colon), so that only the writer's own colon separates name and score.
"""

from __future__ import annotations

import unicodedata

MAX_NAME = 40
BIDI = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
COLON_LOOKALIKE = "\ua789"


def name_problem(name: str) -> str | None:
    for ch in name:
        if unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp") or ch in BIDI:
            return f"a name cannot contain the control character U+{ord(ch):04X}"
    if not name.strip():
        return "a name cannot be empty or only spaces"
    if len(name) > MAX_NAME:
        return f"a name is at most {MAX_NAME} characters, not {len(name)}"
    return None


def one_line(text: str) -> str:
    """A name or header value as one line: control characters, bidi overrides and line or paragraph separators
    become spaces (runs of them one space)."""
    if text.isprintable() and not any(ch in BIDI for ch in text):
        return text
    return " ".join("".join(" " if (unicodedata.category(ch)[0] in "CZ" and ch != " ") or ch in BIDI else ch
                            for ch in text).split())


def mat_name(text: str) -> str:
    return one_line(text).replace(":", COLON_LOOKALIKE)
