"""Vision thresholds and board proportions, loaded from `vision/config.json` (chesscog keeps them out of code)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

DEFAULT_PATH = Path(__file__).with_name("config.json")


@dataclass(frozen=True)
class GeometryConfig:
    bar_to_checker: float = 0.6
    field_width_to_height: float = 1.0
    point_length_to_height: float = 0.39
    checker_px: int = 24
    margin: float = 0.6
    light_home: str = "br"
    auto_bar: bool = True
    auto_bar_min_change: float = 0.25
    bar_min: float = 0.3
    bar_max: float = 1.4


@dataclass(frozen=True)
class DetectConfig:
    column_length_to_point: float = 1.4
    column_max_fraction: float = 0.49
    ring_radii: tuple[float, ...] = (0.38, 0.45, 0.52)
    ring_angles: int = 24
    shift_x: float = 0.2
    shift_y: float = 0.15
    shift_steps: int = 3
    edge_strength: float = 0.7
    radial_over_tangential: float = 1.5
    gradient_percentile: float = 75.0
    inward_arc: float = 0.6
    inward_weight: float = 1.0
    disc_threshold: float = 0.45
    disc_softness: float = 0.025
    colour_radius: float = 0.3
    colour_split: float = 25.0
    bar_step: float = 0.25
    layer_threshold: float = 0.7
    layer_margin: float = 0.15
    tall_stack_tail: float = 0.01
    regrid: float = 0.25
    empty_match: float = 6.0
    empty_risk: float = 0.2
    lean_retry: float = 0.1
    support: float = 0.9
    bar_threshold: float = 0.6
    bar_colour_match: float = 40.0
    bar_colour_ratio: float = 0.45
    bar_softness: float = 0.05
    bar_separation: float = 0.7
    colour_match: float = 70.0
    colour_match_softness: float = 8.0
    slot_model: bool = True  # the learned judge of each slot (vision/slots.py): a veto on rings, and objects
    slot_veto: float = 0.35  # a slot judged a checker with less than this chance keeps that share of its ring's
    object_threshold: float = 0.8  # a slot judged an object with more than this chance covers its column
    judge_ring: float = 0.75  # the judge rules on slots whose ring score is below this (fully 0.1 below it)
    kind_model: bool = True  # name what covers a column (cup, die, cube, phone) with vision/kinds_model.npz
    kind_share: float = 0.7  # the kind is named when it has more than this share of the object's chance, else "object"
    lone_object: float = 0.95  # one slot judged a die or the cube with more than this chance covers its column


@dataclass(frozen=True)
class StillnessConfig:
    still_seconds: float = 0.3
    diff_threshold: int = 18
    moving_fraction: float = 0.004
    skin_fraction: float = 0.02
    skin_blob_checkers: float = 1.5
    downscale_px: int = 160
    arm_area_fraction: float = 0.03
    rebase_seconds: float = 1.0
    rebase_skin_seconds: float = 3.0
    frame_band: float = 0.02
    frame_crossing: float = 0.03
    reread_seconds: float = 1.0


@dataclass(frozen=True)
class RegistrationConfig:
    aruco_dictionary: str = "DICT_4X4_50"
    marker_ids: tuple[int, ...] = (0, 1, 2, 3)
    bump_px: float = 6.0
    bump_frames: int = 15
    search_scale: float = 0.5


@dataclass(frozen=True)
class VisionConfig:
    geometry: GeometryConfig = field(default_factory=GeometryConfig)
    detect: DetectConfig = field(default_factory=DetectConfig)
    stillness: StillnessConfig = field(default_factory=StillnessConfig)
    registration: RegistrationConfig = field(default_factory=RegistrationConfig)

    def with_geometry(self, **changes: Any) -> VisionConfig:
        return replace(self, geometry=replace(self.geometry, **changes))

    def with_detect(self, **changes: Any) -> VisionConfig:
        return replace(self, detect=replace(self.detect, **changes))


def _section(cls: type, data: dict[str, Any]) -> Any:
    known = {f.name for f in fields(cls)}
    unknown = set(data) - known
    if unknown:
        raise ValueError(f"unknown setting(s) {sorted(unknown)} in vision config section {cls.__name__}")
    values = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items()}
    return cls(**values)


def load_config(path: str | Path | None = None) -> VisionConfig:
    """Read the vision configuration; missing keys keep their defaults, unknown keys are an error."""
    data = json.loads(Path(path or DEFAULT_PATH).read_text(encoding="utf-8"))
    return VisionConfig(
        geometry=_section(GeometryConfig, data.get("geometry", {})),
        detect=_section(DetectConfig, data.get("detect", {})),
        stillness=_section(StillnessConfig, data.get("stillness", {})),
        registration=_section(RegistrationConfig, data.get("registration", {})),
    )
