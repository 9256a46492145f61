"""The auto-referee: tracked ball trajectories in, judged ``carom/1`` strokes out.

The package is laid out by stage:

* :mod:`carom.track.readers`: the tracked-data library interface (one small reader per
  input format, a registry, :func:`read_tracked`) giving :mod:`carom.track.samples`;
* :mod:`carom.track.reconstruct`: each ball's motion between and across its samples;
* :mod:`carom.track.contacts`: every candidate contact, with its evidence and probability;
* :mod:`carom.track.judging`: the stroke record, the ruling and its confidence
  (:func:`track_stroke`), a recording judged stroke after stroke (:func:`track_sequence`),
  with the camera's bias measured over it (:func:`track_recording`);
* :mod:`carom.track.matchrecord`: a whole match as a ``carom/1`` record.

:mod:`carom.track.laws` holds the physics the detector reasons with.
"""

from __future__ import annotations

from carom.track.errors import TrackFormatError
from carom.track.judging.confidence import DOUBTFUL_BELOW
from carom.track.judging.recording import track_recording
from carom.track.judging.ruling import TrackedRuling, track_stroke
from carom.track.judging.sequence import track_sequence
from carom.track.matchrecord import MatchRecord, corrections, match_record
from carom.track.readers import READERS, Reader, read_lines, read_tracked, register
from carom.track.samples import BallTrack, TrackedStroke

__all__ = [
    "DOUBTFUL_BELOW", "READERS", "BallTrack", "MatchRecord", "Reader", "TrackFormatError", "TrackedRuling",
    "TrackedStroke", "corrections", "match_record", "read_lines", "read_tracked", "register",
    "track_recording", "track_sequence", "track_stroke",
]
