//! A replay as one self-contained HTML page: the board, the move list with
//! comments, NAGs, clause glosses and variations, and step controls.
//!
//! Stage: the games a replay walked ([`GameView`]: tags, start, every unit
//! with the position after it) → HTML text. The page loads nothing: the
//! style, the script, the board pictures and the data are all inline.
//!
//! Without JavaScript the page shows every game's final position and full
//! move list. With it, the script steps through the units: buttons, the
//! arrow keys, Home/End, a slider, or a click on any unit of the list (a
//! variation is entered by clicking one of its units). Each step swaps the
//! pieces layer of the board, which the server side drew (one drawing
//! code for SVG, PNG and HTML). A fragment `#g2-s14` (game 2, step 14) or
//! `#g1-last` opens the page there.

use super::svg::{self, Layout, escape};
use crate::engine::{Position, Ruleset, Side, Unit};
use serde::Serialize;
use std::fmt::Write;

/// One game as the replay walked it.
#[derive(Debug, Clone)]
pub struct GameView {
    /// 1-based number of the game in its file.
    pub number: usize,
    /// The tags in the order written.
    pub tags: Vec<(String, String)>,
    /// The comments before the first unit, in words.
    pub intro: Vec<String>,
    pub rules: Ruleset,
    pub start: Position,
    pub steps: Vec<StepView>,
    /// The last line of the replay: the result, or where and why it stopped.
    pub ending: String,
}

/// One unit of a game.
#[derive(Debug, Clone)]
pub struct StepView {
    /// `12.`, `12...3`.
    pub label: String,
    /// The unit as written canonically.
    pub text: String,
    /// What the unit did, one clause each.
    pub events: Vec<String>,
    pub throw: Option<u8>,
    /// The stick faces as written (`0111`: `1` marked side up).
    pub faces: Option<String>,
    pub comments: Vec<String>,
    /// The comment commands in words: clause glosses, sources, confidence.
    pub glosses: Vec<String>,
    pub nags: Vec<String>,
    /// The side that played it and the unit, for the arrow.
    pub played: (Side, Unit),
    pub after: Position,
    pub variations: Vec<Vec<StepView>>,
}

/// What the script needs for one step.
#[derive(Serialize)]
struct StepData {
    /// The pieces layer of the board.
    layer: String,
    /// The text alternative of the board.
    desc: String,
    pos: String,
    /// The unit in words, for the line under the board.
    say: String,
    throw: String,
    /// The step before (`-1` at the start) and the next of the same line.
    prev: i64,
    next: i64,
    /// The step of the main line this one is or branches from.
    main: usize,
}

#[derive(Serialize)]
struct GameData {
    steps: Vec<StepData>,
    /// The last step of the main line.
    last: usize,
}

/// A step button's picture: drawn, not a character, so it shows whatever
/// fonts the reader has (the media-control signs ⏮ ⏭ are missing from
/// common fonts). The button's `aria-label` names it.
fn icon(path: &str) -> String {
    format!(
        "<svg viewBox=\"0 0 16 16\" width=\"16\" height=\"16\" aria-hidden=\"true\" focusable=\"false\"><path d=\"{path}\" fill=\"currentColor\"/></svg>"
    )
}

/// The stick faces as a picture in text: `▮` marked side up, `▯` blank.
fn sticks(faces: &str) -> String {
    faces
        .chars()
        .map(|c| if c == '1' { '▮' } else { '▯' })
        .collect()
}

fn throw_words(s: &StepView) -> String {
    match (s.throw, &s.faces) {
        (Some(t), Some(f)) => format!("Throw {t}: sticks {} ({f})", sticks(f)),
        (Some(t), None) => format!("Throw {t}"),
        (None, _) => "No throw".to_string(),
    }
}

/// Numbers the steps of a game: 0 the start, then the main line, then
/// every variation, depth first; and writes the move list as it goes.
struct Builder<'a> {
    rules: &'a Ruleset,
    layout: Layout,
    game: usize,
    steps: Vec<StepData>,
    len: u8,
    row_len: u8,
}

