"""Synthetic board renderer: any position on varied boards, seen by a camera. Seeded and deterministic.

`render(position, seed)` draws the 24 physical points (light/dark counts), bar and off onto a board of a
random style (wood, felt or leather field; red/white, black/white or acrylic checkers), lays it in
perspective on a table, adds lighting gradients, glare, blur and noise, dice and cube on the board, and
optionally a hand; it returns the image and the true field corners (tl, tr, br, bl). Used by the tests,
the demo and for tuning thresholds.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import cache
from statistics import NormalDist

import cv2
import numpy as np

from vision.geometry import columns_to_points

Colour = tuple[int, int, int]  # BGR

FIELDS = {  # name: (field, point A, point B, frame, texture strength)
    "wood": ((120, 170, 205), (40, 40, 120), (60, 95, 130), (30, 60, 95), 14),
    "felt_green": ((70, 120, 40), (235, 235, 235), (30, 30, 30), (25, 25, 25), 8),
    "felt_grey": ((150, 150, 150), (180, 90, 40), (225, 225, 220), (30, 30, 30), 10),
    "leather_cream": ((200, 225, 235), (60, 60, 180), (60, 120, 30), (30, 30, 120), 5),
    "leather_navy": ((90, 40, 30), (170, 200, 215), (40, 40, 40), (40, 70, 110), 5),
}
CHECKERS = {  # name: (light, dark, acrylic)
    "red_white": ((225, 235, 240), (45, 45, 175), False),
    "black_white": ((235, 235, 235), (40, 40, 40), False),
    "acrylic": ((190, 215, 225), (30, 120, 200), True),
    "maroon_cream": ((200, 225, 235), (45, 35, 110), False),
}
# The board kinds of issue 33 (boards the detector was not tuned on), drawn only when named in Options.field /
# Options.checkers (a seed's random choice stays among FIELDS and CHECKERS, so every seed draws what it drew).
# field name: (field, point A, point B, frame, texture strength, pattern)
KIND_FIELDS = {
    "cork": ((95, 150, 190), (60, 95, 140), (150, 195, 225), (40, 65, 95), 10, "cork"),
    "painted": ((190, 215, 230), (70, 70, 150), (140, 90, 40), (40, 60, 90), 4, "painted"),
    "mosaic": ((170, 185, 195), (60, 60, 150), (150, 120, 60), (60, 60, 70), 4, "mosaic"),
    "inlay": ((110, 160, 200), (45, 75, 120), (150, 200, 230), (30, 55, 85), 12, "inlay"),
    "felt_dark": ((45, 55, 35), (50, 50, 55), (165, 170, 165), (25, 25, 25), 8, "felt"),
    "leather_brown": ((60, 95, 140), (170, 200, 220), (35, 45, 70), (30, 45, 70), 6, "leather"),
    "wood_light": ((140, 190, 225), (115, 170, 210), (80, 125, 170), (60, 100, 140), 14, "grain"),
}
# checker name: (light, dark, finish)
KIND_CHECKERS = {
    "light_wood": ((150, 200, 230), (40, 60, 95), "wood"),
    "glossy_brown": ((205, 225, 235), (30, 55, 95), "glossy"),
    "translucent": ((215, 225, 225), (40, 90, 160), "translucent"),
    "pearl": ((215, 215, 210), (165, 160, 155), "pearl"),
}
#: objects that may stand on the field (Options.objects): a dice cup, a die, the cube, a phone
OBJECTS = ("cup", "die", "cube", "phone")


@dataclass
class Scene:
    light: list[int]
    dark: list[int]
    bar: dict[str, int] = field(default_factory=lambda: {"light": 0, "dark": 0})
    off: dict[str, int] = field(default_factory=lambda: {"light": 0, "dark": 0})
    #: Plakoto (R30): (physical point, side) of each pinned checker, drawn under its pinner; the point's
    #: counts include it, as a variant's board event counts it
    pinned: list[tuple[int, str]] = field(default_factory=list)

    @classmethod
    def from_event(cls, ev: dict) -> Scene:
        return cls(list(ev["light"]), list(ev["dark"]), dict(ev.get("bar", {"light": 0, "dark": 0})),
                   dict(ev.get("off", {"light": 0, "dark": 0})),
                   [(int(p["point"]), str(p["side"])) for p in ev.get("pinned", ())])

    @classmethod
    def start(cls) -> Scene:
        light = [0] * 24
        dark = [0] * 24
        for p, n in ((24, 2), (13, 5), (8, 3), (6, 5)):
            light[p - 1] = n
            dark[24 - p] = n
        return cls(light, dark)


@dataclass
class Options:
    size: tuple[int, int] = (1280, 720)
    field: str | None = None  # None: chosen by the seed
    checkers: str | None = None
    light_home: str = "br"
    perspective: float = 0.06  # corner jitter, fraction of the board size
    rotate: float = 6.0  # degrees
    blur: float = 0.8
    noise: float = 4.0
    glare: bool = True
    gradient: float = 0.25
    dice: bool = True
    hand: bool = False
    hand_offset: float = 0.0  # moves the hand, for videos
    bar_to_checker: float = 0.6
    aspect: float = 1.0
    point_length: float = 0.39
    fill: float = 0.88  # share of the picture the board takes (less leaves room for markers around it)
    #: (kind, physical point, slot) of things standing on the field: kind one of OBJECTS, slot the distance from
    #: the point's base in checker widths (0: at the edge)
    objects: tuple[tuple[str, int, float], ...] = ()
    keystone: float = 0.0  # the far (top) edge this share narrower than the near one: a camera seeing it obliquely


CW = 32  # checker width on the flat board drawing; the camera warp rescales it


def render(scene: Scene, seed: int, opts: Options | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Image (BGR uint8) and the true field corners (4x2 float32, tl tr br bl) in it."""
    o = opts or Options()
    # separate generators: the same seed keeps the board style and the camera whatever the position,
    # so a sequence of positions with one seed is a video of one board
    rng = np.random.default_rng(seed)
    fname = o.field or list(FIELDS)[rng.integers(len(FIELDS))]
    cname = o.checkers or list(CHECKERS)[rng.integers(len(CHECKERS))]
    style = FIELDS[fname] + ("plain",) if fname in FIELDS else KIND_FIELDS[fname]
    flat, field_quad = _draw_board(scene, o, style, CHECKERS.get(cname) or KIND_CHECKERS[cname], rng)
    image, corners = _camera(flat, field_quad, o, seed, np.random.default_rng([seed, 1]))
    return image, corners


