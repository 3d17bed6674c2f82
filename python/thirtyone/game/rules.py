"""The rules of a table: every rule choice is a named field of :class:`Rules`.

``Rules.preset("standard")`` is the standard table of seed 000 (``rules.md``); the other presets
follow the other rule documents (``Rules.PRESET_INFO`` says which, and how each differs from
standard). A changed copy: ``rules.replace(knock_penalty=1)``. Every value is read and checked
by the Rust core (the one reader of rule options, shared with the Oracle's input): invalid values
and combinations raise :class:`~thirtyone.errors.RuleError` naming the field. The presets' values
live there too; this module holds what a player reads about them.

Round-level options (what a hand scores, when a knock is allowed, what a round costs) are
played by the Rust core's round, so the game, the computer players and the Oracle's playouts all
use the same rules; :meth:`Rules.round_rules` is what the core takes. The game-level options
(``lives``, ``county``, ``life_names``, ``placing``) live in :mod:`thirtyone.game`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar

from thirtyone import _core
from thirtyone.errors import RuleError

KNOCKER_TIE = ("knocker_pays", "others_pay", "only_knocker", "cadillac")
THREE_OF_A_KIND = ("none", "30", "30.5")
THREE_ACES = ("none", "33")
FIRST_TURN_KNOCK = ("allowed", "forbidden", "blind")
THIRTY_ONE_AFTER_KNOCK = ("ends_round", "continues")
LIVES_MODE = ("lives", "gin")
PLACING = ("winner_takes_all", "ranked")
#: A player's standing under Gin lives before the first letter, in the terminal, the browser
#: and the reports alike (ruling 353).
NO_LETTERS = "no letters"

# The fields the Rust core plays a round by (the rest are game-level).
_ROUND_FIELDS = (
    "knock_penalty",
    "knocker_tie",
    "three_of_a_kind",
    "three_aces",
    "runs",
    "min_knock",
    "knock_needs_one_suit",
    "first_turn_knock",
    "thirty_one_after_knock",
    "two_player_mercy",
    "lives_mode",
    "may_hide_31",
)


# `seed`: the rule documents an option comes from. seeds/README.md has a row for every option
# naming the same documents and the passage (tests/test_seeds.py holds the two together).
def _doc(text: str, seed: str, values: str) -> dict[str, str]:
    return {"doc": text, "seed": seed, "values": values}


@dataclass(frozen=True)
class OptionInfo:
    """One rule option, for listings (``thirtyone rules``)."""

    name: str
    values: str
    default: str
    meaning: str
    seed: str

    @property
    def choices(self) -> tuple[str, ...]:
        """The words the option takes, where it takes one of a list (``blind``, ``30.5``);
        none where its values are a range or one's own (``2 to 9``, names)."""
        words = tuple(self.values.split(", "))
        return words if all(" " not in w for w in words) else ()


@dataclass(frozen=True)
class Preset:
    """A named table: the rule document it follows and how it differs from ``standard`` (its
    values are in :attr:`Rules.PRESETS`)."""

    name: str
    document: str
    differs: str


