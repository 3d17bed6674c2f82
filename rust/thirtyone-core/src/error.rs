//! The one error type of the Thirty-One crate. Every refusal names its problem.

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Text that is not a card (at most a short prefix of it is kept).
    BadCard(String),
    /// A card problem at a place of the input, the message whole (`hand[2]: "ZZ" is not a card`,
    /// `hand: 9H appears twice`).
    CardAt(String),
    /// A rule value out of range, or a combination the rules cannot honour: (field, message).
    BadRule(&'static str, String),
    /// A round state (a player's view) that cannot have happened, or is not the player's turn.
    BadState(String),
    /// An action that the rules do not allow now.
    IllegalAction(String),
    /// A setting of the Oracle (deals, playouts, threads, seed, max_time, target_margin) out
    /// of its bounds, or a time limit too short to find anything.
    BadSetting(String),
    /// The work was cancelled (Ctrl-C) before it finished.
    Cancelled,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadCard(t) => write!(
                f,
                "{} is not a card: use a rank A 2-9 T(10) J Q K and a suit C D H S, e.g. AH, TD, 10D",
                quote(t)
            ),
            // (Field "rules": the rule set as a whole, e.g. an unknown option or preset.)
            Error::BadRule("rules", msg) => f.write_str(msg),
            Error::BadRule(field, msg) => write!(f, "rule {field}: {msg}"),
            Error::CardAt(msg) | Error::BadState(msg) => f.write_str(msg),
            Error::IllegalAction(msg) => f.write_str(msg),
            Error::BadSetting(msg) => f.write_str(msg),
            Error::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// The longest part of a value a message quotes, in characters.
pub const QUOTE_CHARS: usize = 24;

/// `text` quoted for a message: at most [`QUOTE_CHARS`] characters of it (then `…`), with
/// control characters escaped, so that a huge or hostile value never floods the terminal.
pub fn quote(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(QUOTE_CHARS).collect();
    if chars.next().is_some() {
        format!("{:?}…", head)
    } else {
        format!("{head:?}")
    }
}

/// A message from a parser with every quoted part (`"…"` or `` `…` ``) longer than
/// [`QUOTE_CHARS`] cut short.
pub fn shorten_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(512));
    let mut inside: Option<(char, usize)> = None; // the quote and the characters kept so far
    let mut escaped = false;
    for c in message.chars() {
        match inside {
            None => {
                out.push(c);
                if c == '"' || c == '`' {
                    inside = Some((c, 0));
                }
            }
            Some((q, kept)) => {
                let closing = c == q && !escaped;
                escaped = !escaped && c == '\\';
                if closing {
                    if kept > QUOTE_CHARS {
                        out.push('…');
                    }
                    out.push(c);
                    inside = None;
                } else {
                    if kept < QUOTE_CHARS {
                        out.push(c);
                    }
                    inside = Some((q, kept + 1));
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_are_short_and_escaped() {
        assert_eq!(quote("AH"), "\"AH\"");
        assert_eq!(quote("\u{1b}[2J"), "\"\\u{1b}[2J\"");
        let long = "x".repeat(10_000);
        assert_eq!(quote(&long).chars().count(), QUOTE_CHARS + 3);
        let msg = format!("invalid type: string \"{long}\", expected u8 at `{long}`");
        let short = shorten_quotes(&msg);
        assert!(short.len() < 100 && short.ends_with("…`"), "{short}");
        assert_eq!(shorten_quotes("a \"b\\\"c\" d"), "a \"b\\\"c\" d");
    }
}