impl Builder<'_> {
    fn push(
        &mut self,
        pos: &Position,
        last: Option<(Side, Unit)>,
        say: String,
        throw: String,
        prev: i64,
        main: usize,
    ) -> usize {
        let layer = svg::pieces_layer(self.rules, &self.layout, pos, last.as_ref());
        self.steps.push(StepData {
            layer,
            desc: svg::describe(self.rules, pos),
            pos: pos.write(self.len, self.row_len),
            say,
            throw,
            prev,
            next: -1,
            main,
        });
        let id = self.steps.len() - 1;
        if prev >= 0 {
            let p = &mut self.steps[prev as usize];
            if p.next < 0 {
                p.next = id as i64;
            }
        }
        id
    }

    /// Numbers a line of units whose first unit is played from step
    /// `from`; `main` is the main-line step the line belongs to (or
    /// branches from). Returns the step ids.
    fn line(&mut self, units: &[StepView], from: usize, main_line: bool) -> Vec<usize> {
        let mut ids = Vec::new();
        let mut prev = from;
        for (k, s) in units.iter().enumerate() {
            let say = format!(
                "{} {}  {} — {}",
                s.label,
                s.played.0,
                s.text,
                s.events.join("; ")
            );
            let main = if main_line {
                from + k + 1
            } else {
                self.steps[from].main
            };
            // A variation's steps link forward among themselves only: the
            // main line keeps its own `next`.
            let id = self.push(
                &s.after,
                Some(s.played),
                say,
                throw_words(s),
                prev as i64,
                main,
            );
            ids.push(id);
            prev = id;
        }
        ids
    }

    /// The move list of a line whose units have the step ids `ids`
    /// (variations are numbered here, after their line).
    fn list(&mut self, units: &[StepView], ids: &[usize], depth: usize) -> String {
        let mut out = String::new();
        let class = if depth == 0 { "moves" } else { "variation" };
        let _ = writeln!(out, "<ol class=\"{class}\">");
        for (s, &id) in units.iter().zip(ids) {
            let nags = if s.nags.is_empty() {
                String::new()
            } else {
                format!(" <span class=\"nag\">{}</span>", escape(&s.nags.join(" ")))
            };
            let _ = write!(
                out,
                "<li><button type=\"button\" class=\"unit\" id=\"g{}-u{id}\" data-step=\"{id}\" aria-label=\"{} {}: {}\"><span class=\"label\">{}</span> {}</button>{nags}",
                self.game,
                escape(&s.label),
                s.played.0,
                escape(&s.text),
                escape(&s.label),
                escape(&s.text),
            );
            let _ = write!(
                out,
                "<div class=\"events\">{}</div>",
                escape(&s.events.join("; "))
            );
            for c in &s.comments {
                let _ = write!(out, "<p class=\"comment\">{}</p>", escape(c));
            }
            for g in &s.glosses {
                let _ = write!(out, "<p class=\"gloss\">{}</p>", escape(g));
            }
            for v in &s.variations {
                // A variation replaces this unit: it starts from the step
                // before it.
                let from = self.steps[id].prev.max(0) as usize;
                let vids = self.line(v, from, false);
                out.push_str(&self.list(v, &vids, depth + 1));
            }
            out.push_str("</li>\n");
        }
        out.push_str("</ol>\n");
        out
    }
}

