"""carom: the open carom billiards system.

The pure core (``carom.core``, ``carom.rules``, ``carom.match``, ``carom.notation``)
uses the standard library only; the leaves around it (physics, tracking, storage,
web, command line) import what they need themselves.
"""

from __future__ import annotations

__version__ = "0.1.0"
