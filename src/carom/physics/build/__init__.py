"""How the physics kernels are built: compiled by numba on first use and cached on disk
(``jit.py``), kept fresh by a fingerprint of their sources (``fingerprint.py``), the
one-stroke kernels also built ahead of time into an extension module that loads without
numba (``aot.py``), the choice between the two (``choice.py``), the line a user sees
while they compile (``notice.py``), and ``python -m carom.physics.build`` to compile
everything at install time (``compile.py``).

The kernels themselves live one folder up, beside the interface; this folder only says
how they become machine code.
"""
