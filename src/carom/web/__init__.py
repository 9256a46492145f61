"""The scoreboard: an ASGI application (FastAPI, Jinja2 templates, htmx, server-sent
events) over a :class:`carom.storage.book.MatchBook`. Start it with ``carom serve``.

Each area of the web is a subpackage with its routes, templates and static files (its
tests in ``tests/web/<area>/``): ``matches``, ``accounts``, ``players``, ``tournaments``,
``hall``, ``training``, ``review``. What they share is in ``shared``; ``app`` puts them
together and ``server`` runs it.
"""
