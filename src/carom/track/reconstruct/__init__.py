"""Stage 1 of the auto-referee: each ball's motion reconstructed from its samples.

A ball's samples are cut into rests and pieces of motion with no event inside
(:mod:`~carom.track.reconstruct.rests`, :mod:`~carom.track.reconstruct.breaks`,
:mod:`~carom.track.reconstruct.pieces`, fitted by :mod:`~carom.track.reconstruct.fit`);
between two pieces lies a join (:mod:`~carom.track.reconstruct.joins`). The whole
motion (:mod:`~carom.track.reconstruct.ballmotion`) is read back as a centre at any time
(:mod:`~carom.track.reconstruct.trajectory`), and two balls' closest approaches are found
in closed form (:mod:`~carom.track.reconstruct.approach`). A recording's camera bias near
other balls is measured and taken out of the samples before a stroke is read again
(:mod:`~carom.track.reconstruct.bias`).
"""
