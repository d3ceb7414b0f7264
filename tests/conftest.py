"""Suite-wide guards."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from cwenv.battlemap import los


@pytest.fixture(autouse=True)
def _engine_left_as_found() -> Iterator[None]:
    """A test that switches the engine (los.use_engine) must switch it back: otherwise
    every later test silently runs on the other engine, and ``CWENV_ENGINE=python`` no
    longer tests the reference. Restored here so that only the offender fails."""
    before = los.engine()
    yield
    after = los.engine()
    if after != before:
        los.use_engine(before)
        pytest.fail(f"the test left the engine {after!r}; it found {before!r}", pytrace=False)


@pytest.fixture
def fault() -> Iterator[Callable[[str], None]]:
    """Plants a fault in the native core (src/faults.hpp) for one test and turns it off
    afterwards, even when the test fails."""
    from cwenv import _core

    yield _core._fault
    _core._faults_off()
