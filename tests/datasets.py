"""Where the tests' real data lives, found from the checkout (never an absolute path of one machine).

- ``tests/data/`` ships with the repository (tests/data/README.md): every .mat/SGF sample and 101 corpus
  matches, so a fresh clone's default run plays real matches.
- ``../shared`` beside the checkout, when present, adds the whole corpus (1,777 matches) and the real photos
  (evaluation only, never copied into the repository). A test that needs it calls :func:`shared_dir`, which
  skips with a message when it is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"
SHARED = REPO.parent / "shared"
SAMPLES = DATA / "samples"
SHARED_CORPUS = SHARED / "matches" / "corpus"
BUNDLED_CORPUS = DATA / "corpus"
CORPUS_SIZE = 1777  # matches in ../shared/matches/corpus
BUNDLED_SIZE = 101  # of them in tests/data/corpus


def has_shared() -> bool:
    return SHARED.is_dir()


def shared_dir() -> Path:
    """../shared beside the checkout; skips the calling test with a message when it is absent."""
    if not has_shared():
        pytest.skip(f"{SHARED} is missing: put the project's shared/ folder beside the checkout "
                    "(this test needs what is only there)")
    return SHARED


def full_corpus() -> bool:
    """True when the whole corpus of ../shared is beside the checkout."""
    return SHARED_CORPUS.is_dir()


def corpus_dir() -> Path:
    """The whole corpus from ../shared when present, else the matches shipped in tests/data/corpus."""
    return SHARED_CORPUS if full_corpus() else BUNDLED_CORPUS


CORPUS = corpus_dir()


def corpus_files() -> list[Path]:
    """Every corpus match (``<folder>/<name>.txt``), sorted."""
    return sorted(CORPUS.glob("*/*.txt"))


def sample(name: str) -> Path:
    """A .mat/SGF sample by its path under samples/ (e.g. ``galaxy/match1787848.mat``)."""
    return SAMPLES / name
