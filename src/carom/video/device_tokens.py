"""Where a camera keeps its table's device token: a file only its user may read (mode
0600), by default one per scoreboard and table under the user's configuration directory
(``$XDG_CONFIG_HOME/carom/devices``, else ``~/.config/carom/devices``). A token on the
command line would show in ``ps``; a file or ``CAROM_DEVICE_TOKEN`` does not."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote, urlsplit

from carom.video.errors import VideoError

ENVIRONMENT = "CAROM_DEVICE_TOKEN"


def default_file(server: str, table: str) -> Path:
    """The token file of ``table`` of the scoreboard at ``server``."""
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    name = f"{quote(urlsplit(server).netloc, safe='')}--{quote(table, safe='')}.token"
    return base / "carom" / "devices" / name


def keep(path: Path, token: str) -> None:
    """Write ``token`` to ``path``, readable by its user alone (0600; its folder made 0700)."""
    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as out:
            os.fchmod(descriptor, 0o600)
            out.write(token + "\n")
    except OSError as error:
        raise VideoError(f"{path}: the device token cannot be kept there ({error.strerror})") from None


def read(path: Path) -> str:
    """The token kept in ``path``."""
    try:
        token = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not text"
        raise VideoError(f"{path}: no device token can be read there ({reason}); "
                         "pair with --pair CODE") from None
    if not token or any(c.isspace() for c in token):
        raise VideoError(f"{path}: expected one device token on one line")
    return token
