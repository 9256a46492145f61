"""Tournaments: the JSON API under /api/tournaments, the pages, the results PDF."""
