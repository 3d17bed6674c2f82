"""The benchmark's fixed positions, built deterministically from seeded games.

Every seat of a game is played by the table's rule, so every opponent's history is one the rule
produced (consistent deals exist). For each table size the builder scans seeds in order until the
first round lasts long enough, and takes views of the player to move from that round:

- ``early``: the start of the second lap (every opponent has played once);
- ``middle``: the start of the fourth lap (every opponent has played three turns);
- ``late``: the start of the sixth lap (every opponent has played five turns), still nobody
  knocked — the position of the "10,000 consistent deals" target;
- ``4p-after-knock``: the first final turn after a knock played at the earliest in the third lap;
- ``4p-pending``: the 4-seat middle position after the player drew from the stock (a real draw,
  captured on a copy of the round): the options are the four cards to put down;
- ``Np-first`` (2, 4 and 6 seats): the first turn of that same round (nobody has played, the
  whole stock unknown), the slowest kind of position.

For the consistent deals, every seat count 2 to 9 in every phase (``phase_positions``): the first
turn, the start of the second lap, the first turn with half the stock left, and the last turn
before anybody knocked (with at most a quarter of the stock left); and late 7-, 8- and 9-seat
positions of real games kept in ``positions_many_seats.json`` (``many_seat_positions``; rebuilt
by ``python benches/positions.py --write-many-seats``).

Run ``python benches/positions.py`` to print them as JSON.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import thirtyone
from thirtyone._core import Action
from thirtyone.game.session import Event, Game

#: Seeds tried per table size before giving up (the scan is deterministic).
MAX_SEEDS = 2_000
#: Late 7-, 8- and 9-seat positions of real games, kept so that every run times the same ones.
MANY_SEATS_FILE = Path(__file__).resolve().parent / "positions_many_seats.json"


@dataclass
class BenchPosition:
    name: str
    seats: int
    #: The oracle.md state of the player to move.
    state: dict[str, Any]
    seed: int
    turns_played: int
    #: Turns played by the opponent who has played the fewest.
    min_opponent_turns: int
    stock_left: int
    tags: list[str] = field(default_factory=list)

    @property
    def round_state(self) -> dict[str, Any]:
        """The state without ``lives``: the round-level query (the figures of this round only),
        which the latency targets are set on. With ``lives`` (as ``thirtyone play`` asks) the
        query adds the game-level figures."""
        return {k: v for k, v in self.state.items() if k != "lives"}

    def describe(self) -> str:
        extra = ", pending stock draw" if "pending" in self.state else ""
        knock = ", after a knock" if any(t.get("knock") for t in self.state["turns"]) else ""
        return (
            f"{self.seats} seats, turn {self.turns_played + 1}, opponents >= "
            f"{self.min_opponent_turns} turns, stock {self.stock_left}{knock}{extra}"
        )


@dataclass
class _Snapshot:
    turns_played: int
    state: dict[str, Any]
    round: Any  # thirtyone._core.Round (a copy)
    knocked: bool


def _round_snapshots(seed: int, seats: int) -> list[_Snapshot]:
    """Every position of the first round of a seeded game (start of each turn, round on)."""
    game = Game(thirtyone.Rules(seats=seats), seed=seed)
    out: list[_Snapshot] = []

    def listen(event: Event) -> None:
        r = game.round
        if r is None or r.is_over or event.kind not in ("deal", "turn"):
            return
        out.append(_Snapshot(r.turns_played, game.view(), r.copy(), r.knocker is not None))

    game.add_listener(listen)
    game.play_round()
    return out


def _min_opponent_turns(state: dict[str, Any]) -> int:
    counts = dict.fromkeys(range(state["seats"]), 0)
    for t in state["turns"]:
        counts[t["seat"]] += 1
    return min(n for s, n in counts.items() if s != state["me"])


def _position(name: str, seats: int, seed: int, snap: _Snapshot, tags: list[str]) -> BenchPosition:
    return BenchPosition(
        name=name,
        seats=seats,
        state=copy.deepcopy(snap.state),
        seed=seed,
        turns_played=snap.turns_played,
        min_opponent_turns=_min_opponent_turns(snap.state),
        stock_left=snap.round.stock_len,
        tags=tags,
    )


def _laps(seats: int) -> list[BenchPosition]:
    """The first turn, and early, middle and late positions, of the first seeded round that lasts
    six laps unknocked."""
    want = {"first": 0, "early": seats, "middle": 3 * seats, "late": 5 * seats}
    for seed in range(1, MAX_SEEDS):
        snaps = {s.turns_played: s for s in _round_snapshots(seed, seats) if not s.knocked}
        if all(t in snaps for t in want.values()):
            return [
                _position(f"{seats}p-{name}", seats, seed, snaps[t], [name])
                for name, t in want.items()
            ]
    raise RuntimeError(f"no round of {seats} seats lasted {5 * seats} turns in {MAX_SEEDS} seeds")


def _after_knock(seats: int = 4) -> BenchPosition:
    """The first final turn after a knock made no earlier than the third lap."""
    for seed in range(1, MAX_SEEDS):
        for s in _round_snapshots(seed, seats):
            knocks = [i for i, t in enumerate(s.state["turns"]) if t.get("knock")]
            if s.knocked and knocks and knocks[0] >= 2 * seats and knocks[0] == s.turns_played - 1:
                return _position(f"{seats}p-after-knock", seats, seed, s, ["after-knock"])
    raise RuntimeError(f"no knock in the third lap or later in {MAX_SEEDS} seeds")


def _pending(base: BenchPosition) -> BenchPosition:
    """``base`` after the player to move drew from the stock (the real next stock card)."""
    for s in _round_snapshots(base.seed, base.seats):
        if s.turns_played != base.turns_played:
            continue
        r = s.round.copy()
        r.apply(Action("draw"))
        new, source = r.pending
        assert source == "stock"
        state = copy.deepcopy(base.state)
        state["pending"] = {"draw": "stock", "drew": new}
        return BenchPosition(
            name=f"{base.seats}p-pending",
            seats=base.seats,
            state=state,
            seed=base.seed,
            turns_played=base.turns_played,
            min_opponent_turns=base.min_opponent_turns,
            stock_left=base.stock_left - 1,
            tags=["pending"],
        )
    raise RuntimeError("the base position was not found again")


def bench_positions() -> list[BenchPosition]:
    """The fixed position set, in display order."""
    out: list[BenchPosition] = []
    by_seats = {seats: _laps(seats) for seats in (2, 4, 6)}
    for seats in (2, 4, 6):
        out.extend(by_seats[seats])
    out.append(_after_knock(4))
    out.append(_pending(by_seats[4][2]))
    return out


PHASES = ("first", "early", "middle", "late")


def phase_positions(seats: int) -> list[BenchPosition]:
    """The first turn, the start of the second lap, the first turn with at most half the stock
    left, and the last turn before a knock (at most a quarter of the stock left), of the first
    seeded round that has them all."""
    for seed in range(1, MAX_SEEDS):
        snaps = [s for s in _round_snapshots(seed, seats) if not s.knocked]
        if not snaps:
            continue
        full = snaps[0].round.stock_len
        half = [s for s in snaps if s.round.stock_len <= full // 2]
        by_turn = {s.turns_played: s for s in snaps}
        last = snaps[-1]
        if 0 in by_turn and seats in by_turn and half and last.round.stock_len <= full // 4:
            picks = (by_turn[0], by_turn[seats], half[0], last)
            return [
                _position(f"deals-{seats}p-{phase}", seats, seed, snap, [phase])
                for phase, snap in zip(PHASES, picks, strict=True)
            ]
    raise RuntimeError(f"no {seats}-seat round with every phase in {MAX_SEEDS} seeds")


def _many_seats_build(per_seats: int = 3) -> list[BenchPosition]:
    """Late positions of real games at 7, 8 and 9 seats: in the first rounds that last until at
    most five stock cards are left unknocked, the last turn before anybody knocked."""
    out: list[BenchPosition] = []
    for seats in (7, 8, 9):
        found = 0
        for seed in range(1, MAX_SEEDS):
            snaps = [s for s in _round_snapshots(seed, seats) if not s.knocked]
            if snaps and snaps[-1].round.stock_len <= 5:
                found += 1
                name = f"{seats}p-late-game{found}"
                out.append(_position(name, seats, seed, snaps[-1], ["late", "game"]))
                if found == per_seats:
                    break
    return out


def many_seat_positions() -> list[BenchPosition]:
    """The late 7-, 8- and 9-seat positions kept in ``positions_many_seats.json``."""
    data = json.loads(MANY_SEATS_FILE.read_text())
    return [BenchPosition(**p) for p in data["positions"]]


def fingerprint(positions: list[BenchPosition]) -> str:
    """A short hash of the states: runs with the same fingerprint timed the same positions."""
    text = json.dumps([p.state for p in positions], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def main() -> None:
    if sys.argv[1:] == ["--write-many-seats"]:
        many = _many_seats_build()
        doc = {"fingerprint": fingerprint(many), "positions": [p.__dict__ for p in many]}
        MANY_SEATS_FILE.write_text(json.dumps(doc, indent=1) + "\n")
        print(f"written to {MANY_SEATS_FILE}")
        return
    ps = bench_positions()
    json.dump(
        {"fingerprint": fingerprint(ps), "positions": [p.__dict__ for p in ps]},
        sys.stdout,
        indent=1,
    )
    print()


if __name__ == "__main__":
    main()
