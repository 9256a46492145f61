"""A Gymnasium environment: a three-cushion match against the full match engine
(optional extra ``carom[gym]``). Importing this module registers ``carom/ThreeCushion-v0``,
with a vector entry point on the simulator's batch form (docs/search.md).

    import gymnasium, carom.gym
    env = gymnasium.make("carom/ThreeCushion-v0")
    envs = gymnasium.make_vec("carom/ThreeCushion-v0", num_envs=1024)
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from carom.gym.env import ThreeCushionEnv
from carom.gym.vector import ThreeCushionVectorEnv

ENV_ID = "carom/ThreeCushion-v0"

if ENV_ID not in registry:
    register(id=ENV_ID, entry_point="carom.gym.env:ThreeCushionEnv",
             vector_entry_point="carom.gym.vector:ThreeCushionVectorEnv")

__all__ = ["ENV_ID", "ThreeCushionEnv", "ThreeCushionVectorEnv"]
