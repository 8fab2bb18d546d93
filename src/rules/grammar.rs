//! Stage 1 of the rules compiler: `.senet` text → pest pairs → spanned
//! [`RuleFile`]. No game knowledge here: squares are not resolved or
//! range-checked. Syntax errors are turned into words a user knows (rule
//! names never reach a message).

use super::ast::*;
use super::errors::RuleError;
use crate::diag::SourceFile;
use crate::engine::{Backward, BlockadeKind, Goal, Hit, Lapse, Reach, Side};
use pest::Parser;
use pest::iterators::Pair;

#[derive(pest_derive::Parser)]
#[grammar = "grammar/common.pest"]
#[grammar = "grammar/rules.pest"]
pub struct RulesParser;

/// Parses a rule file into its spanned syntax tree; the first syntax error
/// ends the parse.
pub fn parse(file: &SourceFile) -> Result<RuleFile, Box<RuleError>> {
    let pairs =
        RulesParser::parse(Rule::file, &file.text).map_err(|e| Box::new(syntax_error(file, e)))?;
    Ok(tree(pairs))
}

/// A parse that goes on after syntax errors: the declarations that parse,
/// and every syntax error in line order.
pub struct Recovered {
    /// The declarations that parse; `None` when the file could not be read
    /// past an error (an unclosed block at its end).
    pub file: Option<RuleFile>,
    pub errors: Vec<RuleError>,
}

/// The most syntax errors one file reports: each costs a parse of the file.
const MAX_SYNTAX_ERRORS: usize = super::errors::MAX_SHOWN_ERRORS;

/// Parses a rule file and reports every syntax error, not only the first.
///
/// pest stops at the first error, so each error is taken out of the text
/// and the file parsed again: the declaration the error falls in (from the
/// line it begins on up to the line where the next declaration begins) is
/// replaced by spaces of the same length, so every later span still points
/// into the file as written. A region is only ever blanked after an error
/// has been reported inside it, and each parse reports the first error of
/// what is left, so no error is invented and, short of an unclosed block at
/// the end of the file, none is lost.
pub fn parse_recovering(file: &SourceFile) -> Recovered {
    let mut text = file.text.to_string();
    let mut errors = Vec::new();
    loop {
        let e = match RulesParser::parse(Rule::file, &text) {
            Ok(pairs) => {
                return Recovered {
                    file: Some(tree(pairs)),
                    errors,
                };
            }
            Err(e) => e,
        };
        let at = match e.location {
            pest::error::InputLocation::Pos(p) => p,
            pest::error::InputLocation::Span((a, _)) => a,
        };
        let new_declaration = expects_declaration(&e);
        errors.push(syntax_error(file, e));
        let (start, end) = failed_declaration(&text, at, new_declaration);
        if errors.len() >= MAX_SYNTAX_ERRORS || !blank(&mut text, start, end) {
            return Recovered { file: None, errors };
        }
    }
}

/// Whether a parse error is where a new declaration was expected (rather
/// than inside one).
fn expects_declaration(e: &pest::error::Error<Rule>) -> bool {
    match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => positives
            .iter()
            .any(|r| matches!(r, Rule::file | Rule::decl | Rule::item | Rule::statement)),
        pest::error::ErrorVariant::CustomError { .. } => false,
    }
}

/// The words that begin a declaration, an `extends` or an `option`.
const DECLARATION_WORDS: &[&str] = &[
    "title",
    "source",
    "status",
    "board",
    "house",
    "pieces",
    "setup",
    "enter",
    "split",
    "lost",
    "one",
    "starter",
    "opening",
    "throws",
    "extra",
    "no",
    "backward",
    "forward",
    "pass",
    "landing",
    "protect",
    "runs",
    "blockade",
    "at",
    "bear",
    "forced",
    "voluntary",
    "unusable",
    "goal",
    "guard",
    "first",
    "score",
    "draw",
    "extends",
    "option",
    "drop",
    "last",
];

/// The first word of a line, or `}` for a line that closes a block.
fn first_word(line: &str) -> &str {
    let t = line.trim_start();
    if t.starts_with('}') {
        return "}";
    }
    let end = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(t.len());
    &t[..end]
}

/// Whether a line begins a declaration (or closes an option block).
fn begins_declaration(line: &str) -> bool {
    let w = first_word(line);
    w == "}" || DECLARATION_WORDS.contains(&w)
}

/// Whether line `i` of a file may begin a declaration, so that recovery
/// from an error before it stops there. A line break is only spacing, so
/// this is a judgement on the layout, and each reason below holds for
/// every rule file written as the language reference shows them:
/// - its first word begins a declaration (or it closes an option block);
/// - the line before it ends with a clause list (`[K-1]`), which only ever
///   ends a declaration;
/// - it begins at column 1 with a word that is not a word of the language
///   or a house of the file: a misspelt keyword (`strater white`), since a
///   declaration that goes on over a line break goes on with a word of the
///   language, a number, a house or punctuation.
fn resyncs(lines: &[(usize, &str)], i: usize, houses: &[&str]) -> bool {
    let line = lines[i].1;
    if begins_declaration(line) {
        return true;
    }
    let previous = lines[..i]
        .iter()
        .rev()
        .map(|(_, l)| code_of(l).trim_end())
        .find(|l| !l.is_empty());
    if previous.is_some_and(|l| l.ends_with(']')) && !code_of(line).trim().is_empty() {
        return true;
    }
    let w = first_word(line);
    line.starts_with(|c: char| c.is_ascii_alphabetic())
        && !language_words().contains(&w)
        && !houses.contains(&w)
}

/// A line without its comment (a `#` outside a quoted text).
fn code_of(line: &str) -> &str {
    let mut quoted = false;
    let mut escaped = false;
    for (k, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..k],
            _ => {}
        }
    }
    line
}

/// The house names a file declares (`house water = 27 …`), which may begin
/// the continuation line of a declaration.
fn declared_houses<'a>(lines: &[(usize, &'a str)]) -> Vec<&'a str> {
    lines
        .iter()
        .filter(|(_, l)| first_word(l) == "house")
        .filter_map(|(_, l)| l.split_whitespace().nth(1))
        .collect()
}

/// The byte range of the declaration a syntax error at `at` falls in: from
/// the start of the line the declaration begins on to the start of the
/// next line that begins a declaration (or closes a block), or the end of
/// the text. An error where a declaration was expected is the declaration
/// of its own line; an error inside a declaration belongs to the last one
/// begun at or before it. A broken `option` header takes its whole block.
fn failed_declaration(text: &str, at: usize, new_declaration: bool) -> (usize, usize) {
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0, |offset, line| {
            let start = *offset;
            *offset += line.len();
            Some((start, line))
        })
        .collect();
    let Some(here) = lines.iter().rposition(|&(s, _)| s <= at) else {
        return (at, at);
    };
    let (line_start, line) = lines[here];
    let at_first_word = at <= line_start + (line.len() - line.trim_start().len());
    let houses = declared_houses(&lines);
    let first = if new_declaration && at_first_word {
        here
    } else {
        // An error at the first word of a line that was not expected to
        // begin a declaration belongs to a declaration begun earlier.
        (0..=here)
            .rev()
            .find(|&i| resyncs(&lines, i, &houses) && (i < here || !at_first_word))
            .unwrap_or(here)
    };
    let last = if first_word(lines[first].1) == "option" {
        (first + 1..lines.len())
            .find(|&i| first_word(lines[i].1) == "}")
            .map(|i| i + 1)
    } else {
        let from = if at_first_word && !new_declaration {
            here
        } else {
            here + 1
        };
        (from.max(first + 1)..lines.len()).find(|&i| resyncs(&lines, i, &houses))
    };
    let start = lines[first].0;
    let end = last
        .and_then(|i| lines.get(i).map(|l| l.0))
        .unwrap_or(text.len());
    (start, end.max(start))
}

