"""The Oracle's answer: each option's figures (:class:`OptionAdvice`, with its :class:`Sweep` of
later knock scores), and the whole answer (:class:`Advice`), with the JSON of ``oracle.md``
(:meth:`Advice.to_dict`). Built by :func:`thirtyone.oracle.advise`; values only, no computation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (numpy is imported by the first answer: not by `import thirtyone`)
    import numpy as np
    import numpy.typing as npt


class Kind(StrEnum):
    """What an option does. The value is the option's name in the JSON, where a put-down is
    written with its card (``discard:XX``, :attr:`OptionAdvice.option`)."""

    KNOCK = "knock"
    DRAW = "draw"
    TAKE = "take"
    #: After a draw or take: put a card down (the card is :attr:`OptionAdvice.discard`).
    PUT_DOWN = "discard"
    #: The stock is empty: leave the top discard, which ends the round.
    DECLINE = "decline"


@dataclass(frozen=True)
class Sweep:
    """An option's figures for every knock score swept (``NaN`` in ``knock_at`` = never)."""

    knock_at: npt.NDArray[np.float64]
    p_safe: npt.NDArray[np.float64]
    lives_lost: npt.NDArray[np.float64]


@dataclass(frozen=True)
class OptionAdvice:
    """One option's figures. ``kind`` says what it does (:class:`Kind`; a name such as
    ``"draw"`` is taken too); ``card`` is the card a take takes, ``discard`` the card a take or
    a put-down puts down."""

    kind: Kind
    p_safe: float
    margin: float
    lives_lost: float
    #: For a take: the card taken.
    card: str | None = None
    #: For a take: the best card to put down; for a put-down: the card.
    discard: str | None = None
    #: Whether the option was swept over knock scores (then ``knock_at`` is meaningful).
    swept: bool = False
    #: The score at which you knock on a later turn that did best (None = never).
    knock_at: float | None = None
    sweep: Sweep | None = None
    #: The score of the hand the option keeps (None when it is not known: a draw).
    keeps: float | None = None
    #: The 95% margin of ``lives_lost`` (over the same consistent deals as ``margin``).
    lives_lost_margin: float = 0.0
    #: With the lives known: the chance of winning the game after this option (under ranked
    #: placing, the points to expect; see :attr:`Advice.points`), and its 95% margin.
    p_win: float | None = None
    p_win_margin: float | None = None
    #: A draw while you hold a 31 kept hidden: the table's rule keeps the 31 whatever comes and
    #: shows it at the put-down, which ends the round (so it is not swept: no later knock).
    shows_hidden_31: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", Kind(self.kind))

    @property
    def option(self) -> str:
        """The option's name in the JSON: ``knock``, ``draw``, ``take``, ``decline`` or
        ``discard:XX``."""
        if self.kind is Kind.PUT_DOWN:
            return f"discard:{self.discard}"
        return self.kind.value

    def to_dict(self, points: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {"option": self.option}
        if self.kind is Kind.TAKE:
            d["card"] = self.card
            d["discard"] = self.discard
        d["p_safe"] = round(self.p_safe, 4)
        d["margin"] = round(self.margin, 4)
        d["lives_lost"] = round(self.lives_lost, 4)
        if self.swept:
            d["knock_at"] = _number(self.knock_at)
        if self.p_win is not None:
            key = "points" if points else "p_win"
            d[key] = round(self.p_win, 4)
            d[f"{key}_margin"] = round(self.p_win_margin or 0.0, 4)
        return d

    def describe(self) -> str:
        """The option in words."""
        if self.kind is Kind.DRAW:
            return "draw from the stock"
        if self.kind is Kind.TAKE:
            return f"take the {self.card} and put down the {self.discard}"
        if self.kind is Kind.DECLINE:
            return "leave the discard (ending the round)"
        if self.kind is Kind.PUT_DOWN:
            return f"put down the {self.discard}"
        return "knock"


@dataclass(frozen=True)
class Advice:
    """The Oracle's answer: the options (best first), the best, those statistically tied with
    it, a reason in words, and warnings."""

    options: list[OptionAdvice]
    tied: list[OptionAdvice]
    reason: str
    deals: int
    playouts: int
    warnings: list[str] = field(default_factory=list)
    #: What ``lives_lost`` counts at this table: ``"lives"``, or ``"letters"`` under Gin lives.
    unit: str = "lives"
    #: Each opponent's round seat with the score of their hand in every deal the figures were
    #: played over (the read of that opponent the answer rests on).
    opponent_scores: dict[int, npt.NDArray[np.float64]] = field(default_factory=dict)
    #: Each modelled opponent's round seat (``models``: a person, the expert) with the score
    #: they knock at in every deal (what the answer believes of their knocks; an expert at four
    #: seats or more: the score it knocks at on this lap, ruling 351); none for an expert one
    #: against one where hands score the standard way, who reads the table and knocks at no
    #: score of its own (ruling 299).
    opponent_knocks: dict[int, npt.NDArray[np.float64]] = field(default_factory=dict)
    #: With the lives known: the option with the highest chance of winning the game (``None``
    #: without lives). ``best`` stays the round's answer.
    best_game: OptionAdvice | None = None
    #: The game-level figure is expected ranked points (``points`` in JSON), not ``p_win``.
    points: bool = False

    @property
    def best(self) -> OptionAdvice:
        return self.options[0]

    def option(self, name: str) -> OptionAdvice:
        """The option named ``name`` (``knock``, ``draw``, ``take``, ``discard:XX``); a
        ``KeyError`` naming the answer's options when it has none of that name."""
        for o in self.options:
            if o.option == name:
                return o
        names = ", ".join(o.option for o in self.options)
        raise KeyError(f"no option {name!r} in this answer; its options: {names}")

    @property
    def sweeps(self) -> dict[str, Sweep]:
        """The sweep of every swept option, by option name."""
        return {o.option: o.sweep for o in self.options if o.sweep is not None}

    def to_dict(self) -> dict[str, Any]:
        """The output JSON of ``oracle.md``."""
        d: dict[str, Any] = {
            "best": self.best.option,
            "tied": [o.option for o in self.tied],
            "reason": self.reason,
            "deals": self.deals,
            "playouts": self.playouts,
            "options": [o.to_dict(self.points) for o in self.options],
            "warnings": list(self.warnings),
        }
        if self.best_game is not None:
            d["best_game"] = self.best_game.option
        return d


def _number(x: float | None) -> float | int | None:
    if x is None:
        return None
    return int(x) if float(x).is_integer() else x