const STYLE: &str = r#"
body{font-family:'DejaVu Sans','Noto Sans',sans-serif;margin:1rem auto;max-width:72rem;padding:0 1rem;color:#1d1d1b;background:#fffdf7;line-height:1.4}
h1{font-size:1.4rem;margin:.2rem 0}
.tags{display:grid;grid-template-columns:max-content 1fr;gap:0 1rem;font-size:.9rem;margin:.5rem 0}
.tags dt{font-weight:bold}.tags dd{margin:0}
.layout{display:flex;flex-wrap:wrap;gap:1.5rem;align-items:flex-start}
.board-pane{margin:0;flex:0 0 auto;position:sticky;top:.5rem;background:#fffdf7}
.board-pane svg{max-width:100%;height:auto;display:block}
.say{min-height:2.8em;max-width:44rem;margin:.3rem 0}
.controls{display:flex;gap:.4rem;align-items:center;flex-wrap:wrap;margin:.3rem 0}
.controls button{font-size:1.1rem;min-width:2.6rem;line-height:1}
.controls button svg{vertical-align:middle}
.controls input[type=range]{flex:1;min-width:10rem}
.posline input{font-family:'DejaVu Sans Mono',monospace;width:24rem;max-width:70vw}
.list{flex:1 1 22rem;max-height:80vh;overflow:auto}
ol.moves,ol.variation{list-style:none;padding-left:0;margin:.2rem 0}
ol.variation{margin-left:1rem}
ol.variation{border-left:3px solid #d8c08c;list-style:none;padding-left:.8rem}
button.unit{font:inherit;background:none;border:1px solid transparent;border-radius:3px;padding:0 .25rem;cursor:pointer}
button.unit[aria-current=step]{background:#b3261e;color:#fff}
button.unit:focus-visible,.controls button:focus-visible{outline:3px solid #1f5fbf;outline-offset:1px}
.label{font-weight:bold}.nag{color:#7a4b00;font-weight:bold}
.events{font-size:.85rem;color:#444}
.comment{margin:.15rem 0;font-style:italic}
.gloss{margin:.15rem 0;font-size:.85rem;color:#5e4a27}
.intro p{margin:.3rem 0}
"#;

const SCRIPT: &str = r#"
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('senet-data').textContent);
  var sections = document.querySelectorAll('section.game');
  var current = 0;
  var at = data.games.map(function (g) { return g.last; });
  function el(g, cls) { return sections[g].querySelector('.' + cls); }
  function show(g, s) {
    var game = data.games[g], step = game.steps[s];
    if (!step) { return; }
    at[g] = s;
    el(g, 'layer').innerHTML = step.layer;
    el(g, 'board-desc').textContent = step.desc;
    el(g, 'say').textContent = s === 0 ? 'Start' : step.say;
    el(g, 'throw').textContent = s === 0 ? '' : step.throw;
    el(g, 'pos').value = step.pos;
    el(g, 'slider').value = step.main;
    el(g, 'slider').setAttribute('aria-valuetext', s === 0 ? 'start' : step.say);
    var was = sections[g].querySelector('button.unit[aria-current]');
    if (was) { was.removeAttribute('aria-current'); }
    // The unit's id differs from the fragment of its step (`#g1-s5`): a
    // fragment that named an element would scroll the page to it.
    var now = document.getElementById('g' + (g + 1) + '-u' + s);
    if (now) { now.setAttribute('aria-current', 'step'); }
    later(g, s, now);
  }
  // Scrolling the list and the address wait for the next frame: a held key
  // steps many times a frame, and each would force a layout.
  var pending = null;
  function later(g, s, now) {
    var first = pending === null;
    pending = [g, s, now];
    if (!first) { return; }
    requestAnimationFrame(function () {
      var g = pending[0], s = pending[1], now = pending[2];
      pending = null;
      if (now) {
        // Keep the unit in view inside the list only: the page stays put.
        var list = el(g, 'list'), r = now.getBoundingClientRect(), lr = list.getBoundingClientRect();
        if (r.top < lr.top || r.bottom > lr.bottom) { list.scrollTop += r.top - lr.top - lr.height / 3; }
      }
      if (history.replaceState) { history.replaceState(null, '', '#g' + (g + 1) + '-s' + s); }
    });
  }
  function go(how) {
    var game = data.games[current], s = at[current], step = game.steps[s];
    if (how === 'first') { show(current, 0); }
    else if (how === 'last') {
      while (game.steps[s].next >= 0) { s = game.steps[s].next; }
      show(current, s);
    }
    else if (how === 'next' && step.next >= 0) { show(current, step.next); }
    else if (how === 'prev' && step.prev >= 0) { show(current, step.prev); }
  }
  function choose(g) {
    current = g;
    for (var i = 0; i < sections.length; i++) { sections[i].hidden = i !== g; }
    var sel = document.getElementById('game-select');
    if (sel) { sel.value = String(g + 1); }
    show(g, at[g]);
  }
  for (var g = 0; g < sections.length; g++) {
    (function (g) {
      var sec = sections[g];
      sec.querySelector('.controls').hidden = false;
      sec.querySelector('.controls').addEventListener('click', function (e) {
        var b = e.target.closest('button[data-go]');
        if (b) { go(b.getAttribute('data-go')); }
      });
      el(g, 'slider').addEventListener('input', function (e) { show(g, Number(e.target.value)); });
      sec.querySelector('.list').addEventListener('click', function (e) {
        var b = e.target.closest('button.unit');
        if (b) { show(g, Number(b.getAttribute('data-step'))); }
      });
      var copy = el(g, 'copy');
      copy.hidden = false;
      copy.addEventListener('click', function () {
        var input = el(g, 'pos');
        input.select();
        if (navigator.clipboard) { navigator.clipboard.writeText(input.value); }
        else { document.execCommand('copy'); }
      });
    })(g);
  }
  var sel = document.getElementById('game-select');
  if (sel) { sel.addEventListener('change', function () { choose(Number(sel.value) - 1); }); }
  document.addEventListener('keydown', function (e) {
    var t = e.target;
    if (t && (t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' ||
        (t.tagName === 'INPUT' && t.type !== 'button'))) { return; }
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var how = { ArrowRight: 'next', ArrowLeft: 'prev', Home: 'first', End: 'last' }[e.key];
    if (how) { e.preventDefault(); go(how); }
  });
  var m = /^#g(\d+)-(s(\d+)|last)$/.exec(location.hash);
  var start = 0;
  if (m && Number(m[1]) >= 1 && Number(m[1]) <= sections.length) {
    start = Number(m[1]) - 1;
    if (m[3] !== undefined) { at[start] = Math.min(Number(m[3]), data.games[start].steps.length - 1); }
  }
  window.senetReplay = { show: show, go: go, choose: choose, data: data, current: function () { return [current, at[current]]; } };
  choose(start);
})();
"#;

/// The page title: the players and the event of the first game.
fn title(games: &[GameView]) -> String {
    let Some(g) = games.first() else {
        return "Senet replay".to_string();
    };
    let tag = |k: &str| g.tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.as_str());
    match (tag("White"), tag("Black")) {
        (Some(w), Some(b)) => format!("{w} – {b}"),
        _ => tag("Event").unwrap_or("Senet replay").to_string(),
    }
}

/// One game's section, and its step data.
fn section(g: &GameView, index: usize) -> (String, GameData) {
    let layout = Layout::new(&g.rules, false);
    let mut b = Builder {
        rules: &g.rules,
        layout,
        game: g.number,
        steps: Vec::new(),
        len: g.rules.board.len,
        row_len: g.rules.board.row_len,
    };
    b.push(&g.start, None, "Start".to_string(), String::new(), -1, 0);
    let ids = b.line(&g.steps, 0, true);
    let list = b.list(&g.steps, &ids, 0);
    let last = ids.last().copied().unwrap_or(0);
    let mut out = String::new();
    let n = g.number;
    let _ = writeln!(
        out,
        "<section class=\"game\" id=\"game-{n}\" aria-labelledby=\"game-{n}-title\">"
    );
    let tag = |k: &str| g.tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.as_str());
    let heading = match (tag("White"), tag("Black")) {
        (Some(w), Some(bl)) => format!("Game {n}: {w} (White) – {bl} (Black)"),
        _ => format!("Game {n}"),
    };
    let _ = writeln!(out, "<h2 id=\"game-{n}-title\">{}</h2>", escape(&heading));
    out.push_str("<dl class=\"tags\">");
    for (k, v) in &g.tags {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(v));
    }
    let mut rules = g.rules.meta.name.clone();
    if !g.rules.meta.title.is_empty() {
        let _ = write!(rules, " ({})", g.rules.meta.title);
    }
    let _ = writeln!(out, "<dt>Rule set</dt><dd>{}</dd></dl>", escape(&rules));
    if !g.intro.is_empty() {
        out.push_str("<div class=\"intro\">");
        for p in &g.intro {
            let _ = write!(out, "<p>{}</p>", escape(p));
        }
        out.push_str("</div>\n");
    }
    // Without the script the board shows the last position of the main line.
    let shown = &b.steps[last];
    out.push_str("<div class=\"layout\">\n<figure class=\"board-pane\">\n");
    let mut picture = svg::open(&layout, &shown.desc);
    // One page holds several boards: the ids of the text alternative must
    // differ per game; the symbol and marker ids are the same drawings.
    picture = picture
        .replace("id=\"senet-title\"", &format!("id=\"senet-title-{n}\""))
        .replace(
            "id=\"senet-desc\"",
            &format!("id=\"senet-desc-{n}\" class=\"board-desc\""),
        )
        .replace(
            "aria-labelledby=\"senet-title senet-desc\"",
            &format!("aria-labelledby=\"senet-title-{n} senet-desc-{n}\""),
        );
    if index > 0 {
        // The definitions of the first board serve every board.
        if let (Some(a), Some(z)) = (picture.find("<defs>"), picture.find("</defs>\n")) {
            picture.replace_range(a..z + "</defs>\n".len(), "");
        }
    }
    out.push_str(&picture);
    out.push_str(&svg::board_layer(&g.rules, &layout));
    let _ = writeln!(out, "<g class=\"layer\">{}</g>\n</svg>", shown.layer);
    let say = if last == 0 {
        "Start"
    } else {
        shown.say.as_str()
    };
    let _ = writeln!(
        out,
        "<figcaption><p class=\"say\" aria-live=\"polite\">{}</p><p class=\"throw\">{}</p>",
        escape(say),
        escape(&shown.throw)
    );
    let _ = writeln!(
        out,
        "<p class=\"posline\"><label>Position <input class=\"pos\" readonly value=\"{}\" aria-label=\"Position string of the position shown\"></label> <button type=\"button\" class=\"copy\" hidden>Copy</button></p>",
        escape(&shown.pos)
    );
    let _ = writeln!(
        out,
        concat!(
            "<div class=\"controls\" role=\"group\" aria-label=\"Step through game {n}\" hidden>",
            "<button type=\"button\" data-go=\"first\" aria-label=\"First: the start position\">{first}</button>",
            "<button type=\"button\" data-go=\"prev\" aria-label=\"Previous unit\">{prev}</button>",
            "<button type=\"button\" data-go=\"next\" aria-label=\"Next unit\">{next}</button>",
            "<button type=\"button\" data-go=\"last\" aria-label=\"Last: the end of the line\">{last_icon}</button>",
            "<input type=\"range\" class=\"slider\" min=\"0\" max=\"{last}\" value=\"{last}\" aria-label=\"Unit of the main line\">",
            "</div>"
        ),
        n = n,
        last = last,
        first = icon("M3 3h2v10H3zM13 3v10L6 8z"),
        prev = icon("M11 3v10L4 8z"),
        next = icon("M5 3v10l7-5z"),
        last_icon = icon("M11 3h2v10h-2zM3 3v10l7-5z"),
    );
    out.push_str("<p class=\"keys\">Keys: ← → step, Home / End first and last.</p>\n");
    out.push_str("</figcaption>\n</figure>\n");
    out.push_str("<div class=\"list\" role=\"region\" aria-label=\"Units of the game\">\n");
    out.push_str(&list);
    let _ = writeln!(out, "<p class=\"ending\">{}</p>\n</div>", escape(&g.ending));
    out.push_str("</div>\n</section>\n");
    (
        out,
        GameData {
            steps: b.steps,
            last,
        },
    )
}

/// The page for the games of one file.
pub fn page(games: &[GameView]) -> String {
    let mut body = String::new();
    let mut data = Vec::new();
    for (i, g) in games.iter().enumerate() {
        let (html, d) = section(g, i);
        body.push_str(&html);
        data.push(d);
    }
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    let _ = writeln!(out, "<title>{}</title>", escape(&title(games)));
    let _ = writeln!(out, "<style>{STYLE}</style>\n</head>\n<body>");
    let _ = writeln!(out, "<header><h1>{}</h1>", escape(&title(games)));
    if games.len() > 1 {
        out.push_str("<p><label>Game <select id=\"game-select\">");
        for g in games {
            let tag = |k: &str| g.tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.clone());
            let who = match (tag("White"), tag("Black")) {
                (Some(w), Some(b)) => format!(": {w} – {b}"),
                _ => String::new(),
            };
            let _ = write!(
                out,
                "<option value=\"{}\">{}{}</option>",
                g.number,
                g.number,
                escape(&who)
            );
        }
        out.push_str("</select></label></p>");
    }
    out.push_str("</header>\n<main>\n");
    out.push_str(&body);
    out.push_str("</main>\n");
    let json = serde_json::to_string(&serde_json::json!({ "games": data }))
        .expect("plain data serialises")
        // Inside a script element, `</` would end it.
        .replace("</", "<\\/");
    let _ = writeln!(
        out,
        "<script type=\"application/json\" id=\"senet-data\">{json}</script>"
    );
    let _ = writeln!(out, "<script>{SCRIPT}</script>\n</body>\n</html>");
    out
}
