"""Stage 3 of the auto-referee: the stroke record, the ruling and how sure it is.

:mod:`~carom.track.judging.record` turns the likely events into a ``carom/1`` stroke,
:mod:`~carom.track.judging.ruling` has the referee judge it
(:func:`~carom.track.judging.ruling.track_stroke`), :mod:`~carom.track.judging.confidence`
weighs the alternative readings, :mod:`~carom.track.judging.sequence` judges a recording
stroke after stroke.
"""
