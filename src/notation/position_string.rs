//! The position string of SGN (`WBWBWBWBWB/10/10 w 0-0 - 1`): the text
//! form of an engine [`Position`], read and written here.
//!
//! Stage: text ↔ [`Position`]. The engine keeps the position itself and
//! knows no text; this module gives it its written form: [`Position::parse`]
//! (shape only, with a byte offset for the caller to turn into a span),
//! [`Position::write`] and `Display` (the standard 30-square board). Whether
//! a position can arise under a rule set is judged by the header and the
//! replay, not here.

use crate::diag::Span;
use crate::engine::{Heading, Origin, Position, Queue, Side, SquareSet};
use std::fmt;

/// The help of every diagnostic about a position string.
pub const POSITION_HELP: &str = "a position string is `<30 squares as 3 groups of 10> <w|b> <W-B off> <state> <turn>`, e.g. `WBWBWBWBWB/10/10 w 0-0 - 1`";

/// What is wrong with a position string; `at` is a byte offset into it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PositionError {
    pub message: String,
    pub at: usize,
    pub len: usize,
}

// The text form of the engine's position lives with the rest of the
// notation: these are methods of `Position` for the callers' sake, defined in
// this module so that the engine stays free of text.
impl Position {
    /// Reads a position string for a board of `len` squares in rows of
    /// `row_len`. Checks shape only; whether the position can arise under a
    /// rule set is not judged here.
    pub fn parse(text: &str, len: u8, row_len: u8) -> Result<Position, PositionError> {
        let err = |message: String, at: usize, l: usize| PositionError {
            message,
            at,
            len: l.max(1),
        };
        // A word processor's dash or space: named by its code point, with
        // the string as it should be written.
        if let Some((at, l)) = super::lookalike::first_in(text) {
            let hint = super::lookalike::in_word(text).unwrap_or_default();
            return Err(err(
                format!("a position string is ASCII, and {hint}"),
                at,
                l.ch.len_utf8(),
            ));
        }
        let fields: Vec<(usize, &str)> = split_fields(text);
        if fields.len() != 5 {
            return Err(err(
                format!(
                    "a position string has 5 fields separated by single spaces (board, side, borne off, state, turn); found {}",
                    fields.len()
                ),
                0,
                text.len(),
            ));
        }
        let (board_at, board) = fields[0];
        let mut pieces = [SquareSet::EMPTY; 2];
        let rows: Vec<&str> = board.split('/').collect();
        let want_rows = len.div_ceil(row_len) as usize;
        if rows.len() != want_rows {
            return Err(err(
                format!(
                    "the board has {want_rows} groups of {row_len} squares separated by `/`; found {}",
                    rows.len()
                ),
                board_at,
                board.len(),
            ));
        }
        let mut offset = board_at;
        for (r, row) in rows.iter().enumerate() {
            let first = r as u8 * row_len + 1;
            let width = row_len.min(len - r as u8 * row_len) as u32;
            let mut filled: u32 = 0;
            let mut chars = row.char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                match c {
                    'W' | 'B' => {
                        if filled >= width {
                            return Err(err(
                                format!("group {} has more than {width} squares", r + 1),
                                offset,
                                row.len(),
                            ));
                        }
                        let side = if c == 'W' { 0 } else { 1 };
                        pieces[side].insert(first + filled as u8);
                        filled += 1;
                    }
                    '0'..='9' => {
                        let mut n = c.to_digit(10).unwrap();
                        while let Some(&(_, d)) = chars.peek() {
                            if let Some(v) = d.to_digit(10) {
                                // Saturates rather than wraps: any run longer
                                // than the group is refused below.
                                n = n.saturating_mul(10).saturating_add(v);
                                chars.next();
                            } else {
                                break;
                            }
                        }
                        if n == 0 {
                            return Err(err(
                                "an empty run has at least 1 square".into(),
                                offset + i,
                                1,
                            ));
                        }
                        filled = filled.saturating_add(n);
                        if filled > width {
                            return Err(err(
                                format!("group {} has more than {width} squares", r + 1),
                                offset,
                                row.len(),
                            ));
                        }
                    }
                    _ => {
                        return Err(err(
                            format!(
                                "`{c}` is not a board square: use W, B or a count of empty squares"
                            ),
                            offset + i,
                            c.len_utf8(),
                        ));
                    }
                }
            }
            if filled != width {
                return Err(err(
                    format!("group {} has {filled} squares, not {width}", r + 1),
                    offset,
                    row.len(),
                ));
            }
            offset += row.len() + 1;
        }
        let (side_at, side) = fields[1];
        let to_move = match side {
            "w" => Side::White,
            "b" => Side::Black,
            _ => {
                return Err(err(
                    "the side to move is `w` or `b`".into(),
                    side_at,
                    side.len(),
                ));
            }
        };
        let (off_at, off_field) = fields[2];
        let off = match off_field.split_once('-') {
            Some((w, b)) => match (w.parse::<u8>(), b.parse::<u8>()) {
                (Ok(w), Ok(b)) => [w, b],
                _ => {
                    return Err(err(
                        "pieces borne off are written `W-B`, e.g. `0-0`".into(),
                        off_at,
                        off_field.len(),
                    ));
                }
            },
            None => {
                return Err(err(
                    "pieces borne off are written `W-B`, e.g. `0-0`".into(),
                    off_at,
                    off_field.len(),
                ));
            }
        };
        let (state_at, state) = fields[3];
        let mut extra = false;
        let mut bound = None;
        let mut skip = [false, false];
        let mut queue = Queue::default();
        let mut waiting = [false, false];
        let mut marked = None;
        let mut hand = [0u8, 0];
        let mut heading = Heading::Any;
        let mut held = false;
        if state != "-" {
            let mut at = state_at;
            let mut seen: Vec<&str> = Vec::new();
            for flag in state.split(';') {
                // Each flag names one piece of state: written twice, the
                // second would silently replace (or, for the queue, extend)
                // the first.
                let key = match flag.split_once(':') {
                    _ if flag == "fwd" || flag == "back" => "fwd` or `back",
                    Some(("skip" | "wait", _)) | None => flag,
                    Some((k, v)) if !v.is_empty() => k,
                    Some(_) => flag,
                };
                if seen.contains(&key) {
                    return Err(err(
                        format!("`{key}` is written twice in the rule state; write it once"),
                        at,
                        flag.len().max(1),
                    ));
                }
                seen.push(key);
                // `NAME:N`, N a square of the board.
                let square_flag = |name: &str| match flag[name.len() + 1..].parse::<u8>() {
                    Ok(s) if (1..=len).contains(&s) => Ok(s),
                    _ => Err(err(
                        format!("`{flag}`: {name} takes a square 1..{len}"),
                        at,
                        flag.len(),
                    )),
                };
                match flag {
                    "extra" => extra = true,
                    "held" => held = true,
                    "skip:w" => skip[0] = true,
                    "skip:b" => skip[1] = true,
                    "wait:w" => waiting[0] = true,
                    "wait:b" => waiting[1] = true,
                    "fwd" => heading = Heading::Forward,
                    "back" => heading = Heading::Backward,
                    _ if flag.starts_with("hand:") => {
                        match flag[5..]
                            .split_once('-')
                            .map(|(w, b)| (w.parse::<u8>(), b.parse::<u8>()))
                        {
                            Some((Ok(w), Ok(b))) => hand = [w, b],
                            _ => {
                                return Err(err(
                                    format!(
                                        "`{flag}`: pieces in hand are written `hand:W-B`, e.g. `hand:5-4`"
                                    ),
                                    at,
                                    flag.len(),
                                ));
                            }
                        }
                    }
                    _ if flag.starts_with("mark:") => marked = Some(square_flag("mark")?),
                    _ if flag.starts_with("bound:") => bound = Some(square_flag("bound")?),
                    _ if flag.starts_with("q:") && flag.len() > 2 => {
                        if flag.len() - 2 > Queue::CAPACITY {
                            return Err(err(
                                format!(
                                    "the queue `q:` holds at most {} pieces, not {}",
                                    Queue::CAPACITY,
                                    flag.len() - 2
                                ),
                                at,
                                flag.len(),
                            ));
                        }
                        for c in flag[2..].chars() {
                            match c {
                                'W' => queue.push(Side::White),
                                'B' => queue.push(Side::Black),
                                _ => {
                                    return Err(err(
                                        format!("`{flag}`: the queue lists W and B, head first"),
                                        at,
                                        flag.len(),
                                    ));
                                }
                            }
                        }
                    }
                    _ => {
                        return Err(err(
                            format!(
                                "unknown rule-state flag `{flag}`: expected extra, held, fwd, back, bound:N, skip:w, skip:b, wait:w, wait:b, mark:N, hand:W-B or q:..."
                            ),
                            at,
                            flag.len().max(1),
                        ));
                    }
                }
                at += flag.len() + 1;
            }
            if bound.is_some() && !extra {
                return Err(err(
                    "`bound:N` needs `extra`: the bound throw is a pending throw".into(),
                    state_at,
                    state.len(),
                ));
            }
            if heading != Heading::Any && !extra {
                return Err(err(
                    "`fwd` and `back` need `extra`: they say which way the current turn has gone"
                        .into(),
                    state_at,
                    state.len(),
                ));
            }
        }
        let (turn_at, turn_field) = fields[4];
        let turn = match turn_field.parse::<u32>() {
            Ok(n) if (1..=Self::MAX_TURN).contains(&n) => n,
            _ => {
                return Err(err(
                    format!(
                        "the turn number is a whole number from 1 to {}",
                        Self::MAX_TURN
                    ),
                    turn_at,
                    turn_field.len(),
                ));
            }
        };
        // Each side's pieces, counted wide: no count of a position may
        // exceed the squares of the board, so that the narrow counts
        // (`in_play`, `off`) never wrap.
        for side in Side::BOTH {
            let i = side.index();
            let total = pieces[i].len()
                + off[i] as u32
                + queue.iter().filter(|&s| s == side).count() as u32
                + hand[i] as u32;
            if total > len as u32 {
                return Err(err(
                    format!(
                        "{side} has {total} pieces (on the board, borne off, queued and in hand), more than the {len} squares of the board"
                    ),
                    0,
                    text.len(),
                ));
            }
        }
        Ok(Position {
            pieces,
            to_move,
            off,
            extra,
            bound,
            skip,
            queue,
            waiting,
            marked,
            turn,
            arrived: SquareSet::EMPTY,
            hand,
            heading,
            origin: Origin::Unknown,
            first: Side::White,
            held,
        })
    }

    /// Writes the position string for a board of `len` squares in rows of
    /// `row_len`.
    pub fn write(&self, len: u8, row_len: u8) -> String {
        let mut s = String::with_capacity(48);
        let mut square = 1u8;
        while square <= len {
            if square > 1 {
                s.push('/');
            }
            let row_end = (square + row_len - 1).min(len);
            let mut empty = 0;
            for sq in square..=row_end {
                match self.at(sq) {
                    Some(side) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(side.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            square = row_end + 1;
        }
        s.push(' ');
        s.push(if self.to_move == Side::White {
            'w'
        } else {
            'b'
        });
        s.push_str(&format!(" {}-{} ", self.off[0], self.off[1]));
        let mut flags: Vec<String> = Vec::new();
        if self.extra {
            flags.push("extra".into());
        }
        if self.held {
            flags.push("held".into());
        }
        match self.heading {
            Heading::Any => {}
            Heading::Forward => flags.push("fwd".into()),
            Heading::Backward => flags.push("back".into()),
        }
        if let Some(b) = self.bound {
            flags.push(format!("bound:{b}"));
        }
        if self.skip[0] {
            flags.push("skip:w".into());
        }
        if self.skip[1] {
            flags.push("skip:b".into());
        }
        if self.waiting[0] {
            flags.push("wait:w".into());
        }
        if self.waiting[1] {
            flags.push("wait:b".into());
        }
        if let Some(m) = self.marked {
            flags.push(format!("mark:{m}"));
        }
        if self.hand != [0, 0] {
            flags.push(format!("hand:{}-{}", self.hand[0], self.hand[1]));
        }
        if !self.queue.is_empty() {
            flags.push(format!(
                "q:{}",
                self.queue.iter().map(Side::letter).collect::<String>()
            ));
        }
        if flags.is_empty() {
            s.push('-');
        } else {
            s.push_str(&flags.join(";"));
        }
        s.push_str(&format!(" {}", self.turn));
        s
    }
}

fn split_fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices() {
        if c == ' ' {
            out.push((start, &text[start..i]));
            start = i + 1;
        }
    }
    out.push((start, &text[start..]));
    out
}

impl fmt::Display for Position {
    /// The position string for the standard 30-square board.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.write(30, 10))
    }
}

