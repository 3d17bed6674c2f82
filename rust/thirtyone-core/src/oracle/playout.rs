//! Playouts: a consistent deal and a fresh stock order played to the end of the round after one
//! of your options, everyone else by the table's rule knocking at the deal's score for them (27,
//! or a modelled opponent's own, `crate::model`, moved by the round's lap where the model says
//! so: `crate::model::LapKnocks`), you by the table's rule knocking at the swept score.
//!
//! Every knock threshold plays the same game until the first of your turns where your score
//! reaches it, so one trajectory serves them all: at each of your turns where you may knock, the
//! thresholds newly reached branch off (a copy of the round knocks and plays its final turns) and
//! the trajectory goes on without knocking.

use std::cell::RefCell;
use std::sync::Arc;

use montecarlo::{to_fixed, Outcome, Outcomes, Rng};

use crate::game::game_value::GameValue;
use crate::game::round_outcomes::RoundResult;
use crate::hand::profile::{profiles, Profiles};
use crate::hand::{Card, CardSet, Score};
use crate::round::{knock_loss_applies, Draws, Hands, Losses, Profiled, Round};
use crate::rules::MAX_SEATS;
use crate::view::View;

use super::game_losses::GameLosses;
use super::opponents::Opponents;

/// The score each seat knocks at in a playout (yours is the policy's).
type KnockAt = [Score; MAX_SEATS];

/// What the playouts keep of a consistent deal: every hand (under standard scoring its cards in
/// the order of their indices, as the profiled turns hold them) and the score each opponent
/// knocks at, 36 bytes (the stock is the unseen cards the hands leave). Ten thousand deals take
/// 360 KB, which a small cache holds as the playouts walk them again and again; the rounds set
/// out from them (256 bytes each) would not.
#[derive(Clone, Debug)]
pub struct Kept {
    hands: [[Card; 3]; MAX_SEATS],
    knock_at: KnockAt,
}

/// A deal's round as it stands, its stock not yet in any order, with the score each opponent
/// knocks at, the hands as the profiled turns read them, and the playout's stock draws, made
/// by its first trajectory to reach each and read back by the others (`Draws`; set out again
/// for each playout, and apart from the round, which its trajectories copy).
#[derive(Clone, Debug)]
pub struct Dealt {
    round: Round,
    /// The stock's cards, set out by the playout's draws (`Draws::begin_with`).
    stock: CardSet,
    knock_at: KnockAt,
    hands: Hands,
    draws: RefCell<Draws>,
}

/// A round-level playout's outcome: the lives you lost, worth nothing beyond the round.
#[inline(always)]
fn lives_lost(lost: u8) -> Outcome {
    Outcome {
        success: lost == 0,
        cost: u32::from(lost),
        value: 0,
    }
}

/// One of your options.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Knock,
    /// Draw from the stock, then put down by the table's rule.
    Draw,
    /// Take the top discard; its policies include which card to put down.
    Take,
    /// A pending draw: put this card down.
    Discard(Card),
    /// The stock is empty: leave the top discard, which ends the round.
    Decline,
}

