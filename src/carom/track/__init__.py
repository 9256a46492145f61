"""The auto-referee: tracked ball trajectories in, judged ``carom/1`` strokes out.

* :mod:`carom.track.readers`: the tracked-data library interface (one small reader per
  input format, a registry, :func:`read_tracked`);
* :mod:`carom.track.motion`, :mod:`~carom.track.cushions`, :mod:`~carom.track.contacts`:
  event detection that reconstructs each ball's motion between its samples;
* :mod:`carom.track.judge`: :func:`track_stroke`, the stroke record, the ruling and its
  confidence; :mod:`carom.track.sequence`: :func:`track_sequence`, a recording judged
  stroke after stroke (a stroke the next one does not follow is doubtful);
  :mod:`carom.track.matchrecord`: a whole match as a ``carom/1`` record.
"""

from __future__ import annotations

from carom.track.errors import TrackFormatError
from carom.track.judge import TrackedRuling, track_stroke
from carom.track.matchrecord import MatchRecord, match_record
from carom.track.readers import READERS, Reader, read_lines, read_tracked, register
from carom.track.samples import BallTrack, TrackedStroke
from carom.track.sequence import track_sequence

__all__ = [
    "READERS", "BallTrack", "MatchRecord", "Reader", "TrackFormatError", "TrackedRuling",
    "TrackedStroke", "match_record", "read_lines", "read_tracked", "register", "track_sequence",
    "track_stroke",
]