/// Replaces the text from `start` to `end` by spaces, keeping line breaks
/// and the length in bytes. Returns false when there was nothing but
/// spacing to blank (going on would find the same error again).
fn blank(text: &mut String, start: usize, end: usize) -> bool {
    let region = &text[start..end];
    if region.trim().is_empty() {
        return false;
    }
    let spaced: String = region
        .chars()
        .flat_map(|c| {
            let n = if c == '\n' { 0 } else { c.len_utf8() };
            std::iter::repeat_n(' ', n).chain((c == '\n').then_some('\n'))
        })
        .collect();
    text.replace_range(start..end, &spaced);
    true
}

/// The syntax tree of a parsed file.
fn tree(mut pairs: pest::iterators::Pairs<Rule>) -> RuleFile {
    // grammar: `file` always matches exactly once on success
    let top = pairs.next().unwrap();
    let mut out = RuleFile {
        extends: Vec::new(),
        decls: Vec::new(),
        options: Vec::new(),
    };
    for item in top.into_inner() {
        match item.as_rule() {
            Rule::extends_decl => {
                let s = item.into_inner().next().unwrap(); // grammar: extends_decl = "extends" ~ string
                out.extends.push(Spanned::new(string(&s), span(&s)));
            }
            Rule::option_decl => out.options.push(option(item)),
            Rule::decl => out.decls.push(decl(item)),
            _ => {} // EOI
        }
    }
    out
}

fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.end())
}

fn int(p: &Pair<Rule>) -> Spanned<u32> {
    // grammar: int = ASCII_DIGIT+; a number too large for u32 saturates and
    // is reported out of range by the checks
    Spanned::new(p.as_str().parse().unwrap_or(u32::MAX), span(p))
}

