"""Review of tracked recordings: the auto-referee's doubtful strokes, corrected by a referee."""