/// Plays your options out over consistent deals.
pub struct Playouts<'a> {
    view: &'a View,
    /// The round as it stands, with your hand and no other (each playout sets a deal's hands
    /// and stock out on a copy).
    table: Round,
    /// Knock thresholds swept (ascending); the last policy of each put-down is "never".
    thresholds: Vec<Score>,
    /// By score: how many thresholds it reaches.
    reached_by: Box<[u16; 256]>,
    /// The cards you may put down after taking the top discard.
    take_put_downs: Vec<Card>,
    /// The game-value table, when the lives are known: each playout's value is then your chance
    /// of winning the game (or points) once the round is over.
    game: Option<Arc<GameValue>>,
    /// Every hand's profile (the turns under standard scoring read them).
    profiles: &'static Profiles,
    /// How the opponents play on: by the rule, reading the table, or knocking by the lap.
    opponents: Opponents,
    /// Whether any is looked at each turn (the playouts are then compiled to: `READS`).
    looks: bool,
    /// Whether a round-level query reads your loss from the hands' profiles and plays your
    /// knocks' final turns apart (`Profiled::settled_loss`, `Profiled::knock_loss`).
    apart: bool,
    /// Whether a game-level query does so too, its value read from every seat's loss
    /// (`Profiled::knock_losses`, `Profiled::settled_losses`), with the table's listed values
    /// laid out by those losses: the table lists the round's losses (not ranked placing) and the
    /// turns are profiled as above.
    game_apart: Option<GameLosses>,
    /// The most lives you can lose, with the lives known but no game's table to value the
    /// round by ([`Playouts::with_lives`]; else no bound).
    most_lost: u8,
    /// Which choices are swept over later knock scores ([`Playouts::sweeps`]).
    swept: Swept,
}

/// Which of your choices are swept over knock thresholds: while nobody has knocked, every option
/// but the knock leaves you later turns where you might knock, unless it leaves the stock empty
/// (then nobody may knock any more: a draw of the stock's last card, or any option once the
/// stock has run out), or it is a draw from a 31 you hid (the rule's put-down keeps the 31 and
/// shows it: the round ends there), or a put-down after a draw that leaves a 31 (or three aces'
/// 33: shown at once, the same). A take that makes 31 with one of its put-downs is swept for
/// the others ([`super::answer::report`] names no knock for the one that shows it).
#[derive(Clone, Copy, Debug)]
struct Swept {
    draw: bool,
    take: bool,
    /// After a pending draw, the cards whose put-down is swept.
    put_downs: CardSet,
}

impl Swept {
    fn of(view: &View) -> Swept {
        let public = &view.public;
        let open = public.knocker.is_none() && public.stock_len > 0;
        let mut put_downs = CardSet::EMPTY;
        if let (true, Some((new, _))) = (open, view.pending) {
            for card in [view.hand[0], view.hand[1], view.hand[2], new] {
                let kept = super::answer::kept(view.hand, new, card);
                if !public.rules.scoring.score(kept).is_blitz() {
                    put_downs.insert(card);
                }
            }
        }
        Swept {
            draw: open && public.stock_len > 1 && !view.hid_31[usize::from(view.me)],
            take: open,
            put_downs,
        }
    }
}

impl<'a> Playouts<'a> {
    pub fn new(view: &'a View, thresholds: Vec<Score>) -> Self {
        let mut reached_by = Box::new([0u16; 256]);
        for (score, reached) in reached_by.iter_mut().enumerate() {
            *reached = thresholds
                .iter()
                .filter(|t| usize::from(t.halves()) <= score)
                .count() as u16;
        }
        let mut hands = [[Card::from_index(0); 3]; MAX_SEATS];
        hands[usize::from(view.me)] = view.hand;
        let drawn = view.pending.map(|(new, _)| new);
        let table = Round::unstocked(&view.public, hands, drawn, view.hid_31);
        let opponents = Opponents::new(view);
        let apart = knock_loss_applies(&table);
        Playouts {
            view,
            table,
            reached_by,
            thresholds,
            take_put_downs: view.hand.to_vec(),
            game: None,
            profiles: profiles(),
            looks: opponents.looked_at(),
            opponents,
            apart,
            game_apart: None,
            most_lost: u8::MAX,
            swept: Swept::of(view),
        }
    }

    /// With the lives known (`most`: the losses that put you out) but no game's table, a
    /// round's lives lost count no more than `most`: its outcomes are then read from the round
    /// (not apart), where they are bounded. With a table, the game's outcomes bound them.
    pub fn with_lives(mut self, most: Option<u8>) -> Self {
        if let (Some(most), None) = (most, &self.game) {
            self.most_lost = most;
            self.apart = false;
        }
        self
    }

