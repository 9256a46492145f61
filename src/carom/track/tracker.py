"""The tracker-error model: how far a camera tracker's samples may be from the truth.

Every piece of evidence the auto-referee weighs (a distance of two centres, a direction,
a time, a ball found moved) is weighed by this model, and every constant of it lives
here. What a camera tracker does to a ball's centre:

* **jitter**: each sample is off by a small Gaussian error, estimated per ball from its
  own samples (:data:`POSITION_NOISE_FLOOR` to :data:`POSITION_NOISE_CEILING`), more
  along the track for a fast ball (:data:`TIMING_JITTER`);
* **bias near other balls**: two balls a few centimetres apart or touching are seen
  worse (their blobs merge, one shades the other): their measured centres may be
  pushed apart or pulled together by centimetres. A distance of two centres measured
  near a contact therefore has a Gaussian core and a heavy tail
  (:meth:`TrackerModel.gap_likelihood`): a contact measured 3 cm too far apart is rare,
  not impossible. The bias is the camera's, one number for every pair of balls: measured
  over a recording (:class:`CameraBias`, :mod:`carom.track.reconstruct.bias`), it weighs
  the gap of two balls frozen before a stroke (:func:`gap_density`);
* **sparse samples of resting balls**: a tracker may send a ball only once it has moved
  a centimetre or two, so a ball nudged by a few millimetres shows it in its last sample
  alone (:meth:`TrackerModel.moved_probability`, :class:`SentOnMove`);
* **lost samples and irregular sampling**: handled where the motion is reconstructed
  (a gap between samples is uncertainty about the path, never evidence).

The evidence for a contact is then weighed in likelihoods relative to a perfect match:
1 for a measurement exactly as a contact predicts, falling off as a Gaussian within the
noise and as an exponential beyond it (the tail), never to zero.

None of these numbers is fitted to a labelled stroke: they are a camera's properties
(the real match file shows samples sent once a ball moved about 14 mm, jitter of about
1 mm, two samples of a still ball up to about 3 mm apart), and the tails are set wide
enough for what the issue reports of other recordings (contacts measured 75–100 mm apart,
2R being 61.5 mm). :class:`TrackerModel` holds the ones the cross-validation of
``benchmarks/track_crossvalidation.py`` may choose differently.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import erfc, exp, expm1, hypot, log1p, pi, sqrt

import numpy as np

from carom.track.samples import FloatArray

POSITION_NOISE_FLOOR = 0.0005
"""The smallest position noise assumed for a tracker, m (one standard deviation)."""

POSITION_NOISE_CEILING = 0.004
"""The largest per-ball noise estimate believed; a larger one means the track has jumps."""

TIMING_JITTER = 0.0003
"""Uncertainty of a sample's time stamp, s: the along-track error grows as ``speed * jitter``."""

CONTACT_SHAPE_SD = 0.0015
"""Standard deviation of a measured centre distance at a contact beyond the sample noise,
m, in the Gaussian core: the path between samples is reconstructed."""

CUSHION_CALIBRATION = 0.006
"""How far inside the nominal cushion line, m, a touching ball's centre may be measured:
the contact point lies above the centre (nose 37 mm high, ``R`` 30.75 mm), and a
tracker's calibration at the edge of its picture is good to a few millimetres."""

CUSHION_DEPTH_SD = 0.003
"""Spread of a cushion contact's measured depth beyond its fitted uncertainty, m: the
paths bend near a cushion (the ball slides after it) and are extended straight."""

GAP_SD_MAX = 0.01
"""The largest Gaussian error believed of a distance between two centres, m: a path
known no better than that (samples too noisy, or too sparse around several events)
supports no contact by its distance alone; the bias tail still allows one."""

DETECTABLE_SPEED_CHANGE = 0.05
"""The smallest change of a moving ball's velocity the pieces around it show reliably,
m/s (three standard deviations of a velocity fitted over a few samples at 1 mm noise)."""

REST_NOISE = 0.0005
"""Noise of one measurement of a still ball, m per coordinate (the least believed: a
ball's own estimate, from its moving samples, is used when larger)."""

STILL_SAMPLES = 4
"""A tracker that sends every frame of a resting ball shows where it lay in many samples:
this many on either side of a step tell whether the step moved it, and a ball seen still
in more than this many crept from its place no earlier than this many samples before it
was seen moved."""

SEND_STEP = 0.02
"""A tracker may send a ball only once it moved about this far, m: a move shorter than
this may show in no sample but the last."""

VISIBLE_NUDGE = 0.003
"""A resting ball moved this far, m, shows it (in its last sample, if in no other): more
than two measurements of a still ball differ by, with rare exceptions."""

