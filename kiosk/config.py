"""Kiosk settings: a small dataclass read from a TOML or JSON file (pydantic-settings is not installed).

Unknown keys are refused by name so a typo in the appliance's config file is found at start, not ignored.
"""

from __future__ import annotations

import json
import os
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

LANGUAGES = ("pt", "en")
DEFAULT_RULES: dict[str, Any] = {
    "crawford": True, "jacoby": False, "beavers": False, "holland": False,
    "cube_cap": None, "mode": "casual", "tournament": False,
}


_TYPES: dict[str, tuple[type | tuple[type, ...], str]] = {
    "port": (int, "a whole number"), "pin_max_failures": (int, "a whole number"),
    "pin_lockout_seconds": ((int, float), "a number of seconds"), "gpio": (dict, "a table of pin numbers"),
    "rules": (dict, "a table of rules"), "language": (str, "text"), "camera": (str, "text"),
    "serial_port": (str, "text"), "host": (str, "text"), "data_dir": (str, "a folder path"),
    "speak": (bool, "true or false"),
    "club": (dict, "a table: broker, club, board, username, password, ca_file (docs/club.md)"),
    "coach": (bool, "true or false"),
    "camera_controls": (dict, "a table: lens_position, exposure_time, analogue_gain, flicker_period"),
    "rule_set": (str, "a rule set's name: casual, tournament_usbgf, tournament_ukbgf or lesson"),
}


class ConfigError(ValueError):
    """The config file cannot be used; the message says which file, which key and what to do."""


def system_language(environ: dict[str, str] | None = None) -> str:
    """'pt' when the system language is Portuguese (LC_ALL, LC_MESSAGES or LANG), otherwise 'en'."""
    env = os.environ if environ is None else environ
    for key in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key, "")
        if value:
            return "pt" if value.lower().startswith("pt") else "en"
    return "en"


def default_data_dir() -> Path:
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "gamao"


@dataclass
class Settings:
    data_dir: Path = field(default_factory=default_data_dir)
    host: str = "127.0.0.1"
    port: int = 8000
    # "pt" or "en"; empty: the page follows the browser (never the system's locale: a Pi left in LANG=C.UTF-8 is no
    # one's choice), and the terminal's reports follow the system language (`language` is filled in from it).
    language: str = ""
    camera: str = "auto"          # "auto", "picamera2", "/dev/videoN", or "none"
    serial_port: str = "auto"     # "auto" finds the dice unit by its USB id; or "/dev/ttyACM0"
    gpio: dict[str, int | None] = field(default_factory=dict)  # firmware_bridge.gpio.GpioConfig keys
    rules: dict[str, Any] = field(default_factory=lambda: dict(DEFAULT_RULES))
    pin_max_failures: int = 5
    pin_lockout_seconds: float = 60.0
    club: dict[str, Any] = field(default_factory=dict)  # the club's broker (club/config.py); empty: publish nothing
    coach: bool = True  # the coach (hints, tutor, ratings, review); false: off in every match, tournament or not
    speak: bool = True            # the referee's spoken calls (kiosk/voice.py, espeak-ng); false: silent
    # The Pi camera's fixed focus, exposure and mains flicker period (vision/camera_controls.py); empty: defaults.
    camera_controls: dict[str, Any] = field(default_factory=dict)
    rule_set: str = ""            # a new match's rule set when the request names none (core/referee/rulesets.py)
    language_set: bool = field(default=False, init=False)  # whether the config (or --language) chose the language

    @property
    def table_language(self) -> str:
        """The language spoken at the table (the referee's calls): the configured one, else Brazilian Portuguese
        (the page follows the browser; the system's locale is no one's choice)."""
        return self.language if self.language_set else "pt"

    def __post_init__(self) -> None:
        self.data_dir = Path(self.data_dir).expanduser()
        self.language_set = bool(self.language)
        if not self.language:
            self.language = system_language()
        if self.language not in LANGUAGES:
            raise ConfigError(f"language must be one of {', '.join(LANGUAGES)}, not {self.language!r}")
        unknown_rules = sorted(set(self.rules) - set(DEFAULT_RULES))
        if unknown_rules:
            raise ConfigError(f"unknown rule {unknown_rules[0]!r}; known rules: {', '.join(DEFAULT_RULES)}")
        self.rules = {**DEFAULT_RULES, **self.rules}
        from core.referee.rulesets import NAMES

        if self.rule_set and self.rule_set not in NAMES:
            raise ConfigError(f"unknown rule_set {self.rule_set!r}; known rule sets: {', '.join(NAMES)}")
        from firmware_bridge.gpio import GpioConfig, GpioConfigError

        try:
            self.gpio = GpioConfig.from_dict(self.gpio).to_dict()
        except (GpioConfigError, TypeError) as exc:
            raise ConfigError(str(exc)) from None
        from vision.camera_controls import CameraControls, CameraControlsError

        try:
            CameraControls.from_dict(self.camera_controls)
        except CameraControlsError as exc:
            raise ConfigError(str(exc)) from None
        from club.config import ClubConfig, ClubConfigError

        try:
            ClubConfig.from_dict(self.club)
        except ClubConfigError as exc:
            raise ConfigError(str(exc)) from None

    @property
    def tournament(self) -> bool:
        return bool(self.rules.get("tournament"))

    @classmethod
    def load(cls, path: str | Path) -> Settings:
        """Read a .toml or .json file; raises ConfigError with the file name and the offending key."""
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot read config file {path}: {exc.strerror or exc}") from None
        try:
            data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
        except (ValueError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"config file {path} is not valid {'JSON' if path.suffix == '.json' else 'TOML'}: {exc}") from None
        return cls.from_dict(data, source=str(path))

    @classmethod
    def from_dict(cls, data: dict[str, Any], source: str = "config") -> Settings:
        known = {f.name: f for f in fields(cls)}
        for key, value in data.items():
            if key not in known:
                raise ConfigError(f"{source}: unknown setting {key!r}; known settings: {', '.join(known)}")
            expected = _TYPES.get(key)
            if expected is not None and not isinstance(value, expected[0]):
                raise ConfigError(f"{source}: setting {key!r} must be {expected[1]}, not {value!r}")
        try:
            return cls(**data)
        except ConfigError as exc:
            raise ConfigError(f"{source}: {exc}") from None
