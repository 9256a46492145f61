"""A video's frames with their own time stamps, as luma and chroma planes, within limits.

Files, devices and streams are read through PyAV (FFmpeg): a file by its path, a USB
camera by its device (``/dev/video0``, read as V4L2), a network camera by its URL
(``rtsp://``, ``http://``). Each frame comes as its planes (Y at full resolution, U
and V at half: the decoder's own layout, so no colour conversion is paid for a frame),
with its presentation time in seconds (the stream's own clock: variable frame rates
are read as they are), and with how the stream codes its colour (:mod:`carom.video.colours`):
the matrix the stream names, or, named by none, FFmpeg's and players' convention (BT.709 for
pictures :data:`HD_HEIGHT` lines high or more, BT.601 below); full range for a stream
marked so or decoded to a ``yuvj`` format (a webcam's MJPEG), limited otherwise.

Interlaced video (a broadcast's 1080i: each picture woven from two fields taken half a frame
apart, so a moving ball shows twice, a comb of two half-pictures) is read field by field:
every picture the decoder marks interlaced gives two frames, one per field, at the field's own
time (the first field at the picture's time, the second halfway to the next picture's), each
holding only its field's own rows (:attr:`Frame.field`: nothing interpolated, half the rows to
read; :meth:`Frame.whole` fills the others in for the work that needs the whole picture).
Such a video gives twice as many frames as pictures; progressive video is read as decoded,
untouched.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import av
import cv2
import numpy as np
import numpy.typing as npt

from carom.video.colours import REFERENCE, Coding
from carom.video.errors import VideoError

Plane = npt.NDArray[np.uint8]

MAX_WIDTH = 3840
MAX_HEIGHT = 2160
"""The largest picture read (4K UHD): a frame's planes fill 12 MB at most."""
MAX_SECONDS = 6 * 3600.0
"""The longest video read: a match day."""
MAX_GAP = 2.0
"""Seconds between two frames beyond which a stream counts as having stopped."""
FIRST_FIELD = {2: 0, 5: 0, 3: 1, 4: 1}
"""The field shown first (0 the top one, the picture's even rows; 1 the bottom one), by the
stream's field order (FFmpeg's ``AVFieldOrder``: top first for ``TT`` and ``BT``, bottom
first for ``BB`` and ``TB``); a stream that names none is read top field first, as HD
broadcasts are. The decoder's own mark on each picture is not trusted: H.264 without timing
messages leaves it unset, read as bottom first, and a ball then steps back and forth between
fields."""
HD_HEIGHT = 720
"""Pictures this many lines high or more whose stream names no colour matrix are read as
BT.709's (HD), lower ones as BT.601's: FFmpeg's and players' convention."""
MATRICES = {1: "BT.709", 5: "BT.601", 6: "BT.601", 9: "BT.2020", 10: "BT.2020", 4: "FCC", 7: "SMPTE 240M"}
"""The colour matrices FFmpeg names (``AVColorSpace``) that are read; any other (unspecified,
reserved) is taken by the picture's height (:data:`HD_HEIGHT`)."""
COLOUR_RANGES = {False: 1, True: 2}
"""FFmpeg's ``AVColorRange`` of limited (MPEG) and full (JPEG) levels, by whether full."""