fn string(p: &Pair<Rule>) -> String {
    // grammar: string = "\"" ~ string_inner ~ "\""
    let inner = p.clone().into_inner().next().unwrap().as_str();
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn ints(p: Pair<Rule>) -> Vec<Spanned<u32>> {
    p.into_inner().map(|i| int(&i)).collect()
}

fn clauses(p: Pair<Rule>) -> Vec<Spanned<String>> {
    p.into_inner()
        .map(|c| Spanned::new(c.as_str().to_string(), span(&c)))
        .collect()
}

fn option(p: Pair<Rule>) -> OptionDecl {
    let sp = span(&p);
    let mut inner = p.into_inner();
    // grammar: option_decl = "option" ~ (clause_id | option_word) ~ string ~ requires? ~ "{" ~ decl* ~ "}"
    let name = inner.next().unwrap();
    let desc = inner.next().unwrap();
    let mut opt = OptionDecl {
        name: Spanned::new(name.as_str().to_string(), span(&name)),
        description: string(&desc),
        requires: Vec::new(),
        inert: None,
        decls: Vec::new(),
        span: sp,
    };
    for p in inner {
        match p.as_rule() {
            Rule::requires => opt.requires = clauses(p),
            Rule::inert => {
                let sp = span(&p);
                // grammar: inert = names_only | unless_combined
                let kind = first(p);
                let node = match kind.as_rule() {
                    Rule::names_only => Inert::NamesOnly,
                    _ => Inert::UnlessCombined(clauses(kind)),
                };
                opt.inert = Some(Spanned::new(node, sp));
            }
            _ => opt.decls.push(decl(p)),
        }
    }
    opt
}

fn decl(p: Pair<Rule>) -> Decl {
    let sp = span(&p);
    let mut inner = p.into_inner();
    let stmt = inner.next().unwrap(); // grammar: decl = statement ~ clauses?
    let clauses = inner.next().map(clauses).unwrap_or_default();
    Decl {
        kind: statement(stmt),
        clauses,
        span: sp,
    }
}

fn side(p: &Pair<Rule>) -> Side {
    if p.as_str() == "white" {
        Side::White
    } else {
        Side::Black
    }
}

fn square_ref(p: &Pair<Rule>) -> Spanned<SquareRef> {
    // grammar: square_ref = int | ident
    let inner = p.clone().into_inner().next().unwrap();
    let node = match inner.as_rule() {
        Rule::int => SquareRef::Number(int(&inner).node),
        _ => SquareRef::House(inner.as_str().to_string()),
    };
    Spanned::new(node, span(p))
}

fn square_set(p: Pair<Rule>) -> SquareSetAst {
    p.into_inner()
        .map(|item| match item.as_rule() {
            Rule::square_range => {
                let mut ends = item.into_inner();
                let a = ends.next().unwrap(); // grammar: square_ref ~ ".." ~ square_ref
                let b = ends.next().unwrap();
                SquareItem::Range(square_ref(&a), square_ref(&b))
            }
            _ => SquareItem::One(square_ref(&item)),
        })
        .collect()
}

fn first(p: Pair<Rule>) -> Pair<Rule> {
    p.into_inner().next().unwrap()
}

fn relocation(p: Pair<Rule>) -> RelocationAst {
    // grammar: relocation = "to" ~ (lowest_empty | square_ref ~ fallback?)
    let mut inner = p.into_inner();
    let a = inner.next().unwrap();
    if a.as_rule() == Rule::lowest_empty {
        return RelocationAst::LowestEmpty;
    }
    if a.as_rule() == Rule::to_hand {
        return RelocationAst::Hand;
    }
    let fallback = inner.next().map(fallback);
    if a.as_rule() == Rule::relative {
        // grammar: relative = (back | forward) ~ int ~ ("squares" | "square")?
        let mut parts = a.into_inner();
        let back = parts.next().unwrap().as_rule() == Rule::back;
        return RelocationAst::By {
            back,
            squares: int(&parts.next().unwrap()),
            fallback,
        };
    }
    RelocationAst::To(square_ref(&a), fallback)
}

/// `else counting down`, `else counting up`, `else lowest empty`, `else queue`.
fn fallback(f: Pair<Rule>) -> Fallback {
    match first(f).as_rule() {
        Rule::counting_down => Fallback::CountingDown,
        Rule::counting_up => Fallback::CountingUp,
        Rule::lowest_empty => Fallback::LowestEmpty,
        _ => Fallback::Queue,
    }
}

fn relocate_or_stay(p: Pair<Rule>) -> RelocationAst {
    match p.as_rule() {
        Rule::stay => RelocationAst::Stay,
        _ => relocation(first(p)), // relocate = "relocate" ~ relocation
    }
}

fn throw_set(p: Pair<Rule>) -> ThrowSet {
    let inner = first(p);
    match inner.as_rule() {
        Rule::any_throw => ThrowSet::Any,
        _ => ThrowSet::Values(ints(inner)),
    }
}

fn effect(p: Pair<Rule>) -> Effect {
    match p.as_rule() {
        Rule::stay_landing => match p.into_inner().next() {
            None => Effect::Relocate(RelocationAst::Stay),
            Some(moving) => {
                // grammar: stay_moving = "," ~ "moving" ~ "with" ~ int_list ~ "to"
                //   ~ square_ref ~ fallback?
                let mut inner = moving.into_inner();
                let throws = ints(inner.next().unwrap());
                let to = square_ref(&inner.next().unwrap());
                Effect::StayMoving {
                    throws,
                    to,
                    fallback: inner.next().map(fallback),
                }
            }
        },
        Rule::relocate | Rule::stay => Effect::Relocate(relocate_or_stay(p)),
        Rule::gate => Effect::Gate,
        Rule::truncate => Effect::Truncate,
        Rule::immobile => Effect::Immobile,
        Rule::priority => Effect::Priority,
        Rule::exit_with => Effect::ExitWith(throw_set(first(p))),
        Rule::exit_only_from_turn_start => Effect::ExitOnlyFromTurnStart,
        Rule::exit_no_extra => Effect::ExitNoExtra,
        Rule::hit_sends => {
            // grammar: hit_sends = "hit" ~ "sends" ~ "to" ~ square_ref ~ hit_taken?
            //   ~ hit_forward_only?
            let mut inner = p.into_inner();
            let to = square_ref(&inner.next().expect("hit_sends has a square_ref"));
            let (mut forbidden, mut forward_only) = (false, false);
            for t in inner {
                match t.as_rule() {
                    Rule::hit_forward_only => forward_only = true,
                    _ => forbidden |= first(t).as_rule() == Rule::hit_taken_forbidden,
                }
            }
            Effect::HitSendsTo(to, forbidden, forward_only)
        }
        Rule::divert if p.as_str().starts_with("taken") => {
            let mut inner = p.into_inner();
            let to = square_ref(&inner.next().unwrap());
            Effect::DivertWhenTaken(to, inner.next().map(fallback))
        }
        Rule::divert => Effect::DivertTo(square_ref(&first(p))),
        Rule::bound_extra => Effect::BoundExtra,
        Rule::extra_throw if p.clone().into_inner().next().is_some() => Effect::OffExtra,
        Rule::extra_throw => Effect::ExtraThrow,
        Rule::stuck_to_hand => Effect::StuckToHand,
        Rule::no_backward => Effect::NoBackward,
        Rule::no_forward => Effect::NoForward,
        Rule::miss_turn => Effect::MissTurn,
        Rule::overshoot => {
            // grammar: overshoot = "overshoot" ~ "drops" ~ "to" ~ square_ref ~ when_empty?
            let mut inner = p.into_inner();
            let to = square_ref(&inner.next().unwrap());
            Effect::OvershootTo(to, inner.next().is_some())
        }
        _ => Effect::Lock(
            // grammar: lock = "lock" ~ ":" ~ lock_part ~ ("," ~ lock_part)*
            p.into_inner()
                .map(|part| {
                    let sp = span(&part);
                    let node = match part.as_rule() {
                        Rule::release => LockPart::Release(relocation(first(part))),
                        Rule::release_miss => LockPart::ReleaseMissesTurn,
                        Rule::lock_pass => LockPart::PassAllowed,
                        Rule::lock_no_extra => LockPart::NoExtra,
                        Rule::lock_binds => LockPart::BindsNextPly,
                        Rule::refused_exit => LockPart::RefusedExitPasses,
                        Rule::exit_with => LockPart::Exit(throw_set(first(part))),
                        Rule::otherwise => LockPart::Otherwise(relocate_or_stay(first(part))),
                        Rule::failure => {
                            LockPart::FailureEndsTurn(first(part).as_rule() == Rule::ends_turn)
                        }
                        _ => LockPart::ExitNoExtra,
                    };
                    Spanned::new(node, sp)
                })
                .collect(),
        ),
    }
}

fn pred(p: Pair<Rule>) -> PredNode {
    let sp = span(&p);
    match p.as_rule() {
        Rule::pred | Rule::pred_and => {
            let is_or = p.as_rule() == Rule::pred;
            let mut parts: Vec<PredNode> = p.into_inner().map(pred).collect();
            if parts.len() == 1 {
                return parts.pop().unwrap();
            }
            let pred = if is_or {
                PredAst::Or(parts)
            } else {
                PredAst::And(parts)
            };
            PredNode {
                pred,
                clauses: Vec::new(),
                span: sp,
            }
        }
        Rule::pred_not => {
            let mut inner = p.into_inner();
            let a = inner.next().unwrap();
            if a.as_rule() == Rule::not_op {
                // grammar: pred_not = not_op ~ pred_not | pred_atom
                let operand = pred(inner.next().unwrap());
                PredNode {
                    pred: PredAst::Not(Box::new(operand)),
                    clauses: Vec::new(),
                    span: sp,
                }
            } else {
                pred(a)
            }
        }
        Rule::pred_atom => {
            let mut inner = p.into_inner();
            let body = inner.next().unwrap(); // grammar: pred_atom has one body
            let cl = inner.next().map(clauses).unwrap_or_default();
            let bs = span(&body);
            let mut node = match body.as_rule() {
                Rule::pred => pred(body),
                Rule::run_length => {
                    let test = first(body);
                    let pred = match test.as_rule() {
                        Rule::run_at_least => PredAst::RunAtLeast(int(&first(test))),
                        Rule::run_exactly => PredAst::RunExactly(int(&first(test))),
                        _ => PredAst::RunIn(ints(first(test))),
                    };
                    PredNode {
                        pred,
                        clauses: Vec::new(),
                        span: bs,
                    }
                }
                Rule::middle => PredNode {
                    pred: match body.as_str().split_whitespace().next() {
                        Some("end") => PredAst::EndOfRun,
                        Some("inner") => PredAst::InnerOfRun,
                        _ => PredAst::Middle,
                    },
                    clauses: Vec::new(),
                    span: bs,
                },
                Rule::taken => PredNode {
                    pred: PredAst::Taken(square_set(first(body))),
                    clauses: Vec::new(),
                    span: bs,
                },
                Rule::owner_skips => PredNode {
                    pred: PredAst::OwnerSkips,
                    clauses: Vec::new(),
                    span: bs,
                },
                Rule::owner_on => PredNode {
                    pred: PredAst::OwnerOn(square_set(first(body))),
                    clauses: Vec::new(),
                    span: bs,
                },
                Rule::owner_beside => PredNode {
                    pred: PredAst::OwnerBeside,
                    clauses: Vec::new(),
                    span: bs,
                },
                Rule::group_size => PredNode {
                    pred: PredAst::GroupAtLeast(int(&first(body))),
                    clauses: Vec::new(),
                    span: bs,
                },
                _ => PredNode {
                    pred: PredAst::On(square_set(first(body))),
                    clauses: Vec::new(),
                    span: bs,
                },
            };
            if !cl.is_empty() {
                node.clauses = cl;
            }
            node.span = sp;
            node
        }
        _ => unreachable!("grammar: pred rules only"),
    }
}

fn statement(p: Pair<Rule>) -> DeclKind {
    let rule = p.as_rule();
    let mut inner = p.clone().into_inner();
    let mut next = || inner.next().unwrap();
    match rule {
        Rule::title => DeclKind::Title(string(&next())),
        Rule::source => DeclKind::Source(string(&next())),
        Rule::status => DeclKind::Status(string(&next())),
        Rule::board => DeclKind::Board {
            len: int(&next()),
            row_len: int(&next()),
        },
        Rule::house => {
            let ident = next();
            let square = next();
            let name = next();
            let glyph = inner.next().map(|g| string(&first(g)));
            DeclKind::House {
                ident: Spanned::new(ident.as_str().to_string(), span(&ident)),
                square: int(&square),
                name: string(&name),
                glyph,
            }
        }
        Rule::pieces => DeclKind::Pieces(int(&next())),
        Rule::setup => {
            let side = side(&next());
            let at = next();
            DeclKind::Setup {
                side,
                squares: match at.as_rule() {
                    Rule::setup_in_hand => Vec::new(),
                    _ => square_set(at),
                },
            }
        }
        Rule::enter => {
            let square = square_ref(&next());
            let throws = ints(next());
            DeclKind::Enter {
                square,
                throws,
                bound: inner.next().is_some(),
            }
        }
        Rule::split => DeclKind::Split {
            any: inner.next().is_some(),
        },
        Rule::held_extra => DeclKind::HeldExtra,
        Rule::one_direction => DeclKind::OneDirection,
        Rule::backward_extra => DeclKind::BackwardExtra,
        Rule::last_piece => {
            // grammar: last_piece = "last" ~ "piece" ~ "on" ~ square_set ~ "moves" ~ "to"
            //   ~ square_ref ~ ...
            let from = square_set(next());
            let to = square_ref(&next());
            DeclKind::LastPiece { from, to }
        }
        Rule::starter => {
            let a = next();
            match a.as_rule() {
                Rule::by_lot => DeclKind::StarterByLot,
                _ => DeclKind::StarterFixed(side(&a)),
            }
        }
        Rule::opening => {
            let side = side(&next());
            let (mut throw, mut from, mut lapse) = (None, None, Lapse::AnyMove);
            for part in inner {
                match part.as_rule() {
                    Rule::opening_throw => throw = Some(int(&first(part))),
                    Rule::opening_from => from = Some(square_ref(&first(part))),
                    _ => {
                        if first(part).as_rule() == Rule::lapse_pass {
                            lapse = Lapse::Pass;
                        }
                    }
                }
            }
            DeclKind::Opening {
                side,
                throw,
                from,
                lapse,
            }
        }
        Rule::throws => {
            let sticks = int(&next());
            let map = inner
                .map(|e| {
                    let mut kv = e.into_inner();
                    let k = int(&kv.next().unwrap()); // grammar: throw_entry = int ~ "->" ~ int
                    let v = int(&kv.next().unwrap());
                    (k, v)
                })
                .collect();
            DeclKind::Throws { sticks, map }
        }
        Rule::die_throws => {
            let faces = int(&next());
            DeclKind::Die {
                faces,
                values: ints(next()),
            }
        }
        Rule::extra => {
            let a = next();
            match a.as_rule() {
                Rule::no_extra => DeclKind::Extra(Vec::new()),
                _ => DeclKind::Extra(ints(a)),
            }
        }
        Rule::backward => match next().as_rule() {
            Rule::backward_never => DeclKind::Backward(Backward::Never),
            Rule::backward_one_square => DeclKind::Backward(Backward::OneSquareWhenNoForward),
            Rule::backward_to_empty => DeclKind::Backward(Backward::ToEmptyWhenNoForward),
            Rule::backward_one_to_empty => {
                DeclKind::Backward(Backward::OneSquareToEmptyWhenNoForward)
            }
            _ => DeclKind::Backward(Backward::WhenNoForward),
        },
        Rule::compulsory => DeclKind::Compulsory,
        Rule::pass => match next().as_rule() {
            Rule::pass_beside_entry => DeclKind::PassBesideEntry,
            r => DeclKind::Pass {
                voluntary: r == Rule::pass_voluntary,
            },
        },
        Rule::own_piece => DeclKind::OwnPieceForbidden,
        Rule::opposing => DeclKind::Opposing(match next() {
            a if a.as_rule() == Rule::opposing_lowest
                && a.clone().into_inner().next().is_some() =>
            {
                Hit::LowestEmptyBeforeMove
            }
            a => match a.as_rule() {
                Rule::opposing_lowest => Hit::LowestEmpty,
                Rule::opposing_captures => Hit::Capture,
                Rule::opposing_forbidden => Hit::Forbidden,
                _ => Hit::Swap,
            },
        }),
        Rule::protect => {
            let a = next();
            match a.as_rule() {
                Rule::protect_nothing => DeclKind::Protect(None),
                _ => DeclKind::Protect(Some(pred(a))),
            }
        }
        Rule::runs => {
            let squares = square_set(next());
            // grammar: runs_except = "except" ~ "runs" ~ "reaching" ~ square_set
            DeclKind::Runs(squares, inner.next().map(|e| square_set(first(e))))
        }
        Rule::target_blockade => DeclKind::TargetBlockade(
            inner
                .map(|case| {
                    let otherwise = case.as_rule() == Rule::target_otherwise;
                    let mut parts = case.into_inner();
                    let onto = if otherwise {
                        None
                    } else {
                        // grammar: target_onto = square_set ~ &"passing" | pred
                        let o = first(parts.next().unwrap());
                        Some(match o.as_rule() {
                            Rule::square_set => TargetOnto::Squares(square_set(o)),
                            _ => TargetOnto::Pred(pred(o)),
                        })
                    };
                    TargetCaseAst {
                        onto,
                        passing: pred(parts.next().unwrap()),
                    }
                })
                .collect(),
        ),
        Rule::blockade => DeclKind::Blockades(
            inner
                .filter(|b| b.as_rule() == Rule::blockade_spec)
                .map(|b| {
                    let mut kv = b.into_inner();
                    let length = int(&kv.next().unwrap()); // grammar: blockade_spec = int ~ kind
                    let kind = kv.next().unwrap();
                    let of = match kind.as_rule() {
                        Rule::blockade_opposing if kind.into_inner().next().is_some() => {
                            BlockadeKind::OpposingGroup
                        }
                        Rule::blockade_opposing => BlockadeKind::Opposing,
                        Rule::blockade_one_colour => BlockadeKind::OneColour,
                        _ => BlockadeKind::Any,
                    };
                    let where_runs = kv.next().is_some();
                    BlockadeAst {
                        length,
                        of,
                        where_runs,
                    }
                })
                .collect(),
        ),
        Rule::at => DeclKind::At {
            squares: square_set(next()),
            effect: effect(next()),
        },
        Rule::bear_off_all_in => DeclKind::BearOffAllIn(square_set(next())),
        Rule::bear_off => {
            let reach = next();
            match reach.as_rule() {
                Rule::reach_without_throw => {
                    let mut parts = reach.into_inner();
                    DeclKind::BearOffWithoutThrow {
                        from: square_ref(&parts.next().unwrap()), // grammar: square_ref ~ square_set
                        region: square_set(parts.next().unwrap()),
                    }
                }
                Rule::reach_exact_past => DeclKind::BearOff(Reach::ExactPast),
                Rule::reach_exact_last => DeclKind::BearOff(Reach::ExactLast),
                _ => DeclKind::BearOff(Reach::Beyond),
            }
        }
        Rule::pass_extra => {
            let forced = next().as_str() == "forced";
            let keeps = next().as_str() == "keeps";
            DeclKind::PassExtra { forced, keeps }
        }
        Rule::bound_throw => DeclKind::BoundThrow {
            ends_turn: next().as_rule() == Rule::ends_turn,
        },
        Rule::goal => DeclKind::Goal(match next().as_rule() {
            Rule::goal_most => Goal::MostBorneOff,
            _ => Goal::BearOffAll,
        }),
        Rule::guard => DeclKind::Guard(inner.next().map(|on| square_set(first(on)))),
        Rule::halfway_blockade => DeclKind::HalfwayBlockade {
            length: int(&next()),
            throws: ints(next()),
        },
        Rule::draw_on_extra => DeclKind::DrawOnExtra,
        Rule::turn_limit => DeclKind::TurnLimit(int(&next())),
        Rule::bear_off_voluntary => DeclKind::BearOffVoluntary,
        Rule::start_throw => {
            let t = int(&next());
            let mut side_of = None;
            let mut counted = false;
            for p in inner {
                match p.as_rule() {
                    Rule::start_side => side_of = Some(side(&first(p))),
                    _ => counted = true,
                }
            }
            DeclKind::StartThrow(t, side_of, counted)
        }
        Rule::score => {
            let a = next();
            match a.as_rule() {
                Rule::no_score => DeclKind::Score(None),
                _ => DeclKind::Score(Some(ints(a))),
            }
        }
        Rule::drop => DeclKind::Drop(drop_target(next())),
        _ => unreachable!("grammar: statement alternatives only"),
    }
}

/// The words of a pair with single spaces, whatever spacing the file used.
fn words(p: &Pair<Rule>) -> String {
    p.as_str().split_whitespace().collect::<Vec<_>>().join(" ")
}

fn drop_target(p: Pair<Rule>) -> DropTarget {
    let rule = p.as_rule();
    let mut inner = p.clone().into_inner();
    match rule {
        Rule::drop_at => DropTarget::At {
            squares: square_set(inner.next().unwrap()),
            kind: inner.next().map(|k| words(&k)),
        },
        Rule::drop_house => {
            let name = inner.next().unwrap();
            DropTarget::House(Spanned::new(name.as_str().to_string(), span(&name)))
        }
        Rule::drop_opening => DropTarget::Opening(inner.next().map(|s| side(&s))),
        Rule::drop_setup => DropTarget::Setup(side(&inner.next().unwrap())),
        Rule::drop_pass_extra => DropTarget::PassExtra {
            forced: inner.next().unwrap().as_str() == "forced",
        },
        _ => DropTarget::Named(words(&p)),
    }
}

/// Words for a grammar rule, as a user would say what was expected.
pub fn describe(rule: Rule) -> &'static str {
    use Rule::*;
    match rule {
        EOI => "the end of the file",
        WHITESPACE | COMMENT => "a space or comment",
        int => "a number",
        string | string_inner => "a quoted text",
        keyword => "a keyword",
        ident => "a house name",
        clause_id => "a clause id such as `K-9a`",
        option_word => "an option name such as `A-3/lowest` or `walker`",
        clauses => "clause ids in brackets, such as `[K-9a]`",
        square_ref => "a square number or house name",
        square_range => "a range of squares such as `26..30`",
        square_set | square_item => "squares such as `26, 28..30`",
        int_list => "numbers such as `1, 4, 5`",
        side => "`white` or `black`",
        file | item | decl | statement => "a declaration",
        extends_decl => "`extends \"...\"`",
        option_decl => "`option NAME \"...\" { ... }`",
        requires => "`requires NAME`",
        inert => "`names only` or `changes nothing unless combined with NAME`",
        names_only => "`names only`",
        unless_combined => "`changes nothing unless combined with NAME`",
        title => "`title \"...\"`",
        source => "`source \"...\"`",
        status => "`status \"...\"`",
        board => "`board N squares in rows of N`",
        house => "`house NAME = SQUARE \"...\"`",
        glyph => "`glyph \"...\"`",
        pieces => "`pieces N per side`",
        setup => "`setup white|black on SQUARES` or `setup white|black in hand`",
        setup_in_hand => "`in hand`",
        enter => "`enter from hand on SQUARE with VALUES`",
        enter_bound => "`, extra throw bound to piece`",
        split => "`split throw between two pieces`",
        split_any => "`into any number of parts`",
        held_extra => "`lost rest holds extra throw`",
        pass_beside_entry => "`when no move but entering`",
        off_extra => "`on bearing off`",
        one_direction => "`one direction per turn`",
        backward_extra => "`backward move gives extra throw`",
        last_piece => "`last piece on SQUARES moves to SQUARE when no other move`",
        opposing_forbidden => "`forbidden`",
        extra_throw => "`extra throw`",
        stuck_to_hand => "`back to hand when no move`",
        to_hand => "`hand`",
        no_backward => "`no backward move`",
        no_forward => "`no forward move`",
        starter => "`starter white|black` or `starter by lot`",
        by_lot => "`by lot`",
        opening => "`opening SIDE: throw N from SQUARE else any move|pass`",
        opening_throw => "`throw N`",
        opening_from => "`from SQUARE`",
        lapse => "`else any move` or `else pass`",
        lapse_any => "`any move`",
        lapse_pass => "`pass`",
        throws => "`throws with N sticks: K -> VALUE, ...`",
        throw_entry => "`K -> VALUE`",
        extra => "`extra throw on VALUES`",
        no_extra => "`no extra throw`",
        backward => {
            "`backward never`, `backward when no forward move`, `backward one square when no forward move`, `backward to empty squares when no forward move` or `backward one square to empty squares when no forward move`"
        }
        backward_one_square => "`one square when no forward move`",
        backward_to_empty => "`to empty squares when no forward move`",
        backward_one_to_empty => "`one square to empty squares when no forward move`",
        die_throws => "`throws with a die of N faces: VALUES`",
        opposing_swaps => "`swaps`",
        opposing_lowest => "`sends it to lowest empty`",
        opposing_captures => "`captures`",
        taken => "`square SQUARES taken`",
        owner_on => "`owner on SQUARES`",
        owner_skips => "`owner misses next turn`",
        overshoot => "`overshoot drops to SQUARE`",
        when_empty => "`when empty`",
        release_miss => "`release misses next turn`",
        lock_pass => "`pass allowed`",
        lock_no_extra => "`no extra throw`",
        lock_binds => "`moved piece binds next ply`",
        refused_exit => "`refused exit passes`",
        hit_forward_only => "`on forward moves`",
        bear_off_voluntary => "`bear off voluntary`",
        goal_all => "`bear off all pieces`",
        goal_most => "`most pieces borne off`",
        guard => {
            "`guard: setup square needs next square empty` or `guard: on SQUARES needs next square empty`"
        }
        start_throw => "`first move needs throw N`",
        start_side => "`, white only` or `, black only`",
        start_counted => "`, counted when thrown`",
        backward_never => "`never`",
        backward_when_stuck => "`when no forward move`",
        compulsory => "`forward move compulsory`",
        pass => "`pass voluntary` or `pass only when no move`",
        pass_voluntary => "`voluntary`",
        pass_forced_only => "`only when no move`",
        own_piece => "`landing on own piece forbidden`",
        opposing => "`landing on opposing piece swaps|sends it to lowest empty|captures|forbidden`",
        protect => "`protect when CONDITION` or `protect nothing`",
        protect_nothing => "`nothing`",
        pred | pred_and | pred_not | pred_atom => {
            "a protection condition (`run >= 2`, `middle of run`, `on SQUARES`, `not`, `(...)`)"
        }
        not_op => "`not`",
        run_length => "`run >= N`, `run = N` or `run in {N, ...}`",
        run_at_least => "`>= N`",
        run_exactly => "`= N`",
        run_in => "`in {N, ...}`",
        middle => "`middle of run`",
        runs_except => "`except runs reaching SQUARES`",
        stay_landing => "`stay`",
        stay_moving => "`, moving with VALUES to SQUARE`",
        target_blockade => {
            "`blockade on forward moves: onto SQUARES passing CONDITION; otherwise passing CONDITION`"
        }
        target_case => "`onto SQUARES passing CONDITION`",
        target_onto => "squares or a condition",
        target_otherwise => "`otherwise passing CONDITION`",
        on_squares => "`on SQUARES`",
        runs => "`runs count on SQUARES`",
        blockade => "`blockade N opposing|of one colour|any`",
        no_blockade => "`no blockade`",
        blockade_spec => "a blockade such as `3 opposing`",
        blockade_opposing => "`opposing`",
        blockade_one_colour => "`of one colour`",
        blockade_any => "`any`",
        blockade_in_group => "`in a group`",
        group_size => "`group >= N`",
        blockade_where_runs => "`where runs count`",
        at => "`at SQUARES: EFFECT`",
        effect => "a square effect",
        relocate => "`relocate to ...`",
        relocation => "`to SQUARE` or `to lowest empty`",
        lowest_empty => "`lowest empty`",
        fallback => "`else counting down`, `else lowest empty` or `else queue`",
        counting_down => "`counting down`",
        counting_up => "`counting up`",
        relative => "`back N` or `forward N`",
        back => "`back`",
        forward => "`forward`",
        queue => "`queue`",
        stay => "`stay`",
        gate => "`gate`",
        truncate => "`truncate`",
        immobile => "`immobile`",
        priority => "`priority`",
        exit_with => "`exit with THROWS`",
        throw_set => "throw values or `any throw`",
        any_throw => "`any throw`",
        exit_only_from_turn_start => "`exit only from turn start`",
        hit_sends => "`hit sends to SQUARE`",
        hit_taken => "`else landing forbidden` or `else swap`",
        hit_taken_forbidden => "`landing forbidden`",
        hit_taken_swap => "`swap`",
        divert => "`protected target diverts mover to SQUARE`",
        bound_extra => "`extra throw bound to piece`",
        miss_turn => "`miss next turn`",
        lock | lock_part => "`lock: ...`",
        release => "`release to SQUARE`",
        otherwise => "`otherwise stay` or `otherwise relocate to ...`",
        failure => "`failure ends turn` or `failure continues turn`",
        ends_turn => "`ends turn`",
        continues_turn => "`continues turn`",
        exit_no_extra => "`exit gives no extra throw`",
        bear_off_all_in => "`bear off only when all pieces on SQUARES`",
        bear_off => {
            "`bear off by exact throw past the end` (or `on reaching the last square`, `by any throw past the end`)"
        }
        reach_exact_past => "`by exact throw past the end`",
        reach_exact_last => "`on reaching the last square`",
        reach_beyond => "`by any throw past the end`",
        reach_without_throw => "`without a throw from SQUARE when all pieces on SQUARES`",
        pass_extra => "`forced|voluntary pass keeps|loses extra throw`",
        pass_kind => "`forced` or `voluntary`",
        keeps_or_loses => "`keeps` or `loses`",
        bound_throw => "`unusable bound throw passes|ends turn`",
        bound_passes => "`passes`",
        goal => "`goal: bear off all pieces` or `goal: most pieces borne off`",
        score => "`score by row N, N, ...` or `no score`",
        no_score => "`no score`",
        drop => "`drop` and the first words of a declaration, e.g. `drop guard`",
        drop_at => "`at SQUARES` or `at SQUARES: EFFECT`",
        drop_effect => "the first words of a square effect (e.g. `priority`, `exit with`)",
        drop_house => "`house NAME`",
        drop_opening => "`opening`, `opening white` or `opening black`",
        drop_setup => "`setup white` or `setup black`",
        drop_pass_extra => "`forced pass` or `voluntary pass`",
        drop_named => "the first words of a declaration (e.g. `guard`, `one direction per turn`)",
        before_the_move => "`before the move`",
        guard_on => "`on SQUARES`",
        owner_beside => "`owner beside in row`",
        halfway_blockade => "`blockade at half the throw: N any in one row, on VALUES`",
        draw_on_extra => "`draw when last bear off gives extra throw`",
        turn_limit => "`draw after N turns`",
    }
}

