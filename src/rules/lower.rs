//! Stage 2 of the rules compiler: spanned syntax (one [`ast::RuleFile`] per
//! layer, base first) → checked declarations keyed by what they decide →
//! merged (overlays and options replace by key) → [`Ruleset`]. Every error
//! is collected; nothing past [`compile`] re-checks.

use super::ast::{
    self, Decl, DeclKind, DropTarget, Effect, LockPart, PredAst, PredNode, RelocationAst, Span,
    SquareItem, SquareRef, ThrowSet,
};
use super::errors::RuleError;
use crate::diag::{SourceFile, span as mspan};
use crate::engine::*;
use std::collections::{BTreeMap, HashMap};

mod bear_off;
mod board;
mod end;
mod entry;
mod explain;
mod movement;
mod opening;
mod protection;
mod squares;
mod throws;

use crate::engine::constructs::words::list;
pub use crate::engine::constructs::words::ranges;
use explain::explain;

/// One rule file of an overlay chain.
pub struct Layer {
    pub file: SourceFile,
    pub ast: ast::RuleFile,
}

/// What a square declaration decides; one per square and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SquareKind {
    Landing,
    Lock,
    Gate,
    Truncate,
    Immobile,
    Priority,
    Exit,
    ExitFromTurnStart,
    ExitNoExtra,
    HitSends,
    Divert,
    /// `taken target diverts mover to`.
    DivertTaken,
    BoundExtra,
    ExtraThrow,
    OffExtra,
    StuckToHand,
    NoBackward,
    MissTurn,
    Overshoot,
    NoForward,
}

/// What a declaration decides. A later declaration with the same key (in an
/// overlay or a selected option) replaces an earlier one; the order of the
/// variants is the order of `senet rules show`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    Title,
    Source,
    Status,
    Goal,
    Board,
    House(u8),
    Pieces,
    Setup(Side),
    Enter,
    Starter,
    Opening(Side),
    Throws,
    Extra,
    Backward,
    BackwardExtra,
    Compulsory,
    Pass,
    OwnPiece,
    Opposing,
    Protect,
    Runs,
    Blockade,
    HalfwayBlockade,
    TargetBlockade,
    Guard,
    StartThrow,
    Split,
    OneDirection,
    Square(SquareKind, u8),
    BearOffAllIn,
    BearOff,
    BearOffVoluntary,
    PassExtra(bool),
    BoundThrow,
    Score,
    DrawOnExtra,
    TurnLimit,
    LastPiece,
    HeldExtra,
}

/// A throw set after checking: `None` is any throw.
type Throwset = Option<Vec<u8>>;

/// The checked content of a declaration.
#[derive(Debug, Clone, PartialEq)]
enum Setting {
    Text(String),
    /// `overshoot drops to T`, `when empty` or not.
    Overshoot(u8, bool),
    Flag,
    Board {
        len: u8,
        row_len: u8,
    },
    Count(u8),
    House {
        ident: String,
        name: String,
        glyph: Option<String>,
    },
    Squares(SquareSet),
    Starter(Option<Side>),
    Opening {
        throw: Option<u8>,
        from: Option<u8>,
        lapse: Lapse,
    },
    Throws {
        sticks: u8,
        values: Vec<u8>,
        die: bool,
    },
    Hit(Hit),
    Goal(Goal),
    Values(Vec<u8>),
    /// `draw after N turns`.
    Turns(u32),
    /// `first move needs throw N [for SIDE] [, counted when thrown]`.
    StartThrow {
        throw: u8,
        side: Option<Side>,
        counted: bool,
    },
    Backward(Backward),
    Bool(bool),
    Protect(Option<Pred>),
    /// `runs count on SQUARES [except runs reaching SQUARES]` (empty: no
    /// exception).
    Runs(SquareSet, SquareSet),
    /// `blockade on forward moves: ...`.
    TargetBlockade(TargetBlockade),
    /// `stay, moving with VALUES to ...`: the throws (bit `v`), where the
    /// piece goes and the fallback.
    StayMoving(u32, Relocation, Option<Relocation>),
    /// Length, whose pieces, and whether only the squares where runs count.
    Blockades(Vec<(u8, BlockadeKind, bool)>),
    /// `blockade at half the throw: N any in one row, on VALUES`.
    Halfway {
        length: u8,
        throws: Vec<u8>,
    },
    Landing(Relocation, Option<Relocation>),
    Exit(Throwset),
    Target(u8),
    /// `hit sends to S`; `true`: `else landing forbidden`.
    HitSends(u8, bool, bool),
    Lock(LockDecl),
    Reach(Reach),
    Score(Option<Vec<u8>>),
    Enter {
        square: u8,
        throws: Vec<u8>,
        bound: bool,
    },
    /// `last piece on SQUARES moves to SQUARE when no other move` (HK-6).
    LastPiece(SquareSet, u8),
    /// `drop ...`: the declarations this removes (any of them may be
    /// absent), and what they are in words.
    Drop(Vec<Key>, String),
}

/// A checked declaration and where it came from.
#[derive(Debug, Clone)]
struct Item {
    key: Key,
    setting: Setting,
    clause: String,
    layer: usize,
    span: Span,
}

struct OptionDef {
    name: String,
    description: String,
    requires: Vec<ast::Spanned<String>>,
    inert: Option<ast::Inert>,
    layer: usize,
    items: Vec<Item>,
}

struct Lowerer<'a> {
    layers: &'a [Layer],
    houses: HashMap<String, u8>,
    len: u8,
    /// Whether `len` is the board's: false while a board declaration may
    /// be missing (an unknown base, a declaration that did not parse), when
    /// `len` is the largest board any rule file may declare.
    len_known: bool,
    errors: Vec<RuleError>,
    /// Part of the chain is unknown: a name not found may be declared there.
    lenient_names: bool,
}

/// What is known to be missing from the layers given to [`compile`]: the
/// layers are then checked declaration by declaration only, since a check
/// of the whole rule set would report what the missing part declares.
#[derive(Debug, Clone, Default)]
pub struct Gaps {
    /// The chain stops short of its base (an unknown base, a cycle, a
    /// chain too long): the bottom layer given extends something missing.
    pub chain_cut: bool,
    /// Per layer: some of its declarations did not parse and are missing.
    pub unparsed: Vec<bool>,
}

impl Gaps {
    fn any(&self) -> bool {
        self.chain_cut || self.unparsed.iter().any(|&u| u)
    }
    /// Whether a declaration of `layer` is the final word on its key: no
    /// overlay above it lost declarations that could have replaced it (a
    /// second one in its own layer would be a duplicate, not a
    /// replacement).
    fn is_final(&self, layer: usize) -> bool {
        self.unparsed.iter().skip(layer + 1).all(|&u| !u)
    }
}

/// What [`compile`] found: the rule set when there is no error, every
/// error, and the warnings (dead values).
pub struct Compiled {
    pub ruleset: Option<Ruleset>,
    pub errors: Vec<RuleError>,
    pub warnings: Vec<RuleError>,
}

