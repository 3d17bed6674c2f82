//! The Oracle: every option of the advised player, evaluated over consistent deals by the
//! Monte Carlo engine, with the knock-threshold sweep and its confirmation (`oracle.md`).

use std::sync::Arc;
use std::time::Instant;

use montecarlo::{collect, evaluate, CollectSettings, Collected, EvalSettings, Runner, Stop};

use super::answer::{game_figures_in_range, rank, report, thousands, warnings};
use super::opponents::Opponents;
use super::settings::{
    Settings, ATTEMPTS_PER_DEAL, LEAST_ATTEMPTS, MAX_DEALS, MIN_DEALS, MIN_PLAYOUTS, PROBE_ATTEMPTS,
};
use super::{Choice, Playouts};
use crate::error::{Error, Result};
use crate::game::game_value::{GameValue, Prepared, Unavailable, MAX_WORK};
use crate::game::GameRules;
use crate::hand::{Card, Score};
use crate::inference::{Deal, Inference};
use crate::model::Model;
use crate::view::{Opponent, StateInput, View};

/// An option as reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    Knock,
    Draw,
    /// Take `card` (the top discard) and put down `discard`.
    Take {
        card: Card,
        discard: Card,
    },
    /// Put down `card` after a pending draw.
    Discard {
        card: Card,
    },
    Decline,
}

/// The sweep of one option: figures for every knock threshold (None: never).
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    pub knock_at: Vec<Option<Score>>,
    pub p_safe: Vec<f64>,
    pub lives_lost: Vec<f64>,
}

/// One option's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct OptionReport {
    pub kind: OptionKind,
    pub p_safe: f64,
    pub margin: f64,
    pub lives_lost: f64,
    /// The 95% margin of `lives_lost` (over the same units as `margin`).
    pub lives_lost_margin: f64,
    /// Some(threshold) when the option was swept (Some(None) = never knock).
    pub knock_at: Option<Option<Score>>,
    pub sweep: Option<Sweep>,
    /// The playouts behind the reported figures.
    pub playouts: u64,
    /// With the lives known: the chance of winning the game (or, under ranked placing, the
    /// points to expect) after this option, and its 95% margin.
    pub p_win: Option<f64>,
    pub p_win_margin: Option<f64>,
    /// The score of the hand the option keeps (None when it is not known: a draw, a decline).
    pub keeps: Option<Score>,
    /// A draw while you hold a 31 kept hidden: whatever comes, the rule's put-down keeps the 31
    /// and shows it, which ends the round (no knock follows; the draw is not swept).
    pub shows_hidden_31: bool,
}

/// The game around the round: its rules and every seat's lives now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInput {
    pub rules: GameRules,
    pub lives: Vec<u8>,
}

/// The Oracle's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    /// Best first.
    pub options: Vec<OptionReport>,
    /// Options (indices into `options`) statistically tied with the best.
    pub tied: Vec<usize>,
    pub deals: usize,
    pub deals_asked: usize,
    pub playouts: usize,
    /// The attempts the consistent deals took (opponents' hands and combinations tried, weighted
    /// proposals, probes and pilots), over every collection of the answer: its work, bounded by
    /// [`most_attempts`].
    pub attempts: u64,
    pub warnings: Vec<String>,
    /// Each opponent's seat with the score of their hand in every deal the figures were played
    /// over, in the deals' order: the read of that opponent that the answer rests on.
    pub opponent_scores: Vec<(u8, Vec<Score>)>,
    /// Each modelled opponent's seat (a person, the expert) with the score they knock at in
    /// every deal, in the deals' order: what the answer believes of their knocks.
    pub opponent_knocks: Vec<(u8, Vec<Score>)>,
    /// With the lives known: the option (index into `options`) with the highest `p_win`.
    pub best_game: Option<usize>,
    /// With the lives known: the game-level value is expected points (ranked placing), not a
    /// chance of winning.
    pub points: bool,
}

/// The score of each opponent's hand in each deal.
fn opponent_scores(view: &View, deals: &[Deal]) -> Vec<(u8, Vec<Score>)> {
    let scoring = view.public.rules.scoring;
    view.opponents
        .iter()
        .map(|o| {
            let s = o.seat as usize;
            (
                o.seat,
                deals.iter().map(|d| scoring.score(d.hands[s])).collect(),
            )
        })
        .collect()
}