def _jitter(c: Colour, rng: np.random.Generator, amount: int = 12) -> Colour:
    return tuple(int(np.clip(v + rng.integers(-amount, amount + 1), 0, 255)) for v in c)  # type: ignore[return-value]


def _draw_board(scene: Scene, o: Options, style: tuple, checkers: tuple,
                rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    field_c, point_a, point_b, frame_c, texture, pattern = style
    field_c, point_a, point_b, frame_c = (_jitter(c, rng) for c in (field_c, point_a, point_b, frame_c))
    light_c, dark_c, acrylic = checkers
    light_c, dark_c = _jitter(light_c, rng, 8), _jitter(dark_c, rng, 8)
    bar = o.bar_to_checker * CW
    fw = 12 * CW + bar
    fh = fw / o.aspect
    frame, tray = int(0.5 * CW), int(1.3 * CW)
    w, h = int(fw + 2 * frame + tray), int(fh + 2 * frame)
    img = np.empty((h, w, 3), np.float32)
    img[:] = frame_c
    x0, y0 = frame, frame
    img[y0:y0 + int(fh), x0:x0 + int(fw)] = field_c
    grain: np.ndarray = rng.normal(0, texture, (h, w // 4 + 1)).astype(np.float32)
    grain = cv2.resize(cv2.GaussianBlur(grain, (0, 0), 1.5), (w, h))  # streaks, like wood or felt nap
    img += grain[:, :, None]
    if pattern != "plain":
        _field_pattern(img, pattern, (x0, y0, int(fw), int(fh)), field_c, rng)
    # bar
    bx = x0 + 6 * CW
    cv2.rectangle(img, (int(bx), y0), (int(bx + bar), y0 + int(fh)), tuple(float(v) * 0.8 for v in frame_c), -1)
    pl = o.point_length * fh
    col_x = [x0 + (j + 0.5) * CW + (bar if j >= 6 else 0) for j in range(12)]
    for j, cx in enumerate(col_x):
        for top in (True, False):
            colour = point_a if (j % 2 == 0) == top else point_b
            base = y0 if top else y0 + fh
            tip = base + pl if top else base - pl
            tri = np.array([[cx - CW / 2 + 1, base], [cx + CW / 2 - 1, base], [cx, tip]], np.float32)
            if pattern == "plain":
                cv2.fillPoly(img, [np.round(tri * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)
            else:
                _kind_point(img, tri, colour, pattern, rng)
    top_pts, bottom_pts = columns_to_points(o.light_home)
    for row, pts in (("top", top_pts), ("bottom", bottom_pts)):
        for j, p in enumerate(pts):
            nl, nd = scene.light[p - 1], scene.dark[p - 1]
            n, colour = (nl, light_c) if nl else (nd, dark_c)
            under = next((s for q, s in scene.pinned if q == p), None)
            if under is not None:  # the pinned checker lies in the first slot, its pinner on top of it
                n, colour = (nd, dark_c) if under == "light" else (nl, light_c)
                t = 0.5 * CW
                _checker(img, (col_x[j], y0 + t if row == "top" else y0 + fh - t),
                         light_c if under == "light" else dark_c, acrylic, rng)
            for k in range(n):
                layer, pos = divmod(k, 6) if n > 6 else (0, k)
                t = (pos + 0.5 + 0.5 * layer) * CW
                cy = y0 + t if row == "top" else y0 + fh - t
                _checker(img, (col_x[j], cy), colour, acrylic, rng, raised=layer)
    # bar: light's checkers in one half, dark's in the other
    for side, colour, sign in (("light", light_c, 1), ("dark", dark_c, -1)):
        for k in range(scene.bar.get(side, 0)):
            cy = y0 + fh / 2 + sign * (k + 0.7) * CW
            _checker(img, (bx + bar / 2, cy), colour, acrylic, rng)
    # off: edge-on in the tray beside the field
    tx = x0 + fw + frame
    for side, colour, top in (("light", light_c, False), ("dark", dark_c, True)):
        for k in range(scene.off.get(side, 0)):
            y = y0 + 4 + k * 6 if top else y0 + fh - 10 - k * 6
            cv2.rectangle(img, (int(tx + 4), int(y)), (int(tx + tray - 4), int(y + 5)), colour, -1)
    if o.dice:
        half = rng.integers(2)
        for d in range(2):
            cx = x0 + (1.5 + 2.2 * d + rng.uniform(0, 1.5)) * CW + half * (6 * CW + bar)
            _die(img, (cx, y0 + fh / 2 + rng.uniform(-0.3, 0.3) * CW), int(rng.integers(1, 7)), rng)
        _cube(img, (tx + tray / 2, y0 + fh / 2), rng)
    if o.objects:  # last: the board under them is drawn as without them
        _objects(img, o.objects, o.light_home, col_x, y0, fh, rng)
    quad = np.array([[x0, y0], [x0 + fw, y0], [x0 + fw, y0 + fh], [x0, y0 + fh]], np.float32)
    return np.clip(img, 0, 255).astype(np.uint8), quad


def _checker(img: np.ndarray, c: tuple[float, float], colour: Colour, acrylic: bool | str,
             rng: np.random.Generator, raised: int = 0) -> None:
    """``acrylic``: True (translucent with a bright rim), False (plain), or a finish of KIND_CHECKERS."""
    if isinstance(acrylic, str):
        _kind_checker(img, c, colour, acrylic, rng, raised)
        return
    r = CW / 2 - 1 + rng.uniform(-0.6, 0.3)
    cx, cy = c[0] + rng.uniform(-1.5, 1.5) + 2 * raised, c[1] + rng.uniform(-1, 1)
    p = (int(round(cx * 16)), int(round(cy * 16)))
    cv2.circle(img, (p[0] + 24, p[1] + 32), int(r * 16), (0, 0, 0), -1, cv2.LINE_AA, 4)  # shadow
    if acrylic:  # translucent: the board shows through, with a bright rim
        # 0.35 * board + 0.65 * disc, in float32 and in place, over the disc's box only (a copy of the whole
        # board per checker was a third of a rendered frame's time); the disc drawn in the box's coordinates
        # (a whole-pixel shift of an anti-aliased circle draws the same pixels)
        h, w = img.shape[:2]
        x0, y0 = max(0, p[0] // 16 - int(r) - 2), max(0, p[1] // 16 - int(r) - 2)
        x1, y1 = min(w, p[0] // 16 + int(r) + 3), min(h, p[1] // 16 + int(r) + 3)
        box = img[y0:y1, x0:x1]
        over = box.copy()
        cv2.circle(over, (p[0] - 16 * x0, p[1] - 16 * y0), int(r * 16), colour, -1, cv2.LINE_AA, 4)
        box *= 0.35
        over *= 0.65
        box += over
    else:
        cv2.circle(img, p, int(r * 16), colour, -1, cv2.LINE_AA, 4)
    rim = tuple(v * 0.6 for v in colour)
    cv2.circle(img, p, int((r - 1) * 16), rim, 2, cv2.LINE_AA, 4)
    # a bevelled edge catches some light all round and most on the lamp's side, even on a black checker
    edge = tuple(min(255.0, v * 0.85 + 30) for v in colour)
    cv2.circle(img, p, int((r - 2.5) * 16), edge, 1, cv2.LINE_AA, 4)
    bevel = tuple(min(255.0, v * 0.7 + 70) for v in colour)
    cv2.ellipse(img, p, (int((r - 2.5) * 16), int((r - 2.5) * 16)), 0, 180, 300, bevel, 2, cv2.LINE_AA, 4)
    cv2.circle(img, p, int(r * 0.62 * 16), tuple(v * 0.85 + 20 for v in colour), 1, cv2.LINE_AA, 4)
    if acrylic:
        hl = (int(p[0] - r * 4), int(p[1] - r * 5))
        cv2.ellipse(img, hl, (int(r * 5), int(r * 2.5)), -30, 0, 360, (255, 255, 255), -1, cv2.LINE_AA, 4)


def _die(img: np.ndarray, c: tuple[float, float], value: int, rng: np.random.Generator) -> None:
    s = 0.55 * CW
    body = _jitter((235, 235, 235) if rng.random() < 0.6 else (40, 40, 160), rng, 10)
    pip = (20, 20, 20) if sum(body) > 400 else (240, 240, 240)
    box = cv2.boxPoints(((c[0], c[1]), (s, s), float(rng.uniform(0, 90))))
    cv2.fillPoly(img, [np.round(box).astype(np.int32)], body, cv2.LINE_AA)
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)], 5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[value]
    for dx, dy in spots:
        cv2.circle(img, (int(c[0] + dx * s / 4), int(c[1] + dy * s / 4)), max(1, int(s / 10)), pip, -1, cv2.LINE_AA)


def _cube(img: np.ndarray, c: tuple[float, float], rng: np.random.Generator) -> None:
    s = 0.7 * CW
    cv2.rectangle(img, (int(c[0] - s / 2), int(c[1] - s / 2)), (int(c[0] + s / 2), int(c[1] + s / 2)),
                  _jitter((230, 230, 230), rng, 10), -1)
    for dx in (-0.2, 0.15):  # the "64" on its face, as two strokes
        cv2.line(img, (int(c[0] + dx * s), int(c[1] - s / 4)), (int(c[0] + dx * s), int(c[1] + s / 4)), (20, 20, 20), 1)


@dataclass(frozen=True)
class _Plan:
    """What the camera adds to a board whatever the position on it: drawn from the seed's camera generator
    alone, so it is the same for every frame of one board's video and is made once per seed (a frame then costs
    its board drawing and warp, 25 of the 86 ms a 1280x720 render took: the per-pixel noise draw was half)."""

    hm: np.ndarray  # flat board -> picture
    interpolation: int  # the warp's: INTER_AREA where the board is drawn smaller than flat
    table: np.ndarray  # float32 HxWx3, the table around the board
    mask: np.ndarray  # uint8 HxW, 1 where the board is
    light: np.ndarray  # float32 HxW, the lighting gradient (multiplied in)
    glare: np.ndarray | None  # float32 HxW, added
    blur: float
    noise: np.ndarray | None  # float32 HxWx3, added


_PLANS: dict[tuple, _Plan] = {}
_PLANS_KEPT = 2  # a game renders one seed at a time; 2 plans of 1280x720 are ~80 MB
_PLANS_LOCK = threading.Lock()  # simulated cameras of several boards may render in threads


def _camera_plan(seed: int, flat_size: tuple[int, int], o: Options) -> _Plan:
    key = (seed, flat_size, o.size, o.fill, o.rotate, o.perspective, o.gradient, o.glare, o.blur, o.noise, o.keystone)
    with _PLANS_LOCK:
        plan = _PLANS.get(key)
    if plan is None:
        plan = _make_plan(np.random.default_rng([seed, 2]), flat_size, o)
        for a in (plan.hm, plan.table, plan.mask, plan.light, plan.glare, plan.noise):
            if a is not None:
                a.setflags(write=False)  # shared by every frame: a frame copies what it changes
        with _PLANS_LOCK:
            while len(_PLANS) >= _PLANS_KEPT:
                del _PLANS[next(iter(_PLANS))]
            _PLANS[key] = plan
    return plan


def _make_plan(rng: np.random.Generator, flat_size: tuple[int, int], o: Options) -> _Plan:
    # the draws in the order a frame used to make them, so a seed gives the same picture as before
    W, H = o.size
    fw, fh = flat_size
    scale = min(o.fill * W / fw, o.fill * H / fh)
    src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
    centre = np.array([W / 2 + rng.uniform(-0.04, 0.04) * W, H / 2 + rng.uniform(-0.03, 0.03) * H])
    ang = np.deg2rad(rng.uniform(-o.rotate, o.rotate))
    rot = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]])
    dst = (src - [fw / 2, fh / 2]) * scale * 0.97 @ rot.T + centre
    dst += rng.uniform(-o.perspective, o.perspective, (4, 2)) * [fw * scale, fh * scale]
    if o.keystone:  # no draw: a seed's picture without keystone stays the same
        dst[:2] += (dst[[1, 0]] - dst[:2]) * (o.keystone / 2)
        dst[:2] += (dst[[3, 2]] - dst[:2]) * (o.keystone / 2)  # and foreshortened: the far half looks shorter
    hm = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    table = np.empty((H, W, 3), np.float32)
    table[:] = _jitter((150, 160, 170), rng, 60)
    table += cv2.resize(rng.normal(0, 10, (H // 8 + 1, W // 8 + 1)).astype(np.float32), (W, H))[:, :, None]
    mask = (cv2.warpPerspective(np.ones((fh, fw), np.uint8), hm, (W, H)) > 0).astype(np.uint8)
    xx = np.arange(W, dtype=np.float32)[None, :]  # broadcast: the same values as full grids, a row and a column
    yy = np.arange(H, dtype=np.float32)[:, None]
    g = rng.uniform(-o.gradient, o.gradient, 2)
    # float32, as the frame: numpy's float64 scalars made these float64, and each frame's multiply and add then ran
    # in float64 (1280x720: 7.3 and 6.6 ms against 4.2 and 4.1)
    light = (1.0 + g[0] * (xx / W - 0.5) + g[1] * (yy / H - 0.5)).astype(np.float32)
    glare = None
    if o.glare:
        gx, gy, gs = rng.uniform(0.2, 0.8) * W, rng.uniform(0.2, 0.8) * H, rng.uniform(0.05, 0.12) * W
        glare = (rng.uniform(25, 60) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * gs * gs))).astype(np.float32)
    blur = float(rng.uniform(0.3, o.blur)) if o.blur > 0 else 0.0
    noise = gaussian(rng, float(rng.uniform(0.5, o.noise)), (H, W, 3)) if o.noise > 0 else None
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return _Plan(hm, interpolation, table, mask, light, glare, blur, noise)


_LEVELS = 1 << 16


@cache
def _normal_quantiles() -> np.ndarray:
    """The standard normal's quantiles at the middles of 65,536 equal slices of probability (float32, 15 ms once)."""
    normal = NormalDist()
    return np.array([normal.inv_cdf((i + 0.5) / _LEVELS) for i in range(_LEVELS)], np.float32)


def gaussian(rng: np.random.Generator, sigma: float, shape: tuple[int, ...]) -> np.ndarray:
    """Gaussian noise, float32, mean 0: a uniform 16-bit draw per value looked up in the normal's quantiles. The
    same distribution as ``rng.normal`` to 1/65,536 of probability (the tails end at 4.3 sigma), in a fifth of its
    time (640x360x3: 3 ms against 17; a camera's noise was most of the time it took to set one up)."""
    return (_normal_quantiles() * np.float32(sigma))[rng.integers(0, _LEVELS, shape, dtype=np.uint16)]


def _camera(flat: np.ndarray, quad: np.ndarray, o: Options, seed: int,
            hand_rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    W, H = o.size
    fh, fw = flat.shape[:2]
    plan = _camera_plan(seed, (fw, fh), o)
    warped = cv2.warpPerspective(flat, plan.hm, (W, H), flags=plan.interpolation)
    img = plan.table.copy()
    # the board over the table, in place (numpy's copyto with where= took 3.6 ms of a 16 ms frame at 640x360)
    cv2.copyTo(warped.astype(np.float32), plan.mask, img)
    corners = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), plan.hm).reshape(4, 2)
    if o.hand:  # its own generator, so a hand changes nothing else in the picture
        _hand(img, corners, hand_rng, o.hand_offset)
    img *= plan.light[:, :, None]
    if plan.glare is not None:
        img += plan.glare[:, :, None]
    if o.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), plan.blur)
    if plan.noise is not None:
        img += plan.noise
    return np.clip(img, 0, 255, out=img).astype(np.uint8), corners.astype(np.float32)