/// Compiles an overlay chain (base first, the file asked for last) with the
/// selected options. `name` is the stem of the last file.
pub fn compile(layers: &[Layer], name: &str, selected: &[String], gaps: &Gaps) -> Compiled {
    let top = layers.len() - 1;
    let partial = gaps.any();
    let mut lw = Lowerer {
        layers,
        houses: HashMap::new(),
        len: 62,
        len_known: false,
        errors: Vec::new(),
        lenient_names: partial,
    };

    // The board length (for range checks) and the house names come first:
    // every other declaration refers to squares.
    for (i, layer) in layers.iter().enumerate() {
        for d in &layer.ast.decls {
            if let DeclKind::Board { len, .. } = &d.kind
                && (2..=62).contains(&len.node)
            {
                // A board an overlay's unparsed declaration may have
                // replaced: squares are then checked against the largest.
                lw.len_known = gaps.is_final(i);
                lw.len = if lw.len_known { len.node as u8 } else { 62 };
            }
        }
    }
    let mut house_decl: HashMap<String, (usize, Span, u8)> = HashMap::new();
    for (i, layer) in layers.iter().enumerate() {
        let all = layer
            .ast
            .decls
            .iter()
            .chain(layer.ast.options.iter().flat_map(|o| o.decls.iter()));
        for d in all {
            if let DeclKind::House { ident, square, .. } = &d.kind {
                let sq = square.node.min(255) as u8;
                if let Some(&(li, ref sp, prev)) = house_decl.get(&ident.node)
                    && prev != sq
                    && li == i
                {
                    lw.errors.push(RuleError::Conflict {
                        src: layers[i].file.clone(),
                        span: mspan(ident.span.start, ident.span.end),
                        other: Some(mspan(sp.start, sp.end)),
                        what: format!(
                            "house `{}` is given two squares, {prev} and {sq}",
                            ident.node
                        ),
                        label: format!("square {sq}"),
                        help: "give each house name one square".into(),
                    });
                    continue;
                }
                // A house past the end of the board (an overlay that
                // shrinks the board keeps its base's houses) is reported
                // here, once; its uses then resolve to nothing.
                if !(1..=lw.len as u32).contains(&square.node) {
                    lw.errors.push(RuleError::UnknownSquare {
                        src: layers[i].file.clone(),
                        span: mspan(square.span.start, square.span.end),
                        square: square.node,
                        help: lw.squares_help(),
                    });
                }
                house_decl.insert(ident.node.clone(), (i, ident.span, sq));
                lw.houses.insert(ident.node.clone(), sq);
            }
        }
    }

    // Lower and merge the top-level declarations of each layer, base first.
    let mut map: BTreeMap<Key, Item> = BTreeMap::new();
    let mut options: Vec<OptionDef> = Vec::new();
    for (i, layer) in layers.iter().enumerate() {
        let items = lw.lower_scope(i, &layer.ast.decls);
        lw.check_duplicates(i, &items);
        lw.check_drop_and_declare(i, &items);
        // A layer's drops remove what came before the layer, never one of
        // its own declarations, wherever they stand in the file.
        let (drops, decls): (Vec<Item>, Vec<Item>) = items
            .into_iter()
            .partition(|it| matches!(it.setting, Setting::Drop(..)));
        for it in drops.into_iter().chain(decls) {
            lw.merge(&mut map, it, true);
        }
        for o in &layer.ast.options {
            let items = lw.lower_scope(i, &o.decls);
            lw.check_duplicates(i, &items);
            lw.check_drop_and_declare(i, &items);
            // A `drop` in an option must name something the file (with
            // what it extends) or another option declares.
            for it in &items {
                if let Setting::Drop(keys, what) = &it.setting
                    && !keys.iter().any(|k| {
                        map.contains_key(k)
                            || options.iter().any(|o| o.items.iter().any(|i| i.key == *k))
                    })
                {
                    lw.errors.push(RuleError::DropsNothing {
                        src: lw.src(i),
                        span: mspan(it.span.start, it.span.end),
                        what: what.clone(),
                    });
                }
            }
            lw.check_names_only(i, o);
            let def = OptionDef {
                name: o.name.node.clone(),
                description: o.description.clone(),
                requires: o.requires.clone(),
                inert: o.inert.as_ref().map(|i| i.node.clone()),
                layer: i,
                items,
            };
            if let Some(prev) = options.iter().position(|p| p.name == def.name) {
                if options[prev].layer == i {
                    let first = layer
                        .ast
                        .options
                        .iter()
                        .find(|p| p.name.node == def.name)
                        .map(|p| p.name.span)
                        .unwrap_or_default();
                    lw.errors.push(RuleError::Duplicate {
                        src: layer.file.clone(),
                        span: mspan(o.name.span.start, o.name.span.end),
                        first: mspan(first.start, first.end),
                        what: format!("option `{}`", def.name),
                    });
                }
                options[prev] = def;
            } else {
                options.push(def);
            }
        }
    }

    // Requirements between options must name options.
    let known: Vec<String> = options.iter().map(|o| o.name.clone()).collect();
    for o in &options {
        let with = match &o.inert {
            Some(ast::Inert::UnlessCombined(with)) => with.as_slice(),
            _ => &[],
        };
        for r in o.requires.iter().chain(with) {
            if !known.contains(&r.node) && !partial {
                lw.errors.push(RuleError::UnknownOption {
                    src: layers[o.layer].file.clone(),
                    span: Some(mspan(r.span.start, r.span.end)),
                    name: r.node.clone(),
                    help: known_options_help(&known, &r.node),
                });
            }
        }
    }

    // Selection: every name must exist; requirements switch on more options.
    let mut on = vec![false; options.len()];
    let mut stack: Vec<String> = Vec::new();
    let mut asked: Vec<&str> = Vec::new();
    for s in selected {
        for name in s.split(';').map(str::trim).filter(|n| !n.is_empty()) {
            if asked.contains(&name) {
                lw.errors.push(RuleError::OptionRepeated {
                    name: name.to_string(),
                });
                continue;
            }
            asked.push(name);
            if known.iter().any(|k| k == name) {
                stack.push(name.to_string());
            } else if !partial {
                lw.errors.push(RuleError::UnknownOption {
                    src: layers[top].file.clone(),
                    span: None,
                    name: name.to_string(),
                    help: known_options_help(&known, name),
                });
            }
        }
    }
    while let Some(name) = stack.pop() {
        if let Some(i) = options.iter().position(|o| o.name == name)
            && !on[i]
        {
            on[i] = true;
            stack.extend(options[i].requires.iter().map(|r| r.node.clone()));
        }
    }
    lw.check_contradictions(&options, &on);
    for (i, o) in options.iter().enumerate() {
        if on[i] {
            let drops = o
                .items
                .iter()
                .filter(|it| matches!(it.setting, Setting::Drop(..)));
            let decls = o
                .items
                .iter()
                .filter(|it| !matches!(it.setting, Setting::Drop(..)));
            for it in drops.chain(decls) {
                lw.merge(&mut map, it.clone(), false);
            }
        }
    }

    // An option that changes no move alone says so where it is listed.
    let meta_options: Vec<(String, String)> = options
        .iter()
        .map(|o| {
            let note = match &o.inert {
                None => String::new(),
                Some(ast::Inert::NamesOnly) => " (names only: changes no move)".to_string(),
                Some(ast::Inert::UnlessCombined(with)) => format!(
                    " (changes no move unless combined with {})",
                    with.iter()
                        .map(|w| w.node.as_str())
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            };
            (o.name.clone(), format!("{}{note}", o.description))
        })
        .collect();
    let meta_selected: Vec<String> = options
        .iter()
        .zip(&on)
        .filter(|(_, on)| **on)
        .map(|(o, _)| o.name.clone())
        .collect();
    let mut warnings = lw.never_thrown(&map, &options, gaps);
    if !partial {
        warnings.extend(lw.entry_without_hand(&map, &options));
        warnings.extend(lw.unused_houses());
        warnings.extend(lw.exits_without_throw(&map, &options));
    }
    let before_build = lw.errors.len();
    let ruleset = lw.build(&map, top, name, meta_options, meta_selected);
    if partial {
        // The checks of the whole rule set would report what the missing
        // part declares; they run once the chain reads whole.
        lw.errors.truncate(before_build);
    }
    let ruleset = if lw.errors.is_empty() && !partial {
        Some(ruleset.expect("no errors means every part was built"))
    } else {
        None
    };
    Compiled {
        ruleset,
        errors: lw.errors,
        warnings,
    }
}

fn known_options_help(known: &[String], name: &str) -> String {
    if known.is_empty() {
        return "this rule set declares no options".to_string();
    }
    let guess = crate::diag::nearest(name, known.iter().map(|k| k.as_str()))
        .map(|k| format!("did you mean `{k}`? "))
        .unwrap_or_default();
    format!(
        "{guess}the options of this rule set are: {}",
        known.join(", ")
    )
}

fn clause_of(d: &Decl) -> String {
    d.clauses
        .iter()
        .map(|c| c.node.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn bits(values: &[u8]) -> u32 {
    values
        .iter()
        .filter(|&&v| v < 32)
        .fold(0, |acc, &v| acc | 1 << v)
}

impl Lowerer<'_> {
    fn src(&self, layer: usize) -> SourceFile {
        self.layers[layer].file.clone()
    }

    fn bad(
        &mut self,
        layer: usize,
        span: &Span,
        what: impl Into<String>,
        label: impl Into<String>,
        help: impl Into<String>,
    ) {
        self.errors.push(RuleError::BadValue {
            src: self.src(layer),
            span: mspan(span.start, span.end),
            what: what.into(),
            label: label.into(),
            help: help.into(),
        });
    }

    /// The keys a `drop` names. The grammar admits only the words of
    /// [`DROP_NAMED`] and [`DROP_KINDS`], so a lookup cannot fail.
    fn drop_keys(&mut self, layer: usize, target: &DropTarget) -> Vec<Key> {
        match target {
            DropTarget::Named(words) => DROP_NAMED
                .iter()
                .filter(|(w, _)| w == words)
                .map(|&(_, k)| k)
                .collect(),
            DropTarget::At { squares, kind } => {
                let set = self.squares(layer, squares);
                let kinds: Vec<SquareKind> = match kind {
                    Some(words) => DROP_KINDS
                        .iter()
                        .filter(|(w, _)| w == words)
                        .map(|&(_, k)| k)
                        .collect(),
                    None => DROP_KINDS.iter().map(|&(_, k)| k).collect(),
                };
                let mut keys: Vec<Key> = set
                    .iter()
                    .flat_map(|s| kinds.iter().map(move |&k| Key::Square(k, s)))
                    .collect();
                keys.sort();
                keys.dedup();
                keys
            }
            DropTarget::House(name) => {
                let r = ast::Spanned::new(SquareRef::House(name.node.clone()), name.span);
                self.square(layer, &r).map(Key::House).into_iter().collect()
            }
            DropTarget::Opening(Some(side)) => vec![Key::Opening(*side)],
            DropTarget::Opening(None) => Side::BOTH.iter().map(|&s| Key::Opening(s)).collect(),
            DropTarget::Setup(side) => vec![Key::Setup(*side)],
            DropTarget::PassExtra { forced } => vec![Key::PassExtra(*forced)],
        }
    }

    /// Merges one item into the rule set being built: a declaration replaces
    /// the one with its key, a `drop` removes what it names. With `strict`,
    /// a `drop` that removes nothing is an error (most likely a misspelt
    /// target or a base that never made that declaration).
    fn merge(&mut self, map: &mut BTreeMap<Key, Item>, it: Item, strict: bool) {
        let Setting::Drop(keys, what) = &it.setting else {
            map.insert(it.key, it);
            return;
        };
        let removed = keys.iter().filter(|k| map.remove(k).is_some()).count();
        if removed == 0 && strict {
            self.errors.push(RuleError::DropsNothing {
                src: self.src(it.layer),
                span: mspan(it.span.start, it.span.end),
                what: what.clone(),
            });
        }
    }

    /// A scope (a file's top level, or an option) that drops a kind and
    /// declares it too: the drop removes only what came before the scope,
    /// so the declaration stays, which is rarely what was meant.
    fn check_drop_and_declare(&mut self, layer: usize, items: &[Item]) {
        for d in items {
            let Setting::Drop(keys, _) = &d.setting else {
                continue;
            };
            let declared = items
                .iter()
                .filter(|it| !matches!(it.setting, Setting::Drop(..)))
                .find(|it| keys.contains(&it.key));
            if let Some(it) = declared {
                self.errors.push(RuleError::Conflict {
                    src: self.src(layer),
                    span: mspan(d.span.start, d.span.end),
                    other: Some(mspan(it.span.start, it.span.end)),
                    what: format!(
                        "`drop` beside a declaration of {}",
                        describe_key(it.key)
                    ),
                    label: "drops only what the base declared".into(),
                    help: "a `drop` removes what the extended file (or, in an option, what comes before the option) declared, never a declaration beside it: remove the `drop` to replace the base's declaration, or the declaration to have none".into(),
                });
            }
        }
    }

    fn check_duplicates(&mut self, layer: usize, items: &[Item]) {
        let mut seen: HashMap<Key, &Item> = HashMap::new();
        // A `drop` is not a declaration of its key.
        let items = items
            .iter()
            .filter(|it| !matches!(it.setting, Setting::Drop(..)));
        for it in items {
            if let Some(first) = seen.get(&it.key) {
                if first.span != it.span {
                    self.errors.push(RuleError::Duplicate {
                        src: self.src(layer),
                        span: mspan(it.span.start, it.span.end),
                        first: mspan(first.span.start, first.span.end),
                        what: describe_key(it.key),
                    });
                }
            } else {
                seen.insert(it.key, it);
            }
        }
    }

    /// The help line of an unknown square: the board's range, or the
    /// largest range while the board is not known.
    fn squares_help(&self) -> String {
        if self.len_known {
            format!(
                "squares are numbered 1 to {0} ({0} squares on this board)",
                self.len
            )
        } else {
            format!(
                "no board has more than {} squares; this file's board is not known \
                 until the other errors are fixed (a base not found, or a \
                 declaration that did not parse)",
                self.len
            )
        }
    }

    fn square(&mut self, layer: usize, r: &ast::Spanned<SquareRef>) -> Option<u8> {
        match &r.node {
            SquareRef::Number(n) => {
                if *n >= 1 && *n <= self.len as u32 {
                    Some(*n as u8)
                } else {
                    self.errors.push(RuleError::UnknownSquare {
                        src: self.src(layer),
                        span: mspan(r.span.start, r.span.end),
                        square: *n,
                        help: self.squares_help(),
                    });
                    None
                }
            }
            SquareRef::House(name) => match self.houses.get(name) {
                // Off the board: reported where the house is declared.
                Some(&s) if s == 0 || s > self.len => None,
                Some(&s) => Some(s),
                None if self.lenient_names => None,
                None => {
                    let mut known: Vec<&String> = self.houses.keys().collect();
                    known.sort();
                    let guess = crate::diag::nearest(name, known.iter().map(|k| k.as_str()))
                        .map(|k| format!("did you mean `{k}`? Otherwise "))
                        .unwrap_or_default();
                    let help = if known.is_empty() {
                        format!(
                            "declare it first: `house {name} = SQUARE \"Name\"`, or write the square number"
                        )
                    } else {
                        format!(
                            "{guess}declare it with `house {name} = SQUARE \"Name\"`, or use a declared house: {}",
                            known
                                .iter()
                                .map(|s| s.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )
                    };
                    self.errors.push(RuleError::UnknownHouse {
                        src: self.src(layer),
                        span: mspan(r.span.start, r.span.end),
                        name: name.clone(),
                        help,
                    });
                    None
                }
            },
        }
    }

    fn squares(&mut self, layer: usize, set: &[SquareItem]) -> SquareSet {
        let mut out = SquareSet::EMPTY;
        for item in set {
            match item {
                SquareItem::One(r) => {
                    if let Some(s) = self.square(layer, r) {
                        out.insert(s);
                    }
                }
                SquareItem::Range(a, b) => {
                    let (x, y) = (self.square(layer, a), self.square(layer, b));
                    if let (Some(x), Some(y)) = (x, y) {
                        if x > y {
                            let sp = Span::new(a.span.start, b.span.end);
                            self.bad(
                                layer,
                                &sp,
                                format!("the range {x}..{y} is empty"),
                                "empty range",
                                format!("write the lower square first: `{y}..{x}`"),
                            );
                        }
                        out = out.union(SquareSet::range(x, y));
                    }
                }
            }
        }
        out
    }

    fn small(
        &mut self,
        layer: usize,
        n: &ast::Spanned<u32>,
        min: u32,
        max: u32,
        what: &str,
    ) -> Option<u8> {
        if n.node >= min && n.node <= max {
            Some(n.node as u8)
        } else {
            self.bad(
                layer,
                &n.span,
                format!("{what} must be between {min} and {max}"),
                format!("{} is out of range", n.node),
                format!("write a number from {min} to {max}"),
            );
            None
        }
    }

    fn throw_values(&mut self, layer: usize, ts: &ThrowSet) -> Throwset {
        match ts {
            ThrowSet::Any => None,
            ThrowSet::Values(vs) => Some(
                vs.iter()
                    .filter_map(|v| self.small(layer, v, 1, 31, "a throw value"))
                    .collect(),
            ),
        }
    }

    fn lower_scope(&mut self, layer: usize, decls: &[Decl]) -> Vec<Item> {
        let mut out = Vec::new();
        for d in decls {
            self.lower(layer, d, &mut out);
        }
        out
    }

    fn lower(&mut self, layer: usize, d: &Decl, out: &mut Vec<Item>) {
        let clause = clause_of(d);
        // Each construct's checks live in its module (`lower/*.rs`); a
        // declaration without checks is its setting.
        let decided = match &d.kind {
            DeclKind::Title(t) => Some((Key::Title, Setting::Text(t.clone()))),
            DeclKind::Source(t) => Some((Key::Source, Setting::Text(t.clone()))),
            DeclKind::Status(t) => Some((Key::Status, Setting::Text(t.clone()))),
            DeclKind::Board { len, row_len } => self.lower_board(layer, len, row_len),
            DeclKind::House {
                ident,
                square,
                name,
                glyph,
            } => self.lower_house(layer, ident, square, name, glyph),
            DeclKind::Pieces(n) => self.lower_pieces(layer, n),
            DeclKind::Setup { side, squares } => Some((
                Key::Setup(*side),
                Setting::Squares(self.squares(layer, squares)),
            )),
            DeclKind::Enter {
                square,
                throws,
                bound,
            } => self.lower_enter(layer, square, throws, *bound),
            DeclKind::StarterFixed(side) => Some((Key::Starter, Setting::Starter(Some(*side)))),
            DeclKind::StarterByLot => Some((Key::Starter, Setting::Starter(None))),
            DeclKind::Opening {
                side,
                throw,
                from,
                lapse,
            } => self.lower_opening(layer, d, *side, throw, from, *lapse),
            DeclKind::StartThrow(t, side, counted) => {
                self.lower_start_throw(layer, t, *side, *counted)
            }
            DeclKind::Throws { sticks, map } => self.lower_sticks(layer, d, sticks, map),
            DeclKind::Die { faces, values } => self.lower_die(layer, d, faces, values),
            DeclKind::Extra(vs) => self.lower_extra(layer, vs),
            DeclKind::Backward(b) => Some((Key::Backward, Setting::Backward(*b))),
            DeclKind::Compulsory => Some((Key::Compulsory, Setting::Flag)),
            DeclKind::Pass { voluntary } => Some((Key::Pass, Setting::Bool(*voluntary))),
            DeclKind::OwnPieceForbidden => Some((Key::OwnPiece, Setting::Flag)),
            DeclKind::Opposing(h) => Some((Key::Opposing, Setting::Hit(*h))),
            DeclKind::Guard(None) => Some((Key::Guard, Setting::Flag)),
            DeclKind::Guard(Some(on)) => {
                Some((Key::Guard, Setting::Squares(self.squares(layer, on))))
            }
            DeclKind::HalfwayBlockade { length, throws } => {
                self.lower_halfway(layer, length, throws)
            }
            DeclKind::DrawOnExtra => Some((Key::DrawOnExtra, Setting::Flag)),
            DeclKind::TurnLimit(n) => self.lower_turn_limit(layer, n),
            DeclKind::Split { any } => Some((Key::Split, Setting::Bool(*any))),
            DeclKind::HeldExtra => Some((Key::HeldExtra, Setting::Flag)),
            DeclKind::PassBesideEntry => Some((Key::Pass, Setting::Flag)),
            DeclKind::OneDirection => Some((Key::OneDirection, Setting::Flag)),
            DeclKind::BackwardExtra => Some((Key::BackwardExtra, Setting::Flag)),
            DeclKind::LastPiece { from, to } => {
                let set = self.squares(layer, from);
                self.square(layer, to)
                    .map(|to| (Key::LastPiece, Setting::LastPiece(set, to)))
            }
            DeclKind::Protect(p) => self.lower_protect(layer, p, &clause),
            DeclKind::Runs(set, except) => Some((
                Key::Runs,
                Setting::Runs(
                    self.squares(layer, set),
                    except
                        .as_ref()
                        .map_or(SquareSet::EMPTY, |e| self.squares(layer, e)),
                ),
            )),
            DeclKind::TargetBlockade(cases) => self.lower_target_blockade(layer, cases, &clause),
            DeclKind::Blockades(bs) => self.lower_blockades(layer, bs),
            DeclKind::At { squares, effect } => {
                self.lower_at(layer, d, squares, effect, out);
                None
            }
            DeclKind::BearOffAllIn(set) => Some((
                Key::BearOffAllIn,
                Setting::Squares(self.squares(layer, set)),
            )),
            DeclKind::BearOff(r) => Some((Key::BearOff, Setting::Reach(*r))),
            DeclKind::BearOffWithoutThrow { from, region } => {
                self.lower_bear_off_without_throw(layer, from, region)
            }
            DeclKind::BearOffVoluntary => Some((Key::BearOffVoluntary, Setting::Flag)),
            DeclKind::PassExtra { forced, keeps } => {
                Some((Key::PassExtra(*forced), Setting::Bool(*keeps)))
            }
            DeclKind::BoundThrow { ends_turn } => {
                Some((Key::BoundThrow, Setting::Bool(*ends_turn)))
            }
            DeclKind::Goal(g) => Some((Key::Goal, Setting::Goal(*g))),
            DeclKind::Score(ws) => self.lower_score(layer, ws),
            DeclKind::Drop(target) => {
                let keys = self.drop_keys(layer, target);
                keys.first().map(|&first| {
                    (
                        first,
                        Setting::Drop(keys.clone(), drop_words(target, &keys)),
                    )
                })
            }
        };
        if let Some((key, setting)) = decided {
            out.push(Item {
                key,
                setting,
                clause,
                layer,
                span: d.span,
            });
        }
    }

    /// Checks the merged declarations as a whole and builds the rule set,
    /// construct by construct, in the order their errors are reported.
    fn build(
        &mut self,
        map: &BTreeMap<Key, Item>,
        top: usize,
        name: &str,
        options: Vec<(String, String)>,
        selected: Vec<String>,
    ) -> Option<Ruleset> {
        let m = Merged(map);
        self.build_title(&m, top);
        let board = self.build_board(&m, top);
        let pieces = self.build_pieces(&m, top);
        let setup = self.build_setup(&m, top, pieces);
        let starter = self.build_starter(&m, top);
        let opening = opening::build_opening(&m);
        let throws = self.build_throws(&m, top);
        let all_throws: u32 = throws.as_ref().map_or(u32::MAX, |t| bits(&t.values));
        self.check_gate_and_truncate(&m);
        let entry = self.build_entry(&m, top, all_throws);
        self.check_backward_extra(&m);
        let movement = movement::build_movement(&m, &setup);
        let len = board.map_or(self.len, |b| b.len);
        let protection = protection::build_protection(&m, len);
        let blockades = protection::build_blockades(&m, len);
        let halfway = protection::build_halfway(&m);
        let target_blockade = protection::build_target_blockade(&m);
        let squares = self.build_squares(&m, len, all_throws);
        self.check_any_parts(&m, throws.as_ref(), &squares);
        let bear_off = self.build_bear_off(&m, top);
        let turn = end::build_turn(&m);
        let end = self.build_end(&m, board);
        let houses = board::build_houses(&m);
        let explained = explain(map, &houses, all_throws);
        let meta = Meta {
            name: name.to_string(),
            title: m.text(Key::Title),
            source: m.text(Key::Source),
            status: m.text(Key::Status),
            options,
            selected,
            explained,
        };
        let mut rules = Ruleset {
            meta,
            board: board?,
            houses,
            pieces: pieces?,
            setup,
            entry,
            starter: starter?,
            opening,
            throws: throws?,
            movement,
            protection,
            blockades,
            halfway,
            target_blockade,
            squares,
            bear_off,
            turn,
            end,
            tables: Default::default(),
        };
        // Each construct's tables, from the finished rule set.
        rules.tables = crate::engine::Tables::compile(&rules);
        Some(rules)
    }

    /// Reports a declaration every rule set needs and the chain lacks.
    fn missing(&mut self, top: usize, what: &str, example: &str) {
        self.errors.push(RuleError::Missing {
            src: self.src(top),
            span: None,
            what: what.into(),
            example: example.into(),
        });
    }
}

/// The merged declarations, by key, as `build` reads them.
struct Merged<'m>(&'m BTreeMap<Key, Item>);

impl<'m> Merged<'m> {
    fn get(&self, k: Key) -> Option<&'m Item> {
        self.0.get(&k)
    }
    fn setting(&self, k: Key) -> Option<&'m Setting> {
        self.get(k).map(|i| &i.setting)
    }
    fn clause(&self, k: Key) -> Clause {
        self.get(k).map(|i| i.clause.clone()).unwrap_or_default()
    }
    fn text(&self, k: Key) -> String {
        match self.setting(k) {
            Some(Setting::Text(t)) => t.clone(),
            _ => String::new(),
        }
    }
    fn items(&self) -> impl Iterator<Item = (&'m Key, &'m Item)> + use<'m> {
        self.0.iter()
    }
    /// The squares with a rule of one kind, and the distinct clauses cited
    /// for them, in square order.
    fn set_of(&self, kind: SquareKind) -> (SquareSet, Clause) {
        let mut set = SquareSet::EMPTY;
        let mut clauses: Vec<String> = Vec::new();
        for (k, i) in self.0.iter() {
            if let Key::Square(kk, s) = k
                && *kk == kind
            {
                set.insert(*s);
                if !clauses.contains(&i.clause) {
                    clauses.push(i.clause.clone());
                }
            }
        }
        (set, clauses.join(", "))
    }
}

