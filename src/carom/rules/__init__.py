"""The rulebook as code: the rule catalogue, the disciplines as data, and the pure
referee that judges a stroke (RULES.md, GEOMETRY.md). Standard library only."""
