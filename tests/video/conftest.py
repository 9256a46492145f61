"""One tiny rendered clip for the video tests: a single slow stroke at 960×540, 25 frames
a second, broadcast style (players, a referee, score graphics), H.264; a development
seed (the family kept for measuring is never used here)."""

from __future__ import annotations

from pathlib import Path

import pytest

from carom.core.table import TABLES
from carom.rules.disciplines import DISCIPLINES
from carom.video.render.clip import Truth, render_clip
from carom.video.render.look import draw_look
from carom.video.render.play import play_match

TABLE = TABLES["large"]
RULES = DISCIPLINES["three-cushion"]
SEED = 11
SIZE = (960, 540)


@pytest.fixture(scope="session")
def clip(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Truth]:
    """The clip's path and its truth."""
    path = tmp_path_factory.mktemp("video") / "stroke.mp4"
    match = play_match(SEED, 1, RULES, TABLE, lead=0.8, pause=0.8, speeds=(0.8, 1.0))
    truth = render_clip(path, match, draw_look(SEED, TABLE, "broadcast", SIZE, 25.0), SEED)
    return path, truth
