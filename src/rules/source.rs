//! Where rule files come from: a built-in name, a path the user gave on
//! the command line (read as given), or a path that a game record names
//! (confined).
//!
//! Stage: a spec (`"thai"`, `"variants/x.senet"`) → an [`Origin`] and the
//! text of the file, for the parser. A record is someone else's input: the
//! rule files it names, and the files those extend, are read only from the
//! record's own folder tree and the folders given with `--rules-path`, only
//! when they are regular files no larger than the cap, and a file outside
//! that area is reported exactly as a file that does not exist
//! (docs/security.md, "Rule files named by records").

use super::builtin;
use crate::diag::SourceFile;
use std::io::Read;
use std::path::{Component, Path, PathBuf};

/// The default cap on the size of a rule file named by a record: the
/// largest built-in rule file is under 8 KB.
pub const DEFAULT_MAX_RULE_FILE_BYTES: u64 = 1 << 20;

/// The most files an `extends` chain may have, the file asked for
/// included. The built-in chains have at most three.
pub const MAX_EXTENDS_CHAIN: usize = 64;

/// What a failed lookup says for a file that is missing and for a file
/// that may not be read: the same words, so that the answer does not tell
/// whether a file exists outside the allowed folders.
pub(super) const NOT_FOUND: &str = "no built-in rule set has this name and no such file exists";

/// Which rule files the records of a run may name: besides built-in names,
/// files inside the record's own folder (or below it) and inside
/// [`Confinement::paths`], each a regular file of at most
/// [`Confinement::max_bytes`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confinement {
    /// Folders given with `--rules-path`, searched after the record's own.
    pub paths: Vec<PathBuf>,
    /// The most bytes a rule file may have.
    pub max_bytes: u64,
}

impl Default for Confinement {
    fn default() -> Self {
        Confinement {
            paths: Vec::new(),
            max_bytes: DEFAULT_MAX_RULE_FILE_BYTES,
        }
    }
}

impl Confinement {
    /// The folders a record in `record_dir` may take rule files from,
    /// resolved (symlinks followed) once. A folder that does not resolve
    /// holds nothing and is left out.
    pub(super) fn roots(&self, record_dir: Option<&Path>) -> Vec<PathBuf> {
        record_dir
            .map(own_folder)
            .into_iter()
            .chain(self.paths.iter().map(PathBuf::as_path))
            .filter_map(|d| std::fs::canonicalize(d).ok())
            .collect()
    }
}

/// The folder of a record, `.` for a file named without one.
fn own_folder(dir: &Path) -> &Path {
    if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }
}

/// How a file is read: as the user named it, or confined to `roots`.
#[derive(Debug, Clone, Copy)]
pub(super) enum Reading<'a> {
    AsGiven,
    Confined {
        roots: &'a [PathBuf],
        max_bytes: u64,
    },
}

/// Where a rule file came from. `id` identifies a file on disk whatever
/// path named it, for cycle detection; it is worked out once per file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Origin {
    Builtin(&'static str),
    Path { path: PathBuf, id: String },
}

impl Origin {
    pub(super) fn builtin(name: &'static str) -> Origin {
        Origin::Builtin(name)
    }
    pub(super) fn path(path: PathBuf) -> Origin {
        let id = std::fs::canonicalize(&path)
            .unwrap_or_else(|_| path.clone())
            .display()
            .to_string();
        Origin::Path { path, id }
    }
    pub(super) fn stem(&self) -> String {
        match self {
            Origin::Builtin(n) => n.to_string(),
            Origin::Path { path, .. } => path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        }
    }
    /// The identity used for cycle detection.
    pub(super) fn id(&self) -> String {
        match self {
            Origin::Builtin(n) => format!("<builtin>/{n}.senet"),
            Origin::Path { id, .. } => id.clone(),
        }
    }
    /// The folder a relative `extends` of this file is resolved against.
    pub(super) fn dir(&self) -> Option<PathBuf> {
        match self {
            Origin::Path { path, .. } => path.parent().map(Path::to_path_buf),
            Origin::Builtin(_) => None,
        }
    }
}

/// Why a spec gave no file.
#[derive(Debug, Clone)]
pub(super) enum Unread {
    /// No such built-in and no such file, or a file that may not be read:
    /// the caller cannot tell which.
    NotFound,
    /// A file that may be read but cannot serve as a rule file (not a
    /// regular file, too large, not UTF-8, unreadable): the reason.
    Unusable(String),
    /// A file named on the command line whose bytes are not UTF-8: its
    /// text with U+FFFD for the bad bytes, and the offset of the first.
    NotUtf8(SourceFile, usize),
}

impl Unread {
    pub(super) fn reason(&self) -> String {
        match self {
            Unread::NotFound => NOT_FOUND.to_string(),
            Unread::Unusable(r) => r.clone(),
            Unread::NotUtf8(..) => "the text is not UTF-8".to_string(),
        }
    }
}

