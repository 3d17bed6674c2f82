"""The rules as screens: ``thirtyone rules`` (the presets with the rule document each follows and
how it differs from standard, every option with its values, default and meaning; or one
preset's value of every option), and the help of ``?`` during a game (the keys, the table's
rules in short, the advice's words)."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from thirtyone._core import Action
from thirtyone.game.rules import Rules
from thirtyone.terminal.display import fmt_score


def rules_report(preset: str | None = None) -> RenderableType:
    """Every preset and option; with ``preset``, that table's value of every option."""
    if preset is not None:
        return preset_table(preset)
    presets = Table(title="Presets (--rules)", title_justify="left", box=box.SIMPLE_HEAD)
    presets.add_column("Preset", no_wrap=True)
    presets.add_column("How it differs from standard")
    for p in Rules.PRESET_INFO.values():
        presets.add_row(
            Text(p.name, style="bold").append(f"\n{p.document}", style="dim"), p.differs
        )
    options = Table(
        title="Rule options (--rule KEY=VALUE)", title_justify="left", box=box.SIMPLE_HEAD
    )
    options.add_column("Option", max_width=24)
    options.add_column("Default", max_width=16)
    options.add_column("Meaning")
    for o in Rules.options():
        options.add_row(
            Text(o.name, style="bold").append(f"\n{o.values}", style="dim"),
            o.default,
            Text(o.meaning).append(f" — rule document {o.seed}", style="dim"),
        )
    note = Text(
        "Example: thirtyone play --rules scat --rule placing=ranked --rule min_knock=17\n"
        "Computer players never call the blind showdown and always show a 31 (the table's "
        "decision rule has no clause for either); the Oracle assumes the same of every player.",
        style="dim",
    )
    return Group(presets, options, note)


def preset_table(preset: str) -> Table:
    """One preset's value of every option, beside the standard table's where it differs."""
    info = Rules.PRESET_INFO[preset]
    rules = Rules.preset(preset)
    standard = Rules.standard()
    table = Table(
        title=f"{preset}: {info.document}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        caption=info.differs,
        caption_justify="left",
    )
    table.add_column("Option", style="bold", no_wrap=True)
    table.add_column("Value")
    table.add_column("Standard", style="dim")
    for option in Rules.options():
        value = _rule_value(getattr(rules, option.name))
        base = _rule_value(getattr(standard, option.name))
        table.add_row(option.name, value, "" if value == base else base)
    return table


def _rule_value(value: object) -> str:
    """An option's value as the table lists it; the names of the lives in order, as the opening
    line of a game gives them (``bill unfolded → … → out, stake in the centre``): joined by
    commas, four-corners' six read as seven, its last name holding one."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return " → ".join(value) if value else "(none)"
    return str(value)


def help_text(
    legal: Sequence[Action],
    *,
    putting_down: bool,
    rules: Rules | None = None,
    advice_keys: bool = False,
    unit: str | None = None,
    positions: str = "1-4",
) -> RenderableType:
    """What the person may type (``positions``: the cards that may be put down, ``1-3`` after a
    take), the table's rules in short (built from ``rules``), and, with ``advice_keys``, the
    keys and the words of the Oracle's advice."""
    r = rules or Rules.standard()
    lines: list[RenderableType] = [Text("What you can type:", style="bold")]
    if putting_down:
        lines.append(Text(f"  {positions:<11}put down the card at that position"))
        lines.append(Text("  AH, 10d    put down that card (rank A 2-9 T/10 J Q K, suit C D H S)"))
        if any(a.kind == "hide" for a in legal):
            lines.append(
                Text("             (a put-down that leaves 31: you are asked to show or hide it)")
            )
    else:
        meanings = {
            "knock": "  k          knock: everybody else gets one more turn, then showdown",
            "draw": "  d          draw the top card of the stock",
            "take": "  t          take the top card of the discard pile",
            "decline": "  x          decline the top card (stock empty): the round ends",
        }
        kinds = {a.kind for a in legal}
        for action, meaning in meanings.items():
            if action in kinds:
                lines.append(Text(meaning))
    if advice_keys:
        lines.append(Text("  Enter      play the Oracle's best move, the ★ (you confirm first)"))
        lines.append(
            Text("  a / o      the advice in full / advice on every turn or only when asked")
        )
        lines.append(Text("  r / l      what the opponents probably hold / the round and the pile"))
    else:
        lines.append(Text("  l          the round so far and the discard pile"))
    lines.append(Text("  ?          this help"))
    lines.append(Text("  q          quit the game"))
    lines.append(Text(rules_in_short(r), style="dim"))
    lines += [Text(line, style="dim") for line in table_limits(r)]
    if advice_keys:
        lines.append(Text("The advice's words:", style="bold"))
        lines.append(glossary_table(unit or ("letters" if r.gin else "lives")))
    return Group(*lines)


