//! The SGN reader: text → spanned [`syntax`](super::syntax) tree, one game
//! at a time.
//!
//! Stage: the first of the notation layer. It knows the shape of SGN 1
//! (docs/sgn.md, normative grammar in `grammar/sgn.pest`) and nothing of the
//! rules: it hands each [`Game`] on to the replay, or a [`SyntaxError`].
//!
//! Two front ends share one hand-written parser (a byte scanner, much faster
//! than the pest grammar, which a test keeps in agreement with it):
//! - [`Reader`] over a `&str` in memory;
//! - [`StreamReader`] over any `BufRead`, reading line by line and keeping
//!   only the game being read: memory is bounded by the largest game, not by
//!   the file. Spans stay offsets into the whole file, and
//!   [`StreamReader::source`] gives the text of the last game as a
//!   [`GameSource`] that diagnostics render with the file's line numbers.
//!
//! After a syntax error both skip to the next line that starts with `[` and
//! follows a blank line or a line ending in a result token, so that one
//! broken game does not hide the games after it.

use super::syntax::*;
use std::io::BufRead;

/// A record that does not have the shape of SGN 1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct SyntaxError {
    pub message: String,
    /// Where, as a byte range into the file.
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
    /// 1-based number of the game in its file.
    pub game: usize,
}

impl SyntaxError {
    /// What the error says beyond its message ([`Diagnostic`](crate::diag::Diagnostic)):
    /// its spans are offsets into the text that was read, which the caller
    /// has.
    fn parts(&self) -> crate::diag::Parts<'_> {
        crate::diag::Parts::new("senet::sgn::syntax")
            .label(self.span, &self.label)
            .help_if(self.help.as_ref())
    }
}

/// What a [`StreamReader`] can fail with.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    #[error("cannot read the file: {0}")]
    Io(#[from] std::io::Error),
}

impl ReadError {
    /// What the error says beyond its message: a syntax error's own.
    fn parts(&self) -> crate::diag::Parts<'_> {
        match self {
            ReadError::Syntax(e) => e.parts(),
            ReadError::Io(_) => crate::diag::Parts::new("senet::io"),
        }
    }
}

crate::diag::diagnostic_from_parts!(SyntaxError, ReadError);

/// The games of an in-memory SGN text, in order, with every syntax error in
/// its place: `Reader::new(text).games()`.
pub struct Reader<'a> {
    text: &'a str,
    pos: usize,
    /// Where the first line starts (after a BOM).
    line0: usize,
    index: usize,
    done: bool,
    trailing: Vec<Escape>,
    /// Room for nodes in the next game.
    hint: usize,
}

impl<'a> Reader<'a> {
    pub fn new(text: &'a str) -> Reader<'a> {
        let line0 = if text.starts_with('\u{feff}') { 3 } else { 0 };
        Reader {
            text,
            pos: line0,
            line0,
            index: 0,
            done: false,
            trailing: Vec::new(),
            hint: 64,
        }
    }

    /// The games, each a `Result` (the reader goes on after an error).
    pub fn games(self) -> Reader<'a> {
        self
    }

    /// Escape lines after the last game (known once the games are read).
    pub fn trailing(&self) -> &[Escape] {
        &self.trailing
    }
}

impl Iterator for Reader<'_> {
    type Item = Result<Game, SyntaxError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let mut p = Parser::new(self.text, self.pos, 0, self.line0, true, self.index + 1);
        p.hint = self.hint;
        match p.game() {
            Ok(Some(game)) => {
                self.index += 1;
                self.pos = p.i;
                self.hint = node_hint(&game);
                Some(Ok(game))
            }
            Ok(None) => {
                self.done = true;
                self.trailing = p.trailing;
                None
            }
            Err(Fail::Incomplete) => {
                unreachable!("a reader at the end of its input is never incomplete")
            }
            Err(Fail::Syntax(e)) => {
                self.index += 1;
                match resume_after(self.text.as_bytes(), e.span.start, self.pos) {
                    Some(r) => self.pos = r,
                    None => self.done = true,
                }
                Some(Err(*e))
            }
        }
    }
}

/// Room for the nodes of the next game: games in one file tend to be alike.
fn node_hint(game: &Game) -> usize {
    (game.nodes.len() + game.nodes.len() / 4).clamp(16, 4096)
}

/// Every game and every syntax error of a text.
pub fn read_all(text: &str) -> (Vec<Game>, Vec<SyntaxError>) {
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for g in Reader::new(text) {
        match g {
            Ok(g) => games.push(g),
            Err(e) => errors.push(e),
        }
    }
    (games, errors)
}

/// The text one game was read from, with its place in the file, so that
/// diagnostics with file-wide spans render with the file's line numbers
/// without the whole file in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSource {
    /// Starts at the beginning of a line.
    pub text: String,
    /// File offset of `text[0]`.
    pub offset: usize,
    /// 0-based line number of `text`'s first line.
    pub line: usize,
}

impl GameSource {
    /// 1-based line and column in the file of a file offset inside this
    /// game's text.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let local = offset.saturating_sub(self.offset).min(self.text.len());
        let (line, col) = crate::diag::line_col(&self.text, local);
        (line + self.line, col)
    }
}

/// Reads games from a `BufRead` line by line, keeping one game in memory.
///
/// ```
/// use senet::notation::reader::StreamReader;
/// let text = "[Rules \"bga\"]\n\n1. 2:9-11\n*\n\n[Rules \"bga\"]\n\n1. 3:9-12\n1-0\n";
/// let mut r = StreamReader::new(text.as_bytes());
/// let mut n = 0;
/// while let Some(game) = r.next_game() {
///     assert_eq!(game.unwrap().nodes.len(), 2);
///     n += 1;
/// }
/// assert_eq!(n, 2);
/// ```
pub struct StreamReader<R> {
    input: R,
    /// Whole lines of the input from file offset `base` on.
    buf: String,
    /// Bytes read after the last line end: the start of a line still coming.
    partial: Vec<u8>,
    /// Where the next game starts in `buf`.
    pos: usize,
    base: usize,
    /// Newlines before `buf[0]`.
    base_line: usize,
    eof: bool,
    started: bool,
    /// `buf` may hold a whole game from `pos` on: try before reading more.
    try_parse: bool,
    /// After an incomplete try, read at least this much before the next.
    want: usize,
    /// How much to read at once, at least.
    chunk: usize,
    index: usize,
    done: bool,
    /// `buf[last.0..last.1]` is the text of the game last returned.
    last: (usize, usize),
    last_error_source: Option<GameSource>,
    trailing: Vec<Escape>,
    /// Room for nodes in the next game.
    hint: usize,
    /// `(i, newlines in buf[..i])` from the last count.
    line_cache: std::cell::Cell<(usize, usize)>,
    /// Buffers of a game handed back with [`StreamReader::recycle`], reused
    /// for the next game instead of allocating new ones.
    spare: Spare,
    /// File offsets of bytes that are not UTF-8 (the first of each line),
    /// in the text not yet handed on.
    bad: Vec<usize>,
    /// The most bytes one game may take ([`StreamReader::with_max_game`]).
    max_game: usize,
    /// Discarding the rest of a game over `max_game`, up to the next line
    /// where a game can start.
    skip: Option<Skip>,
}

/// Where a [`StreamReader`] is in the lines it discards: the same rule as
/// [`resume_after`], a byte at a time.
#[derive(Default)]
struct Skip {
    /// The line before this one is blank or ends with a result token.
    prev_ok: bool,
    at_line_start: bool,
    /// This line has more than blank space.
    content: bool,
    /// The last bytes of this line (a result token is at most 7).
    tail: Vec<u8>,
}

impl Skip {
    /// The index of the first byte of `b` where a game can start: a `[` at
    /// the start of a line after a blank line or a result.
    fn scan(&mut self, b: &[u8]) -> Option<usize> {
        for (i, &c) in b.iter().enumerate() {
            if self.at_line_start && c == b'[' && self.prev_ok {
                return Some(i);
            }
            if c == b'\n' {
                self.prev_ok = !self.content || ends_with_result(&self.tail);
                self.at_line_start = true;
                self.content = false;
                self.tail.clear();
            } else {
                self.at_line_start = false;
                if !is_ws(c) {
                    self.content = true;
                }
                if self.tail.len() == 8 {
                    self.tail.remove(0);
                }
                self.tail.push(c);
            }
        }
        None
    }
}

/// The buffers of a finished game, kept for the next one.
#[derive(Default)]
struct Spare {
    /// Still holding the old game's nodes.
    nodes: Vec<Node>,
    tags: Vec<Tag>,
}

