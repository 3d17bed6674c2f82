//! Tests of reading and checking the Oracle's input.

use super::*;

const EXAMPLE: &str = r#"{
  "rules": "standard", "seats": 4, "me": 3, "first": 0, "upcard": "JH",
  "hand": ["5H", "AH", "9H"],
  "turns": [
    {"seat": 0, "draw": "stock", "discard": "5C"},
    {"seat": 1, "draw": "pile", "discard": "4H"},
    {"seat": 2, "draw": "stock", "discard": "2S"},
    {"seat": 3, "draw": "stock", "drew": "5H", "discard": "9D"},
    {"seat": 0, "draw": "pile", "discard": "3D"},
    {"seat": 1, "draw": "pile", "discard": "5C"},
    {"seat": 2, "draw": "pile", "discard": "4C"}
  ],
  "lives": [3, 3, 2, 1]
}"#;

fn parse(text: &str) -> Result<State> {
    from_json(text.as_bytes(), &Overrides::default())
}

fn with(key: &str, value: &str) -> String {
    let mut v: serde_json::Value = serde_json::from_str(EXAMPLE).unwrap();
    v[key] = serde_json::from_str(value).unwrap();
    v.to_string()
}

#[test]
fn the_example_reads_whole() {
    let s = parse(EXAMPLE).unwrap();
    assert_eq!((s.round.seats, s.round.me, s.round.turns.len()), (4, 3, 7));
    assert_eq!(s.lives, Some(vec![3, 3, 2, 1]));
    assert_eq!(s.rules.seats, 4);
    // Saved with a byte-order mark (as some editors save UTF-8): the same state.
    let marked = parse(&format!("\u{feff}{EXAMPLE}")).unwrap();
    assert_eq!(marked.round.turns.len(), 7);
}

