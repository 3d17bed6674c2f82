"""A calibration run's settings (:class:`Settings`) and the record of each decision it makes
(:class:`Decision`): what the run (:mod:`thirtyone.study.calibration`) and its report
(:mod:`thirtyone.study.calibration_report`) share."""

from __future__ import annotations

import typing
from dataclasses import dataclass, fields
from typing import Any

from thirtyone import _core
from thirtyone.errors import SettingsError
from thirtyone.game.rules import Rules
from thirtyone.names import shown
from thirtyone.oracle.state import check_read_as

#: The most decisions a run records (they are all kept in memory), and the most worker
#: processes (the Oracle's own bound on threads, for the same reason: more than the cores only
#: share them). The Oracle's settings have the core's bounds (``_core.check_settings``).
MAX_DECISIONS = 1_000_000
MAX_WORKERS = 64
#: The tables a run may be played at (:attr:`Settings.opponents`).
OPPONENTS = ("table", "expert", "mixed", "noisy")


@dataclass(frozen=True)
class Settings:
    """How a calibration run is played."""

    #: Decisions to record (games are played until there are this many).
    decisions: int = 20_000
    seed: int = 1
    #: The Oracle's precision per query (reduced from the 10,000 / 50,000 of a real query).
    deals: int = 2_000
    playouts: int = 5_000
    #: Oracle threads per query.
    threads: int = 1
    #: Processes playing games side by side (each asking the Oracle with ``threads``).
    workers: int = 1
    #: Seats at the table, game ``g`` using ``seats[g % len(seats)]``.
    seats: tuple[int, ...] = (2, 3, 4, 5, 6)
    lives: int = 3
    #: Rule changes from the standard preset (``{"knock_penalty": 1}``...).
    rules: tuple[tuple[str, Any], ...] = ()
    #: Share of decisions asked after drawing from the stock (the ``discard:XX`` options).
    pending_share: float = 0.2
    #: Consistent deals sampled for the rank check of each decision.
    rank_deals: int = 200
    #: The Oracle's time limit for collecting deals (seconds).
    max_time: float | None = 30.0
    #: Who sits at the table (:data:`OPPONENTS`): the table's rule everywhere, the expert
    #: (the Oracle at a small budget), experts at the odd seats, or noisy table players.
    opponents: str = "table"
    #: Read every opponent by this model (``"table"``: as the Oracle read every table before
    #: opponent models) rather than by the model of how they play (None).
    read_as: str | None = None

    def check(self) -> None:
        """Raise :class:`~thirtyone.errors.SettingsError` naming a setting out of its bounds."""
        for name, value, high in (
            ("decisions", self.decisions, MAX_DECISIONS),
            ("workers", self.workers, MAX_WORKERS),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
                raise SettingsError(
                    f"{name} must be a whole number from 1 to {high:,}, not {shown(value)}"
                )
        if self.opponents not in OPPONENTS:
            raise SettingsError(
                f"opponents must be one of {', '.join(OPPONENTS)}, not {shown(self.opponents)}"
            )
        check_read_as(self.read_as)
        _core.check_settings(deals=self.deals, playouts=self.playouts, threads=self.threads)
        _core.check_settings(deals=max(1, self.rank_deals), max_time=self.max_time)

    def table(self, game: int) -> Rules:
        return Rules.from_spec(
            {
                "preset": "standard",
                **dict(self.rules),
                "seats": self.seats[game % len(self.seats)],
                "lives": self.lives,
            }
        )


@dataclass
class Decision:
    """One query and what came of it."""

    game: int
    round: int
    #: Players in the round, the asking seat (round numbering), its turn index in the round.
    seats: int
    me: int
    turn: int
    pending: bool
    #: Whether somebody had knocked before the query.
    after_knock: bool
    #: The option taken, as the JSON names it (``discard:XX``), and what it does.
    option: str
    kind: str
    knock_at: float | None
    p_safe: float
    margin: float
    lives_lost: float
    deals: int
    options: int
    #: Another option was statistically tied with the best.
    tied: bool
    warnings: int
    #: What happened: no life lost this round, and the round's (nominal) loss.
    safe: bool | None = None
    lost: int | None = None
    #: Rank check: the opponent (round numbering), deals sampled, how many scored less than the
    #: true hand, how many the same, the randomised rank (0..n) and a uniform(0,1) transform.
    rank_opponent: int = -1
    rank_n: int = 0
    rank_less: int = 0
    rank_equal: int = 0
    rank: int = 0
    rank_u: float = 0.0


def _of(value: Any, kinds: tuple[type, ...]) -> bool:
    """Whether a JSON value is of one of a field's types (a whole number is a float too, a
    bool no number)."""
    if isinstance(value, bool):
        return bool in kinds
    if isinstance(value, int) and float in kinds:
        return True
    return isinstance(value, tuple(k for k in kinds if k is not bool))


def decision_from(data: Any) -> Decision:
    """A :class:`Decision` from the JSON a checkpoint keeps it as: every field, each of its
    type (ValueError otherwise: a line edited or damaged)."""
    hints = typing.get_type_hints(Decision)
    names = [f.name for f in fields(Decision)]
    if not isinstance(data, dict) or set(data) != set(names):
        raise ValueError("not a decision")
    for name in names:
        kinds = typing.get_args(hints[name]) or (hints[name],)
        if not _of(data[name], tuple(type(None) if k is None else k for k in kinds)):
            raise ValueError(f"{name} is not of its type")
    return Decision(**data)
