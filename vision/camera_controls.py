"""The Pi camera's fixed settings from the config's [camera_controls] table, as libcamera controls for picamera2.

A camera on a stand looks at a board that does not move: the Camera Module 3's autofocus only costs time (it
takes about 2 s to settle and hunts when a hand passes), so the lens is held at a fixed position. Brazil's
mains is 60 Hz, so lamps flicker at 120 Hz: libcamera's exposure is told the flicker period (8333 µs; 10000
µs for 50 Hz mains) so bands do not roll over the board.

    lens_position   dioptres (1 / distance in metres): 1.5 focuses at about 67 cm; "auto" keeps autofocus
    exposure_time   µs; 0 lets the exposure follow the light (in multiples of the flicker period)
    analogue_gain   0 lets the gain follow the light; else a fixed gain (1.0 - 16.0)
    flicker_period  µs; 8333 for 60 Hz mains, 10000 for 50 Hz, 0 to turn flicker avoidance off

Standard library only: the config is read before any camera library is imported.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

AF_MANUAL, AF_CONTINUOUS = 0, 2      # libcamera controls::AfModeEnum
FLICKER_OFF, FLICKER_MANUAL = 0, 1   # libcamera controls::AeFlickerModeEnum
KEYS = ("lens_position", "exposure_time", "analogue_gain", "flicker_period")


class CameraControlsError(ValueError):
    """A [camera_controls] value that cannot be used; the message names the key and the range."""


@dataclass(frozen=True)
class CameraControls:
    lens_position: float | None = 1.5   # None: autofocus
    exposure_time: int = 0
    analogue_gain: float = 0.0
    flicker_period: int = 8333

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CameraControls:
        unknown = sorted(set(data) - set(KEYS))
        if unknown:
            raise CameraControlsError(f"unknown camera control {unknown[0]!r}; known: {', '.join(KEYS)}")
        lens: Any = data.get("lens_position", 1.5)
        if lens == "auto":
            lens = None
        elif isinstance(lens, bool) or not isinstance(lens, (int, float)) or not 0 <= lens <= 15:
            raise CameraControlsError(f"camera_controls.lens_position must be 0-15 dioptres or \"auto\", not {lens!r}")
        exposure = data.get("exposure_time", 0)
        if isinstance(exposure, bool) or not isinstance(exposure, int) or not 0 <= exposure <= 1_000_000:
            raise CameraControlsError(f"camera_controls.exposure_time must be 0-1000000 µs (0: automatic), not {exposure!r}")
        gain = data.get("analogue_gain", 0.0)
        if isinstance(gain, bool) or not isinstance(gain, (int, float)) or not (gain == 0 or 1 <= gain <= 16):
            raise CameraControlsError(f"camera_controls.analogue_gain must be 0 (automatic) or 1-16, not {gain!r}")
        period = data.get("flicker_period", 8333)
        if isinstance(period, bool) or not isinstance(period, int) or not (period == 0 or 1000 <= period <= 100_000):
            raise CameraControlsError("camera_controls.flicker_period must be 8333 (60 Hz mains), 10000 (50 Hz) "
                                      f"or 0 (off), not {period!r}")
        return cls(None if lens is None else float(lens), exposure, float(gain), period)

    def libcamera(self, available: Mapping[str, Any] | None = None) -> tuple[dict[str, Any], list[str]]:
        """The libcamera controls to set, and the ones this camera does not have (left out: a Camera Module 2
        has no lens to move). ``available``: picamera2's ``camera_controls`` (None: every control)."""
        wanted: dict[str, Any] = {}
        if self.lens_position is None:
            wanted["AfMode"] = AF_CONTINUOUS
        else:
            wanted["AfMode"] = AF_MANUAL
            wanted["LensPosition"] = self.lens_position
        if self.exposure_time:
            wanted["ExposureTime"] = self.exposure_time
        if self.analogue_gain:
            wanted["AnalogueGain"] = self.analogue_gain
        if self.flicker_period:
            wanted["AeFlickerMode"] = FLICKER_MANUAL
            wanted["AeFlickerPeriod"] = self.flicker_period
        else:
            wanted["AeFlickerMode"] = FLICKER_OFF
        if available is None:
            return wanted, []
        missing = [k for k in wanted if k not in available]
        return {k: v for k, v in wanted.items() if k in available}, missing

    def compare(self, metadata: Mapping[str, Any], applied: Mapping[str, Any] | None = None) -> list[str]:
        """What the camera's frame metadata says against what was asked: a list of disagreements (empty: as asked).
        ``applied``: the controls really set (those this camera has); None: all of them."""
        problems = []
        lens = metadata.get("LensPosition")
        if applied is not None and "LensPosition" not in applied:
            lens = None  # no focus motor: its lens position is not ours to judge
        if self.lens_position is not None and lens is not None and abs(float(lens) - self.lens_position) > 0.1:
            problems.append(f"LensPosition is {float(lens):.2f}, asked {self.lens_position:.2f}")
        exposure = metadata.get("ExposureTime")
        if self.exposure_time and exposure is not None and abs(int(exposure) - self.exposure_time) > 0.05 * self.exposure_time:
            problems.append(f"ExposureTime is {int(exposure)} µs, asked {self.exposure_time}")
        gain = metadata.get("AnalogueGain")
        if self.analogue_gain and gain is not None and abs(float(gain) - self.analogue_gain) > 0.1 * self.analogue_gain:
            problems.append(f"AnalogueGain is {float(gain):.2f}, asked {self.analogue_gain:.2f}")
        return problems


def describe(metadata: Mapping[str, Any]) -> str:
    """The settings a frame was taken with, in a line: what `gamao run --check` prints."""
    parts = []
    if "LensPosition" in metadata:
        parts.append(f"LensPosition {float(metadata['LensPosition']):.2f}")
    if "ExposureTime" in metadata:
        parts.append(f"ExposureTime {int(metadata['ExposureTime'])} µs")
    if "AnalogueGain" in metadata:
        parts.append(f"AnalogueGain {float(metadata['AnalogueGain']):.2f}")
    for key in ("AfMode", "AfState", "AeFlickerMode", "AeFlickerPeriod"):
        if key in metadata:
            parts.append(f"{key} {metadata[key]}")
    return ", ".join(parts) or "no metadata"
