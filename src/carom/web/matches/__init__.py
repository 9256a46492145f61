"""Matches: the JSON API, the referee's tablet, the audience board, scoresheets, and the
organiser's match pages."""