@dataclass(frozen=True, kw_only=True)
class Rules:
    """A table's rules. The defaults are the standard table (seed 000, ``rules.md``)."""

    seats: int = field(
        default=4,
        metadata=_doc("players at the table, you included", "000, 003", "2 to 9"),
    )
    lives: int = field(
        default=3,
        metadata=_doc(
            "lives each player starts with (under Gin lives: the letters G, I, N, so 3)",
            "000, 001, 002, 003",
            "1 to 20",
        ),
    )
    county: bool = field(
        default=False,
        metadata=_doc(
            "after the last life a player plays on 'on the county' and the next loss puts them "
            "out; a loss that goes below nothing (two lives lost with one left) puts them out "
            "at once",
            "002, 003",
            "true, false",
        ),
    )
    lives_mode: str = field(
        default="lives",
        metadata=_doc(
            "lives, or gin: lives are the letters G, I, N; a knock claims the highest hand: if "
            "it is higher than every other hand everybody else takes a letter, otherwise (beaten "
            "or tied) the knocker takes knock_penalty letters; 31 shown, a dealt 31 and the "
            "stock running out cost letters as they would cost lives",
            "003 (Gin lives)",
            ", ".join(LIVES_MODE),
        ),
    )
    life_names: tuple[str, ...] = field(
        default=(),
        metadata=_doc(
            "display names of a player's standing, from all lives down to out: one per number of "
            "lives left (lives down to 1), then 'on the county' if the county is played, then "
            "out (e.g. Ride the Bus); empty: numbers (letters under Gin lives)",
            "002, 003 (Ride the Bus)",
            "comma-separated names",
        ),
    )
    placing: str = field(
        default="winner_takes_all",
        metadata=_doc(
            "the result of a game: winner_takes_all (the survivor won, the rest are out), or "
            "ranked (the survivor and the last two to fall take 3, 2 and 1 points)",
            "003 (the match table)",
            ", ".join(PLACING),
        ),
    )
    knock_penalty: int = field(
        default=2,
        metadata=_doc(
            "lives a knocker pays when lowest or tied lowest (under Gin lives: letters a beaten "
            "knocker takes)",
            "000, 001, 002, 003 (one life for a bad knock)",
            "1, 2",
        ),
    )
    knocker_tie: str = field(
        default="knocker_pays",
        metadata=_doc(
            "who pays when the knocker ties for lowest: knocker_pays (the knocker pays the "
            "penalty, the others tied 1), others_pay (the knocker is safe, the others tied pay "
            "1), only_knocker (the knocker pays the penalty, the others tied nothing), cadillac "
            "(the knocker pays 2, the others tied nothing)",
            "000, 003",
            ", ".join(KNOCKER_TIE),
        ),
    )
    three_of_a_kind: str = field(
        default="none",
        metadata=_doc(
            "what three cards of one rank score: none (like any hand: the highest card), 30, 30.5",
            "000, 001, 003",
            ", ".join(THREE_OF_A_KIND),
        ),
    )
    three_aces: str = field(
        default="none",
        metadata=_doc(
            "three aces: none (as three of a kind), or 33 (Cadillac's Grand Cadillac)",
            "003 (Cadillac)",
            ", ".join(THREE_ACES),
        ),
    )
    runs: bool = field(
        default=False,
        metadata=_doc(
            "three in sequence of one suit score 30 (A-K-Q of a suit is 31 anyway)",
            "003",
            "true, false",
        ),
    )
    min_knock: float = field(
        default=0,
        metadata=_doc(
            "the lowest score that may knock (0: any)", "003 (17, 19, 21, ...)", "0 to 31"
        ),
    )
    knock_needs_one_suit: bool = field(
        default=False,
        metadata=_doc("a knock only with three cards of one suit", "003", "true, false"),
    )
    first_turn_knock: str = field(
        default="allowed",
        metadata=_doc(
            "the round's first turn: allowed (the first player may knock on the dealt hand), "
            "forbidden, or blind (the hammer: before anybody looks, the first player may call a "
            "showdown of the dealt hands; the lowest loses 1, a caller among the lowest 2; no "
            "knock on the first turn after looking; computer players never call it)",
            "003",
            ", ".join(FIRST_TURN_KNOCK),
        ),
    )
    thirty_one_after_knock: str = field(
        default="ends_round",
        metadata=_doc(
            "a 31 shown after a knock: ends_round, or continues (everybody else loses a life "
            "and the round goes on to the showdown)",
            "001, 003",
            ", ".join(THIRTY_ONE_AFTER_KNOCK),
        ),
    )
    may_hide_31: bool = field(
        default=False,
        metadata=_doc(
            "a person may keep a 31 reached in play hidden: the round goes on, the hidden hand "
            "counts 30 at the showdown, and pays if somebody else shows 31 (computer players "
            "always show; a dealt 31 is always shown)",
            "003",
            "true, false",
        ),
    )
    two_player_mercy: bool = field(
        default=False,
        metadata=_doc(
            "with two players left, on the final turn after the opponent knocks you may take "
            "your own last put-down",
            "003",
            "true, false",
        ),
    )

    PRESET_INFO: ClassVar[dict[str, Preset]]
    PRESETS: ClassVar[dict[str, dict[str, Any]]]

    def __post_init__(self) -> None:
        # Every field read and checked by the core, and stored as it reads it.
        checked = _core.parse_rules(None, [(f.name, getattr(self, f.name)) for f in fields(self)])
        for name, value in checked.items():
            object.__setattr__(self, name, tuple(value) if name == "life_names" else value)

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def standard(cls) -> Rules:
        """The standard table (seed 000): 4 seats, 3 lives, knock penalty 2."""
        return cls()

    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of a named preset (see :attr:`PRESET_INFO`)."""
        if not isinstance(name, str):
            raise RuleError(f"a preset is named by text, not {type(name).__name__}")
        return cls.from_spec(name)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some fields changed (unknown fields are refused)."""
        return cls_from(_core.parse_rules(self.to_dict(), list(changes.items())))

    @classmethod
    def from_spec(cls, spec: str | Mapping[str, Any] | Rules | None) -> Rules:
        """Rules from a preset name, a mapping ``{"preset": ..., key: value, ...}``, or Rules."""
        if spec is None:
            return cls.standard()
        if isinstance(spec, Rules):
            return spec
        if isinstance(spec, str | Mapping):
            return cls_from(_core.parse_rules(spec))
        raise RuleError(f"rules must be a preset name or an object, not {type(spec).__name__}")

    @classmethod
    def option_names(cls) -> list[str]:
        return [f.name for f in fields(cls)]

    @classmethod
    def options(cls) -> list[OptionInfo]:
        """Every option with its values, default, meaning and the rule documents it comes from."""
        return [
            OptionInfo(
                f.name,
                f.metadata["values"],
                _text(f.default),
                f.metadata["doc"],
                f.metadata["seed"],
            )
            for f in fields(cls)
        ]

    @classmethod
    def parse_assignment(cls, text: str) -> tuple[str, Any]:
        """Parse ``KEY=VALUE`` (as given to ``--rule``) into a field name and a typed value."""
        key, value = _core.rule_assignment(text)
        return key, tuple(value) if isinstance(value, list) else value

    # -- use ------------------------------------------------------------------------------------

    def round_rules(self) -> dict[str, Any]:
        """The round-level fields, as the Rust core takes them."""
        return {name: getattr(self, name) for name in _ROUND_FIELDS}

    def to_dict(self) -> dict[str, Any]:
        """Every field (``life_names`` as a list), e.g. for a state's ``rules`` object."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["life_names"] = list(self.life_names)
        return out

    @property
    def gin(self) -> bool:
        return self.lives_mode == "gin"

    def is_out(self, lives_left: int) -> bool:
        """Whether a player with ``lives_left`` is out of the game: at no lives, or, with the
        county, below none (a player at none is on the county)."""
        return _game_rules(self).is_out(lives_left)

    def on_county(self, lives_left: int) -> bool:
        return _game_rules(self).on_county(lives_left)

    def unit(self, n: int) -> str:
        """``1 life``, ``2 lives``; ``1 letter``, ``2 letters`` under Gin lives."""
        if self.gin:
            return f"{n} letter" if n == 1 else f"{n} letters"
        return f"{n} life" if n == 1 else f"{n} lives"

    def loses(self, n: int, *, article: bool = False) -> str:
        """``loses 1 life`` (``loses a life`` with ``article``), ``loses 2 lives``; ``takes a
        letter``, ``takes 2 letters`` under Gin lives."""
        if self.gin:
            return "takes a letter" if n == 1 else f"takes {n} letters"
        if n == 1 and article:
            return "loses a life"
        return f"loses {self.unit(n)}"

    def letters(self, lives_left: int) -> str:
        """Gin lives: the letters taken (``G I``), :data:`NO_LETTERS` for none (the core says
        ``-``, which a player reads as nothing shown; ruling 353)."""
        taken = _game_rules(self).letters(lives_left)
        return NO_LETTERS if taken == "-" else taken

    def standing(self, lives_left: int) -> str:
        """A player's standing in words: ``2 lives``, ``on the county``, ``out``, the letters
        taken under Gin lives, or the table's :attr:`life_names`."""
        out = self.is_out(lives_left)
        if self.life_names:
            if out:
                return self.life_names[-1]
            return self.life_names[min(self.lives - lives_left, len(self.life_names) - 2)]
        if self.gin:
            return f"{self.letters(lives_left)} (out)" if out else self.letters(lives_left)
        if out:
            return "out"
        if self.on_county(lives_left):
            return "on the county"
        return self.unit(lives_left)

    def hand_name(self, score: float) -> str | None:
        """What the table calls a hand of ``score`` when it is shown, or None. Cadillac's names
        (rule document 003) come with its three aces: where they are a Grand Cadillac worth 33,
        a 31 is a Cadillac. A word only: the scoring is the same (ruling 126)."""
        if self.three_aces != "33":
            return None
        return {31.0: "a Cadillac", 33.0: "a Grand Cadillac"}.get(float(score))

    def hide_question(self, *, knocked: bool) -> tuple[str, str]:
        """The question put to a person whose put-down leaves 31 where they may keep it hidden
        (``may_hide_31``): its heading and its words, the same in the terminal and the browser
        (ruling 280). ``knocked``: somebody has knocked this round; where a 31 shown after a knock
        lets the round go on (``thirty_one_after_knock`` ``continues``), showing it then does not
        end the round."""
        called = self.hand_name(31)
        title = f"That leaves you {called} (31)!" if called else "That leaves you 31!"
        others = f"everybody else {self.loses(1, article=True)}"
        if knocked and self.thirty_one_after_knock == "continues":
            show = f"Show it: {others}, and the round goes on to the showdown."
        else:
            show = f"Show it and the round ends: {others}."
        return title, (
            f"{show} Or keep it hidden: the round goes on and it counts 30 at the showdown "
            f"(and you pay if somebody else shows {called or '31'})."
        )

    def lives_summary(self) -> str:
        """The table's lives in a few words, for the opening line of a game. Under Gin lives
        with names of the lives, the names stand for the letters, as the standings give them."""
        if self.gin:
            if self.life_names:
                return "Gin lives: " + " → ".join(self.life_names)
            return "Gin lives: G, I, N and you are out"
        text = f"{self.unit(self.lives)} each"
        if self.county:
            text += ", then on the county"
        if self.life_names:
            text += " (" + " → ".join(self.life_names) + ")"
        return text

    def points(self, place: int) -> int | None:
        """The points of a place under ranked placing (3, 2, 1, then 0); None when the winner
        takes all."""
        return _game_rules(self).points(place)

    def names_needed(self) -> int:
        """How many :attr:`life_names` a table with these lives needs."""
        return _game_rules(self).names_needed()

    def turn_order(self, lives: Sequence[int], dealer: int) -> list[int]:
        """The seats dealt in when ``dealer`` deals (``lives``: every seat's): those still in,
        in turn order from the dealer's left."""
        return _game_rules(self).turn_order(list(lives), dealer)

    def next_dealer(self, lives: Sequence[int], dealer: int) -> int:
        """The next dealer after ``dealer``: the next seat still in."""
        return _game_rules(self).next_dealer(list(lives), dealer)


