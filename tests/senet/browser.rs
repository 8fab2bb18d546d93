//! The HTML replay in a real browser: headless Chromium loads the page of
//! every record in `games/`, a driver script steps through every unit of
//! every game with the arrow keys and clicks every unit of every variation,
//! and the board shown after each step (the pieces on the picture, the
//! trays, the position string in the copy field) must be the position the
//! replay computes. Screenshots of the first and last position of two games
//! are compared with `tests/screenshots/*.png`.
//!
//! Chromium is `SENET_CHROMIUM`, or `chromium` / `chromium-browser` on the
//! `PATH`; without it these tests print a notice and pass. A screenshot that
//! differs is written beside the checked-in one as `NAME.new.png`: look at
//! both, and rename the new one over the old if it is right (or run with
//! `SENET_SCREENSHOTS=overwrite`).

use senet::cli::replay::{Format, ReplayOptions, render_replay, replay_game};
use senet::engine::{Position, Side};
use senet::picture::html;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The browser, or `None` with a notice.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("SENET_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    eprintln!(
        "notice: browser tests skipped: no Chromium found (install the Debian package `chromium`, or set SENET_CHROMIUM)"
    );
    None
}

/// A scratch directory for this test run.
fn scratch(what: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = root().join("target/tmp").join(format!(
        "browser-{}-{what}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs Chromium headless on `url` with a fresh profile, adding `extra`.
fn browse(chrome: &Path, url: &str, extra: &[String]) -> String {
    let profile = scratch("profile");
    let out = Command::new(chrome)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", chrome.display()));
    let _ = std::fs::remove_dir_all(&profile);
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The page of every game of a record, as `senet replay --format html`
/// writes it.
fn page(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let n = senet::notation::Reader::new(&text).count();
    let views: Vec<_> = (1..=n)
        .map(|g| {
            let opts = ReplayOptions {
                game: g,
                format: Format::Html,
                ..ReplayOptions::default()
            };
            let (out, view) = replay_game(&text, "game", path.parent(), &opts).unwrap();
            assert!(
                out.problems.is_empty(),
                "{}: {:?}",
                path.display(),
                out.problems
            );
            view.unwrap()
        })
        .collect();
    html::page(&views)
}

/// Steps through every game with the keyboard, then clicks every unit of
/// every variation; writes one line per board shown into `#driver-log`.
const DRIVER: &str = r#"<script>
(function () {
  var R = window.senetReplay, log = [];
  var sections = document.querySelectorAll('section.game');
  function key(k) { document.body.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true })); }
  function board(tag) {
    var g = R.current()[0], sec = sections[g], cells = [], trays = [];
    sec.querySelectorAll('.layer use[data-square]').forEach(function (u) {
      cells.push(u.getAttribute('data-square') + u.getAttribute('data-side'));
    });
    sec.querySelectorAll('.layer g.tray').forEach(function (t) {
      trays.push(t.getAttribute('data-side') + t.getAttribute('data-off') + '/' + t.getAttribute('data-hand'));
    });
    log.push(tag + (g + 1) + '|' + cells.join(' ') + '|' + trays.join(' ') + '|' + sec.querySelector('.pos').value);
  }
  var sel = document.getElementById('game-select');
  for (var g = 0; g < sections.length; g++) {
    if (sel) { sel.value = String(g + 1); sel.dispatchEvent(new Event('change')); }
    key('Home');
    board('M');
    for (var guard = 0; guard < 100000; guard++) {
      var before = R.current()[1];
      key('ArrowRight');
      if (R.current()[1] === before) { break; }
      board('M');
    }
    sections[g].querySelectorAll('ol.variation button.unit').forEach(function (b) {
      b.click();
      board('V');
    });
  }
  var pre = document.createElement('pre');
  pre.id = 'driver-log';
  pre.textContent = log.join('\n');
  document.body.appendChild(pre);
})();
</script>"#;

/// What the driver reads off the board for an engine position.
fn expected(p: &Position, len: u8) -> String {
    let cells: Vec<String> = (1..=len)
        .filter_map(|s| p.at(s).map(|side| format!("{s}{}", side.letter())))
        .collect();
    let trays: Vec<String> = Side::BOTH
        .iter()
        .map(|&s| format!("{}{}/{}", s.letter(), p.off[s.index()], p.hand[s.index()]))
        .collect();
    format!("{}|{}", cells.join(" "), trays.join(" "))
}

/// The positions of every variation unit of a JSON replay, depth first.
fn variation_positions(units: &[serde_json::Value], out: &mut Vec<String>, inside: bool) {
    for u in units {
        if inside {
            out.push(u["position"].as_str().unwrap().to_string());
        }
        for v in u["variations"].as_array().unwrap() {
            variation_positions(v.as_array().unwrap(), out, true);
        }
    }
}

/// Checks the driver's log of one record against the replay.
fn check_log(path: &Path, log: &str) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let n = senet::notation::Reader::new(&text).count();
    let lines: Vec<&str> = log.lines().collect();
    let mut k = 0;
    let mut steps = 0;
    for g in 1..=n {
        let o = |format| ReplayOptions {
            game: g,
            format,
            ..ReplayOptions::default()
        };
        let positions = render_replay(&text, "game", path.parent(), &o(Format::Positions))
            .unwrap()
            .text;
        let json: serde_json::Value = serde_json::from_str(
            &render_replay(&text, "game", path.parent(), &o(Format::Json))
                .unwrap()
                .text,
        )
        .unwrap();
        let rules = senet::rules::load(json["rules"].as_str().unwrap(), path.parent(), &[]);
        // The rule set's board size, for reading position strings.
        let (len, row_len) = match rules {
            Ok(r) => (r.board().len, r.board().row_len),
            Err(_) => (30, 10),
        };
        let mut want: Vec<(char, String)> =
            positions.lines().map(|p| ('M', p.to_string())).collect();
        let mut vars = Vec::new();
        variation_positions(json["units"].as_array().unwrap(), &mut vars, false);
        want.extend(vars.into_iter().map(|p| ('V', p)));
        for (tag, pos) in want {
            let line = lines.get(k).unwrap_or_else(|| {
                panic!(
                    "{} game {g}: the page showed fewer steps than the replay ({k})",
                    path.display()
                )
            });
            let p = Position::parse(&pos, len, row_len).unwrap();
            let wanted = format!("{tag}{g}|{}|{pos}", expected(&p, len));
            assert_eq!(
                *line,
                wanted,
                "{} game {g}, step {k} of the page",
                path.display()
            );
            k += 1;
            steps += 1;
        }
    }
    assert_eq!(
        k,
        lines.len(),
        "{}: the page showed more steps than the replay",
        path.display()
    );
    steps
}