/// The words `drop` takes for a declaration there is one of per rule set
/// (the grammar's `drop_named`), and the key each removes.
const DROP_NAMED: &[(&str, Key)] = &[
    ("title", Key::Title),
    ("source", Key::Source),
    ("status", Key::Status),
    ("goal", Key::Goal),
    ("board", Key::Board),
    ("pieces", Key::Pieces),
    ("enter", Key::Enter),
    ("split", Key::Split),
    ("one direction per turn", Key::OneDirection),
    ("starter", Key::Starter),
    ("throws", Key::Throws),
    ("extra throw", Key::Extra),
    ("backward move gives extra throw", Key::BackwardExtra),
    ("backward", Key::Backward),
    ("forward move compulsory", Key::Compulsory),
    ("pass", Key::Pass),
    ("landing on own piece", Key::OwnPiece),
    ("landing on opposing piece", Key::Opposing),
    ("protect", Key::Protect),
    ("runs", Key::Runs),
    ("blockade at half the throw", Key::HalfwayBlockade),
    ("blockade on forward moves", Key::TargetBlockade),
    ("blockade", Key::Blockade),
    ("guard", Key::Guard),
    ("first move", Key::StartThrow),
    ("bear off voluntary", Key::BearOffVoluntary),
    ("bear off only when", Key::BearOffAllIn),
    ("bear off", Key::BearOff),
    ("last piece", Key::LastPiece),
    ("unusable bound throw", Key::BoundThrow),
    ("score", Key::Score),
    ("draw after", Key::TurnLimit),
    ("draw", Key::DrawOnExtra),
    ("lost rest", Key::HeldExtra),
];

