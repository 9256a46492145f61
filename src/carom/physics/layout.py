"""The shapes the kernels share: columns of a ball state, motion modes, event kinds,
cushion numbers and the slots of the parameter vector.

The numba kernels take arrays and numbers only (ARCHITECTURE.md, principle 9); these
integer constants name what each column and slot holds. Numba reads module-level
integers as compile-time constants, so naming them costs nothing.
"""

from __future__ import annotations

# --- one ball's state: a row of 7 floats -------------------------------------------
X, Y, VX, VY, WX, WY, WZ = 0, 1, 2, 3, 4, 5, 6
"""Centre (m), velocity (m/s) and angular velocity (rad/s, x/y/z of GEOMETRY.md, z up)."""
STATE_WIDTH = 7

# --- motion modes (PHYSICS.md, "Motion states") --------------------------------------
RESTING = 0
SPINNING = 1
"""At rest on the cloth, turning about the vertical axis only."""
SLIDING = 2
ROLLING = 3
MODE_NAMES = ("resting", "spinning", "sliding", "rolling")

# --- event kinds ---------------------------------------------------------------------
EVENT_BALL = 1
EVENT_CUSHION = 2
EVENT_TRANSITION = 3
"""A change of motion mode; the second index of such an event is the new mode."""

# --- cushions, in the order of ``carom.core.balls.Cushion`` --------------------------
BOTTOM, TOP, LEFT, RIGHT = 0, 1, 2, 3
NO_CUSHION = -1

# --- the parameter vector ------------------------------------------------------------
P_RADIUS = 0
P_MASS = 1
P_GRAVITY = 2
P_MU_SLIDE = 3
P_MU_ROLL = 4
P_SPIN_DECAY = 5
P_E_BALL = 6
P_THROW_A = 7
P_THROW_B = 8
P_THROW_C = 9
P_CUSHION_MODEL = 10
"""0: Han 2005 (corrected), 1: Mathavan et al. 2010."""
P_CUSHION_SIN = 11
"""sin θ of the cushion contact point above the centre: (h − R) / R."""
P_E_CUSHION = 12
P_MU_CUSHION = 13
P_CUSHION_STEPS = 14
"""Impulse steps per cushion impact (Mathavan 2010 only)."""
P_WIDTH = 15
P_LENGTH = 16
P_CUE_MASS = 17
P_CUE_END_MASS = 18
P_CUSHION_GRIP = 19
"""Tangential restitution along the cushion of a gripping contact (Han 2005 only)."""
P_SIZE = 20

CUSHION_HAN = 0
CUSHION_MATHAVAN = 1

# --- numerical constants of the event loop (README.md, "The physics simulator") ---
TIE = 1e-12
"""Seconds: events closer together than this are simultaneous and taken in the
documented order (cushion before ball before mode change, then by ball and cushion)."""
GRAZE = 1e-12
"""Metres: a pass that never overlaps by more than this is no contact (check 9)."""
REST_SPEED = 1e-4
"""m/s: a ball meeting a cushion slower than this stops against it (no bounce), so
that a spinning ball pressed into a cushion cannot bounce forever."""
PRESS_TIME = 0.01
"""Seconds: two touching balls that one's sliding pushes into the other, so slowly that a
bounce would bring them back within about twice this, are pressed together: the cloth's
friction on the pushing ball is applied at once (see ``collide.py``; balls parting while
they slide past each other faster than that are not pressed), instead of an
endless series of ever smaller bounces."""
CRAWL = 0.05
"""m/s: two touching balls both slower than this that their rolling still presses
together after the impact come to rest there (see ``collide.py``)."""
SPEED_EPS = 1e-12
"""m/s: below this a speed or a contact-point slip is zero."""
MAX_STEPS = 5000
"""Events one stroke may take before the simulator stops its balls (status 1)."""

STATUS_OK = 0
STATUS_TOO_MANY_EVENTS = 1
STATUS_LOG_FULL = 2
