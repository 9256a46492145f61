"""``python -m carom.physics.build``: compile every physics kernel now (``compile.py``)."""

from __future__ import annotations

import sys

from carom.physics.build.compile import main

sys.exit(main())
