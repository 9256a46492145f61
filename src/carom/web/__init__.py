"""The scoreboard: organiser pages, the referee's tablet, the audience board, statistics.

An ASGI application (FastAPI, Jinja2 templates, htmx, server-sent events) over a
:class:`carom.storage.book.MatchBook`. Start it with ``carom serve``.
"""
