//! Board pictures: SVG output is snapshotted (the start of every built-in
//! rule set, a position of a record with its last unit and caption, and a
//! board of another size); PNG output is checked for its size and the
//! colours of a few pixels; the HTML page for what it must hold.

use senet::cli::replay::{Format, ReplayOptions, StopAt, replay_game};
use senet::engine::{Position, Side};
use senet::picture::{html, png, svg};
use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path("../fixtures/pictures/snapshots");
    s.set_prepend_module_to_snapshot(false);
    s
}

/// The walk of game 1 of a record up to `to`.
fn view(file: &str, to: Option<&str>, format: Format) -> html::GameView {
    let path = root().join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let opts = ReplayOptions {
        to: to.map(|t| StopAt::parse(t).unwrap()),
        format,
        ..ReplayOptions::default()
    };
    let (out, view) = replay_game(&text, file, path.parent(), &opts).unwrap();
    assert!(out.problems.is_empty(), "{:?}", out.problems);
    view.unwrap()
}

#[test]
fn start_of_every_builtin_rule_set() {
    for name in senet::rules::builtin_names() {
        let rules = senet::rules::load(name, None, &[]).unwrap();
        let start = Position::start(&rules, Side::White);
        let picture = svg::board(&svg::Picture::new(&rules, &start));
        settings().bind(|| insta::assert_snapshot!(format!("start_{name}"), picture));
    }
}

#[test]
fn a_position_of_a_record_with_its_last_unit() {
    // 4... 2:3-1 is the backward move of B-9.
    let v = view("games/bga-demo.sgn", Some("4..."), Format::Svg);
    let last = v.steps.last().unwrap();
    assert_eq!(last.text, "2:3-1");
    let caption = "bga-demo after 4... 2:3-1";
    let picture = svg::board(&svg::Picture {
        rules: &v.rules,
        position: &last.after,
        last: Some(last.played),
        caption: Some(caption),
    });
    assert!(picture.contains("class=\"last\""));
    settings().bind(|| insta::assert_snapshot!("bga_demo_4_black", picture));
}

#[test]
fn a_board_of_another_size() {
    let path = root().join("tests/fixtures/rules/ok/small_board.senet");
    let rules = senet::rules::load(path.to_str().unwrap(), None, &[]).unwrap();
    let pos = Position::parse("WBWBW/B4/5/1W3 w 0-0 - 1", 20, 5).unwrap();
    let picture = svg::board(&svg::Picture::new(&rules, &pos));
    // 20 squares in rows of 5: four rows, the last runs right to left.
    assert_eq!(picture.matches("class=\"square\"").count(), 20);
    settings().bind(|| insta::assert_snapshot!("small_board", picture));
}

/// The RGBA of pixel (x, y) of a PNG.
fn pixel(png: &resvg::tiny_skia::Pixmap, x: u32, y: u32) -> [u8; 4] {
    let c = png.pixel(x, y).unwrap().demultiply();
    [c.red(), c.green(), c.blue(), c.alpha()]
}

fn near(got: [u8; 4], want: [u8; 3]) -> bool {
    got[3] == 255 && got.iter().zip(want).all(|(g, w)| g.abs_diff(w) <= 8)
}

#[test]
fn png_has_the_size_and_colours_of_the_picture() {
    let rules = senet::rules::load("bga", None, &[]).unwrap();
    let start = Position::start(&rules, Side::White);
    let picture = svg::Picture::new(&rules, &start);
    let bytes = png::render(&picture, 1.0).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    let img = resvg::tiny_skia::Pixmap::decode_png(&bytes).unwrap();
    // 10 squares of 64 and 44 either side; 3 rows of 64, 14 above, 78 below.
    assert_eq!((img.width(), img.height()), (728, 284));
    let layout = svg::Layout::new(&rules, false);
    let at = |s: u8, dx: f32, dy: f32| {
        let (x, y) = layout.centre(s);
        pixel(&img, (x + dx) as u32, (y + dy) as u32)
    };
    // White's spool on 1: light in the middle; Black's cone on 2: dark.
    assert!(
        near(at(1, 0.0, 0.0), [0xfb, 0xf8, 0xef]),
        "{:?}",
        at(1, 0.0, 0.0)
    );
    assert!(
        near(at(2, 0.0, 4.0), [0x2a, 0x25, 0x21]),
        "{:?}",
        at(2, 0.0, 4.0)
    );
    // An empty square, a house, and the frame.
    assert!(
        near(at(12, 20.0, 20.0), [0xf3, 0xe7, 0xc6]),
        "{:?}",
        at(12, 20.0, 20.0)
    );
    assert!(
        near(at(26, 22.0, -10.0), [0xea, 0xd5, 0x9f]),
        "{:?}",
        at(26, 22.0, -10.0)
    );
    assert!(
        near(pixel(&img, 43, 100), [0x5b, 0x4a, 0x2f]),
        "{:?}",
        pixel(&img, 43, 100)
    );
    // Scale 2 doubles both sides.
    let big = resvg::tiny_skia::Pixmap::decode_png(&png::render(&picture, 2.0).unwrap()).unwrap();
    assert_eq!((big.width(), big.height()), (1456, 568));
    // The same picture gives the same bytes.
    assert_eq!(bytes, png::render(&picture, 1.0).unwrap());
}

