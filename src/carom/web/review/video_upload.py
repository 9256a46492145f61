"""A video's upload read as it arrives: the form's small fields kept, its file written to
disk piece by piece, never whole in memory.

The form is ``multipart/form-data``; its fields before the file (the anti-forgery token
first) are read into memory, at most :data:`FIELD_BYTES` each. When the file's part
begins, the token must have come and be the session's: else nothing is written. The file
is written to ``target`` at most :data:`MAX_VIDEO` bytes; each piece of the body, once
written, is given back to the bodies' budget (:data:`carom.web.connections.SPILLED`), which
counts only what a process holds in memory.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from fastapi import Request

from carom.notation.words import N_
from carom.web.connections import SPILLED
from carom.web.shared.forms import FormError

MAX_VIDEO = 512 * 1024 * 1024
"""A video to review: ten minutes of 1080p at 6–7 Mbit/s is about 500 MB."""
FIELD_BYTES = 4096
MOST_FIELDS = 16


class Forged(Exception):
    """The file's part began without the session's anti-forgery token before it."""


@dataclass
class _Parts:
    """What the parser has seen so far (its callbacks fill it)."""

    token_ok: Callable[[str | None], bool]
    target: Path
    fields: dict[str, str] = field(default_factory=dict)
    headers: dict[str, bytes] = field(default_factory=dict)
    header_name: bytes = b""
    header_value: bytes = b""
    name: str = ""
    filename: str | None = None
    value: bytearray = field(default_factory=bytearray)
    pending: list[bytes] = field(default_factory=list)
    file: BinaryIO | None = None
    size: int = 0
    had_file: bool = False
    in_file: bool = False

    def callbacks(self) -> dict[str, Any]:
        return {"on_part_begin": self.part_begin, "on_header_field": self.header_field,
                "on_header_value": self.header_value_part, "on_header_end": self.header_end,
                "on_headers_finished": self.headers_finished, "on_part_data": self.part_data,
                "on_part_end": self.part_end}

    def part_begin(self) -> None:
        self.headers, self.name, self.filename, self.value = {}, "", None, bytearray()

    def header_field(self, data: bytes, start: int, end: int) -> None:
        self.header_name += data[start:end]

    def header_value_part(self, data: bytes, start: int, end: int) -> None:
        self.header_value += data[start:end]

    def header_end(self) -> None:
        self.headers[self.header_name.decode("latin-1").lower()] = self.header_value
        self.header_name, self.header_value = b"", b""

    def headers_finished(self) -> None:
        from python_multipart.multipart import parse_options_header

        _, options = parse_options_header(self.headers.get("content-disposition", b""))
        self.name = options.get(b"name", b"").decode("utf-8", "replace")
        filename = options.get(b"filename")
        self.filename = None if filename is None else filename.decode("utf-8", "replace")
        if self.name == "file":
            if not self.token_ok(self.fields.get("csrf")):
                raise Forged
            if self.had_file:
                raise FormError(N_("file: choose one video"))
            self.had_file = True
            self.fields["filename"] = (self.filename or "")[:200]
            self.file, self.in_file = self.target.open("wb"), True
        elif len(self.fields) >= MOST_FIELDS:
            raise FormError(N_("file: the form has too many fields"))

    def part_data(self, data: bytes, start: int, end: int) -> None:
        if self.in_file:
            self.size += end - start
            if self.size > MAX_VIDEO:
                raise FormError(N_("file: larger than %(mib)s MiB"), mib=MAX_VIDEO // 2**20)
            self.pending.append(data[start:end])
            return
        self.value += data[start:end]
        if len(self.value) > FIELD_BYTES:
            raise FormError(N_("%(field)s: longer than %(most)s bytes"), field=self.name[:40],
                            most=FIELD_BYTES)

    def part_end(self) -> None:
        if self.in_file:
            self.in_file = False
        else:
            self.fields[self.name] = self.value.decode("utf-8", "replace")


async def receive_video(request: Request, target: Path,
                        token_ok: Callable[[str | None], bool]) -> dict[str, str]:
    """Read the request's form, its file written to ``target``: the fields (and
    ``filename``, the file's own name). :class:`FormError` for a form without a file, an
    empty one or one too large; :class:`Forged` when the token did not come before the file.
    Whatever was written stays for the caller to remove."""
    from python_multipart.multipart import MultipartParser, parse_options_header

    kind, options = parse_options_header(request.headers.get("content-type", ""))
    boundary = options.get(b"boundary")
    if kind != b"multipart/form-data" or not boundary:
        raise FormError(N_("file: choose a video to review"))
    parts = _Parts(token_ok, target)
    parser = MultipartParser(boundary, parts.callbacks())
    spilled = request.scope.get(SPILLED)
    try:
        async for chunk in request.stream():
            parser.write(chunk)
            if parts.pending and parts.file is not None:
                pieces, parts.pending = parts.pending, []
                await asyncio.to_thread(parts.file.writelines, pieces)
            if spilled is not None:
                spilled(len(chunk))
        parser.finalize()
    finally:
        if parts.file is not None:
            parts.file.close()
    if not parts.had_file and not token_ok(parts.fields.get("csrf")):
        raise Forged
    if parts.size == 0:
        raise FormError(N_("file: choose a video to review"))
    return parts.fields
