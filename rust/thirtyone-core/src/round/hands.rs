//! The hands as the playouts' profiled turns hold them ([`super::profiled`]): each seat's three
//! cards sorted in one word with the hand's profile ([`crate::hand::profile`]), and the seat
//! after each seat at the table.

use super::public::NEXT_SEATS;
use super::Round;
use crate::hand::profile::{self, Profile, Profiles};
use crate::rules::MAX_SEATS;

/// Each seat's hand sorted by card index (the bytes of [`profile::sorted`]) with its profile:
/// what [`Profiled`] reads of a round, kept with a playout's deal so that each of its options
/// changes only the hand it plays (read again when the option is played on the round itself).
/// With them, the seat after each seat ([`super::public::PublicRound::next_seat`]; 16 slots,
/// read at a seat masked to four bits), set once for the table.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hands {
    pub(super) words: [u32; MAX_SEATS],
    pub(super) profiles: [Profile; MAX_SEATS],
    pub(super) next: [u8; 16],
}

impl Hands {
    /// No hands read.
    pub(crate) const EMPTY: Hands = Hands {
        words: [0; MAX_SEATS],
        profiles: [Profile(0); MAX_SEATS],
        next: [0; 16],
    };

    /// No hands read yet, at a table of `seats`.
    pub(crate) fn at_table(seats: u8) -> Hands {
        Hands {
            next: NEXT_SEATS[usize::from(seats) & 15],
            ..Hands::EMPTY
        }
    }

    /// Every seat's hand of `round` (which scores hands the standard way).
    #[inline]
    pub(crate) fn of(round: &Round, all: &'static Profiles) -> Hands {
        let mut hands = Hands::at_table(round.public.seats);
        for seat in 0..round.public.seats {
            hands.read(round, seat, all);
        }
        hands
    }

    /// `seat`'s hand read again from `round`.
    #[inline(always)]
    pub(crate) fn read(&mut self, round: &Round, seat: u8, all: &'static Profiles) {
        let s = usize::from(seat);
        self.words[s] = profile::sorted(round.hand(seat));
        self.profiles[s] = all[profile::index(self.words[s])];
        debug_assert_eq!(self.profiles[s].score(), round.scores[s]);
    }
}
