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
    BoundExtra,
    ExtraThrow,
    StuckToHand,
    NoBackward,
    MissTurn,
    Overshoot,
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
    Compulsory,
    Pass,
    OwnPiece,
    Opposing,
    Protect,
    Runs,
    Blockade,
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
}

/// A throw set after checking: `None` is any throw.
type Throwset = Option<Vec<u8>>;

#[derive(Debug, Clone, PartialEq)]
struct LockSpec {
    release: Option<(u8, Option<Relocation>)>,
    exit: Throwset,
    otherwise: Relocation,
    fail_ends_turn: bool,
    exit_gives_extra: bool,
    release_misses_turn: bool,
}

/// The checked content of a declaration.
#[derive(Debug, Clone, PartialEq)]
enum Setting {
    Text(String),
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
    Backward(Backward),
    Bool(bool),
    Protect(Option<Pred>),
    Blockades(Vec<(u8, BlockadeKind)>),
    Landing(Relocation, Option<Relocation>),
    Exit(Throwset),
    Target(u8),
    Lock(LockSpec),
    Reach(Reach),
    Score(Option<Vec<u8>>),
    Enter {
        square: u8,
        throws: Vec<u8>,
        bound: bool,
    },
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
                lw.len = if gaps.is_final(i) { len.node as u8 } else { 62 };
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
                        src: layers[i].file.named(),
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
                        src: layers[i].file.named(),
                        span: mspan(square.span.start, square.span.end),
                        square: square.node,
                        len: lw.len,
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
                        src: layer.file.named(),
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
                    src: layers[o.layer].file.named(),
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
                    src: layers[top].file.named(),
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
    let guess = crate::diag::nearest(name, known.iter().map(String::as_str))
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
    fn src(&self, layer: usize) -> miette::NamedSource<std::sync::Arc<str>> {
        self.layers[layer].file.named()
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
                        len: self.len,
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
                    let help = if known.is_empty() {
                        format!(
                            "declare it first: `house {name} = SQUARE \"Name\"`, or write the square number"
                        )
                    } else {
                        format!(
                            "declare it with `house {name} = SQUARE \"Name\"`, or use a declared house: {}",
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

    fn relocation(
        &mut self,
        layer: usize,
        r: &RelocationAst,
    ) -> Option<(Relocation, Option<Relocation>)> {
        Some(match r {
            RelocationAst::LowestEmpty => (Relocation::LowestEmpty, None),
            RelocationAst::Stay => (Relocation::Stay, None),
            RelocationAst::Hand => (Relocation::Hand, None),
            RelocationAst::To(s, fb) => {
                let s = self.square(layer, s)?;
                match fb {
                    None => (Relocation::To(s), None),
                    Some(ast::Fallback::CountingDown) => (Relocation::CountDownFrom(s), None),
                    Some(ast::Fallback::LowestEmpty) => {
                        (Relocation::To(s), Some(Relocation::LowestEmpty))
                    }
                    Some(ast::Fallback::CountingUp) => (Relocation::CountUpFrom(s), None),
                    Some(ast::Fallback::Queue) => (Relocation::Queue(s), None),
                }
            }
            RelocationAst::By {
                back,
                squares,
                fallback,
            } => {
                let n = self.small(layer, squares, 1, 61, "a number of squares")? as i8;
                let then = match fallback {
                    None => WhenTaken::Refuse,
                    Some(ast::Fallback::CountingDown) => WhenTaken::CountDown,
                    Some(ast::Fallback::CountingUp) => WhenTaken::CountUp,
                    Some(ast::Fallback::LowestEmpty) => WhenTaken::LowestEmpty,
                    Some(ast::Fallback::Queue) => {
                        // The queue enters one fixed square (R-12); a relative
                        // move reaches a different square from each square.
                        self.bad(
                            layer,
                            &squares.span,
                            "a relative move cannot fall back to the queue",
                            "relative move",
                            "write `else counting down`, `else counting up` or `else lowest empty`, or `relocate to SQUARE else queue`",
                        );
                        return None;
                    }
                };
                let step = if *back { -n } else { n };
                (Relocation::By { step, then }, None)
            }
        })
    }

    fn pred(&mut self, layer: usize, p: &PredNode, inherited: &str) -> Option<Pred> {
        let own = p
            .clauses
            .iter()
            .map(|c| c.node.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let clause = if own.is_empty() {
            inherited.to_string()
        } else {
            own
        };
        let run_len =
            |lw: &mut Self, n: &ast::Spanned<u32>| lw.small(layer, n, 1, 63, "a run length");
        Some(match &p.pred {
            PredAst::RunAtLeast(n) => {
                let n = run_len(self, n)?;
                Pred::RunLength {
                    lengths: u64::MAX << n,
                    clause,
                }
            }
            PredAst::RunExactly(n) => Pred::RunLength {
                lengths: 1 << run_len(self, n)?,
                clause,
            },
            PredAst::RunIn(ns) => {
                let mut lengths = 0u64;
                for n in ns {
                    lengths |= 1 << run_len(self, n)?;
                }
                Pred::RunLength { lengths, clause }
            }
            PredAst::Middle => Pred::Middle { clause },
            PredAst::On(set) => Pred::OnSquare {
                squares: self.squares(layer, set),
                clause,
            },
            PredAst::Taken(set) => Pred::Taken {
                squares: self.squares(layer, set),
                clause,
            },
            PredAst::OwnerSkips => Pred::OwnerSkips { clause },
            PredAst::OwnerOn(set) => Pred::OwnerOn {
                squares: self.squares(layer, set),
                clause,
            },
            PredAst::And(ps) => Pred::And(
                ps.iter()
                    .map(|q| self.pred(layer, q, &clause))
                    .collect::<Option<_>>()?,
            ),
            PredAst::Or(ps) => Pred::Or(
                ps.iter()
                    .map(|q| self.pred(layer, q, &clause))
                    .collect::<Option<_>>()?,
            ),
            PredAst::Not(q) => Pred::Not(Box::new(self.pred(layer, q, &clause)?)),
        })
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
        let mut push = |key: Key, setting: Setting| {
            out.push(Item {
                key,
                setting,
                clause: clause.clone(),
                layer,
                span: d.span,
            })
        };
        match &d.kind {
            DeclKind::Title(t) => push(Key::Title, Setting::Text(t.clone())),
            DeclKind::Source(t) => push(Key::Source, Setting::Text(t.clone())),
            DeclKind::Status(t) => push(Key::Status, Setting::Text(t.clone())),
            DeclKind::Goal(g) => push(Key::Goal, Setting::Goal(*g)),
            DeclKind::Guard => push(Key::Guard, Setting::Flag),
            DeclKind::BearOffVoluntary => push(Key::BearOffVoluntary, Setting::Flag),
            DeclKind::StartThrow(t) => {
                if let Some(t) = self.small(layer, t, 1, 31, "a throw value") {
                    push(Key::StartThrow, Setting::Values(vec![t]));
                }
            }
            DeclKind::Die { faces, values } => {
                let Some(n) = self.small(layer, faces, 2, 31, "the number of faces") else {
                    return;
                };
                let vals: Vec<u8> = values
                    .iter()
                    .filter_map(|v| self.small(layer, v, 1, 31, "a throw value"))
                    .collect();
                if values.len() != n as usize {
                    // Reported once; the throws are still declared, so no
                    // `missing` error follows.
                    self.bad(
                        layer,
                        &d.span,
                        format!("a die of {n} faces lists {} values", values.len()),
                        format!("{} values for {n} faces", values.len()),
                        format!(
                            "give one value per face, e.g. `throws with a die of {n} faces: {}`",
                            (1..=n)
                                .map(|v| v.to_string())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    );
                }
                if !vals.is_empty() {
                    push(
                        Key::Throws,
                        Setting::Throws {
                            sticks: 0,
                            values: vals,
                            die: true,
                        },
                    );
                }
            }
            DeclKind::Board { len, row_len } => {
                let l = self.small(layer, len, 2, 62, "the number of squares");
                let r = self.small(layer, row_len, 1, 62, "the row length");
                if let (Some(len), Some(row_len)) = (l, r) {
                    push(Key::Board, Setting::Board { len, row_len });
                }
            }
            DeclKind::House {
                ident,
                square,
                name,
                glyph,
            } => {
                let sq = ast::Spanned::new(SquareRef::Number(square.node), square.span);
                if let Some(s) = self.square(layer, &sq) {
                    push(
                        Key::House(s),
                        Setting::House {
                            ident: ident.node.clone(),
                            name: name.clone(),
                            glyph: glyph.clone(),
                        },
                    );
                }
            }
            DeclKind::Pieces(n) => {
                if let Some(n) = self.small(layer, n, 1, 31, "the number of pieces per side") {
                    push(Key::Pieces, Setting::Count(n));
                }
            }
            DeclKind::Setup { side, squares } => {
                let set = self.squares(layer, squares);
                push(Key::Setup(*side), Setting::Squares(set));
            }
            DeclKind::StarterFixed(side) => push(Key::Starter, Setting::Starter(Some(*side))),
            DeclKind::StarterByLot => push(Key::Starter, Setting::Starter(None)),
            DeclKind::Opening {
                side,
                throw,
                from,
                lapse,
            } => {
                if throw.is_none() && from.is_none() {
                    self.bad(layer, &d.span, "an opening constraint must name a throw, a square or both", "constrains nothing", "write e.g. `opening black: throw 1 from 10` or `opening white: from 9 else any move`");
                    return;
                }
                let t = throw
                    .as_ref()
                    .and_then(|t| self.small(layer, t, 1, 31, "a throw value"));
                let f = from.as_ref().and_then(|f| self.square(layer, f));
                if throw.is_some() && t.is_none() || from.is_some() && f.is_none() {
                    return;
                }
                push(
                    Key::Opening(*side),
                    Setting::Opening {
                        throw: t,
                        from: f,
                        lapse: *lapse,
                    },
                );
            }
            DeclKind::Throws { sticks, map } => {
                let Some(n) = self.small(layer, sticks, 1, 8, "the number of sticks") else {
                    return;
                };
                let mut values: Vec<Option<u8>> = vec![None; n as usize + 1];
                let mut ok = true;
                for (k, v) in map {
                    let val = self.small(layer, v, 1, 31, "a throw value");
                    if k.node > n as u32 {
                        self.errors.push(RuleError::ThrowMapRange {
                            src: self.src(layer),
                            span: mspan(k.span.start, k.span.end),
                            what: format!("{} marked sides cannot show with {n} sticks", k.node),
                            label: format!("more than {n}"),
                            help: format!("count marked sides from 0 to {n}"),
                        });
                        ok = false;
                    } else if values[k.node as usize].is_some() {
                        self.errors.push(RuleError::ThrowMapRange {
                            src: self.src(layer),
                            span: mspan(k.span.start, k.span.end),
                            what: format!("the throw map gives {} marked sides twice", k.node),
                            label: "given again".into(),
                            help: "give one value for each count of marked sides".into(),
                        });
                        ok = false;
                    } else {
                        values[k.node as usize] = val;
                        ok &= val.is_some();
                    }
                }
                let missing: Vec<String> = (0..=n)
                    .filter(|&k| {
                        values[k as usize].is_none() && !map.iter().any(|(m, _)| m.node == k as u32)
                    })
                    .map(|k| k.to_string())
                    .collect();
                if !missing.is_empty() {
                    let example = (0..=n)
                        .map(|k| format!("{k} -> {}", if k == 0 { n + 1 } else { k }))
                        .collect::<Vec<_>>()
                        .join(", ");
                    self.errors.push(RuleError::ThrowMapIncomplete {
                        src: self.src(layer),
                        span: mspan(d.span.start, d.span.end),
                        missing: missing.join(", "),
                        sticks: n as u32,
                        example: format!("throws with {n} sticks: {example}"),
                    });
                    ok = false;
                }
                if ok {
                    push(
                        Key::Throws,
                        Setting::Throws {
                            sticks: n,
                            values: values.into_iter().map(|v| v.unwrap_or(0)).collect(),
                            die: false,
                        },
                    );
                }
            }
            DeclKind::Extra(vs) => {
                let values: Vec<u8> = vs
                    .iter()
                    .filter_map(|v| self.small(layer, v, 1, 31, "a throw value"))
                    .collect();
                push(Key::Extra, Setting::Values(values));
            }
            DeclKind::Backward(b) => push(Key::Backward, Setting::Backward(*b)),
            DeclKind::Compulsory => push(Key::Compulsory, Setting::Flag),
            DeclKind::Pass { voluntary } => push(Key::Pass, Setting::Bool(*voluntary)),
            DeclKind::OwnPieceForbidden => push(Key::OwnPiece, Setting::Flag),
            DeclKind::Opposing(h) => push(Key::Opposing, Setting::Hit(*h)),
            DeclKind::Split => push(Key::Split, Setting::Flag),
            DeclKind::OneDirection => push(Key::OneDirection, Setting::Flag),
            DeclKind::Enter {
                square,
                throws,
                bound,
            } => {
                let Some(square) = self.square(layer, square) else {
                    return;
                };
                let throws: Vec<u8> = throws
                    .iter()
                    .filter_map(|v| self.small(layer, v, 1, 31, "a throw value"))
                    .collect();
                push(
                    Key::Enter,
                    Setting::Enter {
                        square,
                        throws,
                        bound: *bound,
                    },
                );
            }
            DeclKind::Protect(p) => {
                let pred = match p {
                    None => None,
                    Some(p) => match self.pred(layer, p, &clause) {
                        Some(p) => Some(p),
                        None => return,
                    },
                };
                push(Key::Protect, Setting::Protect(pred));
            }
            DeclKind::Runs(set) => {
                let s = self.squares(layer, set);
                push(Key::Runs, Setting::Squares(s));
            }
            DeclKind::Blockades(bs) => {
                let list: Vec<(u8, BlockadeKind)> = bs
                    .iter()
                    .filter_map(|b| {
                        self.small(layer, &b.length, 1, 62, "a blockade length")
                            .map(|n| (n, b.of))
                    })
                    .collect();
                push(Key::Blockade, Setting::Blockades(list));
            }
            DeclKind::BearOffAllIn(set) => {
                let s = self.squares(layer, set);
                push(Key::BearOffAllIn, Setting::Squares(s));
            }
            DeclKind::BearOff(r) => push(Key::BearOff, Setting::Reach(*r)),
            DeclKind::PassExtra { forced, keeps } => {
                push(Key::PassExtra(*forced), Setting::Bool(*keeps))
            }
            DeclKind::BoundThrow { ends_turn } => push(Key::BoundThrow, Setting::Bool(*ends_turn)),
            DeclKind::Score(ws) => {
                let ws = ws.as_ref().map(|ws| {
                    ws.iter()
                        .filter_map(|w| self.small(layer, w, 0, 255, "a score weight"))
                        .collect()
                });
                push(Key::Score, Setting::Score(ws));
            }
            DeclKind::Drop(target) => {
                let keys = self.drop_keys(layer, target);
                if let Some(&first) = keys.first() {
                    let what = drop_words(target, &keys);
                    push(first, Setting::Drop(keys, what));
                }
            }
            DeclKind::At { squares, effect } => {
                let set = self.squares(layer, squares);
                let (kind, setting) = match effect {
                    Effect::Relocate(r) => match self.relocation(layer, r) {
                        Some((r, fb)) => (SquareKind::Landing, Setting::Landing(r, fb)),
                        None => return,
                    },
                    Effect::Gate => (SquareKind::Gate, Setting::Flag),
                    Effect::Truncate => (SquareKind::Truncate, Setting::Flag),
                    Effect::Immobile => (SquareKind::Immobile, Setting::Flag),
                    Effect::Priority => (SquareKind::Priority, Setting::Flag),
                    Effect::ExitWith(ts) => (
                        SquareKind::Exit,
                        Setting::Exit(self.throw_values(layer, ts)),
                    ),
                    Effect::ExitOnlyFromTurnStart => (SquareKind::ExitFromTurnStart, Setting::Flag),
                    Effect::ExitNoExtra => (SquareKind::ExitNoExtra, Setting::Flag),
                    Effect::HitSendsTo(s) => match self.square(layer, s) {
                        Some(s) => (SquareKind::HitSends, Setting::Target(s)),
                        None => return,
                    },
                    Effect::DivertTo(s) => match self.square(layer, s) {
                        Some(s) => (SquareKind::Divert, Setting::Target(s)),
                        None => return,
                    },
                    Effect::BoundExtra => (SquareKind::BoundExtra, Setting::Flag),
                    Effect::ExtraThrow => (SquareKind::ExtraThrow, Setting::Flag),
                    Effect::StuckToHand => (SquareKind::StuckToHand, Setting::Flag),
                    Effect::NoBackward => (SquareKind::NoBackward, Setting::Flag),
                    Effect::MissTurn => (SquareKind::MissTurn, Setting::Flag),
                    Effect::OvershootTo(s) => match self.square(layer, s) {
                        Some(s) => (SquareKind::Overshoot, Setting::Target(s)),
                        None => return,
                    },
                    Effect::Lock(parts) => match self.lock(layer, d, parts) {
                        Some(l) => (SquareKind::Lock, Setting::Lock(l)),
                        None => return,
                    },
                };
                for s in set.iter() {
                    let sent = match &setting {
                        Setting::Landing(r, _) => Some(*r),
                        Setting::Lock(l) => Some(l.otherwise),
                        _ => None,
                    };
                    if sent.is_some_and(|r| !r.fits(s, self.len)) {
                        self.bad(
                            layer,
                            &d.span,
                            format!("a piece that lands on square {s} would be sent off the board"),
                            "off the board",
                            format!("count back or forward to a square from 1 to {}", self.len),
                        );
                        continue;
                    }
                    if let Setting::Target(t) = setting
                        && t == s
                    {
                        self.bad(
                            layer,
                            &d.span,
                            format!("square {s} sends pieces to itself"),
                            "sends to itself",
                            "name another square",
                        );
                        continue;
                    }
                    out.push(Item {
                        key: Key::Square(kind, s),
                        setting: setting.clone(),
                        clause: clause.clone(),
                        layer,
                        span: d.span,
                    });
                }
            }
        }
    }

    fn lock(
        &mut self,
        layer: usize,
        d: &Decl,
        parts: &[ast::Spanned<LockPart>],
    ) -> Option<LockSpec> {
        let mut spec = LockSpec {
            release: None,
            exit: Some(Vec::new()),
            otherwise: Relocation::Stay,
            fail_ends_turn: true,
            exit_gives_extra: true,
            release_misses_turn: false,
        };
        let mut seen: Vec<(std::mem::Discriminant<LockPart>, Span)> = Vec::new();
        let mut has_exit = false;
        let mut ok = true;
        for p in parts {
            let disc = std::mem::discriminant(&p.node);
            if let Some((_, first)) = seen.iter().find(|(k, _)| *k == disc) {
                self.errors.push(RuleError::Duplicate {
                    src: self.src(layer),
                    span: mspan(p.span.start, p.span.end),
                    first: mspan(first.start, first.end),
                    what: "this part of the lock".into(),
                });
                ok = false;
                continue;
            }
            seen.push((disc, p.span));
            match &p.node {
                LockPart::Release(r) => match r {
                    RelocationAst::To(s, fb) => {
                        let s = self.square(layer, s)?;
                        let when_taken = fb.map(|fb| match fb {
                            ast::Fallback::CountingDown => Relocation::CountDownFrom(s),
                            ast::Fallback::CountingUp => Relocation::CountUpFrom(s),
                            ast::Fallback::LowestEmpty => Relocation::LowestEmpty,
                            ast::Fallback::Queue => Relocation::Queue(s),
                        });
                        spec.release = Some((s, when_taken));
                    }
                    _ => {
                        self.bad(
                            layer,
                            &p.span,
                            "a lock releases its piece to a named square",
                            "no square",
                            "write e.g. `release to 15`",
                        );
                        ok = false;
                    }
                },
                LockPart::Exit(ts) => {
                    has_exit = true;
                    spec.exit = self.throw_values(layer, ts);
                }
                LockPart::Otherwise(r) => match self.relocation(layer, r)? {
                    (r, None) => spec.otherwise = r,
                    _ => {
                        self.bad(layer, &p.span, "`else lowest empty` cannot follow a failed lock throw", "not supported here", "write `otherwise relocate to lowest empty` or `otherwise relocate to 15 else counting down`");
                        ok = false;
                    }
                },
                LockPart::FailureEndsTurn(b) => spec.fail_ends_turn = *b,
                LockPart::ExitNoExtra => spec.exit_gives_extra = false,
                LockPart::ReleaseMissesTurn => spec.release_misses_turn = true,
            }
        }
        if !has_exit {
            self.bad(
                layer,
                &d.span,
                "a lock must say which throws bear its piece off",
                "no `exit with`",
                "add e.g. `exit with 4`",
            );
            ok = false;
        }
        ok.then_some(spec)
    }

    /// Checks the merged declarations as a whole and builds the rule set.
    fn build(
        &mut self,
        map: &BTreeMap<Key, Item>,
        top: usize,
        name: &str,
        options: Vec<(String, String)>,
        selected: Vec<String>,
    ) -> Option<Ruleset> {
        let get = |k: Key| map.get(&k);
        let missing = |lw: &mut Self, what: &str, example: &str| {
            lw.errors.push(RuleError::Missing {
                src: lw.src(top),
                span: None,
                what: what.into(),
                example: example.into(),
            });
        };
        let text = |k: Key| match get(k).map(|i| &i.setting) {
            Some(Setting::Text(t)) => t.clone(),
            _ => String::new(),
        };
        if get(Key::Title).is_none() {
            missing(self, "its title", "title \"Kendall-style rules\"");
        }
        let board = match get(Key::Board).map(|i| &i.setting) {
            Some(Setting::Board { len, row_len }) => Some(Board {
                len: *len,
                row_len: *row_len,
            }),
            _ => {
                missing(
                    self,
                    "how big the board is",
                    "board 30 squares in rows of 10",
                );
                None
            }
        };
        let pieces = match get(Key::Pieces).map(|i| &i.setting) {
            Some(Setting::Count(n)) => Some(*n),
            _ => {
                missing(self, "how many pieces each side has", "pieces 5 per side");
                None
            }
        };
        let mut setup: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
        for side in Side::BOTH {
            match get(Key::Setup(side)) {
                Some(Item {
                    setting: Setting::Squares(s),
                    span,
                    layer,
                    ..
                }) => {
                    setup[side.index()] = s.iter().collect();
                    // An empty setup is `in hand`: every piece enters (PC-1).
                    if let Some(p) = pieces
                        && s.len() != p as u32
                        && !s.is_empty()
                    {
                        self.errors.push(RuleError::SetupCount {
                            src: self.src(*layer),
                            span: mspan(span.start, span.end),
                            side: side.name().to_string(),
                            count: s.len() as usize,
                            pieces: p,
                        });
                    }
                }
                _ => missing(
                    self,
                    &format!("where {} starts", side.name()),
                    &format!("setup {} on 1, 3, 5, 7, 9", side.name().to_lowercase()),
                ),
            }
        }
        if let (Some(w), Some(b)) = (get(Key::Setup(Side::White)), get(Key::Setup(Side::Black)))
            && let (Setting::Squares(ws), Setting::Squares(bs)) = (&w.setting, &b.setting)
            && let Some(sq) = SquareSet(ws.0 & bs.0).iter().next()
        {
            let other = if w.layer == b.layer {
                Some(mspan(w.span.start, w.span.end))
            } else {
                None
            };
            self.errors.push(RuleError::SetupOverlap {
                src: self.src(b.layer),
                span: mspan(b.span.start, b.span.end),
                other,
                square: sq,
                side: "Black".into(),
                other_side: "White".into(),
            });
        }
        let starter = match get(Key::Starter) {
            Some(Item {
                setting: Setting::Starter(Some(s)),
                clause,
                ..
            }) => Some(Starter::Fixed(*s, clause.clone())),
            Some(Item {
                setting: Setting::Starter(None),
                clause,
                ..
            }) => Some(Starter::ByLot(clause.clone())),
            _ => {
                missing(self, "who moves first", "starter white");
                None
            }
        };
        let opening: Vec<OpeningRule> = map
            .values()
            .filter_map(|i| match (&i.key, &i.setting) {
                (Key::Opening(side), Setting::Opening { throw, from, lapse }) => {
                    Some(OpeningRule {
                        side: *side,
                        throw: *throw,
                        from: *from,
                        lapse: *lapse,
                        clause: i.clause.clone(),
                    })
                }
                _ => None,
            })
            .collect();
        let throws = match get(Key::Throws) {
            Some(Item {
                setting:
                    Setting::Throws {
                        sticks,
                        values,
                        die,
                    },
                clause,
                ..
            }) => {
                let (extra, extra_clause) = match get(Key::Extra) {
                    Some(Item {
                        setting: Setting::Values(v),
                        clause,
                        ..
                    }) => (bits(v), clause.clone()),
                    _ => {
                        missing(
                            self,
                            "which throws give another throw",
                            "extra throw on 1, 4, 5",
                        );
                        (0, String::new())
                    }
                };
                Some(Throws {
                    sticks: *sticks,
                    values: values.clone(),
                    die: *die,
                    extra,
                    clause: clause.clone(),
                    extra_clause,
                })
            }
            _ => {
                missing(
                    self,
                    "what the throws are worth",
                    "throws with 4 sticks: 0 -> 5, 1 -> 1, 2 -> 2, 3 -> 3, 4 -> 4",
                );
                None
            }
        };
        let all_throws: u32 = throws.as_ref().map_or(u32::MAX, |t| bits(&t.values));
        let clause = |k: Key| get(k).map(|i| i.clause.clone()).unwrap_or_default();

        // Square sets gathered from per-square declarations.
        let set_of = |kind: SquareKind| -> (SquareSet, Clause) {
            let mut set = SquareSet::EMPTY;
            let mut clauses: Vec<String> = Vec::new();
            for (k, i) in map.iter() {
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
        };
        let (gates, gate_clause) = set_of(SquareKind::Gate);
        let (truncate_at, truncate_clause) = set_of(SquareKind::Truncate);
        let (immobile, immobile_clause) = set_of(SquareKind::Immobile);
        let (no_backward, no_backward_clause) = set_of(SquareKind::NoBackward);
        let (priority, priority_clause) = set_of(SquareKind::Priority);
        let (overshoot, _) = set_of(SquareKind::Overshoot);
        let setup_squares = [
            setup[0].iter().copied().collect::<SquareSet>(),
            setup[1].iter().copied().collect::<SquareSet>(),
        ];
        for s in SquareSet(gates.0 & truncate_at.0).iter() {
            let g = &map[&Key::Square(SquareKind::Gate, s)];
            let t = &map[&Key::Square(SquareKind::Truncate, s)];
            self.errors.push(RuleError::Conflict {
                src: self.src(t.layer),
                span: mspan(t.span.start, t.span.end),
                other: (g.layer == t.layer).then(|| mspan(g.span.start, g.span.end)),
                what: format!("square {s} is both a gate and a truncation square"),
                label: "truncates".into(),
                help:
                    "a gate forbids moves that would pass it; truncation stops them on it: keep one"
                        .into(),
            });
        }
        let entry = match get(Key::Enter) {
            Some(Item {
                setting:
                    Setting::Enter {
                        square,
                        throws,
                        bound,
                    },
                clause,
                ..
            }) => Some(Entry {
                square: *square,
                throws: bits(throws),
                bound_extra: *bound,
                clause: clause.clone(),
            }),
            _ => None,
        };
        // PC-2: an entry throw the sticks can never show enters nothing.
        if let (Some(e), Some(i)) = (&entry, get(Key::Enter))
            && e.throws & !all_throws != 0
        {
            let never: Vec<u8> = (0..32u8)
                .filter(|v| e.throws & !all_throws & (1 << v) != 0)
                .collect();
            self.errors.push(RuleError::Conflict {
                src: self.src(i.layer),
                span: mspan(i.span.start, i.span.end),
                other: None,
                what: format!(
                    "pieces enter with a throw of {}, which no throw of these rules gives",
                    list(&never)
                ),
                label: "never thrown".into(),
                help: "enter with throw values that the throw map gives".into(),
            });
        }
        // Pieces that start in hand or go back to it need a way to enter.
        let in_hand = |side| matches!(get(Key::Setup(side)).map(|i| &i.setting), Some(Setting::Squares(s)) if s.is_empty());
        let uses_hand = Side::BOTH.into_iter().any(in_hand)
            || map.iter().any(|(k, i)| {
                matches!(k, Key::Square(SquareKind::StuckToHand, _))
                    || matches!(i.setting, Setting::Landing(Relocation::Hand, _))
                    || matches!(&i.setting, Setting::Lock(l) if l.otherwise == Relocation::Hand)
            });
        if uses_hand && entry.is_none() {
            missing(
                self,
                "how pieces enter from the hand (pieces start there or go back there)",
                "enter from hand on 1 with 1",
            );
        }
        let movement = Movement {
            backward: match get(Key::Backward).map(|i| &i.setting) {
                Some(Setting::Backward(b)) => *b,
                _ => Backward::Never,
            },
            backward_clause: clause(Key::Backward),
            compulsory_clause: clause(Key::Compulsory),
            voluntary_pass: matches!(
                get(Key::Pass).map(|i| &i.setting),
                Some(Setting::Bool(true))
            ),
            voluntary_pass_clause: clause(Key::Pass),
            priority,
            priority_clause,
            gates,
            gate_clause,
            truncate_at,
            truncate_clause,
            immobile,
            immobile_clause,
            no_backward,
            no_backward_clause,
            own_clause: clause(Key::OwnPiece),
            hit: match get(Key::Opposing).map(|i| &i.setting) {
                Some(Setting::Hit(h)) => *h,
                _ => Hit::Swap,
            },
            swap_clause: clause(Key::Opposing),
            overshoot,
            setup_guard: get(Key::Guard).is_some(),
            setup_guard_clause: clause(Key::Guard),
            setup_squares,
            bear_off_voluntary: get(Key::BearOffVoluntary).is_some(),
            bear_off_voluntary_clause: clause(Key::BearOffVoluntary),
            start_throw: match get(Key::StartThrow).map(|i| &i.setting) {
                Some(Setting::Values(v)) => v.first().copied(),
                _ => None,
            },
            start_throw_clause: clause(Key::StartThrow),
            split: get(Key::Split).is_some(),
            split_clause: clause(Key::Split),
            one_direction: get(Key::OneDirection).is_some(),
            one_direction_clause: clause(Key::OneDirection),
        };
        let len = board.map_or(self.len, |b| b.len);
        let protection = Protection {
            rule: match get(Key::Protect).map(|i| &i.setting) {
                Some(Setting::Protect(p)) => p.clone(),
                _ => None,
            },
            run_squares: match get(Key::Runs).map(|i| &i.setting) {
                Some(Setting::Squares(s)) => *s,
                _ => SquareSet::range(1, len),
            },
        };
        let blockades = match get(Key::Blockade) {
            Some(Item {
                setting: Setting::Blockades(bs),
                clause,
                ..
            }) => bs
                .iter()
                .map(|&(length, of)| Blockade {
                    length,
                    of,
                    clause: clause.clone(),
                })
                .collect(),
            _ => Vec::new(),
        };
        let mut squares = vec![SquareRule::default(); len as usize + 1];
        for (k, i) in map.iter() {
            let Key::Square(kind, s) = *k else { continue };
            // A square off the board was reported when it was read; with a
            // syntax error elsewhere the board may be unknown, so squares
            // were only checked against the largest board.
            let Some(sq) = squares.get_mut(s as usize) else {
                continue;
            };
            let c = i.clause.clone();
            match (&kind, &i.setting) {
                (SquareKind::Landing, Setting::Landing(r, fb)) => {
                    sq.on_land = Some(Landing {
                        effect: *r,
                        clause: c,
                        when_taken: *fb,
                    })
                }
                (SquareKind::Exit, Setting::Exit(ts)) => {
                    sq.exit_throws = Some(ts.as_ref().map_or(all_throws, |v| bits(v)));
                    sq.exit_clause = c;
                }
                (SquareKind::ExitFromTurnStart, _) => {
                    sq.exit_from_turn_start = true;
                    sq.exit_from_turn_start_clause = c;
                }
                (SquareKind::HitSends, Setting::Target(t)) => {
                    sq.hit_sends_to = Some(*t);
                    sq.hit_clause = c;
                }
                (SquareKind::Divert, Setting::Target(t)) => {
                    sq.divert_when_protected = Some(*t);
                    sq.divert_clause = c;
                }
                (SquareKind::BoundExtra, _) => {
                    sq.bound_extra = true;
                    sq.bound_clause = c;
                }
                (SquareKind::ExtraThrow, _) => {
                    sq.extra_throw = true;
                    sq.extra_clause = c;
                }
                (SquareKind::StuckToHand, _) => {
                    sq.stuck_to_hand = true;
                    sq.stuck_clause = c;
                }
                (SquareKind::MissTurn, _) => {
                    sq.miss_turn = true;
                    sq.miss_clause = c;
                }
                (SquareKind::Overshoot, Setting::Target(t)) => {
                    sq.overshoot_to = Some(*t);
                    sq.overshoot_clause = c;
                }
                (SquareKind::Lock, Setting::Lock(l)) => {
                    sq.lock = Some(Lock {
                        release_to: l.release.map(|r| r.0),
                        release_when_taken: l.release.and_then(|r| r.1),
                        exit_throws: l.exit.as_ref().map_or(all_throws, |v| bits(v)),
                        otherwise: l.otherwise,
                        fail_ends_turn: l.fail_ends_turn,
                        exit_gives_extra: l.exit_gives_extra,
                        release_misses_turn: l.release_misses_turn,
                        clause: c,
                    })
                }
                _ => {}
            }
        }
        for (k, i) in map.iter() {
            if let Key::Square(SquareKind::ExitNoExtra, s) = *k
                && let Some(square) = squares.get_mut(s as usize)
            {
                match &mut square.lock {
                    Some(l) => l.exit_gives_extra = false,
                    None => self.errors.push(RuleError::Conflict {
                        src: self.src(i.layer),
                        span: mspan(i.span.start, i.span.end),
                        other: None,
                        what: format!(
                            "square {s} has no lock, so no exit throw to take the extra throw from"
                        ),
                        label: "needs a lock".into(),
                        help: format!(
                            "declare the lock first: `at {s}: lock: exit with 4, otherwise stay`"
                        ),
                    }),
                }
            }
        }
        for (s, sq) in squares.iter().enumerate() {
            if sq.lock.is_some()
                && !matches!(
                    sq.on_land,
                    Some(Landing {
                        effect: Relocation::Stay,
                        ..
                    })
                )
            {
                let l = &map[&Key::Square(SquareKind::Lock, s as u8)];
                self.errors.push(RuleError::Conflict {
                    src: self.src(l.layer),
                    span: mspan(l.span.start, l.span.end),
                    other: map.get(&Key::Square(SquareKind::Landing, s as u8)).filter(|o| o.layer == l.layer).map(|o| mspan(o.span.start, o.span.end)),
                    what: format!("square {s} locks its piece, but a piece that lands there does not stay"),
                    label: "lock".into(),
                    help: format!("a locking square must keep the piece that lands on it: declare `at {s}: stay`"),
                });
            }
        }
        let bear_off = BearOff {
            all_in: match get(Key::BearOffAllIn).map(|i| &i.setting) {
                Some(Setting::Squares(s)) => Some(*s),
                _ => None,
            },
            all_in_clause: clause(Key::BearOffAllIn),
            reach: match get(Key::BearOff).map(|i| &i.setting) {
                Some(Setting::Reach(r)) => *r,
                _ => {
                    missing(
                        self,
                        "how a piece bears off",
                        "bear off by exact throw past the end",
                    );
                    Reach::ExactPast
                }
            },
            clause: clause(Key::BearOff),
        };
        let bool_of = |k: Key, default: bool| match get(k).map(|i| &i.setting) {
            Some(Setting::Bool(b)) => *b,
            _ => default,
        };
        let turn = TurnRules {
            forced_pass_keeps_extra: bool_of(Key::PassExtra(true), false),
            forced_pass_clause: clause(Key::PassExtra(true)),
            voluntary_pass_keeps_extra: bool_of(Key::PassExtra(false), true),
            bound_pass_ends_turn: bool_of(Key::BoundThrow, false),
        };
        let score_by_row = match get(Key::Score) {
            Some(Item {
                setting: Setting::Score(Some(ws)),
                span,
                layer,
                ..
            }) => {
                if let Some(b) = board
                    && ws.len() != b.rows() as usize
                {
                    let sp = *span;
                    self.bad(
                        *layer,
                        &sp,
                        format!(
                            "the score gives {} row weights for a board of {} rows",
                            ws.len(),
                            b.rows()
                        ),
                        "wrong number of weights",
                        format!(
                            "give one weight per row, from the start of the track ({} rows)",
                            b.rows()
                        ),
                    );
                }
                Some(ws.clone())
            }
            _ => None,
        };
        let end = EndRules {
            goal: match get(Key::Goal).map(|i| &i.setting) {
                Some(Setting::Goal(g)) => *g,
                _ => Goal::BearOffAll,
            },
            score_by_row,
            clause: clause(Key::Score),
            goal_clause: clause(Key::Goal),
        };

        let houses: Vec<House> = map
            .values()
            .filter_map(|i| match (&i.key, &i.setting) {
                (Key::House(s), Setting::House { name, glyph, .. }) => Some(House {
                    square: *s,
                    name: name.clone(),
                    glyph: glyph.clone(),
                    clause: i.clause.clone(),
                }),
                _ => None,
            })
            .collect();
        let explained = explain(map, &houses, all_throws);
        let meta = Meta {
            name: name.to_string(),
            title: text(Key::Title),
            source: text(Key::Source),
            status: text(Key::Status),
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
            squares,
            bear_off,
            turn,
            end,
            fast: Default::default(),
        };
        // The fast path's tables, from the finished rule set.
        rules.fast = crate::engine::FastTables::compile(&rules);
        Some(rules)
    }
}

/// What a key is called in a duplicate-declaration message.
/// The words `drop` takes for a declaration there is one of per rule set
/// (the grammar's `drop_named`), and the key each removes.
const DROP_NAMED: [(&str, Key); 27] = [
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
    ("backward", Key::Backward),
    ("forward move compulsory", Key::Compulsory),
    ("pass", Key::Pass),
    ("landing on own piece", Key::OwnPiece),
    ("landing on opposing piece", Key::Opposing),
    ("protect", Key::Protect),
    ("runs", Key::Runs),
    ("blockade", Key::Blockade),
    ("guard", Key::Guard),
    ("first move", Key::StartThrow),
    ("bear off voluntary", Key::BearOffVoluntary),
    ("bear off only when", Key::BearOffAllIn),
    ("bear off", Key::BearOff),
    ("unusable bound throw", Key::BoundThrow),
    ("score", Key::Score),
];

/// The words `drop at SQUARES:` takes (the grammar's `drop_effect`), and the
/// kind of square rule each removes.
const DROP_KINDS: [(&str, SquareKind); 18] = [
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
    ("extra throw bound", SquareKind::BoundExtra),
    ("extra throw", SquareKind::ExtraThrow),
    ("back to hand", SquareKind::StuckToHand),
    ("no backward move", SquareKind::NoBackward),
    ("miss next turn", SquareKind::MissTurn),
    ("overshoot", SquareKind::Overshoot),
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
        Key::Compulsory => "compulsory forward moves".into(),
        Key::Pass => "passing".into(),
        Key::OwnPiece => "landing on one's own piece".into(),
        Key::Opposing => "landing on an opposing piece".into(),
        Key::Protect => "protection".into(),
        Key::Runs => "where runs count".into(),
        Key::Blockade => "blockades".into(),
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
        SquareKind::BoundExtra => "the bound extra throw",
        SquareKind::ExtraThrow => "the extra throw",
        SquareKind::StuckToHand => "the return to the hand",
        SquareKind::NoBackward => "the ban on backward moves",
        SquareKind::MissTurn => "the missed turn",
        SquareKind::Overshoot => "the overshoot",
    }
}

// ---------------------------------------------------------------------------
// Every rule in words, for `senet rules show`.

struct Namer<'a> {
    houses: &'a [House],
}

impl Namer<'_> {
    fn sq(&self, s: u8) -> String {
        match self.houses.iter().find(|h| h.square == s) {
            Some(h) => format!("square {s} ({})", h.name),
            None => format!("square {s}"),
        }
    }
    fn set(&self, set: SquareSet) -> String {
        let v: Vec<u8> = set.iter().collect();
        ranges(&v)
    }
    fn reloc(&self, r: Relocation) -> String {
        r.sentence(&|s| self.sq(s))
    }
}

/// `1..10` style text for a sorted list of squares or numbers.
pub fn ranges(v: &[u8]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        if j >= i + 2 {
            parts.push(format!("{}..{}", v[i], v[j]));
        } else {
            for x in &v[i..=j] {
                parts.push(x.to_string());
            }
        }
        i = j + 1;
    }
    parts.join(", ")
}

fn list(v: &[u8]) -> String {
    match v {
        [] => "none".into(),
        [one] => one.to_string(),
        [init @ .., last] => format!(
            "{} or {}",
            init.iter()
                .map(u8::to_string)
                .collect::<Vec<_>>()
                .join(", "),
            last
        ),
    }
}

fn throws_text(ts: &Throwset, all: u32) -> String {
    match ts {
        None => "any throw".into(),
        Some(v) if bits(v) == all => "any throw".into(),
        Some(v) => format!("a throw of {}", list(v)),
    }
}

fn exit_text(ts: &Throwset, all: u32) -> String {
    match throws_text(ts, all).as_str() {
        "any throw" => "a piece here bears off with any throw".into(),
        t => format!("a piece here bears off only with {t}"),
    }
}

fn pred_text(p: &Pred, n: &Namer) -> String {
    match p {
        Pred::RunLength { lengths, .. } => {
            let ls: Vec<u8> = (0..64u8).filter(|i| lengths & (1u64 << i) != 0).collect();
            if ls.len() > 1 && ls.windows(2).all(|w| w[1] == w[0] + 1) && *ls.last().unwrap() == 63
            {
                format!("it is in a run of {} or more", ls[0])
            } else {
                format!("it is in a run of {}", list(&ls))
            }
        }
        Pred::Middle { .. } => "it is the middle piece of its run".into(),
        Pred::OnSquare { squares, .. } => format!("it stands on {}", n.set(*squares)),
        Pred::Taken { squares, .. } => format!("a piece stands on {}", n.set(*squares)),
        Pred::OwnerOn { squares, .. } => {
            format!("its owner has a piece on {}", n.set(*squares))
        }
        Pred::OwnerSkips { .. } => "its owner is to miss their next turn".into(),
        Pred::And(ps) => ps
            .iter()
            .map(|q| paren(q, n))
            .collect::<Vec<_>>()
            .join(" and "),
        Pred::Or(ps) => ps
            .iter()
            .map(|q| paren(q, n))
            .collect::<Vec<_>>()
            .join(" or "),
        Pred::Not(q) => match &**q {
            Pred::Middle { .. } => "it is not the middle piece of its run".into(),
            q => format!("not ({})", pred_text(q, n)),
        },
    }
}

/// The distinct clauses cited inside a predicate, in order.
fn pred_clauses(p: &Pred) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |c: &String| {
        for part in c.split(", ").filter(|s| !s.is_empty()) {
            if !out.iter().any(|o| o == part) {
                out.push(part.to_string());
            }
        }
    };
    match p {
        Pred::RunLength { clause, .. }
        | Pred::Middle { clause }
        | Pred::OnSquare { clause, .. }
        | Pred::Taken { clause, .. }
        | Pred::OwnerOn { clause, .. }
        | Pred::OwnerSkips { clause } => add(clause),
        Pred::And(ps) | Pred::Or(ps) => {
            for q in ps {
                for c in pred_clauses(q) {
                    add(&c);
                }
            }
        }
        Pred::Not(q) => {
            for c in pred_clauses(q) {
                add(&c);
            }
        }
    }
    out
}

fn paren(p: &Pred, n: &Namer) -> String {
    match p {
        Pred::And(_) | Pred::Or(_) => format!("({})", pred_text(p, n)),
        _ => pred_text(p, n),
    }
}

fn explain(map: &BTreeMap<Key, Item>, houses: &[House], all_throws: u32) -> Vec<(String, Clause)> {
    let n = Namer { houses };
    let mut out: Vec<(String, Clause)> = Vec::new();
    // Square declarations are grouped when consecutive keys of one kind say
    // the same thing with the same clause.
    let mut group: Option<(SquareKind, String, Clause, Vec<u8>)> = None;
    let flush = |group: &mut Option<(SquareKind, String, Clause, Vec<u8>)>,
                 out: &mut Vec<(String, Clause)>| {
        if let Some((_, text, clause, squares)) = group.take() {
            let subject = if squares.len() == 1 {
                let s = n.sq(squares[0]);
                let mut c = s.chars();
                c.next()
                    .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
                    .unwrap_or_default()
            } else {
                format!("Squares {}", ranges(&squares))
            };
            out.push((format!("{subject}: {text}."), clause));
        }
    };
    for (k, i) in map {
        let c = match &i.setting {
            Setting::Protect(Some(p)) if i.clause.is_empty() => pred_clauses(p).join(", "),
            _ => i.clause.clone(),
        };
        if let Key::Square(kind, s) = *k {
            let text = match &i.setting {
                Setting::Landing(r, fb) => {
                    let mut t = format!("a piece that lands here {}", n.reloc(*r));
                    if let (Relocation::To(_), Some(f)) = (r, fb) {
                        t += &format!("; if that square is taken, it {}", n.reloc(*f));
                    } else if let Relocation::To(_) = r {
                        t += "; if that square is taken, the move is not allowed";
                    }
                    t
                }
                Setting::Exit(ts) => exit_text(ts, all_throws),
                Setting::Target(t) if kind == SquareKind::HitSends => format!("an opposing piece moved onto here is not swapped: it goes to {}", n.sq(*t)),
                Setting::Target(t) if kind == SquareKind::Overshoot => format!("a forward move that would pass it ends on {} instead", n.sq(*t)),
                Setting::Target(t) => format!("when a move targets a protected opposing piece here and the mover has no other forward move, the mover goes to {} instead", n.sq(*t)),
                Setting::Lock(l) => {
                    let mut parts = vec!["while a player has a piece here, none of their other pieces may move".to_string()];
                    if let Some((s, fb)) = l.release {
                        let mut t = format!(
                            "at each unit they may move it to {} without a throw, which ends the turn{}",
                            n.sq(s),
                            if l.release_misses_turn { " and makes them miss their next turn" } else { "" }
                        );
                        match fb {
                            None => t += " (not when that square is taken)",
                            Some(r) => t += &format!("; if that square is taken the piece {}", n.reloc(r)),
                        }
                        parts.push(t);
                    }
                    parts.push(format!("or throw: {} bears it off", throws_text(&l.exit, all_throws)));
                    if !l.exit_gives_extra {
                        parts.push("and that throw gives no further throw".into());
                    }
                    let other = match l.otherwise {
                        Relocation::Stay => "any other throw leaves it here".to_string(),
                        r => format!("on any other throw it {}", n.reloc(r)),
                    };
                    parts.push(format!("{other}{}", if l.fail_ends_turn { " and ends the turn" } else { "; the turn goes on as the throw allows" }));
                    parts.join("; ")
                }
                _ => match kind {
                    SquareKind::Gate => "no move may pass it; a piece must land on it exactly before going further".into(),
                    SquareKind::Truncate => "a move that would pass it stops on it".into(),
                    SquareKind::Immobile => "a piece here never moves along the track; it may only bear off".into(),
                    SquareKind::Priority => "while a piece here can move, the player must move one of the pieces on such squares".into(),
                    SquareKind::ExitFromTurnStart => "a piece here bears off only if it stood here when the turn began".into(),
                    SquareKind::ExitNoExtra => "the throw that bears the locked piece off gives no further throw".into(),
                    SquareKind::BoundExtra => "a piece that moves here earns one extra throw, which must be used by that piece".into(),
                    SquareKind::MissTurn => "a piece that moves here makes its owner miss their next turn".into(),
                    SquareKind::ExtraThrow => "a piece that lands here gives its owner another throw, taken once the current throw is used".into(),
                    SquareKind::NoBackward => "a piece here never moves backward".into(),
                    SquareKind::StuckToHand => "when a throw gives its owner no legal move, the piece here goes back to the hand and the turn ends".into(),
                    _ => String::new(),
                },
            };
            if let Some((gk, gt, gc, gs)) = &mut group
                && *gk == kind
                && *gt == text
                && *gc == c
            {
                gs.push(s);
                continue;
            }
            flush(&mut group, &mut out);
            group = Some((kind, text, c, vec![s]));
            continue;
        }
        flush(&mut group, &mut out);
        let text = match (k, &i.setting) {
            // The header is provenance, not a rule: `Meta` carries it.
            (Key::Title | Key::Source | Key::Status, _) => continue,
            (Key::Goal, Setting::Goal(Goal::MostBorneOff)) => "The game ends when neither side has a piece in play; the side that bore off more pieces wins, and equal counts are a draw.".into(),
            (Key::Goal, _) => "The first player to bear off all their pieces wins.".into(),
            (Key::Guard, _) => "A piece on one of its side's starting squares may move only when the square in front of it is empty.".into(),
            (Key::StartThrow, Setting::Values(v)) => format!("A side whose pieces all still stand on their starting squares moves only with a throw of {}; any other throw is passed.", list(v)),
            (Key::BearOffVoluntary, _) => "Bearing off is never compulsory: when every legal move bears off, the player may pass instead.".into(),
            (Key::Board, Setting::Board { len, row_len }) => format!(
                "The board has {len} squares in {} rows of {row_len}; the track runs boustrophedon (row 1 left to right, row 2 right to left, ...), and bearing off is step {}.",
                len.div_ceil(*row_len),
                len + 1
            ),
            (Key::House(s), Setting::House { name, glyph, .. }) => match glyph {
                Some(g) => format!("Square {s}: {name} ({g})."),
                None => format!("Square {s}: {name}."),
            },
            (Key::Pieces, Setting::Count(p)) => format!("Each side has {p} pieces."),
            (Key::Setup(side), Setting::Squares(s)) if s.is_empty() => format!("{} starts with every piece in hand.", side.name()),
            (Key::Setup(side), Setting::Squares(s)) => format!("{} starts on squares {}.", side.name(), n.set(*s)),
            (Key::Enter, Setting::Enter { square, throws, bound }) => format!(
                "A throw of {} (whole, never a part of a split throw) may enter a piece from the hand onto {} when it is empty{}.",
                list(throws),
                n.sq(*square),
                if *bound { "; entering gives another throw, which must move the entered piece (alone, or as one part of a split)" } else { "" }
            ),
            (Key::Split, _) => "A throw may be split in two parts, each moving a different piece forward by its part; the second part moves on the board the first left.".into(),
            (Key::OneDirection, _) => "All the moves of a turn go in one direction: after a forward move the turn's later throws move forward only (or are passed), after a backward move backward only.".into(),
            (Key::Starter, Setting::Starter(Some(s))) => format!("{} moves first.", s.name()),
            (Key::Starter, _) => "Who moves first is decided by lot; the game record names the first player.".into(),
            (Key::Opening(side), Setting::Opening { throw, from, lapse }) => {
                let mut t = format!("{}'s first unit", side.name());
                if let Some(v) = throw {
                    t += &format!(" must be a throw of {v}");
                }
                if let Some(f) = from {
                    t += &format!("{} the piece on {}", if throw.is_some() { " moving" } else { " must move" }, n.sq(*f));
                }
                t += match lapse {
                    Lapse::AnyMove => "; if that is impossible, the constraint lapses and any legal unit may be played.",
                    Lapse::Pass => "; if that is impossible, the unit is a pass.",
                };
                t
            }
            (Key::Throws, Setting::Throws { values, die: true, .. }) => format!(
                "A throw uses one die of {} faces, each equally likely: {}.",
                values.len(),
                values.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")
            ),
            (Key::Throws, Setting::Throws { sticks, values, .. }) => format!(
                "A throw uses {sticks} sticks; by the number of marked sides up: {}.",
                values.iter().enumerate().map(|(k, v)| format!("{k} gives {v}")).collect::<Vec<_>>().join(", ")
            ),
            (Key::Extra, Setting::Values(v)) if v.is_empty() => "No throw gives another throw.".into(),
            (Key::Extra, Setting::Values(v)) => format!("A throw of {} gives another throw.", list(v)),
            (Key::Backward, Setting::Backward(Backward::Never)) => "Pieces move forward only.".into(),
            (Key::Backward, Setting::Backward(Backward::OneSquareWhenNoForward)) => "When no forward move exists, a piece must move backward one square, whatever the throw (same landing rules).".into(),
            (Key::Backward, Setting::Backward(Backward::ToEmptyWhenNoForward)) => "When no forward move exists, a piece must move backward by the throw, onto an empty square only.".into(),
            (Key::Backward, _) => "When no forward move exists, a piece must move backward by the throw (same landing rules).".into(),
            (Key::Compulsory, _) => "A forward move is compulsory when one exists.".into(),
            (Key::Pass, Setting::Bool(true)) => "A player may pass voluntarily at any unit.".into(),
            (Key::Pass, _) => "A player may pass only when no move is legal.".into(),
            (Key::OwnPiece, _) => "A piece may not land on a piece of its own colour.".into(),
            (Key::Opposing, Setting::Hit(Hit::LowestEmpty)) => "A piece that lands on an opposing piece sends it to the lowest-numbered empty square.".into(),
            (Key::Opposing, Setting::Hit(Hit::Forbidden)) => "No move may land on an opposing piece: no two pieces share a square and nothing is hit.".into(),
            (Key::Opposing, Setting::Hit(Hit::Capture)) => "A piece that lands on an opposing piece captures it: the opposing piece leaves the game.".into(),
            (Key::Opposing, _) => "A piece that lands on an opposing piece swaps with it: the opposing piece goes to the square the mover came from.".into(),
            (Key::Protect, Setting::Protect(None)) => "No piece is protected.".into(),
            (Key::Protect, Setting::Protect(Some(p))) => format!("An opposing piece cannot be hit when {}.", pred_text(p, &n)),
            (Key::Runs, Setting::Squares(s)) => format!("Runs are counted on squares {} only; pieces elsewhere never form or extend a run.", n.set(*s)),
            (Key::Blockade, Setting::Blockades(bs)) if bs.is_empty() => "No blockades.".into(),
            (Key::Blockade, Setting::Blockades(bs)) => bs
                .iter()
                .map(|(len, of)| {
                    let whose = match of {
                        BlockadeKind::Opposing => "opposing pieces",
                        BlockadeKind::OneColour => "pieces of one colour (either colour)",
                        BlockadeKind::Any => "pieces (any colours)",
                    };
                    format!("No move may pass over {len} {whose} on consecutive squares.")
                })
                .collect::<Vec<_>>()
                .join(" "),
            (Key::BearOffAllIn, Setting::Squares(s)) => format!("A piece may bear off only while all its side's pieces on the board are on squares {}.", n.set(*s)),
            (Key::BearOff, Setting::Reach(Reach::ExactPast)) => "A piece bears off with the exact throw that takes it one step past the last square.".into(),
            (Key::BearOff, Setting::Reach(Reach::ExactLast)) => "A piece bears off with the exact throw that takes it to the last square.".into(),
            (Key::BearOff, _) => "A piece bears off with any throw that takes it past the last square.".into(),
            (Key::PassExtra(forced), Setting::Bool(keeps)) => format!(
                "A {} pass {} a pending extra throw.",
                if *forced { "forced" } else { "voluntary" },
                if *keeps { "keeps" } else { "loses" }
            ),
            (Key::BoundThrow, Setting::Bool(true)) => "A bound extra throw that the piece cannot use ends the turn.".into(),
            (Key::BoundThrow, _) => "A bound extra throw that the piece cannot use is passed; the turn goes on as its value allows.".into(),
            (Key::Score, Setting::Score(None)) => "The game is not scored.".into(),
            (Key::Score, Setting::Score(Some(ws))) => format!(
                "The winner scores, for each opposing piece left on the board, by row from the start of the track: {}.",
                ws.iter().enumerate().map(|(r, w)| format!("row {} {w}", r + 1)).collect::<Vec<_>>().join(", ")
            ),
            _ => continue,
        };
        out.push((text, c));
    }
    flush(&mut group, &mut out);
    out
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
                DeclKind::StartThrow(v) => ("a first move with", vec![v]),
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
                (_, Setting::Landing(r, fb)) => {
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
                    Effect::HitSendsTo(s) | Effect::DivertTo(s) | Effect::OvershootTo(s) => {
                        one(s, used)
                    }
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
                DropTarget::At { kind, .. } => assert_eq!(kind.as_deref(), Some(words)),
                other => panic!("{words}: {other:?}"),
            }
        }
        let named: std::collections::BTreeSet<Key> = DROP_NAMED.iter().map(|&(_, k)| k).collect();
        assert_eq!(named.len(), DROP_NAMED.len(), "two words for one key");
    }
}
