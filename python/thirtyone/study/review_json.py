"""A game review as JSON: ``thirtyone review --json`` and the review page's ``GET /api/review``
(no terminal, no rich: the web room reads it)."""

from __future__ import annotations

import json
from typing import Any

from thirtyone.game.rules import Rules
from thirtyone.oracle import words
from thirtyone.oracle.answer import Kind, OptionAdvice
from thirtyone.study.review import LABELS, Review, Reviewed, p_win


def _r4(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


def option_dict(o: OptionAdvice | None, points: bool = False) -> dict[str, Any] | None:
    """An option's figures (``p_win`` and its margin null without game-level figures; under
    ranked placing, ``points``, its game-level figures are ``points`` and ``points_margin``,
    expected points, and ``p_win`` null)."""
    if o is None:
        return None
    d: dict[str, Any] = {"option": o.option}
    if o.kind is Kind.TAKE:
        d["card"], d["discard"] = o.card, o.discard
    d["p_safe"] = _r4(o.p_safe)
    d["margin"] = _r4(o.margin)
    d["lives_lost"] = _r4(o.lives_lost)
    game, margin = p_win(o), _r4(getattr(o, "p_win_margin", None))
    d["p_win"] = None if points else _r4(game)
    d["p_win_margin"] = None if points else margin
    d["points"] = _r4(game) if points else None
    d["points_margin"] = margin if points else None
    return d


def decision_dict(index: int, r: Reviewed, rules: Rules) -> dict[str, Any]:
    """A decision; ``standing``: each seat's lives in the table's words (``2 lives``, ``on the
    county``, the letters ``G I`` under Gin lives, ``middle of the bus``), as the table shows
    them, by the state's seat as ``players`` (ruling 288)."""
    d = r.decision
    lives = d.state.get("lives")
    return {
        "index": index,
        "round": d.round,
        "turn": d.turn,
        "step": d.step,
        "hand": list(d.hand),
        "top": d.top,
        "drew": d.drew,
        "choice": d.choice,
        "took": d.took,
        "put_down": d.put_down,
        "best": None if r.best is None else r.best.option,
        "best_game": None if r.best_game is None else r.best_game.option,
        "agreed": r.agreed,
        "cost_p_safe": _r4(r.cost_safe),
        "cost_p_win": _r4(r.cost_win),
        "cost_points": _r4(r.cost_points),
        "label": r.label,
        "label_by": r.label_by,
        "option_labels": r.option_labels(),
        "chosen": option_dict(r.chosen, r.advice is not None and r.advice.points),
        "note": r.note,
        "advice": None if r.advice is None else _advice_dict(r),
        "state": d.state,
        "players": list(d.players),
        "standing": None if lives is None else [rules.standing(n) for n in lives],
    }


def _advice_dict(r: Reviewed) -> dict[str, Any]:
    """The Oracle's answer at the decision (``oracle.md``), each option with its ``plan``: what
    follows it in the words of the advice (``knock at the first chance``, ``never knock: play
    for 31``, ``makes 31 — show it``; empty when nothing does)."""
    assert r.advice is not None
    d = r.advice.to_dict()
    for shown, option in zip(d["options"], r.advice.options, strict=True):
        shown["plan"] = words.plan(option)
    return d


def _game_dict(review: Review) -> dict[str, Any]:
    replay = review.replay
    game, saved = replay.game, replay.saved
    return {
        "seed": saved.seed,
        "rules": saved.rules.to_dict(),
        "names": list(saved.names),
        "seat": replay.seat,
        "player": saved.names[replay.seat],
        "over": game.over,
        "rounds": game.round_number,
        "winner": None if game.winner is None else saved.names[game.winner],
        "place": game.places.get(replay.seat),
    }


def to_json(review: Review) -> dict[str, Any]:
    """The whole review: the game, the settings, every decision, the summary."""
    counted = review.counted
    index = {id(r): i for i, r in enumerate(review.reviewed, start=1)}
    return {
        "game": _game_dict(review),
        "settings": {
            "deals": review.settings.deals,
            "playouts": review.settings.playouts,
            "seed": review.settings.seed,
        },
        "labels": [{"label": name, "from": least} for name, least in LABELS],
        "decisions": [
            decision_dict(i, r, review.replay.saved.rules)
            for i, r in enumerate(review.reviewed, start=1)
        ],
        "summary": {
            "decisions": len(review.reviewed),
            "reviewed": len(counted),
            "advised": len(review.advised),
            "agreed": review.agreed,
            "agreement": _r4(review.agreement),
            # (None, as the others, when the Oracle gave figures for no decision: ruling 364.)
            "cost_p_safe": _r4(review.cost_safe) if counted else None,
            "cost_p_win": _r4(review.cost_win),
            "cost_points": _r4(review.cost_points),
            "costliest": [index[id(r)] for r in review.costliest()],
            "labels": review.labels(),
        },
    }


def to_text(review: Review) -> str:
    """The JSON text of ``thirtyone review --json`` (without the final newline), which the
    review page's ``GET /api/review`` sends too."""
    return json.dumps(to_json(review), indent=1, allow_nan=False)
