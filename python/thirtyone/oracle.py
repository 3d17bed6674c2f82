"""The Oracle: how safe each of your options is, by Monte Carlo over consistent deals.

``advise(state)`` takes a round as you see it (``oracle.md``: a dict, JSON text, or a running
:class:`~thirtyone.Game`) and returns an :class:`Advice`; ``Advice.to_dict()`` is the JSON of
``oracle.md``. The calculation runs in the Rust core, in parallel, with the interpreter released.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from thirtyone import _core
from thirtyone.state import StateLike, parse

if TYPE_CHECKING:
    from thirtyone.game import Game


@dataclass(frozen=True)
class Sweep:
    """An option's figures for every knock score swept (``NaN`` in ``knock_at`` = never)."""

    knock_at: npt.NDArray[np.float64]
    p_safe: npt.NDArray[np.float64]
    lives_lost: npt.NDArray[np.float64]


@dataclass(frozen=True)
class OptionAdvice:
    """One option's figures: ``option`` is ``knock``, ``draw``, ``take``, ``decline`` or
    ``discard:XX``."""

    option: str
    p_safe: float
    margin: float
    lives_lost: float
    #: For a take: the card taken and the best card to put down.
    card: str | None = None
    discard: str | None = None
    #: Whether the option was swept over knock scores (then ``knock_at`` is meaningful).
    swept: bool = False
    #: The score at which you knock on a later turn that did best (None = never).
    knock_at: float | None = None
    sweep: Sweep | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"option": self.option}
        if self.option == "take":
            d["card"] = self.card
            d["discard"] = self.discard
        d["p_safe"] = round(self.p_safe, 4)
        d["margin"] = round(self.margin, 4)
        d["lives_lost"] = round(self.lives_lost, 4)
        if self.swept:
            d["knock_at"] = _number(self.knock_at)
        return d

    def describe(self) -> str:
        """The option in words."""
        if self.option == "knock":
            return "knock"
        if self.option == "draw":
            return "draw from the stock"
        if self.option == "take":
            return f"take the {self.card} and put down the {self.discard}"
        if self.option == "decline":
            return "leave the discard (ending the round)"
        return f"put down the {self.option.split(':', 1)[1]}"


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

    @property
    def best(self) -> OptionAdvice:
        return self.options[0]

    def option(self, name: str) -> OptionAdvice:
        """The option named ``name`` (``knock``, ``draw``, ``take``, ``discard:XX``)."""
        for o in self.options:
            if o.option == name:
                return o
        raise KeyError(name)

    @property
    def sweeps(self) -> dict[str, Sweep]:
        """The sweep of every swept option, by option name."""
        return {o.option: o.sweep for o in self.options if o.sweep is not None}

    def to_dict(self) -> dict[str, Any]:
        """The output JSON of ``oracle.md``."""
        return {
            "best": self.best.option,
            "tied": [o.option for o in self.tied],
            "reason": self.reason,
            "deals": self.deals,
            "playouts": self.playouts,
            "options": [o.to_dict() for o in self.options],
            "warnings": list(self.warnings),
        }


def _number(x: float | None) -> float | int | None:
    if x is None:
        return None
    return int(x) if float(x).is_integer() else x


def _pct(p: float) -> str:
    return f"{100 * p:.1f}%"


def _upper_first(text: str) -> str:
    """The text with its first letter upper-case (``str.capitalize`` would lower ``2S``)."""
    return text[:1].upper() + text[1:]


