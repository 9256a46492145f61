"""Strokes from the simulator drawn as video, with their truth: for tests and benchmarks
only (the detector never imports this package).

* :mod:`~carom.video.render.play`: strokes played one after another, innings kept;
* :mod:`~carom.video.render.look`: camera, light, cloth, codec; development seeds and
  the family kept for measuring;
* :mod:`~carom.video.render.scene`: the table, drawn once per clip;
* :mod:`~carom.video.render.spheres`: the balls, ray-traced, shaded, blurred;
* :mod:`~carom.video.render.people`: the player, the cue, the referee, score graphics;
* :mod:`~carom.video.render.clip`: frames encoded with H.264, and the truth.
"""