/// The words `drop at SQUARES:` takes (the grammar's `drop_effect`), and the
/// kind of square rule each removes.
const DROP_KINDS: &[(&str, SquareKind)] = &[
    ("relocate", SquareKind::Landing),
    ("stay", SquareKind::Landing),
    ("lock", SquareKind::Lock),
    ("gate", SquareKind::Gate),
    ("truncate", SquareKind::Truncate),
    ("immobile", SquareKind::Immobile),
    ("priority", SquareKind::Priority),
    ("exit only from turn start", SquareKind::ExitFromTurnStart),
    ("exit gives no extra throw", SquareKind::ExitNoExtra),
    ("exit with", SquareKind::Exit),
    ("hit sends", SquareKind::HitSends),
    ("protected target diverts", SquareKind::Divert),
    ("taken target diverts", SquareKind::DivertTaken),
    ("extra throw bound", SquareKind::BoundExtra),
    ("extra throw on bearing off", SquareKind::OffExtra),
    ("extra throw", SquareKind::ExtraThrow),
    ("back to hand", SquareKind::StuckToHand),
    ("no backward move", SquareKind::NoBackward),
    ("miss next turn", SquareKind::MissTurn),
    ("overshoot", SquareKind::Overshoot),
    ("no forward move", SquareKind::NoForward),
];