fn syntax_error(file: &SourceFile, e: pest::error::Error<Rule>) -> RuleError {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((a, b)) => (a, b),
    };
    let text = &*file.text;
    // A word that runs on past a keyword (`blockades`) fails at the letter
    // after the keyword: show the whole word.
    let start = if end == start && in_word(text, start) {
        word_start(text, start)
    } else {
        start
    };
    // Widen a point to the offending word so the label has something to underline.
    let end = if end > start {
        end
    } else {
        let rest = &text[start..];
        let word = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
        start + word.max(rest.chars().next().map_or(0, char::len_utf8))
    };
    let general = "every declaration starts with a keyword and may end with its clauses, e.g. \
                   `at 27: relocate to lowest empty [K-11]`; see docs/rules-language.md";
    let (expected, found) = match &e.variant {
        ErrorVariant::ParsingError {
            positives,
            negatives,
        } => {
            let mut words: Vec<&str> = positives.iter().map(|r| describe(*r)).collect();
            words.dedup();
            let mut uniq = Vec::new();
            for w in words {
                if !uniq.contains(&w) {
                    uniq.push(w);
                }
            }
            let _ = negatives;
            let found = text[start..end].to_string();
            // A declaration that starts with a known keyword but goes wrong
            // later fails as a whole; say which form that keyword begins.
            let at_decl = positives
                .iter()
                .any(|r| matches!(r, Rule::file | Rule::decl | Rule::item | Rule::statement));
            let forms = if at_decl {
                forms_of(&found)
            } else {
                Vec::new()
            };
            // A keyword that begins several forms (`blockade 3 opposing`,
            // `blockade on forward moves: ...`) fails on its second word
            // inside the first form tried: measure the line against all of
            // them, and point where the form it follows furthest departs.
            if !at_decl
                && let Some((s, e, wants, forms)) = second_word_departure(text, start, &uniq)
            {
                return departed(file, text, s, e, &wants, &forms, general);
            }
            if forms.is_empty() {
                (join_or(&uniq), format!("`{found}`"))
            } else {
                // Point at the first word that departs from the forms.
                let line_end = text[start..].find('\n').map_or(text.len(), |n| start + n);
                if let Some((s, e, wants)) = departure(&text[..line_end], start, &forms) {
                    return departed(file, text, s, e, &wants, &forms, general);
                }
                (
                    join_or(&forms),
                    format!("a `{found}` declaration that does not follow it"),
                )
            }
        }
        ErrorVariant::CustomError { message } => (message.clone(), String::new()),
    };
    let found = if found.is_empty() || found == "``" {
        "the end of the file".to_string()
    } else {
        found
    };
    // A misspelt word of the language (`blokade`, `opning`, `whte`): say
    // which, first among the words expected here (a side, a kind of
    // landing), then among all the words of the language.
    let word = &text[start..end];
    // The word without punctuation after it (`blak:`); a word with digits
    // (`A14`) is no misspelt word of the language.
    let word = &word[..word
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(word.len())];
    let guess = (word.len() > 1
        && word.bytes().all(|b| b.is_ascii_alphabetic())
        && !language_words().contains(&word))
    .then(|| {
        crate::diag::nearest(word, expected_words(&expected))
            .or_else(|| crate::diag::nearest(word, language_words().iter().copied()))
    })
    .flatten();
    let label = match guess {
        Some(g) => format!("did you mean `{g}`?"),
        None if expected.len() <= 60 => format!("expected {expected}"),
        None => "not understood here".to_string(),
    };
    let help = match guess {
        Some(g) => format!("did you mean `{g}`? {general}"),
        None => general.to_string(),
    };
    RuleError::Syntax {
        src: file.clone(),
        span: crate::diag::span(start, end),
        label,
        expected,
        found,
        help,
    }
}