    /// Value each playout by the game: your chance of winning it (or points) after the round.
    pub fn with_game(mut self, game: Option<Arc<GameValue>>) -> Self {
        let (first, seats) = (self.table.first(), self.table.seats());
        self.game_apart = game
            .as_ref()
            .filter(|_| self.apart)
            .and_then(|g| GameLosses::new(g, (first, seats), self.view.me));
        self.game = game;
        self
    }

    /// Whether playouts are valued by the game.
    pub fn valued(&self) -> bool {
        self.game.is_some()
    }

    /// Whether a choice is swept over knock thresholds ([`Swept`]: decided once, as the
    /// playouts ask at each of theirs).
    #[inline(always)]
    pub fn sweeps(&self, choice: &Choice) -> bool {
        match *choice {
            Choice::Draw => self.swept.draw,
            Choice::Take => self.swept.take,
            Choice::Discard(card) => self.swept.put_downs.contains(card),
            Choice::Knock | Choice::Decline => false,
        }
    }

    /// The knock thresholds of a sweep, `None` standing for never.
    pub fn threshold_of(&self, policy_in_variant: usize) -> Option<Score> {
        self.thresholds.get(policy_in_variant).copied()
    }

    /// Policies per put-down variant.
    pub fn per_variant(&self, choice: &Choice) -> usize {
        self.per_swept(self.sweeps(choice))
    }

    /// Policies per put-down variant of a choice swept (`swept`) or not: the playouts ask
    /// [`Playouts::sweeps`] once and use the answer twice.
    #[inline(always)]
    fn per_swept(&self, swept: bool) -> usize {
        if swept {
            self.thresholds.len() + 1
        } else {
            1
        }
    }

    pub fn variants(&self, choice: &Choice) -> usize {
        if *choice == Choice::Take {
            self.take_put_downs.len()
        } else {
            1
        }
    }

    /// The card put down by a take policy.
    pub fn take_put_down(&self, variant: usize) -> Card {
        self.take_put_downs[variant]
    }

    /// Your move for one put-down variant of a choice (the Oracle offers only legal ones); a
    /// stock draw is the playout's next of `draws` (see `Round::pop_stock`). A draw and a take
    /// are played on the profiled hands; the others on the round, your hand then read again.
    #[inline(always)]
    fn play_choice<const P: bool>(
        &self,
        turns: &mut Profiled<'_, P>,
        draws: &mut Draws,
        choice: &Choice,
        variant: usize,
    ) {
        use crate::round::Action;
        let action = match *choice {
            Choice::Draw => return turns.draw_by_rule(draws),
            Choice::Take => return turns.take_putting_down(self.take_put_downs[variant]),
            Choice::Knock => Action::Knock,
            Choice::Discard(c) => Action::PutDown(c),
            Choice::Decline => Action::Decline,
        };
        turns.round_mut().apply_legal(action);
        turns.read_again(self.view.me);
    }

    /// The round of a chunk's first playout, before its deal is set out (out of line: it is
    /// made once a chunk, and every other playout's start is the lighter for it).
    #[cold]
    #[inline(never)]
    fn first_dealt(&self, kept: &Kept) -> Dealt {
        let mut hands = Hands::at_table(self.table.seats());
        // Yours, the table's; the others are read as each deal's hands are set.
        if self.table.turn_rule().is_standard() {
            hands.read(&self.table, self.view.me, self.profiles);
        }
        Dealt {
            draws: RefCell::new(Draws::new(&self.table, &Rng::stream(0, 0, 0))),
            round: self.table.clone(),
            stock: CardSet::EMPTY,
            knock_at: kept.knock_at,
            hands,
        }
    }

    /// The outcome of a round that is over, for you.
    #[inline]
    fn outcome(&self, round: &Round) -> Outcome {
        match &self.game {
            None => {
                let lost = round.loss_of(self.view.me);
                lives_lost(lost.min(self.most_lost))
            }
            Some(g) => self.game_outcome(g, round),
        }
    }

