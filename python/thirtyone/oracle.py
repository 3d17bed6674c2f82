"""The Oracle: how safe each of your options is, by Monte Carlo over consistent deals.

``advise(state)`` takes a round as you see it (``oracle.md``: a dict, JSON text, or a running
:class:`~thirtyone.Game`) and returns an :class:`Advice`; ``Advice.to_dict()`` is the JSON of
``oracle.md``. The calculation runs in the Rust core, in parallel, with the interpreter released.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from thirtyone import _core, advice_words
from thirtyone.errors import ThirtyOneError
from thirtyone.saves import data_dir
from thirtyone.state import StateLike, parse

if TYPE_CHECKING:
    from thirtyone.game import Game

#: The presets' round results, shipped with the package (``scripts/round_results``), so that
#: the game-level figures need no simulation at the standard tables.
ROUND_RESULTS = Path(__file__).parent / "data" / "round-results"


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
    #: The score of the hand the option keeps (None when it is not known: a draw).
    keeps: float | None = None
    #: The 95% margin of ``lives_lost`` (over the same consistent deals as ``margin``).
    lives_lost_margin: float = 0.0
    #: With the lives known: the chance of winning the game after this option (under ranked
    #: placing, the points to expect; see :attr:`Advice.points`), and its 95% margin.
    p_win: float | None = None
    p_win_margin: float | None = None

    def to_dict(self, points: bool = False) -> dict[str, Any]:
        d: dict[str, Any] = {"option": self.option}
        if self.option == "take":
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
    #: Each opponent's round seat with the score of their hand in every deal the figures were
    #: played over (the read of that opponent the answer rests on).
    opponent_scores: dict[int, npt.NDArray[np.float64]] = field(default_factory=dict)
    #: With the lives known: the option with the highest chance of winning the game (``None``
    #: without lives). ``best`` stays the round's answer.
    best_game: OptionAdvice | None = None
    #: The game-level figure is expected ranked points (``points`` in JSON), not ``p_win``.
    points: bool = False

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
        lives_lost_margin=float(raw["lives_lost_margin"]),
        card=raw["card"] if kind == "take" else None,
        discard=raw["discard"],
        swept=bool(raw["swept"]),
        knock_at=raw["knock_at"],
        sweep=sweep,
        p_win=raw["p_win"],
        p_win_margin=raw["p_win_margin"],
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
    names: Sequence[str] | None = None,
    objective: str = "round",
) -> Advice:
    """Evaluate every option of the player whose turn ``state`` shows.

    ``state``: the ``oracle.md`` input (dict or JSON text), or a running :class:`Game` (the view
    of the player to move). ``deals``: consistent deals to collect (at most); ``playouts``:
    playouts per option; ``seed``: same seed, same numbers, whatever ``threads`` (None: a random
    seed); ``max_time``: seconds allowed for the whole answer (None: no limit) — when it runs
    out, the best estimate reached is returned, with the margin its numbers give and a warning
    (the least work an answer needs, 100 deals and 1,000 playouts per option, is done even past
    it: it is bounded in work, not time, see the README's "Errors"); ``target_margin``: keep
    adding deals (and playouts) until every option's margin is at most this. Settings out of
    their bounds (see the README's "Errors") raise :class:`~thirtyone.errors.SettingsError`;
    ``names``: the names of the round's seats, for the reason's words (from a :class:`Game`:
    its players). When the state carries ``lives``, every option also has ``p_win`` and the
    answer ``best_game``;
    ``objective="game"`` then keeps, for each swept option, the later knock score with the
    highest ``p_win`` (rather than the highest ``p_safe``), and the option's figures are those
    of that score. Bad states raise
    :class:`~thirtyone.errors.StateError` (or another
    :class:`~thirtyone.errors.ThirtyOneError`) naming the problem.
    """
    from thirtyone.game import Game

    if isinstance(state, Game):
        if names is None and state.logs:
            names = [state.names[s] for s in state.logs[-1].seats]
        state = state.view()
    if seed is None:
        seed = secrets.randbits(63)
    checked = parse(state)
    if checked.lives is not None:  # the game-value table's round results are kept on disk
        _core.set_cache_folders([data_dir() / "cache", ROUND_RESULTS])
    # The settings go as they are: the core checks them, the one place of their bounds.
    raw = _core.advise(
        checked,
        deals=deals,
        playouts=playouts,
        seed=seed,
        threads=threads,
        max_time=max_time,
        target_margin=target_margin,
        objective=objective,
    )
    rules = checked.rules
    held = _held(state)
    options = [_kept(_option(o), held, rules) for o in raw["options"]]
    tied = [options[i] for i in raw["tied"]]
    best_game = None if raw["best_game"] is None else options[raw["best_game"]]
    if advice_words.hopeless(options):
        options, tied = advice_words.rank_hopeless(options), []
    unit = "letters" if rules["lives_mode"] == "gin" else "lives"
    reason = advice_words.reason(options, tied, unit=unit)
    if best_game is not None and checked.lives is not None:
        reason += advice_words.game_reason(
            options[0],
            best_game,
            advice_words.Lives(checked.lives, checked.me, names, bool(rules["county"])),
            points=bool(raw["points"]),
            unit=unit,
        )
    return Advice(
        options=options,
        tied=tied,
        reason=reason,
        deals=int(raw["deals"]),
        playouts=int(raw["playouts"]),
        warnings=list(raw["warnings"]),
        unit=unit,
        opponent_scores={int(k): v for k, v in raw["opponent_scores"].items()},
        best_game=best_game,
        points=bool(raw["points"]),
    )


def _held(state: StateLike) -> tuple[list[str], str | None] | None:
    """From a state given as JSON or a mapping: your hand, the card pending after a draw or
    take (None before it). None for a parsed state."""
    if isinstance(state, str | bytes):
        try:
            state = json.loads(state)
        except ValueError:
            return None
    if not isinstance(state, Mapping):
        return None
    try:
        hand = [_core.parse_card(str(c)) for c in state.get("hand", [])]
    except ThirtyOneError:
        return None
    pending = state.get("pending")
    if not isinstance(pending, Mapping):
        return hand, None
    if pending.get("draw") == "stock":
        return hand, _core.parse_card(str(pending.get("drew")))
    top = state.get("upcard")
    for turn in state.get("turns", []):
        if isinstance(turn, Mapping) and turn.get("discard"):
            top = turn["discard"]
    return hand, _core.parse_card(str(top))


def _kept(
    option: OptionAdvice,
    held: tuple[list[str], str | None] | None,
    rules: Mapping[str, Any],
) -> OptionAdvice:
    """The option with the score of the hand it keeps (when that is known); for a hopeless take,
    the put-down that keeps the best hand (the figures cannot choose one)."""
    if held is None:
        return option
    hand, new = held
    table = dict(rules)
    if option.option == "knock":
        return replace(option, keeps=_core.score(hand, table))
    if option.option.startswith("discard:") and new is not None:
        card = option.option.split(":", 1)[1]
        return replace(option, keeps=_core.score([c for c in [*hand, new] if c != card], table))
    if option.option == "take" and option.card is not None:
        cards = [*hand, option.card]

        def keeps(discard: str | None) -> float:
            return _core.score([c for c in cards if c != discard], table)

        discard = option.discard
        if option.p_safe <= 0.0:
            discard = max(hand, key=keeps)
        return replace(option, discard=discard, keeps=keeps(discard))
    return option