@functools.lru_cache(maxsize=64)
def _game_rules(rules: Rules) -> _core.GameRules:
    """The core's game-level facts of a table (who is out, points, letters, the deal passing
    left), read once per table."""
    return _core.GameRules(rules.to_dict())


def cls_from(checked: Mapping[str, Any]) -> Rules:
    """Rules from the core's checked fields."""
    fields_: dict[str, Any] = {k: tuple(v) if k == "life_names" else v for k, v in checked.items()}
    return Rules(**fields_)


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ", ".join(value) if value else "(none)"
    return str(value)


# -- presets --------------------------------------------------------------------------------------
# The presets' values are the core's (`_core.parse_rules(name)`); here, what a player reads.

_PRESETS = (
    Preset(
        "standard",
        "rule document 000 (rules.md)",
        "The standard table: 3 lives and no county; a knocker caught lowest, or tied for "
        "lowest, pays 2 and the others tied 1; 31 ends the round; three of a kind is not "
        "special; a knock is allowed on the first turn.",
    ),
    Preset(
        "five-lives",
        "rule document 001",
        "5 lives; three of a kind scores 30.5; a 31 shown after a knock costs everybody else a "
        "life and the round goes on to the showdown, so a knocker can lose several lives in one "
        "round. A knocker caught lowest pays 2, as standard.",
    ),
    Preset(
        "four-corners",
        "rule document 002",
        "4 lives (the four corners of the stake's bill), then on the county: a fifth loss puts "
        "you out. A knocker who loses pays double (2), as standard. Standings read as corners "
        "folded.",
    ),
    Preset(
        "scat",
        "rule document 003 (main rules)",
        "3 lives, then on the county; a knocker tied for lowest is safe and the others tied pay "
        "1; a knocker lowest alone pays 2; with two players left, the final turn after a knock "
        "may take back your own last put-down (mercy); a person may hide a 31 (it counts 30).",
    ),
    Preset(
        "cadillac",
        "rule document 003 (Cadillac)",
        "Scat's rules with 4 lives (then the county); 31 is a Cadillac; three aces are a Grand "
        "Cadillac worth 33, any other three of a kind 30; a knocker tied for lowest pays 2 and "
        "the players tied with them nothing.",
    ),
    Preset(
        "ride-the-bus",
        "rule document 003 (Ride the Bus)",
        "Scat's rules with the lives named: everybody starts at the back of the bus, then the "
        "middle, the front, the stairs (on the county), and the next loss puts you off the bus.",
    ),
    Preset(
        "gin-lives",
        "rule document 003 (Gin lives)",
        "Scat's rules with lives as the letters G, I, N and the knock turned round: a knock "
        "claims the highest hand; if it is higher than every other, everybody else takes a "
        "letter, otherwise (beaten or tied) the knocker takes one. A 31 shown gives everybody "
        "else a letter. Three letters and you are out; no county.",
    ),
)


def _changes(name: str) -> dict[str, Any]:
    """The options a preset changes from the standard table."""
    base, preset = _core.parse_rules("standard"), _core.parse_rules(name)
    return {k: tuple(v) if k == "life_names" else v for k, v in preset.items() if base[k] != v}


Rules.PRESET_INFO = {p.name: p for p in _PRESETS}
if sorted(Rules.PRESET_INFO) != sorted(_core.presets()):  # pragma: no cover (a build mismatch)
    raise ImportError("thirtyone: the presets described here are not the core's presets")
Rules.PRESETS = {p.name: _changes(p.name) for p in _PRESETS}
