"""Leagues: seasons, tables, meetings live, the captains and the organisers pages, /api/leagues."""
