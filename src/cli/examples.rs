//! The example section at the end of every `--help` (clap's `after_help`).
//! Each line is a command that runs as shown from the repository's root.

pub const SENET: &str = "\
Examples:
  senet rules list                          the built-in rule sets
  senet check games/                        check every record below games/
  senet replay games/kendall-demo.sgn       replay a game on a drawn board
  senet completions bash > senet.bash       completion of commands, rule sets and options

`--color auto|always|never` works on every command; NO_COLOR=1 turns colour off under `auto`.";

pub const RULES: &str = "\
Examples:
  senet rules list
  senet rules show kendall --option K-15a
  senet rules explain K-9a
  senet rules check my-variant.senet";

pub const RULES_LIST: &str = "\
Examples:
  senet rules list
  senet rules list --format json";

pub const RULES_SHOW: &str = "\
Examples:
  senet rules show bga
  senet rules show thai --option T-17b
  senet rules show my-variant.senet --format json
  senet rules show - < my-variant.senet";

pub const RULES_EXPLAIN: &str = "\
Examples:
  senet rules explain K-9a
  senet rules explain T-17 --rules thai
  senet rules explain A-3/lowest --format json";

pub const RULES_CHECK: &str = "\
Examples:
  senet rules check my-variant.senet
  senet rules check - < my-variant.senet
  senet rules check my-variant.senet --format json";

pub const MOVES: &str = "\
Examples:
  senet moves --rules kendall --position 'WBWBWBWBWB/10/10 w 0-0 - 2' --throw 3 --why
  senet moves --rules bga --position '1B3W4/5B4/4WW1W2 w 0-0 - 30' --throw 2 --format json";

pub const CHECK: &str = "\
Examples:
  senet check games/
  senet check game.sgn --format short
  senet check --rules kendall --option K-15a untagged.sgn
  cat game.sgn | senet check -";

pub const FMT: &str = "\
Examples:
  senet fmt game.sgn                rewrite in place
  senet fmt --check games/          exit 1 when a file is not canonical
  senet fmt --stdout - < game.sgn
  senet fmt --check - < game.sgn";

pub const REPLAY: &str = "\
Examples:
  senet replay games/kendall-demo.sgn --to 12
  senet replay games/bga-demo.sgn --format positions
  senet replay --rules kendall untagged.sgn
  senet replay games/bga-demo.sgn --format html --out bga-demo.html";

pub const BOARD: &str = "\
Examples:
  senet board games/bga-demo.sgn --at 14... --format png --out bga-demo-14.png
  senet board --rules kendall --position 'WBWBWBWBWB/10/10 w 0-0 - 1' > start.svg
  senet board games/bga-demo.sgn --format json";

pub const SIMULATE: &str = "\
Examples:
  senet simulate --rules bga --games 10000 --seed 1 --stats
  senet simulate --rules ryabinin --games 100 --player random,greedy --out games.sgn
  senet simulate --rules variants/long.senet --out records/long.sgn --rules-path variants";

pub const ANALYZE: &str = "\
Examples:
  senet analyze games/bga-demo.sgn
  senet analyze games/bga-demo.sgn --annotate --out analysed.sgn
  senet analyze --rules kendall untagged.sgn --format json";

pub const BEST: &str = "\
Examples:
  senet best --rules bga --position 'WBWBWBWBWB/10/10 w 0-0 - 1' --throw 3
  senet best --rules thai --position 'WBWBWBWBWB/10/10 w 0-0 - 1' --format json";

pub const COMPARE: &str = "\
Examples:
  senet compare thai bga kendall+K-15a --games 1000
  senet compare bga kendall --plot svg --out lengths.svg";

pub const COMPLETIONS: &str = "\
Examples:
  senet completions bash > ~/.local/share/bash-completion/completions/senet
  senet completions zsh > ~/.zfunc/_senet
  senet completions fish > ~/.config/fish/completions/senet.fish";