def _hand(img: np.ndarray, corners: np.ndarray, rng: np.random.Generator, offset: float) -> None:
    """A skin-coloured forearm and hand reaching in from the near edge, over the board."""
    tone = rng.uniform(0.6, 1.1)  # darker and lighter skin, same hue
    skin = _jitter((int(120 * tone), int(160 * tone), int(215 * tone)), rng, 8)
    bl, br, tl = corners[3], corners[2], corners[0]
    along = rng.uniform(0.15, 0.85) + offset
    start = bl + (br - bl) * along + (bl - tl) * 0.35
    reach = rng.uniform(0.35, 0.7) + offset
    end = bl + (br - bl) * np.clip(along + rng.uniform(-0.15, 0.15), 0, 1) + (tl - bl) * reach
    width = float(np.linalg.norm(br - bl)) * rng.uniform(0.07, 0.1)
    pts = np.array([start, end], np.int32)
    cv2.line(img, tuple(int(v) for v in pts[0]), tuple(int(v) for v in pts[1]), skin, int(width), cv2.LINE_AA)
    cv2.circle(img, tuple(int(v) for v in end), int(width * 0.9), tuple(v * 0.95 for v in skin), -1, cv2.LINE_AA)


# -- the board kinds of issue 33 -----------------------------------------------------------------------------
def _field_pattern(img: np.ndarray, pattern: str, box: tuple[int, int, int, int], field_c: Colour,
                   rng: np.random.Generator) -> None:
    """The field's own texture beyond the grain: cork's granules, a painted field's pictures, mosaic tiles,
    an inlay's stripes, leather's creases."""
    x0, y0, w, h = box
    area = img[y0:y0 + h, x0:x0 + w]
    base = np.array(field_c, np.float32)
    if pattern == "cork":  # granules a few pixels across, darker and lighter, blurred a little
        g0: np.ndarray = rng.normal(0, 1, (h // 3 + 1, w // 3 + 1)).astype(np.float32)
        g = cv2.GaussianBlur(cv2.resize(g0, (w, h), interpolation=cv2.INTER_NEAREST), (0, 0), 0.8)
        area += (28 * g)[:, :, None]
        for _ in range(int(w * h / 900)):  # dark pits
            cv2.circle(area, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), int(rng.integers(1, 3)),
                       tuple(float(v) * 0.55 for v in base), -1, cv2.LINE_AA)
    elif pattern == "painted":  # stars, animals (ellipses with a head), rings: pictures on the field
        for _ in range(int(rng.integers(10, 18))):
            cx, cy = rng.uniform(0, w), rng.uniform(0, h)
            s = rng.uniform(0.3, 0.8) * CW
            kind = rng.integers(3)
            colour = tuple(float(v) for v in _jitter((40, 60, 120) if rng.random() < 0.5 else (140, 60, 40), rng, 30))
            if kind == 0:
                star = [(cx + s * np.cos(a) * (1 if i % 2 == 0 else 0.45), cy + s * np.sin(a) * (1 if i % 2 == 0 else 0.45))
                        for i, a in enumerate(np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:-1])]
                cv2.polylines(area, [np.round(np.array(star)).astype(np.int32)], True, colour, 1, cv2.LINE_AA)
            elif kind == 1:
                cv2.ellipse(area, (int(cx), int(cy)), (int(s), int(0.6 * s)), float(rng.uniform(0, 180)), 0, 360,
                            colour, int(rng.integers(1, 3)), cv2.LINE_AA)
                cv2.circle(area, (int(cx + s), int(cy - 0.4 * s)), int(0.35 * s), colour, 1, cv2.LINE_AA)
            else:
                cv2.circle(area, (int(cx), int(cy)), int(0.45 * CW * rng.uniform(0.7, 1.1)), colour, 1, cv2.LINE_AA)
    elif pattern == "mosaic":  # square tiles of jittered colours between grout lines
        t = int(rng.integers(5, 9))
        tiles = rng.normal(0, 18, (h // t + 1, w // t + 1, 3)).astype(np.float32)
        area += cv2.resize(tiles, (w, h), interpolation=cv2.INTER_NEAREST)[:h, :w]
        area[::t] *= 0.7
        area[:, ::t] *= 0.7
    elif pattern == "inlay":  # stripes of wood across the field, each its own tone
        for x in range(0, w, int(rng.integers(10, 18))):
            area[:, x:x + 1] *= 0.8
            area[:, x + 1:x + 9] += float(rng.normal(0, 10))
    elif pattern == "felt":
        g = rng.normal(0, 1, (h, w)).astype(np.float32)
        area += (6 * cv2.GaussianBlur(g, (0, 0), 1.0))[:, :, None]
    elif pattern == "leather":  # creases: thin dark curves
        for _ in range(int(rng.integers(15, 30))):
            pts = np.cumsum(rng.normal(0, 4, (6, 2)), axis=0) + [rng.uniform(0, w), rng.uniform(0, h)]
            cv2.polylines(area, [np.round(pts).astype(np.int32)], False, tuple(float(v) * 0.8 for v in base), 1,
                          cv2.LINE_AA)
    elif pattern == "grain":  # pronounced wood grain along the points
        g = rng.normal(0, 1, (h // 8 + 1, w)).astype(np.float32)
        area += (10 * cv2.resize(cv2.GaussianBlur(g, (0, 0), 0.7), (w, h)))[:, :, None]


def _kind_point(img: np.ndarray, tri: np.ndarray, colour: Colour, pattern: str, rng: np.random.Generator) -> None:
    """One point of a kind's board: line art (painted), tiles (mosaic), inlaid stripes with a border (inlay),
    wood (grain) or filled with a texture like the field's."""
    pts = np.round(tri * 16).astype(np.int32)
    if pattern == "painted" and rng.random() < 0.5:  # line art: the outline only, with a dot or two inside
        cv2.polylines(img, [pts], True, colour, 2, cv2.LINE_AA, shift=4)
        cx, cy = float(tri[:, 0].mean()), float(tri[:, 1].mean())
        cv2.circle(img, (int(cx), int(cy)), int(rng.integers(2, 5)), colour, -1, cv2.LINE_AA)
        return
    x0, y0 = int(tri[:, 0].min()) - 1, int(tri[:, 1].min()) - 1
    x1, y1 = int(np.ceil(tri[:, 0].max())) + 2, int(np.ceil(tri[:, 1].max())) + 2
    h, w = img.shape[:2]
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    box = img[y0:y1, x0:x1]
    mask = np.zeros(box.shape[:2], np.uint8)
    cv2.fillPoly(mask, [pts - [16 * x0, 16 * y0]], 255, cv2.LINE_AA, shift=4)
    fill = np.empty_like(box)
    fill[:] = colour
    bh, bw = box.shape[:2]
    if pattern == "mosaic":
        t = int(rng.integers(4, 8))
        fill += cv2.resize(rng.normal(0, 22, (bh // t + 1, bw // t + 1, 3)).astype(np.float32), (bw, bh),
                           interpolation=cv2.INTER_NEAREST)[:bh, :bw]
        fill[::t] *= 0.75
        fill[:, ::t] *= 0.75
    elif pattern in ("inlay", "grain", "cork"):
        g = rng.normal(0, 1, (bh // 6 + 1, bw)).astype(np.float32)
        fill += (12 * cv2.resize(g, (bw, bh)))[:, :, None]
        if pattern == "cork":
            fill += (20 * cv2.resize(rng.normal(0, 1, (bh // 3 + 1, bw // 3 + 1)).astype(np.float32), (bw, bh),
                                     interpolation=cv2.INTER_NEAREST))[:, :, None]
    else:
        fill += (5 * rng.normal(0, 1, (bh, bw)).astype(np.float32))[:, :, None]
    a = (mask.astype(np.float32) / 255.0)[:, :, None]
    box *= 1 - a
    box += fill * a
    if pattern == "inlay":  # a light border inlaid round the point
        cv2.polylines(img, [pts], True, (170.0, 210.0, 235.0), 1, cv2.LINE_AA, shift=4)


def _kind_checker(img: np.ndarray, c: tuple[float, float], colour: Colour, finish: str, rng: np.random.Generator,
                  raised: int = 0) -> None:
    """A checker of KIND_CHECKERS: wooden (grain, a thin dark rim), glossy (a strong highlight, little rim),
    translucent (the board shows through, faint rim), pearl (low contrast, a sheen)."""
    r = CW / 2 - 1 + rng.uniform(-0.6, 0.3)
    cx, cy = c[0] + rng.uniform(-1.5, 1.5) + 2 * raised, c[1] + rng.uniform(-1, 1)
    p = (int(round(cx * 16)), int(round(cy * 16)))
    cv2.circle(img, (p[0] + 24, p[1] + 32), int(r * 16), (0, 0, 0), -1, cv2.LINE_AA, 4)  # shadow
    h, w = img.shape[:2]
    x0, y0 = max(0, p[0] // 16 - int(r) - 2), max(0, p[1] // 16 - int(r) - 2)
    x1, y1 = min(w, p[0] // 16 + int(r) + 3), min(h, p[1] // 16 + int(r) + 3)
    box = img[y0:y1, x0:x1]
    bh, bw = box.shape[:2]
    mask = np.zeros((bh, bw), np.uint8)
    cv2.circle(mask, (p[0] - 16 * x0, p[1] - 16 * y0), int(r * 16), 255, -1, cv2.LINE_AA, 4)
    a = (mask.astype(np.float32) / 255.0)[:, :, None]
    disc = np.empty_like(box)
    disc[:] = colour
    if finish == "wood":
        ang = rng.uniform(0, np.pi)
        yy, xx = np.mgrid[0:bh, 0:bw].astype(np.float32)
        t = xx * np.cos(ang) + yy * np.sin(ang)
        disc += (14 * np.sin(t * rng.uniform(0.6, 1.1) + rng.uniform(0, 6)))[:, :, None]
    elif finish == "translucent":
        disc = 0.5 * box + 0.5 * disc
    elif finish == "pearl":
        yy, xx = np.mgrid[0:bh, 0:bw].astype(np.float32)
        disc += (10 * np.sin((xx + yy) * 0.4))[:, :, None] * np.array([1.0, 0.6, 0.3], np.float32)
    box *= 1 - a
    box += disc * a
    rim_k = {"wood": 0.6, "glossy": 0.85, "translucent": 0.8, "pearl": 0.9}[finish]
    cv2.circle(img, p, int((r - 1) * 16), tuple(v * rim_k for v in colour), 1, cv2.LINE_AA, 4)
    if finish == "glossy":
        hl = (int(p[0] - r * 5), int(p[1] - r * 5))
        cv2.ellipse(img, hl, (int(r * 6), int(r * 3)), -35, 0, 360, (235, 240, 245), -1, cv2.LINE_AA, 4)
    elif finish == "wood":
        cv2.circle(img, p, int(r * 0.6 * 16), tuple(v * 0.8 for v in colour), 1, cv2.LINE_AA, 4)


def _objects(img: np.ndarray, objects: tuple[tuple[str, int, float], ...], light_home: str, col_x: list[float],
             y0: float, fh: float, rng: np.random.Generator) -> None:
    """Things standing on points: a dice cup seen from above (a wide dark disc with its open mouth's rim), a
    die, the cube, a phone."""
    top_pts, bottom_pts = columns_to_points(light_home)
    for kind, point, slot in objects:
        if point in top_pts:
            j, top = top_pts.index(point), True
        else:
            j, top = bottom_pts.index(point), False
        cx = col_x[j] + rng.uniform(-2, 2)
        d = (slot + 0.5) * CW
        cy = y0 + d if top else y0 + fh - d
        if kind == "cup":
            r = CW * rng.uniform(0.75, 0.95)
            body = _jitter((30, 30, 35) if rng.random() < 0.6 else (35, 60, 110), rng, 10)
            cy += (r - CW / 2) * (1 if top else -1)
            cv2.circle(img, (int(cx + 3), int(cy + 4)), int(r), (0, 0, 0), -1, cv2.LINE_AA)
            cv2.circle(img, (int(cx), int(cy)), int(r), body, -1, cv2.LINE_AA)
            cv2.circle(img, (int(cx), int(cy)), int(r * 0.8), tuple(min(255.0, v * 1.6 + 25) for v in body), 2,
                       cv2.LINE_AA)
            cv2.circle(img, (int(cx), int(cy)), int(r * 0.7), tuple(v * 0.5 for v in body), -1, cv2.LINE_AA)
        elif kind == "die":
            _die(img, (cx, cy), int(rng.integers(1, 7)), rng)
        elif kind == "cube":
            _cube(img, (cx, cy), rng)
        elif kind == "phone":
            w, h = 1.4 * CW, 2.8 * CW
            cy += (h / 2 - CW / 2) * (1 if top else -1)
            box = cv2.boxPoints(((cx, cy), (w, h), float(rng.uniform(-15, 15))))
            cv2.fillPoly(img, [np.round(box).astype(np.int32)], (25, 25, 25), cv2.LINE_AA)
            inner = cv2.boxPoints(((cx, cy), (w * 0.85, h * 0.85), float(rng.uniform(-15, 15))))
            cv2.fillPoly(img, [np.round(inner).astype(np.int32)], _jitter((90, 70, 60), rng, 30), cv2.LINE_AA)
        else:
            raise ValueError(f"unknown object {kind!r} (known: {', '.join(OBJECTS)})")
