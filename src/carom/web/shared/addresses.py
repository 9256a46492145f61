"""Where tablets find this server: the address a link or a QR code must carry.

A browser on the server's own machine sees ``localhost``; a tablet needs the address
of that machine on the club's network. ``carom serve --host 0.0.0.0`` listens on every
network, and :func:`lan_address` finds the one a tablet reaches.
"""

from __future__ import annotations

import ipaddress
import socket

from fastapi import Request

LOOPBACK_NAMES = frozenset(("localhost", "localhost.localdomain", "ip6-localhost"))


def is_loopback(host: str) -> bool:
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def is_everywhere(host: str) -> bool:
    """``0.0.0.0`` or ``::``: listening on every network."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_unspecified
    except ValueError:
        return False


def lan_address() -> str | None:
    """This machine's address on the network its default route leaves by (no packet
    is sent: a UDP socket only picks its source address), else ``None``."""
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                address = str(s.getsockname()[0])
        except OSError:
            continue
        if not is_loopback(address) and not is_everywhere(address):
            return address if family == socket.AF_INET else f"[{address}]"
    return None


def reachable_host(listen_host: str) -> str | None:
    """The host a tablet should use for a server listening on ``listen_host``: the
    machine's network address when it listens everywhere, the host itself when it is a
    network address, ``None`` when it listens on this machine only."""
    if is_everywhere(listen_host):
        return lan_address()
    return None if is_loopback(listen_host) else listen_host


def tablet_url(request: Request, tablet_host: str | None, match_id: int, token: str) -> tuple[str, bool]:
    """The full tablet link of a match, and whether it only works on this machine."""
    return device_url(request, tablet_host, f"/m/{match_id}/tablet", f"t={token}")


def device_url(request: Request, tablet_host: str | None, path: str, query: str = "") -> tuple[str, bool]:
    """The full address of a page for a device of the hall (a tablet, a screen), and whether
    it only works on this machine. The browser's address is kept unless it is this
    machine's own (``localhost``)."""
    url = request.url.replace(path=path, query=query, fragment="")
    host = url.hostname or ""
    if is_loopback(host):
        if tablet_host is None:
            return str(url), True
        port = f":{url.port}" if url.port else ""
        url = url.replace(netloc=f"{tablet_host}{port}")
    return str(url), False
