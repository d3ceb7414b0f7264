"""The doctrines' cell scoring in C++ (agents/native/cells.cpp; agents/cells.py is the
reference and says what each number is)."""

from collections.abc import Callable, Sequence

class Map:
    """One battle map's lines of fire (C01, C02)."""

    def __init__(self, width: int, height: int, terrain: bytes) -> None: ...

# A target row: (pos, prone, prone_bonus, shots); a shot: (ranged, pw, aim_pw, aim_qs,
# bands), a band (max_m, modifier).
_Shot = tuple[bool, int, int, int, list[tuple[int, int]]]
_Target = tuple[int, bool, bool, list[_Shot]]
# A threat: (pos, ranged, its gun's bands, melee reach).
_Threat = tuple[int, bool, list[tuple[int, int]], int]

class Shots:
    """ShotTable.best_from: ``value(row, shot, pw, aim_qs)`` is asked once per key."""

    def __init__(
        self,
        map: Map,
        opaque: bytearray,
        me: int,
        targets: Sequence[_Target],
        value: Callable[[int, int, int, int], float],
    ) -> None: ...
    def best_from(self, cell: int) -> float: ...

class Threats:
    """ThreatTable.exposure: ``incoming(threat, modifier)`` and ``melee(threat)`` are
    asked once per key."""

    def __init__(
        self,
        map: Map,
        opaque: bytearray,
        threats: Sequence[_Threat],
        incoming: Callable[[int, int], float],
        melee: Callable[[int], float],
    ) -> None: ...
    def exposure(self, cell: int) -> float: ...