fn records() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["games", "games/generated"] {
        let mut v: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
            .collect();
        v.sort();
        files.extend(v);
    }
    files
}

#[test]
fn every_unit_of_every_record_shows_the_replayed_position() {
    let Some(chrome) = chromium() else {
        return;
    };
    let files = records();
    assert!(files.len() >= 10);
    let dir = scratch("pages");
    // Two browsers at a time: one per core.
    let next = AtomicUsize::new(0);
    let total = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    let html = page(path).replace("</body>", &format!("{DRIVER}\n</body>"));
                    let file = dir.join(format!("{i}.html"));
                    std::fs::write(&file, html).unwrap();
                    let dom = browse(
                        &chrome,
                        &format!("file://{}", file.display()),
                        &["--dump-dom".to_string()],
                    );
                    let log = dom
                        .split_once("<pre id=\"driver-log\">")
                        .and_then(|(_, rest)| rest.split_once("</pre>"))
                        .map(|(log, _)| log.to_string())
                        .unwrap_or_else(|| {
                            panic!(
                                "{}: the driver wrote no log (did the page script fail?)",
                                path.display()
                            )
                        });
                    total.fetch_add(check_log(path, &log), Ordering::Relaxed);
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        total.load(Ordering::Relaxed) > 1000,
        "too few steps checked"
    );
}

/// The share of pixels that differ by more than `tolerance` in any channel.
fn differing(a: &resvg::tiny_skia::Pixmap, b: &resvg::tiny_skia::Pixmap, tolerance: u8) -> f64 {
    let n = a
        .data()
        .chunks(4)
        .zip(b.data().chunks(4))
        .filter(|(p, q)| {
            p.iter()
                .zip(q.iter())
                .any(|(x, y)| x.abs_diff(*y) > tolerance)
        })
        .count();
    n as f64 / (a.width() * a.height()) as f64
}

#[test]
fn screenshots_of_first_and_last_positions_match() {
    let Some(chrome) = chromium() else {
        return;
    };
    let dir = scratch("shots");
    let overwrite = std::env::var("SENET_SCREENSHOTS").is_ok_and(|v| v == "overwrite");
    let mut failures = Vec::new();
    for game in ["bga-demo", "thai-demo"] {
        let path = root().join(format!("games/{game}.sgn"));
        let file = dir.join(format!("{game}.html"));
        std::fs::write(&file, page(&path)).unwrap();
        for (shot, fragment) in [("first", "g1-s0"), ("last", "g1-last")] {
            let png = dir.join(format!("{game}-{shot}.png"));
            browse(
                &chrome,
                &format!("file://{}#{fragment}", file.display()),
                &[
                    format!("--screenshot={}", png.display()),
                    "--window-size=1100,1000".to_string(),
                ],
            );
            let got = resvg::tiny_skia::Pixmap::load_png(&png).unwrap();
            let keep = root().join(format!("tests/screenshots/{game}-{shot}.png"));
            let new = keep.with_extension("new.png");
            if overwrite {
                std::fs::copy(&png, &keep).unwrap();
                continue;
            }
            let same = match resvg::tiny_skia::Pixmap::load_png(&keep) {
                Ok(want) => {
                    want.width() == got.width()
                        && want.height() == got.height()
                        && differing(&want, &got, 48) < 0.002
                }
                Err(_) => false,
            };
            if same {
                let _ = std::fs::remove_file(&new);
            } else {
                std::fs::copy(&png, &new).unwrap();
                failures.push(format!("{} differs: see {}", keep.display(), new.display()));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        failures.is_empty(),
        "{}\nIf the new screenshots are right, rename them over the old ones.",
        failures.join("\n")
    );
}