BIAS_LEAD = 0.1
"""The first sample that shows a struck ball moving may be taken up to this long, s,
before the contact: the tracker's bias moves its centre as the hitter comes close."""

REACH = 0.10
"""How far beyond ``2R``, m, a moving ball's path is searched for the hitter of a ball
set moving: farther than the heavy tail of a biased distance reaches in practice."""


@dataclass(frozen=True, slots=True)
class TrackerModel:
    """The heavy tails of the tracker's errors, and the chance of what the tracker
    cannot see. The defaults are the model's; ``benchmarks/track_crossvalidation.py``
    chooses them again on half of a labelled file and scores the other half."""

    bias_share: float = 0.05
    """The share of distances measured near a contact that the tracker's bias moved
    beyond its Gaussian noise."""
    bias_scale: float = 0.015
    """Scale of that bias, m: a biased distance is off by an exponentially distributed
    amount of this mean, either way."""
    angle_scale: float = 0.3
    """Scale of the tail of a direction error beyond throw and noise, radians."""
    angle_weight: float = 0.1
    time_scale: float = 0.05
    """Scale of the tail of a time error, s."""
    time_weight: float = 0.1
    unseen: float = 1e-5
    """Likelihood that a ball set moving was moved by nothing the tracker saw (a
    candidate hitter that fits every measurement is 1), weighed when more than one ball
    came near it; with one, only a ball moves a ball, and the cause is that one."""
    unseen_turn: float = 3e-4
    """Likelihood that a moving ball's turn, which no cushion explains, is no contact
    at all: the tracker's bias while a ball passed, samples lost where it mattered."""
    response_weight: float = 0.1
    """The tail of a ball's response (a change of velocity) that does not match the
    impulse it took, against the Gaussian core's peak (scale: three standard deviations)."""
    rest_tail: float = 0.05
    """The share of pairs of measurements of a still ball that differ by more than
    their Gaussian noise (a knock on the table, a shadow, a player's hand)."""
    rest_tail_scale: float = 0.001
    """Scale of that tail, m."""

    def gap_likelihood(self, gap: FloatArray | float, sd: float) -> FloatArray:
        """How well a measured distance ``gap`` beyond ``2R`` (m; negative: the centres
        measured closer than ``2R``) fits a contact, given the Gaussian noise ``sd``: the
        density of the measurement error at ``gap``, relative to its Gaussian core's peak."""
        g = np.abs(np.asarray(gap, dtype=float))
        core: FloatArray = np.exp(-0.5 * (g / sd) ** 2)
        return core + self._tail_height(sd) * np.exp(-g / self.bias_scale)

    def _tail_height(self, sd: float) -> float:
        """The bias tail's density at zero against the Gaussian core's."""
        return self.bias_share / (1.0 - self.bias_share) * sqrt(2.0 * pi) * sd / (2.0 * self.bias_scale)

    def gap_beyond(self, x: float, sd: float) -> float:
        """The chance that a measured distance is more than ``x`` (m) larger than the true
        one: the error model of :meth:`gap_likelihood`, a Gaussian core of ``sd`` and the
        bias tail, summed."""
        core = 0.5 * erfc(x / (sd * sqrt(2.0)))
        half = 0.5 * exp(-abs(x) / self.bias_scale)
        tail = half if x >= 0.0 else 1.0 - half
        return (1.0 - self.bias_share) * core + self.bias_share * tail

    def angle_likelihood(self, excess: FloatArray | float, sd: float) -> FloatArray:
        """How well a direction off by ``excess`` (radians beyond what throw allows) fits."""
        a = np.maximum(np.asarray(excess, dtype=float), 0.0)
        core: FloatArray = np.exp(-0.5 * (a / sd) ** 2)
        return core + self.angle_weight * np.exp(-a / self.angle_scale)

    def time_likelihood(self, error: FloatArray | float, sd: float) -> FloatArray:
        """How well a time off by ``error`` (s) fits, given its Gaussian uncertainty ``sd``."""
        e = np.abs(np.asarray(error, dtype=float))
        core: FloatArray = np.exp(-0.5 * (e / sd) ** 2)
        return core + self.time_weight * np.exp(-e / self.time_scale)

    def response_likelihood(self, z: float) -> float:
        """How well a response off by ``z`` standard deviations fits."""
        return exp(-0.5 * z * z) + self.response_weight * exp(-abs(z) / 3.0)

    def moved_probability(self, displacement: float, sigma: float, crowding: float = float("inf"),
                          sent: SentOnMove | None = None) -> float:
        """The chance that a ball whose rest positions before and after differ by
        ``displacement`` (m) really moved, each position measured with noise ``sigma``;
        ``crowding``: how near (m beyond ``2R``) another ball lay while either was
        measured; ``sent``: the later position is a sample a send-on-move tracker sent
        because it lay a send step from the one it sent before (:class:`SentOnMove`).

        A still ball's two measurements differ by a Rayleigh-distributed amount (each
        coordinate ``√2 σ``), and with :attr:`rest_tail` of the pairs by more (an
        exponential tail of :attr:`rest_tail_scale`); with another ball close, half the
        pairs carry its bias (of :attr:`bias_scale` at contact, less farther away). A
        sample a send-on-move tracker sent of a still ball is the one measurement of many
        whose noise reached the send step: the Rayleigh core is weighed by
        :meth:`SentOnMove.selection`. A ball that moved unseen moved anywhere up to
        :data:`SEND_STEP`, evenly. Neither is favoured before looking."""
        d = displacement
        s2 = 2.0 * max(sigma, REST_NOISE) ** 2
        share = NEAR_SHARE if crowding < BIAS_NEAR else 0.0
        still = (1.0 - self.rest_tail - share) * (d / s2) * exp(-0.5 * d * d / s2)
        if sent is not None:
            still *= sent.selection(d, max(sigma, REST_NOISE))
        still += self.rest_tail * _gamma2(d, self.rest_tail_scale)
        if share:
            still += share * _gamma2(d, max(self.bias_scale * exp(-max(crowding, 0.0) / self.bias_scale),
                                            self.rest_tail_scale))
        moved = 1.0 / SEND_STEP if d <= SEND_STEP else 1.0 / d
        return moved / (moved + still)


