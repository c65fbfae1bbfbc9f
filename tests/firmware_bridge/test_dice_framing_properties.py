"""Properties of the frame parser, checked with Hypothesis: how bytes are cut into reads never matters, and
noise before a frame never costs the frame."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge.framing import FrameParser, Line, encode_frame

payloads = st.builds(
    lambda seq, d1, d2, s1, s2: f"ROLL,{seq},{d1},{d2},{s1},{s2}",
    st.integers(0, 65535), st.integers(1, 6), st.integers(1, 6), st.sampled_from("FC"), st.sampled_from("FC"),
)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300), st.lists(st.integers(0, 300), max_size=10))
def test_cutting_the_stream_into_reads_changes_nothing(data: bytes, cuts: list[int]) -> None:
    whole = FrameParser().feed(data)
    parser = FrameParser()
    pieces = []
    last = 0
    for cut in sorted(c % (len(data) + 1) for c in cuts):
        pieces.append(data[last:cut])
        last = cut
    pieces.append(data[last:])
    assert [item for piece in pieces for item in parser.feed(piece)] == whole


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200).map(lambda b: b.replace(b"$", b"")), payloads, payloads)
def test_noise_before_a_frame_never_costs_it(noise: bytes, first: str, second: str) -> None:
    out = FrameParser().feed(noise + encode_frame(first) + noise + encode_frame(second))
    assert [item for item in out if isinstance(item, Line)] == [Line(first), Line(second)]


@settings(max_examples=300, deadline=None)
@given(payloads, st.data())
def test_every_single_bit_flip_is_caught(payload: str, data: st.DataObject) -> None:
    frame = bytearray(encode_frame(payload))
    position = data.draw(st.integers(0, len(frame) - 1))
    frame[position] ^= 1 << data.draw(st.integers(0, 7))
    out = FrameParser().feed(bytes(frame) + encode_frame("HB,1,-"))
    assert Line(payload) not in out
    assert out[-1] == Line("HB,1,-")  # and the next frame is still read