#[test]
fn png_words_are_outlines_of_the_bundled_font() {
    let rules = senet::rules::load("bga", None, &[]).unwrap();
    let start = Position::start(&rules, Side::White);
    let text = svg::board_with(&svg::Picture::new(&rules, &start), svg::Lettering::Outlines);
    assert!(
        !text.contains("<text"),
        "no text element is left for the renderer"
    );
    // Square numbers are drawn: the picture has ink under "15".
    let img = resvg::tiny_skia::Pixmap::decode_png(
        &png::render(&svg::Picture::new(&rules, &start), 1.0).unwrap(),
    )
    .unwrap();
    let layout = svg::Layout::new(&rules, false);
    let (x, y) = layout.centre(15);
    let dark = (0..14)
        .flat_map(|dx| (0..12).map(move |dy| (dx, dy)))
        .filter(|&(dx, dy)| {
            let p = pixel(&img, (x - 27.0) as u32 + dx, (y - 29.0) as u32 + dy);
            p[0] < 0x90
        })
        .count();
    assert!(dark > 10, "the number 15 is drawn ({dark} dark pixels)");
}

#[test]
fn html_page_is_self_contained_and_works_without_script() {
    let v = view("games/bga-demo.sgn", None, Format::Html);
    let units = v.steps.len();
    let last = v.steps.last().unwrap().after;
    let page = html::page(&[v.clone(), html::GameView { number: 2, ..v }]);
    // Nothing is loaded from elsewhere.
    for bad in ["<script src", "<link", "@import", "url(http", "src=\"http"] {
        assert!(!page.contains(bad), "{bad}");
    }
    // Without the script: the final position's pieces and the whole list.
    let final_string = last.write(30, 10);
    assert!(page.contains(&format!("value=\"{final_string}\"")));
    assert!(page.matches("class=\"unit\"").count() >= 2 * units);
    // The controls are hidden until the script shows them, and labelled.
    assert!(
        page.contains(
            "class=\"controls\" role=\"group\" aria-label=\"Step through game 1\" hidden"
        )
    );
    for label in [
        "First: the start position",
        "Previous unit",
        "Next unit",
        "Last: the end of the line",
    ] {
        assert!(page.contains(&format!("aria-label=\"{label}\"")), "{label}");
    }
    // Two games: a chooser, and ids that differ.
    assert!(page.contains("<select id=\"game-select\">"));
    assert!(page.contains("id=\"g2-u1\""));
    // Comments, clause glosses and NAGs reach the list.
    assert!(page.contains("class=\"gloss\">rule B-6"));
    assert!(page.contains("class=\"nag\">"));
    assert!(page.contains("<ol class=\"variation\">"));
}

#[test]
fn readme_picture_is_what_the_tool_draws() {
    // `senet board games/bga-demo.sgn --at 14... --format png` (scale 2,
    // captioned with the unit), as README.md and docs/pictures.md show it.
    let v = view("games/bga-demo.sgn", Some("14..."), Format::Svg);
    let last = v.steps.last().unwrap();
    let caption = format!("after {} {} {}", last.label, last.played.0, last.text);
    let picture = svg::Picture {
        rules: &v.rules,
        position: &last.after,
        last: Some(last.played),
        caption: Some(&caption),
    };
    let drawn = png::render(&picture, 2.0).unwrap();
    let kept = std::fs::read(root().join("docs/pictures/bga-demo-14.png")).unwrap();
    assert!(
        drawn == kept,
        "docs/pictures/bga-demo-14.png is out of date: run the command above with --out"
    );
}

