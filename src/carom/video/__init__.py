"""From a camera: video of a carom table in, tracked strokes out.

The package is a leaf: it stands on the core and on the tracked-sample format of
:mod:`carom.track` (its reader and its ``judge`` entry points), never on the web or
storage. It needs the ``[video]`` extra (OpenCV, PyAV, numpy).

* :mod:`carom.video.camera`: the pinhole camera with radial distortion, shared by the
  renderer (which draws with a known camera) and the detector (which estimates one);
* :mod:`carom.video.frames`: a video's frames and their own time stamps, within limits;
* :mod:`carom.video.table`: the table found by itself (cloth, cushion noses, distortion,
  homography, the camera's pose) and a moving camera noticed;
* :mod:`carom.video.balls`: the three balls found by colour and shape in one frame;
* :mod:`carom.video.follow`: the balls followed through the frames, identities kept,
  occlusion bridged;
* :mod:`carom.video.strokes`: the samples cut into strokes (start, end, cue ball, inning,
  player) in the format ``carom track`` reads;
* :mod:`carom.video.doubts`: what the video could not show, as a stroke line keeps it (a
  phrase of the catalogues beside its English) and reads it back;
* :mod:`carom.video.pipeline`: a file or a stream, end to end;
* :mod:`carom.video.render`: strokes from the simulator drawn as video with their truth
  (for tests and benchmarks only: the detector never imports it).
"""