@dataclass(frozen=True, slots=True)
class SendRule:
    """A tracker that sends a ball only once its measured centre lies a send step from
    the one it sent last, as a recording's samples show it
    (:attr:`carom.track.sampling.Sending.rule`): its frame period (s) and its least send
    step (m)."""

    frame: float
    step: float

    def sent(self, t_before: float, t_after: float) -> SentOnMove:
        """A sample this rule sent at ``t_after``, the one before it at ``t_before``."""
        return SentOnMove(self.step, max(round((t_after - t_before) / self.frame), 1))


@dataclass(frozen=True, slots=True)
class SentOnMove:
    """A sample a send-on-move tracker sent because it lay ``step`` (m) or more from the
    one it sent before, ``frames`` frames after it."""

    step: float
    frames: int

    def selection(self, displacement: float, sigma: float) -> float:
        """How many times likelier a still ball, measured with noise ``sigma`` (m), sends
        such a sample ``displacement`` (m) from the one before than two plain measurements
        of it differ by that much: in each frame its measurement lies beyond the step from
        the last sent one with the chance ``q = exp(-step² / (4σ²))`` (the difference of
        two measurements, each coordinate ``√2 σ``), it did in one of the ``frames``
        (``1 - (1 - q)^frames``), and given that, its distance is the Rayleigh's tail beyond
        the step (the density divided by ``q``): about ``frames`` times the plain density,
        at most ``1 / q``. Below the step the rule sends nothing of a still ball, and the
        plain density stands (1); at a camera whose noise is far below its step (the real
        match's: 0.35 mm against 14.6 mm) the Rayleigh density there is nil, and so is
        the change."""
        if displacement < self.step:
            return 1.0
        q = exp(-self.step * self.step / (4.0 * sigma * sigma))
        if q <= 0.0:
            return 1.0
        chance = -expm1(self.frames * log1p(-q)) if q < 1.0 else 1.0
        return max(1.0, chance / q)


@dataclass(frozen=True, slots=True)
class CameraBias:
    """One camera's bias on each centre of two touching balls, m (positive: pushed apart),
    as measured over a recording (:mod:`carom.track.reconstruct.bias`), with its standard
    deviation and how many samples measured it."""

    value: float
    sd: float
    count: int

    @property
    def shown(self) -> bool:
        """Whether the recording tells the bias from none: its value beyond
        :data:`BIAS_SHOWN` standard deviations of its measurement."""
        return abs(self.value) > BIAS_SHOWN * self.sd

    def at(self, clearance: float) -> float:
        """The bias on each centre of two balls ``clearance`` (m) apart beyond ``2R``."""
        return self.value * exp(-max(clearance, 0.0) / BIAS_REACH)

    def describe(self) -> str:
        way = "apart" if self.value >= 0.0 else "together"
        return (f"the camera moves two touching centres {way} by {abs(self.value) * 1000:.1f} "
                f"± {self.sd * 1000:.1f} mm each (measured from {self.count} samples near resting balls)")


BIAS_REACH = 0.015
"""How fast the bias fades as two balls part, m: at a clearance ``c`` beyond ``2R`` it is
``exp(-c / BIAS_REACH)`` of its value at contact."""

BIAS_SHOWN = 2.0
"""A measured bias within this many standard deviations of none is not taken out of the
samples (:func:`carom.track.reconstruct.bias.unbiased`): a correction the recording does not show
to be needed would only move the samples by its error."""