/// Resolves a spec (built-in name or path) to an origin and its text.
/// A relative path is taken against `relative_to` when given, else the
/// working directory; confined reading also searches its other roots.
pub(super) fn resolve(
    spec: &str,
    relative_to: Option<&Path>,
    reading: Reading<'_>,
) -> Result<(Origin, SourceFile), Unread> {
    if let Some(text) = builtin::builtin_source(spec) {
        let name = builtin::builtin_name(spec).unwrap_or("builtin");
        return Ok((
            Origin::builtin(name),
            SourceFile::new(format!("<builtin>/{name}.senet"), text),
        ));
    }
    match reading {
        Reading::AsGiven => {
            let path = match relative_to {
                Some(dir) if Path::new(spec).is_relative() => dir.join(spec),
                _ => PathBuf::from(spec),
            };
            let bytes = std::fs::read(&path).map_err(|e| {
                if e.kind() == std::io::ErrorKind::NotFound {
                    Unread::NotFound
                } else {
                    Unread::Unusable(e.to_string())
                }
            })?;
            let text = match String::from_utf8(bytes) {
                Ok(text) => text,
                // An error of the file at the byte, not of reading it.
                Err(e) => {
                    let at = e.utf8_error().valid_up_to();
                    let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                    let shown = SourceFile::new(path.display().to_string(), text);
                    return Err(Unread::NotUtf8(shown, at));
                }
            };
            Ok((
                Origin::path(path.clone()),
                SourceFile::new(path.display().to_string(), text),
            ))
        }
        Reading::Confined { roots, max_bytes } => {
            let (shown, real) = locate(spec, relative_to, roots).ok_or(Unread::NotFound)?;
            let text = read_capped(&real, roots, max_bytes)?;
            let id = real.display().to_string();
            Ok((
                Origin::Path {
                    path: shown.clone(),
                    id,
                },
                SourceFile::new(shown.display().to_string(), text),
            ))
        }
    }
}

/// The first place `spec` names inside `roots`: against `relative_to`,
/// then against each root. Returns the path as named (for messages) and
/// the resolved path (symlinks followed) that was checked to lie inside a
/// root. An absolute spec, or one that resolves outside every root, finds
/// nothing.
fn locate(spec: &str, relative_to: Option<&Path>, roots: &[PathBuf]) -> Option<(PathBuf, PathBuf)> {
    let named = Path::new(spec);
    if spec.is_empty()
        || named
            .components()
            .any(|c| matches!(c, Component::RootDir | Component::Prefix(_)))
    {
        return None;
    }
    let bases = relative_to
        .map(own_folder)
        .into_iter()
        .chain(roots.iter().map(PathBuf::as_path));
    for base in bases {
        let shown = base.join(named);
        // Resolving follows every symlink and `..`; the check is on where
        // the path really leads.
        let Ok(real) = std::fs::canonicalize(&shown) else {
            continue;
        };
        if roots.iter().any(|r| real.starts_with(r)) {
            return Some((shown, real));
        }
    }
    None
}

/// Reads a file that must be a regular file of at most `max_bytes` bytes of
/// UTF-8. The file is opened without following a symlink and without
/// waiting on a FIFO, and what was opened is checked, not what the path
/// named a moment before: where the system can say which file an open
/// descriptor is (Linux), that file must still lie inside `roots`, in case
/// a folder on the way was swapped for a symlink after [`locate`].
fn read_capped(path: &Path, roots: &[PathBuf], max_bytes: u64) -> Result<String, Unread> {
    let unusable = |e: std::io::Error| Unread::Unusable(e.to_string());
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    // Devices and FIFOs are not even opened (opening some has effects);
    // the check after opening covers a file swapped in between.
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.is_file() => return Err(Unread::Unusable("not a regular file".to_string())),
        Ok(_) => {}
        Err(_) => return Err(Unread::NotFound),
    }
    // Opening failed: the path no longer leads to a file that may be read.
    let file = options.open(path).map_err(|_| Unread::NotFound)?;
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let opened = std::fs::read_link(format!("/proc/self/fd/{}", file.as_raw_fd()));
        if let Ok(opened) = opened
            && !roots.iter().any(|r| opened.starts_with(r))
        {
            return Err(Unread::NotFound);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = roots;
    let meta = file.metadata().map_err(unusable)?;
    if !meta.is_file() {
        return Err(Unread::Unusable("not a regular file".to_string()));
    }
    if meta.len() > max_bytes {
        return Err(Unread::Unusable(too_large(max_bytes)));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The file may grow after the check: never read past the cap.
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(unusable)?;
    if bytes.len() as u64 > max_bytes {
        return Err(Unread::Unusable(too_large(max_bytes)));
    }
    String::from_utf8(bytes)
        .map_err(|_| Unread::Unusable("not a rule file: the text is not UTF-8".to_string()))
}

fn too_large(max_bytes: u64) -> String {
    format!(
        "larger than {max_bytes} bytes, the most a rule file named by a record may have (--max-rule-file-bytes)"
    )
}
