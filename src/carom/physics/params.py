"""The physics parameters: one frozen, versioned value, written into every record.

The defaults are the carom values of PHYSICS.md ("Parameters"); the rolling resistance
and the cushion restitution and friction are the ones fitted to the real table
(``tools/calibrate.py``; docs/physics.md, "Calibration against the real table", which
gives their cross-validated figures). Nothing is read from a configuration file: a
caller who wants other values says so with :meth:`Params.replace` or
:meth:`Params.with_overrides`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from numbers import Real
from typing import Any

import numpy as np

from carom.core.balls import BALL_RADIUS
from carom.core.errors import CaromError
from carom.core.table import TableSpec
from carom.physics import layout as L

PARAMS_VERSION = 3
"""Bumped whenever a default changes, so that a record says which values made it.
1: the first fit (μr 0.00475, Han 0.842/0.230, Mathavan 0.879/0.214), spinless starts;
2: refitted with the object balls' start spin, cross-validated (docs/physics.md);
3: the Han cushion's tangential restitution along the cushion (``han_grip``), the
simulator's values fitted to spinless starts, cross-validated."""

CUSHION_MODELS = {"han2005": L.CUSHION_HAN, "mathavan2010": L.CUSHION_MATHAVAN}


@dataclass(frozen=True, slots=True)
class Params:
    """Every value the simulator uses (SI units; PHYSICS.md, "Parameters")."""

    ball_radius: float = BALL_RADIUS
    """The ball's radius (rule Q5); a different one only for an experiment."""
    ball_mass: float = 0.210
    gravity: float = 9.81
    mu_slide: float = 0.21
    """Ball–cloth sliding friction μs."""
    mu_roll: float = 0.00464
    """Rolling resistance μr: a rolling ball decelerates at μr·g (fitted: 0.0455 m/s²)."""
    spin_decay: float = 10.0
    """rad/s²: how fast spin about the vertical axis dies away."""
    e_ball: float = 0.95
    """Ball–ball restitution."""
    throw_a: float = 0.009951
    throw_b: float = 0.108
    throw_c: float = 1.088
    """Ball–ball friction μ(v) = a + b·exp(−c·v), v the relative surface speed (Alciatore)."""
    cushion_model: str = "han2005"
    """``han2005`` (with the published corrections) or ``mathavan2010``."""
    cushion_height: float = 0.037
    """Height h of the cushion nose above the cloth."""
    han_e: float = 0.837
    han_mu: float = 0.248
    """Restitution and friction of the cushion in the Han 2005 model (fitted)."""
    han_grip: float = 0.201
    """Tangential restitution of a gripping Han 2005 contact along the cushion: the
    fraction of the ball's slip along the cushion that the rubber springs back (0: the
    published model, the slip stops)."""
    mathavan_e: float = 0.856
    mathavan_mu: float = 0.212
    """Restitution and ball–cushion friction in the Mathavan 2010 model (its ball–cloth
    friction is ``mu_slide``)."""
    mathavan_steps: int = 400
    """Impulse steps of the Mathavan 2010 integration."""
    cue_mass: float = 0.5
    cue_end_mass: float = 0.008
    """Effective mass of the cue's tip end: it sets the squirt angle (Alciatore TP A-31)."""

    def __post_init__(self) -> None:
        """Every value of its kind (a name, a whole number, a finite number) and within
        :data:`RANGES`; the cushion nose between the ball's centre and its top."""
        for field in fields(self):
            value = _checked(field.name, field.default, getattr(self, field.name))
            object.__setattr__(self, field.name, value)
        if self.cushion_model not in CUSHION_MODELS:
            raise CaromError(f"unknown cushion model {self.cushion_model!r} "
                             f"(known: {', '.join(CUSHION_MODELS)})")
        if not self.ball_radius <= self.cushion_height < 2.0 * self.ball_radius:
            raise CaromError("the cushion nose must lie between the ball's centre and its top")

    @property
    def version(self) -> int:
        return PARAMS_VERSION

    def replace(self, **changes: Any) -> Params:
        """A copy with some values changed."""
        return replace(self, **changes)

    def with_overrides(self, overrides: Mapping[str, Any]) -> Params:
        """A copy with the values of ``overrides`` (names as in this class; the JSON
        ``params`` object of ``carom simulate``). An unknown name, a value of the wrong
        kind, a number that is not finite or outside its :data:`RANGES` entry is a
        :class:`~carom.core.errors.CaromError` naming the parameter."""
        if not isinstance(overrides, Mapping):
            raise CaromError(f"physics parameters must be an object of name: value, not {overrides!r}")
        known = [f.name for f in fields(self)]
        unknown = sorted(set(overrides) - set(known))
        if unknown:
            raise CaromError(f"unknown physics parameter(s): {', '.join(map(str, unknown))} "
                             f"(known: {', '.join(known)})")
        try:
            return replace(self, **overrides)
        except CaromError as error:
            if str(error).startswith("physics parameter"):
                raise
            raise CaromError(f"physics parameters: {error}") from None  # a relation between values

    def as_record(self) -> dict[str, Any]:
        """The values as written into a record (``Stroke.extra["physics"]``)."""
        return {"version": PARAMS_VERSION, **asdict(self)}

    def vector(self, table: TableSpec) -> np.ndarray:
        """The parameter vector the kernels read (slots: ``carom.physics.layout``)."""
        p = np.zeros(L.P_SIZE)
        p[L.P_RADIUS] = self.ball_radius
        p[L.P_MASS] = self.ball_mass
        p[L.P_GRAVITY] = self.gravity
        p[L.P_MU_SLIDE] = self.mu_slide
        p[L.P_MU_ROLL] = self.mu_roll
        p[L.P_SPIN_DECAY] = self.spin_decay
        p[L.P_E_BALL] = self.e_ball
        p[L.P_THROW_A] = self.throw_a
        p[L.P_THROW_B] = self.throw_b
        p[L.P_THROW_C] = self.throw_c
        model = CUSHION_MODELS[self.cushion_model]
        p[L.P_CUSHION_MODEL] = model
        p[L.P_CUSHION_SIN] = (self.cushion_height - self.ball_radius) / self.ball_radius
        mathavan = model == L.CUSHION_MATHAVAN
        p[L.P_E_CUSHION] = self.mathavan_e if mathavan else self.han_e
        p[L.P_MU_CUSHION] = self.mathavan_mu if mathavan else self.han_mu
        p[L.P_CUSHION_STEPS] = self.mathavan_steps
        p[L.P_WIDTH] = table.width
        p[L.P_LENGTH] = table.length
        p[L.P_CUE_MASS] = self.cue_mass
        p[L.P_CUE_END_MASS] = self.cue_end_mass
        p[L.P_CUSHION_GRIP] = self.han_grip
        return p