#[test]
fn strip_has_the_start_and_one_picture_per_turn() {
    use senet::cli::board::{Every, replay_pictures};
    use senet::cli::replay::{ColorChoice, ReplayArgs};
    let file = root().join("games/ryabinin-demo-2.sgn");
    let text = std::fs::read_to_string(&file).unwrap();
    let dir = root().join(format!("target/tmp/strip-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let args = ReplayArgs {
        file: file.clone(),
        game: None,
        to: None,
        format: Format::Svg,
        color: ColorChoice::Never,
        rules: None,
        options: Vec::new(),
        out: Some(dir.clone()),
        every: Some(Every::Turn),
        record_rules: senet::cli::RecordRulesArgs {
            rules_paths: Vec::new(),
            max_rule_file_bytes: senet::rules::DEFAULT_MAX_RULE_FILE_BYTES,
        },
    };
    let code = replay_pictures(&args, &text, "ryabinin-demo-2.sgn", file.parent());
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    // A turn ends where the next unit is another side's or another turn's.
    let v = view("games/ryabinin-demo-2.sgn", None, Format::Svg);
    let turns = v
        .steps
        .windows(2)
        .filter(|w| {
            w[0].played.0 != w[1].played.0
                || w[0].label.split('.').next() != w[1].label.split('.').next()
        })
        .count()
        + 1;
    assert_eq!(names.len(), 1 + turns, "{names:?}");
    assert_eq!(names[0], "000.svg");
    let first = std::fs::read_to_string(dir.join(&names[0])).unwrap();
    assert!(first.contains(">start</text>"));
    let last = std::fs::read_to_string(dir.join(names.last().unwrap())).unwrap();
    let unit = &v.steps.last().unwrap().text;
    assert!(last.contains(&format!("{unit}</text>")), "{last}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A house glyph the bundled font lacks (`𓂀`, the Thai rules' House of
/// Horus on 30) is drawn as a box with its code point, not left out: the
/// middle of the square has ink in the PNG.
#[test]
fn png_draws_a_glyph_the_font_lacks() {
    let rules = senet::rules::load("thai", None, &[]).unwrap();
    let start = Position::start(&rules, Side::White);
    let img = resvg::tiny_skia::Pixmap::decode_png(
        &png::render(&svg::Picture::new(&rules, &start), 1.0).unwrap(),
    )
    .unwrap();
    let layout = svg::Layout::new(&rules, false);
    let ink = |square: u8| {
        let (x, y) = layout.centre(square);
        // The glyph's place: the middle of the square, above the name and
        // right of the square number.
        (-14..14)
            .flat_map(|dx| (-18..8).map(move |dy| (dx, dy)))
            .filter(|&(dx, dy)| {
                let p = pixel(&img, (x + dx as f32) as u32, (y + dy as f32) as u32);
                near(p, [0x9c, 0x7f, 0x49]) || p[0] < 0xc0
            })
            .count()
    };
    // ☥ on 15 is in the font; 𓂀 on 30 is not.
    assert!(ink(15) > 20, "☥ is drawn ({} pixels)", ink(15));
    assert!(ink(30) > 20, "𓂀 is drawn ({} pixels)", ink(30));
}

/// The step buttons are drawn, not characters: ⏮ and ⏭ are missing from
/// common fonts and showed as empty boxes. Each keeps its label for screen
/// readers.
#[test]
fn html_step_buttons_need_no_font() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_senet"))
        .args(["replay", "--format", "html", "games/bga-demo.sgn"])
        .current_dir(root())
        .output()
        .unwrap();
    let page = String::from_utf8(out.stdout).unwrap();
    let controls = page
        .split("<div class=\"controls\"")
        .nth(1)
        .and_then(|s| s.split("</div>").next())
        .expect("the step controls");
    for go in ["first", "prev", "next", "last"] {
        let button = controls
            .split(&format!("data-go=\"{go}\""))
            .nth(1)
            .and_then(|s| s.split("</button>").next())
            .unwrap_or_else(|| panic!("no {go} button: {controls}"));
        assert!(button.contains("aria-label=\""), "{go}: {button}");
        let inner = &button[button.find('>').unwrap() + 1..];
        assert!(inner.starts_with("<svg"), "{go} is not drawn: {inner}");
        // Outside the tags, the button holds no text at all.
        let text: String = inner
            .split('<')
            .filter_map(|s| s.split_once('>').map(|(_, t)| t))
            .collect();
        assert!(text.trim().is_empty(), "{go} has the text {text:?}");
    }
}