/// A bad position string given on the command line (`senet moves
/// --position`), with the string as its source.
#[derive(Debug, thiserror::Error)]
#[error("bad position string: {message}")]
pub struct PositionArgError {
    message: String,
    src: String,
    span: Span,
}

impl PositionArgError {
    pub fn new(text: &str, e: &PositionError) -> PositionArgError {
        PositionArgError {
            message: e.message.clone(),
            src: text.to_string(),
            span: Span::new(e.at, e.at + e.len),
        }
    }

    /// What the error says beyond its message ([`crate::diag::Diagnostic`]).
    fn parts(&self) -> crate::diag::Parts<'_> {
        crate::diag::Parts::new("senet::position")
            .text(&self.src)
            .label(self.span, "here")
            .help(POSITION_HELP)
    }
}

crate::diag::diagnostic_from_parts!(PositionArgError);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_the_standard_start() {
        let text = "WBWBWBWBWB/10/10 w 0-0 - 1";
        let p = Position::parse(text, 30, 10).unwrap();
        assert_eq!(p.at(1), Some(Side::White));
        assert_eq!(p.at(10), Some(Side::Black));
        assert_eq!(p.at(11), None);
        assert_eq!(p.write(30, 10), text);
    }

    #[test]
    fn round_trips_every_flag() {
        let text = "1W2BB2W1/BW2B5/W9 b 0-1 extra;bound:26;skip:w;q:WB 17";
        let p = Position::parse(text, 30, 10).unwrap();
        assert!(p.extra && p.skip[0] && !p.skip[1]);
        assert_eq!(p.bound, Some(26));
        assert_eq!(
            p.queue.iter().collect::<Vec<_>>(),
            vec![Side::White, Side::Black]
        );
        assert_eq!(p.write(30, 10), text);
    }

    #[test]
    fn round_trips_hand_and_heading() {
        let text = "W9/10/9B w 0-1 extra;back;hand:4-3 6";
        let p = Position::parse(text, 30, 10).unwrap();
        assert_eq!(p.hand, [4, 3]);
        assert_eq!(p.heading, Heading::Backward);
        assert_eq!(p.write(30, 10), text);
        let e = Position::parse("W9/10/9B w 0-1 fwd 6", 30, 10).unwrap_err();
        assert!(e.message.contains("extra"), "{}", e.message);
        let e = Position::parse("W9/10/9B w 0-1 hand:4 6", 30, 10).unwrap_err();
        assert!(e.message.contains("hand:W-B"), "{}", e.message);
    }

    #[test]
    fn rejects_a_flag_written_twice() {
        // Found by fuzzing: two `q:` fields used to add up to a queue over
        // its capacity, which then did not read back.
        let text = "10/10/7W2 b 8-3 q:BBBW;q:BWWW;q:B 39";
        let e = Position::parse(text, 30, 10).unwrap_err();
        assert!(e.message.contains("`q` is written twice"), "{}", e.message);
        assert_eq!(e.at, text.find(";q:BWWW").unwrap() + 1);
        for twice in [
            "extra;extra",
            "extra;bound:3;bound:4",
            "hand:1-1;hand:2-2",
            "extra;fwd;back",
        ] {
            let text = format!("W9/10/9B w 0-1 {twice} 6");
            let e = Position::parse(&text, 30, 10).unwrap_err();
            assert!(
                e.message.contains("written twice"),
                "{twice}: {}",
                e.message
            );
        }
        // distinct flags of one family are fine
        assert!(Position::parse("W9/10/9B w 0-1 skip:w;skip:b;wait:w 6", 30, 10).is_ok());
    }

    #[test]
    fn rejects_bad_shapes_with_an_offset() {
        let e = Position::parse("WBWBWBWBWB/10/9 w 0-0 - 1", 30, 10).unwrap_err();
        assert!(e.message.contains("group 3"), "{}", e.message);
        let e = Position::parse("WBWBWBWBWB/10/10 x 0-0 - 1", 30, 10).unwrap_err();
        assert_eq!(e.at, 17);
        let e = Position::parse("WBWBWBWBWB/10/10 w 0-0 bound:26 1", 30, 10).unwrap_err();
        assert!(e.message.contains("extra"));
        assert!(Position::parse("WBWBWBWBWB/10/10 w 0-0 -", 30, 10).is_err());
    }

    /// `mark:N` and `bound:N` take a square of the board; anything else is
    /// refused with the flag underlined.
    #[test]
    fn square_flags_take_a_square_of_the_board() {
        let text = "WBWBWBWBWB/10/10 w 0-0";
        for (flags, message) in [
            ("extra;mark:0", "`mark:0`: mark takes a square 1..30"),
            ("extra;mark:31", "`mark:31`: mark takes a square 1..30"),
            ("extra;bound:x", "`bound:x`: bound takes a square 1..30"),
            ("extra;bound:", "`bound:`: bound takes a square 1..30"),
        ] {
            let e = Position::parse(&format!("{text} {flags} 1"), 30, 10).unwrap_err();
            assert_eq!(e.message, message, "{flags}");
            assert_eq!(e.at, text.len() + 1 + "extra;".len(), "{flags}");
            assert_eq!(e.len, flags.len() - "extra;".len(), "{flags}");
        }
        let p = Position::parse(&format!("{text} extra;bound:30 1"), 30, 10).unwrap();
        assert_eq!(p.bound, Some(30));
    }
}