    /// The outcome for you of the round played on `turns`, which is over (its hands written
    /// back to it unless read from the profiles: [`Profiled::settled_loss`]).
    #[inline(always)]
    fn outcome_of<const P: bool>(&self, turns: &mut Profiled<'_, P>) -> Outcome {
        if P && self.apart && self.game.is_none() {
            let lost = turns.settled_loss(self.view.me);
            return lives_lost(lost);
        }
        if P && self.game_apart.is_some() {
            if let Some(o) = self.game_outcome_of(&turns.settled_losses()) {
                return o;
            }
        }
        turns.settle();
        self.outcome(turns.round())
    }

    /// [`Playouts::outcome_of`] written for `policies` of `out`, each way apart: a round-level
    /// outcome is then known where it is written to be worth nothing beyond the playout, and
    /// is tallied without its value's sums. (Its first case repeats `outcome_of`'s on purpose:
    /// written as `out.set(policies, self.outcome_of(turns))` alone it cost 0.3 instructions a
    /// table-rule turn more, the value's test no longer left out.)
    #[inline(always)]
    fn set_outcome_of<const P: bool>(
        &self,
        turns: &mut Profiled<'_, P>,
        out: &mut Outcomes<'_>,
        policies: std::ops::Range<usize>,
    ) {
        if P && self.apart && self.game.is_none() {
            return out.set(policies, lives_lost(turns.settled_loss(self.view.me)));
        }
        out.set(policies, self.outcome_of(turns));
    }

    /// The game-level outcome for you of a round that is over, from every seat's `losses` where
    /// the table lists them ([`Playouts::game_apart`]); None where a seat lost
    /// more than it lists (the round's own [`Playouts::game_outcome`] then values it).
    #[inline(always)]
    fn game_outcome_of(&self, losses: &Losses) -> Option<Outcome> {
        self.game_apart.as_ref()?.outcome(losses)
    }

    /// [`Playouts::outcome`] valued by the game (kept apart so that the round-level outcome is
    /// small enough to inline).
    #[inline(never)]
    fn game_outcome(&self, g: &GameValue, round: &Round) -> Outcome {
        let all = round.losses();
        let value = g
            .after_losses(&all, usize::from(round.first()), usize::from(round.seats()))
            .unwrap_or_else(|| g.after_round(&RoundResult::with_losses(round, &all, g.points())));
        let lost = all[usize::from(self.view.me)];
        Outcome {
            success: lost == 0,
            cost: u32::from(lost.min(g.most_you_can_lose())),
            value: to_fixed(value),
        }
    }

    /// Play to the end: everyone else by the table's rule knocking at `knock_at`, you at
    /// `my_knock_at`; the stock's draws are the playout's `draws`. The hands are not written
    /// back to the round ([`Playouts::outcome_of`] does so where it reads them).
    #[inline(always)]
    fn finish<const P: bool, const READS: bool>(
        &self,
        turns: &mut Profiled<'_, P>,
        draws: &mut Draws,
        my_knock_at: Score,
        knock_at: &KnockAt,
    ) {
        let mut k = *knock_at;
        k[usize::from(self.view.me)] = my_knock_at;
        while !turns.round().is_over() {
            let to_move = usize::from(turns.round().to_move());
            self.turn::<P, READS>(turns, k[to_move], to_move, draws);
        }
    }

    /// The turn of the seat to move (`to_move`): by the table's rule at `knock_at`, reading the
    /// table, or by the rule at a knock moved by the lap and taking only what leaves enough (the
    /// last two looked at only when `READS`: a table query's turns are as they were).
    #[inline(always)]
    fn turn<const P: bool, const READS: bool>(
        &self,
        turns: &mut Profiled<'_, P>,
        knock_at: Score,
        to_move: usize,
        draws: &mut Draws,
    ) {
        if READS && self.opponents.reading[to_move] {
            return turns.reading_turn(knock_at, draws);
        }
        if READS {
            let played = turns.round().public.turns_played;
            let k = self
                .opponents
                .lap_knock(to_move, knock_at, played)
                .unwrap_or(knock_at);
            return turns.modelled_turn(k, self.opponents.take_from(to_move), draws);
        }
        turns.turn(knock_at, draws);
    }