/// What a `drop` names, in words, for its diagnostics.
fn drop_words(target: &DropTarget, keys: &[Key]) -> String {
    let mut squares: Vec<u8> = keys
        .iter()
        .filter_map(|k| match k {
            Key::Square(_, s) => Some(*s),
            _ => None,
        })
        .collect();
    squares.dedup();
    let on = if squares.len() == 1 {
        format!("square {}", squares[0])
    } else {
        format!("squares {}", ranges(&squares))
    };
    match target {
        DropTarget::At { kind: None, .. } => format!("any rule of {on}"),
        DropTarget::At { kind: Some(_), .. } => match keys.first() {
            Some(Key::Square(kind, _)) => format!("{} of {on}", kind_name(*kind)),
            _ => on,
        },
        DropTarget::Opening(None) => "an opening constraint".into(),
        _ => keys.first().map_or_else(String::new, |k| describe_key(*k)),
    }
}

fn describe_key(k: Key) -> String {
    match k {
        Key::Title => "the title".into(),
        Key::Source => "the source".into(),
        Key::Status => "the status".into(),
        Key::Goal => "the goal".into(),
        Key::Board => "the board".into(),
        Key::House(s) => format!("the house on square {s}"),
        Key::Pieces => "the number of pieces".into(),
        Key::Setup(side) => format!("the {} setup", side.name()),
        Key::Enter => "how pieces enter from the hand".into(),
        Key::Split => "split throws".into(),
        Key::OneDirection => "one direction per turn".into(),
        Key::Starter => "who starts".into(),
        Key::Opening(side) => format!("{}'s opening constraint", side.name()),
        Key::Throws => "the throw map".into(),
        Key::Extra => "the extra-throw values".into(),
        Key::Backward => "backward movement".into(),
        Key::BackwardExtra => "the extra throw of a backward move".into(),
        Key::Compulsory => "compulsory forward moves".into(),
        Key::Pass => "passing".into(),
        Key::OwnPiece => "landing on one's own piece".into(),
        Key::Opposing => "landing on an opposing piece".into(),
        Key::Protect => "protection".into(),
        Key::Runs => "where runs count".into(),
        Key::Blockade => "blockades".into(),
        Key::HalfwayBlockade => "the blockade at half the throw".into(),
        Key::TargetBlockade => "the blockade on forward moves".into(),
        Key::DrawOnExtra => "the draw on a last bear-off with an extra throw".into(),
        Key::TurnLimit => "the turn limit".into(),
        Key::Guard => "the setup guard".into(),
        Key::StartThrow => "the starting throw".into(),
        Key::BearOffVoluntary => "voluntary bearing off".into(),
        Key::Square(kind, s) => format!("{} of square {s}", kind_name(kind)),
        Key::BearOffAllIn => "the bear-off region".into(),
        Key::BearOff => "how pieces bear off".into(),
        Key::PassExtra(true) => "what a forced pass does to an extra throw".into(),
        Key::PassExtra(false) => "what a voluntary pass does to an extra throw".into(),
        Key::BoundThrow => "what an unusable bound throw does".into(),
        Key::Score => "the score".into(),
        Key::LastPiece => "the last piece's move".into(),
        Key::HeldExtra => "the extra throw the game holds after a lost rest".into(),
    }
}