/// The score each modelled opponent knocks at in each deal, where it says something: before
/// anybody knocks, and for a knocker whose knock was read by that score (a person: it is how
/// their knock was read). Nobody knocks after a knock, and the expert's knock is read by a curve
/// of its own (`model::KnockCurve`), the same at every knock score. An expert one against one
/// reads the table where hands score the standard way (`round::reading`): it knocks by what it
/// reads, not at a knock score, which says nothing there. An expert at four seats or more knocks
/// in the playouts at its knock score moved by the round's lap (`model::LapKnocks`): the score it
/// knocks at now is given (a knock score of 26 knocks from 23 on the first lap), as the figures
/// beside it are played.
fn opponent_knocks(view: &View, deals: &[Deal]) -> Vec<(u8, Vec<Score>)> {
    let (seats, turns) = (view.public.seats, view.public.turns_played);
    let standard = view.public.rules.scoring.table().is_standard();
    let says = |o: &&Opponent| match view.public.knocker {
        _ if standard && o.model.reads(seats) => false,
        None => true,
        Some(k) => k == o.seat && o.model.params().is_some_and(|p| p.knocks.is_none()),
    };
    // (The playouts' own knocks by the lap.)
    let playouts = Opponents::new(view);
    view.opponents
        .iter()
        .filter(|o| o.model != Model::Table && says(o))
        .map(|o| {
            let s = o.seat as usize;
            let now = |k: Score| playouts.lap_knock(s, k, turns).unwrap_or(k);
            (o.seat, deals.iter().map(|d| now(d.knock_at[s])).collect())
        })
        .collect()
}

/// Every score a hand can have under these rules that the table lets a player knock with.
pub fn knock_thresholds(view: &View) -> Vec<Score> {
    let scoring = view.public.rules.scoring;
    let mut seen = [false; 256];
    let cards: Vec<Card> = Card::all().collect();
    for i in 0..52 {
        for j in i + 1..52 {
            for k in j + 1..52 {
                seen[scoring.score([cards[i], cards[j], cards[k]]).halves() as usize] = true;
            }
        }
    }
    (0..=254u8)
        .map(Score)
        .filter(|s| seen[s.halves() as usize] && *s >= view.public.rules.min_knock)
        .collect()
}

/// Your options now.
fn choices(view: &View) -> Vec<Choice> {
    let mut choices = Vec::new();
    if let Some((new, from_pile)) = view.pending {
        choices.extend(view.hand.map(Choice::Discard));
        if !from_pile {
            choices.push(Choice::Discard(new));
        }
    } else {
        if view.may_knock() {
            choices.push(Choice::Knock);
        }
        if view.public.stock_len > 0 {
            choices.push(Choice::Draw);
        }
        if view.may_take() {
            choices.push(Choice::Take);
        }
        if view.public.stock_len == 0 {
            choices.push(Choice::Decline);
        }
    }
    choices
}

/// Evaluate every option of the player whose view `input` is.
///
/// With `max_time`, the whole answer comes within it, but for the least work an answer rests on:
/// consistent deals are collected for at most 40% of the time, and the playouts, played for every
/// option side by side, stop when the time is up (the best estimate reached, with the margin its
/// numbers give). The least work ([`MIN_DEALS`] deals and [`MIN_PLAYOUTS`] playouts per option,
/// or fewer if fewer are asked) is done even when the time is up, bounded in work, not time
/// ([`LEAST_ATTEMPTS`]; only cancellation stops it).
/// With `target_margin`, deals (and playouts) are added until every option's margin is within
/// it.
///
/// With `game` (the lives of every seat), every option is also valued by the game: the chance
/// of winning it from here, through the game-value table ([`crate::game::game_value`]).
pub fn advise(input: &StateInput, game: Option<&GameInput>, settings: &Settings) -> Result<Advice> {
    advise_modelled(input, &[], game, settings)
}

