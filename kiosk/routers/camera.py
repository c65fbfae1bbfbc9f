"""The camera for the calibration page: the latest frame as JPEG and what vision detected on it."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Response

from kiosk.dependencies import CameraDep

router = APIRouter(prefix="/api/camera", tags=["calibration"])


@router.get("/frame.jpg", response_class=Response, summary="The latest camera frame",
            responses={200: {"content": {"image/jpeg": {}}}, 404: {"description": "No camera"},
                       503: {"description": "No frame yet"}})
def frame(camera: CameraDep) -> Response:
    jpeg = camera.frame_jpeg()
    if jpeg is None:
        raise HTTPException(503, "the camera has not delivered a frame yet")
    return Response(jpeg, media_type="image/jpeg", headers={"Cache-Control": "no-store"})


@router.get("/overlay", summary="Detected corners, points and markers on the latest frame")
def overlay(camera: CameraDep) -> dict[str, Any]:
    return camera.overlay()
