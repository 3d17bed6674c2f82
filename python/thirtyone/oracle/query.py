"""The Oracle's query: how safe each of your options is, by Monte Carlo over consistent deals.

``advise(state)`` takes a round as you see it (``oracle.md``: a dict, JSON text, or a running
game, a :class:`~thirtyone.game.Session`) and returns an :class:`Advice`;
``Advice.to_dict()`` is the JSON of ``oracle.md``. The calculation runs in the Rust core, in
parallel, with the interpreter released.
"""

from __future__ import annotations

import dataclasses
import json
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from thirtyone import _core
from thirtyone.errors import SettingsError, StateError, ThirtyOneError
from thirtyone.game.rules import Rules
from thirtyone.game.seats import NOT_LOOKED
from thirtyone.game.session import Session
from thirtyone.names import neutralise, number, what_it_is
from thirtyone.oracle import rank, words
from thirtyone.oracle.answer import Advice, Kind, OptionAdvice, Sweep
from thirtyone.oracle.state import StateLike, parse
from thirtyone.paths import data_dir

#: The presets' round results, shipped with the package (``scripts/round_results``), so that
#: the game-level figures need no simulation at the standard tables.
ROUND_RESULTS = Path(__file__).parent.parent / "data" / "round-results"
#: No state comes near this size (a round has at most 1,000 turns): a larger one is refused
#: unread, by ``thirtyone oracle`` and by ``POST /api/oracle`` alike.
MAX_STATE_BYTES = 1 << 20
#: The lowest score a hand has (no hand scores less than 2): a knock minimum at or below it lets
#: any hand knock.
LOWEST_SCORE = 2