/// The error for a declaration that departs from the forms its keyword
/// begins at the word `text[s..e]`, where the forms that go furthest want
/// one of `wants`.
fn departed(
    file: &SourceFile,
    text: &str,
    s: usize,
    e: usize,
    wants: &[&str],
    forms: &[&str],
    general: &str,
) -> RuleError {
    let word = &text[s..e];
    let quoted: Vec<String> = wants.iter().map(|w| format!("`{w}`")).collect();
    let quoted: Vec<&str> = quoted.iter().map(String::as_str).collect();
    let label = match crate::diag::nearest(word, wants.iter().copied())
        .filter(|w| w.bytes().all(|b| b.is_ascii_alphabetic()))
    {
        Some(w) => format!("did you mean `{w}`?"),
        None => format!("expected {}", join_or(&quoted)),
    };
    RuleError::Syntax {
        src: file.clone(),
        span: crate::diag::span(s, e),
        label,
        expected: format!("{} ({})", join_or(&quoted), join_or(forms)),
        found: format!("`{word}`"),
        help: general.to_string(),
    }
}

/// The words that the expected forms quote (`white` and `black` of
/// ``expected `white` or `black` ``): the closed word lists of the grammar,
/// those of `common.pest` (sides) among them.
fn expected_words(expected: &str) -> Vec<&str> {
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .flat_map(str::split_whitespace)
        .filter(|w| w.len() > 1 && w.bytes().all(|b| b.is_ascii_lowercase()))
        .collect()
}

