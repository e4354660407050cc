"""Images for the read tool: type by magic bytes, size from the header, optional resizing.

Resizing to pi's limits (2000×2000, 4.5 MB of base64) uses Pillow when it is installed;
without it an image within the limits is sent as is and a larger one is omitted with pi's note.
"""

from __future__ import annotations

import base64
import io
import struct
from dataclasses import dataclass

MAX_WIDTH = 2000
MAX_HEIGHT = 2000
MAX_BASE64_BYTES = int(4.5 * 1024 * 1024)
OMITTED_NOTE = "[Image omitted: could not be resized below the inline image size limit.]"


def sniff_image_mime(head: bytes) -> str | None:
    """``image/png|jpeg|gif|webp`` from the first bytes of a file, else ``None``."""
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "image/gif"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    return None


def image_size(data: bytes, mime: str) -> tuple[int, int] | None:
    """(width, height) read from the image header, ``None`` when it cannot be parsed."""
    try:
        if mime == "image/png":
            return struct.unpack(">II", data[16:24])
        if mime == "image/gif":
            return struct.unpack("<HH", data[6:10])
        if mime == "image/webp":
            return _webp_size(data)
        if mime == "image/jpeg":
            return _jpeg_size(data)
    except struct.error:
        return None
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    if chunk == b"VP8X":
        w = int.from_bytes(data[24:27], "little") + 1
        h = int.from_bytes(data[27:30], "little") + 1
        return w, h
    if chunk == b"VP8L":
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if chunk == b"VP8 ":
        w, h = struct.unpack("<HH", data[26:30])
        return w & 0x3FFF, h & 0x3FFF
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE):
            h, w = struct.unpack(">HH", data[i + 5 : i + 9])
            return w, h
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            i += 2
            continue
        (length,) = struct.unpack(">H", data[i + 2 : i + 4])
        i += 2 + length
    return None


@dataclass
class PreparedImage:
    """What the read tool sends: base64 data, its type, and the original/displayed sizes."""

    data: str
    mime: str
    original: tuple[int, int] | None
    displayed: tuple[int, int] | None

    @property
    def resized(self) -> bool:
        return self.original is not None and self.original != self.displayed

    def dimension_note(self) -> str | None:
        """pi's coordinate-mapping note for a resized image."""
        if not self.resized or self.original is None or self.displayed is None:
            return None
        (ow, oh), (w, h) = self.original, self.displayed
        return (
            f"[Image: original {ow}x{oh}, displayed at {w}x{h}. "
            f"Multiply coordinates by {ow / w:.2f} to map to original image.]"
        )


def prepare_image(raw: bytes, mime: str) -> PreparedImage | None:
    """The image as sent to the model, resized if needed; ``None`` when it cannot fit."""
    encoded = base64.b64encode(raw).decode("ascii")
    size = image_size(raw, mime)
    fits = size is None or (size[0] <= MAX_WIDTH and size[1] <= MAX_HEIGHT)
    if fits and len(encoded) < MAX_BASE64_BYTES:
        return PreparedImage(encoded, mime, size, size)
    return _resize_with_pillow(raw, size)


def _resize_with_pillow(raw: bytes, size: tuple[int, int] | None) -> PreparedImage | None:
    try:
        from PIL import Image  # optional dependency
    except ImportError:
        return None
    try:
        image = Image.open(io.BytesIO(raw))
        image.load()
    except Exception:  # Pillow raises many kinds of errors for broken files
        return None
    original = size or image.size
    width, height = image.size
    if width > MAX_WIDTH:
        width, height = MAX_WIDTH, round(height * MAX_WIDTH / width)
    if height > MAX_HEIGHT:
        width, height = round(width * MAX_HEIGHT / height), MAX_HEIGHT
    while True:
        resized = image.resize((max(1, width), max(1, height)))
        for fmt, mime, options in (
            ("PNG", "image/png", {}),
            ("JPEG", "image/jpeg", {"quality": 80}),
        ):
            buffer = io.BytesIO()
            resized.convert("RGB" if fmt == "JPEG" else resized.mode).save(buffer, fmt, **options)
            encoded = base64.b64encode(buffer.getvalue()).decode("ascii")
            if len(encoded) < MAX_BASE64_BYTES:
                return PreparedImage(encoded, mime, original, (max(1, width), max(1, height)))
        if width <= 1 and height <= 1:
            return None
        width, height = max(1, int(width * 0.75)), max(1, int(height * 0.75))


__all__ = ["OMITTED_NOTE", "PreparedImage", "image_size", "prepare_image", "sniff_image_mime"]