def glossary_table(unit: str) -> Padding:
    """The advice's words and their meanings in two columns: each meaning broken between its
    words to the width it is printed at, its later lines under its first (a meaning the
    glossary gives over several entries is joined into one first)."""
    from thirtyone.oracle.words import glossary

    entries: list[tuple[str, str]] = []
    for word, meaning in glossary(unit):
        if not word and entries:
            entries[-1] = (entries[-1][0], f"{entries[-1][1]} {meaning}")
        else:
            entries.append((word, meaning))
    table = Table.grid(padding=(0, 1, 0, 0))
    table.add_column(no_wrap=True, min_width=12)
    table.add_column(overflow="fold")  # (a word wider than the screen is folded, not lost)
    for word, meaning in entries:
        table.add_row(word, meaning)
    return Padding(table, (0, 0, 0, 2))


def rules_in_short(rules: Rules) -> str:
    """How a round is scored at this table, in a few sentences."""
    r = rules
    aces = "ace 11, pictures 10"
    text = f"Your score is the best total of one suit ({aces})"
    if r.three_aces != "none":
        text += f"; three aces score {r.three_aces}"
    if r.three_of_a_kind != "none":
        text += f"; three of a kind {r.three_of_a_kind}"
    if r.runs:
        text += "; three in sequence of one suit 30"
    text += "."
    if r.gin:
        text += (
            " A knock claims the highest hand: if it is higher than every other, everybody "
            f"else takes a letter; otherwise the knocker takes {r.unit(r.knock_penalty)}."
            " With no knock, the lowest hand takes a letter. G, I, N and you are out."
        )
    else:
        text += (
            f" The lowest hand at the end of a round {r.loses(1, article=True)}; "
            f"{_knocker_pays(r)}."
        )
    everybody = f"everybody else {r.loses(1, article=True)}"
    if r.thirty_one_after_knock == "continues":
        text += f" A 31 shown ends the round ({everybody}); after a knock the round goes on."
    elif r.may_hide_31:
        text += f" A 31 shown ends the round at once: {everybody}."
    else:
        text += f" 31 ends the round at once: {everybody}."
    if r.may_hide_31:
        text += (
            " You may keep a 31 made in play hidden instead: the round goes on and it counts 30."
        )
    return text


def _knocker_pays(r: Rules) -> str:
    """What a knocker caught lowest pays, alone or tied (ruling 192)."""
    pays = f"pays {r.unit(r.knock_penalty)}"
    alone, tied = f"a knocker who is lowest alone {pays}", "a knocker tied for lowest"
    nothing = ", and the others tied with the knocker lose nothing"
    return {
        "others_pay": f"{alone}; {tied} is safe",
        "cadillac": f"{alone}; {tied} pays {r.unit(2)}{nothing}",
        "only_knocker": f"a knocker who is lowest, or tied for lowest, {pays}{nothing}",
    }.get(r.knocker_tie, f"a knocker who is lowest, or tied for lowest, {pays}")


def table_limits(rules: Rules) -> list[str]:
    """The table's knock minimum, one-suit knock, first turn (no knock, or the blind showdown),
    the two players' mercy and county, one short line each, in the words of the refusals
    (``this table allows a knock only from 17``); none where they are not played."""
    lines = []
    if rules.min_knock > 0:
        least = fmt_score(rules.min_knock)
        lines.append(f"This table allows a knock only from a score of {least}.")
    if rules.knock_needs_one_suit:
        lines.append("This table allows a knock only with three cards of one suit.")
    if rules.first_turn_knock == "forbidden":
        lines.append("This table allows no knock on the first turn of a round.")
    elif rules.first_turn_knock == "blind":
        lines.append(
            "The first player may call a blind showdown before anybody looks: the lowest dealt "
            f"hand {rules.loses(1, article=True)}, and {rules.unit(2)} if it is the caller's; "
            "after looking, no knock on that first turn."
        )
    if rules.two_player_mercy:
        lines.append(
            "With two players left, your final turn after the other's knock may take back your "
            "own last put-down."
        )
    if rules.county:
        where = rules.standing(0)  # (the table's name for it: "on the stairs")
        where = where if where.startswith("on ") else f"on the county ({where})"
        lines.append(f"After your last life you play on, {where}; the next loss puts you out.")
    return lines
