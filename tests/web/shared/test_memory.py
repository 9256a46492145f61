"""What a server process keeps of the memory its password checks took."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

CHECKS_IN_THREADS = textwrap.dedent("""
    import threading, sys
    from concurrent.futures import ThreadPoolExecutor
    from carom.web.server import return_big_blocks
    from carom.web.shared import auth

    return_big_blocks()

    def resident():
        for line in open("/proc/self/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024

    before = resident()
    together = threading.Barrier(8)

    def check(_):
        together.wait()  # eight threads alive at once: eight arenas of the allocator
        auth.verify_password("a wrong password", auth._DUMMY)

    with ThreadPoolExecutor(8) as threads:
        list(threads.map(check, range(8)))
        print(resident() - before)
""")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's allocator and /proc")
def test_password_checks_in_many_threads_leave_their_memory_to_the_system() -> None:
    """Each check takes 19 MiB; eight of them, one after another in eight threads, kept
    some 150 MiB in the allocator's arenas before the server fixed its threshold."""
    grown = int(subprocess.run([sys.executable, "-c", CHECKS_IN_THREADS], check=True, capture_output=True,
                               text=True, timeout=120).stdout)
    assert grown < 40 * 1024 * 1024, f"{grown / 2**20:.0f} MiB kept"
