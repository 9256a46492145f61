"""The nouns of carom: balls, cushions, tables, spots, zones, positions, events, records.

Standard library only. Nothing here knows a rule; ``carom.rules`` does.
"""
