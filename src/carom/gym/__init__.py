"""A Gymnasium environment: a three-cushion match against the full match engine
(optional extra ``carom[gym]``). ``import carom`` registers ``carom/ThreeCushion-v0``,
with a vector entry point on the simulator's batch form (docs/search.md), as soon as
Gymnasium is loaded; importing this module registers it too.

    import carom, gymnasium
    env = gymnasium.make("carom/ThreeCushion-v0")
    envs = gymnasium.make_vec("carom/ThreeCushion-v0", num_envs=1024)
"""

from __future__ import annotations

from carom.gym.env import ThreeCushionEnv
from carom.gym.vector import ThreeCushionVectorEnv
from carom.gym_registration import ENV_ID, register

register()

__all__ = ["ENV_ID", "ThreeCushionEnv", "ThreeCushionVectorEnv"]