/// The nodes of one line being read: the first `n` of `v` are this line's,
/// any after them are left over from an earlier game and are written over
/// (or cut off at the end) rather than dropped one by one beforehand.
struct Nodes<'x> {
    v: &'x mut Vec<Node>,
    n: usize,
}

// `Nodes::push` forgets these variants' values: they must own nothing.
const _: () = assert!(!std::mem::needs_drop::<UnitSyntax>());

impl<'x> Nodes<'x> {
    fn new(v: &'x mut Vec<Node>) -> Nodes<'x> {
        Nodes { v, n: 0 }
    }
    #[inline]
    fn push(&mut self, node: Node) {
        match self.v.get_mut(self.n) {
            Some(slot) => {
                let old = std::mem::replace(slot, node);
                // Most nodes own nothing on the heap: forgetting one frees
                // nothing and skips its drop glue, a call per node.
                if matches!(
                    old,
                    Node::Unit(_) | Node::TurnNumber { .. } | Node::Nag { .. }
                ) {
                    std::mem::forget(old);
                }
            }
            None => self.v.push(node),
        }
        self.n += 1;
    }
    fn is_empty(&self) -> bool {
        self.n == 0
    }
    /// Drops the leftovers: `v` is then exactly this line's nodes.
    fn finish(self) {
        self.v.truncate(self.n);
    }
}

/// How much a [`StreamReader`] reads at once, at least.
const CHUNK: usize = 1 << 16;

impl<R: BufRead> StreamReader<R> {
    pub fn new(input: R) -> StreamReader<R> {
        StreamReader {
            input,
            buf: String::with_capacity(2 * CHUNK),
            partial: Vec::new(),
            pos: 0,
            base: 0,
            base_line: 0,
            eof: false,
            started: false,
            try_parse: false,
            want: CHUNK,
            chunk: CHUNK,
            index: 0,
            done: false,
            last: (0, 0),
            last_error_source: None,
            trailing: Vec::new(),
            hint: 64,
            line_cache: std::cell::Cell::new((0, 0)),
            spare: Spare::default(),
            bad: Vec::new(),
            max_game: usize::MAX,
            skip: None,
        }
    }

    /// A reader that reads `chunk` bytes at least at a time (tests use tiny
    /// chunks to reach every path of the buffering).
    #[doc(hidden)]
    pub fn with_chunk(input: R, chunk: usize) -> StreamReader<R> {
        let mut r = StreamReader::new(input);
        r.chunk = chunk.max(1);
        r.want = r.chunk;
        r
    }

    /// Escape lines after the last game (known once the games are read).
    pub fn trailing(&self) -> &[Escape] {
        &self.trailing
    }

    /// A reader that refuses a game longer than `bytes`: that game is an
    /// error, its text is discarded as it is read, and reading resumes at
    /// the next game. Memory then stays bounded by a few times `bytes`
    /// whatever the input.
    pub fn with_max_game(mut self, bytes: usize) -> StreamReader<R> {
        self.max_game = bytes.max(1);
        self
    }

    /// The text of the game (or the broken part) last returned, for
    /// rendering its diagnostics.
    pub fn source(&self) -> GameSource {
        if let Some(s) = &self.last_error_source {
            return s.clone();
        }
        let (a, b) = self.last;
        let a = context_start(self.buf.as_bytes(), a);
        GameSource {
            text: self.buf[a..b].to_string(),
            offset: self.base + a,
            line: self.base_line + self.lines_before(a),
        }
    }

    /// [`StreamReader::source`] into `dst`, reusing its text's allocation.
    pub fn source_into(&self, dst: &mut GameSource) {
        if let Some(s) = &self.last_error_source {
            dst.clone_from(s);
            return;
        }
        let (a, b) = self.last;
        let a = context_start(self.buf.as_bytes(), a);
        dst.text.clear();
        dst.text.push_str(&self.buf[a..b]);
        dst.offset = self.base + a;
        dst.line = self.base_line + self.lines_before(a);
    }

    /// Hands back a game this reader returned, once it is no longer needed:
    /// its node and tag buffers (and the tags' strings) serve the next game,
    /// which then allocates next to nothing.
    pub fn recycle(&mut self, game: Game) {
        // The nodes are not cleared here: the next game writes over them
        // (see `Nodes`), which costs less than dropping each one first.
        self.spare = Spare {
            nodes: game.nodes,
            tags: game.tags,
        };
    }

    /// Newlines in `buf[..i]`, counted on from the last call: games are
    /// read in order, so each byte is counted about once.
    fn lines_before(&self, i: usize) -> usize {
        let (at, n) = self.line_cache.get();
        let bytes = self.buf.as_bytes();
        let n = if i >= at {
            n + count_lines(&bytes[at..i])
        } else {
            count_lines(&bytes[..i])
        };
        self.line_cache.set((i, n));
        n
    }

    /// Drops the text before the line where the next game starts.
    fn compact(&mut self) {
        let cut = context_start(self.buf.as_bytes(), self.pos);
        if cut > 0 {
            self.base_line += self.lines_before(cut);
            self.line_cache.set((0, 0));
            self.base += cut;
            self.buf.drain(..cut);
            self.pos -= cut;
            self.last = (0, 0);
        }
    }

    /// Appends at least `want` bytes of whole lines to the buffer (less at
    /// the end of the input).
    fn fill(&mut self) -> std::io::Result<()> {
        self.compact();
        let goal = self.buf.len() + self.want;
        while self.buf.len() < goal && !self.eof {
            if let Some(skip) = &mut self.skip {
                let chunk = self.input.fill_buf()?;
                if chunk.is_empty() {
                    self.eof = true;
                    self.skip = None;
                    break;
                }
                let n = match skip.scan(chunk) {
                    Some(k) => {
                        self.skip = None;
                        k
                    }
                    None => chunk.len(),
                };
                self.base += n;
                self.base_line += count_lines(&chunk[..n]);
                self.input.consume(n);
                continue;
            }
            if self.partial.len() > self.max_game {
                // One line longer than a game may be: next_game refuses it.
                break;
            }
            let chunk = self.input.fill_buf()?;
            if chunk.is_empty() {
                self.eof = true;
                let rest = std::mem::take(&mut self.partial);
                self.push_lines(&rest)?;
                break;
            }
            let n = chunk.len();
            match chunk.iter().rposition(|&c| c == b'\n') {
                Some(p) if self.partial.is_empty() => {
                    let (lines, rest) = chunk.split_at(p + 1);
                    let rest = rest.to_vec();
                    Self::push_bytes(
                        &mut self.buf,
                        &mut self.base,
                        &mut self.started,
                        &mut self.bad,
                        lines,
                    );
                    self.partial = rest;
                }
                Some(p) => {
                    self.partial.extend_from_slice(&chunk[..p + 1]);
                    let rest = chunk[p + 1..].to_vec();
                    let lines = std::mem::replace(&mut self.partial, rest);
                    self.push_lines(&lines)?;
                }
                None => self.partial.extend_from_slice(chunk),
            }
            self.input.consume(n);
        }
        self.try_parse = true;
        Ok(())
    }

    fn push_lines(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        Self::push_bytes(
            &mut self.buf,
            &mut self.base,
            &mut self.started,
            &mut self.bad,
            bytes,
        );
        Ok(())
    }

