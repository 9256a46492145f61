"""Stage 2 of the auto-referee: every candidate contact with its evidence and probability.

:func:`~carom.track.contacts.detection.detect` runs the stage: cushion contacts
(:mod:`~carom.track.contacts.cushion_contacts`), resting balls set moving
(:mod:`~carom.track.contacts.departure`), ball–ball contacts weighed on all their evidence
(:mod:`~carom.track.contacts.ball_contacts`: a resting ball set moving,
:mod:`~carom.track.contacts.struck`; a moving ball turned,
:mod:`~carom.track.contacts.turned`; a close pass that changed nothing,
:mod:`~carom.track.contacts.touch`), jumps (:mod:`~carom.track.contacts.jumps`). Each piece
of evidence is weighed by the tracker-error model (:mod:`carom.track.tracker`).
"""
