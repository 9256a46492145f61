"""Slow pure-Python twins of the numba kernels: the oracle of the tests (ARCHITECTURE.md,
principle 9; docs/physics.md, "Design").

Each twin computes what its kernel computes, from the same arrays and numbers, but is
written apart and differently: in vectors rather than components, in the table's frame
rather than the cushion's, the quartic's roots from numpy's companion matrix, and an
event loop that re-evaluates every time after every event. Agreement between the two
checks the physics and the compiled code at once.
"""
