"""What the simulation pool's fork server loads before it forks a process: importing
this module loads the simulator, warms its kernels and loads the PDF modules
(:func:`carom.web.shared.work.warm_simulator`), so that every process forked from it
starts warm. Only the pool's fork server imports it (:mod:`carom.web.shared.pool`)."""

from carom.web.shared.work import warm_simulator

warm_simulator()