EARLIER_DEFAULTS: dict[int, dict[str, float]] = {
    1: {"mu_roll": 0.00475, "han_e": 0.842, "han_mu": 0.230, "han_grip": 0.0, "mathavan_e": 0.879,
        "mathavan_mu": 0.214},
    2: {"mu_roll": 0.00477, "han_e": 0.840, "han_mu": 0.241, "han_grip": 0.0},
}
"""The defaults of earlier versions, where they differ from today's."""


def defaults_of(version: int) -> Params:
    """The default parameters of ``version`` (to replay a record, or to compare)."""
    if version == PARAMS_VERSION:
        return DEFAULT_PARAMS
    if version not in EARLIER_DEFAULTS:
        raise CaromError(f"no physics parameters of version {version} "
                         f"(known: {', '.join(map(str, [*EARLIER_DEFAULTS, PARAMS_VERSION]))})")
    return DEFAULT_PARAMS.replace(**EARLIER_DEFAULTS[version])


RANGES: dict[str, tuple[float, float, str]] = {
    "ball_radius": (0.02, 0.04, "m"),
    "ball_mass": (0.1, 0.5, "kg"),
    "gravity": (9.7, 9.9, "m/s²"),
    "mu_slide": (0.05, 1.0, ""),
    "mu_roll": (0.001, 0.05, ""),
    "spin_decay": (0.0, 100.0, "rad/s²"),
    "e_ball": (0.0, 1.0, ""),
    "throw_a": (0.0, 0.5, ""),
    "throw_b": (0.0, 0.5, ""),
    "throw_c": (0.0, 10.0, "s/m"),
    "cushion_height": (0.02, 0.07, "m"),
    "han_e": (0.0, 1.0, ""),
    "han_mu": (0.0, 1.0, ""),
    "han_grip": (0.0, 1.0, ""),
    "mathavan_e": (0.0, 1.0, ""),
    "mathavan_mu": (0.0, 1.0, ""),
    "mathavan_steps": (10, 5000, "steps"),
    "cue_mass": (0.1, 2.0, "kg"),
    "cue_end_mass": (0.0, 0.1, "kg"),
}
"""What an override may set each number to, both ends included: the physically
meaningful values for a billiard table on Earth (balls of 40–80 mm, any cloth, any
cushion) and nothing that makes the model meaningless or endless (Mathavan's
integration takes at most 5,000 steps a contact). A number without an entry (a new
parameter) must be finite."""


