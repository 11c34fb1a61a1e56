"""Changes made to a generated movement: fewer rounds, arrow-switched rounds, a half table (a phantom pair)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from tenace.movement.model import Movement, MovementError, Pair, pair_label


def shortened(movement: Movement, rounds: int) -> Movement:
    """The movement's first `rounds` rounds (a shortened Howell, a Mitchell cut short for time)."""
    if not 1 <= rounds <= movement.rounds:
        raise MovementError("rounds", f"this movement has 1 to {movement.rounds} rounds, not {rounds}")
    if rounds == movement.rounds:
        return movement
    kept = sorted((e for e in movement.encounters if e.round <= rounds), key=lambda e: (e.round, e.table))
    # Sets no kept round reaches are not put out: the boards are renumbered 1 up in the order they come into play.
    number: dict[int, int] = {}
    for e in kept:
        for b in e.boards:
            number.setdefault(b, len(number) + 1)
    name = f"{movement.name.split(',')[0]} (first {rounds} of {movement.rounds} rounds), {movement.tables} tables, " \
           f"{rounds} round{'s' if rounds > 1 else ''} of {movement.boards_per_round} boards"
    return replace(movement, name=name, rounds=rounds,
                   encounters=tuple(replace(e, boards=tuple(number[b] for b in e.boards)) for e in kept))


def arrow_switched(movement: Movement, rounds: Iterable[int]) -> Movement:
    """NS and EW swap seats in these rounds at every table, so a Mitchell's two fields compare with each other."""
    chosen = sorted(set(rounds))
    if not chosen:
        return movement
    for r in chosen:
        if not 1 <= r <= movement.rounds:
            raise MovementError("arrow_switch", f"round {r} is not one of this movement's rounds 1 to "
                                f"{movement.rounds}")
    if movement.kind != "mitchell":  # in a Howell or a match pairs already play both ways: nothing to mix
        raise MovementError("arrow_switch", f"an arrow switch is for a Mitchell, not a {movement.kind} movement")
    switched = tuple(replace(e, switched=not e.switched) if e.round in chosen else e for e in movement.encounters)
    shown = ", ".join(map(str, chosen))
    return replace(movement, name=f"{movement.name}, arrow switch in round{'s' if len(chosen) > 1 else ''} {shown}",
                   encounters=switched)


def with_phantom(movement: Movement, phantom: Pair) -> Movement:
    """The movement with one pair missing (a half table): whoever would meet it sits out that round."""
    if phantom not in movement.pairs():
        raise MovementError("phantom", f"there is no pair {pair_label(phantom, movement.kind)} in this movement")
    return replace(movement, name=f"{movement.name}, {pair_label(phantom, movement.kind)} missing (a half table)",
                   phantom=phantom)


def half_table(movement: Movement) -> Movement:
    """The movement one pair short, the usual pair missing: a Mitchell's NS pair of the last table (its EW
    visitors sit out there), a Howell's pair 2n (the pair that stays put)."""
    if movement.kind == "teams":
        raise MovementError("phantom", "a team match has no half table: each team has its two pairs")
    if movement.kind == "individual":
        raise MovementError("phantom", "an individual here is for whole tables of four players")
    return with_phantom(movement, ("NS", movement.tables) if movement.kind == "mitchell" else ("", 2 * movement.tables))