    /// Appends whole lines. Bytes that are not UTF-8 become NULs (so that
    /// every offset stays the file's) and the first of each line is noted
    /// in `bad`: the game that holds it is reported, not the whole file.
    fn push_bytes(
        buf: &mut String,
        base: &mut usize,
        started: &mut bool,
        bad: &mut Vec<usize>,
        bytes: &[u8],
    ) {
        let mut rest = bytes;
        let at = *base + buf.len();
        let mut text = String::new();
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) if text.is_empty() => return Self::push_str(buf, base, started, s),
                Ok(s) => {
                    text.push_str(s);
                    break;
                }
                Err(e) => {
                    let ok = e.valid_up_to();
                    let (good, after) = rest.split_at(ok);
                    text.push_str(std::str::from_utf8(good).expect("valid up to here"));
                    let off = at + (bytes.len() - rest.len()) + ok;
                    let line_start = at + bytes.len() - rest.len()
                        + good.iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
                    if bad.last().is_none_or(|&b| b < line_start) {
                        bad.push(off);
                    }
                    let n = e.error_len().unwrap_or(after.len());
                    text.extend(std::iter::repeat_n('\0', n));
                    rest = &after[n..];
                }
            }
        }
        Self::push_str(buf, base, started, &text);
    }

    fn push_str(buf: &mut String, base: &mut usize, started: &mut bool, mut s: &str) {
        if !*started && !s.is_empty() {
            *started = true;
            if let Some(rest) = s.strip_prefix('\u{feff}') {
                s = rest;
                *base += 3;
            }
        }
        buf.push_str(s);
    }

    /// The next game, or `None` at the end of the input.
    pub fn next_game(&mut self) -> Option<Result<Game, ReadError>> {
        if self.done {
            return None;
        }
        self.last_error_source = None;
        loop {
            if self.try_parse {
                let mut p = Parser::new(
                    &self.buf,
                    self.pos,
                    self.base,
                    usize::MAX,
                    self.eof,
                    self.index + 1,
                );
                p.hint = self.hint;
                p.spare = std::mem::take(&mut self.spare);
                let got = p.game();
                self.spare = std::mem::take(&mut p.spare);
                let start = self.base + self.pos;
                match got {
                    Ok(Some(game)) => {
                        self.index += 1;
                        self.hint = node_hint(&game);
                        self.last = (self.pos, p.i);
                        self.pos = p.i;
                        self.want = self.chunk;
                        if let Some(e) = self.not_utf8(start, self.base + self.pos) {
                            self.recycle(game);
                            return Some(Err(e.into()));
                        }
                        return Some(Ok(game));
                    }
                    Ok(None) => {
                        self.done = true;
                        self.trailing = p.trailing;
                        return None;
                    }
                    Err(Fail::Incomplete)
                        if self.buf.len() - self.pos + self.partial.len() > self.max_game =>
                    {
                        self.index += 1;
                        return Some(Err(self.oversize().into()));
                    }
                    Err(Fail::Incomplete) => {
                        // Read as much again as the game so far before the
                        // next try: a large game is parsed O(log n) times.
                        self.try_parse = false;
                        self.want = self.chunk.max(self.buf.len() - self.pos);
                    }
                    Err(Fail::Syntax(mut e)) => {
                        self.index += 1;
                        if let Some(u) = self.not_utf8(start, e.span.end.max(e.span.start + 1)) {
                            *e = u;
                        }
                        if let Err(io) = self.recover(&e) {
                            self.done = true;
                            return Some(Err(io.into()));
                        }
                        return Some(Err((*e).into()));
                    }
                }
            }
            if let Err(e) = self.fill() {
                self.done = true;
                return Some(Err(e.into()));
            }
        }
    }

    /// The error for a game over `max_game`, with the start of its text
    /// kept for the diagnostic; the rest of the game is dropped and then
    /// discarded as it is read (see `Skip`).
    fn oversize(&mut self) -> SyntaxError {
        let bytes = self.buf.as_bytes();
        let gs = self.pos + bytes[self.pos..].iter().take_while(|&&c| is_ws(c)).count();
        let e = SyntaxError {
            message: format!(
                "this game is longer than {} bytes, the most a game may take",
                self.max_game
            ),
            span: Span::new(self.base + gs, self.base + gs + 1),
            label: "the game starts here".to_string(),
            help: Some(
                "split the record into games, or raise the limit with --max-game-bytes".to_string(),
            ),
            game: self.index,
        };
        // The lines a diagnostic shows, each cut short: enough to render.
        let a = context_start(bytes, gs);
        let mut b = line_end(bytes, line_end(bytes, gs.min(bytes.len()))).min(gs + 4096);
        while !self.buf.is_char_boundary(b) {
            b -= 1;
        }
        self.last_error_source = Some(GameSource {
            text: self.buf[a..b].to_string(),
            offset: self.base + a,
            line: self.base_line + self.lines_before(a),
        });
        // Everything from the game on is dropped; discarding goes on after
        // its first line (which cannot start the next game).
        let mut rest = bytes[gs..].to_vec();
        rest.extend_from_slice(&std::mem::take(&mut self.partial));
        let at = self.base + gs;
        self.base_line += self.lines_before(gs);
        self.buf.clear();
        self.pos = 0;
        self.last = (0, 0);
        self.line_cache.set((0, 0));
        self.try_parse = true;
        self.want = self.chunk;
        let mut skip = Skip::default();
        let resume = match rest.iter().position(|&c| c == b'\n') {
            None => None,
            Some(nl) => {
                skip.prev_ok = line_ends_game(&rest[..nl]);
                skip.at_line_start = true;
                skip.scan(&rest[nl + 1..]).map(|k| nl + 1 + k)
            }
        };
        let k = match resume {
            Some(k) => k,
            None => {
                if rest.last() != Some(&b'\n') {
                    skip.at_line_start = false;
                    skip.content = true;
                }
                self.skip = Some(skip);
                rest.len()
            }
        };
        self.base = at + k;
        self.base_line += count_lines(&rest[..k]);
        let kept = &rest[k..];
        let whole = kept.iter().rposition(|&c| c == b'\n').map_or(0, |p| p + 1);
        Self::push_bytes(
            &mut self.buf,
            &mut self.base,
            &mut self.started,
            &mut self.bad,
            &kept[..whole],
        );
        self.partial = kept[whole..].to_vec();
        if self.eof {
            let rest = std::mem::take(&mut self.partial);
            Self::push_bytes(
                &mut self.buf,
                &mut self.base,
                &mut self.started,
                &mut self.bad,
                &rest,
            );
        }
        e
    }

    /// The error for the first byte in `start..end` that is not UTF-8, if
    /// any; the offsets before `start` are forgotten (their game is done).
    fn not_utf8(&mut self, start: usize, end: usize) -> Option<SyntaxError> {
        if self.bad.is_empty() {
            return None;
        }
        self.bad.retain(|&b| b >= start);
        let &at = self.bad.first().filter(|&&b| b < end)?;
        Some(SyntaxError {
            message: format!("byte {at} of the file is not part of a UTF-8 character"),
            span: Span::new(at, at + 1),
            label: "not UTF-8".to_string(),
            help: Some("an SGN file is UTF-8 text: save the record as UTF-8".to_string()),
            game: self.index,
        })
    }

    /// Keeps the text of the broken game for [`StreamReader::source`], then
    /// skips to where the next game can start.
    fn recover(&mut self, e: &SyntaxError) -> std::io::Result<()> {
        // The source shown with the error has the lines after it that a
        // diagnostic shows as context, as when rendered from the whole file.
        while !self.eof {
            let end = e.span.end.saturating_sub(self.base).min(self.buf.len());
            if count_lines(&self.buf.as_bytes()[end..]) >= 3 {
                break;
            }
            self.want = self.chunk;
            self.fill()?;
        }
        let bytes = self.buf.as_bytes();
        let local = e.span.start.saturating_sub(self.base).min(bytes.len());
        let a = context_start(bytes, self.pos);
        let end = local
            .max(e.span.end.saturating_sub(self.base))
            .min(bytes.len());
        let b = line_end(bytes, line_end(bytes, line_end(bytes, end)));
        self.last_error_source = Some(GameSource {
            text: self.buf[a..b].to_string(),
            offset: self.base + a,
            line: self.base_line + self.lines_before(a),
        });
        let (mut from, mut start) = (local, self.pos);
        loop {
            if let Some(r) = resume_after(self.buf.as_bytes(), from, start) {
                self.pos = r;
                self.try_parse = true;
                self.want = self.chunk;
                return Ok(());
            }
            if self.eof {
                self.done = true;
                return Ok(());
            }
            // Keep only the last whole line (it decides whether a `[` on
            // the next one starts a game), then read on.
            let bytes = self.buf.as_bytes();
            let end = if bytes.ends_with(b"\n") {
                bytes.len() - 1
            } else {
                bytes.len()
            };
            self.pos = line_start(bytes, end);
            self.want = self.chunk;
            self.fill()?;
            (from, start) = (0, 0);
        }
    }
}

impl<R: BufRead> Iterator for StreamReader<R> {
    type Item = Result<Game, ReadError>;
    fn next(&mut self) -> Option<Self::Item> {
        self.next_game()
    }
}

/// Newlines in `b`, counted a block at a time so that the count
/// vectorises (the streaming reader counts every byte it drops).
fn count_lines(b: &[u8]) -> usize {
    b.chunks(255)
        .map(|block| block.iter().fold(0u8, |n, &c| n + (c == b'\n') as u8) as usize)
        .sum()
}

fn line_start(b: &[u8], i: usize) -> usize {
    b[..i]
        .iter()
        .rposition(|&c| c == b'\n')
        .map_or(0, |p| p + 1)
}

/// The start of the line before the one holding `i` (the context a
/// diagnostic shows above its first line), or of that line at the start.
fn context_start(b: &[u8], i: usize) -> usize {
    let ls = line_start(b, i);
    if ls == 0 { 0 } else { line_start(b, ls - 1) }
}

fn line_end(b: &[u8], i: usize) -> usize {
    b[i..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| i + p + 1)
}

