"""Match file formats: Jellyfish/gnubg .mat (``core.match.formats.mat``) and gnubg SGF (``core.match.formats.sgf``).

Readers take text, never paths: the CLI reads the file and calls ``decode_text`` on its bytes.
"""

from __future__ import annotations

from core.errors import GamaoError


class MatchFileError(GamaoError, ValueError):
    """A match file that cannot be read; ``line`` is 1-based (None when the whole file is at fault)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        self.line = line
        self.reason = message
        super().__init__(f"line {line}: {message}" if line is not None else message)


def decode_text(data: bytes) -> str:
    """Decode a match file's bytes as UTF-8 (a BOM is dropped), refusing binary data with the line at fault."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    nul = data.find(b"\x00")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise MatchFileError("this is binary data, not a match text file (it contains a NUL byte)", line)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        col = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise MatchFileError(
            f"byte 0x{data[exc.start]:02x} at column {col} is not UTF-8 text; "
            "save the file as UTF-8 (gnubg, Galaxy and XG all write UTF-8)",
            line,
        ) from None
