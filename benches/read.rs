//! Reader and writer throughput on a generated corpus: the 20 example
//! records of `tests/fixtures/sgn/ok`, repeated with small variations
//! (fixed seed) to about 64 MB. Prints MB/s for the in-memory reader, the
//! streaming reader (alone, and keeping each game's source as `senet check`
//! does) and the writer. `cargo bench --bench read`.

use rand::{Rng, SeedableRng};
use senet::notation::reader::{Reader, StreamReader};
use senet::notation::writer::write_game;
use std::path::Path;
use std::time::Instant;

fn corpus(target: usize) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sgn/ok");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "sgn"))
        .map(|p| std::fs::read_to_string(p).unwrap())
        .collect();
    files.sort();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(7);
    let mut out = String::with_capacity(target + 20_000);
    let mut round = 0;
    while out.len() < target {
        let f = &files[rng.random_range(0..files.len())];
        round += 1;
        if !out.is_empty() {
            out.push('\n');
        }
        // Vary the Round tag so that games differ.
        out.push_str(&f.replacen("[Round \"1\"]", &format!("[Round \"{round}\"]"), 1));
    }
    out
}

fn mbps(bytes: usize, secs: f64) -> f64 {
    bytes as f64 / 1e6 / secs
}

/// CPU time of this thread in seconds (Linux), so that a busy machine does
/// not count against the reader; wall time elsewhere.
fn cpu_seconds() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    Some(s.split_whitespace().next()?.parse::<f64>().ok()? / 1e9)
}

/// Runs `f` three times; the best (wall, CPU) seconds.
fn time(mut f: impl FnMut()) -> (f64, f64) {
    let (mut wall, mut cpu) = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        let (t, c) = (Instant::now(), cpu_seconds());
        f();
        wall = wall.min(t.elapsed().as_secs_f64());
        if let (Some(c0), Some(c1)) = (c, cpu_seconds()) {
            cpu = cpu.min(c1 - c0);
        }
    }
    (wall, if cpu == f64::MAX { wall } else { cpu })
}

fn report(what: &str, bytes: usize, (wall, cpu): (f64, f64)) {
    println!(
        "{what:<18} {:>6.0} MB/s (CPU time)  {:>6.0} MB/s (wall clock)",
        mbps(bytes, cpu),
        mbps(bytes, wall)
    );
}

fn main() {
    let text = corpus(64 << 20);
    let n = text.len();
    println!("corpus: {:.1} MB", n as f64 / 1e6);

    let mut games = 0;
    let t = time(|| {
        games = 0;
        let mut nodes = 0usize;
        for g in Reader::new(&text) {
            nodes += g.expect("the corpus reads").nodes.len();
            games += 1;
        }
        std::hint::black_box(nodes);
    });
    println!("{games} games");
    report("in-memory reader", n, t);

    let t = time(|| {
        let mut r = StreamReader::new(std::io::BufReader::with_capacity(1 << 16, text.as_bytes()));
        let mut count = 0;
        while let Some(g) = r.next_game() {
            g.expect("the corpus reads");
            count += 1;
        }
        assert_eq!(count, games);
    });
    report("streaming reader", n, t);

    // As `senet check` reads: the source of every game kept for diagnostics.
    let t = time(|| {
        let mut r = StreamReader::new(std::io::BufReader::with_capacity(1 << 16, text.as_bytes()));
        let mut bytes = 0;
        while let Some(g) = r.next_game() {
            g.expect("the corpus reads");
            bytes += r.source().text.len();
        }
        assert!(bytes >= n / 2);
    });
    report("  + source()", n, t);

    let parsed: Vec<_> = Reader::new(&text).map(Result::unwrap).collect();
    let t = time(|| {
        let mut out = String::with_capacity(n + 1024);
        for (i, g) in parsed.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            write_game(g, &mut out);
        }
        assert_eq!(out.len(), n, "the corpus is canonical");
    });
    report("writer", n, t);
}