    /// One put-down variant of a choice played out from `start` on `round` (a copy of its
    /// round), under each of its policies. The round goes down by reference: passed by value,
    /// its 256 bytes were copied at each call (the 14 benchmark positions took 0.955 of the
    /// time on one thread, 0.930 on two).
    fn play_variant(
        &self,
        round: &mut Round,
        start: &Dealt,
        draws: &mut Draws,
        (choice, v): (&Choice, usize),
        out: &mut Outcomes<'_>,
    ) {
        let (hands, all, at) = (&start.hands, self.profiles, &start.knock_at);
        // Asked of the start, not of its copy in `round`: a read of the copy just written
        // waits for the copy's stores.
        if !start.round.turn_rule().is_standard() {
            return self.play_unprofiled(round, start, draws, (choice, v), out);
        }
        let turns = &mut Profiled::<true>::new(round, hands, all);
        self.play_choice(turns, draws, choice, v);
        if self.looks {
            self.play_on_looking(turns, draws, (choice, v), at, out);
        } else {
            self.play_on::<true, false>(turns, draws, (choice, v), at, out);
        }
    }

    /// [`Playouts::play_on`] where an opponent is looked at each turn (`READS`) under the
    /// standard way of scoring, out of line: a table query's loops in
    /// [`Playouts::play_variant`] are compiled with the registers to themselves.
    #[inline(never)]
    fn play_on_looking(
        &self,
        turns: &mut Profiled<'_, true>,
        draws: &mut Draws,
        choice: (&Choice, usize),
        knock_at: &KnockAt,
        out: &mut Outcomes<'_>,
    ) {
        self.play_on::<true, true>(turns, draws, choice, knock_at, out);
    }

    /// [`Playouts::play_variant`] where hands do not score the standard way (no profiles; an
    /// opponent reading the table plays the rule there, and only the knocks by the lap are
    /// looked at), out of line: the standard way's loops are compiled with the registers to
    /// themselves.
    #[inline(never)]
    fn play_unprofiled(
        &self,
        round: &mut Round,
        start: &Dealt,
        draws: &mut Draws,
        (choice, v): (&Choice, usize),
        out: &mut Outcomes<'_>,
    ) {
        let (hands, all, at) = (&start.hands, self.profiles, &start.knock_at);
        let turns = &mut Profiled::<false>::new(round, hands, all);
        self.play_choice(turns, draws, choice, v);
        if self.opponents.knock_by_lap() {
            self.play_on::<false, true>(turns, draws, (choice, v), at, out);
        } else {
            self.play_on::<false, false>(turns, draws, (choice, v), at, out);
        }
    }

    /// [`Playouts::play_variant`] after your move, compiled for one kind of turns.
    #[inline(always)]
    fn play_on<const P: bool, const READS: bool>(
        &self,
        turns: &mut Profiled<'_, P>,
        draws: &mut Draws,
        (choice, v): (&Choice, usize),
        knock_at: &KnockAt,
        out: &mut Outcomes<'_>,
    ) {
        let swept = self.sweeps(choice);
        let per = self.per_swept(swept);
        let mut part = out.part(v * per..(v + 1) * per);
        if swept {
            self.sweep::<P, READS>(turns, draws, knock_at, &mut part);
        } else {
            self.finish::<P, READS>(turns, draws, Score::NEVER, knock_at);
            self.set_outcome_of(turns, &mut part, 0..1);
        }
    }

