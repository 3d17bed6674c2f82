"""The run's figures as tables in the terminal (rich), each beside its target."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from bench_query import median
from bench_targets import TARGET_4P_SLOWEST_S, TARGET_6P_EARLY_S

if TYPE_CHECKING:
    from rich.console import Console


def _ms(s: float | None) -> str:
    return "-" if s is None or math.isnan(s) else f"{1000 * s:.1f} ms"


def _big(x: float | None) -> str:
    if x is None or math.isnan(x):
        return "-"
    for unit, scale in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(x) >= scale:
            return f"{x / scale:.2f} {unit}"
    return f"{x:.1f}"


def _value(row: dict[str, Any]) -> str:
    v = row["value"]
    if v is None:
        return "-"
    unit = row["unit"]
    if unit == "s":
        return _ms(v)
    if unit == "x":
        return f"{v:.2f}x" if v < 100 else f"{v:,.0f}x"
    if unit == "MB":
        return f"{v:.1f} MB"
    if unit == "count":
        return f"{v:.3f}" if v < 10 else f"{v:,.1f}"
    return _big(v)


def _goal(row: dict[str, Any]) -> str:
    sign = ">=" if row["higher_is_better"] else "<="
    goal = row["goal"]
    text = _value({**row, "value": goal})
    return f"{sign} {text}"


def show(r: dict[str, Any]) -> None:
    from rich.console import Console

    console = Console(width=max(Console().width, 130))
    _header(console, r)
    _positions(console, r)
    _latency(console, r)
    if r["deals"]:
        _deals(console, r)
    _scaling_and_reference(console, r)
    _instructions_and_memory(console, r)
    _host_independent(console, r)
    _targets(console, r)


def _header(console: Console, r: dict[str, Any]) -> None:
    """The machine, the commit, how busy the machine was, and the precision."""
    m = r["machine"]
    console.print(
        f"[bold]Oracle benchmark[/bold]  {m['cpu']}, {m['usable_cpus']} usable of "
        f"{m['logical_cpus']} CPUs, load {m['load_average'][0]:.2f} before / "
        f"{m['load_average_after'][0]:.2f} after; commit {str(r['git']['commit'])[:10]}"
        f"{' + uncommitted changes' if r['git']['code_dirty'] else ''}"
    )
    caches = m.get("caches") or {}
    if caches:
        console.print("Caches (first CPU): " + ", ".join(f"{k} {v}" for k, v in caches.items()))
    share = m.get("others_share_during_run")
    if share is not None:
        style = "red" if share > 0.15 else "green"
        console.print(
            f"[{style}]Other processes took {100 * share:.0f}% of the machine during the run"
            + (": the figures are contended, compare ratios only" if share > 0.15 else "")
            + f"[/{style}]"
        )
    p = r["precision"]
    console.print(
        f"{p['deals']:,} deals, {p['playouts']:,} playouts per option, {p['threads']} threads, "
        f"{p['reps']} repetitions"
        + ("  [yellow](quick: targets not judged)[/yellow]" if r["quick"] else "")
    )


def _positions(console: Console, r: dict[str, Any]) -> None:
    from rich.table import Table

    t = Table(title=f"Positions (fingerprint {r['positions_fingerprint']})")
    t.add_column("position")
    t.add_column("")
    for name, info in r["positions"].items():
        t.add_row(name, f"{info['describe']} (seed {info['seed']})")
    console.print(t)


def _latency(console: Console, r: dict[str, Any]) -> None:
    from rich.table import Table

    t = Table(title="Latency of a round-level query, per position")
    for col in (
        "position",
        "median",
        "worst",
        "with lives",
        "deals part",
        "playouts",
        "playouts/s/core",
        "turns/playout*",
        "turns/s/core*",
        "target (median)",
    ):
        t.add_column(col, justify="left" if col == "position" else "right")
    for name, e in r["latency"].items():
        t.add_row(*_latency_row(name, e, r["quick"]))
    console.print(t)
    console.print(
        "[dim]The round-level query (the state without lives) is the one the targets are set "
        "on; 'with lives': the median of the same position asked with the game-level figures "
        "(as `thirtyone play` asks), timed in the same repetitions. * table-rule turns counted "
        "by the engine (a counting build, the same query with seed 1; see benches/README.md). "
        "'deals part': the query with one playout per option.[/dim]"
    )


def _latency_row(name: str, e: dict[str, Any], quick: bool) -> list[str]:
    goal = TARGET_6P_EARLY_S if name == "6p-early" else None
    if name.startswith("4p-"):
        goal = TARGET_4P_SLOWEST_S
    mark = ""
    if goal is not None:
        ok = e["median_s"] <= goal
        verdict = "-" if quick else "[green]pass[/green]" if ok else "[red]FAIL[/red]"
        mark = f"<= {_ms(goal)} {verdict}"
    tpp = e.get("turns_per_playout")
    return [
        name,
        _ms(e["median_s"]),
        _ms(e["worst_s"]),
        _ms(e["game_median_s"]) if "game_median_s" in e else "-",
        _ms(e["deals_in_query_median_s"]),
        f"{e['playouts_per_query']:,}",
        _big(e["playouts_per_s_per_core"]),
        "-" if tpp is None else f"{tpp:.1f}",
        _big(e.get("turns_per_s_per_core")),
        mark,
    ]


def _deals(console: Console, r: dict[str, Any]) -> None:
    """Consistent deals per 100 ms, seat counts by phase, and the late positions of games."""
    from rich.table import Table

    deals = r["deals"]
    n = f"{r['precision']['deal_count']:,}"
    t = Table(title=f"{n} consistent deals inside a query: time (deals per 100 ms)")
    phases = ("first", "early", "middle", "late")
    t.add_column("seats")
    for ph in phases:
        t.add_column(ph, justify="right")
    for seats in range(2, 10):
        row = [str(seats)]
        for ph in phases:
            d = next(
                (
                    d
                    for d in deals.values()
                    if (d["seats"], d["phase"]) == (seats, ph) and not d["game"]
                ),
                None,
            )
            row.append("-" if d is None else f"{_ms(d['median_s'])} ({d['deals_per_100ms']:,.0f})")
        t.add_row(*row)
    console.print(t)
    games = [(name, d) for name, d in deals.items() if d["game"]]
    console.print(
        "Late positions of real games: "
        + ", ".join(f"{name} {_ms(d['median_s'])}" for name, d in games)
    )
    console.print(
        "[dim]The query with one playout per option (the state's check, the opponents' counts "
        "and the deals); where deals are rare they are importance-weighted and the count is "
        "their effective number (docs/sampling.md).[/dim]"
    )


def _scaling_and_reference(console: Console, r: dict[str, Any]) -> None:
    s = r["scaling"]
    console.print(
        f"Thread scaling on {s['position']}: one thread {_ms(median(s['one_thread_s']))}, two "
        f"{_ms(median(s['two_threads_s']))} (medians): {s['ratio']:.2f}x; fastest against "
        f"fastest: {s['ratio_best']:.2f}x"
    )
    if "ratio_by_cpu" in s:
        busiest = median([c[0] for c in s["two_threads_cpu_s"]])
        rest = median([sum(c[1:]) for c in s["two_threads_cpu_s"]])
        console.print(
            f"  CPU time (medians): one thread {_ms(median(s['one_thread_cpu_s']))}; two, "
            f"{_ms(busiest)} and {_ms(rest)}, which waited {_ms(median(s['two_threads_waited_s']))}"
            f" ready for a CPU; by CPU time, the busiest worker's: {s['ratio_by_cpu']:.2f}x"
        )
    ref = r["reference"]
    if "error" in ref:
        console.print(f"Python reference: unavailable ({ref['error']})")
    else:
        console.print(
            f"Python reference on {ref['position']} ({ref['python_option']}, never knocking): "
            f"{ref['python_playouts_per_s']:,.0f} playouts/s, {_big(ref['python_turns_per_s'])} "
            f"turns/s, {ref['python_lives_lost_per_playout']:.4f} lives lost a playout"
        )
        if "same_playouts_per_s" in ref:
            console.print(
                f"  Rust on one thread, the same playouts: {_big(ref['same_playouts_per_s'])} "
                f"playouts/s, {ref['same_lives_lost_per_playout']:.4f} lives lost a playout: "
                f"{ref['playout_ratio']:,.0f}x"
            )
        console.print(
            f"  Rust on one thread, a query's playouts (each a whole sweep): "
            f"{_big(ref['rust_playouts_per_s_one_thread'])} playouts/s: "
            f"{ref['query_playout_ratio']:,.0f}x"
            + (f"; per table-rule turn {ref['turn_ratio']:,.0f}x" if "turn_ratio" in ref else "")
        )


def _instructions_and_memory(console: Console, r: dict[str, Any]) -> None:
    ins = r.get("instructions")
    if ins:
        console.print(
            f"Instructions (callgrind, one thread) on {ins['position']}: "
            f"{ins['per_playout']:,.0f} per playout"
            + (f", {ins['per_turn']:,.0f} per table-rule turn*" if "per_turn" in ins else "")
            + (
                f"; at the one-thread playout rate, the host ran {ins['per_ns_one_thread']:.1f} "
                "instructions per ns"
                if "per_ns_one_thread" in ins
                else ""
            )
        )
    mem = r["memory"]
    console.print(
        "Peak memory (RSS high-water mark of a fresh interpreter): "
        + ", ".join(
            f"{n}: {q['import_mb']:.1f} MB after importing thirtyone, {q['peak_mb']:.1f} MB "
            f"after the query (+{q['over_import_mb']:.1f} MB)"
            for n, q in mem["queries"].items()
        )
    )


def _host_independent(console: Console, r: dict[str, Any]) -> None:
    """Instructions and simulated small-cache misses per turn, beside the turn rate timed on
    this host."""
    from rich.table import Table

    hi = r.get("host_independent") or {}
    if "skipped" in hi:
        console.print(f"[yellow]Host-independent figures skipped: {hi['skipped']}[/yellow]")
        return
    if not hi:
        return
    t = Table(title="Per table-rule turn, host-independent (valgrind) beside this host's rate")
    for col in ("position", "instructions", "LL misses (512 KB)", "D1 misses", "turns/s/core"):
        t.add_column(col, justify="left" if col == "position" else "right")
    for name, f in hi["positions"].items():
        rate = r["latency"].get(name, {}).get("turns_per_s_per_core")
        t.add_row(
            name,
            f"{f['instructions_per_turn']:.1f}",
            f"{f['ll_misses_per_turn']:.4f}",
            f"{f['d1_misses_per_turn']:.3f}",
            _big(rate),
        )
    console.print(t)
    console.print(f"[dim]{hi['method']}[/dim]")


def _targets(console: Console, r: dict[str, Any]) -> None:
    from rich.table import Table

    t = Table(title="Performance targets")
    for col in ("target", "measured", "goal", ""):
        t.add_column(col, justify="left" if col == "target" else "right")
    for row in r["targets"]:
        ok = row["pass"]
        mark = "[green]pass[/green]" if ok else "[red]FAIL[/red]" if ok is False else "-"
        if "note" in row:
            mark = "- (note)"
        t.add_row(row["target"], _value(row), _goal(row), mark)
    console.print(t)
    for row in r["targets"]:
        if "note" in row:
            console.print(f"[dim]note: {row['target']}: {row['note']}[/dim]")
