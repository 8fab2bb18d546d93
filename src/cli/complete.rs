//! Values that shell completion offers: the built-in rule set names for
//! `--rules`, and the option names of the built-in rule sets for
//! `--option`. Both flags still take any value (a `.senet` path, an option
//! of a rule file of one's own); the lists only feed completion and are
//! hidden from `--help`.

use clap::builder::{PossibleValue, TypedValueParser};
use std::ffi::OsStr;
use std::sync::OnceLock;

/// The text of a flag's value, as clap's own `String` parser takes it.
fn text(cmd: &clap::Command, value: &OsStr) -> Result<String, clap::Error> {
    value
        .to_str()
        .map(str::to_owned)
        .ok_or_else(|| clap::Error::new(clap::error::ErrorKind::InvalidUtf8).with_cmd(cmd))
}

/// `--rules NAME|FILE`: completes the built-in names.
#[derive(Debug, Clone, Copy)]
pub struct RuleSpec;

impl TypedValueParser for RuleSpec {
    type Value = String;
    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        text(cmd, value)
    }
    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            crate::rules::builtin_names()
                .into_iter()
                .map(PossibleValue::new),
        ))
    }
}

/// Every option name of the built-in rule sets, sorted, once per run.
pub fn option_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names: Vec<String> = crate::rules::builtin_names()
            .into_iter()
            .filter_map(|n| crate::rules::load(n, None, &[]).ok())
            .flat_map(|r| {
                r.meta()
                    .options
                    .iter()
                    .map(|(o, _)| o.clone())
                    .collect::<Vec<_>>()
            })
            .collect();
        names.sort();
        names.dedup();
        // Built once and kept for the run: clap's values borrow for 'static.
        names
            .into_iter()
            .map(|n| &*Box::leak(n.into_boxed_str()))
            .collect()
    })
}

/// `--option NAME`: completes the option names of the built-in rule sets.
#[derive(Debug, Clone, Copy)]
pub struct OptionName;

impl TypedValueParser for OptionName {
    type Value = String;
    fn parse_ref(
        &self,
        cmd: &clap::Command,
        _arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        let name = text(cmd, value)?;
        // `--option ''`, `--option ' '`, `--option 'A-1;;A-14'`: an empty
        // name selects nothing, as in a record's `RuleOptions` tag.
        if name.split(';').any(|part| part.trim().is_empty()) {
            return Err(clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!(
                    "`--option '{}'` has an empty option name: give one name per `--option`, e.g. `--option A-3/lowest`\n",
                    crate::diag::printable(&name)
                ),
            )
            .with_cmd(cmd));
        }
        // `A–3/lowest` with an en dash: no option has such a name.
        match crate::notation::lookalike::in_word(&name) {
            Some(hint) => Err(clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("no option is named so: {hint}\n"),
            )
            .with_cmd(cmd)),
            None => Ok(name),
        }
    }
    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            option_names().iter().map(|n| PossibleValue::new(*n)),
        ))
    }
}

/// The PowerShell script that clap writes completes flags and subcommands
/// only: this adds the values that bash, zsh and fish offer, the built-in
/// rule set names after `--rules` (and as `compare`'s rule sets) and the
/// option names after `--option`.
pub fn powershell_values(script: &str) -> String {
    let list = |names: &[&str]| {
        names
            .iter()
            .map(|n| format!("'{n}'"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let block = format!(
        r#"
    # Values: rule set names after --rules and for compare, option names
    # after --option.
    $words = @($commandElements | ForEach-Object {{ $_.ToString() }})
    $before = if ($wordToComplete -eq '') {{ $words[-1] }} elseif ($words.Count -ge 2) {{ $words[-2] }} else {{ '' }}
    $ruleNames = @({rules})
    $values = if ($before -eq '--rules') {{ $ruleNames }}
        elseif ($before -eq '--option') {{ @({options}) }}
        elseif ($words.Count -ge 2 -and $words[1] -eq 'compare' -and -not $wordToComplete.StartsWith('-')) {{ $ruleNames }}
        else {{ $null }}
    if ($values) {{
        $values | Where-Object {{ $_ -like "$wordToComplete*" }} | ForEach-Object {{
            [CompletionResult]::new($_, $_, [CompletionResultType]::ParameterValue, $_)
        }}
        return
    }}
"#,
        rules = list(&crate::rules::builtin_names()),
        options = list(option_names()),
    );
    let anchor = "$commandElements = $commandAst.CommandElements\n";
    match script.find(anchor) {
        Some(i) => {
            let at = i + anchor.len();
            format!("{}{block}{}", &script[..at], &script[at..])
        }
        None => script.to_string(),
    }
}