/// [`advise`], each opponent read by their model in `models` (by seat; the table's rule for
/// the seats it does not cover).
pub fn advise_modelled(
    input: &StateInput,
    models: &[Model],
    game: Option<&GameInput>,
    settings: &Settings,
) -> Result<Advice> {
    settings.validate()?;
    let view = View::from_input(input)?.with_models(models);
    let mut runner = Runner::new(settings.threads, None, settings.cancel.clone());
    // The game's table needs its round results: once per table and seat count they are
    // simulated (about a second each, then kept on disk), outside the time limit.
    let prepared = match game {
        Some(g) => Some(prepare_game(&view, g, &runner)?),
        None => None,
    };
    let start = Instant::now();
    // The table itself within a quarter of the time (what it solves is kept for the next
    // question).
    let table_deadline = settings.max_time.and_then(|d| start.checked_add(d / 4));
    let (table, game_notes) = match prepared {
        Some(p) => solve_game(p, &runner, table_deadline)?,
        None => (None, Vec::new()),
    };
    let deadline = settings.max_time.and_then(|d| start.checked_add(d));
    // Each opponent's hands counted: part of the least work (bounded in steps, not time).
    let inference =
        runner.install(|| Inference::cancellable(&view, &settings.cancel, settings.deals));
    let choices = choices(&view);
    let most_lost = game.map(|g| g.rules.losses_until_out(g.lives[usize::from(view.me)]));
    let sim = Playouts::new(&view, knock_thresholds(&view))
        .with_game(table.clone())
        .with_lives(most_lost);
    let (mut target, mut playouts, mut attempts) = (settings.deals, settings.playouts, 0);
    loop {
        // Consistent deals, for at most 40% of the time left.
        let now = Instant::now();
        runner.set_deadline(deadline.map(|d| now + d.saturating_duration_since(now).mul_f64(0.4)));
        let collected = collect_deals(&inference, target, settings.seed, &runner)?;
        attempts += collected.attempts;
        let deals: &[Deal] = &collected.worlds;
        // Playouts: the sweep until 65% of the time left, the confirmation until the end.
        let now = Instant::now();
        runner.set_deadline(deadline);
        let eval = evaluate(
            &sim,
            deals,
            &choices,
            &EvalSettings {
                playouts,
                seed: settings.seed,
                sweep_deadline: deadline
                    .map(|d| now + d.saturating_duration_since(now).mul_f64(0.65)),
                minimum: MIN_PLAYOUTS.min(playouts),
                by_value: settings.sweep_for_game && table.is_some(),
            },
            &runner,
        );
        if eval.stopped == Some(Stop::Cancelled) {
            return Err(Error::Cancelled);
        }
        let mut options: Vec<OptionReport> = choices
            .iter()
            .zip(&eval.choices)
            .map(|(choice, r)| {
                let n = collected.effective(r.result.n) as u64;
                report(&sim, &view, choice, r, n)
            })
            .collect();
        let range_note = table
            .as_ref()
            .and_then(|t| game_figures_in_range(&mut options, t.most()));
        let deals_used = effective_deals(&collected, target);
        // More deals for a target margin, while the time allows and deals are not rare.
        let widest = options.iter().map(|o| o.margin).fold(0.0, f64::max);
        if let Some(m) = settings.target_margin {
            if widest > m
                && eval.stopped.is_none()
                && deals_used == target
                && target < MAX_DEALS
                && deadline.is_none_or(|d| Instant::now() < d)
            {
                let grow = (widest / m).powi(2) * 1.05;
                target = ((target as f64 * grow).ceil() as usize).clamp(target + 1, MAX_DEALS);
                playouts = playouts.max(target);
                continue;
            }
        }
        let played = options.iter().map(|o| o.playouts).min().unwrap_or(0) as usize;
        let mut warnings = warnings(
            &view, &collected, deals_used, &eval, target, playouts, played, widest, settings,
        );
        warnings.extend(game_notes.iter().cloned());
        warnings.extend(range_note);
        let playouts = if eval.stopped.is_some() {
            played
        } else {
            playouts
        };
        let mut advice = rank(options, &eval, deals_used, playouts, target, warnings);
        advice.attempts = attempts;
        advice.opponent_scores = opponent_scores(&view, deals);
        advice.opponent_knocks = opponent_knocks(&view, deals);
        advice.points = table.as_ref().is_some_and(|t| t.points());
        return Ok(advice);
    }
}

/// The game-value table for the advised player (None: the last warning says why), and the
/// warnings: each file of round results that could not be used (ignored and made again), then
/// why there is no table.
type GameTable = (Option<Arc<GameValue>>, Vec<String>);

