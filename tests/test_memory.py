"""The process's malloc keeps the memory a query frees for the next (glibc), unless told not to."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import subprocess
import sys

import pytest
import thirtyone._core as core

GLIBC = sys.platform.startswith("linux") and os.confstr("CS_GNU_LIBC_VERSION") is not None


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


def _mapped_by_a_16_mib_block() -> int:
    """How many bytes of separate mappings a 16 MiB block adds while it is held."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.mallinfo2.restype = _MallInfo2
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    before = libc.mallinfo2().hblkhd
    block = libc.malloc(16 << 20)
    during = libc.mallinfo2().hblkhd
    libc.free(block)
    return int(during - before)


@pytest.mark.skipif(not GLIBC, reason="the thresholds are glibc's")
def test_blocks_of_a_query_s_size_come_from_the_heap() -> None:
    # Left as glibc starts, a block over 128 KiB is a mapping of its own, given back when
    # freed (and its pages touched afresh by the next query).
    assert core.KEEPS_FREED_MEMORY
    assert _mapped_by_a_16_mib_block() == 0


@pytest.mark.skipif(not GLIBC, reason="the thresholds are glibc's")
def test_the_system_malloc_is_left_alone_when_asked() -> None:
    code = (
        "import thirtyone._core as core, test_memory as t;"
        "print(core.KEEPS_FREED_MEMORY, t._mapped_by_a_16_mib_block() >= 16 << 20)"
    )
    env = dict(os.environ, THIRTYONE_SYSTEM_MALLOC="1")
    env["PYTHONPATH"] = os.pathsep.join([os.path.dirname(__file__), env.get("PYTHONPATH", "")])
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["False", "True"]
