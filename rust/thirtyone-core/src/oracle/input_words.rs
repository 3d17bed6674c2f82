//! serde's words for a value of the wrong kind, or a key it does not know, in a player's:
//! `invalid type: string "AH 9H 4H", expected a list of 3 cards …` reads `must be a list of 3
//! cards …, not "AH 9H 4H"`, whichever reader found it (JSON text, or a Python object through
//! pythonize). What each field expects is its reader's own word (`expecting`); what was found is
//! said as JSON spells it (`"AH"`, `5`, `true`, `null`, `a list`, `an object`). Anything else
//! serde says is left as it is.

/// `message` in a player's words when it is serde's word for a value of the wrong kind, an
/// unknown key or a key given twice; else as it is. A position serde adds (` at line 1 column
/// 78`, JSON text only) is kept at the end.
pub(super) fn read(message: &str) -> String {
    if let Some(wrong) = wrong_kind(message) {
        return format!(
            "must be {}, not {}{}",
            wrong.expected, wrong.found, wrong.at
        );
    }
    if let Some(rest) = message.strip_prefix("unknown field `") {
        if let Some((key, rest)) = rest.split_once('`') {
            let (keys, at) = position(rest.strip_prefix(", expected ").unwrap_or(""));
            let keys = keys
                .strip_prefix("one of ")
                .unwrap_or(keys)
                .replace('`', "");
            let known = if keys.is_empty() {
                String::new()
            } else {
                format!(" (the keys here are {keys})")
            };
            return format!("unknown key \"{key}\"{known}{at}");
        }
    }
    // serde_json's words for a `\u` escape of half a character: a lone trailing half is "lone
    // leading surrogate", a lone leading one "unexpected end of hex escape" (as is an escape
    // cut short).
    for (said, ours) in [
        ("lone leading surrogate in hex escape", LONE),
        ("unexpected end of hex escape", CUT_SHORT),
    ] {
        if let Some(rest) = message.strip_prefix(said) {
            return format!("{ours}{}", position(rest).1);
        }
    }
    if let Some(rest) = message.strip_prefix("duplicate field `") {
        if let Some((key, rest)) = rest.split_once('`') {
            return format!("\"{key}\" is given twice{}", position(rest).1);
        }
    }
    message.to_string()
}

/// A `\u` escape of half a character (a surrogate, `\ud800` to `\udfff`) with no other half.
const LONE: &str = "a lone surrogate (\\ud800 to \\udfff alone is half a character, not text)";
/// A `\u` escape that is not four hexadecimal digits, or a lone leading surrogate.
const CUT_SHORT: &str =
    "a \\u escape cut short, or a lone surrogate (\\ud800 to \\udbff without its other half)";

/// serde's word for a value of the wrong kind, taken apart.
pub(super) struct WrongKind<'a> {
    /// What the field's reader expects (`a whole number`).
    pub expected: &'a str,
    /// What was found, as JSON spells it (`"AH"`, `5`, `a list`).
    pub found: String,
    /// serde's position in JSON text (` at line 1 column 78`), or nothing.
    pub at: &'a str,
}

/// `message` taken apart when it is serde's `invalid type: …, expected …`.
pub(super) fn wrong_kind(message: &str) -> Option<WrongKind<'_>> {
    let rest = message.strip_prefix("invalid type: ")?;
    let (found, rest) = found(rest)?;
    let (expected, at) = position(rest.strip_prefix(", expected ")?);
    Some(WrongKind {
        expected,
        found,
        at,
    })
}

/// The value serde found at the start of `rest` (`string "…"`, ``integer `5` ``, `sequence`),
/// as JSON spells it, and what follows it.
fn found(rest: &str) -> Option<(String, &str)> {
    if let Some(text) = rest.strip_prefix("string \"") {
        // The text as serde quoted it (escapes and all), up to its closing quote.
        let mut escaped = false;
        for (i, c) in text.char_indices() {
            match c {
                '"' if !escaped => return Some((format!("\"{}\"", &text[..i]), &text[i + 1..])),
                '\\' => escaped = !escaped,
                _ => escaped = false,
            }
        }
        return None;
    }
    for kind in ["integer `", "floating point `", "boolean `"] {
        if let Some(value) = rest.strip_prefix(kind) {
            let (value, after) = value.split_once('`')?;
            return Some((value.to_string(), after));
        }
    }
    let (word, after) = rest.split_at(rest.find(", expected ")?);
    let said = match word {
        "null" | "unit value" | "Option value" => "null",
        "sequence" => "a list",
        "map" => "an object",
        other => other,
    };
    Some((said.to_string(), after))
}

/// `text` and serde's position at its end (` at line 1 column 78`), apart.
fn position(text: &str) -> (&str, &str) {
    match text.rfind(" at line ") {
        Some(i) => text.split_at(i),
        None => (text, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::read;

    #[test]
    fn serdes_words_read_as_a_players() {
        let cases = [
            (
                "lone leading surrogate in hex escape at line 6 column 19",
                "a lone surrogate (\\ud800 to \\udfff alone is half a character, not text) \
                 at line 6 column 19",
            ),
            (
                "unexpected end of hex escape at line 6 column 20",
                "a \\u escape cut short, or a lone surrogate (\\ud800 to \\udbff without its \
                 other half) at line 6 column 20",
            ),
            (
                "invalid type: string \"AH 9H 4H\", expected a list of cards at line 1 column 9",
                "must be a list of cards, not \"AH 9H 4H\" at line 1 column 9",
            ),
            (
                "invalid type: string \"a, expected \\\" b\", expected text",
                "must be text, not \"a, expected \\\" b\"",
            ),
            (
                "invalid type: integer `5`, expected text",
                "must be text, not 5",
            ),
            (
                "invalid type: floating point `1e+23`, expected a whole number",
                "must be a whole number, not 1e+23",
            ),
            (
                "invalid type: boolean `true`, expected a whole number",
                "must be a whole number, not true",
            ),
            (
                "invalid type: sequence, expected text",
                "must be text, not a list",
            ),
            (
                "invalid type: map, expected a list",
                "must be a list, not an object",
            ),
            (
                "invalid type: unit value, expected a whole number",
                "must be a whole number, not null",
            ),
            (
                "unknown field `colour`, expected one of `seat`, `knock` at line 1 column 3",
                "unknown key \"colour\" (the keys here are seat, knock) at line 1 column 3",
            ),
            (
                "duplicate field `seats` at line 1 column 19",
                "\"seats\" is given twice at line 1 column 19",
            ),
            ("EOF while parsing a value", "EOF while parsing a value"),
        ];
        for (serde, ours) in cases {
            assert_eq!(read(serde), ours, "{serde}");
        }
    }
}