KNOWN_BIAS_TAIL = 0.1
"""With the camera's bias measured, the share of start gaps still weighed as if it were
not (:func:`start_gap_density`): a recording whose bias is not one number, a measurement
gone wrong."""


def gap_density(measured: float, true_gap: float, sigma: float, bias_scale: float,
                camera: CameraBias | None = None) -> float:
    """The density of a gap between two resting balls measured as ``measured`` (m beyond
    ``2R``) when it is ``true_gap``. Without the ``camera``'s bias,
    :func:`start_gap_density` of the error. With it, the measured gap is the true one
    plus twice the bias at that gap, with the noise of both centres and of the bias's
    measurement, and :data:`KNOWN_BIAS_TAIL` of the density as without it."""
    error = measured - true_gap
    unknown = start_gap_density(error, sigma, bias_scale)
    if camera is None:
        return unknown
    sd = hypot(rayleigh_sd(sigma), CONTACT_SHAPE_SD, 2.0 * camera.sd * exp(-max(true_gap, 0.0) / BIAS_REACH))
    z = (error - 2.0 * camera.at(true_gap)) / sd
    return (1.0 - KNOWN_BIAS_TAIL) * exp(-0.5 * z * z) / (sqrt(2.0 * pi) * sd) + KNOWN_BIAS_TAIL * unknown


APART_STEPS = 200
"""How many gaps apart, evenly spread up to :data:`FROZEN_SPREAD`, the chance of two balls
being frozen is summed over when the camera's bias is known."""


def frozen_probability(gap: float, sigma: float, bias_scale: float,
                       camera: CameraBias | None = None) -> float:
    """The chance that two resting balls whose centres are measured ``gap`` (m) beyond
    ``2R`` apart touch, each centre measured with noise ``sigma`` and, two balls being
    close, half the measurements biased (exponentially, of mean ``bias_scale``); with the
    ``camera``'s bias measured, weighed by :func:`gap_density` over every gap apart."""
    if camera is not None:
        gaps = [FROZEN_SPREAD * (k + 0.5) / APART_STEPS for k in range(APART_STEPS)]
        apart_known = sum(gap_density(gap, g, sigma, bias_scale, camera) for g in gaps) / len(gaps)
        touching_known = gap_density(gap, 0.0, sigma, bias_scale, camera)
        return touching_known / max(touching_known + apart_known, 1e-300)
    sd = hypot(rayleigh_sd(sigma), CONTACT_SHAPE_SD)

    def density(x: float) -> float:
        return start_gap_density(x, sigma, bias_scale)

    def below(x: float) -> float:
        core = 0.5 * erfc(-x / (sd * sqrt(2.0)))
        half = 0.5 * exp(-abs(x) / bias_scale)
        return (1.0 - NEAR_SHARE) * core + NEAR_SHARE * (1.0 - half if x >= 0.0 else half)

    touching = density(gap)
    apart = (below(gap) - below(gap - FROZEN_SPREAD)) / FROZEN_SPREAD
    return touching / (touching + apart)


def start_gap_density(error: float, sigma: float, bias_scale: float) -> float:
    """The density of the error of a distance between two resting balls measured close
    together (m): each centre measured with noise ``sigma`` and, the balls being close,
    half the measurements biased (exponentially, of mean ``bias_scale``)."""
    sd = hypot(rayleigh_sd(sigma), CONTACT_SHAPE_SD)
    core = exp(-0.5 * (error / sd) ** 2) / (sqrt(2.0 * pi) * sd)
    return (1.0 - NEAR_SHARE) * core + NEAR_SHARE * exp(-abs(error) / bias_scale) / (2.0 * bias_scale)


def _gamma2(d: float, scale: float) -> float:
    """The density at ``d`` of a distance whose two coordinates are off by exponential
    amounts of mean ``scale`` (approximately): ``d / scale² · exp(-d / scale)``."""
    return d / (scale * scale) * exp(-d / scale)


FROZEN_SPREAD = 0.05
"""Two resting balls that do not touch lie anywhere, evenly, up to this far apart beyond
``2R`` (m) as far as the chance of their being frozen is concerned; frozen and not are
equally likely before looking."""

NEAR_SHARE = 0.5
"""With another ball within :data:`BIAS_NEAR`, the share of a resting ball's measurements
the tracker's bias moves."""

BIAS_NEAR = 0.04
"""Another ball's surface closer than this, m, may bias a ball's measured centre."""


DEFAULT_MODEL = TrackerModel()
"""The model every command uses."""


def rayleigh_sd(sigma: float) -> float:
    """Standard deviation of one coordinate of the difference of two measurements."""
    return sqrt(2.0) * sigma