fn kind_name(k: SquareKind) -> &'static str {
    match k {
        SquareKind::Landing => "the landing effect",
        SquareKind::Lock => "the lock",
        SquareKind::Gate => "the gate",
        SquareKind::Truncate => "the truncation",
        SquareKind::Immobile => "immobility",
        SquareKind::Priority => "priority",
        SquareKind::Exit => "the exit throws",
        SquareKind::ExitFromTurnStart => "the turn-start exit condition",
        SquareKind::ExitNoExtra => "the exit throw's extra throw",
        SquareKind::HitSends => "where a hit piece goes",
        SquareKind::Divert => "the diversion",
        SquareKind::DivertTaken => "the diversion from a taken square",
        SquareKind::BoundExtra => "the bound extra throw",
        SquareKind::ExtraThrow => "the extra throw",
        SquareKind::OffExtra => "the extra throw on bearing off",
        SquareKind::StuckToHand => "the return to the hand",
        SquareKind::NoBackward => "the ban on backward moves",
        SquareKind::MissTurn => "the missed turn",
        SquareKind::Overshoot => "the overshoot",
        SquareKind::NoForward => "the ban on forward moves",
    }
}

/// The checks between selected options and the warnings about dead values:
/// what the declarations say that can never matter.
impl Lowerer<'_> {
    /// Two selected options that decide the same thing differently, when
    /// neither builds on the other through `requires`, contradict each
    /// other: which one wins would depend on the order of the file.
    fn check_contradictions(&mut self, options: &[OptionDef], on: &[bool]) {
        let builds_on = |from: usize, to: usize| {
            let mut stack = vec![from];
            let mut seen = vec![false; options.len()];
            while let Some(i) = stack.pop() {
                if i == to {
                    return true;
                }
                if std::mem::replace(&mut seen[i], true) {
                    continue;
                }
                for r in &options[i].requires {
                    stack.extend(options.iter().position(|o| o.name == r.node));
                }
            }
            false
        };
        for i in (0..options.len()).filter(|&i| on[i]) {
            for j in (i + 1..options.len()).filter(|&j| on[j]) {
                if builds_on(i, j) || builds_on(j, i) {
                    continue;
                }
                let clash = options[i].items.iter().find(|a| {
                    options[j]
                        .items
                        .iter()
                        .any(|b| b.key == a.key && b.setting != a.setting)
                });
                if let Some(a) = clash {
                    self.errors.push(RuleError::OptionConflict {
                        first: options[i].name.clone(),
                        second: options[j].name.clone(),
                        what: describe_key(a.key),
                    });
                }
            }
        }
    }

    /// An option that says `names only` may only declare houses.
    fn check_names_only(&mut self, layer: usize, o: &ast::OptionDecl) {
        if !matches!(
            o.inert.as_ref().map(|i| &i.node),
            Some(ast::Inert::NamesOnly)
        ) {
            return;
        }
        for d in &o.decls {
            if !matches!(d.kind, DeclKind::House { .. }) {
                self.bad(
                    layer,
                    &d.span,
                    format!(
                        "option `{}` says `names only`, but this declaration changes a rule",
                        o.name.node
                    ),
                    "not a house",
                    "an option that only names squares declares houses only; remove `names only` or this declaration",
                );
            }
        }
    }

    /// The declarations in effect, in the rule set or in one of its
    /// options, by layer and start: a declaration an overlay replaced is
    /// not warned about.
    fn live(map: &BTreeMap<Key, Item>, options: &[OptionDef]) -> Vec<(usize, usize)> {
        map.values()
            .chain(options.iter().flat_map(|o| o.items.iter()))
            .map(|i| (i.layer, i.span.start))
            .collect()
    }

    /// Every declaration of every layer, options included, with its layer.
    fn every_decl(&self) -> impl Iterator<Item = (usize, &Decl)> {
        self.layers.iter().enumerate().flat_map(|(i, l)| {
            l.ast
                .decls
                .iter()
                .chain(l.ast.options.iter().flat_map(|o| o.decls.iter()))
                .map(move |d| (i, d))
        })
    }

    /// Throw values that no throw of the rule set (under any of its
    /// options) gives: an extra throw, an exit, a starting or opening
    /// throw on such a value never happens. Skipped when the throw map in
    /// effect may have been replaced by a declaration that did not parse.
    fn never_thrown(
        &self,
        map: &BTreeMap<Key, Item>,
        options: &[OptionDef],
        gaps: &Gaps,
    ) -> Vec<RuleError> {
        let Some(throws) = map.get(&Key::Throws) else {
            return Vec::new();
        };
        if !gaps.is_final(throws.layer) {
            return Vec::new();
        }
        let mut thrown = 0u32;
        for it in map
            .values()
            .chain(options.iter().flat_map(|o| o.items.iter()))
        {
            if let Setting::Throws { values, .. } = &it.setting {
                thrown |= bits(values);
            }
        }
        let values: Vec<u8> = (1..32u8).filter(|v| thrown & (1 << v) != 0).collect();
        let live = Self::live(map, options);
        let mut out = Vec::new();
        for (layer, d) in self.every_decl() {
            if !live.contains(&(layer, d.span.start)) {
                continue;
            }
            let (what, vs): (&str, Vec<&ast::Spanned<u32>>) = match &d.kind {
                DeclKind::Extra(vs) => ("an extra throw on", vs.iter().collect()),
                DeclKind::At {
                    effect: Effect::ExitWith(ThrowSet::Values(vs)),
                    ..
                } => ("bearing off with", vs.iter().collect()),
                DeclKind::At {
                    effect: Effect::Lock(parts),
                    ..
                } => (
                    "bearing off with",
                    parts
                        .iter()
                        .flat_map(|p| match &p.node {
                            LockPart::Exit(ThrowSet::Values(vs)) => vs.iter().collect(),
                            _ => Vec::new(),
                        })
                        .collect(),
                ),
                DeclKind::StartThrow(v, ..) => ("a first move with", vec![v]),
                DeclKind::Opening { throw: Some(v), .. } => ("an opening throw of", vec![v]),
                _ => continue,
            };
            for v in vs {
                if (1..32).contains(&v.node) && thrown & (1 << v.node) == 0 {
                    out.push(RuleError::NeverThrown {
                        src: self.src(layer),
                        span: mspan(v.span.start, v.span.end),
                        what: format!(
                            "{what} {} never happens: no throw of these rules is {}",
                            v.node, v.node
                        ),
                        clause: clause_of(d),
                        help: format!(
                            "the throws of these rules are {}; remove {} or change the throw map",
                            list(&values),
                            v.node
                        ),
                    });
                }
            }
        }
        out
    }

    /// An entry rule in a rule set where no piece is ever in hand: no
    /// side starts there and nothing sends a piece back, under any option.
    fn entry_without_hand(
        &self,
        map: &BTreeMap<Key, Item>,
        options: &[OptionDef],
    ) -> Option<RuleError> {
        let entry = map.get(&Key::Enter)?;
        let uses_hand = map
            .values()
            .chain(options.iter().flat_map(|o| o.items.iter()))
            .any(|i| match (&i.key, &i.setting) {
                (Key::Setup(_), Setting::Squares(s)) => s.is_empty(),
                (Key::Square(SquareKind::StuckToHand, _), _) => true,
                (_, Setting::Landing(r, fb) | Setting::StayMoving(_, r, fb)) => {
                    *r == Relocation::Hand || *fb == Some(Relocation::Hand)
                }
                (_, Setting::Lock(l)) => l.otherwise == Relocation::Hand,
                _ => false,
            });
        (!uses_hand).then(|| RuleError::EntryWithoutHand {
            src: self.src(entry.layer),
            span: mspan(entry.span.start, entry.span.end),
            clause: entry.clause.clone(),
        })
    }

    /// `exit with` on a square of a rule set whose pieces bear off only
    /// without a throw (MC-8), under every option: no throw ever takes a
    /// piece off from there, so the exit's throws are never asked.
    fn exits_without_throw(
        &self,
        map: &BTreeMap<Key, Item>,
        options: &[OptionDef],
    ) -> Vec<RuleError> {
        let items = || {
            map.values()
                .chain(options.iter().flat_map(|o| o.items.iter()))
        };
        let mut reaches = items().filter(|i| i.key == Key::BearOff).peekable();
        let without_throw = reaches.peek().is_some()
            && reaches.all(|i| matches!(i.setting, Setting::Reach(Reach::WithoutThrow { .. })));
        if !without_throw {
            return Vec::new();
        }
        // The clauses cited: the exit's own, then the bear-off's that
        // makes it dead.
        let off_clause = map.get(&Key::BearOff).map_or("", |i| i.clause.as_str());
        let mut seen = std::collections::BTreeSet::new();
        items()
            .filter(|i| matches!(i.key, Key::Square(SquareKind::Exit, _)))
            .filter(|i| seen.insert((i.layer, i.span.start)))
            .map(|i| RuleError::ExitWithoutThrow {
                src: self.src(i.layer),
                span: mspan(i.span.start, i.span.end),
                clause: {
                    let mut cs: Vec<&str> = Vec::new();
                    for c in [i.clause.as_str(), off_clause]
                        .into_iter()
                        .flat_map(|c| c.split(", "))
                    {
                        if !c.is_empty() && !cs.contains(&c) {
                            cs.push(c);
                        }
                    }
                    cs.join(", ")
                },
            })
            .collect()
    }

    /// Houses on squares that no declaration gives a rule, a target or a
    /// protection, by number or by name, under any option. The squares of
    /// a setup, of `runs count on` and of the bear-off region do not count
    /// as a use: a house there would still do nothing of its own.
    fn unused_houses(&self) -> Vec<RuleError> {
        let mut used = SquareSet::EMPTY;
        for (_, d) in self.every_decl() {
            self.mark_used(d, &mut used);
        }
        let mut out = Vec::new();
        for (layer, d) in self.every_decl() {
            if let DeclKind::House { ident, square, .. } = &d.kind
                && (1..=self.len as u32).contains(&square.node)
                && !used.contains(square.node as u8)
            {
                out.push(RuleError::UnusedHouse {
                    src: self.src(layer),
                    span: mspan(ident.span.start, ident.span.end),
                    name: ident.node.clone(),
                    square: square.node,
                    clause: clause_of(d),
                });
            }
        }
        out
    }

    /// Adds to `used` the squares a declaration gives a rule, a target or
    /// a protection.
    fn mark_used(&self, d: &Decl, used: &mut SquareSet) {
        let one = |r: &ast::Spanned<SquareRef>, used: &mut SquareSet| {
            if let Some(s) = self.resolve(&r.node) {
                used.insert(s);
            }
        };
        let set = |items: &[SquareItem], used: &mut SquareSet| {
            for item in items {
                match item {
                    SquareItem::One(r) => one(r, used),
                    SquareItem::Range(a, b) => {
                        if let (Some(a), Some(b)) = (self.resolve(&a.node), self.resolve(&b.node))
                            && a <= b
                        {
                            *used = used.union(SquareSet::range(a, b));
                        }
                    }
                }
            }
        };
        let target = |r: &RelocationAst, used: &mut SquareSet| {
            if let RelocationAst::To(s, _) = r {
                one(s, used);
            }
        };
        fn preds<'p>(p: &'p PredNode, out: &mut Vec<&'p [SquareItem]>) {
            match &p.pred {
                PredAst::On(s) | PredAst::Taken(s) | PredAst::OwnerOn(s) => out.push(s),
                PredAst::And(ps) | PredAst::Or(ps) => ps.iter().for_each(|q| preds(q, out)),
                PredAst::Not(q) => preds(q, out),
                _ => {}
            }
        }
        match &d.kind {
            DeclKind::At { squares, effect } => {
                set(squares, used);
                match effect {
                    Effect::Relocate(r) => target(r, used),
                    Effect::HitSendsTo(s, _, _)
                    | Effect::DivertTo(s)
                    | Effect::DivertWhenTaken(s, _)
                    | Effect::StayMoving { to: s, .. }
                    | Effect::OvershootTo(s, _) => one(s, used),
                    Effect::Lock(parts) => {
                        for p in parts {
                            match &p.node {
                                LockPart::Release(r) | LockPart::Otherwise(r) => target(r, used),
                                _ => {}
                            }
                        }
                    }
                    _ => {}
                }
            }
            DeclKind::Enter { square, .. } => one(square, used),
            DeclKind::Opening { from: Some(s), .. } => one(s, used),
            DeclKind::Protect(Some(p)) => {
                let mut sets = Vec::new();
                preds(p, &mut sets);
                for s in sets {
                    set(s, used);
                }
            }
            DeclKind::TargetBlockade(cases) => {
                let mut sets = Vec::new();
                for c in cases {
                    match &c.onto {
                        Some(ast::TargetOnto::Squares(s)) => sets.push(s.as_slice()),
                        Some(ast::TargetOnto::Pred(p)) => preds(p, &mut sets),
                        None => {}
                    }
                    preds(&c.passing, &mut sets);
                }
                for s in sets {
                    set(s, used);
                }
            }
            _ => {}
        }
    }

    /// A square reference resolved without reporting: `None` for a square
    /// off the board or a name no house has.
    fn resolve(&self, r: &SquareRef) -> Option<u8> {
        match r {
            SquareRef::Number(n) => (1..=self.len as u32).contains(n).then_some(*n as u8),
            SquareRef::House(name) => self.houses.get(name).copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::SourceFile;

    fn dropped(text: &str) -> DropTarget {
        let file = SourceFile::new("t.senet", text);
        let ast = super::super::grammar::parse(&file).unwrap_or_else(|e| panic!("{text}: {e:?}"));
        match &ast.decls[0].kind {
            DeclKind::Drop(t) => t.clone(),
            other => panic!("{text}: {other:?}"),
        }
    }

    /// The grammar's `drop_named` and `drop_effect` alternatives and the
    /// tables that give their keys list the same words.
    #[test]
    fn every_drop_word_parses_to_its_table_entry() {
        for (words, _) in DROP_NAMED {
            // Spacing in the file does not matter.
            let text = format!("drop   {}\n", words.replace(' ', " \t "));
            assert_eq!(dropped(&text), DropTarget::Named(words.to_string()));
        }
        for (words, _) in DROP_KINDS {
            match dropped(&format!("drop at 3: {words}")) {
                DropTarget::At { kind, .. } => assert_eq!(kind.as_deref(), Some(*words)),
                other => panic!("{words}: {other:?}"),
            }
        }
        let named: std::collections::BTreeSet<Key> = DROP_NAMED.iter().map(|&(_, k)| k).collect();
        assert_eq!(named.len(), DROP_NAMED.len(), "two words for one key");
    }
}
