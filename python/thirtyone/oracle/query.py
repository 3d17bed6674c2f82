"""The Oracle's query: how safe each of your options is, by Monte Carlo over consistent deals.

``advise(state)`` takes a round as you see it (``oracle.md``: a dict, JSON text, or a running
game, a :class:`~thirtyone.game.Session`) and returns an :class:`Advice`;
``Advice.to_dict()`` is the JSON of ``oracle.md``. The calculation runs in the Rust core, in
parallel, with the interpreter released.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from thirtyone import _core
from thirtyone.errors import ThirtyOneError
from thirtyone.game.session import Session
from thirtyone.oracle import rank, words
from thirtyone.oracle.answer import Advice, Kind, OptionAdvice, Sweep
from thirtyone.oracle.state import StateLike, parse
from thirtyone.paths import data_dir

#: The presets' round results, shipped with the package (``scripts/round_results``), so that
#: the game-level figures need no simulation at the standard tables.
ROUND_RESULTS = Path(__file__).parent.parent / "data" / "round-results"


def _option(raw: Mapping[str, Any]) -> OptionAdvice:
    kind = Kind(raw["kind"])
    sweep = None
    if "sweep_knock_at" in raw:
        sweep = Sweep(raw["sweep_knock_at"], raw["sweep_p_safe"], raw["sweep_lives_lost"])
    return OptionAdvice(
        kind=kind,
        p_safe=float(raw["p_safe"]),
        margin=float(raw["margin"]),
        lives_lost=float(raw["lives_lost"]),
        lives_lost_margin=float(raw["lives_lost_margin"]),
        card=raw["card"] if kind is Kind.TAKE else None,
        discard=raw["card"] if kind is Kind.PUT_DOWN else raw["discard"],
        swept=bool(raw["swept"]),
        knock_at=rank.knock_score(raw["knock_at"]),
        sweep=sweep,
        p_win=raw["p_win"],
        p_win_margin=raw["p_win_margin"],
    )


def advise(
    state: StateLike | Session,
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

    ``state``: the ``oracle.md`` input (dict or JSON text), or a running game (a :class:`Session`:
    the view of the player to move). ``deals``: consistent deals to collect (at most); ``playouts``:
    playouts per option; ``seed``: same seed, same numbers, whatever ``threads`` (None: a random
    seed); ``max_time``: seconds allowed for the whole answer (None: no limit) — when it runs
    out, the best estimate reached is returned, with the margin its numbers give and a warning
    (the least work an answer needs, 100 deals and 1,000 playouts per option, is done even past
    it: it is bounded in work, not time, see the README's "Errors"); ``target_margin``: keep
    adding deals (and playouts) until every option's margin is at most this. Settings out of
    their bounds (see the README's "Errors") raise :class:`~thirtyone.errors.SettingsError`;
    ``names``: the names of the round's seats, for the reason's words (from a game: its
    players). When the state carries ``lives``, every option also has ``p_win`` and the answer
    ``best_game``; ``objective="game"`` then keeps, for each swept option, the later knock
    score with the highest ``p_win`` (rather than the highest ``p_safe``), and the option's
    figures are those of that score. Bad states raise
    :class:`~thirtyone.errors.StateError` (or another
    :class:`~thirtyone.errors.ThirtyOneError`) naming the problem.
    """
    if isinstance(state, Session):
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
    points = bool(raw["points"])
    highest = None if raw["best_game"] is None else options[raw["best_game"]]
    if words.hopeless(options):
        options, tied = words.rank_hopeless(options), []
    else:
        options, tied = rank.best_first(options, tied, points)
    best_game = rank.best_for_game(options[0], highest, points)
    unit = "letters" if rules["lives_mode"] == "gin" else "lives"
    reason = words.reason(options, tied, unit=unit, points=points)
    if best_game is not None and checked.lives is not None:
        reason += words.game_reason(
            options[0],
            best_game,
            words.Lives(checked.lives, checked.me, names, bool(rules["county"])),
            points=points,
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
        points=points,
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
    if option.kind is Kind.KNOCK:
        return replace(option, keeps=_core.score(hand, table))
    if option.kind is Kind.PUT_DOWN and new is not None:
        card = option.discard
        return replace(option, keeps=_core.score([c for c in [*hand, new] if c != card], table))
    if option.kind is Kind.TAKE and option.card is not None:
        cards = [*hand, option.card]

        def keeps(discard: str | None) -> float:
            return _core.score([c for c in cards if c != discard], table)

        discard = option.discard
        if option.p_safe <= 0.0:
            discard = max(hand, key=keeps)
        return replace(option, discard=discard, keeps=keeps(discard))
    return option