/// `s` without ASCII blank space at either end.
/// `s` with every line end written as LF: a run of carriage returns just
/// before an LF is part of that line end (CRLF, CR CR LF), so `fmt`, which
/// writes LF, gives text that reads back the same. A CR elsewhere is kept.
fn lf_line_ends(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut crs = 0;
    for c in s.chars() {
        match c {
            '\r' => crs += 1,
            '\n' => {
                crs = 0;
                out.push('\n');
            }
            _ => {
                out.extend(std::iter::repeat_n('\r', crs));
                crs = 0;
                out.push(c);
            }
        }
    }
    out.extend(std::iter::repeat_n('\r', crs));
    out
}

fn trim_blank(s: &str) -> &str {
    let b = s.as_bytes();
    let a = b.iter().position(|&c| !is_ws(c)).unwrap_or(b.len());
    let e = b.iter().rposition(|&c| !is_ws(c)).map_or(a, |p| p + 1);
    // Both ends are next to ASCII bytes: char boundaries.
    &s[a..e]
}

/// Byte classes, looked up rather than compared: blank space, and what
/// may follow a token directly.
const WS: u8 = 1;
const BOUNDARY: u8 = 2;
static CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let blank = [b' ', b'\t', b'\r', b'\n'];
    let mut k = 0;
    while k < blank.len() {
        t[blank[k] as usize] = WS | BOUNDARY;
        k += 1;
    }
    let after = [b'{', b'(', b')', b';', b'$'];
    k = 0;
    while k < after.len() {
        t[after[k] as usize] = BOUNDARY;
        k += 1;
    }
    t
};

#[inline]
fn is_ws(c: u8) -> bool {
    CLASS[c as usize] & WS != 0
}

/// Whether a line (without or with its line end) is blank or ends with a
/// result token: after such a line a `[` starts a new game.
fn line_ends_game(line: &[u8]) -> bool {
    let t = line.trim_ascii_end();
    t.is_empty() || ends_with_result(t)
}

/// Whether the line's last token is a result token.
fn ends_with_result(line: &[u8]) -> bool {
    let t = line.trim_ascii_end();
    let tok = if t.ends_with(b"1/2-1/2") {
        7
    } else if t.ends_with(b"1-0") || t.ends_with(b"0-1") {
        3
    } else if t.ends_with(b"*") {
        1
    } else {
        return false;
    };
    t.len() == tok || is_ws(t[t.len() - tok - 1]) || matches!(t[t.len() - tok - 1], b'}' | b')')
}

/// Where reading resumes after an error at `err` in a game that started at
/// `game_start`: the first line starting with `[` after a blank line or a
/// line ending with a result token. The error's own line counts when the
/// error is at its `[` (a game without a result token, then the next game).
fn resume_after(b: &[u8], err: usize, game_start: usize) -> Option<usize> {
    let err = err.min(b.len());
    let mut ls = line_start(b, err);
    let mut prev_ok = ls == 0 || line_ends_game(&b[line_start(b, ls - 1)..ls]);
    if !(ls > game_start && err == ls && b.get(ls) == Some(&b'[') && prev_ok) {
        let le = line_end(b, ls);
        prev_ok = line_ends_game(&b[ls..le]);
        ls = le;
    }
    while ls < b.len() {
        let le = line_end(b, ls);
        if prev_ok && b[ls] == b'[' && ls > game_start {
            return Some(ls);
        }
        prev_ok = line_ends_game(&b[ls..le]);
        ls = le;
    }
    None
}

enum Fail {
    Syntax(Box<SyntaxError>),
    /// The buffer ends before the game does: read more and try again.
    Incomplete,
}

impl From<SyntaxError> for Fail {
    fn from(e: SyntaxError) -> Fail {
        Fail::Syntax(Box::new(e))
    }
}

type PResult<T> = Result<T, Fail>;

/// The hand-written parser over a buffer of whole lines.
struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
    /// File offset of `b[0]`.
    base: usize,
    /// An index that counts as a line start besides those after `\n`.
    line0: usize,
    /// The buffer ends where the input does.
    eof: bool,
    game: usize,
    trailing: Vec<Escape>,
    /// Room for this many nodes at first (the size of the last game).
    hint: usize,
    /// Buffers to reuse (from [`StreamReader::recycle`]).
    spare: Spare,
    /// Variations open around the movetext being read.
    depth: usize,
}

/// The deepest nesting of variations a record may have. Each level is a
/// frame of the reader, the replay and the writer: a limit keeps a hostile
/// record from overflowing the stack, and no record written by people
/// comes near it.
pub const MAX_VARIATION_DEPTH: usize = 100;

const UNIT_HELP: &str = "a unit is a throw, `:` and what was done with it: `3:12-15`, `4+:9x13`, `2:29-off`, `2:25-27=15`, `3:pass`, `1:hand-1`, `5:12-14:20-23`; or `skip`, or `--` for an illegible unit";
const RESULT_HELP: &str = "every game ends with its result: `1-0` (White won), `0-1` (Black won), `1/2-1/2` (drawn) or `*` (unfinished or unknown)";

/// The commands SGN 1 defines.
const KNOWN_COMMANDS: [&str; 6] = ["pos", "src", "conf", "rule", "played-illegal", "eval"];

/// Whether `c` may follow a token (a unit, NAG or result) directly.
#[inline]
fn is_boundary(c: Option<&u8>) -> bool {
    match c {
        None => true,
        Some(&c) => CLASS[c as usize] & BOUNDARY != 0,
    }
}

/// What ends a stretch of movetext.
enum End {
    Result(ResultToken, Span),
    Close(Span),
}