/// Whether byte `at` of `text` is inside a word: a letter right after one.
fn in_word(text: &str, at: usize) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text[at..].chars().next().is_some_and(word) && text[..at].chars().next_back().is_some_and(word)
}

/// The start of the word that byte `at` of `text` is in.
fn word_start(text: &str, at: usize) -> usize {
    text[..at]
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1)
}

/// Every word of the rules language: the quoted words of the grammar, which
/// a misspelt word is compared with.
fn language_words() -> &'static [&'static str] {
    static WORDS: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();
    WORDS.get_or_init(|| {
        let grammar = include_str!("../../grammar/rules.pest");
        let mut words: Vec<&str> = grammar
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .flat_map(|l| l.split('"').skip(1).step_by(2))
            .filter(|w| w.len() > 1 && w.bytes().all(|b| b.is_ascii_lowercase()))
            .collect();
        words.sort_unstable();
        words.dedup();
        words
    })
}

/// The tokens of a line of a declaration: words and numbers, and each mark
/// of punctuation alone, with their byte ranges (offset by `base`).
fn tokens(text: &str, base: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    let b = text.as_bytes();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'|' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'|') {
                i += 1;
            }
            out.push((base + s, base + i));
        } else {
            let n = text[i..].chars().next().map_or(1, char::len_utf8);
            out.push((base + i, base + i + n));
            i += n;
        }
    }
    out
}

