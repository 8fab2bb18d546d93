//! The canonical SGN writer: syntax tree → text.
//!
//! Stage: the end of the notation layer (what `senet fmt` prints and what
//! generated games are written with). Canonical form:
//! - escape lines first, then the tags: `Event Site Date Round White Black
//!   Result`, then the others in ASCII order (several tags of one name keep
//!   their order), then a blank line;
//! - one turn per line, starting with its turn number; units, comments
//!   `{ … }`, NAGs `$n` and variations `( … )` separated by single spaces;
//! - a comment containing `}` stays a `;` comment and ends its line; an
//!   escape line stays a line of its own;
//! - the result token on its own line; one blank line between games.
//!
//! The writer does not know the position: `x`, `-` and `+` are kept as
//! read (the replay, not the writer, knows whether a move was a swap).

use super::syntax::*;

/// The canonical text of one game, appended to `out`.
pub fn write_game(game: &Game, out: &mut String) {
    for e in &game.leading {
        out.push('%');
        out.push_str(&e.line);
        out.push('\n');
    }
    let mut order: Vec<&Tag> = game.tags.iter().collect();
    order.sort_by(|a, b| tag_rank(&a.name).cmp(&tag_rank(&b.name)));
    for t in &order {
        out.push('[');
        out.push_str(&t.name);
        out.push_str(" \"");
        for c in t.value.chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
            }
            out.push(c);
        }
        out.push_str("\"]\n");
    }
    if !game.tags.is_empty() {
        out.push('\n');
    }
    let mut w = Lines { out, fresh: true };
    for c in &game.intro {
        w.comment(c);
    }
    if !game.intro.is_empty() && !game.nodes.is_empty() {
        w.newline();
    }
    w.nodes(&game.nodes, true);
    w.newline();
    w.out.push_str(game.result.as_str());
    w.out.push('\n');
}

/// The canonical text of several games and the escape lines after them.
pub fn write_games<'a>(games: impl IntoIterator<Item = &'a Game>, trailing: &[Escape]) -> String {
    let mut out = String::new();
    for (i, g) in games.into_iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        write_game(g, &mut out);
    }
    for e in trailing {
        out.push('%');
        out.push_str(&e.line);
        out.push('\n');
    }
    out
}

/// The canonical text of one game.
pub fn game_to_string(game: &Game) -> String {
    let mut s = String::new();
    write_game(game, &mut s);
    s
}

/// Puts tags in canonical order (stable: tags of one name keep theirs).
pub fn sort_tags(tags: &mut [Tag]) {
    tags.sort_by(|a, b| tag_rank(&a.name).cmp(&tag_rank(&b.name)));
}

/// Sort key of a tag name: the seven PGN roster tags first, then ASCII.
fn tag_rank(name: &str) -> (u8, &str) {
    const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
    match ROSTER.iter().position(|&r| r == name) {
        Some(i) => (i as u8, ""),
        None => (ROSTER.len() as u8, name),
    }
}

/// Movetext output: tracks whether the current line is empty.
struct Lines<'a> {
    out: &'a mut String,
    fresh: bool,
}

impl Lines<'_> {
    fn newline(&mut self) {
        if !self.fresh {
            self.out.push('\n');
            self.fresh = true;
        }
    }

    /// Starts a token: a space unless at the start of a line.
    fn token(&mut self) {
        if !self.fresh {
            self.out.push(' ');
        }
        self.fresh = false;
    }

    fn nodes(&mut self, nodes: &[Node], top: bool) {
        for n in nodes {
            match n {
                Node::TurnNumber { number, black, .. } => {
                    if top {
                        self.newline();
                    }
                    self.token();
                    push_num(self.out, *number);
                    self.out.push_str(if *black { "..." } else { "." });
                }
                Node::Unit(u) => {
                    self.token();
                    push_unit(self.out, u);
                }
                Node::Comment(c) => self.comment(c),
                Node::Nag { n, .. } => {
                    self.token();
                    self.out.push('$');
                    push_num(self.out, *n as u32);
                }
                Node::Variation(v) => {
                    self.token();
                    self.out.push('(');
                    self.nodes(&v.nodes, false);
                    self.token();
                    self.out.push(')');
                }
                Node::Escape(e) => {
                    self.newline();
                    self.out.push('%');
                    self.out.push_str(&e.line);
                    self.out.push('\n');
                    self.fresh = true;
                }
            }
        }
    }

    fn comment(&mut self, c: &Comment) {
        self.token();
        if c.text.contains('}') {
            // Cannot be a `{ }` comment: stays a `;` comment, which ends the
            // line (its text never holds a line end: `;` comments are one line).
            self.out.push_str("; ");
            self.out.push_str(&c.text);
            self.out.push('\n');
            self.fresh = true;
        } else if c.text.is_empty() {
            self.out.push_str("{ }");
        } else {
            self.out.push_str("{ ");
            self.out.push_str(&c.text);
            self.out.push_str(" }");
        }
    }
}

fn push_num(out: &mut String, n: u32) {
    if n >= 10 {
        push_num(out, n / 10);
    }
    out.push((b'0' + (n % 10) as u8) as char);
}

/// The canonical form of a unit (as [`UnitSyntax`]'s `Display`, without
/// the formatting machinery: the writer's hot path).
pub fn push_unit(out: &mut String, u: &UnitSyntax) {
    match u.body {
        UnitBody::Skip => return out.push_str("skip"),
        UnitBody::Gap => return out.push_str("--"),
        _ => {}
    }
    if let Some(t) = u.throw {
        push_num(out, t as u32);
    }
    if let Some(f) = u.faces {
        out.push('_');
        for b in f.iter() {
            out.push(if b { '1' } else { '0' });
        }
    }
    if u.plus {
        out.push('+');
    }
    out.push(':');
    match u.body {
        UnitBody::Move {
            from,
            sep,
            to,
            reloc,
            split,
        } => {
            push_part(out, from, sep, to, reloc);
            if let Some(p) = split {
                out.push(':');
                push_part(out, p.from, p.sep, p.to, p.reloc);
                for p in p.later.iter() {
                    out.push(':');
                    push_part(out, p.from, p.sep, p.to, p.reloc);
                }
            }
        }
        _ => out.push_str("pass"),
    }
}

/// `12-15`, `9x12`, `29-off`, `25-27=15`, `hand-1`, `1-hand`.
fn push_part(out: &mut String, from: u8, sep: MoveSep, to: Target, reloc: Option<Reloc>) {
    if from == 0 {
        out.push_str("hand");
    } else {
        push_num(out, from as u32);
    }
    out.push(if sep == MoveSep::Cross { 'x' } else { '-' });
    match to {
        Target::Square(s) => push_num(out, s as u32),
        Target::Off => out.push_str("off"),
        Target::Hand => out.push_str("hand"),
    }
    match reloc {
        Some(Reloc::Square(s)) => {
            out.push('=');
            push_num(out, s as u32);
        }
        Some(Reloc::Queue) => out.push_str("=Q"),
        Some(Reloc::Hand) => out.push_str("=hand"),
        None => {}
    }
}