#[test]
fn refusals_name_the_place() {
    let cases = [
        (with("colour", "1"), "colour"),
        (with("seats", "12"), "seats"),
        (with("seats", "true"), "seats"),
        (with("me", "4"), "me"),
        (with("hand", r#"["AH", "9H", "ZZ"]"#), "hand[2]"),
        (with("hand", r#"["AH", "9H", "9H"]"#), "appears twice"),
        (with("lives", "[-5, 3, 3, 3]"), "lives"),
        (with("lives", "[4, 3, 3, 3]"), "lives[0]"),
        (with("lives", "[0, 3, 3, 3]"), "lives[0]"),
        (with("lives", "[1e100, 3, 3, 3]"), "lives[0]"),
        (with("rules", r#"{"seats": 2}"#), "seats"),
        (with("rules", r#"{"bogus": 1}"#), "bogus"),
        // The unknown option is named, whatever its value (a list of numbers was refused
        // as "invalid type: integer" at its first item).
        (
            with("rules", r#"{"bogus": [1]}"#),
            "unknown rule option \"bogus\"",
        ),
        (
            with("rules", r#"{"life_names": [1, "a"]}"#),
            "life_names: must be a list of names",
        ),
        (
            with("rules", r#"{"lives": [1]}"#),
            "lives: must be a whole number, not a list",
        ),
        (with("rules", r#""nonsense""#), "nonsense"),
        (
            with("turns", r#"[{"seat": 0, "knock": true, "discard": "5C"}]"#),
            "turns[0]",
        ),
        (
            with("turns", r#"[{"seat": 0, "draw": "sky", "discard": "5C"}]"#),
            "turns[0].draw",
        ),
        ("[1, 2]".into(), "JSON object"),
        ("{not json".into(), "not valid JSON"),
        (format!("{EXAMPLE} trailing"), "not valid JSON"),
    ];
    for (text, want) in cases {
        let err = parse(&text).unwrap_err().to_string();
        assert!(err.contains(want), "{want}: {err}");
    }
}

/// The words of a refusal are a player's: a text cut short names no path serde could not
/// follow ("at ?"), and a number too large for a whole one reads as that, not as serde's
/// "invalid type: floating point".
/// A refusal found by replaying the turns names the turn as the reading does: its place in the
/// JSON (`turns[0]`), not a count from 1 beside it.
#[test]
fn a_turn_is_named_by_its_place_in_the_json() {
    let back = with("turns", r#"[{"seat": 0, "draw": "pile", "discard": "JH"}]"#);
    let err = parse(&back)
        .and_then(|s| crate::view::View::from_input(&s.round).map(drop))
        .unwrap_err()
        .to_string();
    assert!(err.contains("turns[0]: "), "{err}");
}

#[test]
fn refusals_read_as_a_player_would_say_them() {
    let cut = parse("{").unwrap_err().to_string();
    assert!(cut.starts_with("the state is not valid JSON: EOF"), "{cut}");
    // A whole number beyond what a reader of numbers holds exactly is too large (it is valid
    // JSON, and a whole number).
    for digits in [23, 400] {
        let text = EXAMPLE.replace(
            "\"seats\": 4",
            &format!("\"seats\": {}", "9".repeat(digits)),
        );
        let huge = parse(&text).unwrap_err().to_string();
        assert!(
            huge.starts_with("seats: too large a number at line"),
            "{huge}"
        );
    }
    // The state itself a number too large: told what a state is, as a state of 5 is (it was
    // ".: too large a number", a place no player knows).
    let whole = parse("1e999").unwrap_err().to_string();
    assert!(
        whole.starts_with(
            "the state must be a JSON object with the keys of a round, not a number too large to read at line 1"
        ),
        "{whole}"
    );
    // A whole number written as JSON Schema's `integer` allows (`4.0`, `-0`, `1e1`) is one.
    assert_eq!(parse(&with("seats", "4.0")).unwrap().round.seats, 4);
    assert_eq!(parse(&with("me", "-0")).unwrap().round.me, 0);
    let ten = parse(&with("me", "1e1")).unwrap_err().to_string();
    assert!(
        ten.starts_with("me must be a seat from 0 to 3, not 10"),
        "{ten}"
    );
    let half = parse(&with("me", "1.5")).unwrap_err().to_string();
    assert!(
        half.starts_with("me: must be a whole number, not 1.5"),
        "{half}"
    );
    let cut_turn = parse(&EXAMPLE[..EXAMPLE.find("\"discard\"").unwrap() + 11])
        .unwrap_err()
        .to_string();
    assert!(
        cut_turn.contains("not valid JSON at turns[0].discard"),
        "{cut_turn}"
    );
}

#[test]
fn the_county_allows_zero_lives_and_rule_numbers_read_as_text() {
    let mut v: serde_json::Value = serde_json::from_str(EXAMPLE).unwrap();
    v["rules"] = "scat".into();
    v["lives"] = serde_json::json!([3, 0, 2, 1]);
    assert_eq!(parse(&v.to_string()).unwrap().lives.unwrap()[1], 0);
    for v in ["30.5", "\"30.5\""] {
        let s = parse(&with("rules", &format!(r#"{{"three_of_a_kind": {v}}}"#))).unwrap();
        assert_eq!(
            s.rules.round.scoring.three_of_a_kind,
            crate::hand::ThreeOfAKind::ThirtyHalf
        );
    }
}

#[test]
fn hostile_input_is_refused_briefly() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(parse(&deep)
        .unwrap_err()
        .to_string()
        .contains("JSON object"));
    let deep_hand = EXAMPLE.replace(r#"["5H", "AH", "9H"]"#, &deep);
    assert!(parse(&deep_hand).unwrap_err().to_string().contains("hand"));
    let digits = EXAMPLE.replace(
        r#""seats": 4"#,
        &format!(r#""seats": {}"#, "9".repeat(5_000)),
    );
    assert!(parse(&digits).unwrap_err().to_string().contains("seats"));
    let surrogate = EXAMPLE.replace(r#""JH""#, r#""\ud800""#);
    assert!(parse(&surrogate)
        .unwrap_err()
        .to_string()
        .contains("upcard"));
    let huge = with("upcard", &format!("\"{}\"", "Q".repeat(50_000_000)));
    let err = parse(&huge).unwrap_err().to_string();
    assert!(err.contains("upcard") && err.len() < 300, "{}", err.len());
    let deep_rules = EXAMPLE.replace(r#""standard""#, &format!("{{\"runs\": {deep}}}"));
    assert!(parse(&deep_rules)
        .unwrap_err()
        .to_string()
        .contains("rules.runs"));
}

#[test]
fn overrides_replace_or_change_the_states_rules() {
    let o = Overrides {
        preset: Some("scat".into()),
        changes: vec![("knock_penalty".into(), RuleValue::Int(1))],
    };
    let s = from_json(EXAMPLE.as_bytes(), &o).unwrap();
    assert!(s.rules.county && s.rules.round.knock_penalty == 1);
    let o = Overrides {
        preset: None,
        changes: vec![("seats".into(), RuleValue::Int(3))],
    };
    assert!(from_json(EXAMPLE.as_bytes(), &o)
        .unwrap_err()
        .to_string()
        .contains("seats"));
}

/// A value of the wrong kind is named with what its field takes, in the words of the rest of
/// the state's refusals: never serde's "invalid type: …, expected a sequence".
#[test]
fn a_value_of_the_wrong_kind_says_what_the_field_takes() {
    let turn = |turn: &str| with("turns", &format!("[{turn}]"));
    let cases = [
        (
            with("hand", r#""AH 9H 4H""#),
            r#"hand: must be a list of 3 cards, such as ["AH", "9H", "4H"], not "AH 9H 4H""#,
        ),
        (
            with("hand", "[1, 2, 3]"),
            r#"hand[0]: must be a card such as "AH", not 1"#,
        ),
        (
            with("lives", r#""3""#),
            r#"lives: must be a list of one whole number per seat, not "3""#,
        ),
        (
            with("lives", "[3, 3, null, 1]"),
            "lives[2]: must be a whole number, not null",
        ),
        (
            with("seats", r#""4""#),
            r#"seats: must be a whole number, not "4""#,
        ),
        (with("me", "true"), "me: must be a whole number, not true"),
        (
            with("upcard", "5"),
            r#"upcard: must be a card such as "AH", not 5"#,
        ),
        (
            with("turns", r#"{"seat": 0}"#),
            "turns: must be a list of turns, not an object",
        ),
        (
            with("pending", r#""draw""#),
            r#"pending: must be an object, not "draw""#,
        ),
        (
            turn(r#"{"seat": 0, "draw": 1, "discard": "5C"}"#),
            r#"turns[0].draw: must be "stock" or "pile", not 1"#,
        ),
        (
            turn(r#"{"seat": 0, "draw": "stock", "discard": "5C", "shows": "AH KH QH"}"#),
            r#"turns[0].shows: must be a list of 3 cards, such as ["AH", "9H", "4H"], not "AH KH QH""#,
        ),
        (
            turn(r#"{"seat": 0, "knock": "yes"}"#),
            r#"turns[0].knock: must be true or false, not "yes""#,
        ),
        (
            with("rules", "5"),
            "rules: must be a preset name or an object of rule options, not 5",
        ),
        (
            with("rules", r#"{"lives": {"n": 1}}"#),
            "rules.lives: must be a rule value (text, a number, true/false or a list of names), \
             not an object",
        ),
        (
            with("colour", "1"),
            r#"colour: unknown key "colour" (the keys here are rules, seats, me, first"#,
        ),
        (
            "[1, 2]".into(),
            "the state must be a JSON object with the keys of a round, not a list",
        ),
    ];
    for (text, want) in cases {
        let err = parse(&text).unwrap_err().to_string();
        assert!(err.starts_with(want), "{want}\n{err}");
        assert!(!err.contains("invalid type") && !err.contains('`'), "{err}");
    }
}