/// Where a declaration (from `start` to the end of `text`'s line) first
/// departs from every form its keyword begins (`board N squares in rows of
/// N`): the word's range and the words the furthest forms wanted there
/// (`backward one square onto`: `when` or `to`). `None` when a form
/// matches as far as it can be followed word by word (a placeholder such
/// as `SQUARES` stands for more than one word).
fn departure(
    text: &str,
    start: usize,
    forms: &[&'static str],
) -> Option<(usize, usize, Vec<&'static str>)> {
    let line = tokens(&text[start..], start);
    // The furthest departure wins; between two as far, the forms whose
    // words matched more literally (not by a placeholder such as `N`).
    let mut best: Option<(usize, usize)> = None;
    let mut wants: Vec<&'static str> = Vec::new();
    for &form in forms {
        // The forms are quoted in backticks: `board N squares in rows of N`.
        for quoted in form.split('`').skip(1).step_by(2) {
            let want = tokens(quoted, 0);
            let mut departed = None;
            let mut literal = 0;
            for (k, &(ws, we)) in want.iter().enumerate() {
                let w = &quoted[ws..we];
                let one_word_placeholder =
                    matches!(w, "N" | "K" | "NAME" | "SIDE" | "SQUARE" | "VALUE");
                if w.bytes().any(|b| b.is_ascii_uppercase()) && !one_word_placeholder || w == "." {
                    break;
                }
                let Some(&(ls, le)) = line.get(k) else {
                    break;
                };
                let got = &text[ls..le];
                let fits = if one_word_placeholder {
                    true
                } else if w.contains('|') {
                    w.split('|').any(|alt| alt == got)
                } else {
                    w == got
                };
                if !fits {
                    departed = Some((k, &quoted[ws..we]));
                    break;
                }
                literal += usize::from(!one_word_placeholder);
            }
            // A form followed to its end (or its first placeholder of
            // several words) matches.
            let (k, w) = departed?;
            // A `|` in a form is a choice: show its first word.
            let w = w.split('|').next().unwrap_or(w);
            match best {
                Some(b) if (k, literal) < b => {}
                Some(b) if (k, literal) == b => {
                    if !wants.contains(&w) {
                        wants.push(w);
                    }
                }
                _ => {
                    best = Some((k, literal));
                    wants = vec![w];
                }
            }
        }
    }
    let (k, _) = best?;
    line.get(k).map(|&(s, e)| (s, e, wants))
}

/// For an error at the second word of a line whose keyword begins several
/// forms: where the line departs from the form it follows furthest, when
/// that is past its second word, with the words wanted there and the forms.
/// `expected` is what the parser wanted at the error, kept when the line
/// follows no form further.
fn second_word_departure(
    text: &str,
    start: usize,
    expected: &[&str],
) -> Option<(usize, usize, Vec<&'static str>, Vec<&'static str>)> {
    let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |n| start + n);
    let line = tokens(&text[line_start..line_end], line_start);
    let (&(ks, ke), &(ss, _)) = (line.first()?, line.get(1)?);
    if ss != start {
        return None;
    }
    let forms = forms_of(&text[ks..ke]);
    if forms.len() < 2 || expected.iter().any(|e| forms.contains(e)) {
        return None;
    }
    // Only when the second word is the second word of some form (`on`,
    // `at`): a word that a placeholder would take (`blockade opposing 2`)
    // keeps the parser's own message.
    let second = &text[ss..line[1].1];
    let literal_second = forms.iter().any(|form| {
        form.split('`').skip(1).step_by(2).any(|quoted| {
            let want = tokens(quoted, 0);
            want.get(1).is_some_and(|&(s, e)| {
                let w = &quoted[s..e];
                w.split('|').any(|alt| alt == second) && !w.bytes().any(|b| b.is_ascii_uppercase())
            })
        })
    });
    if !literal_second {
        return None;
    }
    let (s, e, wants) = departure(&text[..line_end], line_start, &forms)?;
    (s > start).then_some((s, e, wants, forms))
}