/// What the game's table needs, or the warning that says why there is none.
fn prepare_game(
    view: &View,
    game: &GameInput,
    runner: &Runner,
) -> Result<std::result::Result<Prepared, String>> {
    match GameValue::prepare(
        &view.public.rules,
        game.rules,
        &game.lives,
        (usize::from(view.me), usize::from(view.public.first)),
        runner,
    ) {
        Ok(p) => Ok(Ok(p)),
        Err(why) => unavailable(why).map(Err),
    }
}

fn solve_game(
    prepared: std::result::Result<Prepared, String>,
    runner: &Runner,
    deadline: Option<Instant>,
) -> Result<GameTable> {
    match prepared {
        Err(note) => Ok((None, vec![note])),
        Ok(mut p) => {
            let mut notes = p.take_notes();
            match p.solve(runner, deadline) {
                Ok(t) => Ok((Some(Arc::new(t)), notes)),
                Err(why) => {
                    notes.push(unavailable(why)?);
                    Ok((None, notes))
                }
            }
        }
    }
}

/// The warning for a table that is not there (cancellation is an error).
fn unavailable(why: Unavailable) -> Result<String> {
    match why {
        Unavailable::Stopped => Err(Error::Cancelled),
        Unavailable::Time => Ok(
            "the chance of winning the game is not computed yet: its table \
             needs more time than this answer had (what was done is kept, and a later answer \
             goes on from there)"
                .into(),
        ),
        Unavailable::TooLarge(work) => Ok(format!(
            "the chance of winning the game is not computed: with these lives the game's table \
             would take about {} steps, more than the {} allowed",
            thousands(work as usize),
            thousands(MAX_WORK as usize)
        )),
    }
}

/// How the Oracle collects `target` consistent deals (and `thirtyone._core.sample_deals` its
/// `n`): the least work and its bounds.
pub fn deal_settings(target: usize, seed: u64) -> CollectSettings {
    CollectSettings {
        target,
        seed,
        probe_attempts: PROBE_ATTEMPTS,
        max_attempts_per_world: ATTEMPTS_PER_DEAL,
        minimum: MIN_DEALS.min(target),
        minimum_attempts: LEAST_ATTEMPTS,
        ..CollectSettings::default()
    }
}

/// The most attempts a collection of `target` deals makes, for `opponents` opponents: the probes
/// of every opponent, a pilot and the least work for every try (one, and one more per opponent
/// dealt without the test because the least work found nothing), and [`ATTEMPTS_PER_DEAL`] per
/// deal asked. An answer's [`Advice::attempts`] is at most the sum of this over its collections
/// (one, but for a target margin).
pub fn most_attempts(target: usize, opponents: usize) -> u64 {
    let tries = opponents as u64 + 1;
    let pilot = montecarlo::sequential::PILOT_ATTEMPTS as u64;
    opponents as u64 * PROBE_ATTEMPTS
        + tries * (pilot + LEAST_ATTEMPTS)
        + ATTEMPTS_PER_DEAL * target as u64
}

/// Up to `target` consistent deals; the least work (until [`MIN_DEALS`] are found) goes on past
/// the time limit, bounded by its attempts. None at all is an error (cancelled, or a history
/// nothing explains even with every opponent dealt without the test).
fn collect_deals(
    inference: &Inference<'_>,
    target: usize,
    seed: u64,
    runner: &Runner,
) -> Result<Collected<Deal>> {
    if runner.stop_by(None) == Some(Stop::Cancelled) {
        return Err(Error::Cancelled); // (the counting may have been cut short)
    }
    let collected = collect(inference, &deal_settings(target, seed), runner);
    match collected.stopped {
        Some(Stop::Cancelled) => Err(Error::Cancelled),
        _ if !collected.worlds.is_empty() => Ok(collected),
        _ => Err(Error::BadState("no consistent deal was found".into())),
    }
}

/// The number of consistent deals the figures rest on: those collected, or where rare deals were
/// importance-weighted and resampled, their effective number (at most the number asked for).
fn effective_deals(collected: &Collected<Deal>, target: usize) -> usize {
    match collected.ess {
        None => collected.worlds.len(),
        Some(_) => (collected.effective(u64::MAX) as usize).min(target),
    }
}

#[cfg(test)]
#[path = "advise_tests.rs"]
mod tests;
