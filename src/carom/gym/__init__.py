"""A Gymnasium environment: a three-cushion match against the full match engine
(optional extra ``carom[gym]``). Importing this module registers ``carom/ThreeCushion-v0``.

    import gymnasium, carom.gym
    env = gymnasium.make("carom/ThreeCushion-v0")
"""

from __future__ import annotations

from gymnasium.envs.registration import register, registry

from carom.gym.env import ThreeCushionEnv

ENV_ID = "carom/ThreeCushion-v0"

if ENV_ID not in registry:
    register(id=ENV_ID, entry_point="carom.gym.env:ThreeCushionEnv")

__all__ = ["ENV_ID", "ThreeCushionEnv"]