def _reason(options: list[OptionAdvice], tied: list[OptionAdvice]) -> str:
    best = options[0]
    later = ""
    if best.swept:
        lowest = best.sweep.knock_at[0] if best.sweep is not None else None
        if best.knock_at is None:
            later = ", never knocking later"
        elif lowest is not None and best.knock_at <= lowest:
            later = ", knocking at your next turn whatever you hold"
        else:
            later = f", knocking on a later turn once you hold {_number(best.knock_at)} or more"
    if len(options) == 1:
        return (
            f"Your only option is to {best.describe()}{later}: you come through safe in "
            f"{_pct(best.p_safe)} of the simulated rounds."
        )
    if tied and all(o.p_safe == best.p_safe for o in tied):
        names = ", ".join(o.describe() for o in tied)
        return (
            f"To {best.describe()}{later} and to {names} are equally safe: "
            f"{_pct(best.p_safe)} of the simulated rounds each."
        )
    if tied:
        names = ", ".join(o.describe() for o in tied)
        return (
            f"To {best.describe()}{later} and to {names} are statistically tied: they differ "
            f"by less than the margin of ±{100 * best.margin:.1f} points. "
            f"{_upper_first(best.describe())} is marginally ahead at {_pct(best.p_safe)} safe."
        )
    second = options[1]  # the options come best first, then by p_safe
    gain = 100 * (best.p_safe - second.p_safe)
    text = (
        f"{_upper_first(best.describe())}{later}: safe in {_pct(best.p_safe)} of the simulated "
        f"rounds, {gain:.1f} points better than to {second.describe()} ({_pct(second.p_safe)})."
    )
    if best.lives_lost > second.lives_lost + 1e-9:
        text += (
            f" It costs more when it fails, though: {best.lives_lost:.2f} lives lost on average "
            f"against {second.lives_lost:.2f}."
        )
    return text


def _option(raw: Mapping[str, Any]) -> OptionAdvice:
    kind = raw["kind"]
    name = f"discard:{raw['card']}" if kind == "discard" else kind
    sweep = None
    if "sweep_knock_at" in raw:
        sweep = Sweep(raw["sweep_knock_at"], raw["sweep_p_safe"], raw["sweep_lives_lost"])
    return OptionAdvice(
        option=name,
        p_safe=float(raw["p_safe"]),
        margin=float(raw["margin"]),
        lives_lost=float(raw["lives_lost"]),
        card=raw["card"] if kind == "take" else None,
        discard=raw["discard"],
        swept=bool(raw["swept"]),
        knock_at=raw["knock_at"],
        sweep=sweep,
    )


def advise(
    state: StateLike | Game,
    *,
    deals: int = _core.DEFAULT_DEALS,
    playouts: int = _core.DEFAULT_PLAYOUTS,
    seed: int | None = None,
    threads: int | None = None,
    max_time: float | None = 5.0,
    target_margin: float | None = None,
) -> Advice:
    """Evaluate every option of the player whose turn ``state`` shows.

    ``state``: the ``oracle.md`` input (dict or JSON text), or a running :class:`Game` (the view
    of the player to move). ``deals``: consistent deals to collect (at most); ``playouts``:
    playouts per option; ``seed``: same seed, same numbers, whatever ``threads`` (None: a random
    seed); ``max_time``: seconds allowed for the whole answer (None: no limit) — when it runs
    out, the best estimate reached is returned, with the margin its numbers give and a warning
    (the least work an answer needs, 100 deals and 1,000 playouts per option, is done even past
    it, the deals for at most half a second more); ``target_margin``: keep adding deals (and
    playouts) until every option's margin is at most this. Settings out of their bounds (see
    the README's "Errors") raise :class:`~thirtyone.errors.SettingsError`; bad states raise
    :class:`~thirtyone.errors.StateError` (or another
    :class:`~thirtyone.errors.ThirtyOneError`) naming the problem.
    """
    from thirtyone.game import Game

    if isinstance(state, Game):
        state = state.view()
    if seed is None:
        seed = secrets.randbits(63)
    checked = parse(state)
    # The settings go as they are: the core checks them, the one place of their bounds.
    raw = _core.advise(
        checked,
        deals=deals,
        playouts=playouts,
        seed=seed,
        threads=threads,
        max_time=max_time,
        target_margin=target_margin,
    )
    options = [_option(o) for o in raw["options"]]
    tied = [options[i] for i in raw["tied"]]
    return Advice(
        options=options,
        tied=tied,
        reason=_reason(options, tied),
        deals=int(raw["deals"]),
        playouts=int(raw["playouts"]),
        warnings=list(raw["warnings"]),
        unit="letters" if checked.rules["lives_mode"] == "gin" else "lives",
    )