@dataclass(frozen=True, slots=True)
class Frame:
    index: int
    """Counted from 0 in the order decoded (a field of interlaced video counts as one)."""
    time: float
    """Presentation time, s, from the first frame."""
    y: Plane
    u: Plane
    v: Plane
    coding: Coding = REFERENCE
    """How the planes code colour (:meth:`recoded` brings them to :data:`REFERENCE`)."""
    field: int | None = None
    """None for a whole picture; 0 or 1 for one field of an interlaced picture, the planes
    holding only that field's rows: a row ``r`` of them is the picture's row ``2 r + field``
    (in the chroma planes as in luma)."""

    @property
    def width(self) -> int:
        return int(self.y.shape[1])

    @property
    def height(self) -> int:
        """The whole picture's height (twice a field's rows)."""
        return int(self.y.shape[0]) * (1 if self.field is None else 2)

    def whole(self) -> Frame:
        """The frame as a whole picture (itself when it is one): a field's rows in their
        place in the picture, each row between two of them their mean (the last one a copy
        of its neighbour). For the work done on whole pictures (the table, the camera's
        moves, the score box, stills); the balls are looked for in the field's own rows."""
        if self.field is None:
            return self
        y, u, v = (_filled_in(plane, self.field) for plane in (self.y, self.u, self.v))
        return Frame(self.index, self.time, y, u, v, self.coding)

    def recoded(self) -> Frame:
        """The frame with its planes coded as :data:`REFERENCE` (itself when they are): luma
        mapped with its 2 × 2 pixels' chroma, chroma at its own size (luma weighs nothing in
        it), rounded, clipped to 0–255."""
        levels = self.coding.to_reference()
        if levels is None:
            return self
        affine = levels.affine
        h, w = self.y.shape
        up = [cv2.resize(plane, (w, h), interpolation=cv2.INTER_NEAREST) for plane in (self.u, self.v)]
        y = cv2.transform(cv2.merge((self.y, *up)), affine[:1])
        chroma = cv2.transform(cv2.merge((self.y[::2, ::2], self.u, self.v)), affine[1:])
        return Frame(self.index, self.time, np.asarray(y, np.uint8), np.ascontiguousarray(chroma[:, :, 0]),
                     np.ascontiguousarray(chroma[:, :, 1]))

    def bgr(self) -> npt.NDArray[np.uint8]:
        """The frame in colour, whole (for finding the table; tracking reads the planes)."""
        if self.field is not None:
            return self.whole().bgr()
        if self.coding != REFERENCE:
            return self.recoded().bgr()
        h, w = self.y.shape
        i420 = np.concatenate((self.y, self.u.reshape(h // 4, w), self.v.reshape(h // 4, w)))
        return np.asarray(cv2.cvtColor(i420, cv2.COLOR_YUV2BGR_I420), dtype=np.uint8)


def _filled_in(rows: Plane, field: int) -> Plane:
    """A field's plane at twice its height: its rows at ``2 r + field``, each other row the
    mean of the field's rows above and below it, a row with one neighbour only
    a copy of it."""
    h, w = rows.shape
    out = np.empty((2 * h, w), np.uint8)
    out[field::2] = rows
    between = np.empty_like(rows)
    between[:-1] = cv2.addWeighted(rows[:-1], 0.5, rows[1:], 0.5, 0.0) if h > 1 else rows[:0]
    between[-1] = rows[-1]
    if field == 0:
        out[1::2] = between  # row 2r + 1 lies between field rows r and r + 1
    else:
        out[0] = rows[0]
        out[2::2] = between[:-1]  # row 2r + 2 lies between field rows r and r + 1
    return out


def median_frame(frames: Sequence[Frame]) -> Frame:
    """The per-pixel median of a few frames of one camera, plane by plane: what stood still
    (people walking past drop out), as the first frame's index, time and coding."""
    def median(planes: list[Plane]) -> Plane:
        if len(planes) == 1:
            return planes[0]
        return np.asarray(np.round(np.median(np.stack(planes), axis=0)), dtype=np.uint8)
    first = frames[0]
    return Frame(first.index, first.time, median([f.y for f in frames]), median([f.u for f in frames]),
                 median([f.v for f in frames]), first.coding)


def from_bgr(index: int, time: float, image: npt.NDArray[np.uint8]) -> Frame:
    """A frame from a colour picture (even width and height)."""
    h, w = image.shape[:2]
    i420 = cv2.cvtColor(image[: h - h % 2, : w - w % 2], cv2.COLOR_BGR2YUV_I420)
    hh, ww = h - h % 2, w - w % 2
    y = i420[:hh]
    u = i420[hh: hh + hh // 4].reshape(hh // 2, ww // 2)
    v = i420[hh + hh // 4:].reshape(hh // 2, ww // 2)
    return Frame(index, time, np.ascontiguousarray(y), np.ascontiguousarray(u), np.ascontiguousarray(v))


def open_container(source: str, live: bool = False) -> av.container.InputContainer:
    """Open a file, device or URL, or say plainly why not."""
    options = {"rw_timeout": "10000000"} if live and "://" in source else {}
    fmt = "v4l2" if source.startswith("/dev/video") else None
    if not live and "://" not in source and not Path(source).is_file():
        raise VideoError("no such file", source)
    try:
        return av.open(source, format=fmt, options=options, timeout=10.0 if live else None)
    except av.error.FFmpegError as error:
        raise VideoError(f"cannot be read as a video ({_reason(error)})", source) from None
    except OSError as error:
        raise VideoError(f"cannot be opened ({error.strerror or error})", source) from None


def _reason(error: BaseException) -> str:
    text = getattr(error, "strerror", None) or str(error)
    return str(text).rstrip(".")


def read_frames(source: str, live: bool = False, threads: int | None = None) -> Iterator[Frame]:
    """Every frame of ``source`` in order, with its time from the first frame.

    Raises :class:`VideoError` naming the source, the frame and its time when the
    video cannot be opened, has no picture, is too large or too long, or breaks off
    (a damaged or truncated file, a stream that stops); the frames before are yielded.
    """
    container = open_container(source, live)
    try:
        if not container.streams.video:
            raise VideoError("holds no video picture (no video stream)", source)
        stream = container.streams.video[0]
        _check_size(stream.codec_context.width, stream.codec_context.height, source)
        if threads is not None:
            stream.codec_context.thread_count = threads
            stream.thread_type = "SLICE" if threads == 1 else "AUTO"
        else:
            stream.thread_type = "AUTO"
        yield from _decoded(container, stream, source, live)
    finally:
        container.close()


def _check_size(width: int, height: int, source: str) -> None:
    if width > MAX_WIDTH or height > MAX_HEIGHT:
        raise VideoError(f"pictures of {width}×{height} pixels: at most {MAX_WIDTH}×{MAX_HEIGHT} are read",
                         source)


def _decoded(container: av.container.InputContainer, stream: av.video.stream.VideoStream, source: str,
             live: bool) -> Iterator[Frame]:
    first: float | None = None
    index = 0
    last_time = 0.0
    pictures = _fields(_pictures(container, stream), stream)
    while True:
        try:
            picture, stamp, field = next(pictures)
        except StopIteration:
            break
        except av.error.FFmpegError as error:
            raise VideoError(f"the video breaks off ({_reason(error)}); everything before it is kept", source,
                             index, last_time) from None
        if first is None:
            first = stamp
        t = stamp - first
        if t <= last_time and index:
            continue  # a repeated or out-of-order time stamp: the frame adds nothing
        if t > MAX_SECONDS:
            raise VideoError(f"longer than {MAX_SECONDS / 3600:g} hours: the rest is not read", source,
                             index, t)
        if live and index and t - last_time > MAX_GAP:
            raise VideoError(f"the stream stopped for {t - last_time:.1f} s", source, index, t)
        yield _planes(picture, index, t, source, field)
        index += 1
        last_time = t
    if index == 0:
        raise VideoError("holds no picture that could be decoded", source)


def _pictures(container: av.container.InputContainer,
              stream: av.video.stream.VideoStream) -> Iterator[av.VideoFrame]:
    """The stream's pictures as decoded (FFmpeg's errors pass through)."""
    for packet in container.demux(stream):
        yield from packet.decode()


Field = tuple[av.VideoFrame, float, int | None]
"""A picture, the time it is read at (s, the stream's clock) and which of its fields is
read (None: the whole picture)."""


def _fields(pictures: Iterator[av.VideoFrame], stream: av.video.stream.VideoStream) -> Iterator[Field]:
    """Each picture with a time stamp, as it is when not marked interlaced; one marked so as
    its two fields, the first (as :data:`FIRST_FIELD` says) at the picture's time, the second
    halfway to the next picture's (after the last picture, as far after it as the one before
    was). A picture is held until the next one is decoded."""
    order = FIRST_FIELD.get(stream.codec_context.field_order, 0)
    held: av.VideoFrame | None = None
    held_time = step = 0.0
    for picture in pictures:
        if picture.time is None:
            continue
        t = float(picture.time)
        if held is not None:
            step = t - held_time
            yield from _read_as(held, held_time, step, order)
        held, held_time = picture, t
    if held is not None:
        yield from _read_as(held, held_time, step, order)


def _read_as(picture: av.VideoFrame, t: float, step: float, order: int) -> Iterator[Field]:
    """``picture`` read whole at ``t``, or, marked interlaced, its fields at ``t`` and half
    ``step`` later (``order``: the field shown first)."""
    if not picture.interlaced_frame:
        yield picture, t, None
        return
    yield picture, t, order
    yield picture, t + step / 2.0, 1 - order


def coding_of(picture: av.VideoFrame, device: bool = False) -> Coding:
    """How a YUV ``picture``'s planes code colour: the matrix it names, or by its height
    (:data:`HD_HEIGHT`), or, from a USB camera (``device``, read as V4L2), BT.601's at any
    height (the USB video class's default matrix, SMPTE 170M's, which such a camera's raw
    YUV does not name); full range when marked so or in a ``yuvj`` format."""
    matrix = MATRICES.get(int(picture.colorspace))
    if matrix is None:
        matrix = "BT.709" if picture.height >= HD_HEIGHT and not device else "BT.601"
    full = picture.format.name.startswith("yuvj") or int(picture.color_range) == COLOUR_RANGES[True]
    return Coding(matrix, full)


def _planes(picture: av.VideoFrame, index: int, t: float, source: str, field: int | None = None) -> Frame:
    """The frame of ``picture`` (of one of its fields: ``field``), as Y, U and V planes
    with U and V at half its width and height."""
    if picture.format.is_rgb:  # coded by the conversion itself
        picture = picture.reformat(format="yuv420p", dst_colorspace=5, dst_color_range=1)
        coding = REFERENCE
    else:
        if field is not None and picture.format.name in ("yuv422p", "yuvj422p"):
            return _field_planes_422(picture, index, t, source, field)
        if field is not None and picture.format.name not in ("yuv420p", "yuvj420p"):
            return _field_planes(picture.reformat(format="yuv444p"), index, t, source, field)
        if picture.format.name not in ("yuv420p", "yuvj420p"):
            picture = picture.reformat(format="yuv420p")  # its levels as libswscale leaves them, marked on it
        coding = coding_of(picture, device=source.startswith("/dev/video"))
    even = 2 if field is None else 4  # a field's planes: an even number of rows (chroma at half)
    h, w = picture.height - picture.height % even, picture.width - picture.width % 2
    y = _plane(picture.planes[0], h, w, field)
    u = _plane(picture.planes[1], h // 2, w // 2, field)
    v = _plane(picture.planes[2], h // 2, w // 2, field)
    return Frame(index, t, y, u, v, coding, field)


def _field_planes(picture: av.VideoFrame, index: int, t: float, source: str, field: int) -> Frame:
    """The frame of one field of a picture whose chroma is at full height (4:4:4, converted
    from a format read no other way: a 10-bit 4:2:2 one, say): the field's own rows, its
    chroma halved within the field."""
    h, w = picture.height - picture.height % 4, picture.width - picture.width % 2
    y = _plane(picture.planes[0], h, w, field)
    u, v = (cv2.resize(_plane(picture.planes[k], h, w, field), (w // 2, h // 4), interpolation=cv2.INTER_AREA)
            for k in (1, 2))
    return Frame(index, t, y, u, v, coding_of(picture, device=source.startswith("/dev/video")), field)


def _field_planes_422(picture: av.VideoFrame, index: int, t: float, source: str, field: int) -> Frame:
    """The frame of one field of an 8-bit 4:2:2 picture as decoded (a studio's): its chroma
    has a row for each of the picture's, at half its width; the field's own rows of it,
    each two of them averaged into one. Nothing is converted (through 4:4:4, as other
    formats are read, a 1080i picture cost 8 ms of processor time for each of its fields)."""
    h, w = picture.height - picture.height % 4, picture.width - picture.width % 2
    y = _plane(picture.planes[0], h, w, field)
    u, v = (_rows_paired(_plane(picture.planes[k], h, w // 2, field)) for k in (1, 2))
    return Frame(index, t, y, u, v, coding_of(picture, device=source.startswith("/dev/video")), field)


def _rows_paired(rows: Plane) -> Plane:
    """Each two rows of ``rows`` (an even number) as their mean, rounded half up."""
    pairs = rows.reshape(rows.shape[0] // 2, 2, rows.shape[1]).astype(np.uint16)
    return np.asarray((pairs[:, 0] + pairs[:, 1] + 1) >> 1, dtype=np.uint8)


def _plane(plane: av.video.plane.VideoPlane, rows: int, columns: int, field: int | None = None) -> Plane:
    """The plane's first ``rows`` × ``columns`` (a field's: every other of those rows, from
    row ``field``), copied."""
    data = np.frombuffer(plane, dtype=np.uint8).reshape(-1, plane.line_size)
    kept = data[:rows, :columns] if field is None else data[field:rows:2, :columns]
    return np.ascontiguousarray(kept)


def describe(source: str) -> str:
    """The source's name for messages: a file's name, a device or URL as given."""
    return os.path.basename(source) if "://" not in source and not source.startswith("/dev/") else source
