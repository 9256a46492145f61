"""The training table and the simulator's JSON API (/api/simulate, /api/solve)."""