impl<'a> Parser<'a> {
    fn new(s: &'a str, i: usize, base: usize, line0: usize, eof: bool, game: usize) -> Parser<'a> {
        Parser {
            s,
            b: s.as_bytes(),
            i,
            base,
            line0,
            eof,
            game,
            trailing: Vec::new(),
            hint: 64,
            spare: Spare::default(),
            depth: 0,
        }
    }

    fn span(&self, a: usize, b: usize) -> Span {
        Span::new(self.base + a, self.base + b)
    }

    #[inline]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline]
    fn at(&self, j: usize) -> u8 {
        self.b.get(j).copied().unwrap_or(0)
    }

    fn line_start(&self, j: usize) -> bool {
        j == 0 || j == self.line0 || self.b[j - 1] == b'\n'
    }

    #[cold]
    #[inline(never)]
    fn error(
        &self,
        a: usize,
        b: usize,
        message: impl Into<String>,
        label: impl Into<String>,
        help: Option<&str>,
    ) -> Fail {
        let b = b.max(a);
        // A character that looks like the ASCII SGN wants (an en dash for
        // `-`): the message names it by code point and the span is that
        // character alone.
        if let Some((at, l)) = super::lookalike::first_in(self.s.get(a..b).unwrap_or("")) {
            let at = a + at;
            return Fail::Syntax(Box::new(SyntaxError {
                message: if l.ascii.trim().is_empty() {
                    format!(
                        "{}: the space there is {}, not a plain space",
                        message.into(),
                        super::lookalike::describe(l),
                    )
                } else {
                    format!(
                        "{}: `{}` is {}, not `{}`",
                        message.into(),
                        l.ch,
                        super::lookalike::describe(l),
                        l.ascii,
                    )
                },
                span: self.span(at, at + l.ch.len_utf8()),
                label: super::lookalike::describe(l),
                help: Some(super::lookalike::help(l)),
                game: self.game,
            }));
        }
        Fail::Syntax(Box::new(SyntaxError {
            message: message.into(),
            span: self.span(a, b),
            label: label.into(),
            help: help.map(str::to_string),
            game: self.game,
        }))
    }

    /// The token at `j`, for messages: up to the next space or delimiter.
    #[cold]
    fn found(&self, j: usize) -> (usize, String) {
        if j >= self.b.len() {
            return (j, "the end of the file".to_string());
        }
        let mut e = j;
        while e < self.b.len()
            && !is_ws(self.b[e])
            && !(e > j && matches!(self.b[e], b'{' | b'(' | b')' | b';' | b']' | b'}'))
        {
            e += 1;
            if e - j >= 24 {
                break;
            }
        }
        while !self.s.is_char_boundary(e) {
            e += 1;
        }
        if e == j {
            let what = match self.b[j] {
                b'\n' | b'\r' => "a line end".to_string(),
                b' ' => "a space".to_string(),
                b'\t' => "a tab".to_string(),
                c => format!("`{}`", c as char),
            };
            return (j + 1, what);
        }
        (e, format!("`{}`", &self.s[j..e]))
    }

    #[cold]
    #[inline(never)]
    fn expected(&self, j: usize, what: &str, help: Option<&str>) -> Fail {
        let (e, found) = self.found(j);
        self.error(
            j,
            e,
            format!("expected {what}, found {found}"),
            format!("expected {what}"),
            help,
        )
    }

    #[inline]
    fn skip_ws(&mut self) {
        let mut i = self.i;
        while i < self.b.len() && is_ws(self.b[i]) {
            i += 1;
        }
        self.i = i;
    }

    /// The next game, `None` when only blank space and escapes remain.
    fn game(&mut self) -> PResult<Option<Game>> {
        let mut leading = Vec::new();
        loop {
            self.skip_ws();
            match self.peek() {
                None if self.eof => {
                    self.trailing = leading;
                    return Ok(None);
                }
                None => return Err(Fail::Incomplete),
                Some(b'%') if self.line_start(self.i) => leading.push(self.escape()?),
                Some(_) => break,
            }
        }
        let start = self.i;
        // The last game's tags, overwritten in place: their strings are reused.
        let mut tags = std::mem::take(&mut self.spare.tags);
        let mut k = 0;
        loop {
            match self.peek() {
                Some(b'[') => {
                    self.tag(&mut tags, k)?;
                    k += 1;
                }
                Some(b'%') if self.line_start(self.i) => leading.push(self.escape()?),
                _ => break,
            }
            self.skip_ws();
        }
        tags.truncate(k);
        let mut intro = Vec::new();
        let mut nodes = std::mem::take(&mut self.spare.nodes);
        nodes.reserve(self.hint.saturating_sub(nodes.len()));
        let mut out = Nodes::new(&mut nodes);
        let End::Result(result, result_span) =
            self.movetext(&mut out, Some((&mut intro, &mut leading)), None)?
        else {
            unreachable!("top-level movetext ends with a result")
        };
        out.finish();
        Ok(Some(Game {
            index: self.game,
            leading,
            tags,
            intro,
            nodes,
            result,
            result_span,
            span: Span::new(self.base + start, result_span.end),
        }))
    }

    fn escape(&mut self) -> PResult<Escape> {
        let st = self.i;
        let e = match self.s[st..].find('\n') {
            Some(p) => st + p,
            None if self.eof => self.b.len(),
            None => return Err(Fail::Incomplete),
        };
        self.i = e;
        // Carriage returns before the line end belong to it (CRLF, and
        // the CR CR LF some converters write): the line keeps none.
        let mut end = e;
        while end > st + 1 && self.b[end - 1] == b'\r' {
            end -= 1;
        }
        Ok(Escape {
            line: self.s[st + 1..end].to_string(),
            span: self.span(st, end),
        })
    }

    /// `[Name "value"]`, written to `tags[k]` (reusing its strings) or
    /// pushed when `tags` has no `k`.
    fn tag(&mut self, tags: &mut Vec<Tag>, k: usize) -> PResult<()> {
        let st = self.i;
        let mut j = st + 1;
        while matches!(self.at(j), b' ' | b'\t') {
            j += 1;
        }
        let ns = j;
        if !self.at(j).is_ascii_alphabetic() {
            return Err(self.expected(
                j,
                "a tag name such as `Event` after `[`",
                Some("a tag is `[Name \"value\"]` on a line of its own"),
            ));
        }
        while self.at(j).is_ascii_alphanumeric() || self.at(j) == b'_' {
            j += 1;
        }
        let ne = j;
        let name = &self.s[ns..ne];
        while matches!(self.at(j), b' ' | b'\t') {
            j += 1;
        }
        if self.at(j) != b'"' || j == ne {
            return Err(self.expected(
                j,
                &format!("a space and a quoted value after the tag name `{name}`"),
                Some("a tag is `[Name \"value\"]`; write `\"?\"` for an unknown value"),
            ));
        }
        let vs = j + 1;
        j = vs;
        let mut owned: Option<String> = None;
        let mut run = vs;
        loop {
            match self.at(j) {
                b'"' => break,
                b'\\' => {
                    let c = self.at(j + 1);
                    if c != b'"' && c != b'\\' {
                        let (e, found) = self.found(j);
                        let _ = e;
                        return Err(self.error(
                            j,
                            j + 2,
                            format!("unknown escape in the value of tag `{name}`: {found}"),
                            "only `\\\"` and `\\\\` are escapes",
                            Some(
                                "write a quote inside a value as `\\\"` and a backslash as `\\\\`",
                            ),
                        ));
                    }
                    let o = owned.get_or_insert_with(String::new);
                    o.push_str(&self.s[run..j]);
                    o.push(c as char);
                    j += 2;
                    run = j;
                }
                b'\n' | b'\r' | 0 if j >= self.b.len() || self.b[j] != 0 => {
                    return Err(self.error(
                        vs - 1,
                        j,
                        format!("the value of tag `{name}` is not closed on its line"),
                        "this value has no closing `\"`",
                        Some("a tag value ends with `\"` on the same line; write a quote inside it as `\\\"`"),
                    ));
                }
                _ => j += 1,
            }
        }
        let ve = j;
        j += 1;
        while matches!(self.at(j), b' ' | b'\t') {
            j += 1;
        }
        if self.at(j) != b']' {
            return Err(self.expected(
                j,
                &format!("`]` after the value of tag `{name}`"),
                Some("a tag is `[Name \"value\"]`"),
            ));
        }
        self.i = j + 1;
        let (span, name_span, value_span) =
            (self.span(st, j + 1), self.span(ns, ne), self.span(vs, ve));
        let rest = &self.s[run..ve];
        match tags.get_mut(k) {
            Some(t) => {
                t.name.clear();
                t.name.push_str(name);
                match owned {
                    Some(mut o) => {
                        o.push_str(rest);
                        t.value = o;
                    }
                    None => {
                        t.value.clear();
                        t.value.push_str(rest);
                    }
                }
                t.span = span;
                t.name_span = name_span;
                t.value_span = value_span;
            }
            None => {
                let value = match owned {
                    Some(mut o) => {
                        o.push_str(rest);
                        o
                    }
                    None => rest.to_string(),
                };
                tags.push(Tag {
                    name: name.to_string(),
                    value,
                    span,
                    name_span,
                    value_span,
                });
            }
        }
        Ok(())
    }

    /// Movetext up to the result token (`top`) or the `)` closing the
    /// variation opened at `open`.
    #[allow(clippy::type_complexity)]
    fn movetext(
        &mut self,
        nodes: &mut Nodes<'_>,
        mut top: Option<(&mut Vec<Comment>, &mut Vec<Escape>)>,
        open: Option<usize>,
    ) -> PResult<End> {
        // A NAG or a variation may come next: a unit came before, and since
        // then only comments, NAGs, variations and escapes.
        let mut after_unit = false;
        let mut units = 0usize;
        loop {
            self.skip_ws();
            let Some(c) = self.peek() else {
                if !self.eof {
                    return Err(Fail::Incomplete);
                }
                return Err(match open {
                    Some(o) => self.error(
                        o,
                        o + 1,
                        "this variation is never closed with `)`",
                        "opened here",
                        Some("close each `(` with `)` before the game's result"),
                    ),
                    None => {
                        // Point at the game's last token: the end of the file
                        // itself has nothing to show.
                        let e = self.b[..self.i]
                            .iter()
                            .rposition(|&c| !is_ws(c))
                            .map_or(self.i, |p| p + 1);
                        let a = self.b[..e]
                            .iter()
                            .rposition(|&c| is_ws(c))
                            .map_or(0, |p| p + 1);
                        self.error(
                            a,
                            e,
                            "the file ends before the game's result token",
                            "expected `1-0`, `0-1`, `1/2-1/2` or `*` after this",
                            Some(RESULT_HELP),
                        )
                    }
                });
            };
            let st = self.i;
            match c {
                b'0'..=b'9' => {
                    if let Some((unit, end)) = self.common_unit() {
                        nodes.push(Node::Unit(unit));
                        self.i = end;
                        units += 1;
                        after_unit = true;
                        continue;
                    }
                    if let Some((number, black, end)) = self.common_turn_number() {
                        nodes.push(Node::TurnNumber {
                            number,
                            black,
                            span: self.span(st, end),
                        });
                        self.i = end;
                        after_unit = false;
                        continue;
                    }
                    let mut j = st;
                    while self.at(j).is_ascii_digit() {
                        j += 1;
                    }
                    if self.at(j) == b'.' {
                        nodes.push(self.turn_number(j)?);
                        after_unit = false;
                        continue;
                    }
                    if self.b[st..].starts_with(b"1/2-1/2") {
                        // The draw, as in PGN (an extension of SGN 1).
                        if !is_boundary(self.b.get(st + 7)) {
                            return Err(self.after_result(st, st + 7));
                        }
                        self.i = st + 7;
                        return self.result(ResultToken::Draw, st, open);
                    }
                    if j == st + 1 && self.at(j) == b'-' {
                        let r = match (c, self.at(j + 1)) {
                            (b'1', b'0') => Some(ResultToken::WhiteWins),
                            (b'0', b'1') => Some(ResultToken::BlackWins),
                            _ => None,
                        };
                        if let Some(r) = r {
                            if !is_boundary(self.b.get(j + 2)) {
                                return Err(self.after_result(st, j + 2));
                            }
                            self.i = j + 2;
                            return self.result(r, st, open);
                        }
                    }
                    self.push_unit(nodes)?;
                    units += 1;
                    after_unit = true;
                }
                b'_' | b's' | b'-' => {
                    self.push_unit(nodes)?;
                    units += 1;
                    after_unit = true;
                }
                b'*' => {
                    if !is_boundary(self.b.get(st + 1)) {
                        return Err(self.after_result(st, st + 1));
                    }
                    self.i = st + 1;
                    return self.result(ResultToken::Unknown, st, open);
                }
                b'{' | b';' => {
                    let comment = self.comment()?;
                    match &mut top {
                        Some((intro, _)) if nodes.is_empty() => intro.push(comment),
                        _ => nodes.push(Node::Comment(comment)),
                    }
                }
                b'(' => {
                    if !after_unit {
                        return Err(self.error(
                            st,
                            st + 1,
                            "a variation must follow a unit",
                            "no unit before this `(`",
                            Some("a variation `( … )` is an alternative to the unit before it: write it right after that unit"),
                        ));
                    }
                    if self.depth >= MAX_VARIATION_DEPTH {
                        return Err(self.error(
                            st,
                            st + 1,
                            format!(
                                "variations nest more than {MAX_VARIATION_DEPTH} levels deep"
                            ),
                            format!("level {} opens here", self.depth + 1),
                            Some("close some variations, or give the deepest ones a game of their own"),
                        ));
                    }
                    self.i += 1;
                    let mut inner = Vec::new();
                    let mut out = Nodes::new(&mut inner);
                    self.depth += 1;
                    let closed = self.movetext(&mut out, None, Some(st));
                    self.depth -= 1;
                    let End::Close(close) = closed? else {
                        unreachable!("a variation ends with `)`")
                    };
                    out.finish();
                    nodes.push(Node::Variation(Variation {
                        nodes: inner,
                        span: Span::new(self.base + st, close.end),
                    }));
                }
                b')' => {
                    let Some(o) = open else {
                        return Err(self.error(
                            st,
                            st + 1,
                            "`)` without a `(` before it",
                            "unmatched `)`",
                            None,
                        ));
                    };
                    if units == 0 {
                        return Err(self.error(
                            o,
                            st + 1,
                            "a variation needs at least one unit",
                            "empty variation",
                            Some("write the alternative units between `(` and `)`, e.g. `( 3:8-11 )`"),
                        ));
                    }
                    self.i = st + 1;
                    return Ok(End::Close(self.span(st, st + 1)));
                }
                b'$' => {
                    let mut j = st + 1;
                    while self.at(j).is_ascii_digit() && j - st <= 3 {
                        j += 1;
                    }
                    if j == st + 1 || !is_boundary(self.b.get(j)) {
                        return Err(self.expected(
                            st,
                            "a NAG such as `$1` (a number of one to three digits after `$`)",
                            None,
                        ));
                    }
                    if !after_unit {
                        return Err(self.error(
                            st,
                            j,
                            "a NAG must follow a unit",
                            "no unit before this NAG",
                            Some("a NAG such as `$1` annotates the unit before it"),
                        ));
                    }
                    let n = self.s[st + 1..j].parse().unwrap_or(0); // grammar: 1..=3 digits
                    nodes.push(Node::Nag {
                        n,
                        span: self.span(st, j),
                    });
                    self.i = j;
                }
                b'%' if self.line_start(st) => {
                    let e = self.escape()?;
                    match &mut top {
                        Some((intro, leading)) if nodes.is_empty() && intro.is_empty() => {
                            leading.push(e)
                        }
                        _ => nodes.push(Node::Escape(e)),
                    }
                }
                b'%' => {
                    return Err(self.error(
                        st,
                        st + 1,
                        "`%` starts an escape line only at the beginning of a line",
                        "not at the start of a line",
                        None,
                    ));
                }
                b'[' if open.is_none() => {
                    return Err(self.error(
                        st,
                        self.found(st).0,
                        "this game has no result token before the next tags",
                        "a new tag section starts here",
                        Some(RESULT_HELP),
                    ));
                }
                c if c >= 0x80 => {
                    let ch = self.s[st..].chars().next().unwrap_or('?');
                    return Err(self.error(
                        st,
                        st + ch.len_utf8(),
                        format!("the character `{ch}` may appear only in comments and tag values"),
                        "not allowed here",
                        Some("put remarks in a comment `{ … }`"),
                    ));
                }
                _ => return Err(self.expected(st, "a unit such as `3:12-15`", Some(UNIT_HELP))),
            }
        }
    }

    /// A result token run together with what follows it.
    #[cold]
    fn after_result(&self, st: usize, e: usize) -> Fail {
        let (end, found) = self.found(e);
        self.error(
            st,
            end,
            format!(
                "expected a space after the result `{}`, found {found}",
                &self.s[st..e]
            ),
            "the result ends before this",
            Some(RESULT_HELP),
        )
    }

    fn result(&mut self, r: ResultToken, st: usize, open: Option<usize>) -> PResult<End> {
        if let Some(o) = open {
            return Err(self.error(
                o,
                o + 1,
                "this variation is never closed with `)`",
                "opened here",
                Some("close each `(` with `)` before the game's result"),
            ));
        }
        Ok(End::Result(r, self.span(st, self.i)))
    }

    /// `12.` or `12...`; `j` is the first `.`.
    fn turn_number(&mut self, j: usize) -> PResult<Node> {
        let st = self.i;
        if self.b[st] == b'0' || j - st > 9 {
            return Err(self.error(
                st,
                j,
                "a turn number is a whole number from 1 on",
                "not a turn number",
                Some("write `7.` before White's turn and `7...` before Black's"),
            ));
        }
        // grammar: 1 to 9 digits, so no overflow
        let number = self.b[st..j]
            .iter()
            .fold(0u32, |n, &d| n * 10 + (d - b'0') as u32);
        let (black, e) = if self.b[j..].starts_with(b"...") {
            (true, j + 3)
        } else {
            (false, j + 1)
        };
        if self.at(e) == b'.' {
            let mut k = e;
            while self.at(k) == b'.' {
                k += 1;
            }
            return Err(self.error(
                st,
                k,
                format!("expected `{number}.` (White's turn) or `{number}...` (Black's turn), found `{}`", &self.s[st..k]),
                "one dot or three",
                Some("write `7.` before White's turn and `7...` before Black's"),
            ));
        }
        self.i = e;
        Ok(Node::TurnNumber {
            number,
            black,
            span: self.span(st, e),
        })
    }

    /// The common turn numbers, `12.` and `12...` with one to three digits
    /// and blank space after them: about one node in three of a record,
    /// read without `turn_number`'s checks and its `Result`. `None` for
    /// anything else, which the general path then reads (with the same
    /// node for what this accepts). A fixed window of 8 bytes, as in
    /// `common_unit`.
    #[inline]
    fn common_turn_number(&self) -> Option<(u32, bool, usize)> {
        let st = self.i;
        let w: &[u8; 8] = self.b.get(st..st + 8)?.try_into().ok()?;
        let digit = |c: u8| c.wrapping_sub(b'0');
        let first = digit(w[0]);
        if first == 0 || first > 9 {
            return None;
        }
        let mut number = first as u32;
        let mut k = 1;
        while k < 3 && digit(w[k]) <= 9 {
            number = number * 10 + digit(w[k]) as u32;
            k += 1;
        }
        if w[k] != b'.' {
            return None;
        }
        let (black, e) = if w[k + 1] == b'.' && w[k + 2] == b'.' {
            (true, k + 3)
        } else {
            (false, k + 1)
        };
        // `e` is at most 6: the window holds the byte after the dots.
        if !is_ws(w[e]) {
            return None;
        }
        Some((number, black, st + e))
    }

    /// The common units, `3:12-15`, `4+:9x13`, `2:29-off`, followed by
    /// blank space: read without the general path's checks. `None` for
    /// anything else, which the general path then reads (with the same
    /// result for what this accepts).
    ///
    /// It looks at a fixed window of 12 bytes (the longest common unit and
    /// the blank after it take 10), so that no byte is bounds-checked on its
    /// own; within 12 bytes of the buffer's end the general path reads.
    #[inline]
    fn common_unit(&self) -> Option<(UnitSyntax, usize)> {
        let st = self.i;
        let w: &[u8; 12] = self.b.get(st..st + 12)?.try_into().ok()?;
        // `c - b'0'` wraps for bytes below `0`, so `<= 9` tests for a digit.
        let digit = |c: u8| c.wrapping_sub(b'0');
        let throw = digit(w[0]);
        if throw == 0 || throw > 9 {
            return None;
        }
        let plus = w[1] == b'+';
        let mut k = 1 + plus as usize;
        if w[k] != b':' {
            return None;
        }
        k += 1;
        // A square: 1..9, then an optional second digit. Whether there is
        // one, and `-` or `x` below, follow the record, so they are worked
        // into the values rather than branched on (a branch on them is
        // mispredicted about as often as not).
        let square = |k: &mut usize| -> Option<u8> {
            let a = digit(w[*k]);
            if a.wrapping_sub(1) > 8 {
                return None;
            }
            let b = digit(w[*k + 1]);
            let two = (b <= 9) as u8;
            *k += 1 + two as usize;
            Some(a * (1 + 9 * two) + b * two)
        };
        let from = square(&mut k)?;
        let cross = w[k] == b'x';
        if !cross && w[k] != b'-' {
            return None;
        }
        let sep = if cross { MoveSep::Cross } else { MoveSep::Dash };
        k += 1;
        let to = if w[k] == b'o' && w[k + 1] == b'f' && w[k + 2] == b'f' {
            k += 3;
            Target::Off
        } else {
            Target::Square(square(&mut k)?)
        };
        if !is_ws(w[k]) {
            return None;
        }
        let body = UnitBody::Move {
            from,
            sep,
            to,
            reloc: None,
            split: None,
        };
        let unit = UnitSyntax {
            span: self.span(st, st + k),
            throw: Some(throw),
            faces: None,
            plus,
            body,
        };
        Some((unit, st + k))
    }

    /// One move of a unit at `*j`: `12-15`, `12x15`, `29-off`, `25-27=15`,
    /// `25-27=Q`, `hand-1`, `1-hand`, `25-27=hand`. `st..colon` is the throw
    /// as written, for messages.
    fn read_part(
        &self,
        j: &mut usize,
        st: usize,
        colon: usize,
        no_throw: bool,
    ) -> PResult<PartSyntax> {
        let b = self.b;
        let sq = |j: &mut usize| -> Option<u8> {
            let c = b.get(*j).copied().unwrap_or(0);
            if !(b'1'..=b'9').contains(&c) {
                return None;
            }
            *j += 1;
            let mut v = c - b'0';
            let d = b.get(*j).copied().unwrap_or(0);
            if d.is_ascii_digit() {
                v = v * 10 + (d - b'0');
                *j += 1;
            }
            Some(v)
        };
        let from = if b[*j..].starts_with(b"hand") {
            *j += 4;
            0
        } else if let Some(f) = sq(j) {
            f
        } else {
            let what = if no_throw {
                "a move such as `27-15` after `0:` (a unit without a throw is always a move)"
                    .to_string()
            } else {
                format!(
                    "a move such as `12-15`, or `pass`, after `{}`",
                    &self.s[st..colon]
                )
            };
            return Err(self.expected(*j, &what, Some(UNIT_HELP)));
        };
        let sep = match self.at(*j) {
            b'-' => MoveSep::Dash,
            b'x' => MoveSep::Cross,
            _ => {
                let from = if from == 0 {
                    "`hand`".to_string()
                } else {
                    format!("the square `{from}`")
                };
                return Err(self.expected(
                    *j,
                    &format!("`-` or `x` after {from}"),
                    Some("a move is written `12-15`, or `12x15` when the target held an opposing piece"),
                ));
            }
        };
        *j += 1;
        let to = if b[*j..].starts_with(b"off") {
            *j += 3;
            Target::Off
        } else if b[*j..].starts_with(b"hand") {
            *j += 4;
            Target::Hand
        } else if let Some(t) = sq(j) {
            Target::Square(t)
        } else {
            return Err(self.expected(
                *j,
                "a square number (1 to 99), `off` or `hand`",
                Some(UNIT_HELP),
            ));
        };
        let mut reloc = None;
        if self.at(*j) == b'=' && matches!(to, Target::Square(_)) {
            *j += 1;
            if self.at(*j) == b'Q' {
                *j += 1;
                reloc = Some(Reloc::Queue);
            } else if b[*j..].starts_with(b"hand") {
                *j += 4;
                reloc = Some(Reloc::Hand);
            } else if let Some(r) = sq(j) {
                reloc = Some(Reloc::Square(r));
            } else {
                return Err(self.expected(
                    *j,
                    "a square number, `Q` or `hand` after `=`",
                    Some("`=15`: the rules moved the piece on to 15; `=Q`: it joined the queue of dead pieces; `=hand`: it went back to the hand"),
                ));
            }
        }
        Ok(PartSyntax {
            from,
            sep,
            to,
            reloc,
            later: LaterParts::default(),
        })
    }

    /// Pushes the unit at `self.i`, and its suffix as a NAG after it.
    fn push_unit(&mut self, nodes: &mut Nodes<'_>) -> PResult<()> {
        let st = self.i;
        let mut j = st;
        let b = self.b;
        let mut throw = None;
        let mut faces = None;
        let mut plus = false;
        let body;
        let c = self.at(j);
        if c == b's' || c == b'-' {
            let (word, body_) = if c == b's' {
                (&b"skip"[..], UnitBody::Skip)
            } else {
                (&b"--"[..], UnitBody::Gap)
            };
            if !b[j..].starts_with(word) {
                return Err(self.expected(st, "a unit such as `3:12-15`", Some(UNIT_HELP)));
            }
            j += word.len();
            body = body_;
        } else {
            let no_throw = c == b'0';
            if no_throw {
                j += 1;
                if self.at(j) != b':' {
                    return Err(self.expected(
                        st,
                        "a unit such as `3:12-15` (`0:` is the only throw starting with 0)",
                        Some(UNIT_HELP),
                    ));
                }
                throw = Some(0);
            } else if c.is_ascii_digit() {
                let mut v = c - b'0';
                j += 1;
                if self.at(j).is_ascii_digit() {
                    v = v * 10 + (self.at(j) - b'0');
                    j += 1;
                }
                throw = Some(v);
            }
            if self.at(j) == b'_' {
                j += 1;
                let fs = j;
                let mut bits = 0u16;
                while matches!(self.at(j), b'0' | b'1') && j - fs < Faces::MAX {
                    if self.at(j) == b'1' {
                        bits |= 1 << (j - fs);
                    }
                    j += 1;
                }
                if j == fs {
                    return Err(self.expected(
                        fs,
                        "stick faces after `_`, one `0` or `1` per stick, such as `_0111`",
                        None,
                    ));
                }
                faces = Some(Faces::from_bits(bits, (j - fs) as u8));
            }
            if self.at(j) == b'+' {
                plus = true;
                j += 1;
            }
            if self.at(j) != b':' {
                let (e, found) = self.found(st);
                return Err(self.error(
                    st,
                    e,
                    format!("expected a unit such as `3:12-15`, found {found}"),
                    if throw.is_some() || faces.is_some() {
                        "expected `:` after the throw"
                    } else {
                        "expected a unit"
                    },
                    Some(UNIT_HELP),
                ));
            }
            j += 1;
            let colon = j;
            if b[j..].starts_with(b"pass") && !no_throw {
                j += 4;
                body = UnitBody::Pass;
            } else {
                let first = self.read_part(&mut j, st, colon, no_throw)?;
                let mut split = None;
                if self.at(j) == b':' && !no_throw {
                    j += 1;
                    let mut second = self.read_part(&mut j, st, colon, false)?;
                    // A throw split into any number of parts.
                    for slot in second.later.0.iter_mut() {
                        if self.at(j) != b':' {
                            break;
                        }
                        j += 1;
                        *slot = Some(LaterPart::of(&self.read_part(&mut j, st, colon, false)?));
                    }
                    split = Some(second);
                }
                body = UnitBody::Move {
                    from: first.from,
                    sep: first.sep,
                    to: first.to,
                    reloc: first.reloc,
                    split,
                };
            }
        }
        let ue = j;
        let unit = UnitSyntax {
            span: self.span(st, ue),
            throw,
            faces,
            plus,
            body,
        };
        // Suffix annotations, read as NAGs $1..$6.
        let nag = match (self.at(j), self.at(j + 1)) {
            (b'!', b'!') => Some((3, 2)),
            (b'?', b'?') => Some((4, 2)),
            (b'!', b'?') => Some((5, 2)),
            (b'?', b'!') => Some((6, 2)),
            (b'!', _) => Some((1, 1)),
            (b'?', _) => Some((2, 1)),
            _ => None,
        };
        if let Some((_, len)) = nag {
            j += len;
        }
        if !is_boundary(b.get(j)) {
            let (e, found) = self.found(j);
            return Err(self.error(
                st,
                e,
                format!(
                    "expected a space after the unit `{}`, found {found}",
                    &self.s[st..ue]
                ),
                "the unit ends before this",
                Some(UNIT_HELP),
            ));
        }
        self.i = j;
        nodes.push(Node::Unit(unit));
        if let Some((n, len)) = nag {
            nodes.push(Node::Nag {
                n,
                span: self.span(ue, ue + len),
            });
        }
        Ok(())
    }

    /// `{ … }`, or `; …` to the end of the line.
    fn comment(&mut self) -> PResult<Comment> {
        let st = self.i;
        let b = self.b;
        let (is, ie, end) = if b[st] == b'{' {
            match self.s[st + 1..].find('}') {
                Some(p) => (st + 1, st + 1 + p, st + 2 + p),
                None if !self.eof => return Err(Fail::Incomplete),
                None => {
                    return Err(self.error(
                        st,
                        st + 1,
                        "this comment is never closed with `}`",
                        "opened here",
                        Some("end a comment `{ …` with `}`; comments do not nest"),
                    ));
                }
            }
        } else {
            let e = match self.s[st..].find('\n') {
                Some(p) => st + p,
                None if self.eof => b.len(),
                None => return Err(Fail::Incomplete),
            };
            let ie = if e > st + 1 && b[e - 1] == b'\r' {
                e - 1
            } else {
                e
            };
            (st + 1, ie, ie)
        };
        self.i = end;
        let inner = &self.s[is..ie];
        let commands = self.commands(is, ie)?;
        // ASCII blank space only: a comment may end in other spaces.
        let t = trim_blank(inner);
        let text = if t.contains('\r') {
            lf_line_ends(t)
        } else {
            t.to_string()
        };
        Ok(Comment {
            text,
            commands,
            span: self.span(st, end),
        })
    }

    /// The commands `[%…]` in the comment text `is..ie`.
    fn commands(&self, is: usize, ie: usize) -> PResult<Vec<Command>> {
        let mut out = Vec::new();
        let mut j = is;
        while let Some(p) = self.s[j..ie].find('[') {
            if self.at(j + p + 1) != b'%' || j + p + 1 >= ie {
                j += p + 1;
                continue;
            }
            let (cmd, next) = self.command(j + p, ie)?;
            out.push(cmd);
            j = next;
        }
        Ok(out)
    }

    /// One command at `cs` (its `[%`), inside a comment ending at `ie`.
    fn command(&self, cs: usize, ie: usize) -> PResult<(Command, usize)> {
        let b = self.b;
        let at = |k: usize| if k < ie { b[k] } else { 0 };
        let hs = |k: &mut usize| {
            while matches!(at(*k), b' ' | b'\t') {
                *k += 1;
            }
        };
        let ns = cs + 2;
        let mut j = ns;
        if !at(j).is_ascii_alphabetic() {
            return Err(self.expected(
                j,
                "a command name such as `pos` after `[%`",
                Some("a command is `[%name arguments]`, e.g. `[%pos WBWBWBWBWB/10/10 w 0-0 - 1]`"),
            ));
        }
        while at(j).is_ascii_alphanumeric() || matches!(at(j), b'-' | b'_') {
            j += 1;
        }
        let ne = j;
        let name = &self.s[ns..ne];
        if !matches!(at(j), b']' | b' ' | b'\t') {
            return Err(self.expected(
                j,
                &format!("a space or `]` after the command name `{name}`"),
                None,
            ));
        }
        let spaced = at(j) != b']';
        hs(&mut j);
        let as_ = j;
        let needs = |what: &str, example: &str| -> Fail {
            self.expected(
                as_,
                &format!("{what} after `[%{name}`"),
                Some(&format!("write it as `{example}`")),
            )
        };
        let kind;
        let mut ae;
        match name {
            "pos" => {
                // The position ends at `]`; a line end or the comment's end
                // before it is an error, found by the check below.
                j = match self.s[j..ie].find(']') {
                    Some(p) if !self.b[j..j + p].iter().any(|&c| c == b'\n' || c == b'}') => j + p,
                    _ => {
                        while !matches!(at(j), 0 | b']' | b'}' | b'\n') {
                            j += 1;
                        }
                        j
                    }
                };
                ae = j;
                while ae > as_ && matches!(b[ae - 1], b' ' | b'\t' | b'\r') {
                    ae -= 1;
                }
                if !spaced || ae == as_ {
                    return Err(needs(
                        "a position string",
                        "[%pos WBWBWBWBWB/10/10 w 0-0 - 1]",
                    ));
                }
                kind = CommandKind::Pos;
            }
            "src" => {
                if !spaced || at(j) != b'"' {
                    return Err(needs("a quoted source", "[%src \"Piccione 1980, p. 12\"]"));
                }
                j += 1;
                let mut v = String::new();
                let mut run = j;
                loop {
                    match at(j) {
                        b'"' => break,
                        b'\\' if matches!(at(j + 1), b'"' | b'\\') => {
                            v.push_str(&self.s[run..j]);
                            v.push(at(j + 1) as char);
                            j += 2;
                            run = j;
                        }
                        0 | b'\n' | b'}' | b'\\' => {
                            return Err(self.error(
                                as_,
                                j,
                                "the source of `[%src` is not closed with `\"`",
                                "no closing `\"`",
                                Some("write it as `[%src \"…\"]`; a quote inside is `\\\"`, a backslash `\\\\`"),
                            ));
                        }
                        _ => j += 1,
                    }
                }
                v.push_str(&self.s[run..j]);
                j += 1;
                ae = j;
                kind = CommandKind::Src(v);
            }
            "conf" => {
                while at(j).is_ascii_alphanumeric() {
                    j += 1;
                }
                ae = j;
                kind = CommandKind::Conf(match &self.s[as_..ae] {
                    "low" if spaced => Confidence::Low,
                    "medium" if spaced => Confidence::Medium,
                    "high" if spaced => Confidence::High,
                    _ => return Err(needs("`low`, `medium` or `high`", "[%conf medium]")),
                });
            }
            "rule" => {
                let k0 = j;
                while at(j).is_ascii_uppercase() {
                    j += 1;
                }
                let k1 = j;
                let dash = at(j) == b'-';
                j += dash as usize;
                let k2 = j;
                while at(j).is_ascii_digit() {
                    j += 1;
                }
                let k3 = j;
                while at(j).is_ascii_lowercase() {
                    j += 1;
                }
                if !spaced || k1 == k0 || !dash || k3 == k2 {
                    return Err(needs("a clause id such as `K-9a`", "[%rule K-9a]"));
                }
                ae = j;
                kind = CommandKind::Rule;
            }
            "played-illegal" => {
                ae = j;
                kind = CommandKind::PlayedIllegal;
            }
            "eval" => {
                let k0 = j;
                while at(j).is_ascii_digit() {
                    j += 1;
                }
                let mut ok = spaced && j > k0;
                if ok && at(j) == b'.' {
                    j += 1;
                    let k1 = j;
                    while at(j).is_ascii_digit() {
                        j += 1;
                    }
                    ok = j > k1;
                }
                if !ok {
                    return Err(needs("a number such as `0.63`", "[%eval 0.63]"));
                }
                ae = j;
                kind = CommandKind::Eval(self.s[as_..ae].parse().unwrap_or(0.0)); // grammar: digits with an optional fraction
            }
            _ => {
                while !matches!(at(j), 0 | b']' | b'}' | b'\n') {
                    j += 1;
                }
                ae = j;
                while ae > as_ && matches!(b[ae - 1], b' ' | b'\t') {
                    ae -= 1;
                }
                kind = CommandKind::Other;
            }
        }
        hs(&mut j);
        if at(j) != b']' {
            return Err(self.expected(
                j,
                &format!("`]` to close `[%{name}`"),
                Some("a command is `[%name arguments]` on one line"),
            ));
        }
        let cmd = Command {
            name: match kind {
                CommandKind::Other => std::borrow::Cow::Owned(name.to_string()),
                // The known names: no allocation.
                _ => std::borrow::Cow::Borrowed(
                    KNOWN_COMMANDS
                        .iter()
                        .find(|&&k| k == name)
                        .copied()
                        .unwrap_or(""),
                ),
            },
            args: self.s[as_..ae].to_string(),
            kind,
            span: self.span(cs, j + 1),
            name_span: self.span(ns, ne),
            args_span: self.span(as_, ae),
        };
        Ok((cmd, j + 1))
    }
}