/// The forms of the declarations that begin with `word`.
fn forms_of(word: &str) -> Vec<&'static str> {
    use Rule::*;
    let rules: &[Rule] = match word {
        "title" => &[title],
        "source" => &[source],
        "status" => &[status],
        "board" => &[board],
        "house" => &[house],
        "pieces" => &[pieces],
        "setup" => &[setup],
        "starter" => &[starter],
        "opening" => &[opening],
        "throws" => &[throws, die_throws],
        "extra" => &[extra],
        "no" => &[no_extra, no_blockade, no_score],
        "backward" => &[backward, backward_extra],
        "forward" => &[compulsory],
        "pass" => &[pass],
        "landing" => &[own_piece, opposing],
        "protect" => &[protect],
        "runs" => &[runs],
        "blockade" => &[blockade, halfway_blockade, target_blockade],
        "draw" => &[draw_on_extra, turn_limit],
        "at" => &[at],
        "bear" => &[bear_off, bear_off_all_in, bear_off_voluntary],
        "guard" => &[guard],
        "first" => &[start_throw],
        "forced" | "voluntary" => &[pass_extra],
        "unusable" => &[bound_throw],
        "goal" => &[goal],
        "score" => &[score],
        "last" => &[last_piece],
        "lost" => &[held_extra],
        "extends" => &[extends_decl],
        "option" => &[option_decl],
        _ => &[],
    };
    rules.iter().map(|r| describe(*r)).collect()
}

fn join_or(words: &[&str]) -> String {
    // A description that is itself a list of quoted forms (`` `a`, `b` or
    // `c` ``) joins the list as its forms, so that the whole reads `a, b,
    // c or d` rather than `a, b or c or d`.
    let mut all: Vec<&str> = Vec::new();
    for &w in words {
        for f in quoted_forms(w).unwrap_or_else(|| vec![w]) {
            if !all.contains(&f) {
                all.push(f);
            }
        }
    }
    match all.as_slice() {
        [] => "something else".to_string(),
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// The quoted forms of a description made of nothing else (`` `a` ``,
/// `` `a` or `b` ``, `` `a`, `b` or `c` ``), each with its backticks;
/// `None` for any other text.
fn quoted_forms(text: &str) -> Option<Vec<&str>> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let body = rest.strip_prefix('`')?;
        let close = body.find('`')?;
        out.push(&rest[..close + 2]);
        rest = &body[close + 1..];
        if rest.is_empty() {
            return Some(out);
        }
        rest = rest
            .strip_prefix(", ")
            .or_else(|| rest.strip_prefix(" or "))?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lists of quoted forms join as one list; other descriptions, even
    /// with a quoted example in them, stay whole.
    #[test]
    fn join_or_flattens_lists_of_forms() {
        assert_eq!(
            join_or(&["`white` or `black`", "`by lot`"]),
            "`white`, `black` or `by lot`"
        );
        assert_eq!(
            join_or(&["`a`, `b` or `c`", "a number", "`b`"]),
            "`a`, `b`, `c` or a number"
        );
        assert_eq!(
            join_or(&["clause ids in brackets, such as `[K-9a]`", "`x`"]),
            "clause ids in brackets, such as `[K-9a]` or `x`"
        );
        assert_eq!(quoted_forms("`a` or b"), None);
        assert_eq!(quoted_forms("`a`, `b`"), Some(vec!["`a`", "`b`"]));
        assert_eq!(join_or(&[]), "something else");
    }

    /// Two forms that depart at the same word, as literally as each
    /// other, both say what they want there.
    #[test]
    fn departure_names_every_word_wanted_at_the_furthest_point() {
        let text = "backward one square onto empty squares when no forward move";
        let (s, e, wants) = departure(text, 0, &forms_of("backward")).unwrap();
        assert_eq!(&text[s..e], "onto");
        assert_eq!(wants, ["when", "to"]);
    }

    /// The lines (from 1) of the syntax errors `parse_recovering` reports.
    fn error_lines(text: &str) -> Vec<usize> {
        let file = SourceFile::new("t.senet", text);
        parse_recovering(&file)
            .errors
            .iter()
            .filter_map(RuleError::offset)
            .map(|at| text[..at].matches('\n').count() + 1)
            .collect()
    }

    /// Recovery from one broken declaration stops at a misspelt keyword on
    /// the next line, with or without a clause list closing the first.
    #[test]
    fn consecutive_misspelt_lines_are_each_reported() {
        let with_clauses = "extends \"bga\"\n\
                            pieces 5 per sid      [B-1]\n\
                            strater white         [B-2]\n\
                            extr throw on 1, 4, 5 [B-5]\n\
                            blockade 3 opposing   [B-7]\n";
        assert_eq!(error_lines(with_clauses), [2, 3, 4]);
        let bare = "extends \"bga\"\n\
                    pieces 5 per sid\n\
                    strater white\n\
                    extr throw on 1, 4, 5\n\
                    blockade 3 opposing\n";
        assert_eq!(error_lines(bare), [2, 3, 4]);
    }

    /// A declaration that goes on over a line break is one declaration:
    /// its continuation line is not taken for a new one, so one mistake is
    /// one error, whatever word the continuation begins with.
    #[test]
    fn a_continuation_line_is_not_a_new_declaration() {
        let text = "house pool = 20 \"Pool\"\n\
                    protect when run >= 2 or\n\
                    on pool or\n\
                    run >= 9 9\n\
                    at 28..30: hit sends to\n\
                    pool else swap\n\
                    board 30 squares\n";
        assert_eq!(error_lines(text), [4, 7]);
    }
}
