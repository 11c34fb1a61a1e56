"""The charge left in a Li-ion cell from its voltage at rest: the curve every board that runs on one shares."""

# (millivolts, percent), highest first; linear between. Typical of 18650 cells at 0.2C.
_CURVE = ((4200, 100), (4060, 90), (3980, 80), (3920, 70), (3870, 60), (3820, 50), (3790, 40), (3770, 30),
          (3740, 20), (3680, 10), (3450, 5), (3000, 0))


def percent_of(mv: int) -> int:
    """The charge left in a Li-ion cell at `mv` millivolts, 0..100."""
    if mv >= _CURVE[0][0]:
        return 100
    for i in range(1, len(_CURVE)):
        v, p = _CURVE[i]
        if mv >= v:
            v0, p0 = _CURVE[i - 1]
            return p + (p0 - p) * (mv - v) // (v0 - v)
    return 0