    /// The outcome of a knock by you now, at your turn in `turns` (the thresholds newly
    /// reached): its final turns played apart, for your loss in a round-level query
    /// ([`Profiled::knock_loss`]) or every seat's in a game-level one where the table lists
    /// them ([`Profiled::knock_losses`]), else on a copy of the round
    /// ([`Playouts::knock_on_copy`]).
    /// Kept out of the sweep's loop (not inlined), which branches off here at few of its turns:
    /// the loop of every turn is compiled with the registers to itself.
    #[inline(never)]
    fn knock_branch<const P: bool, const READS: bool>(
        &self,
        turns: &Profiled<'_, P>,
        draws: &mut Draws,
        knock_at: &KnockAt,
    ) -> Outcome {
        // The knock is your turn by the rule at these thresholds: it is legal here.
        #[cfg(feature = "count-turns")]
        crate::round::turn_count::add();
        // (An opponent who knocks by the lap plays the final turns by the rule, as the table's.)
        let by_rule = !READS || !self.opponents.reads;
        if P && by_rule && self.apart && self.game.is_none() {
            let lost = turns.knock_loss::<READS>(draws);
            return lives_lost(lost);
        }
        if P && by_rule && self.game_apart.is_some() {
            // (The copy plays the same draws where the table does not list the losses.)
            if let Some(o) = self.game_outcome_of(&turns.knock_losses::<READS>(draws)) {
                return o;
            }
        }
        self.knock_on_copy::<P, READS>(turns, draws, knock_at)
    }

    /// [`Playouts::knock_branch`] played on a copy of the round (out of line: the function
    /// above is compiled for its common case alone).
    #[inline(never)]
    fn knock_on_copy<const P: bool, const READS: bool>(
        &self,
        turns: &Profiled<'_, P>,
        draws: &mut Draws,
        knock_at: &KnockAt,
    ) -> Outcome {
        // The copy's hands are written back at its end (`finish`); a debug build's check of the
        // knock reads them before.
        let mut copy = turns.round().clone();
        let branch = &mut turns.branch(&mut copy);
        #[cfg(debug_assertions)]
        branch.settle();
        branch.round_mut().apply_legal(crate::round::Action::Knock);
        self.finish::<P, READS>(branch, draws, Score::NEVER, knock_at);
        branch.settle();
        self.outcome(branch.round())
    }

    /// The shared trajectory: outcomes for every threshold and for never.
    #[inline(always)]
    fn sweep<const P: bool, const READS: bool>(
        &self,
        turns: &mut Profiled<'_, P>,
        draws: &mut Draws,
        knock_at: &KnockAt,
        out: &mut Outcomes<'_>,
    ) {
        let me = self.view.me;
        let mut reached = 0usize; // thresholds[..reached] have branched off
        while !turns.round().is_over() {
            let to_move = turns.round().to_move();
            // The others' turns and yours are played by two copies of the turn: the others'
            // reads the stage and the seat once a turn (one copy after the branch's call read
            // them again), yours leaves out the knock (you knock in the branches alone). About
            // 1.5 instructions a table-rule turn fewer.
            if to_move != me {
                let k = knock_at[usize::from(to_move)];
                self.turn::<P, READS>(turns, k, usize::from(to_move), draws);
                continue;
            }
            let upto = usize::from(self.reached_by[usize::from(turns.score(me).halves())]);
            // (`may_knock` is false unless the turn is at its start.)
            if upto > reached && turns.may_knock() {
                let o = self.knock_branch::<P, READS>(turns, draws, knock_at);
                out.set(reached..upto, o);
                reached = upto;
            }
            self.turn::<P, READS>(turns, Score::NEVER, usize::from(me), draws);
        }
        let len = out.len();
        self.set_outcome_of(turns, out, reached..len);
    }
}

/// The playouts as the engine runs them ([`Simulator`]): a deal kept and set out, and each
/// option played out from it.
#[path = "playout_sim.rs"]
mod sim;