def _option(raw: _core.OptionRecord) -> OptionAdvice:
    """An option of the core's typed answer as the package's frozen record."""
    kind = Kind(raw.kind)
    sweep = None if raw.sweep is None else Sweep(*raw.sweep)
    return OptionAdvice(
        kind=kind,
        p_safe=raw.p_safe,
        margin=raw.margin,
        lives_lost=raw.lives_lost,
        lives_lost_margin=raw.lives_lost_margin,
        card=raw.card,
        discard=raw.discard,
        swept=raw.swept,
        knock_at=rank.knock_score(raw.knock_at),
        sweep=sweep,
        keeps=raw.keeps,
        p_win=raw.p_win,
        p_win_margin=raw.p_win_margin,
        shows_hidden_31=raw.shows_hidden_31,
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
    cancel: _core.Cancel | None = None,
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
    ``names``: the names of the round's seats, one (text) per seat of the state in its order,
    for the reason's words (from a game: its players; anything else is a ``SettingsError``),
    shown as the table shows names: control characters and terminal codes escaped, at most 30
    columns, a blank name as ``seat N``.
    When the state carries ``lives``, every option also has ``p_win`` and the answer
    ``best_game``; ``objective="game"`` then keeps, for each swept option, the later knock
    score with the highest ``p_win`` (rather than the highest ``p_safe``), and the option's
    figures are those of that score. Bad states raise :class:`~thirtyone.errors.StateError`
    (or another :class:`~thirtyone.errors.ThirtyOneError`) naming the problem; so does a game
    that is over or between rounds (no decision is pending). ``cancel``: a
    :class:`thirtyone.Cancel` whose ``cancel()``, called from another thread, stops the query
    within a tenth of a second: it raises :class:`~thirtyone.errors.Cancelled` (no
    ``ThirtyOneError``).
    """
    if isinstance(state, Session):
        pending = state.pending
        if pending is not None and pending.phase == "blind":
            raise StateError(NOT_LOOKED)
        if names is None and state.seats:
            names = [state.names[s] for s in state.seats]
        state = state.view()
    if seed is None:
        seed = secrets.randbits(63)
    if not isinstance(objective, str):  # (the core names a text it does not know)
        raise SettingsError(f"objective must be round or game, not {what_it_is(objective)}")
    if cancel is not None and not isinstance(cancel, _core.Cancel):
        raise SettingsError(f"cancel must be a thirtyone.Cancel or None, not {what_it_is(cancel)}")
    checked = parse(state)
    names = checked_names(names, checked.seats)
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
        cancel=cancel,
    )
    advice = _advice(raw, checked, names)
    if objective == "game" and checked.lives is None:
        return dataclasses.replace(advice, warnings=[*advice.warnings, NO_GAME])
    return advice


#: The warning of a query for the game that gives no lives: there is no game to weigh.
NO_GAME = (
    "the game objective needs each seat's lives in the state: without them there is no game "
    "to win, and the options are those of the round"
)


def checked_names(names: object, seats: int) -> list[str] | None:
    """``names`` as :func:`advise` takes them: None, or one name (text) per seat of the state,
    in its seats' order. Raises :class:`~thirtyone.errors.SettingsError` naming ``names``."""
    if names is None:
        return None
    if isinstance(names, str | bytes) or not isinstance(names, Sequence):
        raise SettingsError(
            f"names must be a list of {seats} names, one per seat of the state, "
            f"not {what_it_is(names)}"
        )
    if len(names) != seats:
        raise SettingsError(
            f"names must be a list of {seats} names, one per seat of the state, not {len(names)}"
        )
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise SettingsError(f"names[{i}] must be text, not {what_it_is(name)}")
    # Shown in the words as the table shows names: anything unprintable escaped, at most 30
    # columns; a blank name as its seat.
    return [neutralise(n) if n.strip() else f"seat {i}" for i, n in enumerate(names)]


def _advice(raw: _core.Answer, checked: _core.State, names: Sequence[str] | None) -> Advice:
    """The core's answer as an :class:`Advice`: the best among the tied first, the best for
    the game beyond rounding, the reason in words."""
    rules = checked.rules
    options = [_option(o) for o in raw.options]
    tied = [options[i] for i in raw.tied]
    points = raw.points
    highest = None if raw.best_game is None else options[raw.best_game]
    if words.hopeless(options):
        options = words.rank_hopeless(options)
        tied = rank.hopeless_ties(options)
    else:
        options, tied = rank.best_first(options, tied, points)
    best_game = rank.best_for_game(options[0], highest, points)
    unit = "letters" if rules["lives_mode"] == "gin" else "lives"
    any_hand = not rules["knock_needs_one_suit"] and rules["min_knock"] <= LOWEST_SCORE
    reason = words.reason(options, tied, unit=unit, points=points, any_hand=any_hand)
    if best_game is not None and checked.lives is not None:
        # (A table that names its lives says them by their names: "on the stairs", not "on
        # the county", as the table's rows do.)
        named = Rules.from_spec(rules) if rules["life_names"] else None
        standings = None if named is None else [named.standing(n) for n in checked.lives]
        reason += words.game_reason(
            options[0],
            best_game,
            words.Lives(checked.lives, checked.me, names, bool(rules["county"]), standings),
            points=raw.points,
            unit=unit,
        )
    return Advice(
        options=options,
        tied=tied,
        reason=reason,
        deals=raw.deals,
        playouts=raw.playouts,
        warnings=[words.name_seats(w, names) for w in raw.warnings],
        unit=unit,
        opponent_scores=raw.opponent_scores,
        opponent_knocks=raw.opponent_knocks,
        best_game=best_game,
        points=raw.points,
    )


def ask(
    raw: str | bytes,
    *,
    preset: str | None = None,
    changes: Mapping[str, Any] | None = None,
    deals: int = _core.DEFAULT_DEALS,
    playouts: int = _core.DEFAULT_PLAYOUTS,
    seed: int | None = None,
    threads: int | None = None,
    max_time: float = 5.0,
    target_margin: float | None = None,
    objective: str = "round",
    models: Sequence[str | None] | None = None,
    cancel: _core.Cancel | None = None,
) -> Advice:
    """The question of ``thirtyone oracle`` and of ``POST /api/oracle``: the state's text
    read and checked (``preset``, ``changes`` and ``models`` as in :func:`parse`), then
    :func:`advise` with these settings (``max_time`` 0: no limit, as on the command line;
    ``cancel`` as :func:`advise` takes it).
    Raises a :class:`~thirtyone.errors.ThirtyOneError` naming the problem."""
    check_max_time(max_time)
    state = parse(raw, preset=preset, changes=changes, models=models)
    return advise(
        state,
        deals=deals,
        playouts=playouts,
        seed=seed,
        threads=threads,
        max_time=None if max_time == 0 else max_time,
        target_margin=target_margin,
        objective=objective,
        cancel=cancel,
    )


def check_max_time(max_time: float) -> None:
    """``max_time`` as the command and the HTTP API take it: 0 (no limit) or the core's bounds,
    refused in those words (the core's own, for :func:`advise`, has no 0: it takes None)."""
    if max_time != 0:
        try:
            _core.check_settings(max_time=max_time)
        except ThirtyOneError:
            shown = number(max_time) if max_time == max_time else "nan"
            raise SettingsError(
                f"max_time must be 0 (no limit) or a number of seconds up to 3,600, not {shown}"
            ) from None


def answer_text(advice: Advice) -> str:
    """The answer's JSON text as ``thirtyone oracle --json`` prints it (without the final
    newline) and ``POST /api/oracle`` sends it (with it)."""
    return json.dumps(advice.to_dict(), indent=2, allow_nan=False)