def _checked(name: str, default: Any, value: Any) -> Any:
    """``value`` for the parameter ``name``, of the kind of its ``default``, checked."""
    if isinstance(default, str):
        if not isinstance(value, str):
            raise CaromError(f"physics parameter {name} must be a name, not {value!r}")
        return value
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise CaromError(f"physics parameter {name} must be a finite number, not {value!r}")
    if isinstance(default, int) and value != int(value):
        raise CaromError(f"physics parameter {name} must be a whole number, not {value!r}")
    if name in RANGES:
        low, high, unit = RANGES[name]
        if not low <= value <= high:
            raise CaromError(f"physics parameter {name}: {value:g} is out of range: from {low:g} to "
                             f"{high:g}{' ' + unit if unit else ''}")
    return int(value) if isinstance(default, int) else float(value)


DEFAULT_PARAMS = Params()


def cushion_angle(params: Params) -> float:
    """θ of the cushion contact above the ball's centre, radians (sin θ = (h − R)/R)."""
    return math.asin((params.cushion_height - params.ball_radius) / params.ball_radius)


_vectors: dict[tuple[int, int], tuple[Params, TableSpec, np.ndarray]] = {}
_records: dict[int, tuple[Params, tuple[tuple[str, Any], ...]]] = {}


def kernel_vector(params: Params, table: TableSpec) -> np.ndarray:
    """:meth:`Params.vector`, computed once per parameter set and table (shared: never
    write to it). Looked up by identity first: hashing a Params costs more than a stroke's
    bookkeeping should."""
    key = (id(params), id(table))
    hit = _vectors.get(key)
    if hit is not None and hit[0] is params and hit[1] is table:
        return hit[2]
    vector = _vector_by_value(params, table)
    if len(_vectors) > 256:
        _vectors.clear()
    _vectors[key] = (params, table, vector)
    return vector


@lru_cache(maxsize=64)
def _vector_by_value(params: Params, table: TableSpec) -> np.ndarray:
    return params.vector(table)


def record_of(params: Params) -> dict[str, Any]:
    """:meth:`Params.as_record`, computed once per parameter set (a fresh dict each call)."""
    hit = _records.get(id(params))
    if hit is None or hit[0] is not params:
        if len(_records) > 256:
            _records.clear()
        hit = _records[id(params)] = (params, tuple(params.as_record().items()))
    return dict(hit[1])
